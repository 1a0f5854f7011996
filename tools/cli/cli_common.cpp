#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <warpgraph/datasets/limits.hpp>

#include "backend.hpp"
#include "cli.hpp"

namespace wg::cli {

// ---- option parsing ---------------------------------------------------------------------------

namespace {
/// Breaks text into lines of at most `width` characters at spaces.
std::string wrap_text(const std::string& text, std::size_t width) {
  std::string out, line, word;
  auto flush_word = [&] {
    if (word.empty()) return;
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + '\n';
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    word.clear();
  };
  for (char c : text) {
    if (c == ' ') {
      flush_word();
    } else {
      word += c;
    }
  }
  flush_word();
  return out + line;
}
/// cxxopts says "Argument 'abc' failed to parse" without the option: find it on the command line.
std::string bad_value_message(const std::string& original, int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.size() < 2 || arg[0] != '-') continue;
    const auto eq = arg.find('=');
    if (eq != std::string::npos) {
      const std::string value = arg.substr(eq + 1);
      if (original.find(value) != std::string::npos && !value.empty()) {
        return "invalid value '" + value + "' for " + arg.substr(0, eq);
      }
    } else if (i + 1 < argc && !std::string(argv[i + 1]).empty() &&
               original.find(std::string(argv[i + 1])) != std::string::npos) {
      return "invalid value '" + std::string(argv[i + 1]) + "' for " + arg;
    }
  }
  return original;
}
}  // namespace

CommandOptions::CommandOptions(const std::string& command, const std::string& description,
                               const std::string& positional, std::size_t min_files,
                               std::size_t max_files)
    : options("warpgraph " + command, wrap_text(description, 96) + "\n"),
      command_(command),
      min_files_(min_files),
      max_files_(max_files) {
  options.positional_help(positional).custom_help("[options]").set_width(100);
  options.add_options()("h,help", "Print this help and exit");
  groups_.push_back("");
  options.add_options("positional")("files", "", cxxopts::value<std::vector<std::string>>());
  options.parse_positional({"files"});
}

cxxopts::OptionAdder CommandOptions::group(const std::string& name) {
  if (std::find(groups_.begin(), groups_.end(), name) == groups_.end()) groups_.push_back(name);
  return options.add_options(name);
}

void CommandOptions::add_reader_options(bool directed) {
  auto add = group("Input");
  add("format", "Input format: auto (a '%%MatrixMarket' header means Matrix Market), mm, snap",
      cxxopts::value<std::string>()->default_value("auto"), "FMT");
  add("compact-ids",
      "Renumber sparse ids to 0..n-1 internally; ids on the command line and in the "
      "output stay the file's");
  // Edge lists (SNAP, CSV, TSV): datasets::ReadOptions' columns (Matrix Market ignores them).
  add("delimiter",
      "Edge-list columns separated by: auto (',' when the first data line has one, else "
      "spaces/tabs), whitespace, comma, tab, semicolon",
      cxxopts::value<std::string>()->default_value("auto"), "D");
  add("header",
      "Edge-list header line: auto (skipped when its first field starts with a letter, '_' or "
      "'\"'), skip (always one), none",
      cxxopts::value<std::string>()->default_value("auto"), "H");
  add("src-column", "Edge-list column (0-based) of the source ids",
      cxxopts::value<std::uint64_t>()->default_value("0"), "N");
  add("dst-column", "Edge-list column (0-based) of the target ids",
      cxxopts::value<std::uint64_t>()->default_value("1"), "N");
  add("weight-column",
      "Edge-list column (0-based) of the weights, auto (the column after the ids, when the "
      "lines have it) or none",
      cxxopts::value<std::string>()->default_value("auto"), "N");
  add("ignore-extra-columns",
      "Ignore edge-list columns after the last one used (by default they are an error)");
  if (directed) {
    add("directed",
        "Treat the graph as directed: SNAP lines are arcs u->v and Matrix Market 'general' "
        "files keep their direction (default: every entry is an undirected edge)");
  }
}

