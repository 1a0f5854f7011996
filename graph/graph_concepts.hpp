#pragma once
// The graph concepts: everything an algorithm, a tool or a test may use of a graph. Every
// backend and adjacency satisfies them (checked by static_assert beside each one), so an
// algorithm written against them runs on every graph, and a new adjacency runs every algorithm
// and the CLI with no edit to either (only explicit instantiations in a .cu of its own).
//
//   DynamicGraph<G>        host object of a graph that changes: batch updates, sizes,
//                          degrees, queries, export. wg::cpu::DynamicGraph and
//                          wg::gpu::DynamicGraph<Adjacency> (every adjacency).
//   GpuDynamicGraph<G>     a DynamicGraph that lives on the GPU: stream() orders every call on
//                          one CUDA stream, ref() gives the device view for kernels.
//   DeviceGraphView<V>     what a kernel may use (V is trivially copyable, passed by value):
//                          degree(v), is_live(v), has_edge(u, v) by one thread, the
//                          tile-cooperative for_each_neighbor(tile, v, f) and the warp-uniform
//                          for_each_neighbor_slot(tile, v, f). Checked in .cu files
//                          (graph/gpu/graph_ref.cuh) since its members are __device__ functions.
//   HostGraphView<G>       the same reads on the host, for CPU algorithms: degree(v),
//                          is_live(v), has_edge(u, v), for_each_neighbor(v, f).
//
// Semantics shared by every model (what graph/update_result.hpp states in full):
//  - ids are 0..num_vertices()-1 (wg::vertex_t, 32-bit); a vertex is live until
//    erase_vertices() frees its id (later reused by insert_vertices());
//  - an undirected graph stores each edge {u, v} as the two arcs u->v and v->u, and
//    num_edges() counts edges; a directed graph counts arcs;
//  - insert_edges / erase_edges deduplicate the batch, drop self-loops, ignore entries naming a
//    vertex that is not live, keep exact degrees, and return an UpdateResult that accounts for
//    every entry exactly once (entries == applied + self_loops + duplicates + ignored). An id
//    past the id range is ignored like an erased one, except by GPU graphs' EdgeList overloads,
//    which grow the range to the batch's largest id first (a caller that wants the same on the
//    CPU calls cpu::DynamicGraph::ensure_vertices);
//  - weighted graphs (weighted() true) keep one value per arc; the last entry of a batch wins;
//  - has_edges answers one byte (0/1) per query, in order;
//  - export_coo gives an undirected graph's edges once each (src < dst) and a directed graph's
//    arcs; export_csr gives out-neighbours sorted ascending.
//
// Complexity every model guarantees: a batch of b entries costs O(b) expected work plus the
// degrees of erased vertices; degree(v), is_live(v) O(1) (on a GPU graph's host object these are
// one device round trip each: use degrees() or the device view for many); has_edge O(1)
// expected (hash adjacency) or O(log degree) (sorted adjacency); for_each_neighbor
// O(degree(v)) (+ the table's empty slots for hash adjacency); export O(V + E).
//
// Errors: wg::InvalidArgument for a malformed batch (ids past the id limit), wg::CapacityError
// when device or host memory is exhausted; a graph left by an exception stays valid (the batch
// may be partly applied; its UpdateResult is lost).
#include <concepts>
#include <cstdint>
#include <utility>
#include <vector>

#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/update_result.hpp>
#if defined(__CUDACC__)
#include <type_traits>

#include <warpgraph/containers/core/work_sharing.cuh>
#endif

