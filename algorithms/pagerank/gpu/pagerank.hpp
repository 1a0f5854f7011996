#pragma once
// PageRank on a GPU dynamic graph: static and dynamic, with the rule of wg::reference::pagerank.
// Declarations only (plain C++ may include this); definitions in pagerank.cuh, instantiated in
// gpu/CMakeLists.txt for every graph of WG_GPU_GRAPHS (wg_gpu_algorithm). The iteration
// also runs on any DeviceGraphView (pagerank.cuh: pagerank(view, ...)).
//
// Semantics (as wg::cpu::pagerank and the reference). Power iteration on the directed graph (an
// undirected edge is an arc each way):
//   pr'(v) = (1 - d) / n + d * ( sum_{u -> v} pr(u) / outdeg(u) + dangling / n )
// where n = num_vertices() (erased and isolated ids included: they have no out-arcs, so they are
// dangling, as in the reference on the exported graph) and dangling is the total rank of the
// vertices without out-arcs, spread uniformly. Starts from 1/n; stops when the change of one
// iteration is below PageRankOptions::tolerance (converged), measured as the reference does (L1:
// sum over v of |pr'(v) - pr(v)|) or, with Stop::max_change, as the largest |pr'(v) - pr(v)|
// (the rule of Gunrock's PageRank, for like-for-like comparisons); or after max_iterations. Ranks
// sum to 1 (up to rounding), in double precision.
//
// Accuracy (L1 rule). One iteration is a contraction of factor d in L1, so a stop with change <
// tol leaves the ranks within d / (1 - d) * tol of the exact fixed point, and within
// 2 * d / (1 - d) * tol (plus rounding) of the reference's ranks, which stop by the same rule.
// Summation order differs from the reference (and between runs: atomics), so ranks are not
// bitwise equal.
//
// Static: undirected graphs pull (a vertex's in-neighbours are its neighbours): one warp per
// vertex sums its neighbours' rank / degree, no atomics on ranks. Directed graphs push (the device
// view gives out-arcs only, and a transposed copy would have to be rebuilt after every batch): one
// warp per vertex adds its rank / outdeg to each out-neighbour's accumulator with a double
// atomicAdd. A vertex of more than PageRankTuning::split_degree out-arcs (a hub) is split over
// ceil(degree / arcs_per_part) warps (views with the partial walks: slab, B-tree, CSR), so one
// hub does not hold up the whole iteration. Per iteration O(n + m) work in one kernel (pull) or
// two (push); the change is reduced per block, and the stop (tolerance or max_iterations) is
// decided on the device, exactly as stated above, by the last block of the iteration. The host
// enqueues iterations_per_check iterations at a time and then reads the decision (kernels
// launched after the stop return at once), so the result and the iteration count are those of a
// loop that checked after every iteration. Memory: five n-double arrays (six when directed) and
// two (n + 1)-uint32 arrays; one synchronisation at the start (the number of hub parts) and one
// per iterations_per_check iterations.
//
// Dynamic (DynamicPageRank): after a batch that changed the graph, the iteration runs again from
// the previous ranks (a warm start; ids the graph added start at 0, which keeps the sum 1) to the
// same tolerance, so the accuracy bound above holds after every batch; a batch that changed
// nothing iterates not at all; vertex deletions warm-start the same way. The switch to a cold
// start: the last cold start's iteration count C and its mean contraction rate r per iteration
// are remembered; a warm start runs one iteration, predicts from that change c the iterations it
// still needs (log(tolerance / c) / log r), and restarts cold from 1/n when the total would
// exceed C (PageRankTuning::warm_restart_ratio x C; DynamicUpdate::recomputed is then true). The
// prediction uses the cold start's mean rate, which its fast first iterations make optimistic, so
// a warm start predicted within C may still run past it; it then goes on (a restart would cost C
// more). A mixed step through update(erase, insert) converges once; erase_edges then
// insert_edges converge twice, which may together cost more than one recompute.
// DynamicUpdate::changed counts the vertices whose rank moved by more than tolerance / n in the
// batch. The buffers are kept between batches (no allocation per batch while the graph does not
// grow).
//
// Every change to the graph must go through the object (or be followed by recompute()).
// Errors: wg::InvalidArgument when damping lies outside [0, 1], tolerance < 0,
// max_iterations < 0, arcs_per_part, max_parts or iterations_per_check < 1, or
// warm_restart_ratio < 0; wg::CapacityError when device memory runs out.
#include <cstdint>
#include <span>
#include <vector>

#include <warpgraph/algorithms/dynamic_update.hpp>
#include <warpgraph/algorithms/gpu_dynamic_update.cuh>
#include <warpgraph/algorithms/pagerank/pagerank.hpp>
#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/graph_concepts.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::gpu {

// The options and the result: algorithms/pagerank/pagerank.hpp.
using wg::PageRankOptions;

/// The GPU backend's tuning: how the work is spread and how often the host checks the stop
/// (results do not depend on it beyond rounding, except warm_restart_ratio, which picks between a
/// warm and a cold start of the same tolerance).
struct PageRankTuning {
  /// Vertices of more out-arcs than this are split over several warps (0: every vertex with an
  /// out-arc is split; views without partial walks never split). A warp walks a vertex's
  /// neighbours serially, so one hub of 10^5 arcs in a warp would outlast the whole iteration.
  std::uint32_t split_degree = 512;
  /// Out-arcs per warp of a split vertex (>= 1): a warp walks them in about arcs / 20 dependent
  /// slab loads (hash adjacency at its default load factor).
  std::uint32_t arcs_per_part = 256;
  /// At most this many warps per split vertex (>= 1).
  std::uint32_t max_parts = 4096;
  /// The host enqueues this many iterations (>= 1) before it reads the device's stop decision;
  /// kernels past the stop return at once, so a larger value only saves synchronisations.
  int iterations_per_check = 4;
  /// DynamicPageRank restarts a warm start cold when its predicted iterations exceed this times
  /// those of the last cold start (>= 0; 1: never much slower than a recompute; 0: restart
  /// whenever one iteration did not converge; huge: never restart).
  double warm_restart_ratio = 1.0;
};