void CommandOptions::add_backend_option(const std::string& note) {
  group("Backend")("b,backend",
                   "reference, cpu, gpu or auto (gpu if usable, else cpu, else reference). " + note,
                   cxxopts::value<std::string>()->default_value("auto"),
                   "NAME")("threads", "Worker threads of the cpu backend (0 = all cores)",
                           cxxopts::value<std::uint64_t>()->default_value("0"), "N");
}

void CommandOptions::add_adjacency_option() {
  group("Backend")("adjacency",
                   "The gpu backend's adjacency: slab (hash tables) or btree (sorted, one B-tree "
                   "of (u, v) keys; triangles by sorted intersection)",
                   cxxopts::value<std::string>()->default_value("slab"), "slab|btree");
}

std::string adjacency_option(const cxxopts::ParseResult& r, const std::string& backend) {
  const std::string a = r["adjacency"].as<std::string>();
  if (a == "slab") return a;
  if (a != "btree") throw UsageError("--adjacency must be slab or btree (got '" + a + "')");
  const std::vector<std::string> known = gpu_adjacencies();
  if (std::find(known.begin(), known.end(), a) == known.end())
    throw UsageError("--adjacency btree: not part of this build (it needs the gpu backend)");
  if (backend != "gpu" && backend != "auto")
    throw UsageError("--adjacency btree needs --backend gpu (got " + backend + ")");
  return a;
}

unsigned cpu_threads_option(const cxxopts::ParseResult& r) {
  const std::uint64_t n = r["threads"].as<std::uint64_t>();
  if (n > 4096) throw UsageError("--threads must be at most 4096 (0 = all cores)");
  return static_cast<unsigned>(n);
}

void CommandOptions::add_output_options(bool output_file) {
  auto add = group("Output");
  add("json", "Print one JSON document on stdout instead of text");
  if (output_file) {
    add("o,output",
        "Also write one row per vertex (its id, then the values) to PATH ('-': stdout, the "
        "summary then goes to stderr); never to an input file",
        cxxopts::value<std::string>(), "PATH");
    add("output-format", "text (space-separated), csv, tsv or json; default by PATH's extension",
        cxxopts::value<std::string>(), "FMT");
  }
}

std::string CommandOptions::see_help() const {
  return "see 'warpgraph " + command_ + " --help'";
}

std::optional<cxxopts::ParseResult> CommandOptions::parse(int argc, const char* const* argv) {
  std::optional<cxxopts::ParseResult> result;
  try {
    result = options.parse(argc, argv);
  } catch (const cxxopts::exceptions::incorrect_argument_type& e) {
    throw UsageError(bad_value_message(e.what(), argc, argv) + " (" + see_help() + ")");
  } catch (const cxxopts::exceptions::exception& e) {
    throw UsageError(std::string(e.what()) + " (" + see_help() + ")");
  }
  if (result->count("help")) {
    std::cout << options.help(groups_);
    return std::nullopt;
  }
  files_ = result->count("files") ? (*result)["files"].as<std::vector<std::string>>()
                                  : std::vector<std::string>{};
  for (const auto& extra : result->unmatched()) files_.push_back(extra);
  if (files_.size() < min_files_) {
    throw UsageError("missing FILE argument (" + see_help() + ")");
  }
  if (files_.size() > max_files_) {
    throw UsageError("unexpected argument '" + files_[max_files_] + "' (" + see_help() + ")");
  }
  return result;
}

double fraction_option(const cxxopts::ParseResult& r, const std::string& name) {
  const double x = r[name].as<double>();
  if (!(x >= 0.0 && x <= 1.0)) {
    throw UsageError(fmt::format("--{} must be between 0 and 1 (got {})", name, x));
  }
  return x;
}

std::uint64_t positive_option(const cxxopts::ParseResult& r, const std::string& name,
                              std::uint64_t max) {
  const std::uint64_t x = r[name].as<std::uint64_t>();
  if (x == 0) throw UsageError("--" + name + " must be at least 1");
  if (x > max) throw UsageError(fmt::format("--{} must be at most {} (got {})", name, max, x));
  return x;
}

