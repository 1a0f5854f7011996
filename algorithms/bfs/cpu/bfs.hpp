#pragma once
// Breadth-first search on the CPU graph: levels and parents from one source, static and dynamic.
//
// Semantics. level[v] is the number of arcs on a shortest path source -> v (kUnreached = -1 when
// there is none); level[source] = 0. parent[v] is a vertex u with an arc u -> v and
// level[u] == level[v] - 1 (for undirected graphs: a neighbour one level closer); parent[source]
// == source, kNoParent for unreached vertices. Directed graphs follow out-arcs only, as
// wg::reference::bfs_levels does. Levels are unique; parents are one valid choice among possibly
// several (not necessarily the reference's). A source that is not live reaches nothing (every
// level kUnreached, the source's too).
//
// Static (bfs): level-synchronous over a frontier. Top-down steps claim unvisited out-neighbours
// of the frontier with a compare-and-swap on their level, each thread filling its own part of the
// next frontier. Direction-optimising (Beamer et al.): when the frontier grows and its arcs exceed
// the unvisited vertices' arcs / BfsOptions::top_down_alpha, a bottom-up step makes every unvisited
// vertex look for an in-neighbour in the frontier (stopping at the first), until the frontier
// shrinks below n / BfsOptions::bottom_up_beta. Bottom-up needs in-neighbours: undirected graphs
// always, directed graphs only when the graph has for_each_in_neighbor. O(n + m) work; one
// thread fork/join per level; n int64 levels, n parents and two frontiers of memory.
//
// Dynamic (DynamicBfs): keeps the BFS of a wg::cpu::DynamicGraph exact while batches are applied
// through it. Insertions: every added arc u -> v with level[u] + 1 < level[v] lowers v and the
// lowering propagates from there in level order (a bucket queue): O(changed vertices' arcs).
// Deletions: a vertex whose parent arc went looks for another in-neighbour one level up that is
// itself unaffected (vertices handled in level order); if none, it is affected and so are its
// tree children. Affected vertices are then re-levelled from their unaffected in-neighbours and
// by propagation: O(affected vertices' arcs). When the vertices a batch touches exceed
// BfsTuning::recompute_fraction of the id range, the repair stops and the static BFS
// runs instead (it is parallel and direction-optimising, the repair is sequential). Vertex
// deletions remove the vertices' edges as a deletion batch first; erasing the source makes
// every vertex unreached.
//
// Every change to the graph must go through the object (or be followed by recompute()): a
// vertex id that the graph reuses after the source was erased is not the source again.
//
// Thread safety: const reads only; one batch at a time (as the graph).
#include <cstdint>
#include <span>
#include <vector>

#include <warpgraph/algorithms/bfs/bfs.hpp>
#include <warpgraph/algorithms/dynamic_frame.hpp>
#include <warpgraph/algorithms/dynamic_update.hpp>
#include <warpgraph/graph/cpu/csr_view.hpp>
#include <warpgraph/graph/cpu/dynamic_graph.hpp>
#include <warpgraph/graph/graph_concepts.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::cpu {

// The result and its constants: algorithms/bfs/bfs.hpp.
using wg::BfsResult;
using wg::kBfsNoParent;
using wg::kBfsUnreached;
inline constexpr vertex_t kNoParent = kBfsNoParent;

using wg::BfsOptions;  // algorithms/bfs/bfs.hpp

/// The CPU backend's tuning (never changes the levels).
struct BfsTuning {
  /// Worker threads. 0: the graph's threads() where it has one, else all cores.
  unsigned threads = 0;
  /// Frontiers below this size are expanded on the calling thread (a fork/join costs more).
  std::size_t parallel_grain = 1024;
  /// Undirected graphs with export_csr() (wg::cpu::DynamicGraph) are searched on a CSR snapshot
  /// (graph/cpu/csr_view.hpp): a parallel O(n + m) export, then contiguous neighbour lists
  /// instead of a tree descent per visited vertex. false walks the graph itself.
  bool snapshot = true;
  /// Dynamic: a batch whose repair touches more than this fraction of the id range is answered
  /// by a static BFS instead: the repair is sequential and costs several times the static BFS
  /// per vertex, so from about a tenth of the graph the parallel recompute is cheaper.
  double recompute_fraction = 0.1;
};

/// BFS from `source` on any HostGraphView (definition in bfs_impl.hpp). Throws
/// wg::InvalidArgument when source >= num_vertices().
template <HostGraphView Graph>
BfsResult bfs(const Graph& graph, vertex_t source, const BfsOptions& options = {},
              const BfsTuning& tuning = {});
extern template BfsResult bfs(const DynamicGraph&, vertex_t, const BfsOptions&, const BfsTuning&);
extern template BfsResult bfs(const CsrView&, vertex_t, const BfsOptions&, const BfsTuning&);

/// Keeps the BFS from one source of a DynamicGraph exact while batches are applied through it.
class DynamicBfs : public DynamicFrame<DynamicBfs, DynamicGraph> {
 public:
  /// Runs the static BFS once. Throws wg::InvalidArgument when source >= num_vertices().
  DynamicBfs(DynamicGraph& graph, vertex_t source, const BfsOptions& options = {},
             const BfsTuning& tuning = {});

  /// Each batch returns what it did to the graph, the vertices whose level changed, and whether
  /// the static computation answered it (algorithms/dynamic_update.hpp).
  /// erase_vertices repairs as for an edge deletion batch.
  /// insert_edges, erase_edges, update(erase, insert), erase_vertices and the observer calls
  /// (after_insert, before_erase, after_erase) are the frame's (algorithms/dynamic_frame.hpp).

  const BfsResult& result() const noexcept { return result_; }
  vertex_t source() const noexcept { return source_; }
  /// Static BFS from scratch (replaces the result).
  const BfsResult& recompute();

 private:
  friend DynamicFrame;
  /// The policy hooks (algorithms/dynamic_frame.hpp).
  BatchEffect on_after_insert(std::span<const std::uint64_t> added);
  void on_before_erase(std::span<const std::uint64_t>) {}
  BatchEffect on_after_erase(std::span<const std::uint64_t> removed);
  void grow();
  std::uint64_t budget() const;
  /// Lowers levels from the added arcs `keys`; false when it gave up (over budget).
  bool propagate_insertions(std::span<const std::uint64_t> keys, std::uint64_t& changed);
  /// Repairs after the arcs `keys` went; false when it gave up (over budget).
  bool repair_deletions(std::span<const std::uint64_t> keys, std::uint64_t& changed);
  std::uint64_t recompute_counting();

  vertex_t source_;
  BfsOptions options_;
  BfsTuning tuning_;
  BfsResult result_;
  std::vector<std::uint8_t> mark_;  ///< per-vertex scratch of the repairs, all 0 between batches
  std::vector<vertex_t> touched_;   ///< vertices whose mark_ is set
};

}  // namespace wg::cpu
