#pragma once
// Pieces shared by the subcommands of the `warpgraph` CLI: option parsing with per-command
// help, graph loading with a progress line, vertex-id translation, output helpers.
//
// Conventions every command follows:
//  - results go to stdout: readable text, or with --json exactly one JSON document, written
//    only once the command has succeeded (an error never leaves partial JSON);
//  - errors are exceptions caught in main(), which prints "warpgraph: <message>" on stderr and
//    returns kExitUsage for UsageError (and cxxopts errors), kExitFailure for everything else;
//  - progress lines go to stderr only when stderr is a terminal.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <cxxopts.hpp>
#include <nlohmann/json.hpp>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/read_graph.hpp>

namespace wg::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

/// A bad command line (unknown option, missing FILE, out-of-range value): exit code 2.
class UsageError : public Error {
 public:
  using Error::Error;
};

/// The command ran and printed its results, but a check failed (stream --verify): exit code 1.
class CheckFailed : public Error {
 public:
  using Error::Error;
};

/// Subcommand entry points: argv[0] is the subcommand's name. Return the exit code.
int run_info(int argc, const char* const* argv);
int run_stream(int argc, const char* const* argv);

// ---- option parsing ---------------------------------------------------------------------------

/// One subcommand's options. Options are added through `options` (cxxopts); the positional
/// arguments are collected and counted by parse().
class CommandOptions {
 public:
  /// `positional` names the positional arguments for the usage line ("FILE", "[FILE]");
  /// between min_files and max_files of them are accepted.
  CommandOptions(const std::string& command, const std::string& description,
                 const std::string& positional, std::size_t min_files, std::size_t max_files);

  cxxopts::Options options;

  /// Options of a named group, listed in --help in the order the groups were first added.
  cxxopts::OptionAdder group(const std::string& name);
  /// Adds --format and --compact-ids (and --directed when `directed`).
  void add_reader_options(bool directed);
  /// Adds --backend with a help text; `note` says what the command runs on.
  void add_backend_option(const std::string& note);
  /// Adds --adjacency (the gpu backend's: slab or btree).
  void add_adjacency_option();
  /// Adds --json (and --output when `output_file`, for per-vertex results).
  void add_output_options(bool output_file);

  /// Parses; prints the help on stdout and returns nullopt for --help. Throws UsageError.
  std::optional<cxxopts::ParseResult> parse(int argc, const char* const* argv);
  /// The positional arguments of the last parse().
  const std::vector<std::string>& files() const { return files_; }
  /// The subcommand's name ("bfs", ...).
  const std::string& command() const { return command_; }
  /// "see 'warpgraph tc --help'"
  std::string see_help() const;

 private:
  std::string command_;
  std::size_t min_files_, max_files_;
  std::vector<std::string> groups_;
  std::vector<std::string> files_;
};

/// Value of an option, with range checks that throw UsageError naming the option.
double fraction_option(const cxxopts::ParseResult& r, const std::string& name);
/// At least 1 and at most `max` (a UsageError names the option and the bound).
std::uint64_t positive_option(const cxxopts::ParseResult& r, const std::string& name,
                              std::uint64_t max = UINT64_MAX);

/// The backend name of --backend, checked for every command alike: an unknown name, or one that
/// cannot run here (not built, or gpu without a CUDA device), is a UsageError listing the
/// usable names.
std::string backend_option(const cxxopts::ParseResult& r);
/// --adjacency, checked: "slab", or "btree" where this build has it and the backend (--backend
/// `backend`) is gpu or auto; else a UsageError.
std::string adjacency_option(const cxxopts::ParseResult& r, const std::string& backend);
/// --threads: the cpu backend's worker threads (0 = all cores); a usage error above 4096.
unsigned cpu_threads_option(const cxxopts::ParseResult& r);
/// For commands that always run on the reference: checks --backend and returns "reference",
/// noting on stderr when the user asked for another one.
std::string reference_only_backend(const cxxopts::ParseResult& r, const std::string& command);

// ---- input ------------------------------------------------------------------------------------

struct InputGraph {
  std::string path;
  datasets::ReadResult read;
  double read_seconds = 0;
  bool directed = false;  ///< --directed was given (SNAP lines read as arcs; references directed)
};

