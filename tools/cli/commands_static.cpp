// The one-shot subcommands: info, tc, bfs, cc, kcore, pagerank, sssp. tc runs on a GraphBackend;
// bfs, cc, kcore and pagerank on the CPU graph's algorithms (algorithms/{bfs,wcc,kcore,pagerank}/
// cpu) or the reference, and cc, kcore and pagerank on the GPU graph's (gpu_global.hpp); info and
// sssp on algorithms/reference (Boost.Graph) until the GPU/CPU algorithms exist.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include <warpgraph/algorithms/reference/reference.hpp>
#ifdef WG_CLI_HAVE_CPU_ALGORITHMS
#include <warpgraph/algorithms/bfs/cpu/bfs.hpp>
#include <warpgraph/algorithms/kcore/cpu/kcore.hpp>
#include <warpgraph/algorithms/pagerank/cpu/pagerank.hpp>
#include <warpgraph/algorithms/wcc/cpu/wcc.hpp>
#include <warpgraph/graph/cpu/dynamic_graph.hpp>
#endif

#ifdef WG_CLI_HAVE_CPU_SSSP
#include <warpgraph/algorithms/sssp/cpu/sssp.hpp>
#endif

#include "backend.hpp"
#include "cli.hpp"
#ifdef WG_CLI_HAVE_GPU_GLOBAL
#include "gpu_global.hpp"
#endif
#ifdef WG_CLI_HAVE_GPU_TRAVERSAL
#include "gpu_traversal.hpp"
#endif

namespace wg::cli {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

const std::string kReferenceNote = "This command runs on the reference (Boost.Graph) for now.";

#ifdef WG_CLI_HAVE_CPU_ALGORITHMS
constexpr bool kHaveCpuAlgorithms = true;
#else
constexpr bool kHaveCpuAlgorithms = false;
#endif
#ifdef WG_CLI_HAVE_GPU_GLOBAL
constexpr bool kHaveGpuGlobal = true;
#else
constexpr bool kHaveGpuGlobal = false;
#endif
#ifdef WG_CLI_HAVE_GPU_TRAVERSAL
constexpr bool kHaveGpuTraversal = true;
#else
constexpr bool kHaveGpuTraversal = false;
#endif
#ifdef WG_CLI_HAVE_CPU_SSSP
constexpr bool kHaveCpuSssp = true;
#else
constexpr bool kHaveCpuSssp = false;
#endif
const std::string kGpuNote =
    "This command runs on gpu (the GPU graph), cpu (the CPU graph) or the reference "
    "(Boost.Graph); auto = gpu where usable, else cpu where built.";

/// The backend of an algorithm command (bfs, cc, kcore, pagerank, sssp): gpu where its GPU
/// version is built (`has_gpu`), cpu where `has_cpu`, else reference; "auto": gpu if built and a
/// device is usable, else cpu, else reference.
std::string algorithm_backend(const cxxopts::ParseResult& r, const std::string& command,
                              bool has_cpu, bool has_gpu) {
  if (r["backend"].as<std::string>() == "gpu" && !has_gpu) {
    throw UsageError("--backend gpu: the GPU version of " + command +
                     " is not part of this build (use --backend cpu or reference)");
  }
  const std::string name = backend_option(r);
  if (name == "auto") {
    const std::vector<std::string> usable = usable_backends();
    if (has_gpu && std::find(usable.begin(), usable.end(), "gpu") != usable.end()) return "gpu";
    return has_cpu ? "cpu" : "reference";
  }
  if (name == "cpu" && !has_cpu) {
    throw UsageError("--backend cpu: " + command + " has no cpu version in this build");
  }
  return name;
}

json input_json(const InputGraph& g) {
  json j{{"file", g.path},
         {"format", format_name(g.read.format)},
         {"entries", g.read.edges.size()},
         {"weighted", g.read.edges.weighted()},
         {"directed", g.directed && !g.read.edges.symmetric},
         {"read_seconds", g.read_seconds}};
  if (!g.read.original_ids.empty()) j["compact_ids"] = true;
  return j;
}

/// The JSON document of a reference command on one graph: its name, backend, input and vertex
/// count, and the command's own `fields`.
json graph_command_json(const char* command, const std::string& backend, const InputGraph& g,
                        const json& fields) {
  json doc{{"command", command},
           {"backend", backend},
           {"input", input_json(g)},
           {"vertices", g.read.edges.num_vertices}};
  doc.update(fields);
  return doc;
}

/// The time row of bfs, cc and pagerank: "read R, bfs S", with the graph build inside S on the cpu
/// backend (the reference builds its Boost graph inside S too).
std::string time_row(const InputGraph& g, const char* command, double seconds,
                     double build_seconds) {
  std::string row =
      fmt::format("read {}, {} {}", format_ms(g.read_seconds), command, format_ms(seconds));
  if (build_seconds > 0) {
    row += fmt::format(" (graph build {}, {} {})", format_ms(build_seconds), command,
                       format_ms(seconds - build_seconds));
  }
  return row;
}

/// Directed only when asked for and the file is not symmetric (references ignore the flag for
/// symmetric edge lists anyway).
bool directed_view(const InputGraph& g) {
  return g.directed && !g.read.edges.symmetric;
}

/// The first 16 entries of a histogram as "0:n0 1:n1 ...", with " ..." when there are more.
std::string histogram_row(const std::vector<std::uint64_t>& sizes) {
  std::string row;
  for (std::size_t i = 0; i < sizes.size() && i < 16; ++i) {
    row += fmt::format("{}{}:{}", i ? " " : "", i, sizes[i]);
  }
  if (sizes.size() > 16) row += " ...";
  return row;
}

#ifdef WG_CLI_HAVE_CPU_ALGORITHMS
/// The input built into a CPU graph (--threads workers); `build_seconds` is the time since t0.
cpu::DynamicGraph build_cpu_graph(const InputGraph& g, const cxxopts::ParseResult& r, bool directed,
                                  Clock::time_point t0, double& build_seconds) {
  cpu::DynamicGraph graph(
      cpu::GraphOptions{.directed = directed, .threads = cpu_threads_option(r)});
  graph.build(g.read.edges);
  build_seconds = seconds_since(t0);
  return graph;
}
#endif

}  // namespace

