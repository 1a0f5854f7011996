#pragma once
// Triangle counting on a GPU dynamic graph: any wg::GpuDynamicGraph (graph/graph_concepts.hpp)
// whose ref() is a DeviceGraphView, undirected. Declarations only (plain C++ may include this);
// the definitions are in triangle_count.cuh, instantiated by gpu/CMakeLists.txt for
// every graph of WG_GPU_GRAPHS (cmake/warpgraph_helpers.cmake).
//
// Static counts, two methods with the same result:
//  - count_triangles_sorted (the one the registry, the CLI and the counters use): a device CSR of
//    the graph (graph/gpu/device_csr.cuh) is turned into the degree-oriented view, vertices
//    renamed by rank = (degree, id) and every row sorted (oriented_rows.cuh), and for every
//    oriented arc u -> v the tail of u's row after v is intersected with v's row by binary
//    search. Each triangle once, at its two lowest-ranked vertices. Work O(E log E + sum over
//    arcs of min(tail, d+) log d+); memory 8 bytes per edge for the view plus 16 per edge while it
//    is sorted, on top of the CSR's 8 per edge (the B-tree graph exports its own, sorted).
//  - count_triangles (in place, no copy of the graph): for every arc u -> v with
//    rank(u) < rank(v), the warp walks the smaller of the two adjacency lists and probes each
//    neighbour w with rank(w) > rank(v) in the larger one (one thread per probe, read-only).
//    Work O(sum over arcs of min degree) expected probes. Warps take vertices from a queue in an
//    interleaved order (TcTuning::interleave_ids), so that hubs numbered first do not share a
//    warp. The CLI's recount check uses it, so that two methods check each other.
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
// out (the sorted count needs the copies above; count_triangles needs none).
#include <cstdint>

#include <vector>

#include <warpgraph/algorithms/gpu_dynamic_update.cuh>
#include <warpgraph/algorithms/tc/tc.hpp>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/graph_concepts.hpp>

namespace wg::gpu {

using wg::TriangleCounts;  // algorithms/tc/tc.hpp

struct SortedPhases;

/// Tuning of the static counts, the counters' recounts and the sorted graph's batch counts.
/// Results never depend on it.
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
  /// count_triangles_sorted: lanes that intersect one oriented arc's two lists (4, 8, 16 or 32):
  /// few lanes suit the short oriented rows of sparse graphs, more suit dense ones.
  unsigned lanes_per_arc = 8;
  /// The B-tree graph's batch counts (count_triangles_touching_sorted): an edge whose
  /// endpoints' degrees differ by at most this factor merges their leaf chains (each leaf read
  /// once); a more lopsided one looks the smaller list's neighbours up in the larger by tree
  /// descents. 0: descents always.
  unsigned merge_ratio = 8;
  /// count_triangles_sorted: where set, the wall time of each phase is written here (the
  /// stream is then synchronised after every phase; for benchmarks).
  SortedPhases* phases = nullptr;
};

/// Wall milliseconds of count_triangles_sorted's phases (TcTuning::phases).
struct SortedPhases {
  double csr_ms = 0;        ///< the graph's device CSR (device_csr)
  double orient_ms = 0;     ///< ranks, renaming and the oriented arcs emitted
  double sort_ms = 0;       ///< the oriented rows sorted
  double intersect_ms = 0;  ///< the count itself
};

/// Static count by sorted intersection over the oriented view (see the header); InvalidArgument
/// for a directed graph or lanes_per_arc not 4, 8, 16 or 32.
template <GpuDynamicGraph Graph>
std::uint64_t count_triangles_sorted(const Graph& graph, const TcTuning& options = {});
/// The same, with per_vertex[v] = triangles containing v.
template <GpuDynamicGraph Graph>
TriangleCounts count_triangles_sorted_per_vertex(const Graph& graph, const TcTuning& options = {});

/// Static count in place by hash probes (InvalidArgument for directed graphs).
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

/// The counting strategy of IncrementalTriangleCounter: the static count (sorted intersection on
/// every graph) and the triangles through a list of edges, here by probes into the graph's
/// lists (hash lookups on the slab graph, tree descents on the B-tree graph; SortedCounting in
/// sorted_triangle_count.hpp merges the B-tree graph's sorted leaves instead).
struct ProbeCounting {
  template <class Graph>
  static std::uint64_t count(const Graph& graph, const TcTuning& options) {
    return count_triangles_sorted(graph, options);
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
  using options_type = TcTuning;
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

extern template std::uint64_t count_triangles_sorted(const DynamicGraph<SlabSetAdjacency>&,
                                                     const TcTuning&);
extern template std::uint64_t count_triangles_sorted(const DynamicGraph<SlabMapAdjacency>&,
                                                     const TcTuning&);
extern template TriangleCounts count_triangles_sorted_per_vertex(
    const DynamicGraph<SlabSetAdjacency>&, const TcTuning&);
extern template TriangleCounts count_triangles_sorted_per_vertex(
    const DynamicGraph<SlabMapAdjacency>&, const TcTuning&);
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
