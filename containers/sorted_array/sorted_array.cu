// wg::SortedArray: batch updates by radix sort + stable merge + unique, queries by binary search.
#include <warpgraph/containers/sorted_array/sorted_array.cuh>
#include <warpgraph/containers/sorted_array/sorted_primitives.cuh>

#include <string>

namespace wg {
namespace {

using sorted_detail::grid_for;
using sorted_detail::kBlock;

template <class Key>
__global__ void erase_flags_kernel(const Key* __restrict__ keys, std::uint64_t n,
                                   const Key* __restrict__ erased, std::uint64_t m,
                                   std::uint8_t* __restrict__ keep) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    const Key k = keys[i];
    const std::uint64_t j = lower_bound_index(erased, m, k);
    keep[i] = !(j < m && erased[j] == k);
  }
}

/// The counting pass of range: out[i] = the keys in [k1[i], k2[i]], first[i] = the index of the
/// first of them, so the fill pass does not search again.
template <class Key, class Value>
__global__ void range_count_kernel(SortedArrayRef<Key, Value> ref, const Key* __restrict__ k1,
                                   const Key* __restrict__ k2, std::uint64_t n,
                                   std::uint64_t* __restrict__ out,
                                   std::uint64_t* __restrict__ first) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    const Key a = k1[i], b = k2[i];
    std::uint64_t lo = 0, c = 0;
    if (!(b < a)) {
      lo = ref.lower_bound(a);
      c = upper_bound_from(ref.keys, ref.size, lo, b) - lo;
    }
    out[i] = c;
    first[i] = lo;
  }
}

/// One warp per query: the lanes copy the query's slice with coalesced accesses, from the index
/// the counting pass found.
template <class Key, class Value>
__global__ void range_fill_kernel(SortedArrayRef<Key, Value> ref, std::uint64_t n,
                                  const std::uint64_t* __restrict__ first,
                                  const std::uint64_t* __restrict__ offsets,
                                  Key* __restrict__ out_keys, Value* __restrict__ out_values) {
  const unsigned lane = threadIdx.x % 32;
  const std::uint64_t warps = std::uint64_t(gridDim.x) * blockDim.x / 32;
  for (std::uint64_t q = (blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x) / 32; q < n;
       q += warps) {
    const std::uint64_t at = offsets[q];
    const std::uint64_t cnt = offsets[q + 1] - at;
    const std::uint64_t lo = first[q];
    for (std::uint64_t j = lane; j < cnt; j += 32) {
      out_keys[at + j] = ref.keys[lo + j];
      out_values[at + j] = ref.values[lo + j];
    }
  }
}

/// A batch's pairs sorted by key, a key's latest occurrence first (reversed, then a stable radix
/// sort): in (k[at], v[at]); (k[1 - at], v[1 - at]) is free scratch of the same size.
template <class Key, class Value>
struct SortedBatch {
  DeviceBuffer<Key> k[2];
  DeviceBuffer<Value> v[2];
  int at = 0;
};

template <class Key, class Value>
SortedBatch<Key, Value> sort_batch(const Key* keys, const Value* values, std::uint64_t n,
                                   cudaStream_t stream) {
  SortedBatch<Key, Value> b{{DeviceBuffer<Key>(n, stream), DeviceBuffer<Key>(n, stream)},
                            {DeviceBuffer<Value>(n, stream), DeviceBuffer<Value>(n, stream)}};
  sorted_detail::reverse_pairs_kernel<<<grid_for(n), kBlock, 0, stream>>>(
      keys, values, n, b.k[0].data(), b.v[0].data());
  WG_CUDA_CHECK_LAST();
  b.at = sorted_detail::sort_pairs(b.k[0].data(), b.v[0].data(), b.k[1].data(), b.v[1].data(), n, 0,
                                   int(sizeof(Key) * 8), stream)
             ? 1
             : 0;
  return b;
}

}  // namespace

template <class Key, class Value>
SortedArray<Key, Value>::SortedArray(const SortedArrayOptions& options, cudaStream_t stream)
    : capacity_(options.capacity) {
  (void)stream;
}

template <class Key, class Value>
std::uint64_t SortedArray<Key, Value>::insert(const Key* keys, const Value* values, std::uint64_t n,
                                              cudaStream_t stream) {
  if (n == 0) return 0;
  if (!keys) throw InvalidArgument("SortedArray::insert: null keys");
  const SortedBatch<Key, Value> batch = sort_batch(keys, values, n, stream);
  const Key* bk = batch.k[batch.at].data();
  const Value* bv = batch.v[batch.at].data();
  // The batch is run 1 of the merge, so its pair precedes the resident one of an equal key and
  // unique_by_key keeps it: insert-or-assign with the batch's latest value.
  const std::uint64_t total = size_ + n;
  DeviceBuffer<Key> mk(total, stream);
  DeviceBuffer<Value> mv(total, stream);
  sorted_detail::merge_pairs(bk, bv, n, keys_.data(), values_.data(), size_, mk.data(), mv.data(),
                             sorted_detail::Less{}, stream);
  DeviceBuffer<Key> uk(total, stream);
  DeviceBuffer<Value> uv(total, stream);
  const std::uint64_t m = sorted_detail::unique_by_key(mk.data(), mv.data(), uk.data(), uv.data(),
                                                       total, sorted_detail::Equal{}, stream);
  if (m > capacity_)
    throw CapacityError("SortedArray", capacity_,
                        "insert of " + std::to_string(n) + " pairs would hold " +
                            std::to_string(m) + " keys; the batch was not applied");
  return m - replace(std::move(uk), std::move(uv), m);
}

