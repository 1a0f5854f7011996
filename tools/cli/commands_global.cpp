// cc, kcore and pagerank: whole-graph results, on the gpu, cpu or reference backend.
#include "algorithm_command.hpp"
#include "output_writer.hpp"
#include "per_vertex.hpp"

namespace wg::cli {

// ---- cc ---------------------------------------------------------------------------------------

int run_cc(int argc, const char* const* argv) {
  CommandOptions cmd("cc",
                     "Connected components of the undirected graph (weakly connected for "
                     "directed input). Isolated vertices are components of their own. With "
                     "--output, each vertex's component is the smallest id (as the file writes it) "
                     "of its vertices.",
                     "FILE", 1, 1);
  const std::optional<ReferenceCommandRun> run = start_global_command(cmd, argc, argv);
  if (!run) return kExitOk;
  const auto& [options, backend, g] = *run;
  const cxxopts::ParseResult* r = &options;
  const auto t0 = Clock::now();
  reference::Components c;
  double build_seconds = 0;
#ifdef WG_CLI_HAVE_GPU_GLOBAL
  if (backend == "gpu") {
    gpu_global::Times times;
    gpu_global::ComponentsOut got = gpu_global::components(g.read.edges, false, times);
    c.component = std::move(got.component);
    c.count = got.count;
    build_seconds = times.build_seconds;
  }
#endif
#ifdef WG_CLI_HAVE_CPU_ALGORITHMS
  if (backend == "cpu") {
    const cpu::DynamicGraph graph = build_cpu_graph(g, *r, false, t0, build_seconds);
    cpu::Components got = cpu::connected_components(graph);
    c.component = std::move(got.component);
    c.count = got.count;
  }
#endif
  if (backend == "reference") c = reference::connected_components(g.read.edges);
  const double seconds = seconds_since(t0);
  std::vector<std::uint64_t> size(c.component.size(), 0);
  for (vertex_t label : c.component) ++size[label];
  const std::uint64_t largest = size.empty() ? 0 : *std::max_element(size.begin(), size.end());
  const std::uint64_t isolated =
      static_cast<std::uint64_t>(std::count(size.begin(), size.end(), 1));
  if (const auto out = output_target(*r, {g.path})) {
    // Labels as documented, in the file's ids: the member with the smallest file id.
    const std::vector<std::int64_t> label = component_representatives(c.component, file_ids(g));
    write_table(*out, g, {vertex_column("component", label, file_ids(g))});
  }
  if (r->count("json")) {
    print_json(graph_command_json("cc", backend, g,
                                  {{"components", c.count},
                                   {"largest", largest},
                                   {"singletons", isolated},
                                   {"seconds", seconds}}));
    return kExitOk;
  }
  print_row("components", std::to_string(c.count));
  print_row("largest", fmt::format("{} of {}", largest,
                                   count_noun(g.read.edges.num_vertices, "vertex", "vertices")));
  print_row("singletons", std::to_string(isolated));
  print_row("backend", backend);
  print_row("time", time_row(g, "cc", seconds, build_seconds));
  return kExitOk;
}

// ---- kcore ------------------------------------------------------------------------------------

/// kcore's core numbers on the run's backend (the CPU graph's build time in `build_seconds`).
static std::vector<std::uint32_t> core_numbers_on(const ReferenceCommandRun& run,
                                                  Clock::time_point t0, double& build_seconds) {
#ifdef WG_CLI_HAVE_GPU_GLOBAL
  if (run.backend == "gpu") {
    gpu_global::Times times;
    std::vector<std::uint32_t> core = gpu_global::core_numbers(run.graph.read.edges, times);
    build_seconds = times.build_seconds;
    return core;
  }
#endif
#ifdef WG_CLI_HAVE_CPU_ALGORITHMS
  if (run.backend == "cpu") {
    return cpu::core_numbers(build_cpu_graph(run.graph, run.options, false, t0, build_seconds))
        .core;
  }
#endif
  (void)t0;
  (void)build_seconds;
  return reference::core_numbers(run.graph.read.edges);
}

int run_kcore(int argc, const char* const* argv) {
  CommandOptions cmd(
      "kcore",
      "Core numbers (k-core decomposition) of the undirected simple graph: a "
      "vertex's core number is the largest k such that it lies in a subgraph where "
      "every vertex has degree >= k. Prints the largest (the degeneracy) and how many "
      "vertices have each core number; --output writes each vertex's.",
      "FILE", 1, 1);
  const std::optional<ReferenceCommandRun> run = start_global_command(cmd, argc, argv);
  if (!run) return kExitOk;
  double build_seconds = 0;
  const auto t0 = Clock::now();
  const std::vector<std::uint32_t> core = core_numbers_on(*run, t0, build_seconds);
  const InputGraph& g = run->graph;
  const std::string& backend = run->backend;
  const cxxopts::ParseResult* r = &run->options;
  const double seconds = seconds_since(t0);
  const std::uint32_t max_core = core.empty() ? 0 : *std::max_element(core.begin(), core.end());
  std::vector<std::uint64_t> core_sizes(core.empty() ? 0 : std::size_t{max_core} + 1, 0);
  for (std::uint32_t c : core) ++core_sizes[c];
  if (const auto out = output_target(*r, {g.path})) {
    write_table(*out, g, {number_column("core", core)});
  }
  if (r->count("json")) {
    const std::vector<std::uint64_t> first(
        core_sizes.begin(), core_sizes.begin() + std::min<std::ptrdiff_t>(core_sizes.size(), 16));
    print_json(
        graph_command_json("kcore", backend, g,
                           {{"max_core", max_core}, {"core_sizes", first}, {"seconds", seconds}}));
    return kExitOk;
  }
  print_row("max core", std::to_string(max_core) + "  (degeneracy)");
  print_row("cores", histogram_row(core_sizes) + "  (core number:vertices)");
  print_row("backend", backend);
  print_row("time", time_row(g, "kcore", seconds, build_seconds));
  return kExitOk;
}

// ---- pagerank ---------------------------------------------------------------------------------

int run_pagerank(int argc, const char* const* argv) {
  CommandOptions cmd(
      "pagerank",
      "PageRank by power iteration: pr'(v) = (1-d)/n + d * (sum over arcs u->v of pr(u)/outdeg(u) "
      "+ dangling/n), dangling = total rank of vertices without out-arcs. Starts from 1/n, stops "
      "when the L1 change is below --tolerance or after --max-iterations. Ranks sum to 1.",
      "FILE", 1, 1);
  cmd.options.add_options()("d,damping", "Damping factor d, in [0, 1]",
                            cxxopts::value<double>()->default_value("0.85"), "D")(
      "tolerance", "Stop when the L1 change between iterations is below this",
      cxxopts::value<double>()->default_value("1e-10"),
      "T")("max-iterations", "Stop after this many iterations",
           cxxopts::value<std::uint64_t>()->default_value("1000"),
           "N")("k,top", "Print the k highest-ranked vertices",
                cxxopts::value<std::uint64_t>()->default_value("10"), "K");
  cmd.add_reader_options(true);
  cmd.add_backend_option(kHaveGpuGlobal ? kGpuNote : kReferenceNote);
  cmd.add_output_options(true);
  auto r = cmd.parse(argc, argv);
  if (!r) return kExitOk;
  const std::string backend = algorithm_backend(*r, "pagerank", kHaveCpuAlgorithms, kHaveGpuGlobal);
  (void)output_target(*r, cmd.files());  // a bad -o fails before any work
  reference::PageRankOptions options;
  options.damping = fraction_option(*r, "damping");
  options.tolerance = (*r)["tolerance"].as<double>();
  if (!(options.tolerance > 0)) throw UsageError("--tolerance must be positive");
  const std::uint64_t max_iterations = positive_option(*r, "max-iterations");
  if (max_iterations > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
    throw UsageError("--max-iterations is too large");
  }
  options.max_iterations = static_cast<int>(max_iterations);
  const std::uint64_t top = (*r)["top"].as<std::uint64_t>();
  const InputGraph g =
      load_graph(cmd.files()[0], reader_options(*r),
                 backend == "gpu" ? gpu_graph_upload_sink() : datasets::EdgeChunkFn{});
  const auto t0 = Clock::now();
  reference::PageRankResult pr;
  double build_seconds = 0;
#ifdef WG_CLI_HAVE_CPU_ALGORITHMS
  if (backend == "cpu") {
    const cpu::DynamicGraph graph = build_cpu_graph(g, *r, directed_view(g), t0, build_seconds);
    cpu::PageRankResult got = cpu::pagerank(graph, {.damping = options.damping,
                                                    .tolerance = options.tolerance,
                                                    .max_iterations = options.max_iterations});
    pr.rank = std::move(got.rank);
    pr.iterations = got.iterations;
    pr.converged = got.converged;
  }
#endif
#ifdef WG_CLI_HAVE_GPU_GLOBAL
  if (backend == "gpu") {
    gpu_global::Times times;
    gpu_global::PageRankOut got =
        gpu_global::pagerank(g.read.edges, directed_view(g), options.damping, options.tolerance,
                             options.max_iterations, times);
    pr.rank = std::move(got.rank);
    pr.iterations = got.iterations;
    pr.converged = got.converged;
    build_seconds = times.build_seconds;
  }
#endif
  if (backend == "reference") pr = reference::pagerank(g.read.edges, options, directed_view(g));
  const double seconds = seconds_since(t0);

  std::vector<vertex_t> order(pr.rank.size());
  std::iota(order.begin(), order.end(), vertex_t{0});
  const std::size_t k = std::min<std::size_t>(top, order.size());
  std::partial_sort(
      order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
      [&](vertex_t a, vertex_t b) {
        // Ties: the smaller id of the file first.
        return pr.rank[a] > pr.rank[b] ||
               (pr.rank[a] == pr.rank[b] && vertex_to_user(g, a) < vertex_to_user(g, b));
      });
  order.resize(k);
  if (const auto out = output_target(*r, {g.path})) {
    write_table(*out, g, {number_column("rank", pr.rank)});
  }
  if (r->count("json")) {
    json top_json = json::array();
    for (vertex_t v : order)
      top_json.push_back({{"vertex", vertex_to_user(g, v)}, {"rank", pr.rank[v]}});
    print_json(graph_command_json("pagerank", backend, g,
                                  {{"damping", options.damping},
                                   {"tolerance", options.tolerance},
                                   {"max_iterations", options.max_iterations},
                                   {"iterations", pr.iterations},
                                   {"converged", pr.converged},
                                   {"top", top_json},
                                   {"seconds", seconds}}));
    return kExitOk;
  }
  print_row("iterations",
            fmt::format("{} ({})", pr.iterations, pr.converged ? "converged" : "did NOT converge"));
  print_row("damping", fmt::format("{}", options.damping));
  print_row("backend", backend);
  print_row("time", time_row(g, "pagerank", seconds, build_seconds));
  if (!order.empty()) {
    std::cout << fmt::format("\n{:>6}  {:>12}  {}\n", "rank", "vertex", "pagerank");
    for (std::size_t i = 0; i < order.size(); ++i) {
      std::cout << fmt::format("{:>6}  {:>12}  {:.6e}\n", i + 1, vertex_to_user(g, order[i]),
                               pr.rank[order[i]]);
    }
  }
  return kExitOk;
}

}  // namespace wg::cli
