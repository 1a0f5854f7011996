#pragma once
// Read-only phases: edge lookups (has_edges, prepared lookups) and the export to CSR.
//
// Part of wg::gpu::DynamicGraph's implementation (private to graph/gpu): the kernels live in
// wg::gpu::detail::query and are launched and instantiated by one translation unit.
#include <warpgraph/graph/gpu/slab/detail/kernels/kernel_common.cuh>

namespace wg::gpu::detail::query {

// Lookups run in phases of their own (no update of the graph in the same kernel), so each
// thread walks its query's chain alone through the read-only cache (has_edge): a warp's
// 32 queries are all in flight at once. (32-lane lookups, one query after another per warp,
// took 32 round trips per warp.)
template <class Adj>
__global__ void contains_prepared_kernel(DynamicGraphRef<Adj> g, const std::uint64_t* keys,
                                         std::uint64_t m, unsigned bits, std::uint8_t* out) {
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint64_t k = keys[i];
    out[i] = g.has_edge(static_cast<vertex_t>(k >> bits), static_cast<vertex_t>(k & mask));
  }
}

template <class Adj>
__global__ void has_edges_kernel(DynamicGraphRef<Adj> g, const vertex_t* src, const vertex_t* dst,
                                 std::uint64_t n, std::uint8_t* out, std::uint32_t* values_out) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const vertex_t u = src[i], v = dst[i];
    bool hit = false;
    std::uint32_t value = 0;
    if (u != v && g.is_live(u) && g.is_live(v)) {
      if constexpr (Adj::weighted)
        hit = g.table(u).find_thread(v, &value);
      else
        hit = g.table(u).contains_thread(v);
    }
    out[i] = hit;
    if (values_out) values_out[i] = hit ? value : 0u;
  }
}

// ---- export ---------------------------------------------------------------------------------

template <class Adj>
__global__ void export_kernel(DynamicGraphRef<Adj> g, const std::uint64_t* offsets,
                              vertex_t* targets, std::uint32_t* values, Counters* counters) {
  const warp_tile tile = this_warp();
  const std::uint64_t warps = (std::uint64_t{gridDim.x} * blockDim.x) / 32;
  const unsigned lane = tile.thread_rank();
  for (std::uint64_t u = global_warp_id(); u < g.num_vertices(); u += warps) {
    const std::uint64_t base = offsets[u], degree = offsets[u + 1] - offsets[u];
    std::uint64_t cursor = 0;
    g.for_each_slab(tile, static_cast<vertex_t>(u),
                    [&](std::uint32_t key, std::uint32_t value, std::uint32_t) {
                      const bool valid = slab::is_valid_key(key);
                      const WarpSlot slot = warp_slot(tile, valid);
                      const std::uint64_t pos = cursor + slot.rank;
                      if (valid && pos < degree) {
                        targets[base + pos] = key;
                        if (values) values[base + pos] = value;
                      }
                      cursor += slot.count;
                    });
    if (lane == 0 && cursor != degree) atomicAdd(&counters->a, 1ull);  // degree mismatch
  }
}

}  // namespace wg::gpu::detail::query
