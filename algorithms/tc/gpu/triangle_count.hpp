#pragma once
// Triangle counting on a GPU dynamic graph: any wg::GpuDynamicGraph (graph/graph_concepts.hpp)
// whose ref() is a DeviceGraphView, undirected. Declarations only (plain C++ may include this);
// the definitions are in triangle_count.cuh, instantiated by gpu/CMakeLists.txt for
// every graph of WG_GPU_GRAPHS (cmake/warpgraph_helpers.cmake).
//
// Static count: degree-ordered orientation (rank = (degree, id)); for every arc u -> v with
// rank(u) < rank(v), the warp walks the smaller of the two adjacency lists and probes each
// neighbour w with rank(w) > rank(v) in the larger one (one thread per probe, read-only).
// Each triangle is found exactly once, at its lowest-ranked vertex and middle vertex.
// Work O(sum over arcs of min degree) expected probes. Warps take vertices from a queue in an
// interleaved order (TcTuning::interleave_ids), so that hubs numbered first do not share a warp.
//
// Incremental count (IncrementalTriangleCounter): after each batch the exact new total is
// computed from the batch's edges only:
//  - insertion: the batch is deduplicated on the device (self-loops, repeats and edges already
//    present are dropped), applied, and for every edge e actually added the triangles through e
//    are counted on the graph AFTER insertion; a triangle with k new edges is found k times and
//    counted only at its smallest new edge (edge keys compared; membership of the other two
//    edges in the batch's new-edge set is a hash lookup), so each new triangle counts once;
//  - deletion: the batch is deduplicated and filtered to edges present; the triangles through
//    them are counted the same way on the graph BEFORE removal, then the edges are removed.
// Batches larger than the free GPU memory allows are processed in chunks (each exact).
//
// Errors: wg::InvalidArgument for a directed graph; wg::CapacityError when device memory runs
// out.
#include <cstdint>

#include <vector>

#include <warpgraph/algorithms/gpu_dynamic_update.cuh>
#include <warpgraph/algorithms/tc/tc.hpp>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/graph_concepts.hpp>

