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

/// stream's options (its --help, in groups).
void add_stream_options(CommandOptions& cmd) {
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
  const AutoBackendRule defaults;
  cmd.group("Backend")(
      "auto-min-batch",
      "--backend auto without a GPU: batches smaller than this run on the "
      "reference",
      cxxopts::value<std::uint64_t>()->default_value(std::to_string(defaults.cpu_min_batch)), "N")(
      "auto-min-degree",
      "--backend auto without a GPU: graphs of lower average degree run on "
      "the reference",
      cxxopts::value<double>()->default_value(fmt::format("{}", defaults.cpu_min_degree)), "D");
  cmd.add_adjacency_option();
  cmd.add_output_options(true);
  cmd.group("Output")("batch-csv", "Write one CSV row per batch (and the initial build) to PATH",
                      cxxopts::value<std::string>(), "PATH");
}

/// What the command line asks for, checked before any work.
struct StreamRequest {
  bool updates = false, temporal = false, generated = true;
  datasets::StreamParams params;
  std::uint64_t window = 0;
  std::string backend_name, adjacency;
  bool json_out = false, verbose = false, check = false;
  std::uint64_t verify_every = 0;
  std::vector<AlgorithmSpec> algorithms;
  StreamOutputs outputs;
  /// The tracked result whose entry reads_weights (sssp), if any: weights matter to it only.
  const char* weights_reader = nullptr;
};

/// The generated stream's shape (--initial-fraction ... --seed), checked.
datasets::StreamParams generated_params(const cxxopts::ParseResult& r) {
  datasets::StreamParams params;
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
  return params;
}

