#pragma once
// Kernels of prepared batches (unique canonical edges in key order: DynamicGraph::prepare).
//
// Part of wg::gpu::DynamicGraph's implementation (private to graph/gpu): the kernels live in
// wg::gpu::detail::prepared and are launched and instantiated by one translation unit.
#include <warpgraph/graph/gpu/slab/detail/kernels/arc_ops.cuh>

namespace wg::gpu::detail::prepared {

// Every arc of a prepared batch is its edge's only one, so a thread inserts or erases it alone
// (one-thread exclusive operations, a batch's chain walks all in flight at once); only an
// insert whose chain needs a new slab that the thread could not get goes to the 32-lane insert.

// state bits per prepared edge: 1 forward arc done, 2 forward arc was new, 4 reverse arc done,
// 8 reverse arc was new. Re-launched after the allocator grows, for the arcs not done.
template <class Adj>
__global__ void insert_prepared_kernel(DynamicGraphRef<Adj> g, const std::uint64_t* keys,
                                       const std::uint32_t* values, std::uint64_t m, unsigned bits,
                                       bool both, std::uint8_t* state, Counters* counters) {
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  const thread_tile one{};
  unsigned added = 0, failed = 0;
  warp_stride_loop(m, [&](const warp_tile& tile, std::uint64_t i, bool active) {
    const std::uint32_t st = active ? state[i] : 0xFFu;
    const bool todo = active && (!(st & 1u) || (both && !(st & 4u)));
    const std::uint64_t key = todo ? keys[i] : 0;
    const std::uint32_t value = (todo && values) ? values[i] : 0u;
    const vertex_t u = static_cast<vertex_t>(key >> bits), v = static_cast<vertex_t>(key & mask);
    const VertexEntry eu = todo ? g.load_entry(u) : VertexEntry{};
    const VertexEntry ev = (todo && both) ? g.load_entry(v) : VertexEntry{};
    std::uint32_t ns = st;
    unsigned left = 0;  // arcs for the 32-lane loop: 1 forward, 2 reverse
    if (todo)
      ns = insert_edge_arcs_tiled<Adj::weighted>(st, both, left, [&](bool reverse) {
        constexpr slab::FirstRead kFirst =
            batch_first_read(BatchOp::insert, Adj::weighted, /*sorted=*/true);
        return reverse ? insert_arc_tiled<kFirst>(one, g, ev, u, value)
                       : insert_arc_tiled<kFirst>(one, g, eu, v, value);
      });
    for_each_active_lane(tile, left != 0, [&](int src) {
      const unsigned arcs = tile.shfl(left, src);
      const std::uint32_t val = tile.shfl(value, src);
      std::uint32_t r = tile.shfl(ns, src);
      if (arcs & 1u) {
        const std::uint32_t o =
            insert_arc(tile, g.table_at(shfl_entry(tile, eu, src)), tile.shfl(v, src), val);
        failed += o == 0;
        r |= o;
      }
      if (arcs & 2u) {
        if (!Adj::weighted && (r & 3u) == 1u) {
          r |= 4u;
        } else if (r & 1u) {
          const std::uint32_t o =
              insert_arc(tile, g.table_at(shfl_entry(tile, ev, src)), tile.shfl(u, src), val);
          failed += o == 0;
          r |= o << 2;
        }
      }
      if (static_cast<int>(tile.thread_rank()) == src) ns = r;
    });
    const bool fwd_new = todo && (ns & 2u) && !(st & 2u);
    const bool rev_new = todo && (ns & 8u) && !(st & 8u);
    add_degrees(tile, g.degree_ptr(0), u, fwd_new, 1);
    add_degrees(tile, g.degree_ptr(0), v, rev_new, 1);
    if (todo) {
      state[i] = static_cast<std::uint8_t>(ns);
      if (fwd_new) ++added;
    }
  });
  const warp_tile tile = this_warp();
  warp_add(tile, &counters->a, added);
  warp_add(tile, &counters->b, failed);  // counted by all lanes: > 0 is what matters
}

// is_new[i] = the forward arc of prepared edge i was added (state bit 2).
__global__ void state_to_flags_kernel(const std::uint8_t* state, std::uint64_t n,
                                      std::uint8_t* is_new) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    is_new[i] = (state[i] & 2u) ? 1 : 0;
}

template <class Adj>
__global__ void erase_prepared_kernel(DynamicGraphRef<Adj> g, const std::uint64_t* keys,
                                      std::uint64_t m, unsigned bits, bool both,
                                      std::uint8_t* was_present, Counters* counters) {
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  const thread_tile one{};
  unsigned removed = 0;
  warp_stride_loop(m, [&](const warp_tile& tile, std::uint64_t i, bool active) {
    const std::uint64_t key = active ? keys[i] : 0;
    const vertex_t u = static_cast<vertex_t>(key >> bits), v = static_cast<vertex_t>(key & mask);
    const VertexEntry eu = active ? g.load_entry(u) : VertexEntry{};
    const VertexEntry ev = (active && both) ? g.load_entry(v) : VertexEntry{};
    constexpr slab::FirstRead kFirst = batch_first_read(BatchOp::erase, Adj::weighted, true);
    const bool hit = active && erase_arc_tiled<kFirst, kEraseLinks>(one, g, eu, v);
    // Both arcs are present or absent together.
    const bool rev = both && hit && erase_arc_tiled<kFirst, kEraseLinks>(one, g, ev, u);
    add_degrees(tile, g.degree_ptr(0), u, hit, -1);
    add_degrees(tile, g.degree_ptr(0), v, rev, -1);
    if (active) {
      if (was_present) was_present[i] = hit;
      removed += hit;
    }
  });
  warp_add(this_warp(), &counters->a, removed);
}

}  // namespace wg::gpu::detail::prepared
