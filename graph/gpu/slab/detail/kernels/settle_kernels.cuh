#pragma once
// What an insert batch that stops with wg::CapacityError leaves behind (dynamic_graph.hpp,
// "Errors"): its edges with one arc done are settled, so each edge of the batch is in the graph in
// full or not at all and the degrees stay exact.
//
// A batch stops between passes, when the allocator cannot grow; the edges it has not finished are
// the owners still to retry (apply_batch's retry items) or the prepared edges whose state is not
// complete. Only an undirected edge can be half done: its arcs go in one after the other, and a
// deferred or out-of-slabs forward arc does not keep the reverse one from going in.
//
// Part of wg::gpu::DynamicGraph's implementation (private to graph/gpu): the kernels live in
// wg::gpu::detail::settle and are launched and instantiated by one translation unit.
#include <warpgraph/graph/gpu/slab/detail/kernels/arc_ops.cuh>
#include <warpgraph/graph/gpu/slab/detail/kernels/batch_pass.cuh>

namespace wg::gpu::detail::settle {

/// Settles undirected edge {u, v} (u -> v its forward arc) whose arcs' state is `st` (bits as in
/// insert_edge_arcs_tiled: 1 forward done, 2 it was new, 4 reverse done, 8 it was new). An arc the
/// batch added to a half-done edge is erased again and its degree given back; an arc found
/// present means the edge was in the graph before (both arcs were), and a map gives the other arc
/// the same value. Returns 1 when a new forward arc was erased (the batch counted it as applied).
/// Erases and in-place assignments only: no slab is needed.
template <class Adj>
__device__ unsigned settle_edge(const DynamicGraphRef<Adj>& g, vertex_t u, vertex_t v,
                                std::uint32_t st, std::uint32_t value) {
  const bool fwd = st & 1u, rev = st & 4u;
  if (fwd == rev) return 0;
  const thread_tile one{};
  constexpr auto kFirst = slab::FirstRead::relaxed;
  constexpr auto kLinks = slab::ChainLinks::growing;
  // The arc done (x -> y, new or not) and the other one (y -> x).
  const vertex_t x = fwd ? u : v, y = fwd ? v : u;
  const bool was_new = fwd ? (st & 2u) : (st & 8u);
  if (was_new) {
    if (erase_arc_tiled<kFirst, kLinks>(one, g, g.load_entry(x), y)) atomicSub(g.degree_ptr(x), 1u);
    return fwd ? 1u : 0u;
  }
  if constexpr (Adj::weighted) insert_arc_tiled<kFirst>(one, g, g.load_entry(y), x, value);
  return 0;
}

/// apply_batch's retry items (entry << 8 | state) left when the batch stopped: settles their
/// edges (p.both). counters->a: forward arcs erased.
template <class Adj>
__global__ void settle_batch_kernel(DynamicGraphRef<Adj> g, BatchPass p,
                                    const unsigned long long* items, std::uint64_t m,
                                    Counters* counters) {
  unsigned undone = 0;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; p.both && i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint64_t entry = items[i] >> 8;
    const auto st = static_cast<std::uint32_t>(items[i] & 0xFFu);
    vertex_t u, v;
    if (p.keys) {
      sorted_entry(p, entry, u, v);  // canonical already
    } else {
      u = min(p.src[entry], p.dst[entry]);
      v = max(p.src[entry], p.dst[entry]);
    }
    undone += settle_edge(g, u, v, st, p.values ? p.values[entry] : 0u);
  }
  if (undone) atomicAdd(&counters->a, static_cast<unsigned long long>(undone));
}

/// insert_prepared's edges (undirected: `both`) whose state is not complete when it stopped
/// (see settle_edge). counters->a: forward arcs erased.
template <class Adj>
__global__ void settle_prepared_kernel(DynamicGraphRef<Adj> g, const std::uint64_t* keys,
                                       const std::uint32_t* values, std::uint64_t m, unsigned bits,
                                       bool both, const std::uint8_t* state, Counters* counters) {
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  unsigned undone = 0;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; both && i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    undone += settle_edge(g, static_cast<vertex_t>(keys[i] >> bits),
                          static_cast<vertex_t>(keys[i] & mask), state[i], values ? values[i] : 0u);
  if (undone) atomicAdd(&counters->a, static_cast<unsigned long long>(undone));
}

}  // namespace wg::gpu::detail::settle
