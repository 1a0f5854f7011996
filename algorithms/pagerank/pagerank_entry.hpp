#pragma once
// The registry entry of PageRank (algorithms/registry.hpp says what an entry holds); registered
// in algorithms/pagerank/CMakeLists.txt. Read by the tools only: it names the reference.
#include <cstdint>
#include <string>
#include <vector>

#include <warpgraph/algorithms/pagerank/pagerank.hpp>
#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/algorithms/registry.hpp>

WG_ENTRY_DYNAMIC_CLASSES(DynamicPageRank)

namespace wg {

/// PageRank's options as the tools take them: the power iteration's, whether arcs are followed
/// one way, and how many of the highest-ranked vertices the command lists.
struct PageRankEntryOptions : PageRankOptions {
  bool directed = false;
  std::uint64_t top = 10;
};

struct PageRankEntry : EntryDefaults {
  using Options = PageRankEntryOptions;
  using Result = PageRankResult;
  static constexpr const char* name = "pagerank";
  static constexpr bool reads_direction = true;  // --directed: ranks over the arcs
  static constexpr int list_position = 4;  // the CLI's lists: tc, bfs, cc, pagerank, kcore, sssp
  static constexpr const char* summary = "PageRank (power iteration), top-k vertices";
  static constexpr const char* description =
      "PageRank by power iteration: pr'(v) = (1-d)/n + d * (sum over arcs u->v of pr(u)/outdeg(u) "
      "+ dangling/n), dangling = total rank of vertices without out-arcs. Starts from 1/n, stops "
      "when the L1 change is below --tolerance or after --max-iterations. Ranks sum to 1.";
  static constexpr std::array<EntryOption, 4> command_options{{
      {"d,damping", "Damping factor d, in [0, 1]", "0.85", "D", EntryOption::Kind::fraction},
      {"tolerance", "Stop when the L1 change between iterations is below this", "1e-10", "T",
       EntryOption::Kind::positive},
      {"max-iterations", "Stop after this many iterations", "1000", "N",
       EntryOption::Kind::positive_int},
      {"k,top", "Print the k highest-ranked vertices", "10", "K", EntryOption::Kind::count},
  }};
  static void set_option(Options& o, std::size_t i, EntryOptionValue v) {
    if (i == 0) o.damping = v.real;
    if (i == 1) o.tolerance = v.real;
    if (i == 2) o.max_iterations = static_cast<int>(v.count);
    if (i == 3) o.top = v.count;
  }
  static std::uint64_t top_count(const Options& o) { return o.top; }

  template <class Graph>
  static Result run(const Graph& graph, const Options& options) {
    return pagerank(graph, static_cast<const PageRankOptions&>(options));
  }
  WG_ENTRY_MAKE_DYNAMIC(DynamicPageRank)
  static Result reference(const EdgeList& edges, const Options& options) {
    return reference::pagerank(edges, options, options.directed);
  }
  static std::vector<double> values(const Result& r) { return r.rank; }
  /// The L1 distance --verify accepts: the GPU's stated bound (gpu/pagerank.hpp) is about 1e-9
  /// at the default tolerance.
  static constexpr double check_tolerance = 1e-6;
  static constexpr bool check_l1 = true;
  static constexpr const char* value_name = "rank";
  static std::vector<SummaryField> fields(const Result& r, const Options& o) {
    return {{.key = "iterations",
             .label = "iterations",
             .value = static_cast<double>(r.iterations),
             .integer = true,
             .text = std::to_string(r.iterations) +
                     (r.converged ? " (converged)" : " (did NOT converge)")},
            {.key = "damping", .label = "damping", .value = o.damping, .round_trip = true},
            {.key = "tolerance", .label = "tolerance", .value = o.tolerance, .json_only = true},
            {.key = "max_iterations",
             .label = "max iterations",
             .value = static_cast<double>(o.max_iterations),
             .integer = true,
             .json_only = true},
            {.key = "converged",
             .label = "converged",
             .value = r.converged ? 1.0 : 0.0,
             .json_only = true,
             .boolean = true}};
  }
  static constexpr bool summary_is_static = false;  // the iterations of the last batch
  static constexpr const char* stream_label = "iterations (last batch)";
  static constexpr const char* stream_key = "iterations";
  static double stream_summary(const Result& r) { return r.iterations; }
  /// The GPU class's last run, which copies no ranks to the host.
  template <class Dynamic>
  static double dynamic_summary(const Dynamic& a) {
    if constexpr (requires { a.last_run(); })
      return a.last_run().iterations;
    else
      return a.result().iterations;
  }
};

}  // namespace wg
