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
// while batches are applied through it, by the order-based method of Zhang, Yu, Zhang, Qin ("A
// Fast Order-Based Approach for Core Maintenance", ICDE 2017). It keeps a k-order: the vertices in
// an order in which a peeling could remove them (core numbers non-decreasing; within a core
// number, an order-maintenance list, detail/order_lists.hpp), each vertex's deg+ (its neighbours
// after it, never above its core number) and mcd (its neighbours of core number >= its own).
//  - Insertion, a whole batch at once: each new edge adds to the deg+ of its endpoint first in the
//    order. Where deg+ passes the core number K, the peeling of level K is replayed in order from
//    those vertices, visiting only vertices with a candidate neighbour before them (a heap by
//    position): a vertex with more than K neighbours still present becomes a candidate, one with
//    at most K stays at K (its removal may make earlier candidates removable in turn: they move
//    to its place in the order). The candidates left rise to K + 1 and open the list of K + 1,
//    where their deg+ may start the replay of level K + 1; levels go up until none starts.
//    Cost per level replayed: O(arcs of the candidates + links between visited vertices and
//    candidates + visited log visited); a vertex that stays is not scanned.
//  - Deletion, a whole batch at once, after the graph lost it: each removed edge lowers deg+
//    and mcd; a vertex whose mcd is below its number K falls to K - 1 (a queue; it may fall
//    again), moving to the end of the list of K - 1: its deg+ and mcd are recounted, its
//    neighbours at K lose it from their mcd (and from deg+ if it was after them), which may make
//    them fall in turn. Cost: O(arcs of the fallen vertices, once per level fallen).
// Batches of more new (removed) edges than DynamicCoreNumbersOptions::recompute_fraction of the
// graph's edges are answered by the static computation instead, and so are batches whose
// searches scan more than DynamicCoreNumbersOptions::recompute_work times
// DynamicCoreNumbersTuning::work_scale of the graph's arcs (the static computation scans each
// once; its peeling also gives the k-order, deg+ and mcd): their changes are undone and the order
// rebuilt by the peeling. A batch is priced before its search where a bound is cheap (the arcs of
// the vertices its search must scan first: the seeds, the first fallen), and after a search that
// spent its budget the next batches of about its size skip the search for a while
// (algorithms/search_backoff.hpp), so that a batch that falls back costs about one peeling.
// Memory: about 34 bytes per vertex beside the result, and per level replayed O(arcs of its
// candidates).
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
#include <warpgraph/algorithms/search_backoff.hpp>
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

/// The CPU backend's tuning (results do not depend on it).
struct DynamicCoreNumbersTuning {
  /// The CPU search of one batch may scan options.recompute_work times this of the graph's arcs
  /// (0.8 of them at the shared default 0.1, which is sized for the GPU's rounds). The CPU search
  /// counts every arc it reads, and a batch whose count passes a tenth of the arcs often still
  /// finishes in a third of a peeling; a batch that spends the larger budget costs more, but the
  /// backoff (SearchBackoff) keeps such tries rare where they keep failing.
  double work_scale = 8.0;
};

/// What DynamicCoreNumbers' incremental searches did since construction (or
/// reset_search_counters()); batches answered by the static computation add the work they did
/// before giving up, no more.
struct CoreSearchCounters {
  /// Searches run: insertion: levels replayed (one per core number where a vertex's deg+ passed
  /// it); deletion: edge steps where a vertex fell.
  std::uint64_t searches = 0;
  std::uint64_t visited = 0;  ///< vertices visited (insertion: in k-order) or fallen (deletion)
  std::uint64_t moved = 0;    ///< core number changes made (+1 per riser, -1 per faller)
  /// Batches (or parts of a mixed step) answered by the static computation without a search: the
  /// backoff after searches that spent the budget (algorithms/search_backoff.hpp).
  std::uint64_t skipped = 0;
};

/// Keeps the core numbers of an undirected DynamicGraph exact while batches are applied through
/// it. Throws std::invalid_argument for a directed graph.
class DynamicCoreNumbers : public DynamicFrame<DynamicCoreNumbers, DynamicGraph> {
 public:
  explicit DynamicCoreNumbers(DynamicGraph& graph, const DynamicCoreNumbersOptions& options = {},
                              const DynamicCoreNumbersTuning& tuning = {});

  /// Each batch returns what it did to the graph, the vertices whose core number changed, and
  /// whether the static computation answered it (algorithms/dynamic_update.hpp).
  /// erase_vertices is followed as an erase of the vertices' edges.
  /// insert_edges, erase_edges, update(erase, insert), erase_vertices and the observer calls
  /// (after_insert, before_erase, after_erase) are the frame's (algorithms/dynamic_frame.hpp).

  const CoreNumbers& result() const noexcept { return result_; }
  /// Static computation from scratch (replaces the result).
  const CoreNumbers& recompute();
  const CoreSearchCounters& search_counters() const noexcept { return counters_; }
  void reset_search_counters() noexcept { counters_ = {}; }