namespace wg::gpu {

using wg::TriangleCounts;  // algorithms/tc/tc.hpp

/// Tuning of the static count (and of the counter's recounts). Results never depend on it.
struct TcTuning {
  /// Vertices a warp takes per grab from the static count's work queue (1..32; larger values
  /// are clamped to 32). Default 0: chosen per graph, a quarter of the vertices per warp
  /// (rounded up, 1..32), so that every warp has work and the queue still evens out hubs.
  unsigned vertices_per_grab = 0;
  /// Visit vertices in an interleaved order (position i -> vertex (i * stride) mod n, stride a
  /// prime that does not divide n) instead of id order. Files often number hubs first, and a
  /// grab of consecutive hubs would leave one warp with most of the work; interleaving makes the
  /// count's speed independent of how the ids were assigned. false visits in id order.
  bool interleave_ids = true;
};

/// Static count of an undirected graph (InvalidArgument for directed graphs).
template <GpuDynamicGraph Graph>
std::uint64_t count_triangles(const Graph& graph, const TcTuning& options = {});
/// Total and per-vertex counts (per_vertex[v] = triangles containing v).
template <GpuDynamicGraph Graph>
TriangleCounts count_triangles_per_vertex(const Graph& graph, const TcTuning& options = {});

/// Triangles of `graph` containing at least one of the given undirected edges (canonical keys
/// as in PreparedEdges: (u << key_bits) | v with u < v, all present in the graph), each counted
/// once. The building block of the incremental counter.
template <GpuDynamicGraph Graph>
std::uint64_t count_triangles_touching(const Graph& graph, const std::uint64_t* edge_keys,
                                       std::uint64_t num_edges, unsigned key_bits);

/// The counting strategy of IncrementalTriangleCounter: the static count and the triangles
/// through a list of edges. This one runs on any GPU graph: hash probes on the slab graph, tree
/// descents on the B-tree graph (SortedCounting in sorted_triangle_count.hpp intersects the
/// B-tree graph's sorted lists instead).
struct ProbeCounting {
  using options_type = TcTuning;
  template <class Graph>
  static std::uint64_t count(const Graph& graph, const TcTuning& options) {
    return count_triangles(graph, options);
  }
  template <class Graph>
  static std::uint64_t touching(const Graph& graph, const ChangedEdges& edges, const TcTuning&) {
    return count_triangles_touching(graph, edges.keys, edges.size, edges.key_bits);
  }
};

/// Keeps the exact triangle count of a graph through insertion and deletion batches: a policy of
/// the dynamic frame (algorithms/dynamic_frame.hpp: insert_edges / erase_edges / update and the
/// observer calls) whose counting is a strategy (ProbeCounting, SortedCounting). Each batch is
/// deduplicated by the graph; the triangles through the edges it added are counted with the
/// edges in, those through the edges it removes before they go, each triangle once (at its
/// smallest batch edge).
template <GpuDynamicGraph Graph, class Counting = ProbeCounting>
class IncrementalTriangleCounter
    : public DynamicFrame<IncrementalTriangleCounter<Graph, Counting>, Graph> {
 public:
  using options_type = typename Counting::options_type;
  struct BatchResult {
    UpdateResult update;          ///< what the batch did to the graph
    std::uint64_t triangles = 0;  ///< created (insert) or destroyed (erase) by the batch
    std::uint64_t total = 0;      ///< exact count after the batch
  };

  /// Counts the current graph once (static count), then follows the batches applied through it.
  /// The graph must outlive the counter and must not be changed except through it.
  explicit IncrementalTriangleCounter(Graph& graph, const options_type& options = {});

  /// Host batches are uploaded as the graph's EdgeList overloads upload them: ids past the
  /// vertex range grow it, weights become a map graph's values.
  BatchResult insert_edges(DeviceEdges batch) { return counted(Frame::insert_edges(batch)); }
  BatchResult insert_edges(const EdgeList& batch) { return counted(Frame::insert_edges(batch)); }
  BatchResult erase_edges(DeviceEdges batch) { return counted(Frame::erase_edges(batch)); }
  BatchResult erase_edges(const EdgeList& batch) { return counted(Frame::erase_edges(batch)); }

  // The observer calls (the frame's): changed = triangles created (after_insert, counted with
  // the edges in) or destroyed (counted by before_erase while the edges are present, applied to
  // the total by after_erase).

  std::uint64_t total() const noexcept { return total_; }
  /// Static recount of the graph (also resets the running total to it).
  std::uint64_t recount();

 private:
  using Frame = DynamicFrame<IncrementalTriangleCounter<Graph, Counting>, Graph>;
  using Frame::graph_;
  /// The policy hooks (algorithms/dynamic_frame.hpp).
  WG_DYNAMIC_POLICY_HOOKS(Frame, const ChangedEdges&);
  BatchResult counted(const DynamicUpdate<UpdateResult>& r) const {
    return BatchResult{.update = r.update, .triangles = r.changed, .total = total_};
  }

  options_type options_;
  std::uint64_t total_ = 0;
  std::uint64_t destroyed_ = 0;  ///< counted by before_erase, taken off by after_erase
};

extern template std::uint64_t count_triangles(const DynamicGraph<SlabSetAdjacency>&,
                                              const TcTuning&);
extern template std::uint64_t count_triangles(const DynamicGraph<SlabMapAdjacency>&,
                                              const TcTuning&);
extern template TriangleCounts count_triangles_per_vertex(const DynamicGraph<SlabSetAdjacency>&,
                                                          const TcTuning&);
extern template TriangleCounts count_triangles_per_vertex(const DynamicGraph<SlabMapAdjacency>&,
                                                          const TcTuning&);
extern template std::uint64_t count_triangles_touching(const DynamicGraph<SlabSetAdjacency>&,
                                                       const std::uint64_t*, std::uint64_t,
                                                       unsigned);
extern template std::uint64_t count_triangles_touching(const DynamicGraph<SlabMapAdjacency>&,
                                                       const std::uint64_t*, std::uint64_t,
                                                       unsigned);
extern template class IncrementalTriangleCounter<DynamicGraph<SlabSetAdjacency>>;
extern template class IncrementalTriangleCounter<DynamicGraph<SlabMapAdjacency>>;

}  // namespace wg::gpu
