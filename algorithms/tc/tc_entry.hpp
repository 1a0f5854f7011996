#pragma once
// The registry entry of triangle counting (algorithms/registry.hpp says what an entry holds);
// registered in algorithms/tc/CMakeLists.txt. Read by the tools only: it names the reference,
// which the library itself never links. The tools' graph backends keep the count themselves
// (kept_by_backends): their running count is this entry's dynamic class on their graph.
#include <vector>

#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/algorithms/registry.hpp>
#include <warpgraph/algorithms/tc/tc.hpp>

namespace wg {

struct TcEntry : EntryDefaults {
  static constexpr const char* name = "tc";
  static constexpr const char* summary = "count triangles";
  static constexpr const char* description =
      "Count the triangles of the graph. Every entry is read as an undirected edge; self-loops "
      "and duplicates are dropped.";
  static constexpr int list_position = 1;  // the CLI's lists: tc, bfs, cc, pagerank, kcore, sssp
  static constexpr bool kept_by_backends = true;
  using Options = TriangleCountOptions;
  using Result = TriangleCounts;

  /// The backends' triangle_counts and make_dynamic_triangle_count (cpu/tc.hpp, gpu/tc.hpp).
  template <class Graph>
  static Result run(const Graph& graph, const Options& options) {
    return triangle_counts(graph, options);
  }
  template <class Graph>
  static auto make_dynamic(Graph& graph, const Options& options) {
    return make_dynamic_triangle_count(graph, options);
  }
  /// The counters keep the total only: the per-vertex counts are a static count of their graph.
  template <class Dynamic>
  static Result result(const Dynamic& dynamic) {
    return {dynamic.total(), triangle_counts(dynamic.graph()).per_vertex};
  }
  template <class Dynamic>
  static double dynamic_summary(const Dynamic& dynamic) {
    return static_cast<double>(dynamic.total());
  }
  static Result reference(const EdgeList& edges, const Options&) {
    return reference::triangle_count(edges);
  }
  static std::vector<double> values(const Result& r) {
    return {r.per_vertex.begin(), r.per_vertex.end()};
  }
  static constexpr double check_tolerance = 0;
  static constexpr const char* value_name = "triangles";
  static std::vector<SummaryField> fields(const Result& r) {
    return {{.key = "triangles",
             .label = "triangles",
             .value = static_cast<double>(r.total),
             .integer = true}};
  }
  static constexpr const char* stream_label = "triangles";
  static constexpr const char* stream_key = "triangles";
  static double stream_summary(const Result& r) { return static_cast<double>(r.total); }
};

}  // namespace wg
