#pragma once
// k-core decomposition (core numbers) on a GPU dynamic graph: static and dynamic. Declarations
// only (plain C++ may include this); definitions in kcore.cuh, instantiated by
// gpu/CMakeLists.txt for every graph of WG_GPU_GRAPHS. The static peeling also runs
// on any symmetric DeviceGraphView (kcore.cuh: core_numbers(view, ...)).
//
// Semantics (as wg::cpu::core_numbers and the reference): core[v] is the largest k such that v
// belongs to a subgraph in which every vertex has degree >= k; isolated and erased ids 0.
// max_core is the largest number. Undirected graphs only: a directed graph throws
// wg::InvalidArgument (the device view gives out-arcs only; the CPU version reads a directed
// graph as its undirected view).
//
// Static: level-synchronous peeling. Remaining degrees start at the degrees; at level k every
// remaining vertex of remaining degree <= k gets core number k and joins the frontier; a warp per
// frontier vertex decrements its remaining neighbours' degrees (atomicSub), and the one decrement
// that takes a neighbour from k + 1 to k puts it in the next frontier, until the level is empty;
// an empty level jumps to the least remaining degree. Each level scans the remaining vertices
// (a list, compacted whenever half of it has been peeled), so the work is O(m) plus the sum over
// levels of the vertices remaining; one synchronisation per frontier; five n-entry arrays.
//
// Dynamic (DynamicCoreNumbers): keeps the numbers exact while batches are applied through it.
// The batch's added (removed) edges are split into rounds, each a matching (no vertex in two
// edges of one round: a greedy pass, each vertex claiming its smallest edge). When every vertex
// gains (loses) at most one edge, every number changes by at most one, and only at the level
// K = min(core[u], core[v]) of a round edge {u, v}, through vertices of number K (Sariyuce et
// al.'s subcore theorem); levels do not interact, so a round handles all of its levels at once,
// on the graph holding the earlier rounds' changes. Later rounds' edges (insertion) and the
// round's and earlier ones (deletion, processed before the batch leaves the graph) are hidden by
// a hash set of the batch's edges. Numbers below are those before the round.
//
// Insertion round, level K. mcd(w) = w's neighbours of number >= K, the round's edges counted.
// Claim: the set S of vertices that rise to K + 1 has mcd > K everywhere, and each connected
// piece of S holds a root (an endpoint of number K). First, a w in S has K + 1 neighbours in the
// new (K + 1)-core, each of number >= K before. Second, let C be a piece of S without a root:
// a round edge at a vertex of C leads to a vertex of number < K (not in the new (K + 1)-core, a
// number rises by one at most) or of number >= K (then the C end, of number K, is a root); so
// every vertex of C has K + 1 neighbours in C or of number > K through old edges, and C would
// have been in the old (K + 1)-core. Hence a traversal from the roots that enters only vertices
// of number K with mcd > K (each examined vertex scans its arcs once for mcd; those that pass
// scan again to reach their number-K neighbours) finds a superset P of S. Each vertex of P
// counts its neighbours of number > K or in P; P is peeled on the device (count <= K: cannot
// rise; each peeled vertex lowers its P neighbours' counts) and the rest, exactly S, rises:
// S is in P and satisfies the rule, and whatever survives the rule is in the new (K + 1)-core.
// The examined vertices are P and its number-K neighbours, far fewer than the subcore on graphs
// whose low shells are large.
//
// Deletion round, level K: a local peeling from the roots. support(w) = w's neighbours of number
// >= K that have not fallen (round edges hidden). Before the round every vertex of number K has
// support >= K; only roots lose support from the round itself, and others only by falling
// neighbours. A root is counted first; support < K: it falls; a fallen vertex lowers the support
// of its number-K neighbours (counted ones fall when they cross below K; uncounted ones are
// counted next, their lost support recorded meanwhile). Only the fallen vertices and their
// neighbours are scanned, once each; the fallen ones lose one.
//
// Rounds on the device: level kernels read their level's range from device counters (an
// advance kernel moves it and prices the level first), and phase gates move a round from
// traversal to counting, peeling and applying on the device, so the host enqueues a round whole
// behind its selection and synchronises once per round (again only when a traversal or peeling
// runs deeper than levels_per_sync levels).
//
// Cost and fallback, in arcs: the static peeling costs its scan of every arc plus
// sync_cost_arcs per synchronisation (counted when it last ran); a batch may spend
// recompute_work of that (scans, synchronisations and launches). Decided before trying: a batch
// of more new (removed) edges than recompute_fraction of the graph's edges, or whose busiest
// vertex (in k of its edges: at least k rounds) prices its rounds alone past the budget or past
// max_rounds, goes straight to the static peeling. Each level is priced (its vertices' summed
// degrees) before it is launched; a level that would pass the budget is not launched, the
// batch's changes are undone and the static peeling answers: the work wasted is at most
// recompute_work of the static peeling's. stats() counts which path each batch took.
//
// Every change to the graph must go through the object (or be followed by recompute()); ids the
// graph adds join with core number 0. Errors: wg::CapacityError when device memory runs out.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include <warpgraph/algorithms/dynamic_update.hpp>
#include <warpgraph/algorithms/gpu_dynamic_update.cuh>
#include <warpgraph/algorithms/kcore/kcore.hpp>
#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/graph_concepts.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::gpu {

