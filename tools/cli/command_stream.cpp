// `warpgraph stream`: the main job. A graph arrives in batches of edge insertions and deletions
// and the backend keeps an exact triangle count after every batch; --verify checks the final
// count three ways (backend recount, reference count of the backend's graph, reference count of
// the input) and the final graph against a replay of the stream.
#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>

#include <fmt/format.h>

#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/datasets/update_file_reader.hpp>
#include <warpgraph/datasets/update_stream.hpp>

#include "backend.hpp"
#include "cli.hpp"
#include "per_vertex.hpp"
#include "stream_check.hpp"
#include "stream_report.hpp"
#include "stream_runner.hpp"

namespace wg::cli {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;
namespace fs = std::filesystem;

constexpr const char* kBundledName = "facebook_combined.txt.gz";
/// --batch-size at most 2^32 entries: a batch is held in memory whole (on the GPU too), and
/// larger ones exceed any graph the readers accept in one batch anyway.
constexpr std::uint64_t kMaxBatchSize = std::uint64_t{1} << 32;

/// The bundled ego-Facebook graph: next to an installed binary (../share/warpgraph), in the
/// install prefix chosen at configure time, or in the source tree of this build.
std::string bundled_graph_path() {
  std::vector<fs::path> candidates;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.push_back(exe.parent_path().parent_path() / "share/warpgraph" / kBundledName);
#ifdef WG_CLI_INSTALLED_DATA_DIR
  candidates.push_back(fs::path(WG_CLI_INSTALLED_DATA_DIR) / kBundledName);
#endif
#ifdef WG_CLI_SOURCE_DATA_DIR
  candidates.push_back(fs::path(WG_CLI_SOURCE_DATA_DIR) / kBundledName);
#endif
  std::string looked;
  for (const fs::path& p : candidates) {
    if (fs::is_regular_file(p, ec)) return p.string();
    looked += (looked.empty() ? "" : ", ") + p.string();
  }
  throw Error(std::string("the bundled graph ") + kBundledName + " was not found (looked in " +
              looked + "); give a FILE");
}

/// Update files from this size on are streamed (read, parsed and applied at once).
constexpr std::uint64_t kStreamFromBytes = std::uint64_t{64} << 20;

std::uint64_t file_bytes(const std::string& path) {
  std::error_code ec;
  const std::uint64_t size = fs::file_size(path, ec);
  return ec ? 0 : size;
}

/// The most update lines a file of this size can hold (a line takes at least 6 bytes; gzip
/// expands at most ~1032x).
std::uint64_t most_update_entries(const std::string& path) {
  std::error_code ec;
  const std::uint64_t size = fs::file_size(path, ec);
  if (ec) return 0;  // the reader reports the file
  char magic[2] = {0, 0};
  std::ifstream(path, std::ios::binary).read(magic, 2);
  const bool gzip = magic[0] == '\x1f' && magic[1] == '\x8b';
  return (gzip ? size * 1032 : size) / 6 + 1;
}

}  // namespace

