#pragma once
// Connected components on the CPU graph (weakly connected for directed graphs): static and
// dynamic. The folder is wcc/ as the design's layout names it; the CLI command is `cc`.
//
// Semantics. component[v] is the smallest vertex id of v's component (arcs read in both
// directions), the canonical labelling wg::reference::connected_components gives, so results
// compare with ==. Every id below num_vertices() has a label: isolated and erased vertices are
// components of their own. count = number of components.
//
// Static (connected_components): lock-free union-find over the out-arcs (every arc is the
// out-arc of its source, so out-arcs suffice for weak connectivity). A union hooks the larger
// root under the smaller one with a compare-and-swap, so a tree's root is its smallest id and
// labels need no second pass beyond a find; finds halve paths. Threads take vertices in chunks.
// Undirected graphs skip most of the giant component's arcs (Afforest: a sampling pass over two
// neighbours a vertex, then full lists only outside the most frequent tree). O(m alpha(n))
// work, n ids of memory.
//
// Dynamic (DynamicComponents): keeps the labels of a wg::cpu::DynamicGraph exact while batches
// are applied through it, with each component's member list and a spanning forest of the graph
// (rooted, by parent pointers: spanning_forest.hpp).
//  - Insertions: an added edge joining two components becomes a forest edge (one tree rerooted at
//    its end) and the members of the component with the larger label move to the other (exactly
//    the vertices whose label changes): O(batch * depth + changed).
//  - Deletions, one edge at a time in batch order (the edges of the batch not yet taken count as
//    present): an edge outside the forest changes nothing. A forest edge {p, c} is cut and a
//    replacement search runs on both sides at once, breadth-first over the graph's arcs (both
//    directions) from c and from p, always stepping the side whose next vertex leaves it with
//    the less work. The sides meeting prove c and p still connected: a path between them
//    crosses the two trees of the cut forest, and its crossing edge (found by a binary search on
//    the path, each probe a walk to a root) becomes a forest edge. A side whose queue runs out
//    is a whole component of the graph: that proves the split, and the side becomes a
//    component (relabelled by its smallest id; when it holds the component's smallest id, the
//    rest is relabelled instead, O(component)). A search costs about twice the work of the
//    cheaper side, plus depth * log(path length) for the crossing edge.
//  - The searches of one deletion batch are bounded by a work budget (ComponentsTuning::
//    search_work_fraction of the graph's ids + arcs, at least search_min_work: arcs scanned,
//    vertices taken and forest pointers followed). A batch that spends it is answered by the
//    static computation (which also rebuilds the forest, rooted at each component's vertex of
//    highest degree, and the member lists, in their old allocations) and counted as recomputed
//    in the frame's statistics(); deletion_stats() counts the edges of each kind. After batches
//    in a row spend it, batches of about their size skip the searches for a while
//    (algorithms/search_backoff.hpp): a batch that falls back costs about one static computation.
//    Vertex deletions remove the vertices' edges as a deletion batch; the erased ids stay
//    components of their own.
//  - changed counts each vertex whose label differs between before and after the call (a
//    mixed step: before the erasure and after the insertion).
//
// Memory: about 8 words per id (labels, member lists and their positions, the forest, search
// marks), plus a batch's edges twice over during its deletions.
//
// Every change to the graph must go through the object (or be followed by recompute()); ids the
// graph adds later (insert_vertices, ensure_vertices) join as components of their own.
//
// Thread safety: const reads only; one batch at a time (as the graph).
#include <cstdint>
#include <span>
#include <vector>

#include <warpgraph/algorithms/dynamic_frame.hpp>
#include <warpgraph/algorithms/dynamic_update.hpp>
#include <warpgraph/algorithms/search_backoff.hpp>
#include <warpgraph/algorithms/wcc/cpu/spanning_forest.hpp>
#include <warpgraph/algorithms/wcc/wcc.hpp>
#include <warpgraph/graph/cpu/dynamic_graph.hpp>
#include <warpgraph/graph/graph_concepts.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::cpu {

using wg::Components;  // algorithms/wcc/wcc.hpp

using wg::ComponentsOptions;  // algorithms/wcc/wcc.hpp

/// The CPU backend's tuning (never changes the labels).
struct ComponentsTuning {
  /// Worker threads. 0: the graph's threads() where it has one, else all cores.
  unsigned threads = 0;
  /// Dynamic: the work budget of one deletion batch's replacement searches, as a fraction of a
  /// static pass (the graph's ids + arcs): a batch whose searches would scan more is answered by
  /// the static computation, so a batch that falls back wastes at most this fraction of one.
  double search_work_fraction = 0.25;
  /// Dynamic: the budget's floor, in work units (arcs scanned, vertices taken, forest pointers
  /// followed), so that small graphs do not fall back for a few hubs.
  std::uint64_t search_min_work = std::uint64_t{1} << 14;
};

/// What the deletions did, summed since construction (or reset_deletion_stats()), in deleted
/// edges. The frame's statistics() count the batches: incremental, or recomputed (a budget ran
/// out).
struct DeletionStats {
  /// Edges outside the spanning forest (or, directed, arcs whose reverse arc remains): nothing
  /// to do.
  std::uint64_t unaffected = 0;
  std::uint64_t replaced = 0;   ///< forest edges whose search found a replacement edge
  std::uint64_t split = 0;      ///< forest edges whose search proved a split
  std::uint64_t abandoned = 0;  ///< forest edges whose search spent the batch's budget
  std::uint64_t work = 0;       ///< work units the searches spent (see ComponentsTuning)
  /// Batches (not edges) answered by the static computation without a search: the backoff after
  /// batches whose searches spent the budget (algorithms/search_backoff.hpp).
  std::uint64_t skipped_batches = 0;
};

