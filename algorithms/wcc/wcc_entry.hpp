#pragma once
// The registry entry of connected components, the `cc` command and --algo name
// (algorithms/registry.hpp says what an entry holds); registered in algorithms/wcc/CMakeLists.txt.
// Read by the tools only: it names the reference, which the library itself never links.
#include <algorithm>
#include <vector>

#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/algorithms/registry.hpp>
#include <warpgraph/algorithms/wcc/wcc.hpp>

WG_ENTRY_DYNAMIC_CLASSES(DynamicComponents)

namespace wg {

struct WccEntry : EntryDefaults {
  static constexpr const char* name = "cc";
  static constexpr const char* summary = "connected components";
  static constexpr const char* description =
      "Connected components of the undirected graph (weakly connected for directed input). "
      "Isolated vertices are components of their own. With --output, each vertex's component is "
      "the smallest id (as the file writes it) of its vertices.";
  static constexpr int list_position = 3;  // the CLI's lists: tc, bfs, cc, pagerank, kcore, sssp
  using Options = NoOptions;               // the backends' defaults
  using Result = Components;

  template <class Graph>
  static Result run(const Graph& graph, const Options&) {
    return connected_components(graph);
  }
  WG_ENTRY_MAKE_DYNAMIC(DynamicComponents)
  static Result reference(const EdgeList& edges, const Options&) {
    return reference::connected_components(edges);
  }
  static std::vector<double> values(const Result& r) {
    return {r.component.begin(), r.component.end()};
  }
  static constexpr double check_tolerance = 0;
  static constexpr const char* value_name = "component";
  static constexpr PerVertex per_vertex = PerVertex::component;
  static constexpr const char* check_what = "cc component";
  static std::vector<SummaryField> fields(const Result& r) {
    const std::vector<std::uint64_t> size = value_histogram(r.component);
    const std::uint64_t largest = size.empty() ? 0 : *std::max_element(size.begin(), size.end());
    const auto singletons = static_cast<double>(std::count(size.begin(), size.end(), 1));
    return {{"components", "components", static_cast<double>(r.count), true},
            {.key = "largest",
             .label = "largest",
             .value = static_cast<double>(largest),
             .integer = true,
             .of_vertices = true},
            {"singletons", "singletons", singletons, true}};
  }
  static constexpr const char* stream_label = "components";
  static constexpr const char* stream_key = "components";
  static double stream_summary(const Result& r) { return static_cast<double>(r.count); }
  /// The GPU class keeps its count on the host; its result() would copy every label.
  template <class Dynamic>
  static double dynamic_summary(const Dynamic& dynamic) {
    if constexpr (requires { dynamic.count(); })
      return static_cast<double>(dynamic.count());
    else
      return stream_summary(dynamic.result());
  }
};

}  // namespace wg
