#pragma once
// k-core decomposition (core numbers) on the CPU graph: static and dynamic.
//
// Semantics. core[v] is the largest k such that v belongs to a subgraph in which every vertex
// has degree >= k, in the undirected simple graph (a directed graph is read as its undirected
// view: u and v adjacent when either arc exists), as wg::reference::core_numbers gives, so results
// compare with ==. Every id below num_vertices() has a number: isolated and erased vertices 0.
// max_core is the largest core number (the degeneracy).
//
// Static (core_numbers): bucket peeling (Batagelj and Zaversnik): vertices in bins by current
// degree, always removing one of least degree and lowering its neighbours of higher degree by
// moving them one bin down. O(n + m) time, 4 arrays of n entries. Single-threaded. A directed
// graph is first copied into a symmetric adjacency (O(m log d) more).
//
// Dynamic (DynamicCoreNumbers): keeps the numbers of an undirected wg::cpu::DynamicGraph exact
// while batches are applied through it, one edge of the batch at a time (inserting or deleting
// one edge {u, v} changes core numbers by at most 1, only those of number K = min(core[u],
// core[v])), by the order-based method of Zhang, Yu, Zhang, Qin ("A Fast Order-Based Approach for
// Core Maintenance", ICDE 2017). It keeps a k-order: the vertices in an order in which a peeling
// could remove them (core numbers non-decreasing; within a core number, an order-maintenance list,
// detail/order_lists.hpp), and each vertex's deg+, its neighbours after it, never above its core
// number.
//  - Insertion of {u, v}, u first in the order: deg+(u) rises; if it stays <= K nothing changes.
//    Otherwise the peeling of core K is replayed from u in order, visiting only vertices with a
//    candidate neighbour before them (a heap by position): a vertex with more than K neighbours
//    still present becomes a candidate, one with at most K stays (its removal may make earlier
//    candidates removable in turn: they move to its place in the order). The candidates left
//    rise to K + 1 and open the list of K + 1. Cost: O((candidates' and visited vertices' arcs) +
//    visited log visited).
//  - Deletion: the vertices of number K left with fewer than K neighbours of number >= K fall to
//    K - 1, found by a cascade from the endpoints (each visited vertex's count is taken once);
//    they move to the end of the list of K - 1 in the order they fell, and their neighbours'
//    deg+ follows. Cost: O(arcs of the fallen vertices and their neighbours of number K).
// While edge i of a batch is processed, the batch's later edges (insertion) or earlier edges
// and itself (deletion) are hidden (a binary search per arc of a batch endpoint). Batches of
// more new (removed) edges than DynamicCoreNumbersOptions::recompute_fraction of the graph's
// edges are answered by the static computation instead, and so are batches whose searches scan
// more than DynamicCoreNumbersOptions::recompute_work of the graph's arcs (their changes are
// undone and the order rebuilt by the peeling). Memory: about 30 bytes per vertex beside the
// result.
//
// Every change to the graph must go through the object (or be followed by recompute()); ids the
// graph adds later (insert_vertices, ensure_vertices) join with core number 0.
//
// Thread safety: const reads only; one batch at a time (as the graph).
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <warpgraph/algorithms/dynamic_frame.hpp>
#include <warpgraph/algorithms/dynamic_update.hpp>
#include <warpgraph/algorithms/kcore/cpu/detail/order_lists.hpp>
#include <warpgraph/algorithms/kcore/kcore.hpp>
#include <warpgraph/graph/cpu/dynamic_graph.hpp>
#include <warpgraph/graph/graph_concepts.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::cpu {

using wg::CoreNumbers;  // algorithms/kcore/kcore.hpp

/// Core numbers of any HostGraphView (definition in kcore_impl.hpp).
template <HostGraphView Graph>
CoreNumbers core_numbers(const Graph& graph);
extern template CoreNumbers core_numbers(const DynamicGraph&);

using wg::DynamicCoreNumbersOptions;  // algorithms/kcore/kcore.hpp

/// Keeps the core numbers of an undirected DynamicGraph exact while batches are applied through
/// it. Throws std::invalid_argument for a directed graph.
class DynamicCoreNumbers : public DynamicFrame<DynamicCoreNumbers, DynamicGraph> {
 public:
  explicit DynamicCoreNumbers(DynamicGraph& graph, const DynamicCoreNumbersOptions& options = {});

