#pragma once
// What the algorithm commands (info in commands_static.cpp; every registered algorithm in
// registered_command.hpp) share: which backends this build has, the backend rule, the common
// start (options, backend, graph file) and the JSON and text rows they print alike.
#include <algorithm>
#include <cmath>
#include <functional>
#include <iostream>
#include <limits>
#include <numeric>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include <warpgraph/algorithms/reference/reference.hpp>
#ifdef WG_CLI_HAVE_CPU_ALGORITHMS
#include <warpgraph/algorithms/bfs/cpu/bfs.hpp>
#include <warpgraph/algorithms/kcore/cpu/kcore.hpp>
#include <warpgraph/algorithms/pagerank/cpu/pagerank.hpp>
#include <warpgraph/algorithms/wcc/cpu/wcc.hpp>
#include <warpgraph/graph/cpu/dynamic_graph.hpp>
#endif

#include "backend.hpp"
#include "cli.hpp"
#include "output_writer.hpp"
#include "per_vertex.hpp"
#ifdef WG_CLI_HAVE_GPU_GLOBAL
#include "gpu_global.hpp"
#endif

namespace wg::cli {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

inline const std::string kReferenceNote =
    "This command runs on the reference (Boost.Graph) for now.";

// Which optional parts this build has: CMakeLists.txt defines each WG_CLI_HAVE_* as 1, so its
// text is "1" where it is defined and its own name where it is not.
#define WG_CLI_DEFINED_TEXT(x) #x
#define WG_CLI_DEFINED(x) (std::string_view(WG_CLI_DEFINED_TEXT(x)) == "1")
inline constexpr bool kHaveCpuAlgorithms = WG_CLI_DEFINED(WG_CLI_HAVE_CPU_ALGORITHMS);
inline constexpr bool kHaveGpuGlobal = WG_CLI_DEFINED(WG_CLI_HAVE_GPU_GLOBAL);
#undef WG_CLI_DEFINED
#undef WG_CLI_DEFINED_TEXT
inline const std::string kGpuNote =
    "This command runs on gpu (the GPU graph), cpu (the CPU graph) or the reference "
    "(Boost.Graph); auto = gpu where usable, else cpu where built.";

/// The backend of an algorithm command (bfs, cc, kcore, pagerank, sssp): gpu where its GPU
/// version is built (`has_gpu`), cpu where `has_cpu`, else reference; "auto": gpu if built and a
/// device is usable, else cpu, else reference.
inline std::string algorithm_backend(const cxxopts::ParseResult& r, const std::string& command,
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

inline json input_json(const InputGraph& g) {
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
inline json graph_command_json(const char* command, const std::string& backend, const InputGraph& g,
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
inline std::string time_row(const InputGraph& g, const char* command, double seconds,
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
inline bool directed_view(const InputGraph& g) {
  return g.directed && !g.read.edges.symmetric;
}

/// The first 16 entries of a histogram as "0:n0 1:n1 ...", with " ..." when there are more.
inline std::string histogram_row(const std::vector<std::uint64_t>& sizes) {
  std::string row;
  for (std::size_t i = 0; i < sizes.size() && i < 16; ++i) {
    row += fmt::format("{}{}:{}", i ? " " : "", i, sizes[i]);
  }
  if (sizes.size() > 16) row += " ...";
  return row;
}

#ifdef WG_CLI_HAVE_CPU_ALGORITHMS
/// The input built into a CPU graph (--threads workers), with the file's weights where
/// `weighted`; `build_seconds` is the time since t0.
inline cpu::DynamicGraph build_cpu_graph(const InputGraph& g, const cxxopts::ParseResult& r,
                                         bool directed, Clock::time_point t0, double& build_seconds,
                                         bool weighted = false) {
  cpu::DynamicGraph graph(cpu::GraphOptions{.directed = directed,
                                            .weighted = weighted && g.read.edges.weighted(),
                                            .threads = cpu_threads_option(r)});
  graph.build(g.read.edges);
  build_seconds = seconds_since(t0);
  return graph;
}
#endif

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
inline std::optional<ReferenceCommandRun> start_reference_command(CommandOptions& cmd,
                                                                  bool directed, bool per_vertex,
                                                                  int argc,
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
/// algorithm_backend), --output; parses them, lets `check_options` read the command's own and
/// reads the graph FILE. nullopt when --help was answered.
inline std::optional<ReferenceCommandRun> start_algorithm_command(
    CommandOptions& cmd, bool directed, bool has_cpu, bool has_gpu, int argc,
    const char* const* argv,
    const std::function<void(const cxxopts::ParseResult&)>& check_options = {}) {
  cmd.add_reader_options(directed);
  cmd.add_backend_option(has_gpu ? kGpuNote : kReferenceNote);
  cmd.add_output_options(true);
  auto r = cmd.parse(argc, argv);
  if (!r) return std::nullopt;
  (void)output_target(*r, cmd.files());  // a bad -o fails before any work
  ReferenceCommandRun run{*r, algorithm_backend(*r, cmd.command(), has_cpu, has_gpu), {}};
  if (check_options) check_options(*r);  // a bad option fails before the graph is read
  // gpu: the file goes to the device while it is parsed (gpu_preload.cuh).
  run.graph = load_graph(cmd.files()[0], reader_options(*r),
                         run.backend == "gpu" ? gpu_graph_upload_sink() : datasets::EdgeChunkFn{});
  return run;
}

/// Adds --source S: the vertex every registered entry that needs_source searches from.
inline void add_source_option(CommandOptions& cmd) {
  cmd.options.add_options()("s,source",
                            "Source vertex id (0-based; see 'Vertex ids' in tools/cli/README.md)",
                            cxxopts::value<std::uint64_t>()->default_value("0"), "S");
}

/// The --source vertex of a started command; warns on stderr when it is on no edge.
inline vertex_t source_option(const ReferenceCommandRun& run) {
  const vertex_t source =
      vertex_from_user(run.graph, run.options["source"].as<std::uint64_t>(), "source");
  if (!on_some_entry(run.graph.read.edges, source)) {
    std::cerr << fmt::format(
        "warpgraph: warning: --source {} is on no edge of {}: it reaches only itself\n",
        vertex_to_user(run.graph, source), run.graph.path);
  }
  return source;
}

/// The file's weights for a command that reads them (an entry's reads_weights), on a started
/// command: the graphs store them as uint32 (gpu) and float (cpu), so auto runs where both hold
/// every weight exactly, else on the reference, and an explicit gpu or cpu refuses a weight it
/// cannot hold; a negative weight is refused on every backend. Both errors name the weight's line
/// ("g.txt:7: negative weight -3 (shortest paths need weights >= 0)"). Then the readers'
/// duplicate rule, also for a general Matrix Market file read as undirected. O(m log m) at most.
inline void settle_command_weights(ReferenceCommandRun& run) {
  InputGraph& g = run.graph;
  const datasets::WeightFacts& facts = g.read.weight_facts;
  const bool exact_weights = !facts.not_float.line && !facts.not_uint32.line;
  if (run.options["backend"].as<std::string>() == "auto" && !exact_weights)
    run.backend = "reference";
  datasets::check_weights(g.read, g.path, datasets::WeightStorage::f64, true);
  try {
    datasets::check_weights(g.read, g.path,
                            run.backend == "gpu"   ? datasets::WeightStorage::u32
                            : run.backend == "cpu" ? datasets::WeightStorage::f32
                                                   : datasets::WeightStorage::f64,
                            false);
  } catch (const ParseError& e) {
    throw UsageError(fmt::format(
        "{}; use --backend {}", e.what(),
        run.backend == "gpu" && !facts.not_float.line ? "cpu or reference" : "reference"));
  }
  if (!directed_view(g)) read_as_undirected(g.read.edges);
}

}  // namespace wg::cli
