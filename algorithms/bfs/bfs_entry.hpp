#pragma once
// The registry entry of breadth-first search from a source (algorithms/registry.hpp says what an
// entry holds); registered in algorithms/bfs/CMakeLists.txt. Read by the tools only.
#include <algorithm>
#include <vector>

#include <warpgraph/algorithms/bfs/bfs.hpp>
#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/algorithms/registry.hpp>

WG_ENTRY_DYNAMIC_CLASSES(DynamicBfs)

namespace wg {

/// What a search from one vertex takes: the vertex, and whether arcs are followed one way.
struct SourceOptions {
  vertex_t source = 0;
  bool directed = false;
};

struct BfsEntry : EntryDefaults {
  static constexpr const char* name = "bfs";
  static constexpr int list_position = 2;  // the CLI's lists: tc, bfs, cc, pagerank, kcore, sssp
  using Options = SourceOptions;
  using Result = BfsResult;
  static constexpr bool needs_source = true;
  static constexpr bool reads_direction = true;
  static constexpr double unreached = kBfsUnreached;
  static constexpr const char* summary = "breadth-first search levels from --source";
  static constexpr const char* description =
      "Breadth-first search from --source: how many vertices are reached and at which level "
      "(number of edges from the source).";

  template <class Graph>
  static Result run(const Graph& graph, const Options& options) {
    return bfs(graph, options.source);
  }
  WG_ENTRY_MAKE_DYNAMIC(DynamicBfs)
  static Result reference(const EdgeList& edges, const Options& options) {
    Result r;
    r.level = reference::bfs_levels(edges, options.source, options.directed);
    r.reached = static_cast<std::uint64_t>(
        std::count_if(r.level.begin(), r.level.end(), [](std::int64_t l) { return l >= 0; }));
    return r;
  }
  static std::vector<double> values(const Result& r) { return {r.level.begin(), r.level.end()}; }
  static constexpr double check_tolerance = 0;
  static constexpr PerVertex per_vertex = PerVertex::level;
  static constexpr const char* check_what = "bfs level";
  /// Vertices per level (the unreached left out).
  static std::vector<std::uint64_t> level_sizes(const Result& r) {
    std::vector<std::int64_t> reached;
    std::copy_if(r.level.begin(), r.level.end(), std::back_inserter(reached),
                 [](std::int64_t l) { return l >= 0; });
    return value_histogram(reached);
  }
  static std::vector<SummaryField> fields(const Result& r) {
    const std::vector<std::uint64_t> sizes = level_sizes(r);
    std::uint64_t reached = 0;
    for (std::uint64_t n : sizes) reached += n;
    return {{.key = "reached",
             .label = "reached",
             .value = static_cast<double>(reached),
             .integer = true,
             .of_vertices = true},
            {"depth", "depth", sizes.empty() ? 0.0 : static_cast<double>(sizes.size() - 1), true}};
  }
  static std::vector<SummaryHistogram> histograms(const Result& r) {
    return {{"level_sizes", "levels", "(level:vertices)", level_sizes(r), true}};
  }
  static constexpr const char* stream_label = "reached";
  static constexpr const char* stream_key = "reached";
  static double stream_summary(const Result& r) { return static_cast<double>(r.reached); }
};

}  // namespace wg
