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
// while batches are applied through it, by the subcore traversal of Sariyuce et al.: inserting
// or deleting one edge {u, v} changes core numbers by at most 1, and only those of vertices with
// core number K = min(core[u], core[v]) reachable from the endpoint(s) of number K through
// vertices of number K (the subcore). For each edge of the batch in turn, the subcore is
// collected with each member's count of neighbours of number >= K and peeled: on insertion the
// members that keep more than K such neighbours rise to K + 1; on deletion those left with fewer
// than K fall to K - 1. Cost per edge O(subcore arcs * log batch). Batches of more new (removed)
// edges than DynamicCoreNumbersOptions::recompute_fraction of the graph's edges are answered by
// the static computation instead, and so are batches whose searches scan more than
// DynamicCoreNumbersOptions::recompute_work of the graph's arcs (their changes undone first).
//
// Every change to the graph must go through the object (or be followed by recompute()); ids the
// graph adds later (insert_vertices, ensure_vertices) join with core number 0.
//
// Thread safety: const reads only; one batch at a time (as the graph).
#include <cstdint>
#include <span>
#include <vector>

#include <warpgraph/algorithms/dynamic_frame.hpp>
#include <warpgraph/algorithms/dynamic_update.hpp>
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
  /// Processes the edge keys[i] (inserted or deleted) while the other edges of `keys` with
  /// index > i (insertion) or <= i (deletion) are treated as absent.
  /// Returns false once the batch's scans exceed the recompute_work budget.
  bool update_edge(std::span<const std::uint64_t> keys, std::size_t i, bool insert);
  /// Runs the batch's edges through update_edge; false: over budget, the batch's changes undone.
  bool update_batch(std::span<const std::uint64_t> keys, bool insert);
  void set_core(vertex_t v, std::uint32_t c);
  /// The vertices whose number changed in this batch (and forgets the batch's records).
  std::uint64_t end_batch();
  std::uint64_t recompute_counting();
  /// Whether a batch of this many new (removed) edges is answered by the static computation.
  bool too_many(std::size_t batch_edges) const;

  DynamicCoreNumbersOptions options_;
  CoreNumbers result_;
  std::vector<std::uint64_t> per_core_;  ///< per_core_[k]: vertices of core number k
  std::vector<std::uint32_t> stamp_;     ///< subcore membership: == epoch_ (or epoch_ + 1: peeled)
  std::uint32_t epoch_ = 0;
  bool erase_recomputes_ = false;     ///< before_erase gave up: after_erase recomputes
  std::vector<std::uint32_t> count_;  ///< a subcore member's neighbours of number >= K
  std::vector<vertex_t> subcore_, stack_;
  std::vector<std::uint8_t> touched_;  ///< per vertex: old number recorded
  std::vector<std::pair<vertex_t, std::uint32_t>> old_;
  std::uint64_t scanned_ =
      0;  ///< arcs scanned by this batch's subcore searches  ///< this batch's (vertex, old number)
};

}  // namespace wg::cpu
