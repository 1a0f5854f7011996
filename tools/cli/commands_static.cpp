// The graph command info, on the reference (Boost.Graph). The algorithm commands are the
// registered ones (registered_command.hpp).
#include "algorithm_command.hpp"

namespace wg::cli {

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

}  // namespace wg::cli