// ---- the reference commands' common start ----------------------------------------------------

/// What a reference command starts from: its parsed options, its backend and its graph.
struct ReferenceCommandRun {
  cxxopts::ParseResult options;
  std::string backend;
  InputGraph graph;
};

/// Adds the options every reference command has (the reader's, --backend, the output's; with
/// `directed` the reader's --directed, with `per_vertex` --output), parses them, checks the
/// backend and reads the graph FILE; nullopt when --help was answered.
std::optional<ReferenceCommandRun> start_reference_command(CommandOptions& cmd, bool directed,
                                                           bool per_vertex, int argc,
                                                           const char* const* argv) {
  cmd.add_reader_options(directed);
  cmd.add_backend_option(kReferenceNote);
  cmd.add_output_options(per_vertex);
  auto r = cmd.parse(argc, argv);
  if (!r) return std::nullopt;
  ReferenceCommandRun run{*r, reference_only_backend(*r, cmd.command()), {}};
  run.graph = load_graph(cmd.files()[0], reader_options(*r));
  return run;
}

/// The start of an algorithm command (bfs, cc, kcore, pagerank, sssp): the reader's options
/// (--directed where `directed`), --backend (gpu where `has_gpu`, cpu where `has_cpu`; see
/// algorithm_backend), --output; parses them and reads the graph FILE. nullopt when --help was
/// answered.
std::optional<ReferenceCommandRun> start_algorithm_command(CommandOptions& cmd, bool directed,
                                                           bool has_cpu, bool has_gpu, int argc,
                                                           const char* const* argv) {
  cmd.add_reader_options(directed);
  cmd.add_backend_option(has_gpu ? kGpuNote : kReferenceNote);
  cmd.add_output_options(true);
  auto r = cmd.parse(argc, argv);
  if (!r) return std::nullopt;
  ReferenceCommandRun run{*r, algorithm_backend(*r, cmd.command(), has_cpu, has_gpu), {}};
  run.graph = load_graph(cmd.files()[0], reader_options(*r));
  return run;
}

