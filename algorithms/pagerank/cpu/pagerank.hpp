#pragma once
// PageRank on the CPU graph: static and dynamic, with the rule of wg::reference::pagerank.
//
// Semantics. Power iteration on the directed graph (an undirected edge is an arc each way):
//   pr'(v) = (1 - d) / n + d * ( sum_{u -> v} pr(u) / outdeg(u) + dangling / n )
// where n = num_vertices() (erased and isolated ids included: they have no out-arcs, so they are
// dangling, as in the reference on the exported graph) and dangling is the total rank of the
// vertices without out-arcs, spread uniformly. Starts from 1/n; stops when the L1 change of one
// iteration (or, with Stop::max_change, the largest change of one vertex) is below
// PageRankOptions::tolerance (converged) or after max_iterations. Ranks sum
// to 1 (up to rounding).
//
// Accuracy (L1 rule). One iteration is a contraction of factor d in L1, so a stop with
// change < tol leaves the ranks within d / (1 - d) * tol of the exact fixed point, and so within
// 2 * d / (1 - d) * tol (plus rounding, ~1e-15 per iteration) of the reference's ranks, which
// stop by the same rule. The summation order differs from the reference (pull, not push), so
// ranks are not bitwise equal.
//
// Static (pagerank): pull over in-arcs. The in-arcs are first gathered into a CSR (a parallel
// O(n + m) pass: export_csr for undirected graphs that have it, for_each_in_neighbor for
// directed ones, else a transpose of the out-arcs), then every iteration computes each vertex's
// new rank from its in-neighbours' rank / outdeg, threads taking contiguous vertex ranges; no
// atomics; one fork/join per iteration (the pass also computes the next iteration's
// shares). O(n + m) per iteration; n + m ids and four n-double vectors of memory.
//
// Dynamic (DynamicPageRank): keeps the ranks of a wg::cpu::DynamicGraph converged while batches
// are applied through it. After a batch that changed the graph, the power iteration runs again
// from the previous ranks (a warm start; ids the graph added start at 0, which keeps the sum
// 1) to the same tolerance, so the accuracy bound above holds after every batch. A batch that
// changed nothing (all duplicates, self-loops or absent edges) iterates not at all.
// DynamicUpdate::changed counts the vertices whose rank moved by more than tolerance / n in the
// batch; result().iterations is the number of iterations the last batch (or recompute) ran.
//
// Every change to the graph must go through the object (or be followed by recompute()).
//
// Thread safety: const reads only; one batch at a time (as the graph).
#include <cstdint>
#include <span>
#include <vector>

#include <warpgraph/algorithms/dynamic_frame.hpp>
#include <warpgraph/algorithms/dynamic_update.hpp>
#include <warpgraph/algorithms/pagerank/pagerank.hpp>
#include <warpgraph/graph/cpu/dynamic_graph.hpp>
#include <warpgraph/graph/graph_concepts.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::cpu {

// The options and the result: algorithms/pagerank/pagerank.hpp.
using wg::PageRankOptions;

/// The CPU backend's tuning (results do not depend on it beyond rounding).
struct PageRankTuning {
  /// Worker threads. 0: the graph's threads() where it has one, else all cores.
  unsigned threads = 0;
  /// Vertex ranges below this size are iterated on the calling thread (a fork/join costs more).
  std::size_t parallel_grain = 4096;
};

using wg::PageRankResult;

/// PageRank of any HostGraphView (definition in pagerank_impl.hpp). Throws wg::InvalidArgument
/// when damping lies outside [0, 1], tolerance < 0 or max_iterations < 0. An empty graph gives
/// no ranks, converged.
template <HostGraphView Graph>
PageRankResult pagerank(const Graph& graph, const PageRankOptions& options = {},
                        const PageRankTuning& tuning = {});
extern template PageRankResult pagerank(const DynamicGraph&, const PageRankOptions&,
                                        const PageRankTuning&);

/// Keeps the PageRank of a DynamicGraph converged while batches are applied through it.
class DynamicPageRank : public DynamicFrame<DynamicPageRank, DynamicGraph> {
 public:
  /// Runs the static PageRank once. Throws as pagerank() does.
  explicit DynamicPageRank(DynamicGraph& graph, const PageRankOptions& options = {},
                           const PageRankTuning& tuning = {});

  /// Each batch returns what it did to the graph and the vertices whose rank moved by more than
  /// tolerance / n (algorithms/dynamic_update.hpp); recomputed is always false (every batch is
  /// a warm start). result().iterations: the iterations this batch ran.
  /// insert_edges, erase_edges, update(erase, insert), erase_vertices and the observer calls
  /// (after_insert, before_erase, after_erase) are the frame's (algorithms/dynamic_frame.hpp).

  const PageRankResult& result() const noexcept { return result_; }
  /// Static PageRank from scratch, from 1/n (replaces the result).
  const PageRankResult& recompute();

 private:
  friend DynamicFrame;
  /// The policy hooks (algorithms/dynamic_frame.hpp).
  BatchEffect on_after_insert(std::span<const std::uint64_t> added) { return after_batch(added); }
  void on_before_erase(std::span<const std::uint64_t>) {}
  BatchEffect on_after_erase(std::span<const std::uint64_t> removed) {
    return after_batch(removed);
  }
  /// Iterates from the current ranks on the changed graph; returns the vertices moved.
  std::uint64_t warm_start();
  /// Follows a batch that changed the edges `keys`.
  BatchEffect after_batch(std::span<const std::uint64_t> keys);

  PageRankOptions options_;
  PageRankTuning tuning_;
  PageRankResult result_;
};

}  // namespace wg::cpu