std::string backend_option(const cxxopts::ParseResult& r) {
  const std::string name = r["backend"].as<std::string>();
  const std::vector<std::string> usable = usable_backends();
  const std::string choices =
      "(usable here: " + fmt::format("{}", fmt::join(usable, ", ")) + ", auto)";
  if (!is_backend_name(name)) {
    throw UsageError("unknown backend '" + datasets::escape_bytes(name) + "' " + choices);
  }
  if (name == "auto" || std::find(usable.begin(), usable.end(), name) != usable.end()) return name;
  const std::vector<std::string> compiled = available_backends();
  if (std::find(compiled.begin(), compiled.end(), name) == compiled.end()) {
    throw UsageError("--backend " + name + ": not part of this build " + choices);
  }
  throw UsageError("--backend " + name + ": no usable CUDA device found " + choices);
}

std::string reference_only_backend(const cxxopts::ParseResult& r, const std::string& command) {
  const std::string name = backend_option(r);
  if (name != "auto" && name != "reference") {
    std::cerr << "warpgraph: note: " << command
              << " runs on the reference backend for now (--backend " << name << " ignored)\n";
  }
  return "reference";
}

// ---- input ------------------------------------------------------------------------------------

datasets::ReadOptions reader_options(const cxxopts::ParseResult& r) {
  datasets::ReadOptions options;
  std::string format = r["format"].as<std::string>();
  std::transform(format.begin(), format.end(), format.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (format == "auto") {
    options.format = datasets::FileFormat::automatic;
  } else if (format == "mm" || format == "mtx" || format == "matrix-market" ||
             format == "matrixmarket") {
    options.format = datasets::FileFormat::matrix_market;
  } else if (format == "snap") {
    options.format = datasets::FileFormat::snap;
  } else {
    throw UsageError("unknown --format '" + datasets::escape_bytes(format) + "' (auto, mm, snap)");
  }
  options.compact_ids = r.count("compact-ids") > 0;
  options.snap_undirected = !(r.count("directed") > 0);
  const auto choice = [&](const char* option, const std::vector<const char*>& names) {
    const std::string v = r[option].as<std::string>();
    for (std::size_t i = 0; i < names.size(); ++i)
      if (v == names[i]) return i;
    throw UsageError(fmt::format("unknown --{} '{}' ({})", option, datasets::escape_bytes(v),
                                 fmt::join(names, ", ")));
  };
  using datasets::Delimiter;
  constexpr Delimiter kDelimiters[] = {Delimiter::automatic, Delimiter::whitespace,
                                       Delimiter::comma, Delimiter::tab, Delimiter::semicolon};
  options.delimiter =
      kDelimiters[choice("delimiter", {"auto", "whitespace", "comma", "tab", "semicolon"})];
  using datasets::HeaderLine;
  constexpr HeaderLine kHeaders[] = {HeaderLine::automatic, HeaderLine::skip, HeaderLine::none};
  options.header = kHeaders[choice("header", {"auto", "skip", "none"})];
  constexpr std::uint64_t kMaxColumn = 1023;  // a line has no more columns than that
  const auto column = [&](const char* option) {
    const std::uint64_t c = r[option].as<std::uint64_t>();
    if (c > kMaxColumn)
      throw UsageError(fmt::format("--{} must be at most {}", option, kMaxColumn));
    return static_cast<unsigned>(c);
  };
  options.source_column = column("src-column");
  options.target_column = column("dst-column");
  if (options.source_column == options.target_column)
    throw UsageError("--src-column and --dst-column must differ");
  const std::string weight = r["weight-column"].as<std::string>();
  if (weight == "auto") {
    options.weight_column = datasets::kAutoWeightColumn;
  } else if (weight == "none") {
    options.weight_column = datasets::kNoWeightColumn;
  } else {
    unsigned c = 0;
    const auto [end, ec] = std::from_chars(weight.data(), weight.data() + weight.size(), c);
    if (ec != std::errc() || end != weight.data() + weight.size() || c > kMaxColumn)
      throw UsageError(
          fmt::format("--weight-column must be auto, none or a column 0..{} (got '{}')", kMaxColumn,
                      datasets::escape_bytes(weight)));
    if (c == options.source_column || c == options.target_column)
      throw UsageError("--weight-column must differ from --src-column and --dst-column");
    options.weight_column = static_cast<int>(c);
  }
  options.ignore_extra_columns = r.count("ignore-extra-columns") > 0;
  return options;
}

namespace {
std::string g_current_input;  // NOLINT: one CLI command per process
}  // namespace

void set_current_input(const std::string& path) {
  g_current_input = path;
}
const std::string& current_input() {
  return g_current_input;
}

void check_id_range(const std::string& file, std::uint64_t line, std::uint64_t id_range,
                    std::uint64_t entries, bool can_compact, const IdRangeRule& rule) {
  const std::string where = line ? fmt::format("{}:{}: ", file, line) : file + ": ";
  const std::string hint = can_compact
                               ? "; read it with --compact-ids to number the vertices present "
                                 "0..n-1"
                               : "";
  if (id_range > rule.free_ids && id_range / rule.ids_per_entry > entries) {
    throw Error(fmt::format(
        "{}the id range holds {} ids but the file has only {}: every backend would store "
        "them all{}",
        where, id_range, count_noun(entries, "entry", "entries"), hint));
  }
  const std::uint64_t budget = datasets::memory_budget_bytes();
  if (id_range > budget / rule.bytes_per_id) {
    throw Error(fmt::format(
        "{}the id range holds {} ids: storing them takes about {} ({} bytes each), more than the "
        "{} of memory this process may use{}",
        where, id_range, datasets::format_bytes(id_range * rule.bytes_per_id), rule.bytes_per_id,
        datasets::format_bytes(budget), hint));
  }
}

void print_wait_notice(const std::string& notice) {
  std::cerr << "warpgraph: " << one_line(notice) << std::endl;
}

InputGraph load_graph(const std::string& path, const datasets::ReadOptions& options,
                      const datasets::EdgeChunkFn& on_edges) {
  set_current_input(path);
  InputGraph g;
  g.path = path;
  g.directed = !options.snap_undirected;
  datasets::ReadOptions with_progress = options;
  if (on_edges) with_progress.on_edges = on_edges;
  if (!with_progress.on_wait) with_progress.on_wait = print_wait_notice;
  ProgressLine progress;
  const auto t0 = std::chrono::steady_clock::now();
  if (progress.enabled()) {
    const std::string name = std::filesystem::path(path).filename().string();
    with_progress.progress = [&progress, name, t0](std::uint64_t done, std::uint64_t total) {
      if (seconds_since(t0) < 0.5) return;  // only long reads get a progress line
      if (total > 0) {
        progress.show(fmt::format("reading {}: {:.0f}%", name,
                                  100.0 * static_cast<double>(done) / static_cast<double>(total)));
      } else {
        progress.show(fmt::format("reading {}: {:.1f} MB", name, static_cast<double>(done) / 1e6));
      }
    };
  }
  // "-": stdin, through a temporary copy; messages name "-", not the copy.
  const std::string readable = readable_input_path(path);
  try {
    g.read = datasets::read_graph(readable, with_progress);
  } catch (const Error& e) {
    if (readable == path) throw;
    std::string message = e.what();
    for (std::size_t at; (at = message.find(readable)) != std::string::npos;)
      message.replace(at, readable.size(), path);
    throw Error(message);
  }
  g.read_seconds = seconds_since(t0);
  progress.clear();
  if (g.read.original_ids.empty()) {
    check_id_range(path, g.read.id_range_line, g.read.edges.num_vertices, g.read.edges.size(),
                   /*can_compact=*/true);
  }
  return g;
}

std::string format_name(datasets::FileFormat f) {
  switch (f) {
    case datasets::FileFormat::matrix_market:
      return "matrix_market";
    case datasets::FileFormat::snap:
      return "snap";
    default:
      return "automatic";
  }
}

std::string describe_format(const datasets::ReadResult& read) {
  if (read.format == datasets::FileFormat::matrix_market) {
    using H = datasets::MatrixMarketHeader;
    const char* field = read.mm.field == H::Field::pattern ? "pattern"
                        : read.mm.field == H::Field::real  ? "real"
                                                           : "integer";
    const char* symmetry = read.mm.symmetry == H::Symmetry::general     ? "general"
                           : read.mm.symmetry == H::Symmetry::symmetric ? "symmetric"
                                                                        : "skew-symmetric";
    return fmt::format("Matrix Market coordinate {} {}, {} x {}, {} entries", field, symmetry,
                       read.mm.rows, read.mm.cols, read.mm.entries);
  }
  return read.original_ids.empty() ? "SNAP edge list" : "SNAP edge list, ids compacted";
}

vertex_t vertex_from_user(const InputGraph& g, std::uint64_t id, const std::string& option) {
  const auto& original = g.read.original_ids;
  if (!original.empty()) {
    auto it = std::find(original.begin(), original.end(), id);
    if (it == original.end()) {
      throw Error(fmt::format("--{} {} is not a vertex id of {}", option, id, g.path));
    }
    return static_cast<vertex_t>(it - original.begin());
  }
  const std::uint64_t n = g.read.edges.num_vertices;
  if (id >= n) {
    throw Error(n == 0 ? fmt::format("--{} {}: {} has no vertices", option, id, g.path)
                       : fmt::format("--{} {} is out of range: {} has vertices 0..{}", option, id,
                                     g.path, n - 1));
  }
  return static_cast<vertex_t>(id);
}

std::uint64_t vertex_to_user(const InputGraph& g, vertex_t v) {
  const auto& original = g.read.original_ids;
  return original.empty() || v >= original.size() ? v : original[v];
}

// ---- output -----------------------------------------------------------------------------------

bool stderr_is_terminal() {
  return ::isatty(STDERR_FILENO) == 1;
}

ProgressLine::ProgressLine() : enabled_(stderr_is_terminal()) {}

ProgressLine::~ProgressLine() {
  clear();
}

void ProgressLine::show(const std::string& text, bool force) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && drawn_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  std::cerr << "\r\033[K" << text << std::flush;
  drawn_ = true;
}

