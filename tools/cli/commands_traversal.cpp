// sssp: a graph file and a --source vertex, on the gpu, cpu or reference backend (bfs is a
// registry entry: registered_command.hpp).
#include "algorithm_command.hpp"
#include "output_writer.hpp"
#include "per_vertex.hpp"

namespace wg::cli {

// ---- sssp: a graph file and a --source vertex --------------------------------------------

/// start_algorithm_command for sssp, with a --source vertex.
std::optional<ReferenceCommandRun> start_traversal_command(const std::string& command,
                                                           const std::string& description, int argc,
                                                           const char* const* argv,
                                                           vertex_t& source, bool has_cpu) {
  CommandOptions cmd(command, description, "FILE", 1, 1);
  add_source_option(cmd);
  std::optional<ReferenceCommandRun> run =
      start_algorithm_command(cmd, true, has_cpu, kHaveGpuTraversal, argc, argv);
  if (run) source = source_option(*run);
  return run;
}

/// The text rows sssp starts with: the source and how many vertices it reaches.
void print_source_rows(const InputGraph& g, vertex_t source, std::uint64_t reached) {
  print_row("source", std::to_string(vertex_to_user(g, source)));
  print_row("reached", fmt::format("{} of {}", reached,
                                   count_noun(g.read.edges.num_vertices, "vertex", "vertices")));
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
  std::vector<double> dist;
#ifdef WG_CLI_HAVE_CPU_SSSP
  if (backend == "cpu") {
    cpu::DynamicGraph graph(cpu::GraphOptions{.directed = directed_view(g),
                                              .weighted = g.read.edges.weighted(),
                                              .threads = cpu_threads_option(*r)});
    graph.build(g.read.edges);
    dist = cpu::sssp(graph, source).distance;
  }
#endif
#ifdef WG_CLI_HAVE_GPU_TRAVERSAL
  if (backend == "gpu") {
    GpuTraversalTimes times;
    dist = gpu_sssp_distances(g.read.edges, directed_view(g), source, times);
  }
#endif
  if (backend == "reference") dist = reference::sssp(g.read.edges, source, directed_view(g));
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