/// Components of any HostGraphView (definition in wcc_impl.hpp).
template <HostGraphView Graph>
Components connected_components(const Graph& graph, const ComponentsOptions& options = {},
                                const ComponentsTuning& tuning = {});
extern template Components connected_components(const DynamicGraph&, const ComponentsOptions&,
                                                const ComponentsTuning&);

/// Keeps the connected components of a DynamicGraph exact while batches are applied through it.
class DynamicComponents : public DynamicFrame<DynamicComponents, DynamicGraph> {
 public:
  explicit DynamicComponents(DynamicGraph& graph, const ComponentsOptions& options = {},
                             const ComponentsTuning& tuning = {});

  /// Each batch returns what it did to the graph, the vertices whose label changed, and whether
  /// the static computation answered it (algorithms/dynamic_update.hpp).
  /// insert_edges, erase_edges, update(erase, insert), erase_vertices and the observer calls
  /// (after_insert, before_erase, after_erase) are the frame's (algorithms/dynamic_frame.hpp).

  const Components& result() const noexcept { return result_; }
  /// What the deletions did (see DeletionStats).
  const DeletionStats& deletion_stats() const noexcept { return deletion_stats_; }
  void reset_deletion_stats() noexcept { deletion_stats_ = {}; }
  /// Static computation from scratch (replaces the result and the forest).
  const Components& recompute();

 private:
  using Frame = DynamicFrame<DynamicComponents, DynamicGraph>;
  /// The policy hooks (algorithms/dynamic_frame.hpp).
  WG_DYNAMIC_POLICY_HOOKS(Frame, std::span<const std::uint64_t>);
  /// The mixed step counts the labels changed between its start and its end.
  void begin_step(std::uint64_t erase_entries, std::uint64_t insert_entries);
  BatchEffect end_step(const BatchEffect& erased, const BatchEffect& inserted);

  /// How a replacement search ended.
  enum class Search { met, a_exhausted, b_exhausted, over_budget };
  void grow();
  void rebuild_members();
  /// Merges the components labelled a and b (a != b).
  void merge(vertex_t a, vertex_t b);
  /// Every edge of `keys` in turn (see the header comment); false when the budget ran out.
  bool delete_edges(std::span<const std::uint64_t> keys);
  /// The i-th deleted edge {a, b}; false when the budget ran out.
  bool delete_edge(vertex_t a, vertex_t b, std::size_t i);
  /// The two-sided search from c (side A) and p (side B) after the forest edge {p, c} is cut.
  Search search(vertex_t c, vertex_t p, std::size_t i);
  /// After search() met at meet_: makes a crossing edge of the path a forest edge.
  void reconnect(vertex_t c, vertex_t p);
  /// After the side `side` (its queue holds it, the tag its vertices) was exhausted.
  void split_off(const std::vector<vertex_t>& side, std::uint32_t tag);
  /// f(w) for each neighbour w of x in the graph as the i-th deletion sees it (arcs both
  /// directions, and the batch's later edges); f returns false to stop. Returns arcs read.
  template <class F>
  std::uint64_t scan(vertex_t x, std::size_t i, F&& f) const;
  /// Whether the arc s->t is in the graph as the i-th deletion sees it (directed graphs).
  bool arc_remains(vertex_t s, vertex_t t, std::size_t i) const;
  void index_pending(std::span<const std::uint64_t> keys);
  void clear_pending();

  // The change log: each vertex's label before the call, at its first change.
  void begin_changes();
  void set_label(vertex_t v, vertex_t label);
  std::uint64_t end_changes();

  ComponentsOptions options_;
  ComponentsTuning tuning_;
  Components result_;
  DeletionStats deletion_stats_;
  std::vector<std::vector<vertex_t>> members_;  ///< members_[label]: the component's vertices
  std::vector<vertex_t> position_;              ///< v's index in members_[label(v)]
  detail::SpanningForest forest_;
  std::vector<std::vector<std::uint64_t>> hooked_;  ///< recompute: the forest's edges, by thread
  SearchBackoff backoff_;                           ///< of the deletion batches' searches

  // Search state: visit tags (tag_ for side A, tag_ + 1 for B), the arc each vertex was reached
  // by (its other end), the two queues, the meeting arc, the batch's budget and spending.
  std::vector<std::uint32_t> visit_;
  std::uint32_t tag_ = 0;
  std::vector<vertex_t> via_;
  std::vector<vertex_t> queue_a_, queue_b_, path_;
  vertex_t meet_a_ = 0, meet_b_ = 0;
  std::uint64_t budget_ = 0, spent_ = 0;
  // The batch's deleted edges by end point: (end, other end, batch index, end is the source).
  struct Pending {
    vertex_t end, other;
    std::uint64_t index : 63;
    std::uint64_t source : 1;
  };
  std::span<const Pending> pending_at(vertex_t x) const;
  std::vector<Pending> pending_;
  std::vector<std::uint8_t> has_pending_;

  // The change log (begin_changes / set_label / end_changes).
  bool logging_ = false;
  bool log_full_ = false;  ///< a recompute answered: before_ holds every label
  std::vector<std::uint32_t> logged_;
  std::uint32_t log_tag_ = 0;
  std::vector<std::pair<vertex_t, vertex_t>> log_;
  std::vector<vertex_t> before_;
};

}  // namespace wg::cpu
