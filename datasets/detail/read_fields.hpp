#pragma once
// Internal: what the Matrix Market and SNAP readers share: quoting of bad fields for error
// messages, header-word helpers, progress ticks and the data-line loop of a chunk. Not installed
// API; used by read_matrix_market.cpp, read_snap.cpp and read_graph.cpp.
#include <atomic>
#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/detail/read_cancel.hpp>
#include <warpgraph/datasets/detail/text_scan.hpp>
#include <warpgraph/datasets/detail/weights.hpp>
#include <warpgraph/datasets/limits.hpp>
#include <warpgraph/datasets/read_graph.hpp>

namespace wg::datasets::detail {

inline constexpr std::uint64_t kMaxVertexId = kVertexIdLimit - 1;  // the one id limit (types.hpp)
inline constexpr std::uint64_t kProgressBytes = 4u << 20;  // report parse progress every 4 MiB

/// A token quoted and escaped (\xNN) for an error message. Appended piece by piece: GCC 12 warns
/// falsely (-Wrestrict) about "'" + std::string.
inline std::string quote_token(std::string_view t) {
  std::string out(1, '\'');
  out += escape_bytes(t);
  out += '\'';
  return out;
}

/// The text of the next field, quoted, shortened and escaped (\xNN), for error messages.
inline std::string quote_field(const char* p, const char* e) {
  p = skip_space(p, e);
  const char* q = p;
  while (q < e && !is_space(*q)) ++q;
  return quote_token(std::string_view(p, static_cast<std::size_t>(q - p)));
}

inline std::string field_problem(FieldStatus st, const char* what, const char* p, const char* e) {
  switch (st) {
    case FieldStatus::missing:
      return std::string("missing ") + what;
    case FieldStatus::overflow:
      return std::string(what) + " " + quote_field(p, e) + " is out of range";
    default:
      return std::string(what) + " " + quote_field(p, e) + " is not a valid number";
  }
}

inline bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

inline std::string_view strip_bom(std::string_view text) {
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  return text;
}

inline bool only_space(std::string_view text) {
  for (char c : text)
    if (!is_space(c) && c != '\n') return false;
  return true;
}

/// What every reader's chunk state holds: its line count and its first error (error_line is
/// chunk-local, 0 when none), as detail::first_error reads them.
struct ChunkStatus {
  std::uint64_t lines = 0, error_line = 0;
  std::string error;
  /// Records `problem` at the current line; the chunk's parse stops there.
  void fail(std::string problem) {
    error_line = lines;
    error = std::move(problem);
  }
};

/// Parses the two ids an edge line starts with (named `what_a`, `what_b` in errors); on a bad
/// field records the problem in `c` and returns false.
inline bool parse_id_pair(ChunkStatus& c, const char*& p, const char* e, std::uint64_t& a,
                          std::uint64_t& b, const char* what_a, const char* what_b) {
  FieldStatus st = parse_u64(p, e, a);
  if (st != FieldStatus::ok) {
    c.fail(field_problem(st, what_a, p, e));
    return false;
  }
  st = parse_u64(p, e, b);
  if (st != FieldStatus::ok) {
    c.fail(field_problem(st, what_b, p, e));
    return false;
  }
  return true;
}

/// Records w (on chunk-local `line`) in the facts if it is the first of its kind there.
inline void note_weight(WeightFacts& f, double w, std::uint64_t line) {
  if (w < 0 && !f.negative.line) f.negative = {line, w};
  if (!fits_float(w) && !f.not_float.line) f.not_float = {line, w};
  if (!fits_uint32(w) && !f.not_uint32.line) f.not_uint32 = {line, w};
}

/// Adds a chunk's facts (chunk-local lines, the chunk's first line being `base`) to `total`,
/// which holds those of the chunks before it.
inline void merge_weight_facts(WeightFacts& total, const WeightFacts& chunk, std::uint64_t base) {
  const auto take = [&](WeightFacts::At& t, const WeightFacts::At& c) {
    if (!t.line && c.line) t = {base + c.line - 1, c.value};
  };
  take(total.negative, chunk.negative);
  take(total.not_float, chunk.not_float);
  take(total.not_uint32, chunk.not_uint32);
}

/// Parses a weight field: an integer (integer_field: a Matrix Market integer) or a real. A
/// weight that a double does not hold exactly as written (an integer beyond 2^53 that double
/// rounds) is an error: on a bad field records the problem in `c` and returns false.
inline bool parse_weight(ChunkStatus& c, const char*& p, const char* e, bool integer_field,
                         const char* what, double& w) {
  const char* start = skip_space(p, e);
  FieldStatus st;
  if (integer_field) {
    std::int64_t iv = 0;
    st = parse_i64(p, e, iv);
    w = static_cast<double>(iv);
  } else {
    st = parse_double(p, e, w);
  }
  if (st != FieldStatus::ok) {
    c.fail(field_problem(st, what, p, e));
    return false;
  }
  if (w >= 9007199254740992.0 || w <= -9007199254740992.0) {
    // Beyond 2^53 a double skips integers: an integer written so must be one it holds.
    bool digits_only = true;
    for (const char* q = start + (*start == '-' || *start == '+'); q < p; ++q)
      digits_only &= static_cast<unsigned char>(*q - '0') < 10;
    std::int64_t iv = 0;
    const char* q = start;
    if (digits_only && (parse_i64(q, e, iv) != FieldStatus::ok || !(w < 9223372036854775807.0) ||
                        static_cast<std::int64_t>(w) != iv)) {
      c.fail(std::string(what) + " " + quote_token(std::string_view(start, p - start)) +
             " is an integer that a double cannot hold exactly (integers beyond 2^53 are "
             "rounded); scale the weights down");
      return false;
    }
  }
  return true;
}

/// Reports parse progress of one chunk now and then.
struct ProgressTick {
  const char* last;
  std::atomic<std::uint64_t>& done;
  void operator()(const char* pos) {
    if (static_cast<std::uint64_t>(pos - last) >= kProgressBytes) flush(pos);
  }
  void flush(const char* pos) {
    done.fetch_add(static_cast<std::uint64_t>(pos - last));
    last = pos;
    poll_cancel();
  }
};

/// The data lines of one chunk: counts every line into `count` (the chunk-local line number),
/// ticks progress, and skips blank lines and comments ('%', and '#' when kHashComments).
/// next() leaves p at the first field; finish() reports the chunk's last bytes as parsed.
template <bool kHashComments>
class DataLines {
 public:
  DataLines(const char* begin, const char* end, std::uint64_t& count,
            std::atomic<std::uint64_t>& done)
      : lines_(begin, end), end_(end), count_(count), tick_{begin, done} {}
  bool next(const char*& p, const char*& e) {
    const char* b = nullptr;
    while (lines_.next(b, e)) {
      ++count_;
      if ((count_ & 0xffff) == 0) tick_(b);
      p = b;
      // Fast path: the first character is a digit (no leading blank, not a comment).
      if (p == e || static_cast<unsigned char>(*p - '0') >= 10) {
        p = skip_space(p, e);
        if (p == e || *p == '%' || (kHashComments && *p == '#')) continue;
      }
      return true;
    }
    return false;
  }
  void finish() { tick_.flush(end_); }

 private:
  LineScanner lines_;
  const char* end_;
  std::uint64_t& count_;
  ProgressTick tick_;
};

/// Parses SNAP text (ReadOptions::compact_ids picks 64-bit ids renumbered in order of first
/// appearance, else 32-bit ids kept as they are); `progress` replaces options.progress.
/// With options.on_edges, the chunks are handed over as ReadOptions::on_edges says.
ReadResult parse_snap_text(std::string_view text, const ReadOptions& options,
                           const std::string& name, const ProgressFn& progress);
/// parse_matrix_market, handing the edges to `on_edges` (if set) as they are parsed.
ReadResult parse_matrix_market_text(std::string_view text, const std::string& name,
                                    const ProgressFn& progress, const EdgeChunkFn& on_edges);

}  // namespace wg::datasets::detail
