// pagerank: a whole-graph result, on the gpu, cpu or reference backend (cc and kcore are
// registry entries: registered_command.hpp).
#include "algorithm_command.hpp"
#include "output_writer.hpp"
#include "per_vertex.hpp"

namespace wg::cli {

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