StreamRequest read_request(const cxxopts::ParseResult& r, const std::vector<std::string>& files) {
  StreamRequest q;
  q.updates = r.count("updates") > 0;
  q.temporal = r.count("temporal") > 0;
  q.generated = !q.updates && !q.temporal;
  if (q.updates && q.temporal) throw UsageError("give --updates or --temporal, not both");
  if (q.temporal && !r.count("window")) throw UsageError("--temporal needs --window W");
  if (!q.temporal && r.count("window")) throw UsageError("--window applies to --temporal only");
  if (!q.generated) {
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
  if (q.generated) q.params = generated_params(r);
  q.window = q.temporal ? positive_option(r, "window") : 0;
  q.backend_name = backend_option(r);
  q.adjacency = adjacency_option(r, q.backend_name);
  q.json_out = r.count("json") > 0;
  q.verbose = r.count("verbose") > 0;
  q.check = r.count("verify") > 0;
  q.verify_every = r.count("verify-every") ? positive_option(r, "verify-every") : 0;
  q.algorithms = parse_algorithms(r["algo"].as<std::string>(),
                                  static_cast<vertex_t>(r["source"].as<std::uint64_t>()));
  q.outputs = stream_outputs(r, files);
  for (const AlgorithmSpec& a : q.algorithms)
    if (!q.weights_reader && reads_weights(a.kind)) q.weights_reader = algorithm_name(a.kind);
  return q;
}

/// The input graph and the stream of batches made from it or read.
struct StreamInput {
  std::optional<InputGraph> input;
  /// The gpu backend, made before FILE is read when FILE is the initial graph as read: it
  /// copies the file's edges to the device while the file is parsed.
  std::unique_ptr<GraphBackend> early_backend;
  datasets::UpdateReadOptions update_options;
  datasets::UpdateStream stream;
  std::string stream_source;
  /// A large update file, read and parsed while its batches are applied.
  bool streamed = false;
  bool weighted_stream = false;
  double seconds = 0;  ///< making or reading the stream
};

/// Reads FILE (or the bundled graph for a generated stream) with the readers' weight checks.
void read_input_graph(const StreamRequest& q, const cxxopts::ParseResult& r,
                      const std::vector<std::string>& files, StreamInput& in) {
  if (!q.generated && !files.empty() && resolves_to_gpu(q.backend_name))
    in.early_backend = make_backend(q.backend_name, cpu_threads_option(r), q.adjacency);
  if (!files.empty()) {
    in.input =
        load_graph(files[0], reader_options(r),
                   in.early_backend ? in.early_backend->preload_sink() : datasets::EdgeChunkFn{});
  } else if (q.generated) {
    in.input = load_graph(bundled_graph_path(), reader_options(r));
  }
  // The readers' checks for the weights' storage and for shortest paths, at the line at fault,
  // when a tracked result reads them.
  if (in.input) {
    read_as_undirected(in.input->read.edges);  // triangle counting reads every entry as undirected
    if (q.weights_reader && in.input->read.edges.weighted())
      datasets::check_weights(in.input->read, in.input->path, datasets::WeightStorage::f32, true);
    if (!q.weights_reader) in.input->read.edges.weight.clear();  // and ignores weights
  }
  in.update_options = {.on_wait = print_wait_notice};
  if (q.weights_reader) {
    in.update_options.weight_storage = datasets::WeightStorage::f32;
    in.update_options.non_negative_weights = true;
  }
}

/// Makes or reads the stream (a large update file: only its name, read later), puts FILE under
/// its initial part and settles its weights and the tracked sources.
void read_stream(const StreamRequest& q, const cxxopts::ParseResult& r, StreamInput& in) {
  datasets::UpdateStream& stream = in.stream;
  // A large update file is read and parsed while its batches are applied (segments on host
  // threads, batches handed over in order), unless `auto` must see its batch sizes to choose a
  // backend (no GPU). Smaller files are read whole first: their parse is short, and the id-range
  // check then sees the file's real entry count.
  in.streamed = q.updates && !(q.backend_name == "auto" && !gpu_backend_usable()) &&
                file_bytes(r["updates"].as<std::string>()) >= kStreamFromBytes;
  if (q.generated) {
    stream = datasets::make_update_stream(in.input->read.edges, q.params);
    in.stream_source = "generated";
  } else if (in.streamed) {
    in.stream_source = r["updates"].as<std::string>();
    set_current_input(in.stream_source);
  } else {
    in.stream_source = r[q.updates ? "updates" : "temporal"].as<std::string>();
    set_current_input(in.stream_source);
    stream = q.updates ? datasets::read_update_file(in.stream_source, true, in.update_options)
                       : datasets::parse_temporal_snap_parallel(
                             datasets::read_file(in.stream_source, {}, print_wait_notice), q.window,
                             true, in.stream_source);
    std::uint64_t entries = stream.initial.size();
    for (const auto& b : stream.batches) entries += b.edges.size();
    check_id_range(in.stream_source, 0, stream.initial.num_vertices, entries,
                   /*can_compact=*/false);
  }
  if (!q.generated && in.input) {
    // FILE is the initial graph; an initial part in the update file (if any) is added to it.
    EdgeList initial = in.input->read.edges;
    initial.num_vertices = std::max(initial.num_vertices, stream.initial.num_vertices);
    initial.src.insert(initial.src.end(), stream.initial.src.begin(), stream.initial.src.end());
    initial.dst.insert(initial.dst.end(), stream.initial.dst.begin(), stream.initial.dst.end());
    if (initial.weighted()) initial.weight.resize(initial.size(), 1.0);  // as unit_weights
    stream.initial = std::move(initial);
  }
  stream.initial.symmetric = true;
  bool weighted = stream.initial.weighted() || (q.weights_reader && in.streamed);
  for (const auto& b : stream.batches) weighted = weighted || b.edges.weighted();
  in.weighted_stream = weighted && q.weights_reader;
  if (!in.weighted_stream) stream.initial.weight.clear();
}

/// The backend the stream runs on (--backend, auto's rule), tracking the --algo results.
std::unique_ptr<GraphBackend> make_stream_backend(const StreamRequest& q,
                                                  const cxxopts::ParseResult& r, StreamInput& in) {
  std::string chosen = q.backend_name;
  if (chosen == "auto") {
    AutoBackendRule rule;
    rule.cpu_min_batch = r["auto-min-batch"].as<std::uint64_t>();
    rule.cpu_min_degree = r["auto-min-degree"].as<double>();
    std::uint64_t batch = q.params.batch_size, entries = in.stream.initial.size();
    if (!q.generated) {
      batch = 0;  // the largest batch of the file decides
      for (const auto& b : in.stream.batches) {
        batch = std::max<std::uint64_t>(batch, b.edges.size());
        entries += b.edges.size();
      }
    } else {
      entries = in.input->read.edges.size();
    }
    const std::uint64_t vertices =
        q.generated ? in.input->read.edges.num_vertices : in.stream.initial.num_vertices;
    chosen = auto_stream_backend_for(rule, vertices, entries, batch, q.algorithms);
  }
  // A weighted stream whose results read weights needs a graph that keeps them: auto takes cpu.
  if (in.weighted_stream && q.backend_name == "auto" && resolves_to_gpu(chosen)) {
    const std::vector<std::string> usable = usable_backends();
    if (std::find(usable.begin(), usable.end(), "cpu") != usable.end()) {
      chosen = "cpu";
      in.early_backend.reset();
    }
  }
  std::unique_ptr<GraphBackend> backend =
      in.early_backend ? std::move(in.early_backend)
                       : make_backend(chosen, cpu_threads_option(r), q.adjacency);
  backend->track(q.algorithms);
  if (in.weighted_stream && !backend->keeps_weights()) {
    throw UsageError(std::string("--algo ") + q.weights_reader + ": the " + backend->name() +
                     " backend's stream graph keeps no weights and the stream is weighted; use "
                     "--backend cpu");
  }
  return backend;
}

/// A weighted graph: an entry without a weight (an unweighted FILE or insertion) weighs 1.
void unit_weights(const StreamInput& in, EdgeList& edges) {
  if (in.weighted_stream && !edges.weighted()) edges.weight.assign(edges.size(), 1.0);
}

/// --verify-every's check: the count and the tracked results against the reference of the
/// backend's graph after batch `submitted`; the first mismatch stops the stream.
void check_stream_now(GraphBackend& backend, std::uint64_t triangles, std::size_t submitted) {
  const EdgeList graph = backend.export_edges();
  std::string problem = check_against_reference({.kind = AlgorithmKind::tc}, graph, {},
                                                static_cast<double>(triangles));
  for (const TrackedResult& t : backend.tracked()) {
    if (!problem.empty()) break;
    problem = check_against_reference(t.spec, graph, t.values, 0, backend.is_live(t.spec.source));
  }
  if (!problem.empty())
    throw CheckFailed(fmt::format("verification after batch {} failed: {}", submitted, problem));
  std::cerr << verified_line(submitted, backend.tracked()) << '\n';
}

/// Submits every batch to `runner` (a large update file as it is read); returns the number of
/// --verify-every checks passed.
std::size_t run_batches(const StreamRequest& q, StreamInput& in, GraphBackend& backend,
                        BatchRunner& runner) {
  std::size_t submitted = 0, checks_passed = 0;
  const auto submit = [&](datasets::UpdateBatch& batch) {
    if (batch.kind == datasets::UpdateBatch::Kind::insert) unit_weights(in, batch.edges);
    runner.submit(batch);
    ++submitted;
    if (q.verify_every && submitted % q.verify_every == 0) {
      check_stream_now(backend, runner.last_triangles(), submitted);
      ++checks_passed;
    }
  };
  if (in.streamed) {
    // Ids are checked batch by batch against the most entries the file can hold: a bound, as
    // the file is not read yet.
    const std::uint64_t most_entries = most_update_entries(in.stream_source);
    (void)datasets::for_each_update_batch_in_file(
        in.stream_source, true,
        [&](datasets::UpdateBatch&& batch) {
          check_id_range(in.stream_source, 0, batch.edges.num_vertices, most_entries,
                         /*can_compact=*/false);
          submit(batch);
          in.stream.initial.num_vertices =
              std::max(in.stream.initial.num_vertices, batch.edges.num_vertices);
          if (q.check) {  // kept for --verify's replay
            batch.edges.weight.clear();
            in.stream.batches.push_back(std::move(batch));
          }
        },
        in.update_options);
  } else {
    for (datasets::UpdateBatch& batch : in.stream.batches) {
      batch.edges.symmetric = true;
      submit(batch);
    }
  }
  if (q.verify_every && submitted % q.verify_every) {
    check_stream_now(backend, runner.last_triangles(), submitted);
    ++checks_passed;
  }
  return checks_passed;
}

/// Per tracked result (--algo): its static computation at build, its updates over the batches.
struct AlgorithmTotals {
  AlgorithmKind kind;
  double initial_seconds = 0, batch_seconds = 0, summary = 0;
  std::uint64_t recomputed = 0;
};

/// The batches summed up.
struct StreamTotals {
  double batch_seconds = 0, insert_seconds = 0, erase_seconds = 0;
  std::uint64_t updates_applied = 0, inserted = 0, erased = 0, insert_batches = 0;
  std::uint64_t vertex_batches = 0;  ///< vertex insertions and erasures (update files)
  std::vector<AlgorithmTotals> algorithms;
  std::uint64_t erase_batches(std::size_t batches) const {
    return batches - insert_batches - vertex_batches;
  }
};

StreamTotals sum_batches(const BatchOutcome& initial, const std::vector<BatchRecord>& records) {
  StreamTotals t;
  for (const auto& b : records) {
    t.batch_seconds += b.outcome.seconds;
    t.updates_applied += b.size;
    if (b.kind != std::string_view("insert") && b.kind != std::string_view("erase")) {
      ++t.vertex_batches;
    } else if (b.insert) {
      ++t.insert_batches;
      t.inserted += b.size;
      t.insert_seconds += b.outcome.seconds;
    } else {
      t.erased += b.size;
      t.erase_seconds += b.outcome.seconds;
    }
  }
  for (const AlgorithmOutcome& a : initial.algorithms)
    t.algorithms.push_back({.kind = a.kind, .initial_seconds = a.seconds, .summary = a.summary});
  for (const auto& b : records) {
    for (const AlgorithmOutcome& a : b.outcome.algorithms) {
      auto it = std::find_if(t.algorithms.begin(), t.algorithms.end(),
                             [&](const AlgorithmTotals& x) { return x.kind == a.kind; });
      if (it == t.algorithms.end()) it = t.algorithms.insert(t.algorithms.end(), {.kind = a.kind});
      it->batch_seconds += a.seconds;
      it->recomputed += a.recomputed;
      it->summary = a.summary;
    }
  }
  return t;
}

/// --verify: the final count and graph (stream_check.hpp), then every tracked result against
/// the reference on the backend's graph.
Verification verify_all(const StreamRequest& q, const StreamInput& in, GraphBackend& backend,
                        std::uint64_t final_count) {
  Verification v =
      verify_stream(backend, final_count, in.stream, q.generated ? &in.input->read.edges : nullptr);
  const std::vector<TrackedResult> tracked = backend.tracked();
  if (!tracked.empty()) {
    const EdgeList graph = backend.export_edges();
    for (const TrackedResult& t : tracked) {
      const std::string problem =
          check_against_reference(t.spec, graph, t.values, 0, backend.is_live(t.spec.source));
      if (!problem.empty()) v.problems.push_back(problem);
    }
  }
  return v;
}

/// Everything the report prints.
struct StreamReport {
  const StreamRequest& q;
  const StreamInput& in;
  GraphBackend& backend;
  const BatchOutcome& initial;
  const std::vector<BatchRecord>& records;
  const StreamTotals& totals;
  const BatchRunner& runner;
  std::uint64_t final_count = 0;
  const std::optional<Verification>& verification;
  std::size_t checks_passed = 0;
  bool verified_ok() const { return verification && verification->problems.empty(); }
};

/// The JSON document's input and stream parts.
void input_and_stream_json(const StreamReport& s, json& j) {
  const StreamRequest& q = s.q;
  if (s.in.input) {
    const InputGraph& input = *s.in.input;
    j["input"] = {{"file", input.path},
                  {"format", format_name(input.read.format)},
                  {"vertices", input.read.edges.num_vertices},
                  {"entries", input.read.edges.size()},
                  {"read_seconds", input.read_seconds}};
  } else {
    j["input"] = nullptr;
  }
  j["stream"] = {{"source", q.generated ? "generated"
                            : q.updates ? "updates"
                                        : "temporal"},
                 {"seconds", s.in.seconds}};
  if (q.generated) {
    j["stream"]["params"] = {{"initial_fraction", q.params.initial_fraction},
                             {"batch_size", q.params.batch_size},
                             {"delete_probability", q.params.delete_probability},
                             {"duplicate_fraction", q.params.duplicate_fraction},
                             {"absent_fraction", q.params.absent_fraction},
                             {"seed", q.params.seed}};
  } else {
    j["stream"]["file"] = s.in.stream_source;
    if (q.temporal) j["stream"]["window"] = q.window;
  }
}

/// The JSON document's batches, summary, algorithms and pipeline parts.
void batches_json(const StreamReport& s, json& j) {
  const StreamTotals& t = s.totals;
  json batches = json::array();
  for (const auto& b : s.records) {
    batches.push_back({{"index", b.index},
                       {"kind", b.kind},
                       {"size", b.size},
                       {"edges_changed", b.outcome.edges_changed},
                       {BackendCount::stream_key, b.outcome.triangles},
                       {"seconds", b.outcome.seconds}});
    if (!b.outcome.algorithms.empty()) {
      json& algos = batches.back()["algorithms"] = json::array();
      for (const AlgorithmOutcome& a : b.outcome.algorithms)
        algos.push_back(algorithm_outcome_json(a));
    }
  }
  j["batches"] = std::move(batches);
  j["summary"] = {
      {"vertices", s.backend.num_vertices()},
      {"edges", s.backend.num_edges()},
      {"batches", s.records.size()},
      {"insert_batches", t.insert_batches},
      {"erase_batches", t.erase_batches(s.records.size())},
      {"vertex_batches", t.vertex_batches},
      {"updates", t.updates_applied},
      {BackendCount::stream_key, s.final_count},
      {"seconds", t.batch_seconds},
      {"updates_per_second",
       t.batch_seconds > 0 ? json(t.updates_applied / t.batch_seconds) : json(nullptr)}};
  if (!t.algorithms.empty()) {
    json algos = json::array();
    for (const AlgorithmTotals& a : t.algorithms) {
      algos.push_back({{"algo", algorithm_name(a.kind)},
                       {"initial_seconds", a.initial_seconds},
                       {"batch_seconds", a.batch_seconds},
                       {"recomputed_batches", a.recomputed},
                       {"summary", a.summary},
                       {"summary_name", summary_names(a.kind).key}});
    }
    j["algorithms"] = std::move(algos);
  }
  j["pipeline"] = s.runner.stages_json();
  j["pipeline"]["seconds"] = s.runner.elapsed();
  j["pipeline"]["updates_per_second"] =
      s.runner.elapsed() > 0 ? json(t.updates_applied / s.runner.elapsed()) : json(nullptr);
}

void print_stream_json(const StreamReport& s) {
  json j{{"command", "stream"},
         {"backend", s.backend.name()},
         {"backend_startup_seconds", s.backend.startup_seconds()}};
  input_and_stream_json(s, j);
  j["initial"] = {{"entries", s.in.stream.initial.size()},
                  {"edges", s.initial.edges_changed},
                  {BackendCount::stream_key, s.initial.triangles},
                  {"seconds", s.initial.seconds}};
  batches_json(s, j);
  j[BackendCount::stream_key] = s.final_count;
  if (s.verification) {
    const Verification& v = *s.verification;
    json jv{{"recount", v.recount},
            {"reference", v.reference},
            {"edges_match_replay", v.edges_match},
            {"ok", s.verified_ok()},
            {"problems", v.problems}};
    jv["input_reference"] = v.input_reference ? json(*v.input_reference) : json(nullptr);
    j["verification"] = std::move(jv);
  }
  // true or false once a check ran (--verify, or --verify-every: a failed one exits 1).
  j["verified"] = s.verification    ? json(s.verified_ok())
                  : s.checks_passed ? json(true)
                                    : json(nullptr);
  if (s.q.verify_every)
    j["verify_every"] = {{"every", s.q.verify_every}, {"checks_passed", s.checks_passed}};
  print_json(j);
}

void print_stream_text(const StreamReport& s) {
  const StreamTotals& t = s.totals;
  const std::size_t batches = s.records.size();
  if (const auto& input = s.in.input) {
    print_row("input",
              fmt::format("{}: {}, {}, {} (read in {})", input->path, describe_format(input->read),
                          count_noun(input->read.edges.num_vertices, "vertex", "vertices"),
                          count_noun(input->read.edges.size(), "entry", "entries"),
                          format_ms(input->read_seconds)));
  }
  if (!s.q.generated) print_row(s.q.updates ? "updates" : "temporal", s.in.stream_source);
  print_row("backend", backend_row(s.backend.name(), s.backend.startup_seconds()));
  print_row("initial",
            fmt::format("{}, {} (built in {})", count_noun(s.initial.edges_changed, "edge"),
                        count_noun(s.initial.triangles, "triangle"), format_ms(s.initial.seconds)));
  print_row("batches",
            fmt::format("{}: {} insert, {} erase{}; {} ({} inserted, {} erased)", batches,
                        t.insert_batches, t.erase_batches(batches),
                        t.vertex_batches ? fmt::format(", {} vertex", t.vertex_batches) : "",
                        count_noun(t.updates_applied, "update"), t.inserted, t.erased));
  print_row("final",
            fmt::format("{}, {}", count_noun(s.backend.num_vertices(), "vertex", "vertices"),
                        count_noun(s.backend.num_edges(), "edge")));
  print_row("time",
            fmt::format("{} in batches: {} (insert {}, erase {})", format_ms(t.batch_seconds),
                        rate_text(static_cast<double>(t.updates_applied), t.batch_seconds),
                        rate_text(static_cast<double>(t.inserted), t.insert_seconds),
                        rate_text(static_cast<double>(t.erased), t.erase_seconds)));
  if (s.runner.pipelined()) {
    print_row("pipeline",
              fmt::format("{} end to end: {}, limited by {}", format_ms(s.runner.elapsed()),
                          rate_text(static_cast<double>(t.updates_applied), s.runner.elapsed()),
                          s.runner.limiting_stage()));
  }
  for (const AlgorithmTotals& a : t.algorithms) {
    print_row(algorithm_name(a.kind),
              fmt::format("{} {}, {} at build, {} in batches ({:.3f} ms a batch), {} recomputed",
                          summary_names(a.kind).label, a.summary, format_ms(a.initial_seconds),
                          format_ms(a.batch_seconds),
                          batches == 0 ? 0.0 : 1e3 * a.batch_seconds / batches, a.recomputed));
  }
  // The result line, unpadded: "triangles: 1612010 (verified against reference)".
  std::cout << BackendCount::stream_label << ": " << s.final_count
            << (!s.verification   ? "\n"
                : s.verified_ok() ? " (verified against reference)\n"
                                  : " (VERIFICATION FAILED)\n");
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
  add_stream_options(cmd);
  auto parsed = cmd.parse(argc, argv);
  if (!parsed) return kExitOk;
  const cxxopts::ParseResult& r = *parsed;
  StreamRequest q = read_request(r, cmd.files());
  StreamInput in;
  read_input_graph(q, r, cmd.files(), in);
  {
    const auto t0 = Clock::now();
    read_stream(q, r, in);
    resolve_stream_sources(q.algorithms, r["source"].as<std::uint64_t>(),
                           in.streamed ? nullptr : &in.stream, q.generated ? "" : in.stream_source,
                           in.input ? &*in.input : nullptr);
    in.seconds = seconds_since(t0);
  }
  std::unique_ptr<GraphBackend> backend = make_stream_backend(q, r, in);
  unit_weights(in, in.stream.initial);
  const BatchOutcome initial = backend->build(in.stream.initial);
  std::ostream& lines = q.json_out || q.outputs.on_stdout() ? std::cerr : std::cout;
  BatchRunner runner(*backend, q.verbose, lines, in.streamed ? 0 : in.stream.batches.size(),
                     q.verify_every == 0);
  const std::size_t checks_passed = run_batches(q, in, *backend, runner);
  const std::vector<BatchRecord> records = runner.finish();
  const std::uint64_t final_count =
      records.empty() ? initial.triangles : records.back().outcome.triangles;
  const StreamTotals totals = sum_batches(initial, records);
  std::optional<Verification> verification;
  if (q.check) verification = verify_all(q, in, *backend, final_count);
  if (q.outputs.per_vertex)
    write_stream_results(*q.outputs.per_vertex, *backend, in.input ? &*in.input : nullptr);
  if (q.outputs.batch_csv)
    write_batch_csv(*q.outputs.batch_csv, in.stream.initial.size(), initial, records);
  const StreamReport report{q,      in,     *backend,    initial,      records,
                            totals, runner, final_count, verification, checks_passed};
  if (q.json_out)
    print_stream_json(report);
  else
    print_stream_text(report);
  std::cout << std::flush;
  if (verification && !report.verified_ok()) {
    std::string all;
    for (const auto& p : verification->problems) all += (all.empty() ? "" : "; ") + p;
    throw CheckFailed("verification failed: " + all);
  }
  return kExitOk;
}

}  // namespace wg::cli