 private:
  /// The policy hooks (algorithms/dynamic_frame.hpp).
  WG_DYNAMIC_POLICY_HOOKS(DynamicFrame, std::span<const std::uint64_t>);
  void grow();
  /// Whether a comes before b in the k-order.
  bool before(vertex_t a, vertex_t b) const noexcept;
  /// f(w) for each neighbour w of u; counts the scanned arcs.
  template <class F>
  void neighbors(vertex_t u, F&& f);
  /// A whole insertion batch (the graph holds it); false once its scans pass the budget.
  bool insert_batch(std::span<const std::uint64_t> keys);
  /// Puts v in the heap of the level being replayed (once per level).
  void enqueue(vertex_t v);
  /// Replays the peeling of level k from the vertices in the heap; its risers go to k + 1.
  bool replay_level(std::uint32_t k);
  /// Parts of replay_level: w becomes a candidate; w stays at k (and candidates whose
  /// neighbours present fall to k follow it); the candidates left rise to k + 1.
  void defer(vertex_t w, std::uint32_t k);
  void keep(vertex_t w, std::uint32_t k);
  void promote(std::uint32_t k);
  /// A whole deletion batch (the graph has lost it); false once its scans pass the budget.
  bool erase_batch(std::span<const std::uint64_t> keys);
  /// Whether the batch's budget covers the scans of `first` (vertices its search must scan:
  /// the seeds of an insertion, the first fallen of a deletion), so that a batch bound to pass
  /// it falls back before searching.
  bool affordable(std::span<const vertex_t> first) const;
  /// Runs a batch; false: over budget, or skipped by the backoff (the state is left for a
  /// recompute).
  bool update_batch(std::span<const std::uint64_t> keys, bool insert);
  /// Restores the numbers the batch (or mixed step) changed.
  void undo();
  /// A hook's answer: the changes, or the recompute on a fallback (both at a mixed step's end).
  BatchEffect answer(bool fallback);
  /// The frame's mixed-step hooks: one count of changes and at most one recompute a step.
  void begin_step(std::uint64_t erase_entries, std::uint64_t insert_entries);
  BatchEffect end_step(const BatchEffect& erased, const BatchEffect& inserted);
  void set_core(vertex_t v, std::uint32_t c);
  /// Forgets the marks of one level (insertion) or batch (deletion).
  void clear_marks();
  /// The vertices whose number changed in this batch (and forgets the batch's records).
  std::uint64_t end_batch();
  std::uint64_t recompute_counting();
  /// Whether a batch of this many new (removed) edges is answered by the static computation.
  bool too_many(std::size_t batch_edges) const;

  DynamicCoreNumbersOptions options_;
  DynamicCoreNumbersTuning tuning_;
  SearchBackoff backoff_[2];  ///< [insertion]: of insertion searches, else of deletion searches
  CoreNumbers result_;
  std::vector<std::uint64_t> per_core_;  ///< per_core_[k]: vertices of core number k
  detail::OrderLists order_;             ///< the k-order: list k holds the vertices of core k
  std::vector<std::uint32_t> plus_;      ///< deg+: neighbours after the vertex in the k-order
  std::vector<std::uint32_t> mcd_;       ///< neighbours of core number >= the vertex's own
  /// Insertion, per vertex visited in a level: its candidate neighbours before it (deg*), or a
  /// candidate's neighbours still present.
  std::vector<std::uint32_t> star_;
  std::vector<std::uint8_t> mark_;      ///< its state in a level (insertion) or batch (deletion)
  std::vector<vertex_t> visited_;       ///< the vertices with a mark
  std::vector<vertex_t> heap_;          ///< insertion: vertices to visit, by k-order position
  std::vector<vertex_t> cand_, fifo_;   ///< candidates (insertion) or fallen vertices (deletion)
  std::vector<vertex_t> seeds_, rise_;  ///< insertion: where the levels' replays start
  /// A candidate's neighbours kept from its visit (in adj_): [near, up) of the level that may
  /// still change, [up, end) of the level above; `before`: the candidates before it among them.
  struct CandidateInfo {
    std::size_t near, up, end;
    std::uint32_t before;
  };
  std::vector<CandidateInfo> cand_info_;  ///< per candidate rank (cand_ order)
  /// Per vertex visited in a level, the candidates that counted in its star_: a list through
  /// links_ (candidate rank, next link) from first_link_.
  struct Link {
    std::uint32_t rank, next;
  };
  std::vector<Link> links_;
  std::vector<std::uint32_t> first_link_;
  std::vector<vertex_t> adj_, up_;  ///< the candidates' kept neighbours; scratch of one visit
  bool step_recomputes_ = false;    ///< a part of this mixed step fell back: its end recomputes
  bool erase_recomputes_ = false;  ///< before_erase: the batch is too large, after_erase recomputes
  CoreSearchCounters counters_;
  std::uint64_t scanned_ = 0;                            ///< arcs scanned by this batch's searches
  double budget_ = 0;                                    ///< the most arcs this batch may scan
  std::vector<std::uint8_t> touched_;                    ///< per vertex: old number recorded
  std::vector<std::pair<vertex_t, std::uint32_t>> old_;  ///< this batch's (vertex, old number)
};

}  // namespace wg::cpu
