#pragma once
// Connected components on a GPU dynamic graph (weakly connected for directed graphs): static and
// dynamic. Declarations only (plain C++ may include this); definitions in wcc.cuh, instantiated
// for every graph of WG_GPU_GRAPHS by gpu/CMakeLists.txt (wg_gpu_algorithm). The static
// computation also runs on any DeviceGraphView (wcc.cuh: connected_components(view, ...)), so a
// CSR or another adjacency runs it too.
//
// Semantics (as wg::cpu::connected_components and the reference): component[v] is the smallest
// vertex id of v's component, arcs read in both directions; every id below num_vertices() has a
// label: isolated and erased vertices are components of their own. count = number of
// components.
//
// Static: lock-free union-find on a parent array, one warp per vertex over its out-arcs (every
// arc is the out-arc of its source, so out-arcs suffice for weak connectivity). A union hooks
// the larger root under the smaller with a compare-and-swap, so parents always point to smaller
// ids and a tree's root is its smallest id; finds halve paths. A last pass points every vertex
// at its root. O(m alpha(n)) work, two n-entry arrays.
//
// Dynamic (DynamicComponents): keeps the labels exact while batches are applied through it.
//  - insertions: each added edge unites its endpoints' trees (one thread per edge), then every
//    vertex is pointed at its root again (an O(n) streaming pass): O(b + n), no adjacency read;
//  - deletions, in three tiers chosen before any work (ComponentsTuning::certify_*):
//    1. certificates (wcc_certify.cuh), on the graph after the batch: an endpoint left with
//       degree 0 splits off alone; otherwise the endpoints are shown still connected by a walk
//       of length <= 3 (a common neighbour, or a neighbour of one adjacent to a neighbour of the
//       other); failing that (undirected graphs), a search from each endpoint of at most 64
//       vertices either reaches the other endpoint or exhausts a closed piece, which splits off
//       when no other deleted edge touches it. Each edge reads a bounded number of arcs. A
//       component all of whose deleted edges are decided keeps its label; only its isolated
//       vertices and pieces move. O(b * budget) work, no O(n) pass, one synchronisation;
//    1b. a second, larger search for the few edges left undecided (wcc_search.cuh; undirected
//       graphs; ComponentsTuning::search_*): per edge, a bidirectional level-synchronous
//       search from both endpoints on the graph after the batch, up to search_arcs_per_edge
//       arcs, one block each in one launch: the sides meet (connected), or one side is exhausted
//       and splits off as a piece under the first tier's rules (no other deleted edge touches it,
//       it does not hold the component's label), or the edge stays undecided. It runs only when
//       the undecided edges are few (search_max_edges, search_edge_fraction), its total reads
//       bounded by search_fraction of the graph; no extra synchronisation;
//    2. the components with an undecided edge are reset, each member its own root, and the
//       union-find runs again over those members' arcs only: O(n + arcs of those components).
//       When they hold more than recompute_fraction of the ids, the static computation runs
//       instead (see the option);
//    3. a batch so large that its certificate budget per edge falls below
//       certify_min_arcs_per_edge goes straight to the static computation, without reading a
//       label first (DynamicUpdate::recomputed).
//    Why not "recompute the components that lost an edge" alone: on skewed graphs nearly every
//    deleted edge lies in the giant component, which made every deletion batch a recomputation
//    plus the cost of finding out; most such edges have a common neighbour or hang a leaf;
//  - vertex deletions: the erased vertices' components are recomputed the same way; the erased
//    ids become components of their own.
// DynamicUpdate::changed counts the vertices whose label moved. Ids the graph adds (EdgeList
// overloads past the range) join as components of their own.
//
// Every change to the graph must go through the object (or be followed by recompute()).
// Errors: wg::CapacityError when device memory runs out (as the graph).
#include <cstdint>
#include <span>
#include <vector>

#include <warpgraph/algorithms/dynamic_update.hpp>
#include <warpgraph/algorithms/gpu_dynamic_update.cuh>
#include <warpgraph/algorithms/wcc/wcc.hpp>
#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/graph_concepts.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::gpu {

struct ChangedEdges;  // algorithms/gpu_dynamic_update.cuh

using wg::Components;  // algorithms/wcc/wcc.hpp

using wg::ComponentsOptions;  // algorithms/wcc/wcc.hpp

/// Components of a GPU graph (one synchronisation; the labels are copied to the host).
template <GpuDynamicGraph Graph>
Components connected_components(const Graph& graph, const ComponentsOptions& options = {});

