#pragma once
// k-core decomposition (core numbers) on a GPU dynamic graph: static and dynamic. Declarations
// only (plain C++ may include this); definitions in kcore.cuh, instantiated in kcore.cu for
// wg::gpu::DynamicGraph<SlabSetAdjacency> and <SlabMapAdjacency>. The static peeling also runs
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
// gains (loses) at most one edge, every core number changes by at most one, and a vertex of
// number c can change only if it is reachable from an endpoint of number c = min(core[u],
// core[v]) of a round edge {u, v} through vertices of number c (Sariyuce et al.'s subcore, per
// level; levels do not interact, so a round handles all of its levels at once). Per round, on the
// graph holding the earlier rounds' changes: the candidates are collected by a level-synchronous
// traversal from those endpoints; each candidate counts its neighbours of number >= its own;
// candidates are peeled on the device (insertion: count <= c cannot rise; deletion: count < c
// cannot stay), each peeled one lowering its same-number candidate neighbours' counts; the
// survivors rise (insertion), the peeled fall (deletion). Later rounds' edges (insertion) and the
// round's and earlier ones (deletion, processed before the batch leaves the graph) are hidden
// by a hash set of the batch's edges. Cost per round O(candidates' arcs) plus a few
// synchronisations per traversal level. A batch of more new (removed) edges than
// recompute_fraction of the graph's edges, or whose rounds scan more than recompute_work of the
// graph's arcs, or that needs more than max_rounds rounds, is answered by the static peeling
// (its changes undone first).
//
// Every change to the graph must go through the object (or be followed by recompute()); ids the
// graph adds join with core number 0. Errors: wg::CapacityError when device memory runs out.
#include <cstdint>
#include <span>
#include <vector>

#include <warpgraph/algorithms/dynamic_update.hpp>
#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/graph_concepts.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::gpu {

struct ChangedEdges;  // algorithms/gpu_dynamic_update.cuh

struct CoreNumbers {
  std::vector<std::uint32_t> core;  ///< per vertex id: its core number
  std::uint32_t max_core = 0;       ///< the largest core number (degeneracy)
};

/// Core numbers of an undirected GPU graph (InvalidArgument for a directed one).
template <GpuDynamicGraph Graph>
CoreNumbers core_numbers(const Graph& graph);

struct DynamicCoreNumbersOptions {
  /// Batches whose new (removed) edges number more than this fraction of the graph's edges are
  /// answered by the static peeling, which then costs less than the rounds' traversals.
  double recompute_fraction = 0.05;
  /// A batch whose rounds have scanned more than this fraction of the graph's arcs stops, undoes
  /// its changes and is answered by the static peeling (which scans each arc about once): one
  /// edge's subcore can be most of a graph with large shells.
  double recompute_work = 0.5;
  /// A batch that needs more rounds than this is answered by the static peeling: every round
  /// costs a few synchronisations whatever its size. A vertex in more than max_rounds of the
  /// batch's edges (each round is a matching) sends the batch there before any round runs; a
  /// greedy plan that still runs past max_rounds rounds (it may need up to twice the largest
  /// multiplicity) stops there, its changes undone.
  std::uint32_t max_rounds = 64;
};

/// Keeps the core numbers of an undirected GPU graph exact while batches are applied through
/// it. Throws wg::InvalidArgument for a directed graph.
template <GpuDynamicGraph Graph>
class DynamicCoreNumbers {
 public:
  /// Runs the static peeling once. The graph must outlive this object.
  explicit DynamicCoreNumbers(Graph& graph, const DynamicCoreNumbersOptions& options = {});

  DynamicUpdate<UpdateResult> insert_edges(const EdgeList& batch);
  DynamicUpdate<UpdateResult> insert_edges(DeviceEdges batch);
  DynamicUpdate<UpdateResult> erase_edges(const EdgeList& batch);
  DynamicUpdate<UpdateResult> erase_edges(DeviceEdges batch);
  /// Erases the vertices (and their edges) through the graph and answers by the static peeling
  /// (recomputed = true): the device view cannot list an erased vertex's edges afterwards, and
  /// listing them before would cost a walk of every erased vertex's table on the host side.
  DynamicUpdate<VertexEraseResult> erase_vertices(std::span<const vertex_t> ids);