  /// Each batch returns what it did to the graph, the vertices whose core number changed, and
  /// whether the static computation answered it (algorithms/dynamic_update.hpp).
  /// erase_vertices is followed as an erase of the vertices' edges.
  /// insert_edges, erase_edges, update(erase, insert), erase_vertices and the observer calls
  /// (after_insert, before_erase, after_erase) are the frame's (algorithms/dynamic_frame.hpp).

  const CoreNumbers& result() const noexcept { return result_; }
  /// Static computation from scratch (replaces the result).
  const CoreNumbers& recompute();

 private:
  /// The policy hooks (algorithms/dynamic_frame.hpp).
  WG_DYNAMIC_POLICY_HOOKS(DynamicFrame, std::span<const std::uint64_t>);
  void grow();
  /// Whether a comes before b in the k-order.
  bool before(vertex_t a, vertex_t b) const noexcept;
  /// f(w) for each neighbour w of u in the graph of the edge step being processed (the batch's
  /// hidden edges skipped); counts the scanned arcs.
  template <class F>
  void visible_neighbors(vertex_t u, F&& f);
  /// One edge step (the edge keys_[step_]). False once the batch's scans pass the budget.
  bool insert_edge(vertex_t a, vertex_t b);
  bool erase_edge(vertex_t a, vertex_t b);
  /// Parts of insert_edge: w becomes a candidate; w stays at core k (and candidates whose
  /// neighbours present fall to k follow it); the candidates left rise to k + 1.
  void defer(vertex_t w, std::uint32_t k);
  void keep(vertex_t w, std::uint32_t k);
  void promote(std::uint32_t k);
  /// Part of erase_edge: the fallen vertices move to the end of the list of k - 1.
  void demote(std::uint32_t k);
  /// Sets deg+(v) from its neighbours after it in the k-order.
  void count_later(vertex_t v);
  /// Runs the batch's edges in turn; false: over budget, the batch's core changes undone.
  bool update_batch(std::span<const std::uint64_t> keys, bool insert);
  void set_core(vertex_t v, std::uint32_t c);
  /// Forgets one edge step's marks.
  void clear_marks();
  /// The vertices whose number changed in this batch (and forgets the batch's records).
  std::uint64_t end_batch();
  std::uint64_t recompute_counting();
  /// Whether a batch of this many new (removed) edges is answered by the static computation.
  bool too_many(std::size_t batch_edges) const;

  DynamicCoreNumbersOptions options_;
  CoreNumbers result_;
  std::vector<std::uint64_t> per_core_;  ///< per_core_[k]: vertices of core number k
  detail::OrderLists order_;             ///< the k-order: list k holds the vertices of core k
  std::vector<std::uint32_t> plus_;      ///< deg+: neighbours after the vertex in the k-order
  /// One edge step's count per visited vertex: insertion: candidate neighbours before it (deg*),
  /// or a candidate's neighbours still present; deletion: neighbours of number >= K.
  std::vector<std::uint32_t> star_;
  std::vector<std::uint8_t> mark_;       ///< one edge step's state of a vertex (kcore.cpp)
  std::vector<vertex_t> visited_;        ///< one edge step's vertices with a mark
  std::vector<vertex_t> heap_;           ///< insertion: vertices to visit, by k-order position
  std::vector<vertex_t> cand_, fifo_;    ///< candidates (insertion) or fallen vertices (deletion)
  std::vector<std::uint8_t> in_batch_;   ///< per vertex: an endpoint of the batch's edges
  std::span<const std::uint64_t> keys_;  ///< the batch being processed
  std::size_t step_ = 0;                 ///< its edge being processed
  bool inserting_ = false;
  bool erase_recomputes_ = false;      ///< before_erase gave up: after_erase recomputes
  std::uint64_t scanned_ = 0;          ///< arcs scanned by this batch's searches
  double budget_ = 0;                  ///< the most arcs this batch may scan
  std::vector<std::uint8_t> touched_;  ///< per vertex: old number recorded
  std::vector<std::pair<vertex_t, std::uint32_t>> old_;  ///< this batch's (vertex, old number)
};

}  // namespace wg::cpu