/// The GPU backend's tuning of the dynamic components: when deletions are certified, searched,
/// or answered by the static computation (never changes the labels).
struct ComponentsTuning {
  /// Deletions whose affected components hold more than this fraction of the ids run the static
  /// computation over the whole graph instead: the restricted pass then reads about as many
  /// arcs, and adds the per-vertex label checks and the member list on top.
  double recompute_fraction = 0.25;
  /// The deletion certificates of one batch (chunk) may read at most this fraction of
  /// num_vertices() + num_edges() arcs and adjacency probes in all, so that a batch whose
  /// certificates fail pays about this much on top of the recomputation it then needs (the
  /// certificates' reads are scattered, the static pass streams: hence a small fraction).
  /// 0 turns the certificates off: every deletion batch takes the restricted / static path.
  double certify_fraction = 0.05;
  /// Floor of that batch budget in arcs: on small graphs the budget would otherwise forbid any
  /// certificate, while a launch costs more than these reads.
  std::uint64_t certify_min_arcs = std::uint64_t{1} << 16;
  /// Ceiling of the budget of one deleted edge (arcs + probes): a walk of length <= 3 that has
  /// not met the other endpoint within this is unlikely to.
  std::uint32_t certify_arcs_per_edge = 1024;
  /// The switch to the static computation: when the batch budget divided by the deleted edges
  /// falls below this (a 32-slot slab, about one neighbour list), the certificates cannot
  /// succeed for most edges, and the batch is recomputed directly, reading no label first.
  std::uint32_t certify_min_arcs_per_edge = 32;
  /// The second tier's budget per undecided edge, in arcs (a search stops before a level that
  /// would pass it); 0 turns the second tier off. Large enough to find the long cycles and the
  /// large split-off pieces that the first tier's 64-vertex search cannot, small enough that a
  /// few dozen such searches cost a fraction of one static pass.
  std::uint32_t search_arcs_per_edge = std::uint32_t{1} << 15;
  /// The second tier runs when the searchable undecided edges of a batch are at most
  /// max(search_max_edges, search_edge_fraction * deleted edges); past that the batch is not one
  /// of a few hard edges, and the recomputation is the cheaper answer.
  std::uint32_t search_max_edges = 64;
  double search_edge_fraction = 0.01;
  /// All searches of a batch read at most max(search_min_arcs, search_fraction * (n + m)) arcs:
  /// the per-edge budget shrinks to fit. Their scratch is about 40 bytes per arc of that total
  /// (a visited table at load <= 1/2 and the visited lists), kept between batches.
  double search_fraction = 0.1;
  std::uint64_t search_min_arcs = std::uint64_t{1} << 20;
};

/// What the deletion tiers did, summed since construction (or reset_deletion_stats()): edges,
/// except where a field says batches. Exact counts, read back with the batch's one
/// synchronisation.
struct DeletionStats {
  std::uint64_t certified = 0;   ///< edges whose endpoints were shown still connected
  std::uint64_t isolated = 0;    ///< edges whose endpoint split off alone
  std::uint64_t pieces = 0;      ///< edges whose one side split off as a small piece
  std::uint64_t undecided = 0;   ///< edges left to the recomputation of their component
  std::uint64_t searched = 0;    ///< of the certified and pieces: decided by the second tier
  std::uint64_t restricted = 0;  ///< batches that recomputed the flagged components only
  std::uint64_t recomputed = 0;  ///< batches answered by the static computation
  std::uint64_t direct = 0;      ///< of those, batches too large to try certificates
  /// Of the recomputed, mixed-step erasures (update(erase, insert)) whose static computation
  /// ran once at the step's end, after the step's insertion (which then did no work of its own).
  std::uint64_t shared = 0;
};

/// Keeps the connected components of a GPU graph exact while batches are applied through it.
template <GpuDynamicGraph Graph>
class DynamicComponents : public DynamicFrame<DynamicComponents<Graph>, Graph> {
 public:
  /// Runs the static computation once. The graph must outlive this object.
  explicit DynamicComponents(Graph& graph, const ComponentsOptions& options = {},
                             const ComponentsTuning& tuning = {});

  /// Batch calls and observer calls: DynamicFrame's (algorithms/dynamic_frame.hpp). Hooks:
  /// after_insert unites the added edges' trees and relabels (nothing to do without an added edge);
  /// before_erase only grows the id range; after_erase decides the removed edges on the graph
  /// without them (see the class comment).

  /// The labels, copied to the host.
  Components result() const;
  /// The labels on the device (num_vertices() entries, ordered on the graph's stream); valid
  /// until the next call.
  const vertex_t* labels_device() const noexcept { return label_.data(); }
  std::uint64_t count() const noexcept { return count_; }
  /// What the deletion tiers did (see DeletionStats).
  const DeletionStats& deletion_stats() const noexcept { return stats_; }
  void reset_deletion_stats() noexcept { stats_ = {}; }
  /// Static computation from scratch.
  void recompute();

