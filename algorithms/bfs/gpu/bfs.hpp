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
// instead when a repair resets more than DynamicBfsOptions::recompute_fraction of the ids, or an
// insertion batch brings more than recompute_batch_fraction of the graph's edges: past those the
// direction-optimising static search costs less than the propagation rounds. The batch goes to
// the graph whole and the propagation runs BfsOptions::rounds_per_check levels per host
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

struct BfsOptions {
  /// Bottom-up when the frontier grows and frontier arcs * top_down_alpha > unvisited vertices'
  /// arcs (Beamer's alpha). 0: top-down only.
  unsigned top_down_alpha = 14;
  /// Back to top-down when frontier size * bottom_up_beta < vertices (Beamer's beta).
  unsigned bottom_up_beta = 24;
  /// A frontier vertex of more than split_degree neighbours is expanded by split_parts warps
  /// (each a share of its buckets or row) in a second kernel of the level, so that a hub does not
  /// hold one warp for its whole list. 0 (either): never split. DynamicBfs's propagation uses
  /// the same fields.
  std::uint32_t split_degree = 4096;
  std::uint32_t split_parts = 64;
  /// DynamicBfs's propagation: relaxation rounds launched before the host checks the queue
  /// (SsspOptions::rounds_per_check). The static search checks every level (it chooses the
  /// direction from the frontier's size).
  std::uint32_t rounds_per_check = 4;
};

template <GpuDynamicGraph Graph>
BfsResult bfs(const Graph& graph, vertex_t source, const BfsOptions& options = {});

struct DynamicBfsOptions {
  BfsOptions bfs;
  /// A repair that resets more than this fraction of the ids runs the static BFS instead.
  double recompute_fraction = 0.1;
  /// An insertion batch with more new edges than this fraction of the graph's edges is answered
  /// by the static BFS (it then touches most levels anyway).
  double recompute_batch_fraction = 0.05;
};

/// Keeps the BFS from one source of a GPU graph exact while batches are applied through it (the
/// batch calls, the observer calls and recompute() are sp::DynamicSearch's, as DynamicSssp's).
/// keys_device()[v] = (level << 32) | parent.
template <GpuDynamicGraph Graph>
class DynamicBfs : public sp::DynamicSearch<DynamicBfs<Graph>, Graph> {
 public:
  DynamicBfs(Graph& graph, vertex_t source, const DynamicBfsOptions& options = {});

  /// The current result, downloaded (O(n)).
  BfsResult result() const;

 private:
  using Search = sp::DynamicSearch<DynamicBfs<Graph>, Graph>;
  friend Search;
  /// The static (direction-optimising) BFS from the live source into the keys.
  void search_into_keys(cudaStream_t stream);
  DynamicBfsOptions options_;
};

extern template BfsResult bfs(const DynamicGraph<SlabSetAdjacency>&, vertex_t, const BfsOptions&);
extern template BfsResult bfs(const DynamicGraph<SlabMapAdjacency>&, vertex_t, const BfsOptions&);
extern template class DynamicBfs<DynamicGraph<SlabSetAdjacency>>;
extern template class DynamicBfs<DynamicGraph<SlabMapAdjacency>>;
extern template class sp::DynamicSearch<DynamicBfs<DynamicGraph<SlabSetAdjacency>>,
                                        DynamicGraph<SlabSetAdjacency>>;
extern template class sp::DynamicSearch<DynamicBfs<DynamicGraph<SlabMapAdjacency>>,
                                        DynamicGraph<SlabMapAdjacency>>;

}  // namespace wg::gpu