namespace kcore_detail {
struct BatchEdgeView;  // kcore_kernels.cuh
}

using wg::CoreNumbers;  // algorithms/kcore/kcore.hpp

/// Core numbers of an undirected GPU graph (InvalidArgument for a directed one).
template <GpuDynamicGraph Graph>
CoreNumbers core_numbers(const Graph& graph);

using wg::DynamicCoreNumbersOptions;  // algorithms/kcore/kcore.hpp

/// The GPU search's tuning (results do not depend on it).
struct DynamicCoreNumbersTuning {
  /// A batch that needs more rounds than this is answered by the static peeling: every round
  /// costs a few synchronisations whatever its size. A vertex in more than max_rounds of the
  /// batch's edges (each round is a matching) sends the batch there before any round runs; a
  /// greedy plan that still runs past max_rounds rounds (it may need up to twice the largest
  /// multiplicity) stops there, its changes undone.
  std::uint32_t max_rounds = 64;
  /// The price of one host synchronisation (with the copy of the counters), in arcs scanned in
  /// the same time; a launch counts a quarter of it. It weighs the rounds' synchronisations and
  /// launches against their scans, and the static peeling's synchronisations (counted when it
  /// last ran) against its scan of every arc.
  double sync_cost_arcs = 100000;
  /// Traversal levels enqueued per synchronisation: level kernels read their sizes on the
  /// device, so a round whose traversal is k levels deep synchronises about k / levels_per_sync
  /// times, at the price of a few empty launches at its end.
  std::uint32_t levels_per_sync = 3;
};

/// What the batches applied through a DynamicCoreNumbers cost, cumulative since construction.
struct DynamicCoreNumbersStats {
  std::uint64_t batches = 0;       ///< batches that changed at least one edge
  std::uint64_t incremental = 0;   ///< of those, answered by the rounds
  std::uint64_t recomputed = 0;    ///< of those, answered by the static peeling
  std::uint64_t cut = 0;           ///< of the recomputed, stopped mid-way by a budget
  std::uint64_t rounds = 0;        ///< rounds run (also by batches cut later)
  std::uint64_t arcs_scanned = 0;  ///< arcs scanned by the rounds
  /// Mixed steps (update(erase, insert)) answered by their one static peeling; each part that
  /// changed an edge is also counted above as a batch of its own (recomputed when the peeling
  /// answered it, the rounds not tried or cut).
  std::uint64_t shared = 0;
};

/// Keeps the core numbers of an undirected GPU graph exact while batches are applied through
/// it. Throws wg::InvalidArgument for a directed graph.
template <GpuDynamicGraph Graph>
class DynamicCoreNumbers : public DynamicFrame<DynamicCoreNumbers<Graph>, Graph> {
 public:
  /// Runs the static peeling once. The graph must outlive this object.
  explicit DynamicCoreNumbers(Graph& graph, const DynamicCoreNumbersOptions& options = {},
                              const DynamicCoreNumbersTuning& tuning = {});

