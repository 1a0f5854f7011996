#pragma once
// Single-source shortest paths on the GPU, static and dynamic, on any GPU graph of the graph
// concepts (graph/graph_concepts.hpp). Declarations only (plain C++ may include this); the
// definitions are in sssp.cuh (the DeviceGraphView overloads and the CsrGraph ones are there),
// instantiated for every graph of WG_GPU_GRAPHS by gpu/CMakeLists.txt (wg_gpu_algorithm).
//
// Semantics. distance[v] is the length of a shortest path source -> v (kSsspUnreached when there
// is none), where an arc's length is its value (SlabMapAdjacency: the uint32 weight, the last
// entry of a batch wins) or 1 on an unweighted graph or with SsspOptions::unit_weights (then
// distances are BFS levels). parent[v] is a vertex u with an arc u -> v and distance[u] +
// length(u, v) == distance[v]; parent[source] == source; kSsspNoParent for unreached vertices.
// The parents form a tree (a vertex's distance only changes when it strictly improves). Directed
// graphs follow out-arcs. A source that is not live reaches nothing. Distances are 32-bit: a path
// of length 2^32 - 1 or more throws wg::CapacityError (the result is then unspecified).
//
// Static (sssp): data-driven Bellman-Ford, near-far on non-unit lengths (SsspTuning::
// near_far_delta): a frontier of the vertices whose distance improved in the last round, a warp per
// frontier vertex relaxing its arcs with a 64-bit compare-and-swap on (distance, parent); a vertex
// is queued once per round (a per-vertex round stamp). Unit weights make it a top-down BFS.
// O(rounds) host synchronisations; work O(m) per round in the worst case, about O(m) in total on
// unit or near-uniform weights.
//
// Dynamic (DynamicSssp): keeps the result exact while batches are applied through the object.
//  - insertions and weight decreases: each new or cheaper arc u -> v is relaxed; the vertices it
//    improves seed the same relaxation rounds (O(changed vertices' arcs));
//  - deletions and weight increases: the vertices whose parent arc went (or got longer) and their
//    whole shortest-path subtrees (found by walking the tree downwards on the device) are reset;
//    each of them takes the best arc from an unaffected neighbour (a warp per vertex), and the
//    rounds run from those. Exact on undirected graphs (O(affected vertices' arcs)); directed
//    graphs have no in-arcs in the device view, so a batch that affects any vertex recomputes;
//  - erase_vertices: the erased vertices' subtrees are found before the erasure, then repaired
//    as above; erasing the source leaves every vertex unreached from then on.
// The switches to the static computation are SsspTuning fields (an insertion batch with
// more new edges than recompute_batch_fraction of the graph's edges; a repair that affects more
// than recompute_fraction of the ids).
// Batches go to the graph whole (its insert_edges / erase_edges: one deduplicating pass), and
// the update starts from the batch's raw entries (repeats, self-loops and invalid ids are
// harmless there; lengths are read back from the graph). Relaxation rounds read their queue's
// length on the device, so SsspTuning::rounds_per_check of them run between two host
// synchronisations. `changed` is counted as the distances move (the first improvement of a
// vertex in a batch, and the reset vertices whose distance differs after their repair): no O(n)
// pass, except when a batch is answered by the static computation. Scratch is kept between
// batches. If the graph throws during a batch (wg::CapacityError), the result is unspecified
// until recompute().
//
// Errors: wg::InvalidArgument for a source past the id range; wg::CapacityError (GPU memory,
// 32-bit distances).
#include <cstdint>
#include <span>
#include <vector>

#include <warpgraph/algorithms/gpu_dynamic_update.cuh>
#include <warpgraph/algorithms/sssp/gpu/dynamic_search.hpp>
#include <warpgraph/algorithms/sssp/gpu/shortest_path_state.hpp>
#include <warpgraph/algorithms/sssp/sssp.hpp>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/graph_concepts.hpp>

namespace wg::gpu {

inline constexpr std::uint32_t kSsspUnreached = 0xFFFFFFFFu;
inline constexpr vertex_t kSsspNoParent = 0xFFFFFFFFu;

struct SsspResult {
  std::vector<std::uint32_t> distance;  ///< per id; kSsspUnreached when not reached
  std::vector<vertex_t> parent;         ///< per id; kSsspNoParent when not reached
  std::uint64_t reached = 0;
};

using wg::SsspOptions;  // algorithms/sssp/sssp.hpp
/// Hub splitting, the near-far step, rounds per check and the dynamic switches
/// (sssp/gpu/shortest_path_state.hpp); DynamicBfs's repair shares them.
using SsspTuning = SearchTuning;

/// Static SSSP on a GPU dynamic graph (the view-level template is in sssp.cuh).
template <GpuDynamicGraph Graph>
SsspResult sssp(const Graph& graph, vertex_t source, const SsspOptions& options = {},
                const SsspTuning& tuning = {});

/// Keeps the SSSP from one source of a GPU graph exact while batches are applied through it
/// (the batch calls, the observer calls and recompute() are sp::DynamicSearch's).
template <GpuDynamicGraph Graph>
class DynamicSssp : public sp::DynamicSearch<DynamicSssp<Graph>, Graph> {
 public:
  DynamicSssp(Graph& graph, vertex_t source, const SsspOptions& options = {},
              const SsspTuning& tuning = {});

  /// The current result, downloaded (O(n)).
  SsspResult result() const;

 private:
  using Search = sp::DynamicSearch<DynamicSssp<Graph>, Graph>;
  friend Search;
  /// The static search (near-far rounds) from the live source into the keys.
  void search_into_keys(cudaStream_t stream);
  SsspOptions options_;
};

extern template SsspResult sssp(const DynamicGraph<SlabSetAdjacency>&, vertex_t, const SsspOptions&,
                                const SsspTuning&);
extern template SsspResult sssp(const DynamicGraph<SlabMapAdjacency>&, vertex_t, const SsspOptions&,
                                const SsspTuning&);
extern template class DynamicSssp<DynamicGraph<SlabSetAdjacency>>;
extern template class DynamicSssp<DynamicGraph<SlabMapAdjacency>>;
extern template class sp::DynamicSearch<DynamicSssp<DynamicGraph<SlabSetAdjacency>>,
                                        DynamicGraph<SlabSetAdjacency>>;
extern template class sp::DynamicSearch<DynamicSssp<DynamicGraph<SlabMapAdjacency>>,
                                        DynamicGraph<SlabMapAdjacency>>;

}  // namespace wg::gpu
