#pragma once
// The dynamic shortest-path search that DynamicSssp (sssp.hpp) and DynamicBfs
// (algorithms/bfs/gpu/bfs.hpp) both are: one source, the packed (distance, parent) keys of
// ShortestPathState, and the frame's hooks (algorithms/dynamic_frame.hpp) over the repair
// machinery of sp::DynamicCore (sssp/gpu/detail/dynamic_core.cuh). The two differ only in their
// static search, their options and their result type, which the derived class supplies (CRTP):
//   void search_into_keys(cudaStream_t)  the static search from the live source into state_.keys
//   result()                             the keys as the algorithm's result
// Declarations only (plain C++ may include this); definitions in detail/dynamic_search.cuh,
// instantiated beside each derived class by its gpu/CMakeLists.txt.
//
// Semantics and costs: the derived classes' headers (sssp.hpp's "Dynamic" paragraph).
#include <cstdint>
#include <span>

#include <warpgraph/algorithms/gpu_dynamic_update.cuh>
#include <warpgraph/algorithms/sssp/gpu/shortest_path_state.hpp>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/graph_concepts.hpp>

namespace wg::gpu {

struct ChangedEdges;  // algorithms/gpu_dynamic_update.cuh

namespace sp {

/// When a dynamic search answers by its static computation instead of repairing (copied from
/// the derived class's tuning).
struct SearchSwitches {
  bool unit_lengths;                ///< every arc has length 1 (BFS, unit-weight SSSP)
  double recompute_fraction;        ///< a repair resetting more of the ids recomputes
  double recompute_batch_fraction;  ///< an insertion batch past this share of the edges does
};

/// Keeps a search from one source of a GPU graph exact while batches are applied through it.
/// The graph must outlive the object and change only through it (or be followed by recompute()).
///
/// insert_edges / erase_edges (EdgeList and DeviceEdges), update(erase, insert), erase_vertices
/// and the GpuEdgeBatchObserver calls are the frame's (algorithms/dynamic_frame.hpp); the
/// observer calls serve a caller that applies the batch to the graph itself (one graph update,
/// several results). after_insert propagates from the new edges' endpoints (recomputes when they
/// exceed recompute_batch_fraction of the graph's edges); before_erase marks the removed tree
/// arcs while the edges are present, after_erase repairs the subtrees below them (the same repair
/// and switch as erase_edges, which is these two calls around the graph's erase). The list holds
/// new edges only: a batch that changes the weight of an edge already present must go through
/// insert_edges (which reads every batch edge's length before and after).
template <class Search, GpuDynamicGraph Graph>
class DynamicSearch : public DynamicFrame<Search, Graph> {
 public:
  /// keys[v] = (distance << 32) | parent on the device (all ones: unreached); n = graph's range.
  const std::uint64_t* keys_device() const noexcept { return state_.keys.data(); }
  vertex_t source() const noexcept { return source_; }
  /// The static search from the source (every key unreached once the source was erased).
  void recompute();

 protected:
  /// `tuning`: the derived class's (its switches, and the round fields the repair shares with
  /// its static search). Throws InvalidArgument (naming `who`) for a source past the graph's id
  /// range. The derived constructor then calls recompute() (its own options are set by then).
  DynamicSearch(Graph& graph, vertex_t source, const SearchTuning& tuning, bool unit_lengths,
                const char* who);

  using Frame = DynamicFrame<Search, Graph>;
  using Frame::graph_;
  ShortestPathState state_;

 private:
  /// The policy hooks (algorithms/dynamic_frame.hpp). The batch routes apply the batch whole and
  /// repair; host batches are uploaded chunk by chunk as the graph's EdgeList overloads upload
  /// them. The batch routes read every batch edge's length before and after (a longer tree arc
  /// repairs the subtree below it), which the observer calls cannot.
  DynamicUpdate<UpdateResult> insert_through(const EdgeList& batch);
  DynamicUpdate<UpdateResult> insert_through(DeviceEdges batch);
  DynamicUpdate<UpdateResult> erase_through(const EdgeList& batch);
  DynamicUpdate<UpdateResult> erase_through(DeviceEdges batch);
  DynamicUpdate<VertexEraseResult> erase_vertices_through(std::span<const vertex_t> ids);
  WG_DYNAMIC_POLICY_HOOKS(Frame, const ChangedEdges&);
  /// The shared repair machinery over this object's state (defined where it is complete).
  DynamicCore<Graph> dynamic_core();

  vertex_t source_;
  bool source_live_ = true;
  SearchSwitches switches_;
  std::uint64_t erase_n0_ = 0;  ///< before_erase -> after_erase: ids snapshotted
  bool erase_seeded_ = false;   ///< before_erase -> after_erase: tree arcs marked
};

}  // namespace sp
}  // namespace wg::gpu