  /// The GpuEdgeBatchObserver calls (algorithms/gpu_dynamic_update.cuh), for a caller that
  /// applies the batch to the graph itself; insert_edges / erase_edges are these calls around
  /// the graph's update. after_insert runs the insertion rounds on the graph with the edges in;
  /// before_erase runs the deletion rounds while the edges are still present (each round sees
  /// the earlier rounds' edges and its own hidden, the later ones present), and after_erase
  /// reports them, or answers by the static peeling once the edges are gone when the rounds
  /// went over a budget (see the options).
  BatchEffect after_insert(const ChangedEdges& added);
  void before_erase(const ChangedEdges& removed);
  BatchEffect after_erase(const ChangedEdges& removed);

  /// The numbers, copied to the host (max_core computed there).
  CoreNumbers result() const;
  /// The numbers on the device (num_vertices() entries); valid until the next call.
  const std::uint32_t* core_device() const noexcept { return core_.data(); }
  /// Static computation from scratch.
  void recompute();
  /// Rounds the last batch ran (0 when it was recomputed or changed no edge).
  std::uint32_t last_rounds() const noexcept { return rounds_; }
  Graph& graph() noexcept { return *graph_; }

 private:
  void grow();
  /// A new epoch for the batch's change records.
  void begin_batch();
  /// Processes the edges, round by round; false: over a budget (the changes are undone).
  bool update(const ChangedEdges& edges, bool insert, std::uint64_t arcs_budget);
  /// One round (round_[0..size)) on the graph as the batch's hash set shows it.
  bool run_round(const ChangedEdges& edges, std::uint64_t size, bool insert,
                 std::uint64_t arcs_budget);
  /// The vertices whose number this batch changed (and forgets the batch's records).
  std::uint64_t end_batch();
  /// Undoes this batch's changes, then peels from scratch; returns the numbers that moved.
  std::uint64_t recompute_counting();
  bool too_many(std::uint64_t batch_edges) const;
  template <class Batch>
  DynamicUpdate<UpdateResult> insert_any(const Batch& batch);
  template <class Batch>
  DynamicUpdate<UpdateResult> erase_any(const Batch& batch);

  Graph* graph_;
  DynamicCoreNumbersOptions options_;
  std::uint64_t n_ = 0;
  DeviceBuffer<std::uint32_t> core_;
  DeviceBuffer<std::uint32_t> stamp_;     ///< candidate of the round with this epoch
  DeviceBuffer<std::uint32_t> mark_;      ///< number recorded in this batch (batch epoch)
  DeviceBuffer<std::uint32_t> old_core_;  ///< the number before this batch (marked vertices)
  DeviceBuffer<std::uint32_t> claim_;     ///< round building: smallest edge claiming a vertex
  DeviceBuffer<std::int32_t> count_;      ///< a candidate's neighbours of number >= its own
  DeviceBuffer<vertex_t> cand_, queue_, touched_;
  DeviceBuffer<std::uint8_t> in_batch_;  ///< endpoint of an edge of the batch
  DeviceBuffer<unsigned long long> counters_;
  // The batch's edges: hash set (key -> edge index), per-edge state, remaining and round lists.
  DeviceBuffer<unsigned long long> slots_;
  DeviceBuffer<std::uint32_t> slot_edge_, remaining_, next_remaining_, round_;
  DeviceBuffer<std::uint8_t> state_;
  std::uint32_t epoch_ = 0, batch_epoch_ = 0, rounds_ = 0;
  std::uint64_t touched_count_ = 0;
  bool erase_pending_recompute_ = false;  ///< before_erase went over a budget
};

extern template CoreNumbers core_numbers(const DynamicGraph<SlabSetAdjacency>&);
extern template CoreNumbers core_numbers(const DynamicGraph<SlabMapAdjacency>&);
extern template class DynamicCoreNumbers<DynamicGraph<SlabSetAdjacency>>;
extern template class DynamicCoreNumbers<DynamicGraph<SlabMapAdjacency>>;

}  // namespace wg::gpu