  /// Batch calls and observer calls: DynamicFrame's (algorithms/dynamic_frame.hpp). Hooks:
  /// after_insert runs the insertion rounds on the graph with the edges in; before_erase runs the
  /// deletion rounds while the edges are still present (each round sees the earlier rounds' edges
  /// and its own hidden, the later ones present), and after_erase reports them, or answers by the
  /// static peeling once the edges are gone when the rounds went over a budget (see the options).

  /// The numbers, copied to the host (max_core computed there).
  CoreNumbers result() const;
  /// The numbers on the device (num_vertices() entries); valid until the next call.
  const std::uint32_t* core_device() const noexcept { return core_.data(); }
  /// Static computation from scratch.
  void recompute();
  /// Rounds the last batch ran (0 when it was recomputed or changed no edge).
  std::uint32_t last_rounds() const noexcept { return rounds_; }
  /// Which path the batches took (recompute() and the constructor do not count).
  const DynamicCoreNumbersStats& stats() const noexcept { return stats_; }

 private:
  using Frame = DynamicFrame<DynamicCoreNumbers<Graph>, Graph>;
  using Frame::graph_;
  /// The policy hooks (algorithms/dynamic_frame.hpp).
  WG_DYNAMIC_POLICY_HOOKS(Frame, const ChangedEdges&);
  void grow();
  /// A new epoch for the batch's change records (begin_part, and the records' epoch).
  void begin_batch();
  /// Resets the per-batch round counters and costs, keeping the change records (a mixed step's
  /// parts share one epoch, so its records hold the numbers from before the step).
  void begin_part();
  /// Processes the edges, round by round; false: over a budget (the changes are undone).
  bool run_rounds(const ChangedEdges& edges, bool insert);
  /// Prices the batch (budget_) and runs the rounds unless decided against; sets early_, cut_.
  bool try_rounds(const ChangedEdges& edges, bool insert);
  /// A new round epoch; lists the round's roots (round_, at most `bound` edges, its size on the
  /// device). Returns the batch's edges as the round sees them.
  kcore_detail::BatchEdgeView start_round(const ChangedEdges& edges, std::uint64_t bound,
                                          bool insert);
  /// The round after start_round and a read_counters(); false: cut by the budget before its
  /// changes were applied.
  bool insert_round(const kcore_detail::BatchEdgeView& batch, std::uint32_t epoch);
  bool erase_round(const kcore_detail::BatchEdgeView& batch, std::uint32_t epoch);
  /// A round's loop: enqueue(view, stream, levels, counters, budget) enqueues its levels and
  /// returns the launches; then one read_counters(), until ended() answers (true: done).
  template <class Enqueue, class Ended>
  bool run_round(Enqueue&& enqueue, Ended&& ended);
  /// Copies the round counters to host_ (synchronises the stream).
  void read_counters();
  /// The arcs the next synchronised group of levels may bring the batch's scans to.
  unsigned long long level_budget() const;
  void count_batch(bool recomputed, bool cut);
  /// The vertices whose number this batch changed (and forgets the batch's records).
  std::uint64_t end_batch();
  /// Undoes this batch's changes, then peels from scratch; returns the numbers that moved.
  std::uint64_t recompute_counting();
  bool too_many(std::uint64_t batch_edges) const;
  /// The mixed step (DynamicFrame::update): erases `erase`, then inserts `insert`, through the
  /// graph; the numbers after it are those of erase_edges(erase) then insert_edges(insert). The
  /// erasure runs its rounds as erase_edges does; when it goes to the static peeling (by a rule or
  /// a budget), the peeling is not run yet: the insertion only updates the graph, and one static
  /// peeling answers both parts. Otherwise the insertion runs its rounds as insert_edges does (and
  /// may itself end in the one peeling). Decided up front: when `erase` is not empty and `insert`
  /// holds more entries than recompute_fraction of the graph's edges (its size before
  /// deduplication: the rule insert_edges applies to the edges it adds), both batches go to the
  /// graph and one static peeling answers, no round tried. changed: the vertices whose number
  /// differs between before and after the step; recomputed: the static peeling answered it.
  /// stats() counts each part as its own batch. Errors as insert_edges; after one, the numbers
  /// may be stale: call recompute().
  void begin_step(std::uint64_t erase_entries, std::uint64_t insert_entries);
  BatchEffect end_step(const BatchEffect& erased, const BatchEffect& inserted);
  /// Before a batch: the id range grown; an erasure opens its epoch (one without a present
  /// edge then reports no rounds).
  void on_batch_start(bool erase);
  /// Erases the vertices (and their edges) through the graph and answers by the static peeling
  /// (recomputed = true): the device view cannot list an erased vertex's edges afterwards, and
  /// listing them before would cost a walk of every erased vertex's table on the host side.
  DynamicUpdate<VertexEraseResult> erase_vertices_through(std::span<const vertex_t> ids);

