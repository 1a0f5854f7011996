#pragma once
// The kernels of a bulk build (DynamicGraph::build): the degrees of its entries, and the sizing of
// its tables from them (with a scan, or for small builds without one).
//
// Part of wg::gpu::DynamicGraph's implementation (private to graph/gpu): the kernels live in
// wg::gpu::detail::build and are launched and instantiated by one translation unit.
#include <warpgraph/graph/gpu/slab/detail/kernels/kernel_common.cuh>

namespace wg::gpu::detail::build {

__global__ void build_degree_kernel(const std::uint64_t* keys, std::uint64_t m, unsigned bits,
                                    bool both, unsigned long long* degree) {
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint64_t k = keys[i];
    atomicAdd(&degree[k >> bits], 1ull);
    if (both) atomicAdd(&degree[k & mask], 1ull);
  }
}

// Arcs per vertex of a raw batch (self-loops and out-of-range entries skipped; duplicates
// counted, so the tables are sized for at most the batch's arcs). `zero`, if given, is set to 0:
// a counter of the next kernel, which saves a memset. `empty`, if given, gets `slabs` empty
// slabs: a small build's pool, whose stores overlap the atomics' latency here.
template <class Count>
__global__ void raw_degree_kernel(DeviceEdges e, std::uint64_t n, bool both, Count* degree,
                                  unsigned long long* zero = nullptr, slab::Slab* empty = nullptr,
                                  std::uint64_t slabs = 0) {
  if (zero && blockIdx.x == 0 && threadIdx.x == 0) *zero = 0;
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  const std::uint64_t tid = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  uint4* const words = reinterpret_cast<uint4*>(empty);
  for (std::uint64_t w = tid; w < slabs * (sizeof(slab::Slab) / sizeof(uint4)); w += stride)
    words[w] = make_uint4(~0u, ~0u, ~0u, ~0u);
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < e.size;
       i += stride) {
    const vertex_t u = e.src[i], v = e.dst[i];
    if (u == v || u >= n || v >= n) continue;
    atomicAdd(&degree[u], Count{1});
    if (both) atomicAdd(&degree[v], Count{1});
  }
}

__global__ void buckets_kernel(unsigned long long* degree_in_buckets_out, std::uint64_t n,
                               double load_factor, unsigned slab_capacity) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    degree_in_buckets_out[i] = detail::buckets_for(static_cast<double>(degree_in_buckets_out[i]),
                                                   load_factor * slab_capacity);
  }
}

/// Sizes each vertex's table for the d raw arcs counted in raw[i] (then zeroed, as the graph's
/// incoming[] is between calls), as buckets_kernel does, without a scan: one bucket is pool[i],
/// several are a run taken from pool[n..] by a bump counter (`used`, zero); raw_degree_kernel
/// filled the pool empty (with the whole grid: a hub's thread filling its own run held up
/// facebook_combined's build). Degrees are zeroed and ids 0..n-1 marked live.
__global__ void size_small_tables_kernel(VertexEntry* entries, std::uint32_t* degree,
                                         std::uint32_t* raw, std::uint8_t* live, std::uint64_t n,
                                         slab::Slab* pool, double per_bucket,
                                         unsigned long long* used) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const auto nb = detail::buckets_for<std::uint32_t>(static_cast<double>(raw[i]), per_bucket);
    raw[i] = 0;
    VertexEntry e;
    e.buckets =
        nb == 1 ? pool + i : pool + n + atomicAdd(used, static_cast<unsigned long long>(nb));
    e.num_buckets = nb;
    e.live = 1;
    entries[i] = e;
    degree[i] = 0;
    live[i] = 1;
  }
}

}  // namespace wg::gpu::detail::build