/// start_algorithm_command for cc and kcore (undirected reading).
std::optional<ReferenceCommandRun> start_global_command(CommandOptions& cmd, int argc,
                                                        const char* const* argv) {
  return start_algorithm_command(cmd, false, kHaveCpuAlgorithms, kHaveGpuGlobal, argc, argv);
}

// ---- info -------------------------------------------------------------------------------------

int run_info(int argc, const char* const* argv) {
  CommandOptions cmd("info",
                     "Graph statistics: vertices, edges, degree min/max/avg/stddev, connected "
                     "components (the thesis' Table 5.1 columns) and file format facts. The graph "
                     "is read as simple: self-loops and duplicate entries are dropped and counted.",
                     "FILE", 1, 1);
  const std::optional<ReferenceCommandRun> run =
      start_reference_command(cmd, true, false, argc, argv);
  if (!run) return kExitOk;
  const auto& [options, backend, g] = *run;
  const cxxopts::ParseResult* r = &options;
  const auto t0 = Clock::now();
  const reference::GraphStats s = reference::graph_stats(g.read.edges, directed_view(g));
  const double stats_seconds = seconds_since(t0);

  if (r->count("json")) {
    json j{{"command", "info"},
           {"backend", backend},
           {"input", input_json(g)},
           {"lines", g.read.lines},
           {"vertices", s.vertices},
           {"edges", s.edges},
           {"self_loops_dropped", s.self_loops_dropped},
           {"duplicates_dropped", s.duplicates_dropped},
           {"degree",
            {{"min", s.degree_min},
             {"max", s.degree_max},
             {"avg", s.degree_avg},
             {"stddev", s.degree_stddev}}},
           {"components", s.components},
           {"seconds", stats_seconds}};
    if (g.read.format == datasets::FileFormat::matrix_market) {
      using H = datasets::MatrixMarketHeader;
      j["input"]["matrix_market"] = {
          {"field", g.read.mm.field == H::Field::pattern ? "pattern"
                    : g.read.mm.field == H::Field::real  ? "real"
                                                         : "integer"},
          {"symmetry", g.read.mm.symmetry == H::Symmetry::general     ? "general"
                       : g.read.mm.symmetry == H::Symmetry::symmetric ? "symmetric"
                                                                      : "skew-symmetric"},
          {"rows", g.read.mm.rows},
          {"cols", g.read.mm.cols},
          {"entries", g.read.mm.entries}};
    }
    print_json(j);
    return kExitOk;
  }
  print_row("file", g.path);
  print_row("format", describe_format(g.read));
  print_row("ids", g.read.format == datasets::FileFormat::matrix_market
                       ? "0-based (Matrix Market file id minus one)"
                   : g.read.original_ids.empty() ? "0-based, as in the file"
                                                 : "the file's (compacted internally)");
  print_row("entries",
            fmt::format("{} in {}{}", g.read.edges.size(), count_noun(g.read.lines, "line"),
                        g.read.edges.weighted() ? ", weighted" : ""));
  print_row("vertices", std::to_string(s.vertices));
  print_row("edges", fmt::format("{} ({}, simple)", s.edges,
                                 directed_view(g) ? "directed arcs" : "undirected"));
  print_row("dropped", fmt::format("{}, {}", count_noun(s.self_loops_dropped, "self-loop"),
                                   count_noun(s.duplicates_dropped, "duplicate")));
  print_row("degree", fmt::format("min {}, max {}, avg {:.3f}, stddev {:.3f}", s.degree_min,
                                  s.degree_max, s.degree_avg, s.degree_stddev));
  print_row("components", std::to_string(s.components));
  print_row("time", fmt::format("read {}, statistics {}", format_ms(g.read_seconds),
                                format_ms(stats_seconds)));
  return kExitOk;
}