template <class Key, class Value>
std::uint64_t SortedArray<Key, Value>::erase(const Key* keys, std::uint64_t n,
                                             cudaStream_t stream) {
  if (n == 0 || size_ == 0) return 0;
  if (!keys) throw InvalidArgument("SortedArray::erase: null keys");
  DeviceBuffer<Key> k0(n, stream), k1(n, stream);
  WG_CUDA_TRY(cudaMemcpyAsync(k0.data(), keys, n * sizeof(Key), cudaMemcpyDeviceToDevice, stream));
  const Key* sorted = sorted_detail::sort_keys(k0.data(), k1.data(), n, stream);
  DeviceBuffer<std::uint8_t> keep(size_, stream);
  erase_flags_kernel<<<grid_for(size_), kBlock, 0, stream>>>(keys_.data(), size_, sorted, n,
                                                             keep.data());
  WG_CUDA_CHECK_LAST();
  DeviceBuffer<Key> nk(size_, stream);
  DeviceBuffer<Value> nv(size_, stream);
  const std::uint64_t m =
      sorted_detail::select_flagged(keys_.data(), keep.data(), nk.data(), size_, stream);
  sorted_detail::select_flagged(values_.data(), keep.data(), nv.data(), size_, stream);
  return replace(std::move(nk), std::move(nv), m) - m;
}

template <class Key, class Value>
std::uint64_t SortedArray<Key, Value>::build(const Key* keys, const Value* values, std::uint64_t n,
                                             cudaStream_t stream) {
  if (n == 0) {
    size_ = 0;
    return 0;
  }
  if (!keys) throw InvalidArgument("SortedArray::build: null keys");
  SortedBatch<Key, Value> batch = sort_batch(keys, values, n, stream);
  // Unique into the buffers the sort did not end in.
  const int out = 1 - batch.at;
  const std::uint64_t m = sorted_detail::unique_by_key(
      batch.k[batch.at].data(), batch.v[batch.at].data(), batch.k[out].data(), batch.v[out].data(),
      n, sorted_detail::Equal{}, stream);
  if (m > capacity_)
    throw CapacityError(
        "SortedArray", capacity_,
        "build of " + std::to_string(m) + " distinct keys; the array was not changed");
  replace(std::move(batch.k[out]), std::move(batch.v[out]), m);
  return m;
}

template <class Key, class Value>
std::uint64_t SortedArray<Key, Value>::replace(DeviceBuffer<Key>&& keys,
                                               DeviceBuffer<Value>&& values, std::uint64_t m) {
  const std::uint64_t old = size_;
  keys_ = std::move(keys);
  values_ = std::move(values);
  size_ = m;
  return old;
}

template <class Key, class Value>
RangeResult<Key, Value> SortedArray<Key, Value>::range(const Key* k1, const Key* k2,
                                                       std::uint64_t n, cudaStream_t stream) const {
  RangeResult<Key, Value> r;
  r.offsets = DeviceBuffer<std::uint64_t>(n + 1, stream);
  r.offsets.fill_bytes(0, stream);
  if (n == 0) return r;
  DeviceBuffer<std::uint64_t> first(n, stream);
  range_count_kernel<<<grid_for(n), kBlock, 0, stream>>>(ref(), k1, k2, n, r.offsets.data(),
                                                         first.data());
  WG_CUDA_CHECK_LAST();
  sorted_detail::finish_range(r, n, stream, [&] {
    range_fill_kernel<<<grid_for(n * 32), kBlock, 0, stream>>>(
        ref(), n, first.data(), r.offsets.data(), r.keys.data(), r.values.data());
  });
  return r;
}

template <class Key, class Value>
std::pair<std::vector<Key>, std::vector<Value>> SortedArray<Key, Value>::to_host(
    cudaStream_t stream) const {
  return {keys_.to_host(stream, size_), values_.to_host(stream, size_)};
}

template class SortedArray<std::uint32_t, std::uint32_t>;
template class SortedArray<std::uint64_t, std::uint32_t>;
template class PointQueries<SortedArray<std::uint32_t, std::uint32_t>, std::uint32_t,
                            std::uint32_t>;
template class PointQueries<SortedArray<std::uint64_t, std::uint32_t>, std::uint64_t,
                            std::uint32_t>;

}  // namespace wg
