#pragma once
// The command of every registered algorithm (algorithms/registry.hpp): `warpgraph NAME FILE`
// reads the graph as undirected, runs the entry's static computation on the gpu, cpu or
// reference backend (as the other algorithm commands choose it), prints the entry's fields as
// text rows or JSON and, with --output, one value per vertex. An entry the graph backends keep
// (kept_by_backends: tc) is counted by the backend `stream` would use instead (run_kept).
// main.cpp lists one per entry (registered_command).
#include <algorithm>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <warpgraph/algorithms/registry.hpp>

#include "algorithm_command.hpp"
#include "per_vertex.hpp"
#ifdef WG_CLI_HAVE_CPU_ALGORITHMS
#define WG_REGISTERED_WITH_CPU 1
#endif
#include "registered_algorithms.hpp"

namespace wg::cli {

/// Whether the registered entry has a CPU (GPU) backend in this build.
template <class Entry>
constexpr bool registered_on_cpu() {
  bool found = false;
#define WG_CLI_FOUND(E) found = found || std::is_same_v<Entry, E>;
  WG_REGISTERED_CPU(WG_CLI_FOUND)
  return found && kHaveCpuAlgorithms;
}
template <class Entry>
constexpr bool registered_on_gpu() {
  bool found = false;
  WG_REGISTERED_GPU(WG_CLI_FOUND)
#undef WG_CLI_FOUND
  return found && kHaveGpuGlobal;
}

/// The entry's result on the run's backend (the CPU graph's build time in `build_seconds`); the
/// graph is directed where the entry reads_direction and --directed asks for it.
template <class Entry>
typename Entry::Result registered_result(const ReferenceCommandRun& run,
                                         const typename Entry::Options& options,
                                         Clock::time_point t0, double& build_seconds) {
#ifdef WG_CLI_HAVE_GPU_GLOBAL
  if constexpr (registered_on_gpu<Entry>()) {
    if (run.backend == "gpu") {
      gpu_global::Times times;
      typename Entry::Result r =
          gpu_global::registered<Entry>(run.graph.read.edges, options, times);
      build_seconds = times.build_seconds;
      return r;
    }
  }
#endif
#ifdef WG_CLI_HAVE_CPU_ALGORITHMS
  if constexpr (registered_on_cpu<Entry>()) {
    if (run.backend == "cpu") {
      const bool directed = Entry::reads_direction && directed_view(run.graph);
      return Entry::run(build_cpu_graph(run.graph, run.options, directed, t0, build_seconds,
                                        Entry::reads_weights),
                        options);
    }
  }
#endif
  (void)t0;
  (void)build_seconds;
  return Entry::reference(run.graph.read.edges, options);
}

/// The entry's options from the command line: `options` (its own, read_entry_options) with
/// --source and --directed where it takes them; for an entry that reads_weights, the file's
/// weights settled (settle_command_weights: `run`'s backend may become the reference) and whether
/// it has any.
template <class Entry>
typename Entry::Options registered_options(ReferenceCommandRun& run,
                                           typename Entry::Options options) {
  if constexpr (Entry::needs_source) options.source = source_option(run);
  if constexpr (Entry::reads_direction) options.directed = directed_view(run.graph);
  if constexpr (Entry::reads_weights) {
    settle_command_weights(run);
    options.weighted = run.graph.read.edges.weighted();
  }
  return options;
}

/// The entry's command_options added to `cmd`.
template <class Entry>
void add_entry_options(CommandOptions& cmd) {
  for (const EntryOption& o : Entry::command_options)
    cmd.options.add_options()(
        o.flags, o.help,
        o.kind == EntryOption::Kind::fraction || o.kind == EntryOption::Kind::positive
            ? cxxopts::value<double>()->default_value(o.default_value)
            : cxxopts::value<std::uint64_t>()->default_value(o.default_value),
        o.arg);
}

/// The entry's command_options read from `r` into `options` (UsageError naming a bad one).
template <class Entry>
void read_entry_options(const cxxopts::ParseResult& r, typename Entry::Options& options) {
  for (std::size_t i = 0; i < Entry::command_options.size(); ++i) {
    const EntryOption& o = Entry::command_options[i];
    const std::string_view flags = o.flags;
    const std::string name(flags.substr(flags.find(',') + 1));  // the long name
    EntryOptionValue v;
    switch (o.kind) {
      case EntryOption::Kind::fraction:
        v.real = fraction_option(r, name);
        break;
      case EntryOption::Kind::positive:
        v.real = r[name].as<double>();
        if (!(v.real > 0)) throw UsageError("--" + name + " must be positive");
        break;
      case EntryOption::Kind::positive_int:
        v.count = positive_option(r, name);
        if (v.count > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
          throw UsageError("--" + name + " is too large");
        break;
      case EntryOption::Kind::count:
        v.count = r[name].as<std::uint64_t>();
        break;
    }
    Entry::set_option(options, i, v);
  }
}

/// The `top_count` vertices of largest value (ties: the smaller file id first), as the command
/// lists them: a table after the text rows, or JSON `top`.
template <class Entry>
std::vector<vertex_t> top_vertices(const InputGraph& g, const std::vector<double>& values,
                                   std::uint64_t top) {
  std::vector<vertex_t> order(values.size());
  std::iota(order.begin(), order.end(), vertex_t{0});
  const std::size_t k = std::min<std::size_t>(top, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                    [&](vertex_t a, vertex_t b) {
                      return values[a] > values[b] || (values[a] == values[b] &&
                                                       vertex_to_user(g, a) < vertex_to_user(g, b));
                    });
  order.resize(k);
  return order;
}

/// A registered result's named numbers as JSON keys (histograms: their first 16 counts).
inline void summary_json(json& j, const std::vector<SummaryField>& fields,
                         const std::vector<SummaryHistogram>& histograms) {
  for (const SummaryField& f : fields)
    j[f.key] = f.boolean   ? json(f.value != 0)
               : f.integer ? json(static_cast<std::uint64_t>(f.value))
                           : json(f.value);
  for (const SummaryHistogram& h : histograms) {
    const std::size_t first =
        h.json_all ? h.sizes.size() : std::min<std::size_t>(h.sizes.size(), 16);
    j[h.key] = std::vector<std::uint64_t>(h.sizes.begin(), h.sizes.begin() + first);
  }
}

/// The same as text rows ("max core: 5  (degeneracy)", "largest: 40 of 100 vertices").
inline void print_summary(const InputGraph& g, const std::vector<SummaryField>& fields,
                          const std::vector<SummaryHistogram>& histograms) {
  for (const SummaryField& f : fields) {
    if (f.json_only) continue;
    std::string row = !f.text.empty() ? f.text
                      : f.integer     ? std::to_string(static_cast<std::uint64_t>(f.value))
                      : f.round_trip  ? fmt::format("{}", f.value)
                                      : fmt::format("{:.10g}", f.value);
    if (f.of_vertices) row += " of " + count_noun(g.read.edges.num_vertices, "vertex", "vertices");
    if (*f.note) row += std::string("  ") + f.note;
    print_row(f.label, row);
  }
  for (const SummaryHistogram& h : histograms)
    print_row(h.label, histogram_row(h.sizes) + "  " + h.note);
}

template <class Entry>
int run_registered(int argc, const char* const* argv) {
  CommandOptions cmd(Entry::name, Entry::description, "FILE", 1, 1);
  if (Entry::needs_source) add_source_option(cmd);
  add_entry_options<Entry>(cmd);
  typename Entry::Options own{};
  std::optional<ReferenceCommandRun> run = start_algorithm_command(
      cmd, Entry::reads_direction, registered_on_cpu<Entry>(), registered_on_gpu<Entry>(), argc,
      argv, [&](const cxxopts::ParseResult& r) { read_entry_options<Entry>(r, own); });
  if (!run) return kExitOk;
  const typename Entry::Options options = registered_options<Entry>(*run, own);
  const auto t0 = Clock::now();
  double build_seconds = 0;
  const typename Entry::Result result = registered_result<Entry>(*run, options, t0, build_seconds);
  const double seconds = seconds_since(t0);
  const InputGraph& g = run->graph;
  const cxxopts::ParseResult& r = run->options;
  vertex_t source = 0;
  if constexpr (Entry::needs_source) source = options.source;
  constexpr bool lists_top = requires {
    Entry::top_count(options);
  };
  const auto out = output_target(r, {g.path});
  std::vector<double> values;  // per vertex, for --output and the top list alike
  if (out || lists_top) values = Entry::values(result);
  if (out) {
    std::vector<std::int64_t> derived;
    const SearchTree tree{g.read.edges, directed_view(g), source};
    write_table(*out, g,
                values_columns(entry_value_name<Entry>(), Entry::per_vertex, values, file_ids(g),
                               derived, &tree));
  }
  const std::vector<SummaryField> fields = entry_fields<Entry>(result, options);
  const std::vector<SummaryHistogram> histograms = Entry::histograms(result);
  std::vector<vertex_t> top;
  if constexpr (lists_top) top = top_vertices<Entry>(g, values, Entry::top_count(options));
  if (r.count("json")) {
    json j;
    if (Entry::needs_source) j["source"] = vertex_to_user(g, source);
    summary_json(j, fields, histograms);
    if constexpr (lists_top) {
      json top_json = json::array();
      for (vertex_t v : top)
        top_json.push_back(
            {{"vertex", vertex_to_user(g, v)}, {entry_value_name<Entry>(), values[v]}});
      j["top"] = top_json;
    }
    j["seconds"] = seconds;
    print_json(graph_command_json(Entry::name, run->backend, g, j));
    return kExitOk;
  }
  if (Entry::needs_source) print_row("source", std::to_string(vertex_to_user(g, source)));
  print_summary(g, fields, histograms);
  print_row("backend", run->backend);
  print_row("time",
            time_row(g, Entry::name, seconds, Entry::splits_build_time ? build_seconds : 0));
  if (!top.empty()) {
    std::cout << fmt::format("\n{:>6}  {:>12}  {}\n", "rank", "vertex", Entry::name);
    for (std::size_t i = 0; i < top.size(); ++i)
      std::cout << fmt::format("{:>6}  {:>12}  {:.6e}\n", i + 1, vertex_to_user(g, top[i]),
                               values[top[i]]);
  }
  return kExitOk;
}

/// The command of an entry the graph backends keep (kept_by_backends): the graph is built on the
/// backend that --backend and --adjacency name (a GraphBackend, as `stream` makes it), whose build
/// counts it; --output adds a recount per vertex, checked against the build's count. Prints the
/// entry's fields, the backend's graph (vertices, undirected edges), the backend and the time of
/// its build and count.
template <class Entry>
int run_kept(int argc, const char* const* argv) {
  CommandOptions cmd(Entry::name, Entry::description, "FILE", 1, 1);
  cmd.add_reader_options(false);
  cmd.add_backend_option(std::string(Entry::name) + " runs on the chosen backend.");
  cmd.add_adjacency_option();
  cmd.add_output_options(true);
  auto r = cmd.parse(argc, argv);
  if (!r) return kExitOk;
  const std::string backend_name = backend_option(*r);
  const std::optional<OutputTarget> out = output_target(*r, cmd.files());
  const auto make = [&] {
    return make_backend(backend_name, cpu_threads_option(*r), adjacency_option(*r, backend_name));
  };
  // The gpu backend is made first: it copies the file's edges to the device while it is parsed.
  std::unique_ptr<GraphBackend> backend;
  if (resolves_to_gpu(backend_name)) backend = make();
  InputGraph g = load_graph(cmd.files()[0], reader_options(*r),
                            backend ? backend->preload_sink() : datasets::EdgeChunkFn{});
  g.read.edges.symmetric = true;  // counted on the undirected graph
  g.read.edges.weight.clear();    // of an unweighted graph (a weighted one is slower to build)
  if (!backend) backend = make();
  const BatchOutcome built = backend->build(g.read.edges);
  typename Entry::Result result{built.triangles, {}};
  if (out) {
    const std::uint64_t again = backend->recount_triangles(&result.per_vertex);
    if (again != built.triangles)
      throw Error(fmt::format("backend {}: build counted {} {} but a recount gives {}",
                              backend->name(), built.triangles, Entry::stream_label, again));
    const std::vector<double> values = Entry::values(result);
    std::vector<std::int64_t> derived;
    write_table(
        *out, g,
        values_columns(entry_value_name<Entry>(), Entry::per_vertex, values, file_ids(g), derived));
  }
  const std::vector<SummaryField> fields = entry_fields<Entry>(result, {});
  const std::vector<SummaryHistogram> histograms = Entry::histograms(result);
  if (r->count("json")) {
    json j{{"backend_startup_seconds", backend->startup_seconds()},
           {"vertices", backend->num_vertices()},
           {"edges", backend->num_edges()},
           {"seconds", built.seconds}};
    summary_json(j, fields, histograms);
    print_json(graph_command_json(Entry::name, backend->name(), g, j));
    return kExitOk;
  }
  print_summary(g, fields, histograms);
  print_row("vertices", std::to_string(backend->num_vertices()));
  print_row("edges", std::to_string(backend->num_edges()) + " (undirected, simple)");
  print_row("backend", backend_row(backend->name(), backend->startup_seconds()));
  print_row("time", fmt::format("read {}, build + count {}", format_ms(g.read_seconds),
                                format_ms(built.seconds)));
  return kExitOk;
}

/// The command of a registered entry (main.cpp's list): run_kept where the backends keep it.
template <class Entry>
constexpr auto registered_command() {
  if constexpr (Entry::kept_by_backends)
    return &run_kept<Entry>;
  else
    return &run_registered<Entry>;
}

}  // namespace wg::cli