namespace wg {
#if defined(__CUDACC__)
namespace detail {
/// A neighbour callback of the right arity, for checking DeviceGraphView.
template <bool Weighted>
struct NeighborSink {
  __device__ void operator()(vertex_t) const {}
};
template <>
struct NeighborSink<true> {
  __device__ void operator()(vertex_t, std::uint32_t) const {}
};
struct SlotSink {
  __device__ void operator()(vertex_t, bool) const {}
};
}  // namespace detail
#endif

/// Host object of a graph that changes in batches.
template <class G>
concept DynamicGraph = std::movable<G> &&
    requires(G& g, const G& cg, const EdgeList& batch, std::uint64_t n,
             const std::vector<vertex_t>& ids, vertex_t v) {
  { cg.weighted() } -> std::convertible_to<bool>;
  { g.build(batch) } -> std::same_as<UpdateResult>;
  { g.insert_edges(batch) } -> std::same_as<UpdateResult>;
  { g.erase_edges(batch) } -> std::same_as<UpdateResult>;
  { g.insert_vertices(n) } -> std::same_as<std::vector<vertex_t>>;
  { g.insert_vertices(n, batch) } -> std::same_as<VertexInsertResult>;
  { g.erase_vertices(ids) } -> std::same_as<VertexEraseResult>;
  { cg.directed() } -> std::convertible_to<bool>;
  { cg.num_vertices() } -> std::convertible_to<std::uint64_t>;
  { cg.num_live_vertices() } -> std::convertible_to<std::uint64_t>;
  { cg.num_edges() } -> std::convertible_to<std::uint64_t>;
  { cg.degree(v) } -> std::convertible_to<std::uint32_t>;
  { cg.degrees() } -> std::same_as<std::vector<std::uint32_t>>;
  { cg.has_edges(batch) } -> std::same_as<std::vector<std::uint8_t>>;
  { cg.export_coo() } -> std::same_as<EdgeList>;
  cg.export_csr();
  { cg.memory_bytes() } -> std::convertible_to<std::uint64_t>;
};

/// A DynamicGraph on the GPU: its device view type and the stream its calls are ordered on.
/// (cudaStream_t is spelled as the pointer it is, so this header needs no CUDA include.)
template <class G>
concept GpuDynamicGraph = DynamicGraph<G> && requires(const G& cg) {
  typename G::ref_type;
  // decltype, not a call: the view may be an incomplete type where only the host API is seen.
  requires std::same_as<decltype(std::declval<const G&>().ref()), typename G::ref_type>;
  { cg.stream() } -> std::convertible_to<void*>;
};

/// Host-side reads for CPU algorithms: f(w) per out-neighbour w of v, ascending where the
/// adjacency is sorted; f may return void, or bool where false stops the walk.
template <class G>
concept HostGraphView = requires(const G& cg, vertex_t u, vertex_t v, void (*f)(vertex_t),
                                 bool (*stop)(vertex_t)) {
  { cg.directed() } -> std::convertible_to<bool>;
  { cg.num_vertices() } -> std::convertible_to<std::uint64_t>;
  { cg.degree(v) } -> std::convertible_to<std::uint32_t>;
  { cg.is_live(v) } -> std::convertible_to<bool>;
  { cg.has_edge(u, v) } -> std::convertible_to<bool>;
  cg.for_each_neighbor(v, f);
  cg.for_each_neighbor(v, stop);
};

#if defined(__CUDACC__)
/// What a kernel may use of a GPU graph. V is trivially copyable (kernels take it by value).
///  - degree(v), is_live(v), has_edge(u, v): per-thread reads;
///  - for_each_neighbor(tile, v, f): all 32 lanes call it with the same v; f(w) (f(w, value)
///    when V::weighted) runs once per neighbour, on the lane that holds it; f must not use tile
///    operations (lanes reach it at different times);
///  - for_each_neighbor_slot(tile, v, f): the warp-uniform walk for kernels that cooperate per
///    neighbour: all lanes call f(w, valid) together, one adjacency slot per lane per step, with
///    valid false where the lane's slot holds no neighbour (w is then meaningless); f may use
///    tile operations (e.g. wg::for_each_active_lane over the valid lanes).
/// Reads must not share a kernel with writes to the same adjacency (phase concurrency, as the
/// slab tables state).
template <class V>
concept DeviceGraphView = std::is_trivially_copyable_v<V> &&
    requires(const V& g, const warp_tile& tile, vertex_t u, vertex_t v) {
  { V::weighted } -> std::convertible_to<bool>;
  { g.num_vertices() } -> std::convertible_to<std::uint32_t>;
  { g.degree(v) } -> std::convertible_to<std::uint32_t>;
  { g.is_live(v) } -> std::convertible_to<bool>;
  { g.has_edge(u, v) } -> std::convertible_to<bool>;
  g.for_each_neighbor(tile, v, detail::NeighborSink<V::weighted>{});
  g.for_each_neighbor_slot(tile, v, detail::SlotSink{});
};
#endif

}  // namespace wg
