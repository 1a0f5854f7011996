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
// Dynamic (DynamicPageRank): keeps the ranks of a wg::cpu::DynamicGraph within the bound above
// while batches are applied through it, by residual push (forward push / Gauss-Southwell, as in
// Ohsaka et al., KDD 2015, and Zhang, Lofgren, Goel, KDD 2016). Write T for one iteration and
// R = (I - d M)^-1 (M: the column-stochastic walk, dangling columns uniform). The object keeps,
// beside the ranks x, the residual r = T(x) - x of the current graph, so that the exact ranks are
// x + R r and L1(x, exact) <= ||r||_1 / (1 - d). Its static runs (construction, recompute(), a
// fallback) iterate to tolerance * PageRankTuning::push_headroom and then compute r (one pass).
//  - A batch changes r only where T(x) changed: at the old and new out-neighbours of each vertex
//    whose out-arcs changed (O(its out-degree)), by d * x[u] * (new column - old column).
//  - Uniform residual is never pushed: R 1 = n / (1 - d) * exact, so a uniform part only scales
//    the answer, and dropping it keeps exact proportional to x + R r. That covers a vertex that
//    becomes or stops being dangling (its column was or becomes uniform) and a push at a dangling
//    vertex (O(1): its share goes to every id uniformly). Ids a batch adds start at rank 0 with
//    residual (1 - d + d * dangling) / n_old each (dangling: the dangling rank of the graph
//    before; the rest of the change is uniform).
//  - Push: while ||r||_1 > d * tolerance, vertices with |r[u]| >= theta * (outdeg(u) + 1) move
//    r[u] into x[u] and d * r[u] / outdeg(u) to each out-neighbour's residual (FIFO), theta
//    falling 8x a round. Then one O(n) pass rescales x and r so that sum(x) + sum(r) / (1 - d)
//    = 1 (the dropped uniform parts) and counts the changed vertices. ||r||_1 <= d * tolerance
//    gives L1(x, exact) <= d / (1 - d) * tolerance: the static run's bound.
//  - Fallback: a batch whose push work (arcs scanned + pushes) would pass push_work times the
//    work of the warm-started iteration (estimated: log(||r||_1 / target) / log(1 / d) iterations,
//    or the last static run's count if fewer, of n + arcs each, plus the gather and the residual
//    pass), or whose rounds so far project past it, stops pushing and runs that iteration
//    from x + r / (1 - d) (the first term of x + R r, scaled to sum 1), as before this method
//    existed; so does every batch with Stop::max_change (the push's argument is an L1 one) or
//    damping 1. Those batches report recomputed = true and count as recomputed in statistics();
//    result().iterations is the iterations they ran (0 for a batch the push answered).
//    Where the push pays: reaching ||r||_1 <= d * tolerance takes about log(||r||_1 / target) /
//    log(1 / d) generations of pushes over the vertices the residual reaches. On a small-world
//    graph (R-MAT, social) a batch's residual reaches the whole giant component within a few
//    generations, long before the default tolerance's bound, so the push does as many sweeps as
//    the iteration, sequentially: at the default push_work such batches fall back after the
//    push's local phase (whose smaller residual saves the iteration some steps). On graphs of
//    long paths (road networks) small batches are answered by the push alone.
// Cost of a batch the push answers: the out-arcs of the vertices whose out-arcs changed, the
// push's work, and O(n) (the ranks copied, the normalising pass). A batch that changed nothing
// does not push. A mixed step pushes (or falls back) once, at its end.
// DynamicUpdate::changed counts the vertices whose rank moved by more than tolerance / n in the
// batch (ids the batch added count from 0). Memory: 3 n doubles beside the result.
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
  /// DynamicPageRank: a batch's push may scan up to this many times the arcs the warm-started
  /// iteration it replaces would scan; past it, the batch falls back to that iteration. Small:
  /// the push is sequential and follows the graph's trees, where the iteration streams a CSR on
  /// every thread, so one arc pushed costs tens of one arc iterated. 0: always iterate.
  double push_work = 0.01;
  /// DynamicPageRank: its static runs iterate to tolerance * push_headroom, leaving the rest of
  /// the residual bound (d * tolerance in L1) to the batches' pushes. In (0, 1].
  double push_headroom = 0.5;
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

  /// Each batch returns what it did to the graph, the vertices whose rank moved by more than
  /// tolerance / n (algorithms/dynamic_update.hpp), and recomputed: the batch fell back to the
  /// warm-started iteration (see "Dynamic"). result().iterations: the iterations it ran.
  /// insert_edges, erase_edges, update(erase, insert), erase_vertices and the observer calls
  /// (after_insert, before_erase, after_erase) are the frame's (algorithms/dynamic_frame.hpp).

  const PageRankResult& result() const noexcept { return result_; }
  /// Static PageRank from scratch, from 1/n (replaces the result).
  const PageRankResult& recompute();

 private:
  /// The policy hooks (algorithms/dynamic_frame.hpp).
  WG_DYNAMIC_POLICY_HOOKS(DynamicFrame, std::span<const std::uint64_t>);
  void begin_step(std::uint64_t erase_entries, std::uint64_t insert_entries);
  BatchEffect end_step(const BatchEffect& erased, const BatchEffect& inserted);
  /// Follows the edges `keys` a batch added (or removed): residual changes, then (outside a
  /// mixed step) the push.
  BatchEffect after_batch(std::span<const std::uint64_t> keys, bool erase);
  /// The residual of ids the graph added (see "Dynamic"); `keys`: this batch's edges.
  void grow(std::span<const std::uint64_t> keys, bool erase);
  /// The residual change at the out-neighbours of every vertex whose out-arcs `keys` changed.
  void spread(std::span<const std::uint64_t> keys, bool erase);
  /// r[v] += delta (tracking the L1 norm and the vertices touched).
  void add_residual(vertex_t v, double delta);
  /// Pushes until ||r||_1 <= target; false when the work passed `budget`.
  bool push(double target, double budget);
  /// Rescales x and r (sum(x) + sum(r) / (1 - d) = 1), recomputes ||r||_1; the changed count.
  std::uint64_t normalize();
  /// Ends a batch: the push, or the fallback; the changes against before_.
  BatchEffect settle();
  /// Static run from `rank` (resized to n, new ids 0) to tolerance * headroom, then the residual.
  void iterate_from_current();
  bool can_push() const noexcept;

  PageRankOptions options_;
  PageRankTuning tuning_;
  PageRankResult result_;
  std::vector<double> residual_;     ///< r = T(x) - x, up to a dropped uniform part while dirty_
  std::vector<double> before_;       ///< the ranks when the batch (or step) began
  std::vector<std::uint64_t> arcs_;  ///< this hook's changed arcs (source << 32 | target), sorted
  std::vector<vertex_t> touched_, queue_;
  std::vector<std::uint8_t> seen_, queued_;
  double l1_ = 0;            ///< ||r||_1, tracked
  double work_ = 0;          ///< this batch's arcs scanned and pushes
  int last_iterations_ = 0;  ///< iterations of the last static run (a fallback's estimate)
  double theta_ = 0;         ///< push round threshold: |r[u]| >= theta_ * (outdeg(u) + 1)
  bool open_ = false;        ///< a batch (or step) has changed the residual, not yet settled
  bool fallback_ = false;    ///< this batch falls back (set before its push)
};

}  // namespace wg::cpu
