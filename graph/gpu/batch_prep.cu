// Batch preprocessing with CUB (the only translation unit of the graph that includes CUB).
#include <thrust/iterator/counting_iterator.h>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/graph/gpu/batch_prep.hpp>
#include <warpgraph/graph/gpu/launch_grid.hpp>

namespace wg::gpu {
namespace detail::prep {

// The preprocessing kernels stride too, over grids of up to 2^20 blocks.
unsigned prep_grid_for(std::uint64_t n) {
  return grid_for(n, std::uint64_t{1} << 20);
}

struct PrepCounters {
  unsigned long long self_loops;
  unsigned long long invalid;
  unsigned long long selected;
};

__global__ void canonicalise_kernel(const vertex_t* __restrict__ src,
                                    const vertex_t* __restrict__ dst,
                                    const std::uint32_t* __restrict__ values_in, std::uint64_t n,
                                    const std::uint8_t* __restrict__ live,
                                    std::uint64_t num_vertices, unsigned bits, bool canonical,
                                    std::uint64_t* __restrict__ keys,
                                    std::uint32_t* __restrict__ values,
                                    unsigned long long* self_loops, unsigned long long* invalids) {
  const std::uint64_t sentinel = (std::uint64_t{1} << (2 * bits)) - 1;
  unsigned self = 0, invalid = 0;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    vertex_t u = src[i], v = dst[i];
    std::uint64_t key;
    if (u == v) {
      key = sentinel;
      ++self;
    } else if (u >= num_vertices || v >= num_vertices || (live && (!live[u] || !live[v]))) {
      key = sentinel;
      ++invalid;
    } else {
      if (canonical && u > v) {
        const vertex_t t = u;
        u = v;
        v = t;
      }
      key = (std::uint64_t{u} << bits) | v;
    }
    keys[i] = key;
    if (values) values[i] = values_in ? values_in[i] : 0u;
  }
  // Warp-aggregated counts.
  self = __reduce_add_sync(0xFFFFFFFFu, self);
  invalid = __reduce_add_sync(0xFFFFFFFFu, invalid);
  if ((threadIdx.x & 31) == 0) {
    if (self) atomicAdd(self_loops, static_cast<unsigned long long>(self));
    if (invalid) atomicAdd(invalids, static_cast<unsigned long long>(invalid));
  }
}

// flags[i] = 1 for the last entry of each run of equal keys, sentinels excluded.
__global__ void last_of_run_kernel(const std::uint64_t* __restrict__ keys, std::uint64_t n,
                                   std::uint64_t sentinel, std::uint8_t* __restrict__ flags) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint64_t k = keys[i];
    flags[i] = k != sentinel && (i + 1 == n || keys[i + 1] != k);
  }
}

/// Runs a CUB call twice (size query, then work) with scratch from the stream-ordered pool.
template <class Call>
void cub_call(cudaStream_t stream, Call&& call) {
  std::size_t bytes = 0;
  WG_CUDA_TRY(call(nullptr, bytes));
  DeviceBuffer<char> temp(bytes ? bytes : 1, stream, "CUB scratch");
  WG_CUDA_TRY(call(temp.data(), bytes));
}

__global__ void count_flags_kernel(const std::uint8_t* __restrict__ flags, std::uint64_t n,
                                   unsigned long long* sum) {
  unsigned c = 0;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    c += flags[i] != 0;
  c = __reduce_add_sync(0xFFFFFFFFu, c);
  if ((threadIdx.x & 31) == 0 && c) atomicAdd(sum, static_cast<unsigned long long>(c));
}

}  // namespace detail::prep
using namespace detail::prep;

unsigned key_bits_for(std::uint64_t num_vertices) {
  unsigned bits = 1;
  while (bits < 32 && (std::uint64_t{1} << bits) < num_vertices) ++bits;
  // (2^bits - 1, 2^bits - 1) is the sentinel: it must not be a real id pair; it is a self-loop,
  // so any id range fits.
  return bits;
}

void pack_edge_keys(DeviceEdges in, const std::uint8_t* live, std::uint64_t num_vertices,
                    unsigned bits, bool canonical, std::uint64_t* keys, std::uint32_t* values,
                    unsigned long long* self_loops, unsigned long long* invalid,
                    cudaStream_t stream) {
  if (in.size == 0) return;
  canonicalise_kernel<<<prep_grid_for(in.size), kBlock, 0, stream>>>(
      in.src, in.dst, in.values, in.size, live, num_vertices, bits, canonical, keys, values,
      self_loops, invalid);
  WG_CUDA_CHECK_LAST();
}

