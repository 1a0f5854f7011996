#pragma once
// Triangle counting's GPU backend as the registry reaches it (algorithms/tc/tc_entry.hpp): the
// static count (total and per vertex) by sorted intersection over the oriented view on every
// graph (count_triangles_sorted, triangle_count.hpp), and the incremental counter with each
// graph's batch strategy: hash probes (ProbeCounting) on the slab graph, sorted leaf merges
// (SortedCounting, sorted_triangle_count.hpp) on the B-tree graph. Declarations only (plain C++
// may include this).
#include <memory>

#include <warpgraph/algorithms/tc/gpu/sorted_triangle_count.hpp>
#include <warpgraph/algorithms/tc/gpu/triangle_count.hpp>
#include <warpgraph/algorithms/tc/tc.hpp>
#include <warpgraph/containers/core/error.hpp>

namespace wg::gpu {

/// The batch-counting strategy of the incremental counter on `Graph`.
template <class Graph>
struct CountingOf {
  using type = ProbeCounting;
};
template <bool Weighted>
struct CountingOf<BTreeGraph<Weighted>> {
  using type = SortedCounting;
};

/// The static count: the total, and per vertex where options.per_vertex. By sorted
/// intersection; where device memory cannot hold its oriented copy, by probes in place.
template <GpuDynamicGraph Graph>
TriangleCounts triangle_counts(const Graph& graph, const TriangleCountOptions& options = {}) {
  try {
    if (options.per_vertex) return count_triangles_sorted_per_vertex(graph);
    return {count_triangles_sorted(graph), {}};
  } catch (const CapacityError&) {
    if (options.per_vertex) return count_triangles_per_vertex(graph);
    return {count_triangles(graph), {}};
  }
}

/// The counter that keeps the total through the batches applied to `graph` (it counts once here).
template <GpuDynamicGraph Graph>
auto make_dynamic_triangle_count(Graph& graph, const TriangleCountOptions& = {}) {
  return std::make_unique<IncrementalTriangleCounter<Graph, typename CountingOf<Graph>::type>>(
      graph);
}

}  // namespace wg::gpu