// ---- tc ---------------------------------------------------------------------------------------

int run_tc(int argc, const char* const* argv) {
  CommandOptions cmd("tc",
                     "Count the triangles of the graph. Every entry is read as an undirected "
                     "edge; self-loops and duplicates are dropped.",
                     "FILE", 1, 1);
  cmd.add_reader_options(false);
  cmd.add_backend_option("tc runs on the chosen backend.");
  cmd.add_adjacency_option();
  cmd.add_output_options(true);
  auto r = cmd.parse(argc, argv);
  if (!r) return kExitOk;
  const std::string backend_name = backend_option(*r);
  InputGraph g = load_graph(cmd.files()[0], reader_options(*r));
  g.read.edges.symmetric = true;  // triangles are counted on the undirected graph
  std::unique_ptr<GraphBackend> backend =
      make_backend(backend_name, cpu_threads_option(*r), adjacency_option(*r, backend_name));
  const BatchOutcome built = backend->build(g.read.edges);
  std::vector<std::uint64_t> per_vertex;
  if (r->count("output")) {
    const std::uint64_t again = backend->recount_triangles(&per_vertex);
    if (again != built.triangles) {
      throw Error(fmt::format("backend {}: build counted {} triangles but a recount gives {}",
                              backend->name(), built.triangles, again));
    }
    write_per_vertex(r->operator[]("output").as<std::string>(), g, per_vertex,
                     [](std::uint64_t t) { return std::to_string(t); });
  }
  if (r->count("json")) {
    print_json({{"command", "tc"},
                {"backend", backend->name()},
                {"backend_startup_seconds", backend->startup_seconds()},
                {"input", input_json(g)},
                {"vertices", backend->num_vertices()},
                {"edges", backend->num_edges()},
                {"triangles", built.triangles},
                {"seconds", built.seconds}});
    return kExitOk;
  }
  print_row("triangles", std::to_string(built.triangles));
  print_row("vertices", std::to_string(backend->num_vertices()));
  print_row("edges", std::to_string(backend->num_edges()) + " (undirected, simple)");
  print_row("backend", backend_row(backend->name(), backend->startup_seconds()));
  print_row("time", fmt::format("read {}, build + count {}", format_ms(g.read_seconds),
                                format_ms(built.seconds)));
  return kExitOk;
}

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
  if (run)
    source = vertex_from_user(run->graph, run->options["source"].as<std::uint64_t>(), "source");
  return run;
}

