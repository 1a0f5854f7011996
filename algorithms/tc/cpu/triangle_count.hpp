#pragma once
// Triangle counting on the CPU graph (wg::cpu::DynamicGraph): static and incremental.
//
// Static: degree-ordered orientation (each edge points from the endpoint of lower
// (degree, id) rank to the higher one, so every out-list has at most sqrt(2m) entries); for
// every vertex u, out(u) is marked in a per-thread bitmap and each x in out(w), w in out(u), is
// tested (or out(u) and out(w) are merged: TcOptions::intersection): each triangle is found exactly
// once, at its lowest-ranked vertex. Multi-threaded with dynamic scheduling over vertices. O(m *
// sqrt(m)) worst case; O(n + m) memory for the oriented snapshot plus n bits per thread.
//
// Incremental: after a batch of insertions, the new total is the old one plus the triangles
// that contain at least one inserted edge, counted on the graph AFTER the insertion; after a
// batch of deletions, the old total minus the triangles that contain at least one deleted edge,
// counted on the graph BEFORE the removal. Only the batch's edges are examined, never the whole
// graph: for each edge {u, v} of the batch, the neighbours of its lower-degree endpoint are
// tested against a bitmap of the other endpoint's neighbours (batch edges grouped by that
// higher-degree "hub", so a hub's list is marked once per group). A triangle with k (1..3)
// edges from the batch is seen k times; it is counted only at the batch edge with the smallest
// canonical key among its batch edges, so it counts once. The batch is first brought to
// canonical form by the graph (self-loops and duplicates dropped) and reduced to the edges that
// actually change (absent ones on insert, present ones on erase), so duplicates, self-loops,
// and edges already present / absent in the batch cannot skew the count.
// Cost: reading the neighbour lists of the batch's endpoints from the tree once, plus
// O(sum over batch edges of min(deg u, deg v) + sum over hubs of deg(hub)).
//
// Graphs: count_triangles_with_edges runs on any host graph view (wg::HostGraphView of
// graph/graph_concepts.hpp); the static count (on the CSR snapshot, export_csr) and the
// incremental counter (on the graph's canonical-batch layer) are written for
// wg::cpu::DynamicGraph.
//
// Triangle counting needs an undirected graph: the functions throw wg::InvalidArgument on a
// directed one.
#include <cstdint>
#include <span>
#include <vector>

#include <warpgraph/algorithms/dynamic_frame.hpp>
#include <warpgraph/algorithms/tc/tc.hpp>
#include <warpgraph/graph/cpu/dynamic_graph.hpp>
#include <warpgraph/graph/graph_concepts.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::cpu {

using wg::TriangleCounts;  // algorithms/tc/tc.hpp

struct TcOptions {
  /// Worker threads. Default 0: the graph's threads() for a DynamicGraph, all cores for a Csr.
  unsigned threads = 0;
  bool per_vertex = false;
  /// How out(u) ∩ out(w) is computed in the static count: bit tests of out(w) against a
  /// bitmap of out(u) (default; n bits per thread), or a sorted merge (galloping when one list
  /// is much shorter than the other; no per-thread memory). Same result either way.
  enum class Intersection { bitmap, merge };
  Intersection intersection = Intersection::bitmap;
};

/// Triangles of a sorted, symmetric CSR (both arcs of each edge, no self-loops, no repeats).
TriangleCounts triangle_count(const Csr& csr, const TcOptions& options = {});
/// Triangles of an undirected graph (counted on a CSR snapshot of it).
TriangleCounts triangle_count(const DynamicGraph& graph, const TcOptions& options = {});

/// The static count under the names the GPU counters use (wg::gpu::count_triangles), so that
/// code generic over the graph (the CLI's adapter) calls either.
inline std::uint64_t count_triangles(const DynamicGraph& graph, const TcOptions& options = {}) {
  return triangle_count(graph, options).total;
}
inline TriangleCounts count_triangles_per_vertex(const DynamicGraph& graph,
                                                 TcOptions options = {}) {
  options.per_vertex = true;
  return triangle_count(graph, options);
}

/// Triangles of `graph` that contain at least one edge of `keys`, each counted once. `keys`:
/// canonical edge keys (u << 32 | v, u < v), sorted, unique, all present in `graph`.
/// Works on any HostGraphView with directed() and num_vertices() (count_with_edges.hpp has the
/// definition); `threads` 0 = the graph's threads() where it has one, else all cores.
template <HostGraphView Graph>
std::uint64_t count_triangles_with_edges(const Graph& graph, std::span<const std::uint64_t> keys,
                                         unsigned threads = 0);
extern template std::uint64_t count_triangles_with_edges(const DynamicGraph&,
                                                         std::span<const std::uint64_t>, unsigned);

/// Keeps the exact triangle count of an undirected DynamicGraph while batches are applied
/// through it (apply every change through this object, or call recount()).
class IncrementalTriangleCounter : public DynamicFrame<IncrementalTriangleCounter, DynamicGraph> {
 public:
  /// Counts the graph's triangles once (static count). `threads` 0 = the graph's threads().
  explicit IncrementalTriangleCounter(DynamicGraph& graph, unsigned threads = 0);

  struct BatchResult {
    UpdateResult update;              ///< what the batch did to the graph
    std::uint64_t triangles_changed;  ///< triangles created (insert) or destroyed (erase)
    std::uint64_t total;              ///< exact count after the batch
  };
  BatchResult insert_edges(const EdgeList& batch);
  BatchResult erase_edges(const EdgeList& batch);
  /// Erases vertices (and their edges) and removes the triangles they were part of.
  struct VertexBatchResult {
    VertexEraseResult update;
    std::uint64_t triangles_changed;
    std::uint64_t total;
  };
  VertexBatchResult erase_vertices(std::span<const vertex_t> ids);
  /// update(erase, insert) and the EdgeBatchObserver calls are the frame's
  /// (algorithms/dynamic_frame.hpp); BatchEffect::changed is the triangles created or destroyed.

  std::uint64_t total() const noexcept { return total_; }
  /// Static recount (resets the running total to it).
  std::uint64_t recount();

 private:
  /// The policy hooks (algorithms/dynamic_frame.hpp).
  WG_DYNAMIC_POLICY_HOOKS(DynamicFrame, std::span<const std::uint64_t>);
  unsigned threads_;
  std::uint64_t total_ = 0;
  std::uint64_t erasing_ = 0;  ///< before_erase: triangles through the edges about to go
};

}  // namespace wg::cpu