void prepare_batch(DeviceEdges in, const std::uint8_t* live, std::uint64_t num_vertices,
                   bool canonical, bool with_values, cudaStream_t stream, PreparedBatch& out) {
  if (num_vertices > kVertexIdLimit)
    throw InvalidArgument("vertex id range of " + std::to_string(num_vertices) +
                          " ids is past the id limit of 2^31 (wg::kVertexIdLimit)");
  const std::uint64_t n = in.size;
  const unsigned bits = key_bits_for(num_vertices);
  const std::uint64_t sentinel = (std::uint64_t{1} << (2 * bits)) - 1;
  out.key_bits = bits;
  out.entries = n;
  out.dropped = {};
  out.size = 0;
  if (n == 0) return;

  DeviceBuffer<PrepCounters> counters(1, stream, "batch counters");
  WG_CUDA_TRY(cudaMemsetAsync(counters.data(), 0, sizeof(PrepCounters), stream));
  DeviceBuffer<std::uint64_t> keys_a(n, stream, "batch keys"), keys_b(n, stream, "batch keys");
  DeviceBuffer<std::uint32_t> vals_a, vals_b;
  if (with_values) {
    vals_a = DeviceBuffer<std::uint32_t>(n, stream, "batch values");
    vals_b = DeviceBuffer<std::uint32_t>(n, stream, "batch values");
  }
  pack_edge_keys(in, live, num_vertices, bits, canonical, keys_a.data(),
                 with_values ? vals_a.data() : nullptr, &counters.data()->self_loops,
                 &counters.data()->invalid, stream);

  const int end_bit = static_cast<int>(2 * bits);
  if (with_values) {
    cub_call(stream, [&](void* t, std::size_t& b) {
      return cub::DeviceRadixSort::SortPairs(t, b, keys_a.data(), keys_b.data(), vals_a.data(),
                                             vals_b.data(), n, 0, end_bit, stream);
    });
  } else {
    cub_call(stream, [&](void* t, std::size_t& b) {
      return cub::DeviceRadixSort::SortKeys(t, b, keys_a.data(), keys_b.data(), n, 0, end_bit,
                                            stream);
    });
  }
  DeviceBuffer<std::uint8_t> flags(n, stream, "batch flags");
  last_of_run_kernel<<<prep_grid_for(n), kBlock, 0, stream>>>(keys_b.data(), n, sentinel,
                                                              flags.data());
  WG_CUDA_CHECK_LAST();

  unsigned long long* selected = &counters.data()->selected;
  cub_call(stream, [&](void* t, std::size_t& b) {
    return cub::DeviceSelect::Flagged(t, b, keys_b.data(), flags.data(), keys_a.data(), selected, n,
                                      stream);
  });
  if (with_values) {
    cub_call(stream, [&](void* t, std::size_t& b) {
      return cub::DeviceSelect::Flagged(t, b, vals_b.data(), flags.data(), vals_a.data(), selected,
                                        n, stream);
    });
  }
  PrepCounters h{};
  WG_CUDA_TRY(cudaMemcpyAsync(&h, counters.data(), sizeof h, cudaMemcpyDeviceToHost, stream));
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
  out.size = h.selected;
  out.dropped.self_loops = h.self_loops;
  out.dropped.ignored = h.invalid;
  out.dropped.duplicates = n - h.self_loops - h.invalid - h.selected;
  out.keys = std::move(keys_a);
  out.values = std::move(vals_a);
}

void exclusive_scan(const std::uint64_t* in, std::uint64_t* out, std::uint64_t n,
                    cudaStream_t stream) {
  WG_CUDA_TRY(cudaMemsetAsync(out, 0, sizeof(std::uint64_t), stream));
  if (n == 0) return;
  // Inclusive sum into out[1..n].
  cub_call(stream, [&](void* t, std::size_t& b) {
    return cub::DeviceScan::InclusiveSum(t, b, in, out + 1, n, stream);
  });
}

std::uint64_t select_flagged(const std::uint64_t* keys, const std::uint32_t* values,
                             const std::uint8_t* flags, std::uint64_t n, std::uint64_t* keys_out,
                             std::uint32_t* values_out, cudaStream_t stream) {
  if (n == 0) return 0;
  DeviceBuffer<unsigned long long> count(1, stream, "select count");
  cub_call(stream, [&](void* t, std::size_t& b) {
    return cub::DeviceSelect::Flagged(t, b, keys, flags, keys_out, count.data(), n, stream);
  });
  if (values) {
    cub_call(stream, [&](void* t, std::size_t& b) {
      return cub::DeviceSelect::Flagged(t, b, values, flags, values_out, count.data(), n, stream);
    });
  }
  return count.to_host()[0];
}

std::uint64_t flagged_ids(const std::uint32_t* flags, std::uint64_t n, std::uint32_t* out,
                          cudaStream_t stream) {
  if (n == 0) return 0;
  DeviceBuffer<unsigned long long> count(1, stream, "select count");
  const thrust::counting_iterator<std::uint32_t> ids(0);
  cub_call(stream, [&](void* t, std::size_t& b) {
    return cub::DeviceSelect::Flagged(t, b, ids, flags, out, count.data(), n, stream);
  });
  return count.to_host()[0];
}

void sort_keys(const std::uint64_t* in, std::uint64_t* out, std::uint64_t n, int end_bit,
               DeviceBuffer<char>& temp, cudaStream_t stream, const std::uint32_t* values_in,
               std::uint32_t* values_out) {
  if (n == 0) return;
  const auto sort = [&](void* t, std::size_t& bytes) {
    return values_in ? cub::DeviceRadixSort::SortPairs(t, bytes, in, out, values_in, values_out, n,
                                                       0, end_bit, stream)
                     : cub::DeviceRadixSort::SortKeys(t, bytes, in, out, n, 0, end_bit, stream);
  };
  std::size_t bytes = 0;
  WG_CUDA_TRY(sort(nullptr, bytes));
  if (temp.size() < bytes) {
    temp = DeviceBuffer<char>();
    temp = DeviceBuffer<char>(bytes, stream, "batch sort scratch");
  }
  WG_CUDA_TRY(sort(temp.data(), bytes));
}

std::uint64_t count_flags(const std::uint8_t* flags, std::uint64_t n, cudaStream_t stream) {
  if (n == 0) return 0;
  DeviceBuffer<unsigned long long> sum(1, stream, "flag count");
  WG_CUDA_TRY(cudaMemsetAsync(sum.data(), 0, sizeof(unsigned long long), stream));
  count_flags_kernel<<<prep_grid_for(n), kBlock, 0, stream>>>(flags, n, sum.data());
  WG_CUDA_CHECK_LAST();
  return sum.to_host()[0];
}

}  // namespace wg::gpu