  DynamicCoreNumbersOptions options_;
  DynamicCoreNumbersTuning tuning_;
  std::uint64_t n_ = 0;
  DeviceBuffer<std::uint32_t> core_;
  DeviceBuffer<std::uint32_t> stamp_;     ///< examined / touched in the round with this epoch
  DeviceBuffer<std::uint32_t> pass_;      ///< passed mcd (insertion) / counted (deletion)
  DeviceBuffer<std::uint32_t> mark_;      ///< number recorded in this batch (batch epoch)
  DeviceBuffer<std::uint32_t> old_core_;  ///< the number before this batch (marked vertices)
  DeviceBuffer<std::uint32_t> claim_;     ///< round building: smallest edge claiming a vertex
  DeviceBuffer<std::int32_t> count_;      ///< a candidate's neighbours that may hold it
  DeviceBuffer<std::int32_t> dec_;        ///< deletion: fallen neighbours (zero between rounds)
  DeviceBuffer<vertex_t> cand_, queue_, touched_;
  DeviceBuffer<std::uint8_t> in_batch_;  ///< endpoint of an edge of the batch
  DeviceBuffer<unsigned long long> counters_;
  // The batch's edges: hash set (key -> edge index), per-edge state, remaining and round lists.
  DeviceBuffer<unsigned long long> slots_;
  DeviceBuffer<std::uint32_t> slot_edge_, remaining_, next_remaining_, round_;
  DeviceBuffer<std::uint8_t> state_;
  std::uint32_t epoch_ = 0, batch_epoch_ = 0, rounds_ = 0;
  std::uint64_t touched_count_ = 0;
  bool erase_pending_recompute_ = false;  ///< before_erase chose the static peeling
  bool step_recompute_ = false;           ///< the step goes to one static peeling at its end
  std::uint64_t step_edges_ = 0;          ///< edges the step changed so far
  bool early_ = false;              ///< the batch was sent to the static peeling before any round
  bool cut_ = false;                ///< the batch's rounds were stopped by the budget
  double budget_ = 0;               ///< the batch's budget, in arcs (see try_rounds)
  std::uint64_t syncs_ = 0;         ///< host synchronisations of the batch's rounds
  double launches_ = 0;             ///< launches and copies of the batch's rounds
  std::uint64_t static_syncs_ = 0;  ///< those of the last static peeling
  unsigned level_grid_ = 1;         ///< blocks of the device-sized level kernels
  std::array<unsigned long long, 18> host_{};  ///< the round counters, as last read
  std::uint64_t batch_arcs_ = 0;               ///< arcs the batch's rounds scanned
  DynamicCoreNumbersStats stats_;
};

extern template CoreNumbers core_numbers(const DynamicGraph<SlabSetAdjacency>&);
extern template CoreNumbers core_numbers(const DynamicGraph<SlabMapAdjacency>&);
extern template class DynamicCoreNumbers<DynamicGraph<SlabSetAdjacency>>;
extern template class DynamicCoreNumbers<DynamicGraph<SlabMapAdjacency>>;

}  // namespace wg::gpu
