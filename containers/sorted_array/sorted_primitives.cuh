#pragma once
// CUB-backed batch primitives shared by the sorted array and the LSM: sort a batch so that the
// latest occurrence of a key comes first, stable merge, unique-by-key, flagged select, exclusive
// scan. Each call allocates its CUB temporary storage stream-ordered on `stream` (the driver's
// pool makes that cheap) and synchronises only where it returns a count. Also the definitions of
// wg::PointQueries (point_queries.hpp: find, count, successor over the container's device view)
// and the scan-and-fill half of the containers' two-pass range.
//
// Include only from .cu files: this header pulls in CUB.
#include <cub/device/device_merge.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include <cstddef>
#include <cstdint>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/sorted_array/point_queries.hpp>
#include <warpgraph/containers/sorted_array/range_result.cuh>

namespace wg::sorted_detail {

inline constexpr int kBlock = 256;

inline unsigned grid_for(std::uint64_t n, int block = kBlock) {
  const std::uint64_t g = (n + block - 1) / block;
  return static_cast<unsigned>(g < 65535u * 16u ? (g ? g : 1) : 65535u * 16u);
}

/// Runs a CUB device call twice: once to size the temporary storage, once to do the work.
template <class F>
void cub_run(cudaStream_t stream, F&& f) {
  std::size_t bytes = 0;
  WG_CUDA_TRY(f(nullptr, bytes));
  DeviceBuffer<std::byte> temp(bytes ? bytes : 1, stream, "CUB temporary storage");
  WG_CUDA_TRY(f(temp.data(), bytes));
}

/// out[i] = in[n - 1 - i]: a stable sort of the reversed batch puts the latest occurrence of each
/// key first.
template <class Key, class Value>
__global__ void reverse_pairs_kernel(const Key* __restrict__ keys, const Value* __restrict__ values,
                                     std::uint64_t n, Key* __restrict__ out_keys,
                                     Value* __restrict__ out_values) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    out_keys[i] = keys[n - 1 - i];
    out_values[i] = values ? values[n - 1 - i] : Value{};
  }
}

/// Stable radix sort of (keys, values) on key bits [begin_bit, end_bit). The sorted batch ends in
/// the buffers `current` names afterwards: false = (k0, v0), true = (k1, v1).
template <class Key, class Value>
bool sort_pairs(Key* k0, Value* v0, Key* k1, Value* v1, std::uint64_t n, int begin_bit, int end_bit,
                cudaStream_t stream) {
  cub::DoubleBuffer<Key> dk(k0, k1);
  cub::DoubleBuffer<Value> dv(v0, v1);
  cub_run(stream, [&](void* t, std::size_t& b) {
    return cub::DeviceRadixSort::SortPairs(t, b, dk, dv, static_cast<std::int64_t>(n), begin_bit,
                                           end_bit, stream);
  });
  return dk.selector != 0;
}

/// Merges two sorted runs; among equal keys (by `less`) every element of run 1 precedes every
/// element of run 2. CUB's DeviceMerge documents itself as unstable in general, but its serial
/// merge takes from the second run only when that key is strictly smaller, which is the
/// guarantee thrust::merge_by_key (the same dispatch) documents as stable; the model tests
/// check it on every batch.
template <class Key, class Value, class Less>
void merge_pairs(const Key* ka, const Value* va, std::uint64_t na, const Key* kb, const Value* vb,
                 std::uint64_t nb, Key* ko, Value* vo, Less less, cudaStream_t stream) {
  if (na + nb == 0) return;
  cub_run(stream, [&](void* t, std::size_t& b) {
    return cub::DeviceMerge::MergePairs(t, b, ka, va, static_cast<std::int64_t>(na), kb, vb,
                                        static_cast<std::int64_t>(nb), ko, vo, less, stream);
  });
}

/// Keeps the first pair of each run of equal keys (by `eq`); returns how many (synchronises).
template <class Key, class Value, class Eq>
std::uint64_t unique_by_key(const Key* kin, const Value* vin, Key* kout, Value* vout,
                            std::uint64_t n, Eq eq, cudaStream_t stream) {
  if (n == 0) return 0;
  DeviceBuffer<std::uint64_t> count(1, stream);
  cub_run(stream, [&](void* t, std::size_t& b) {
    return cub::DeviceSelect::UniqueByKey(t, b, kin, vin, kout, vout, count.data(),
                                          static_cast<std::int64_t>(n), eq, stream);
  });
  return count.to_host(stream)[0];
}

/// out = the items whose flag is non-zero, in order; returns how many (synchronises).
template <class T>
std::uint64_t select_flagged(const T* in, const std::uint8_t* flags, T* out, std::uint64_t n,
                             cudaStream_t stream) {
  if (n == 0) return 0;
  DeviceBuffer<std::uint64_t> count(1, stream);
  cub_run(stream, [&](void* t, std::size_t& b) {
    return cub::DeviceSelect::Flagged(t, b, in, flags, out, count.data(),
                                      static_cast<std::int64_t>(n), stream);
  });
  return count.to_host(stream)[0];
}

/// In place exclusive prefix sum of n counts.
inline void exclusive_sum(std::uint64_t* data, std::uint64_t n, cudaStream_t stream) {
  if (n == 0) return;
  cub_run(stream, [&](void* t, std::size_t& b) {
    return cub::DeviceScan::ExclusiveSum(t, b, data, data, static_cast<std::int64_t>(n), stream);
  });
}

}  // namespace wg::sorted_detail