int run_stream(int argc, const char* const* argv) {
  CommandOptions cmd(
      "stream",
      "Stream a graph into the backend in batches of edge insertions and deletions, keeping an "
      "exact triangle count after every batch. By default FILE (the bundled ego-Facebook graph "
      "when omitted) is cut into an initial part, bulk-built, and insertion and deletion batches "
      "(with duplicates and deletions of absent edges) that end on the whole graph. With "
      "--updates or --temporal the batches come from your file instead, applied on top of FILE "
      "(or of an empty graph when FILE is omitted). Every entry is an undirected edge.",
      "[FILE]", 0, 1);
  cmd.group("Generated stream")("initial-fraction",
                                "Fraction of the entries bulk-built before the first batch",
                                cxxopts::value<double>()->default_value("0.5"), "F")(
      "batch-size", "Entries per batch", cxxopts::value<std::uint64_t>()->default_value("4096"),
      "N")("delete-probability", "Probability that a deletion batch follows an insertion batch",
           cxxopts::value<double>()->default_value("0.5"), "P")(
      "duplicate-fraction", "Fraction of each batch's entries that repeat earlier entries",
      cxxopts::value<double>()->default_value("0.05"),
      "F")("absent-fraction", "Fraction of each deletion batch that names edges not in the graph",
           cxxopts::value<double>()->default_value("0.05"),
           "F")("seed", "Random seed of the stream",
                cxxopts::value<std::uint64_t>()->default_value("1"), "S");
  cmd.group("Your own stream")(
      "updates",
      "Replay an update file ('+ u v [w]', '- u v', '+v u', '-v u' vertex insertions and "
      "erasures, '=' batch boundaries; see README)",
      cxxopts::value<std::string>(), "PATH")(
      "temporal", "Replay a SNAP temporal edge list 'u v t' as insertion batches of --window",
      cxxopts::value<std::string>(), "PATH")("window", "Time units per batch for --temporal",
                                             cxxopts::value<std::uint64_t>(), "W");
  cmd.group("Results")(
      "algo",
      "Results kept up to date after every batch besides the triangle count, a comma list of " +
          tracked_names() + " (per-batch time of each with --verbose and --json)",
      cxxopts::value<std::string>()->default_value("tc"),
      "LIST")("s,source", "Source vertex of bfs and sssp (0-based)",
              cxxopts::value<std::uint64_t>()->default_value("0"), "S");
  cmd.group("Checks")(
      "verify-every",
      "Also check every tracked result (and the count) against the reference after every N "
      "batches (batches then run one at a time); a mismatch exits with code 1",
      cxxopts::value<std::uint64_t>(), "N")(
      "verify",
      "At the end, recount on the backend, count the backend's graph with the reference "
      "(Boost.Graph), compare the graph with a replay of the stream and, for generated streams, "
      "with the reference count of FILE; a mismatch exits with code 1")(
      "v,verbose", "Print one line per batch (on stderr with --json)");
  cmd.add_reader_options(false);
  cmd.add_backend_option(
      "stream runs on the chosen backend; without a GPU, auto picks the reference for small "
      "batches or sparse graphs (below), else cpu.");
  {
    const AutoBackendRule defaults;
    cmd.group("Backend")(
        "auto-min-batch",
        "--backend auto without a GPU: batches smaller than this run on the "
        "reference",
        cxxopts::value<std::uint64_t>()->default_value(std::to_string(defaults.cpu_min_batch)),
        "N")("auto-min-degree",
             "--backend auto without a GPU: graphs of lower average degree run on "
             "the reference",
             cxxopts::value<double>()->default_value(fmt::format("{}", defaults.cpu_min_degree)),
             "D");
  }
  cmd.add_adjacency_option();
  cmd.add_output_options(true);
  cmd.group("Output")("batch-csv", "Write one CSV row per batch (and the initial build) to PATH",
                      cxxopts::value<std::string>(), "PATH");
  auto parsed = cmd.parse(argc, argv);
  if (!parsed) return kExitOk;
  const cxxopts::ParseResult& r = *parsed;

  // ---- check the command line before doing any work ----
  const bool updates = r.count("updates") > 0, temporal = r.count("temporal") > 0;
  const bool generated = !updates && !temporal;
  if (updates && temporal) throw UsageError("give --updates or --temporal, not both");
  if (temporal && !r.count("window")) throw UsageError("--temporal needs --window W");
  if (!temporal && r.count("window")) throw UsageError("--window applies to --temporal only");
  if (!generated) {
    for (const char* o : {"initial-fraction", "batch-size", "delete-probability",
                          "duplicate-fraction", "absent-fraction", "seed"}) {
      if (r.count(o)) {
        throw UsageError(std::string("--") + o +
                         " shapes generated streams; it does not apply with --updates/--temporal");
      }
    }
    if (r.count("compact-ids")) {
      throw UsageError(
          "--compact-ids cannot be combined with --updates/--temporal (their ids "
          "are the graph's 0-based ids)");
    }
  }
  datasets::StreamParams params;
  if (generated) {
    params.initial_fraction = fraction_option(r, "initial-fraction");
    params.batch_size = positive_option(r, "batch-size", kMaxBatchSize);
    params.delete_probability = fraction_option(r, "delete-probability");
    params.duplicate_fraction = fraction_option(r, "duplicate-fraction");
    params.absent_fraction = fraction_option(r, "absent-fraction");
    params.seed = r["seed"].as<std::uint64_t>();
    if (params.duplicate_fraction + params.absent_fraction >= 1) {
      throw UsageError(fmt::format(
          "--duplicate-fraction + --absent-fraction must be below 1 (got {} + {}): a batch "
          "needs room for real updates",
          params.duplicate_fraction, params.absent_fraction));
    }
  }
  const std::uint64_t window = temporal ? positive_option(r, "window") : 0;
  const std::string backend_name = backend_option(r);
  const std::string adjacency = adjacency_option(r, backend_name);
  const bool json_out = r.count("json") > 0, verbose = r.count("verbose") > 0;
  const bool check = r.count("verify") > 0;
  const std::uint64_t verify_every =
      r.count("verify-every") ? positive_option(r, "verify-every") : 0;
  std::vector<AlgorithmSpec> algorithms = parse_algorithms(
      r["algo"].as<std::string>(), static_cast<vertex_t>(r["source"].as<std::uint64_t>()));
  const StreamOutputs outputs = stream_outputs(r, cmd.files());

  // ---- input and stream ----
  std::optional<InputGraph> input;
  // The gpu backend is made first when FILE is the initial graph as read: it copies the file's
  // edges to the device while the file is parsed.
  std::unique_ptr<GraphBackend> early_backend;
  if (!generated && !cmd.files().empty() && resolves_to_gpu(backend_name))
    early_backend = make_backend(backend_name, cpu_threads_option(*parsed), adjacency);
  if (!cmd.files().empty()) {
    input = load_graph(cmd.files()[0], reader_options(r),
                       early_backend ? early_backend->preload_sink() : datasets::EdgeChunkFn{});
  } else if (generated) {
    input = load_graph(bundled_graph_path(), reader_options(r));
  }
  // Weights matter to a tracked sssp only (kept on the cpu backend's float graph): the readers'
  // checks for its storage and for shortest paths, at the line at fault.
  const bool sssp_tracked = std::any_of(algorithms.begin(), algorithms.end(), [](const auto& a) {
    return a.kind == AlgorithmKind::sssp;
  });
  if (input) {
    read_as_undirected(input->read.edges);  // triangle counting reads every entry as undirected
    if (sssp_tracked && input->read.edges.weighted())
      datasets::check_weights(input->read, input->path, datasets::WeightStorage::f32, true);
    if (!sssp_tracked) input->read.edges.weight.clear();  // and ignores weights
  }
  datasets::UpdateReadOptions update_options{.on_wait = print_wait_notice};
  if (sssp_tracked) {
    update_options.weight_storage = datasets::WeightStorage::f32;
    update_options.non_negative_weights = true;
  }
  const auto t_stream = Clock::now();
  datasets::UpdateStream stream;
  std::string stream_source;
  // A large update file is read and parsed while its batches are applied (segments on host
  // threads, batches handed over in order), unless `auto` must see its batch sizes to choose a
  // backend (no GPU). Smaller files are read whole first: their parse is short, and the id-range
  // check then sees the file's real entry count.
  const bool streamed = updates && !(backend_name == "auto" && !gpu_backend_usable()) &&
                        file_bytes(r["updates"].as<std::string>()) >= kStreamFromBytes;
  if (generated) {
    stream = datasets::make_update_stream(input->read.edges, params);
    stream_source = "generated";
  } else if (streamed) {
    stream_source = r["updates"].as<std::string>();
    set_current_input(stream_source);
  } else {
    stream_source = r[updates ? "updates" : "temporal"].as<std::string>();
    set_current_input(stream_source);
    stream = updates ? datasets::read_update_file(stream_source, true, update_options)
                     : datasets::parse_temporal_snap_parallel(
                           datasets::read_file(stream_source, {}, print_wait_notice), window, true,
                           stream_source);
    std::uint64_t entries = stream.initial.size();
    for (const auto& b : stream.batches) entries += b.edges.size();
    check_id_range(stream_source, 0, stream.initial.num_vertices, entries, /*can_compact=*/false);
  }
  if (!generated && input) {
    // FILE is the initial graph; an initial part in the update file (if any) is added to it.
    EdgeList initial = input->read.edges;
    initial.num_vertices = std::max(initial.num_vertices, stream.initial.num_vertices);
    initial.src.insert(initial.src.end(), stream.initial.src.begin(), stream.initial.src.end());
    initial.dst.insert(initial.dst.end(), stream.initial.dst.begin(), stream.initial.dst.end());
    if (initial.weighted()) initial.weight.resize(initial.size(), 1.0);  // as unit_weights
    stream.initial = std::move(initial);
  }
  stream.initial.symmetric = true;
  bool weighted_stream = stream.initial.weighted() || (sssp_tracked && streamed);
  for (const auto& b : stream.batches) weighted_stream = weighted_stream || b.edges.weighted();
  weighted_stream = weighted_stream && sssp_tracked;
  if (!weighted_stream) stream.initial.weight.clear();
  resolve_stream_sources(algorithms, r["source"].as<std::uint64_t>(), streamed ? nullptr : &stream,
                         generated ? "" : stream_source, input ? &*input : nullptr);
  const double stream_seconds = seconds_since(t_stream);

  // ---- run ----
  std::string chosen = backend_name;
  if (chosen == "auto") {
    AutoBackendRule rule;
    rule.cpu_min_batch = r["auto-min-batch"].as<std::uint64_t>();
    rule.cpu_min_degree = r["auto-min-degree"].as<double>();
    std::uint64_t batch = params.batch_size, entries = stream.initial.size();
    if (!generated) {
      batch = 0;  // the largest batch of the file decides
      for (const auto& b : stream.batches) {
        batch = std::max<std::uint64_t>(batch, b.edges.size());
        entries += b.edges.size();
      }
    } else {
      entries = input->read.edges.size();
    }
    const std::uint64_t vertices =
        generated ? input->read.edges.num_vertices : stream.initial.num_vertices;
    chosen = auto_stream_backend_for(rule, vertices, entries, batch, algorithms);
  }
  // A weighted stream with sssp needs a graph that keeps weights: auto takes cpu for it.
  if (weighted_stream && backend_name == "auto" && resolves_to_gpu(chosen)) {
    const std::vector<std::string> usable = usable_backends();
    if (std::find(usable.begin(), usable.end(), "cpu") != usable.end()) {
      chosen = "cpu";
      early_backend.reset();
    }
  }
  std::unique_ptr<GraphBackend> backend =
      early_backend ? std::move(early_backend)
                    : make_backend(chosen, cpu_threads_option(*parsed), adjacency);
  backend->track(algorithms);
  if (weighted_stream && !backend->keeps_weights()) {
    throw UsageError("--algo sssp: the " + backend->name() +
                     " backend's stream graph keeps no weights and the stream is weighted; use "
                     "--backend cpu");
  }
  // A weighted graph: an entry without a weight (an unweighted FILE or insertion) weighs 1.
  const auto unit_weights = [&](EdgeList& edges) {
    if (weighted_stream && !edges.weighted()) edges.weight.assign(edges.size(), 1.0);
  };
  unit_weights(stream.initial);
  const BatchOutcome initial = backend->build(stream.initial);
  std::ostream& lines = json_out || outputs.on_stdout() ? std::cerr : std::cout;
  BatchRunner runner(*backend, verbose, lines, streamed ? 0 : stream.batches.size(),
                     verify_every == 0);
  // --verify-every: the tracked results and the count against the reference of the backend's
  // graph; the first mismatch stops the stream.
  std::size_t submitted = 0, checks_passed = 0;
  const auto check_now = [&](std::uint64_t triangles) {
    const EdgeList graph = backend->export_edges();
    std::string problem = check_against_reference({.kind = AlgorithmKind::tc}, graph, {},
                                                  static_cast<double>(triangles));
    for (const TrackedResult& t : backend->tracked()) {
      if (!problem.empty()) break;
      problem =
          check_against_reference(t.spec, graph, t.values, 0, backend->is_live(t.spec.source));
    }
    if (!problem.empty())
      throw CheckFailed(fmt::format("verification after batch {} failed: {}", submitted, problem));
    ++checks_passed;
    std::cerr << verified_line(submitted, backend->tracked()) << '\n';
  };
  const auto submit = [&](datasets::UpdateBatch& batch) {
    if (batch.kind == datasets::UpdateBatch::Kind::insert) unit_weights(batch.edges);
    runner.submit(batch);
    ++submitted;
    if (verify_every && submitted % verify_every == 0) check_now(runner.last_triangles());
  };
  if (streamed) {
    // Ids are checked batch by batch against the most entries the file can hold (a line is at
    // least 6 bytes; gzip expands at most ~1032x): a bound, as the file is not read yet.
    const std::uint64_t most_entries = most_update_entries(stream_source);
    (void)datasets::for_each_update_batch_in_file(
        stream_source, true,
        [&](datasets::UpdateBatch&& batch) {
          check_id_range(stream_source, 0, batch.edges.num_vertices, most_entries,
                         /*can_compact=*/false);
          submit(batch);
          stream.initial.num_vertices =
              std::max(stream.initial.num_vertices, batch.edges.num_vertices);
          if (check) {  // kept for --verify's replay
            batch.edges.weight.clear();
            stream.batches.push_back(std::move(batch));
          }
        },
        update_options);
  } else {
    for (datasets::UpdateBatch& batch : stream.batches) {
      batch.edges.symmetric = true;
      submit(batch);
    }
  }
  if (verify_every && submitted % verify_every) check_now(runner.last_triangles());
  const std::vector<BatchRecord> records = runner.finish();
  const std::uint64_t final_count =
      records.empty() ? initial.triangles : records.back().outcome.triangles;

  // ---- summary ----
  double batch_seconds = 0, insert_seconds = 0, erase_seconds = 0;
  std::uint64_t updates_applied = 0, inserted = 0, erased = 0, insert_batches = 0;
  std::uint64_t vertex_batches = 0;  // vertex insertions and erasures (update files)
  for (const auto& b : records) {
    batch_seconds += b.outcome.seconds;
    updates_applied += b.size;
    if (b.kind != std::string_view("insert") && b.kind != std::string_view("erase")) {
      ++vertex_batches;
    } else if (b.insert) {
      ++insert_batches;
      inserted += b.size;
      insert_seconds += b.outcome.seconds;
    } else {
      erased += b.size;
      erase_seconds += b.outcome.seconds;
    }
  }
  // Per tracked result (--algo): its static computation at build, its updates over the batches.
  struct AlgorithmTotals {
    AlgorithmKind kind;
    double initial_seconds = 0, batch_seconds = 0, summary = 0;
    std::uint64_t recomputed = 0;
  };
  std::vector<AlgorithmTotals> totals;
  for (const AlgorithmOutcome& a : initial.algorithms)
    totals.push_back({.kind = a.kind, .initial_seconds = a.seconds, .summary = a.summary});
  for (const auto& b : records) {
    for (const AlgorithmOutcome& a : b.outcome.algorithms) {
      auto it = std::find_if(totals.begin(), totals.end(),
                             [&](const AlgorithmTotals& t) { return t.kind == a.kind; });
      if (it == totals.end()) it = totals.insert(totals.end(), {.kind = a.kind});
      it->batch_seconds += a.seconds;
      it->recomputed += a.recomputed;
      it->summary = a.summary;
    }
  }
  std::optional<Verification> verification;
  if (check) {
    verification =
        verify_stream(*backend, final_count, stream, generated ? &input->read.edges : nullptr);
    const std::vector<TrackedResult> tracked = backend->tracked();
    if (!tracked.empty()) {
      const EdgeList graph = backend->export_edges();
      for (const TrackedResult& t : tracked) {
        const std::string problem =
            check_against_reference(t.spec, graph, t.values, 0, backend->is_live(t.spec.source));
        if (!problem.empty()) verification->problems.push_back(problem);
      }
    }
  }
  const bool verified_ok = verification && verification->problems.empty();
  if (outputs.per_vertex)
    write_stream_results(*outputs.per_vertex, *backend, input ? &*input : nullptr);
  if (outputs.batch_csv)
    write_batch_csv(*outputs.batch_csv, stream.initial.size(), initial, records);

  if (json_out) {
    json j{{"command", "stream"},
           {"backend", backend->name()},
           {"backend_startup_seconds", backend->startup_seconds()}};
    if (input) {
      j["input"] = {{"file", input->path},
                    {"format", format_name(input->read.format)},
                    {"vertices", input->read.edges.num_vertices},
                    {"entries", input->read.edges.size()},
                    {"read_seconds", input->read_seconds}};
    } else {
      j["input"] = nullptr;
    }
    j["stream"] = {{"source", generated ? "generated"
                              : updates ? "updates"
                                        : "temporal"},
                   {"seconds", stream_seconds}};
    if (generated) {
      j["stream"]["params"] = {{"initial_fraction", params.initial_fraction},
                               {"batch_size", params.batch_size},
                               {"delete_probability", params.delete_probability},
                               {"duplicate_fraction", params.duplicate_fraction},
                               {"absent_fraction", params.absent_fraction},
                               {"seed", params.seed}};
    } else {
      j["stream"]["file"] = stream_source;
      if (temporal) j["stream"]["window"] = window;
    }
    j["initial"] = {{"entries", stream.initial.size()},
                    {"edges", initial.edges_changed},
                    {"triangles", initial.triangles},
                    {"seconds", initial.seconds}};
    json batches = json::array();
    for (const auto& b : records) {
      batches.push_back({{"index", b.index},
                         {"kind", b.kind},
                         {"size", b.size},
                         {"edges_changed", b.outcome.edges_changed},
                         {"triangles", b.outcome.triangles},
                         {"seconds", b.outcome.seconds}});
      if (!b.outcome.algorithms.empty()) {
        json& algos = batches.back()["algorithms"] = json::array();
        for (const AlgorithmOutcome& a : b.outcome.algorithms)
          algos.push_back(algorithm_outcome_json(a));
      }
    }
    j["batches"] = std::move(batches);
    j["summary"] = {{"vertices", backend->num_vertices()},
                    {"edges", backend->num_edges()},
                    {"batches", records.size()},
                    {"insert_batches", insert_batches},
                    {"erase_batches", records.size() - insert_batches - vertex_batches},
                    {"vertex_batches", vertex_batches},
                    {"updates", updates_applied},
                    {"triangles", final_count},
                    {"seconds", batch_seconds},
                    {"updates_per_second",
                     batch_seconds > 0 ? json(updates_applied / batch_seconds) : json(nullptr)}};
    if (!totals.empty()) {
      json algos = json::array();
      for (const AlgorithmTotals& t : totals) {
        algos.push_back({{"algo", algorithm_name(t.kind)},
                         {"initial_seconds", t.initial_seconds},
                         {"batch_seconds", t.batch_seconds},
                         {"recomputed_batches", t.recomputed},
                         {"summary", t.summary},
                         {"summary_name", summary_names(t.kind).key}});
      }
      j["algorithms"] = std::move(algos);
    }
    j["pipeline"] = runner.stages_json();
    j["pipeline"]["seconds"] = runner.elapsed();
    j["pipeline"]["updates_per_second"] =
        runner.elapsed() > 0 ? json(updates_applied / runner.elapsed()) : json(nullptr);
    j["triangles"] = final_count;
    if (verification) {
      json v{{"recount", verification->recount},
             {"reference", verification->reference},
             {"edges_match_replay", verification->edges_match},
             {"ok", verified_ok},
             {"problems", verification->problems}};
      v["input_reference"] =
          verification->input_reference ? json(*verification->input_reference) : json(nullptr);
      j["verification"] = std::move(v);
    }
    // true or false once a check ran (--verify, or --verify-every: a failed one exits 1).
    j["verified"] = verification ? json(verified_ok) : checks_passed ? json(true) : json(nullptr);
    if (verify_every)
      j["verify_every"] = {{"every", verify_every}, {"checks_passed", checks_passed}};
    print_json(j);
  } else {
    if (input) {
      print_row(
          "input",
          fmt::format("{}: {}, {}, {} (read in {})", input->path, describe_format(input->read),
                      count_noun(input->read.edges.num_vertices, "vertex", "vertices"),
                      count_noun(input->read.edges.size(), "entry", "entries"),
                      format_ms(input->read_seconds)));
    }
    if (!generated) print_row(updates ? "updates" : "temporal", stream_source);
    print_row("backend", backend_row(backend->name(), backend->startup_seconds()));
    print_row("initial",
              fmt::format("{}, {} (built in {})", count_noun(initial.edges_changed, "edge"),
                          count_noun(initial.triangles, "triangle"), format_ms(initial.seconds)));
    print_row("batches",
              fmt::format("{}: {} insert, {} erase{}; {} ({} inserted, {} erased)", records.size(),
                          insert_batches, records.size() - insert_batches - vertex_batches,
                          vertex_batches ? fmt::format(", {} vertex", vertex_batches) : "",
                          count_noun(updates_applied, "update"), inserted, erased));
    print_row("final",
              fmt::format("{}, {}", count_noun(backend->num_vertices(), "vertex", "vertices"),
                          count_noun(backend->num_edges(), "edge")));
    print_row("time",
              fmt::format("{} in batches: {} (insert {}, erase {})", format_ms(batch_seconds),
                          rate_text(static_cast<double>(updates_applied), batch_seconds),
                          rate_text(static_cast<double>(inserted), insert_seconds),
                          rate_text(static_cast<double>(erased), erase_seconds)));
    if (runner.pipelined()) {
      print_row("pipeline",
                fmt::format("{} end to end: {}, limited by {}", format_ms(runner.elapsed()),
                            rate_text(static_cast<double>(updates_applied), runner.elapsed()),
                            runner.limiting_stage()));
    }
    for (const AlgorithmTotals& t : totals) {
      print_row(algorithm_name(t.kind),
                fmt::format("{} {}, {} at build, {} in batches ({:.3f} ms a batch), {} recomputed",
                            summary_names(t.kind).label, t.summary, format_ms(t.initial_seconds),
                            format_ms(t.batch_seconds),
                            records.empty() ? 0.0 : 1e3 * t.batch_seconds / records.size(),
                            t.recomputed));
    }
    // The result line, unpadded: "triangles: 1612010 (verified against reference)".
    if (!verification) {
      std::cout << "triangles: " << final_count << '\n';
    } else if (verified_ok) {
      std::cout << "triangles: " << final_count << " (verified against reference)\n";
    } else {
      std::cout << "triangles: " << final_count << " (VERIFICATION FAILED)\n";
    }
  }
  std::cout << std::flush;
  if (verification && !verified_ok) {
    std::string all;
    for (const auto& p : verification->problems) all += (all.empty() ? "" : "; ") + p;
    throw CheckFailed("verification failed: " + all);
  }
  return kExitOk;
}

}  // namespace wg::cli
