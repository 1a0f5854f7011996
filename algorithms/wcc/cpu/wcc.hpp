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
// O(m alpha(n)) work, n ids of memory.
//
// Dynamic (DynamicComponents): keeps the labels of a wg::cpu::DynamicGraph exact while batches
// are applied through it, with each component's member list. Insertions: each added edge joining
// two components moves the members of the one with the larger label to the other (the moved
// vertices are exactly those whose label changes): O(batch + changed). Deletions: for each
// removed edge, a search from one endpoint for the other over at most
// ComponentsTuning::reconnect_budget arcs; found, the edge cannot split its component.
// Only the components with an edge not so confirmed are recomputed, by union-find over their
// members' arcs: O(batch * budget + those components' arcs). When those components hold more than
// ComponentsTuning::recompute_fraction of the ids, the static computation (parallel)
// runs over the whole graph instead. Vertex deletions remove the vertices' edges as a deletion
// batch; the erased ids stay components of their own.
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
  /// Dynamic: deletions hitting components of more than this fraction of the ids recompute
  /// everything with the static (parallel) union-find instead of the affected components one by
  /// one.
  double recompute_fraction = 0.5;
  /// Dynamic: a deleted edge {u, v} is first checked by a search from u for v (arcs both ways)
  /// that scans at most this many arcs: found, it cannot split its component, which is kept as
  /// is. Meshes and dense communities almost always have such a short detour.
  std::uint64_t reconnect_budget = 1024;
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
  /// Static computation from scratch (replaces the result).
  const Components& recompute();

 private:
  /// The policy hooks (algorithms/dynamic_frame.hpp).
  WG_DYNAMIC_POLICY_HOOKS(DynamicFrame, std::span<const std::uint64_t>);
  void grow();
  void rebuild_members();
  /// Recomputes the components labelled `labels` (sorted, unique); returns labels changed.
  std::uint64_t split(const std::vector<vertex_t>& labels);
  /// Whether u and v are found connected within reconnect_budget scanned arcs.
  bool still_connected(vertex_t u, vertex_t v);
  /// After the edges `keys` (of components old_labels[i]) went: returns labels changed.
  std::uint64_t after_deletion(std::span<const std::uint64_t> keys,
                               const std::vector<vertex_t>& old_labels, bool& recomputed);
  std::uint64_t recompute_counting();

  ComponentsOptions options_;
  ComponentsTuning tuning_;
  Components result_;
  std::vector<std::vector<vertex_t>> members_;  ///< members_[label]: the component's vertices
  std::vector<std::uint32_t> seen_;             ///< still_connected's visit stamps
  std::uint32_t stamp_ = 0;
  std::vector<vertex_t> queue_;
  std::vector<vertex_t> erase_labels_;  ///< before_erase: the component of each removed edge
};

}  // namespace wg::cpu
