#pragma once
// Single-source shortest paths on the CPU graph (wg::cpu::DynamicGraph), static and dynamic.
//
// Semantics: those of wg::reference::sssp. distance[v] is the length of a shortest path
// source -> v (+infinity when there is none), an arc's length being its weight (the graph's
// float; the last entry of a batch wins) or 1 on an unweighted graph or with
// SsspOptions::unit_weights (then distances are BFS levels). parent[v] is a vertex u with an arc
// u -> v and distance[u] + length(u, v) == distance[v]; parent[source] == source; kNoParent for
// unreached vertices. Directed graphs follow out-arcs. A source that is not live reaches nothing.
// Negative (or NaN) lengths throw wg::InvalidArgument when the search meets them. Distances are
// sums of the float weights in double: exact for integer weights (as the reference's).
//
// Static (sssp): Dijkstra with a binary heap over the graph's sorted adjacency, one thread:
// O((V + m) log V).
//
// Dynamic (DynamicSssp): keeps the result exact while batches are applied through it.
// Insertions and weight decreases relax the changed arcs and run Dijkstra from the vertices they
// improve (O(changed vertices' arcs log)). Deletions and weight increases: the heads of tree arcs
// that went (or got longer) and their shortest-path subtrees are reset, each takes its best arc
// from an unaffected in-neighbour, and Dijkstra runs from them. Directed graphs use the graph's
// in-arcs. Vertex deletions repair the erased vertices' subtrees; erasing the source leaves every
// vertex unreached. A repair that resets more than SsspTuning::recompute_fraction of the
// ids recomputes instead.
//
// Thread safety: const reads only; one batch at a time (as the graph).
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include <warpgraph/algorithms/dynamic_frame.hpp>
#include <warpgraph/algorithms/sssp/sssp.hpp>
#include <warpgraph/graph/cpu/dynamic_graph.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::cpu {

inline constexpr double kSsspUnreached = std::numeric_limits<double>::infinity();
inline constexpr vertex_t kSsspNoParent = 0xFFFFFFFFu;

struct SsspResult {
  std::vector<double> distance;  ///< per id; +infinity when not reached
  std::vector<vertex_t> parent;  ///< per id; kSsspNoParent when not reached
  std::uint64_t reached = 0;
};

using wg::SsspOptions;  // algorithms/sssp/sssp.hpp

/// The CPU backend's tuning (never changes the distances).
struct SsspTuning {
  /// Dynamic: a repair that resets more than this fraction of the ids runs the static search
  /// instead (it is then about as much work, without the subtree walk and the pulls).
  double recompute_fraction = 0.25;
};

/// Static SSSP. Throws wg::InvalidArgument when source >= num_vertices() or a reachable arc has
/// a negative length.
SsspResult sssp(const DynamicGraph& graph, vertex_t source, const SsspOptions& options = {});

class DynamicSssp : public DynamicFrame<DynamicSssp, DynamicGraph> {
 public:
  DynamicSssp(DynamicGraph& graph, vertex_t source, const SsspOptions& options = {},
              const SsspTuning& tuning = {});

  /// The batch calls and the EdgeBatchObserver calls are the frame's
  /// (algorithms/dynamic_frame.hpp); the latter for a caller that applies the batch to the
  /// graph itself (stream --algo): after_insert relaxes the new arcs and runs
  /// Dijkstra from the vertices they improve; before_erase finds the removed tree arcs while they
  /// are present, after_erase repairs their subtrees (or recomputes, as erase_edges, which is
  /// these two calls around the graph's erase). The keys are new edges only: a batch that changes
  /// the weight of a present edge must go through insert_edges.

  const SsspResult& result() const noexcept { return result_; }
  vertex_t source() const noexcept { return source_; }
  const SsspResult& recompute();

 private:
  /// The policy hooks (algorithms/dynamic_frame.hpp). insert_through reads every batch edge's
  /// length before and after (a weight change of a present edge repairs the subtree below it).
  DynamicUpdate<UpdateResult> insert_through(const EdgeList& batch);
  DynamicUpdate<VertexEraseResult> erase_vertices_through(std::span<const vertex_t> ids);
  WG_DYNAMIC_POLICY_HOOKS(DynamicFrame, std::span<const std::uint64_t>);
  double length(float w) const;
  void grow();
  void set(vertex_t v, double d, vertex_t p);
  /// Marks the heads of `roots` and their subtrees; false when over budget.
  bool collect_affected(std::vector<vertex_t> roots);
  /// Resets and re-seeds the affected vertices, relaxes the batch's arcs (seed_keys_), runs
  /// Dijkstra from every vertex that improved.
  void repair_and_propagate();
  std::uint64_t finish(bool recomputed_now);
  /// Recomputes; changed: the ids below the batch's bound whose distance moved.
  BatchEffect recompute_counting();
  /// After collect_affected: repair_and_propagate and finish, or recompute_counting when the
  /// affected region went over the budget.
  BatchEffect repair(bool within_budget);
  /// Adds the heads of the tree arcs among a -> b (and b -> a, undirected) to `heads`.
  void add_tree_heads(vertex_t a, vertex_t b, std::vector<vertex_t>& heads) const;

  vertex_t source_;
  bool source_live_ = true;
  SsspOptions options_;
  SsspTuning tuning_;
  SsspResult result_;
  std::vector<std::uint8_t> affected_;  ///< per id, all 0 between batches
  std::vector<vertex_t> affected_list_;
  std::vector<double> old_;            ///< distance before the batch of touched ids
  std::vector<std::uint8_t> touched_;  ///< per id, all 0 between batches
  std::vector<vertex_t> touched_list_;
  std::uint64_t batch_bound_ = 0;         ///< ids that existed before the batch
  std::vector<std::uint64_t> seed_keys_;  ///< arcs an insertion batch added or re-weighted
  std::vector<float> seed_weights_;
  std::vector<vertex_t> erase_roots_;  ///< before_erase -> after_erase: heads of removed tree arcs
};

}  // namespace wg::cpu
