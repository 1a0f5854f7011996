// bfs and sssp: a graph file and a --source vertex, on the gpu, cpu or reference backend.
#include "algorithm_command.hpp"
#include "output_writer.hpp"
#include "per_vertex.hpp"

namespace wg::cli {

// ---- bfs / sssp: a graph file and a --source vertex --------------------------------------------

/// start_algorithm_command for the traversals (bfs, sssp), with a --source vertex.
std::optional<ReferenceCommandRun> start_traversal_command(const std::string& command,
                                                           const std::string& description, int argc,
                                                           const char* const* argv,
                                                           vertex_t& source, bool has_cpu) {
  CommandOptions cmd(command, description, "FILE", 1, 1);
  cmd.options.add_options()("s,source",
                            "Source vertex id (0-based; see 'Vertex ids' in tools/cli/README.md)",
                            cxxopts::value<std::uint64_t>()->default_value("0"), "S");
  std::optional<ReferenceCommandRun> run =
      start_algorithm_command(cmd, true, has_cpu, kHaveGpuTraversal, argc, argv);
  if (run) {
    source = vertex_from_user(run->graph, run->options["source"].as<std::uint64_t>(), "source");
    if (!on_some_entry(run->graph.read.edges, source)) {
      std::cerr << fmt::format(
          "warpgraph: warning: --source {} is on no edge of {}: it reaches only itself\n",
          vertex_to_user(run->graph, source), run->graph.path);
    }
  }
  return run;
}

/// The text rows bfs and sssp start with: the source and how many vertices it reaches.
void print_source_rows(const InputGraph& g, vertex_t source, std::uint64_t reached) {
  print_row("source", std::to_string(vertex_to_user(g, source)));
  print_row("reached", fmt::format("{} of {}", reached,
                                   count_noun(g.read.edges.num_vertices, "vertex", "vertices")));
}

/// The search from `source` on `backend`: bfs levels (`bfs`) or sssp distances, +infinity when
/// unreached. `build_seconds`: the graph build's share of the time since t0 (cpu and gpu bfs).
std::vector<double> search_on(const InputGraph& g, const cxxopts::ParseResult& r,
                              const std::string& backend, vertex_t source, bool bfs,
                              Clock::time_point t0, double& build_seconds) {
  const auto distances = [](const std::vector<std::int64_t>& level) {
    std::vector<double> d(level.size());
    for (std::size_t v = 0; v < level.size(); ++v)
      d[v] = level[v] < 0 ? std::numeric_limits<double>::infinity() : static_cast<double>(level[v]);
    return d;
  };
#ifdef WG_CLI_HAVE_CPU_ALGORITHMS
  if (backend == "cpu" && bfs)
    return distances(
        cpu::bfs(build_cpu_graph(g, r, directed_view(g), t0, build_seconds), source).level);
#endif
#ifdef WG_CLI_HAVE_CPU_SSSP
  if (backend == "cpu" && !bfs) {
    cpu::DynamicGraph graph(cpu::GraphOptions{.directed = directed_view(g),
                                              .weighted = g.read.edges.weighted(),
                                              .threads = cpu_threads_option(r)});
    graph.build(g.read.edges);
    return cpu::sssp(graph, source).distance;
  }
#endif
#ifdef WG_CLI_HAVE_GPU_TRAVERSAL
  if (backend == "gpu") {
    GpuTraversalTimes times;
    std::vector<double> d =
        bfs ? distances(gpu_bfs_levels(g.read.edges, directed_view(g), source, times))
            : gpu_sssp_distances(g.read.edges, directed_view(g), source, times);
    build_seconds = times.build_seconds;
    return d;
  }
#endif
  (void)r;
  (void)t0;
  if (bfs) return distances(reference::bfs_levels(g.read.edges, source, directed_view(g)));
  return reference::sssp(g.read.edges, source, directed_view(g));
}

// ---- bfs --------------------------------------------------------------------------------------

int run_bfs(int argc, const char* const* argv) {
  vertex_t source = 0;
  const std::optional<ReferenceCommandRun> run = start_traversal_command(
      "bfs",
      "Breadth-first search from --source: how many vertices are reached and at "
      "which level (number of edges from the source).",
      argc, argv, source, kHaveCpuAlgorithms);
  if (!run) return kExitOk;
  const auto& [options, backend, g] = *run;
  const cxxopts::ParseResult* r = &options;
  const auto t0 = Clock::now();
  double build_seconds = 0;
  const std::vector<double> levels = search_on(g, *r, backend, source, true, t0, build_seconds);
  const double seconds = seconds_since(t0);
  std::vector<std::uint64_t> level_sizes;
  std::uint64_t reached = 0;
  for (double l : levels) {
    if (std::isinf(l)) continue;
    ++reached;
    const auto i = static_cast<std::size_t>(l);
    if (i >= level_sizes.size()) level_sizes.resize(i + 1, 0);
    ++level_sizes[i];
  }
  const std::uint64_t depth = level_sizes.empty() ? 0 : level_sizes.size() - 1;
  if (const auto out = output_target(*r, {g.path})) {
    // Parents: a BFS tree of these levels (per_vertex.hpp), the same on every backend.
    const std::vector<std::int64_t> parent =
        path_tree_parents(g.read.edges, directed_view(g), source, levels, true);
    write_table(*out, g, {level_column(levels), vertex_column("parent", parent, file_ids(g))});
  }
  if (r->count("json")) {
    print_json(graph_command_json("bfs", backend, g,
                                  {{"source", vertex_to_user(g, source)},
                                   {"reached", reached},
                                   {"depth", depth},
                                   {"level_sizes", level_sizes},
                                   {"seconds", seconds}}));
    return kExitOk;
  }
  print_source_rows(g, source, reached);
  print_row("depth", std::to_string(depth));
  print_row("levels", histogram_row(level_sizes) + "  (level:vertices)");
  print_row("backend", backend);
  print_row("time", time_row(g, "bfs", seconds, build_seconds));
  return kExitOk;
}

// ---- sssp -------------------------------------------------------------------------------------

int run_sssp(int argc, const char* const* argv) {
  vertex_t source = 0;
  std::optional<ReferenceCommandRun> run = start_traversal_command(
      "sssp",
      "Single-source shortest paths from --source. Edge weights are "
      "the file's (Matrix Market real/integer, SNAP third column), 1 when "
      "unweighted; a negative weight is an error naming its line. The entries of one edge "
      "(repeated, or written both ways when undirected) all get their smallest weight (the "
      "readers' duplicate rule), so every backend sees the same graph. gpu stores integer "
      "weights (uint32), cpu float: a weight they cannot hold exactly is an error naming its "
      "line; auto runs on the reference unless every weight is an integer below 2^24.",
      argc, argv, source, kHaveCpuSssp);
  if (!run) return kExitOk;
  auto& [options, chosen_backend, g] = *run;
  // The graphs store weights as uint32 (gpu) and float (cpu). auto runs where both hold every
  // weight exactly, else on the reference; an explicit gpu or cpu refuses a weight it cannot hold.
  const datasets::WeightFacts& facts = g.read.weight_facts;
  const bool exact_weights = !facts.not_float.line && !facts.not_uint32.line;
  const std::string backend = options["backend"].as<std::string>() == "auto" && !exact_weights
                                  ? "reference"
                                  : chosen_backend;
  // One check, the readers': a negative weight on every backend, then one the backend cannot
  // hold, both at their line ("g.txt:7: negative weight -3 (shortest paths need weights >= 0)").
  datasets::check_weights(g.read, g.path, datasets::WeightStorage::f64, true);
  try {
    datasets::check_weights(g.read, g.path,
                            backend == "gpu"   ? datasets::WeightStorage::u32
                            : backend == "cpu" ? datasets::WeightStorage::f32
                                               : datasets::WeightStorage::f64,
                            false);
  } catch (const ParseError& e) {
    throw UsageError(
        fmt::format("{}; use --backend {}", e.what(),
                    backend == "gpu" && !facts.not_float.line ? "cpu or reference" : "reference"));
  }
  // The readers' duplicate rule, also for a general Matrix Market file read as undirected.
  if (!directed_view(g)) read_as_undirected(g.read.edges);
  const cxxopts::ParseResult* r = &options;
  const auto t0 = Clock::now();
  double build_seconds = 0;  // not shown: sssp's time row is the whole search
  const std::vector<double> dist = search_on(g, *r, backend, source, false, t0, build_seconds);
  const double seconds = seconds_since(t0);
  std::uint64_t reached = 0;
  double farthest = 0;
  for (double d : dist) {
    if (std::isfinite(d)) {
      ++reached;
      farthest = std::max(farthest, d);
    }
  }
  if (const auto out = output_target(*r, {g.path})) {
    const std::vector<std::int64_t> predecessor =
        path_tree_parents(g.read.edges, directed_view(g), source, dist, false);
    write_table(*out, g,
                {distance_column(dist), vertex_column("predecessor", predecessor, file_ids(g))});
  }
  if (r->count("json")) {
    print_json(graph_command_json("sssp", backend, g,
                                  {{"source", vertex_to_user(g, source)},
                                   {"reached", reached},
                                   {"max_distance", farthest},
                                   {"seconds", seconds}}));
    return kExitOk;
  }
  print_source_rows(g, source, reached);
  print_row("farthest", fmt::format("{:.6g}{}", farthest,
                                    g.read.edges.weighted() ? "" : " (unweighted: hops)"));
  print_row("backend", backend);
  print_row("time", fmt::format("read {}, sssp {}", format_ms(g.read_seconds), format_ms(seconds)));
  return kExitOk;
}

}  // namespace wg::cli
