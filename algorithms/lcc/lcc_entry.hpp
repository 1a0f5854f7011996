#pragma once
// The registry entry of the local clustering coefficient (algorithms/registry.hpp says what an
// entry holds); registered in algorithms/lcc/CMakeLists.txt. Read by the tools only: it names the
// reference, which the library itself never links.
#include <vector>

#include <warpgraph/algorithms/lcc/lcc.hpp>
#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/algorithms/registry.hpp>

namespace wg {

struct LccEntry : EntryDefaults {
  static constexpr const char* name = "lcc";
  static constexpr const char* summary = "local clustering coefficients and their average";
  static constexpr const char* description =
      "Local clustering coefficient of every vertex of the undirected simple graph: c(v) = 2 T(v) "
      "/ (d(v) (d(v) - 1)), T(v) the triangles through v, 0 when d(v) < 2. Prints their average "
      "over all vertices (networkx's average_clustering); --output writes each vertex's.";
  using Options = LccOptions;
  using Result = LccResult;

  template <class Graph>
  static Result run(const Graph& graph, const Options& options) {
    return local_clustering(graph, options);
  }
  template <class Graph>
  static auto make_dynamic(Graph& graph, const Options& options) {
    return make_dynamic_local_clustering(graph, options);
  }
  static Result reference(const EdgeList& edges, const Options&) {
    reference::LocalClustering r = reference::local_clustering(edges);
    return {std::move(r.coefficient), r.average, reference::triangle_count(edges).total};
  }
  static std::vector<double> values(const Result& r) { return r.coefficient; }
  /// The backends sum the same terms as the reference, in another order at most.
  static constexpr double check_tolerance = 1e-9;
  static std::vector<SummaryField> fields(const Result& r) {
    return {{"average_clustering", "average", r.average},
            {"triangles", "triangles", static_cast<double>(r.triangles), true}};
  }
  static constexpr const char* stream_label = "average clustering";
  static constexpr const char* stream_key = "average_clustering";
  static double stream_summary(const Result& r) { return r.average; }
};

}  // namespace wg