namespace wg::sorted_detail {

/// Radix sort of keys alone (not stable-relevant: equal keys are identical); returns the sorted
/// buffer (k0 or k1).
template <class Key>
Key* sort_keys(Key* k0, Key* k1, std::uint64_t n, cudaStream_t stream) {
  cub::DoubleBuffer<Key> dk(k0, k1);
  cub_run(stream, [&](void* t, std::size_t& b) {
    return cub::DeviceRadixSort::SortKeys(t, b, dk, static_cast<std::int64_t>(n), 0,
                                          int(sizeof(Key) * 8), stream);
  });
  return dk.Current();
}

struct Less {
  template <class T>
  __host__ __device__ bool operator()(const T& a, const T& b) const {
    return a < b;
  }
};
struct Equal {
  template <class T>
  __host__ __device__ bool operator()(const T& a, const T& b) const {
    return a == b;
  }
};

}  // namespace wg::sorted_detail

namespace wg::sorted_detail {

// Bulk queries over a device view Ref (SortedArrayRef, LsmRef): Ref::find(k, &value),
// Ref::count(k1, k2) and Ref::successor(k, &key, &value), one thread per query. The view is a
// __grid_constant__ parameter, so a member call reads it in place instead of copying it to
// local memory.

template <class Ref, class Key, class Value>
__global__ void find_kernel(const __grid_constant__ Ref ref, const Key* __restrict__ q,
                            std::uint64_t n, Value* out_values, std::uint8_t* out_found) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    Value v{};
    const bool hit = ref.find(q[i], &v);
    if (hit && out_values) out_values[i] = v;
    if (out_found) out_found[i] = hit;
  }
}

template <class Ref, class Key>
__global__ void count_kernel(const __grid_constant__ Ref ref, const Key* __restrict__ k1,
                             const Key* __restrict__ k2, std::uint64_t n,
                             std::uint64_t* __restrict__ out) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x)
    out[i] = ref.count(k1[i], k2[i]);
}

template <class Ref, class Key, class Value>
__global__ void successor_kernel(const __grid_constant__ Ref ref, const Key* __restrict__ q,
                                 std::uint64_t n, Key* out_keys, Value* out_values,
                                 std::uint8_t* out_found) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    Key k{};
    Value v{};
    const bool hit = ref.successor(q[i], &k, &v);
    if (hit && out_keys) out_keys[i] = k;
    if (hit && out_values) out_values[i] = v;
    if (out_found) out_found[i] = hit;
  }
}

/// The second half of a two-pass range over n > 0 queries: r.offsets[0, n) holds the counting
/// pass's per-query counts (and r.offsets[n] == 0); scans them into offsets, reads the total
/// (one synchronisation), sizes r.keys / r.values and, when there is any answer, runs
/// `fill_pass()` (which launches the fill kernel).
template <class Key, class Value, class FillPass>
void finish_range(RangeResult<Key, Value>& r, std::uint64_t n, cudaStream_t stream,
                  FillPass&& fill_pass) {
  exclusive_sum(r.offsets.data(), n + 1, stream);
  WG_CUDA_TRY(cudaMemcpyAsync(&r.total, r.offsets.data() + n, sizeof(std::uint64_t),
                              cudaMemcpyDeviceToHost, stream));
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
  r.keys = DeviceBuffer<Key>(r.total, stream);
  r.values = DeviceBuffer<Value>(r.total, stream);
  if (r.total) {
    fill_pass();
    WG_CUDA_CHECK_LAST();
  }
}

}  // namespace wg::sorted_detail

namespace wg {

template <class Derived, class Key, class Value>
void PointQueries<Derived, Key, Value>::find(const Key* queries, std::uint64_t n, Value* out_values,
                                             std::uint8_t* out_found, cudaStream_t stream) const {
  if (n == 0) return;
  sorted_detail::find_kernel<<<sorted_detail::grid_for(n), sorted_detail::kBlock, 0, stream>>>(
      static_cast<const Derived&>(*this).ref(), queries, n, out_values, out_found);
  WG_CUDA_CHECK_LAST();
}

template <class Derived, class Key, class Value>
void PointQueries<Derived, Key, Value>::count(const Key* k1, const Key* k2, std::uint64_t n,
                                              std::uint64_t* out_counts,
                                              cudaStream_t stream) const {
  if (n == 0) return;
  sorted_detail::count_kernel<<<sorted_detail::grid_for(n), sorted_detail::kBlock, 0, stream>>>(
      static_cast<const Derived&>(*this).ref(), k1, k2, n, out_counts);
  WG_CUDA_CHECK_LAST();
}

template <class Derived, class Key, class Value>
void PointQueries<Derived, Key, Value>::successor(const Key* queries, std::uint64_t n,
                                                  Key* out_keys, Value* out_values,
                                                  std::uint8_t* out_found,
                                                  cudaStream_t stream) const {
  if (n == 0) return;
  sorted_detail::successor_kernel<<<sorted_detail::grid_for(n), sorted_detail::kBlock, 0, stream>>>(
      static_cast<const Derived&>(*this).ref(), queries, n, out_keys, out_values, out_found);
  WG_CUDA_CHECK_LAST();
}

}  // namespace wg
