#pragma once
// Local clustering coefficient on the CPU graph (wg::cpu::DynamicGraph): static and dynamic.
// Semantics, options and result: algorithms/lcc/lcc.hpp.
//
// Static (local_clustering): the per-vertex triangle count of algorithms/tc/cpu, then c(v) per
// vertex. Dynamic (DynamicLocalClustering): keeps the per-vertex triangle counts exact through
// batches with count_triangles_with_edges_per_vertex (the triangles through the batch's edges:
// after an insertion on the graph with them, before an erasure on the graph still holding them),
// then recomputes c(v) where T(v) or d(v) moved. Per batch: the counter's cost plus O(n).
//
// Every change to the graph must go through the object (or be followed by recompute()); ids the
// graph adds join with coefficient 0. Thread safety: const reads only; one batch at a time.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <warpgraph/algorithms/dynamic_frame.hpp>
#include <warpgraph/algorithms/dynamic_update.hpp>
#include <warpgraph/algorithms/lcc/lcc.hpp>
#include <warpgraph/graph/cpu/dynamic_graph.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::cpu {

/// Coefficients of an undirected graph (wg::InvalidArgument when directed).
LccResult local_clustering(const DynamicGraph& graph, const LccOptions& options = {});

/// Keeps the coefficients of an undirected DynamicGraph exact while batches are applied.
class DynamicLocalClustering : public DynamicFrame<DynamicLocalClustering, DynamicGraph> {
 public:
  /// Runs the static computation once. The graph must outlive this object.
  explicit DynamicLocalClustering(DynamicGraph& graph, const LccOptions& options = {});

  /// insert_edges, erase_edges, update(erase, insert), erase_vertices and the observer calls
  /// (after_insert, before_erase, after_erase) are the frame's (algorithms/dynamic_frame.hpp).
  /// changed: the vertices whose coefficient moved; recomputed is always false.

  const LccResult& result() const noexcept { return result_; }
  /// Triangles containing each vertex, kept exact.
  const std::vector<std::uint64_t>& triangles_per_vertex() const noexcept { return triangles_; }
  /// Static computation from scratch (replaces the result).
  const LccResult& recompute();

 private:
  /// The policy hooks (algorithms/dynamic_frame.hpp).
  WG_DYNAMIC_POLICY_HOOKS(DynamicFrame, std::span<const std::uint64_t>);
  void grow();
  /// Applies delta_ (added when `add`, else subtracted) and refreshes the coefficients of the
  /// vertices whose count or degree moved (the batch's endpoints); returns those that moved.
  std::uint64_t apply(std::span<const std::uint64_t> keys, bool add);

  LccOptions options_;
  LccResult result_;
  std::vector<std::uint64_t> triangles_;
  std::vector<std::uint64_t> delta_;  ///< the batch's per-vertex triangle counts
};

/// The dynamic class as the registry makes it (algorithms/lcc/lcc_entry.hpp).
inline std::unique_ptr<DynamicLocalClustering> make_dynamic_local_clustering(
    DynamicGraph& graph, const LccOptions& options = {}) {
  return std::make_unique<DynamicLocalClustering>(graph, options);
}

}  // namespace wg::cpu