void ProgressLine::clear() {
  if (!drawn_) return;
  std::cerr << "\r\033[K" << std::flush;
  drawn_ = false;
}

std::string count_noun(std::uint64_t n, const std::string& singular, const std::string& plural) {
  return fmt::format("{} {}", n, n == 1 ? singular : plural.empty() ? singular + "s" : plural);
}

std::string one_line(const std::string& message) {
  std::string out;
  out.reserve(message.size());
  for (char ch : message) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02X}", c);
    } else {
      out += ch;
    }
  }
  return out;
}

void print_row(const std::string& key, const std::string& value) {
  std::cout << fmt::format("{:<12}{}\n", key + ":", value);
}

std::string format_ms(double seconds) {
  return fmt::format("{:.2f} ms", 1e3 * seconds);
}

std::string backend_row(const std::string& name, double startup_seconds) {
  if (startup_seconds <= 0) return name;
  return fmt::format("{} (device started in {})", name, format_ms(startup_seconds));
}

void print_json(const nlohmann::json& doc) {
  std::cout << doc.dump(2) << '\n' << std::flush;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
double ms_since(std::chrono::steady_clock::time_point t0) {
  return 1e3 * seconds_since(t0);
}

OutputFile::OutputFile(const std::string& path) : path_(path) {
  file_ = path == "-" ? stdout : std::fopen(path.c_str(), "wb");
  if (!file_) throw Error("cannot write '" + path + "': " + std::strerror(errno));
}

OutputFile::~OutputFile() {
  if (file_ && file_ != stdout) std::fclose(file_);
}

void OutputFile::write(const std::string& text) {
  if (text.empty()) return;
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size()) {
    throw Error("cannot write '" + path_ + "': " + std::strerror(errno));
  }
}

void OutputFile::close() {
  const bool failed = std::fflush(file_) != 0 || std::ferror(file_);
  const int err = errno;
  if (file_ == stdout) {
    // stdout holds the rows only: the command's summary rows go to stderr from now on.
    std::cout.flush();
    std::cout.rdbuf(std::cerr.rdbuf());
  } else {
    std::fclose(file_);
  }
  file_ = nullptr;
  if (failed) throw Error("cannot write '" + path_ + "': " + std::strerror(err));
}

}  // namespace wg::cli