 private:
  using Frame = DynamicFrame<DynamicComponents<Graph>, Graph>;
  using Frame::graph_;
  /// The policy hooks (algorithms/dynamic_frame.hpp).
  WG_DYNAMIC_POLICY_HOOKS(Frame, const ChangedEdges&);
  void grow();
  /// rep_ and ecount_ sized to n ids and cleared.
  void reset_endpoint_marks(std::uint64_t n);
  /// After the components whose label is flagged lost edges: returns the labels changed.
  std::uint64_t split_flagged(bool& recomputed);
  std::uint64_t recompute_counting();
  void unite_added(const ChangedEdges& added);
  void flag_removed(const ChangedEdges& removed);
  /// Tier 1 (see the class comment): decides each removed edge, flags the components left
  /// undecided and splits off the isolated vertices of the others; returns the labels changed.
  std::uint64_t certify_removed(const ChangedEdges& removed, std::uint32_t per_edge,
                                std::uint64_t& undecided);
  /// Points every vertex at its root, copies the roots to the labels, recounts the components;
  /// returns the labels that moved.
  std::uint64_t relabel_all();
  /// relabel_all over `count` ids (members, or every id when null), adding to the counters as
  /// they are: copies roots into those labels, recounts the components of all ids.
  std::uint64_t relabel(const vertex_t* members, std::uint64_t count);
  /// The mixed step (DynamicFrame::update): erases `erase`, then inserts `insert`, through the
  /// graph; the labels after it are those of erase_edges(erase) then insert_edges(insert). The
  /// erasure runs its tiers as erase_edges does; when it goes to the static computation (too large
  /// for certificates, or its undecided edges' components too large), the computation is not run
  /// yet: the insertion only updates the graph, and one static computation at the end answers both
  /// parts (two calls would recompute, then unite and relabel). Otherwise the insertion unites and
  /// relabels as insert_edges does. changed: the vertices whose label differs between before
  /// and after the step (one O(n) comparison with a copy of the labels taken at the start,
  /// when more than one part moved labels); recomputed: the static computation answered it.
  /// Errors as insert_edges; after one, the labels may be stale: call recompute().
  void begin_step(std::uint64_t erase_entries, std::uint64_t insert_entries);
  BatchEffect end_step(const BatchEffect& erased, const BatchEffect& inserted);
  /// Before an erasure batch: the id range grown, so that the labels cover the batch.
  void on_batch_start(bool erase);
  /// Vertex erasure: the erased vertices' components are recomputed as after an edge erasure.
  DynamicUpdate<VertexEraseResult> erase_vertices_through(std::span<const vertex_t> ids);

  ComponentsTuning tuning_;
  std::uint64_t n_ = 0;              ///< ids covered
  DeviceBuffer<vertex_t> label_;     ///< the result
  DeviceBuffer<vertex_t> parent_;    ///< the union-find forest (== label_ between calls)
  DeviceBuffer<std::uint8_t> flag_;  ///< per label: its component lost an edge
  DeviceBuffer<vertex_t> members_;   ///< the affected vertices
  DeviceBuffer<unsigned long long> counters_;
  DeviceBuffer<vertex_t> claim_;        ///< per removed edge: the isolated vertex it splits off
  DeviceBuffer<vertex_t> old_label_;    ///< per removed edge: its component's label before
  DeviceBuffer<vertex_t> rep_;          ///< per id: smallest removed partner (kNone between calls)
  DeviceBuffer<std::uint32_t> ecount_;  ///< per id: removed edges (0 between calls)
  DeviceBuffer<vertex_t> piece_;        ///< per removed edge: the piece it splits off
  DeviceBuffer<std::uint32_t> piece_size_;  ///< per removed edge: that piece's size (or 0)
  // The second tier (wcc_search.cuh): listed edges (SearchItem, 3 words each), per search its
  // visited table (keys tagged with search_gen_, so never cleared between launches) and lists,
  // per listed edge the piece it splits off.
  DeviceBuffer<std::uint64_t> search_items_;
  DeviceBuffer<std::uint64_t> search_table_;
  DeviceBuffer<vertex_t> search_lists_;
  DeviceBuffer<std::uint32_t> search_piece_len_;
  DeviceBuffer<std::uint8_t> search_piece_side_;
  DeviceBuffer<vertex_t> search_piece_root_;
  std::uint32_t search_gen_ = 0;
  std::uint64_t count_ = 0;
  // A mixed step (update(erase, insert)): the labels before it, whether its static computation
  // is deferred to its end, and how many chunks moved labels on the way.
  DeviceBuffer<vertex_t> before_;
  bool step_recompute_ = false;
  std::uint64_t step_n0_ = 0;
  std::uint64_t step_moves_ = 0;
  DeletionStats stats_;
};

extern template Components connected_components(const DynamicGraph<SlabSetAdjacency>&,
                                                const ComponentsOptions&);
extern template Components connected_components(const DynamicGraph<SlabMapAdjacency>&,
                                                const ComponentsOptions&);
extern template class DynamicComponents<DynamicGraph<SlabSetAdjacency>>;
extern template class DynamicComponents<DynamicGraph<SlabMapAdjacency>>;

}  // namespace wg::gpu
