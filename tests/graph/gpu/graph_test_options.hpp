#pragma once
// GraphOptions for the GPU graph tests: the defaults, with the tuning fields that the
// environment names (graph/gpu/graph_tuning.hpp: WG_GRAPH_FILTER_FROM, WG_GRAPH_SORT_FROM, ...),
// so one test binary runs every batch path (CMakeLists.txt's variants, scripts/device-verify.sh
// under compute-sanitizer).
#include <cstdlib>

#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/gpu/graph_tuning.hpp>

namespace wg::test {

inline wg::gpu::GraphOptions graph_options() {
  wg::gpu::GraphOptions o;
  wg::gpu::apply_graph_tuning(o.tuning, [](const char* name) { return std::getenv(name); });
  return o;
}
/// graph_options() for a directed or an undirected graph.
inline wg::gpu::GraphOptions graph_options(bool directed) {
  wg::gpu::GraphOptions o = graph_options();
  o.directed = directed;
  return o;
}

}  // namespace wg::test