/// The text rows bfs and sssp start with: the source and how many vertices it reaches.
void print_source_rows(const InputGraph& g, vertex_t source, std::uint64_t reached) {
  print_row("source", std::to_string(vertex_to_user(g, source)));
  print_row("reached", fmt::format("{} of {}", reached,
                                   count_noun(g.read.edges.num_vertices, "vertex", "vertices")));
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
  std::vector<std::int64_t> level;
  double build_seconds = 0;
#ifdef WG_CLI_HAVE_CPU_ALGORITHMS
  if (backend == "cpu") {
    const cpu::DynamicGraph graph = build_cpu_graph(g, *r, directed_view(g), t0, build_seconds);
    level = cpu::bfs(graph, source).level;
  }
#endif
#ifdef WG_CLI_HAVE_GPU_TRAVERSAL
  if (backend == "gpu") {
    GpuTraversalTimes times;
    level = gpu_bfs_levels(g.read.edges, directed_view(g), source, times);
    build_seconds = times.build_seconds;
  }
#endif
  if (backend == "reference") level = reference::bfs_levels(g.read.edges, source, directed_view(g));
  const double seconds = seconds_since(t0);
  std::vector<std::uint64_t> level_sizes;
  std::uint64_t reached = 0;
  for (std::int64_t l : level) {
    if (l == reference::kUnreached) continue;
    ++reached;
    if (static_cast<std::size_t>(l) >= level_sizes.size()) level_sizes.resize(l + 1, 0);
    ++level_sizes[l];
  }
  const std::uint64_t depth = level_sizes.empty() ? 0 : level_sizes.size() - 1;
  if (r->count("output")) {
    write_per_vertex((*r)["output"].as<std::string>(), g, level,
                     [](std::int64_t l) { return std::to_string(l); });
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

// ---- cc ---------------------------------------------------------------------------------------

int run_cc(int argc, const char* const* argv) {
  CommandOptions cmd("cc",
                     "Connected components of the undirected graph (weakly connected for "
                     "directed input). Isolated vertices are components of their own. With "
                     "--output, each vertex's component is its smallest vertex id.",
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
  if (r->count("output")) {
    write_per_vertex((*r)["output"].as<std::string>(), g, c.component,
                     [&](vertex_t label) { return std::to_string(vertex_to_user(g, label)); });
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
  if (r->count("output")) {
    write_per_vertex((*r)["output"].as<std::string>(), g, core,
                     [](std::uint32_t c) { return std::to_string(c); });
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
  const InputGraph g = load_graph(cmd.files()[0], reader_options(*r));
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
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                    [&](vertex_t a, vertex_t b) {
                      return pr.rank[a] > pr.rank[b] || (pr.rank[a] == pr.rank[b] && a < b);
                    });
  order.resize(k);
  if (r->count("output")) {
    write_per_vertex((*r)["output"].as<std::string>(), g, pr.rank,
                     [](double x) { return fmt::format("{:.17g}", x); });
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

// ---- sssp -------------------------------------------------------------------------------------

int run_sssp(int argc, const char* const* argv) {
  vertex_t source = 0;
  const std::optional<ReferenceCommandRun> run = start_traversal_command(
      "sssp",
      "Single-source shortest paths from --source. Edge weights are "
      "the file's (Matrix Market real/integer, SNAP third column), 1 when "
      "unweighted; negative weights are an error. For duplicate entries the "
      "reference takes the smallest weight, gpu and cpu the last one. gpu needs "
      "integer weights (it stores uint32: others are a usage error), cpu stores float; auto "
      "runs on the reference unless every weight is an integer below 2^24.",
      argc, argv, source, kHaveCpuSssp);
  if (!run) return kExitOk;
  const auto& [options, chosen_backend, g] = *run;
  // The graphs store weights as uint32 (gpu) and float (cpu). auto runs where both hold every
  // weight exactly, else on the reference; gpu refuses weights it would round.
  const auto& weights = g.read.edges.weight;
  const auto first_inexact = [&](auto&& exact) {
    return std::find_if(weights.begin(), weights.end(), [&](double w) { return !exact(w); });
  };
  const auto gpu_bad =
      first_inexact([](double w) { return w >= 0 && w <= 4294967295.0 && w == std::floor(w); });
  const auto cpu_bad =
      first_inexact([](double w) { return static_cast<double>(static_cast<float>(w)) == w; });
  const bool exact_weights = gpu_bad == weights.end() && cpu_bad == weights.end();
  const std::string backend = options["backend"].as<std::string>() == "auto" && !exact_weights
                                  ? "reference"
                                  : chosen_backend;
  if (backend == "gpu" && gpu_bad != weights.end()) {
    throw UsageError(fmt::format(
        "sssp --backend gpu: {} entry {} has weight {}, but the GPU graph stores integer weights "
        "(0..2^32-1); use --backend cpu or reference",
        g.path, gpu_bad - weights.begin() + 1, *gpu_bad));
  }
  if (backend == "cpu" && cpu_bad != weights.end()) {
    std::cerr << "warpgraph: note: sssp --backend cpu stores the weights as float, which does not "
                 "hold every weight of this file exactly (e.g. entry "
              << cpu_bad - weights.begin() + 1 << ")\n";
  }
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
  if (r->count("output")) {
    write_per_vertex((*r)["output"].as<std::string>(), g, dist, [](double d) {
      return std::isfinite(d) ? fmt::format("{:.17g}", d) : std::string("inf");
    });
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
