#pragma once
// Triangle counting's GPU backend as the registry reaches it (algorithms/tc/tc_entry.hpp): the
// static count and the incremental counter on any GPU graph, each graph with its counting
// strategy: hash probes (ProbeCounting, triangle_count.hpp) on the slab graph, sorted
// intersection (SortedCounting, sorted_triangle_count.hpp) on the B-tree graph, as the CLI's gpu
// backend counts on each adjacency. Per-vertex counts are the probe count's on every graph (the
// sorted one counts the total only). Declarations only (plain C++ may include this).
#include <memory>

#include <warpgraph/algorithms/tc/gpu/sorted_triangle_count.hpp>
#include <warpgraph/algorithms/tc/gpu/triangle_count.hpp>
#include <warpgraph/algorithms/tc/tc.hpp>

namespace wg::gpu {

/// The counting strategy of triangle counts on `Graph`.
template <class Graph>
struct CountingOf {
  using type = ProbeCounting;
};
template <bool Weighted>
struct CountingOf<BTreeGraph<Weighted>> {
  using type = SortedCounting;
};

/// The static count by the graph's strategy: the total, and per vertex where options.per_vertex.
template <GpuDynamicGraph Graph>
TriangleCounts triangle_counts(const Graph& graph, const TriangleCountOptions& options = {}) {
  if (options.per_vertex) return count_triangles_per_vertex(graph);
  using Counting = typename CountingOf<Graph>::type;
  return {Counting::count(graph, typename Counting::options_type{}), {}};
}

/// The counter that keeps the total through the batches applied to `graph` (it counts once here).
template <GpuDynamicGraph Graph>
auto make_dynamic_triangle_count(Graph& graph, const TriangleCountOptions& = {}) {
  return std::make_unique<IncrementalTriangleCounter<Graph, typename CountingOf<Graph>::type>>(
      graph);
}

}  // namespace wg::gpu
