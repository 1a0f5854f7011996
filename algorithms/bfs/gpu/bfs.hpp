#pragma once
// Breadth-first search on the GPU: levels and parents from one source, static and dynamic, on any
// GPU graph of the graph concepts (graph/graph_concepts.hpp). Declarations only (plain C++ may
// include this); definitions in bfs.cuh (with the DeviceGraphView and CsrGraph overloads),
// instantiated for every graph of WG_GPU_GRAPHS by gpu/CMakeLists.txt (wg_gpu_algorithm).
//
// Semantics: those of wg::cpu::bfs (algorithms/bfs/cpu/bfs.hpp). level[v] is the number of arcs
// on a shortest path source -> v (kBfsUnreached = -1 when none); parent[v] is a vertex u with an
// arc u -> v and level[u] == level[v] - 1; parent[source] == source; kBfsNoParent for unreached
// vertices. Directed graphs follow out-arcs. A source that is not live reaches nothing. Parents
// are one valid choice among possibly several.
//
// Static (bfs): level-synchronous, direction-optimising (Beamer et al.). Top-down steps: a warp
// per frontier vertex walks its adjacency a slab (or 32 arcs) at a time and claims unvisited
// neighbours with a compare-and-swap on their level; each warp appends its claims to the next
// frontier with one atomic add. Bottom-up steps (undirected graphs only: the device view has no
// in-arcs): a warp per unvisited live vertex looks for a neighbour on the frontier's level and
// stops at the first (find_neighbor where the view has it). The switch: bottom-up when the
// frontier grows and its arcs x top_down_alpha exceed the unvisited vertices' arcs; back to
// top-down when frontier size x bottom_up_beta < n. O(n + m) work, one host synchronisation per
// level; n levels, n parents, two frontiers of memory.
//
// Dynamic (DynamicBfs): SSSP's dynamic repair with unit lengths (algorithms/sssp/gpu/sssp.hpp):
// insertions relax the new arcs and propagate from the vertices whose level dropped; deletions
// reset the vertices whose parent arc went and their BFS-tree descendants, re-level each from its
// unaffected neighbours (a vertex with a neighbour one level up keeps its level: the
// re-parenting), then propagate. Undirected graphs are repaired exactly; a deletion that affects
// a vertex of a directed graph recomputes (no in-arcs on the device). The static BFS answers
// instead when a repair resets more than BfsTuning::recompute_fraction of the ids, or an
// insertion batch brings more than recompute_batch_fraction of the graph's edges: past those the
// direction-optimising static search costs less than the propagation rounds. The batch goes to
// the graph whole and the propagation runs BfsTuning::rounds_per_check levels per host
// synchronisation, `changed` counted on the device (see DynamicSssp in sssp.hpp).
//
// Errors: wg::InvalidArgument for a source past the id range; wg::CapacityError for GPU memory.
#include <cstdint>
#include <span>
#include <vector>

#include <warpgraph/algorithms/bfs/bfs.hpp>
#include <warpgraph/algorithms/dynamic_update.hpp>
#include <warpgraph/algorithms/gpu_dynamic_update.cuh>
#include <warpgraph/algorithms/sssp/gpu/dynamic_search.hpp>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/graph_concepts.hpp>

namespace wg::gpu {

// The result and its constants: algorithms/bfs/bfs.hpp.
using wg::BfsResult;
using wg::kBfsNoParent;
using wg::kBfsUnreached;

using wg::BfsOptions;  // algorithms/bfs/bfs.hpp
/// Hub splitting, rounds per check and the dynamic switches (sssp/gpu/shortest_path_state.hpp);
/// DynamicBfs's repair shares them with DynamicSssp.
using BfsTuning = SearchTuning;

template <GpuDynamicGraph Graph>
BfsResult bfs(const Graph& graph, vertex_t source, const BfsOptions& options = {},
              const BfsTuning& tuning = {});

/// Keeps the BFS from one source of a GPU graph exact while batches are applied through it (the
/// batch calls, the observer calls and recompute() are sp::DynamicSearch's, as DynamicSssp's).
/// keys_device()[v] = (level << 32) | parent.
template <GpuDynamicGraph Graph>
class DynamicBfs : public sp::DynamicSearch<DynamicBfs<Graph>, Graph> {
 public:
  DynamicBfs(Graph& graph, vertex_t source, const BfsOptions& options = {},
             const BfsTuning& tuning = {});

  /// The current result, downloaded (O(n)).
  BfsResult result() const;

 private:
  using Search = sp::DynamicSearch<DynamicBfs<Graph>, Graph>;
  friend Search;
  /// The static (direction-optimising) BFS from the live source into the keys.
  void search_into_keys(cudaStream_t stream);
  BfsOptions options_;
  BfsTuning tuning_;
};

extern template BfsResult bfs(const DynamicGraph<SlabSetAdjacency>&, vertex_t, const BfsOptions&,
                              const BfsTuning&);
extern template BfsResult bfs(const DynamicGraph<SlabMapAdjacency>&, vertex_t, const BfsOptions&,
                              const BfsTuning&);
extern template class DynamicBfs<DynamicGraph<SlabSetAdjacency>>;
extern template class DynamicBfs<DynamicGraph<SlabMapAdjacency>>;
extern template class sp::DynamicSearch<DynamicBfs<DynamicGraph<SlabSetAdjacency>>,
                                        DynamicGraph<SlabSetAdjacency>>;
extern template class sp::DynamicSearch<DynamicBfs<DynamicGraph<SlabMapAdjacency>>,
                                        DynamicGraph<SlabMapAdjacency>>;

}  // namespace wg::gpu