/// When the id range of a graph (largest id + 1, or a Matrix Market size line) is refused before
/// anything proportional to it is allocated: every backend and reference algorithm stores a few
/// words per id of the range, isolated ids included.
struct IdRangeRule {
  /// Bytes the costliest command stores per id of the range. Measured as peak resident memory
  /// over ids on a 4-edge SNAP file with ids up to 10^7: tc 21 (cpu) / 47 (reference), info
  /// 24, stream --verify 45 (cpu) / 63 (reference).
  std::uint64_t bytes_per_id = 64;
  /// Ranges up to this many ids are always accepted (at most bytes_per_id x 4 Mi = 256 MB).
  std::uint64_t free_ids = std::uint64_t{1} << 22;
  /// Beyond free_ids, the range may hold at most this many ids per entry of the file (an entry
  /// names two ids); sparser ranges are refused with a hint to --compact-ids.
  std::uint64_t ids_per_entry = 32;
};

/// Throws wg::Error "FILE:LINE: ..." (LINE omitted when 0) when `id_range` ids would not fit
/// the memory this process may use (datasets::memory_budget_bytes) or are far more than the
/// `entries` of the file can name; the message suggests --compact-ids where it applies.
void check_id_range(const std::string& file, std::uint64_t line, std::uint64_t id_range,
                    std::uint64_t entries, bool can_compact, const IdRangeRule& rule = {});

/// ReadOptions from --format / --compact-ids / --directed.
datasets::ReadOptions reader_options(const cxxopts::ParseResult& r);
/// Reads a graph file, showing a progress line on stderr for long reads on a terminal, and
/// checks its id range (check_id_range) before returning. on_edges (optional): the edges as
/// they are parsed (datasets::ReadOptions::on_edges; GraphBackend::preload_sink).
InputGraph load_graph(const std::string& path, const datasets::ReadOptions& options,
                      const datasets::EdgeChunkFn& on_edges = {});
/// The readers' on_wait (ReadOptions, UpdateReadOptions): prints the notice ("FILE: waiting for
/// data ...", a FIFO without a writer) as one "warpgraph: " line on stderr, so that a wait is
/// never silent. load_graph and stream's update files use it.
void print_wait_notice(const std::string& notice);
/// The path the readers open for a FILE argument: the path itself, or for "-" a temporary copy
/// of stdin (made once per process, removed at exit; stdin_input.cpp).
std::string readable_input_path(const std::string& path);
/// The file being read or processed, for messages that have no other context (main's
/// out-of-memory message); set by load_graph and by stream for its update files.
void set_current_input(const std::string& path);
const std::string& current_input();

/// "SNAP edge list" / "Matrix Market coordinate pattern symmetric"
std::string describe_format(const datasets::ReadResult& read);
/// Short format name for JSON: "snap" / "matrix_market".
std::string format_name(datasets::FileFormat f);

/// Vertex ids on the command line and in output are the library's 0-based ids (Matrix Market
/// file id minus one), or the file's original ids under --compact-ids.
vertex_t vertex_from_user(const InputGraph& g, std::uint64_t id, const std::string& option);
std::uint64_t vertex_to_user(const InputGraph& g, vertex_t v);

// ---- output -----------------------------------------------------------------------------------

bool stderr_is_terminal();

/// A one-line progress display on stderr ("\r..."), drawn only when stderr is a terminal, at
/// most every 100 ms; erased by clear() or on destruction (also when an error unwinds).
class ProgressLine {
 public:
  ProgressLine();
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  bool enabled() const { return enabled_; }
  void show(const std::string& text, bool force = false);
  void clear();

 private:
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

/// "1 edge", "2 edges" (plural: singular + "s" unless given).
std::string count_noun(std::uint64_t n, const std::string& singular,
                       const std::string& plural = "");
/// `message` with control bytes (below 0x20, and 0x7f) written as \xNN: one line, whatever
/// the input held. Printable ASCII and UTF-8 pass unchanged.
std::string one_line(const std::string& message);

/// Prints "key:       value" (keys padded to one column) on stdout.
void print_row(const std::string& key, const std::string& value);
/// "12.34 ms"
std::string format_ms(double seconds);
/// The "backend" row: its name, and the time it took to start when it took any ("gpu (device
/// started in 98.1 ms)"), which no build or batch time includes.
std::string backend_row(const std::string& name, double startup_seconds);

/// Prints a JSON document on stdout (indent 2, trailing newline).
void print_json(const nlohmann::json& doc);

/// Milliseconds since t0.
double ms_since(std::chrono::steady_clock::time_point t0);
double seconds_since(std::chrono::steady_clock::time_point t0);

/// Opens an output file for writing ("-": stdout) or throws wg::Error naming it.
class OutputFile {
 public:
  explicit OutputFile(const std::string& path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  void write(const std::string& text);
  /// Flushes and checks for write errors (throws naming the file). Closing stdout sends
  /// std::cout to stderr: what the command prints afterwards is its summary, not the rows.
  void close();

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
};

}  // namespace wg::cli
