#pragma once
// The registry entry of the k-core decomposition (algorithms/registry.hpp says what an entry
// holds); registered in algorithms/kcore/CMakeLists.txt. Read by the tools only: it names the
// reference, which the library itself never links.
#include <algorithm>
#include <vector>

#include <warpgraph/algorithms/kcore/kcore.hpp>
#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/algorithms/registry.hpp>

WG_ENTRY_DYNAMIC_CLASSES(DynamicCoreNumbers)

namespace wg {

struct KcoreEntry : EntryDefaults {
  static constexpr const char* name = "kcore";
  static constexpr const char* summary = "core numbers (k-core decomposition), degeneracy";
  static constexpr const char* description =
      "Core numbers (k-core decomposition) of the undirected simple graph: a vertex's core number "
      "is the largest k such that it lies in a subgraph where every vertex has degree >= k. "
      "Prints the largest (the degeneracy) and how many vertices have each core number; --output "
      "writes each vertex's.";
  static constexpr int list_position = 5;  // the CLI's lists: tc, bfs, cc, pagerank, kcore, sssp
  using Options = DynamicCoreNumbersOptions;
  using Result = CoreNumbers;

  template <class Graph>
  static Result run(const Graph& graph, const Options&) {
    return core_numbers(graph);
  }
  WG_ENTRY_MAKE_DYNAMIC(DynamicCoreNumbers)
  static Result reference(const EdgeList& edges, const Options&) {
    Result r{.core = reference::core_numbers(edges)};
    if (!r.core.empty()) r.max_core = *std::max_element(r.core.begin(), r.core.end());
    return r;
  }
  static std::vector<double> values(const Result& r) { return {r.core.begin(), r.core.end()}; }
  static constexpr double check_tolerance = 0;
  static constexpr const char* value_name = "core";
  static constexpr const char* check_what = "kcore core number";
  static std::vector<SummaryField> fields(const Result& r) {
    return {{.key = "max_core",
             .label = "max core",
             .value = static_cast<double>(r.max_core),
             .integer = true,
             .note = "(degeneracy)"}};
  }
  static std::vector<SummaryHistogram> histograms(const Result& r) {
    return {{"core_sizes", "cores", "(core number:vertices)", value_histogram(r.core)}};
  }
  static constexpr const char* stream_label = "max core";
  static constexpr const char* stream_key = "max_core";
  static double stream_summary(const Result& r) { return r.max_core; }
};

}  // namespace wg
