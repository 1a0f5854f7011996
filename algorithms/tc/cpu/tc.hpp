#pragma once
// Triangle counting's CPU backend as the registry reaches it (algorithms/tc/tc_entry.hpp): the
// static count and the incremental counter of triangle_count.hpp on the CPU graph, under the
// names the GPU backend (gpu/tc.hpp) gives them too.
#include <memory>

#include <warpgraph/algorithms/tc/cpu/triangle_count.hpp>
#include <warpgraph/algorithms/tc/tc.hpp>

namespace wg::cpu {

/// The static count (triangle_count): the total, and per vertex where options.per_vertex.
inline TriangleCounts triangle_counts(const DynamicGraph& graph,
                                      const TriangleCountOptions& options = {}) {
  return triangle_count(graph, TcOptions{.per_vertex = options.per_vertex});
}

/// The counter that keeps the total through the batches applied to `graph` (it counts once here).
inline std::unique_ptr<IncrementalTriangleCounter> make_dynamic_triangle_count(
    DynamicGraph& graph, const TriangleCountOptions& = {}) {
  return std::make_unique<IncrementalTriangleCounter>(graph);
}

}  // namespace wg::cpu