using wg::PageRankResult;

/// Outcome of a run on the device (the ranks stay there).
struct PageRankRun {
  int iterations = 0;
  bool converged = false;
  double first_change = 0;  ///< change of the first iteration (as the stop rule measures it)
  double last_change = 0;   ///< change of the last iteration
  bool restarted = false;   ///< a warm start given up for a cold one (DynamicPageRank)
};

/// The device-side state of a run (pr_detail kernels): the sums of the current iteration and
/// the stop decision. Plain data; one per run, on the device.
struct PageRankState {
  double dangling;              ///< dangling rank of the current ranks
  double dangling_next;         ///< of the ranks this iteration writes
  double l1;                    ///< this iteration's sum of |change|
  unsigned long long max_bits;  ///< its largest |change|, as the bits of a non-negative double
  double first_change, last_change;
  unsigned blocks_done;  ///< blocks that ended this iteration
  int iterations;        ///< iterations completed
  int done, converged;
};

/// Scratch of a run, kept by DynamicPageRank between batches (resized, never shrunk).
struct PageRankWorkspace {
  DeviceBuffer<double> next, contrib, contrib_next, acc, hub_acc;
  DeviceBuffer<std::uint32_t> parts, offsets, tickets;
  DeviceBuffer<unsigned char> scan_temp;
  DeviceBuffer<PageRankState> state;
};

/// What a mixed step (DynamicPageRank::update) did to the graph (the shared MixedUpdate).
using PageRankMixedUpdate = MixedUpdate;

/// Static PageRank of a GPU graph (the ranks copied to the host).
template <GpuDynamicGraph Graph>
PageRankResult pagerank(const Graph& graph, const PageRankOptions& options = {},
                        const PageRankTuning& tuning = {});

/// Keeps the PageRank of a GPU graph converged while batches are applied through it.
template <GpuDynamicGraph Graph>
class DynamicPageRank : public DynamicFrame<DynamicPageRank<Graph>, Graph> {
 public:
  /// Runs the static PageRank once. Throws as pagerank() does.
  explicit DynamicPageRank(Graph& graph, const PageRankOptions& options = {},
                           const PageRankTuning& tuning = {});

  /// Batch calls and observer calls: DynamicFrame's (algorithms/dynamic_frame.hpp). Hooks:
  /// after_insert and after_erase iterate from the previous ranks (warm start) when an edge moved
  /// or the id range grew, else report 0 iterations; before_erase does nothing (the ranks change
  /// once the edges are gone).

  /// The ranks copied to the host, with the last run's iterations.
  PageRankResult result() const;
  /// The ranks on the device (num_vertices() entries); valid until the next call.
  const double* rank_device() const noexcept { return rank_.data(); }
  const PageRankRun& last_run() const noexcept { return run_; }
  /// Static PageRank from scratch, from 1/n.
  void recompute();
  /// Iterations of the last cold start (the warm-start cap's reference).
  int cold_iterations() const noexcept { return cold_iterations_; }

 private:
  using Frame = DynamicFrame<DynamicPageRank<Graph>, Graph>;
  friend Frame;
  using Frame::graph_;
  /// The policy hooks (algorithms/dynamic_frame.hpp).
  BatchEffect on_after_insert(const ChangedEdges& added);
  void on_before_erase(const ChangedEdges&) {}
  BatchEffect on_after_erase(const ChangedEdges& removed);
  void grow();
  /// Iterates from the current ranks (or restarts cold, pagerank.hpp); changed: the vertices
  /// moved by more than tolerance / n.
  BatchEffect warm_start();
  /// The mixed step (DynamicFrame::update): erases `erase`, then inserts `insert`, through the
  /// graph, and converges once (erase_edges then insert_edges would converge twice, each warm start
  /// about as long). The ranks, changed and recomputed are those of one warm start after both
  /// batches.
  void begin_step(std::uint64_t erase_entries, std::uint64_t insert_entries);
  BatchEffect end_step(const BatchEffect& erased, const BatchEffect& inserted);
  /// Before an erasure: 0 iterations (a deletion that removed nothing calls no hook).
  void on_batch_start(bool erase);
  /// Erases the vertices (and their edges) through the graph, then warm-starts: the erased ids
  /// stay in the formula as dangling vertices without edges, as in the reference.
  DynamicUpdate<VertexEraseResult> erase_vertices_through(std::span<const vertex_t> ids);

  PageRankOptions options_;
  PageRankTuning tuning_;
  std::uint64_t n_ = 0;
  int cold_iterations_ = 0;  ///< of the last cold start (0: none to predict from)
  double cold_rate_ = 0;     ///< its mean change ratio per iteration
  PageRankWorkspace work_;
  bool pending_ = false;  ///< inside update(): a change awaits the step's one warm start
  DeviceBuffer<double> rank_, before_;
  DeviceBuffer<unsigned long long> counter_;
  PageRankRun run_;
};

extern template PageRankResult pagerank(const DynamicGraph<SlabSetAdjacency>&,
                                        const PageRankOptions&, const PageRankTuning&);
extern template PageRankResult pagerank(const DynamicGraph<SlabMapAdjacency>&,
                                        const PageRankOptions&, const PageRankTuning&);
extern template class DynamicPageRank<DynamicGraph<SlabSetAdjacency>>;
extern template class DynamicPageRank<DynamicGraph<SlabMapAdjacency>>;

}  // namespace wg::gpu
