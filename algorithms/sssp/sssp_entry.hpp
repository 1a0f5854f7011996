#pragma once
// The registry entry of single-source shortest paths (algorithms/registry.hpp says what an entry
// holds); registered in algorithms/sssp/CMakeLists.txt. Read by the tools only: it names the
// reference. Its Result is the backends' distances as the tools compare them (double, +infinity
// when unreached): the CPU's as they are, the GPU's 32-bit ones converted, O(n).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/algorithms/registry.hpp>
#include <warpgraph/algorithms/sssp/sssp.hpp>

WG_ENTRY_DYNAMIC_CLASSES(DynamicSssp)

namespace wg {

/// SSSP's options as the tools take them: the search's, its source, whether arcs are followed
/// one way, and whether the input has weights (else the distances are hops).
struct SsspEntryOptions : SsspOptions {
  vertex_t source = 0;
  bool directed = false;
  bool weighted = false;
};

/// Distances from the source, whatever the backend.
struct SsspDistances {
  std::vector<double> distance;  ///< per vertex id; +infinity when not reached
  std::uint64_t reached = 0;     ///< vertices with a finite distance
};

struct SsspEntry : EntryDefaults {
  static constexpr const char* name = "sssp";
  using Options = SsspEntryOptions;
  using Result = SsspDistances;
  static constexpr bool needs_source = true;
  static constexpr bool reads_direction = true;
  static constexpr bool reads_weights = true;
  static constexpr bool splits_build_time = false;  // its time row has always been one figure
  static constexpr double unreached = std::numeric_limits<double>::infinity();
  static constexpr int list_position = 6;  // the CLI's lists: tc, bfs, cc, pagerank, kcore, sssp
  static constexpr const char* summary = "single-source shortest paths (Dijkstra) from --source";
  static constexpr const char* description =
      "Single-source shortest paths from --source. Edge weights are the file's (Matrix Market "
      "real/integer, SNAP third column), 1 when unweighted; a negative weight is an error naming "
      "its line. The entries of one edge (repeated, or written both ways when undirected) all get "
      "their smallest weight (the readers' duplicate rule), so every backend sees the same graph. "
      "gpu stores integer weights (uint32), cpu float: a weight they cannot hold exactly is an "
      "error naming its line; auto runs on the reference unless every weight is an integer below "
      "2^24.";

  /// A backend's result as distances: the CPU's double ones as they are, the GPU's uint32 ones
  /// with its unreached mark (gpu::kSsspUnreached, the largest uint32) as +infinity.
  template <class BackendResult>
  static Result from_backend(BackendResult&& r) {
    Result out;
    out.reached = r.reached;
    using T = typename std::remove_cvref_t<decltype(r.distance)>::value_type;
    if constexpr (std::is_floating_point_v<T>) {
      out.distance = std::forward<BackendResult>(r).distance;
    } else {
      out.distance.resize(r.distance.size());
      for (std::size_t v = 0; v < out.distance.size(); ++v)
        out.distance[v] = r.distance[v] == std::numeric_limits<T>::max()
                              ? unreached
                              : static_cast<double>(r.distance[v]);
    }
    return out;
  }

  template <class Graph>
  static Result run(const Graph& graph, const Options& options) {
    return from_backend(sssp(graph, options.source, static_cast<const SsspOptions&>(options)));
  }
  WG_ENTRY_MAKE_DYNAMIC(DynamicSssp)
  template <class Dynamic>
  static Result result(const Dynamic& dynamic) {
    return from_backend(dynamic.result());
  }
  static Result reference(const EdgeList& edges, const Options& options) {
    Result r;
    if (options.unit_weights && edges.weighted()) {
      EdgeList unit = edges;
      unit.weight.clear();
      r.distance = reference::sssp(unit, options.source, options.directed);
    } else {
      r.distance = reference::sssp(edges, options.source, options.directed);
    }
    r.reached = static_cast<std::uint64_t>(std::count_if(
        r.distance.begin(), r.distance.end(), [](double d) { return std::isfinite(d); }));
    return r;
  }
  static std::vector<double> values(const Result& r) { return r.distance; }
  static constexpr double check_tolerance = 0;
  static constexpr PerVertex per_vertex = PerVertex::distance;
  static constexpr const char* value_name = "distance";
  static constexpr const char* check_what = "sssp distance";
  /// The vertices reached, and the largest finite distance ("farthest"; in hops when the input
  /// has no weights).
  static std::vector<SummaryField> fields(const Result& r, const Options& options) {
    std::uint64_t reached = 0;
    double farthest = 0;
    for (double d : r.distance) {
      if (!std::isfinite(d)) continue;
      ++reached;
      farthest = std::max(farthest, d);
    }
    char text[64];
    std::snprintf(text, sizeof text, "%.6g%s", farthest,
                  options.weighted ? "" : " (unweighted: hops)");
    return {{.key = "reached",
             .label = "reached",
             .value = static_cast<double>(reached),
             .integer = true,
             .of_vertices = true},
            {.key = "max_distance", .label = "farthest", .value = farthest, .text = text}};
  }
  static constexpr const char* stream_label = "reached";
  static constexpr const char* stream_key = "reached";
  static double stream_summary(const Result& r) { return static_cast<double>(r.reached); }
  /// The dynamic class's count, without converting its distances.
  template <class Dynamic>
  static double dynamic_summary(const Dynamic& a) {
    return static_cast<double>(a.result().reached);
  }
};

}  // namespace wg
