// Matrix Market and SNAP readers: the whole file is read (and gunzipped) into memory, then its
// lines are parsed in chunks, one thread per chunk, without per-line allocation.
#include <warpgraph/datasets/read_graph.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/detail/gzip.hpp>
#include <warpgraph/datasets/detail/parallel_lines.hpp>
#include <warpgraph/datasets/detail/text_scan.hpp>
#include <warpgraph/datasets/limits.hpp>

namespace wg::datasets {
namespace detail {

/// A read-only private mapping of a whole file; map() returns false when mapping fails (the
/// caller then reads the file instead).
class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile() { unmap(); }
  bool map(const std::string& path, std::uint64_t size) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    void* p = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (p == MAP_FAILED) return false;
    ::madvise(p, static_cast<std::size_t>(size), MADV_SEQUENTIAL);
    data_ = p;
    size_ = static_cast<std::size_t>(size);
    return true;
  }
  void unmap() {
    if (data_) ::munmap(data_, size_);
    data_ = nullptr;
    size_ = 0;
  }
  std::string_view view() const { return {static_cast<const char*>(data_), size_}; }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace detail
namespace {

using detail::FieldStatus;

constexpr std::uint64_t kMaxVertexId = kVertexIdLimit - 1;  // the one id limit (types.hpp)
constexpr std::uint64_t kProgressBytes = 4u << 20;          // report parse progress every 4 MiB

/// The text of the next field, quoted, shortened and escaped (\xNN), for error messages.
std::string quote_field(const char* p, const char* e) {
  p = detail::skip_space(p, e);
  const char* q = p;
  while (q < e && !detail::is_space(*q)) ++q;
  return "'" + escape_bytes(std::string_view(p, static_cast<std::size_t>(q - p))) + "'";
}

std::string quote_token(std::string_view t) {
  return "'" + escape_bytes(t) + "'";
}

std::string field_problem(FieldStatus st, const char* what, const char* p, const char* e) {
  switch (st) {
    case FieldStatus::missing:
      return std::string("missing ") + what;
    case FieldStatus::overflow:
      return std::string(what) + " " + quote_field(p, e) + " is out of range";
    default:
      return std::string(what) + " " + quote_field(p, e) + " is not a valid number";
  }
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

std::string_view strip_bom(std::string_view text) {
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  return text;
}

bool only_space(std::string_view text) {
  for (char c : text)
    if (!detail::is_space(c) && c != '\n') return false;
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
  }
};

// ---- Matrix Market ----------------------------------------------------------------------------

struct MmChunk {
  std::uint64_t lines = 0, error_line = 0;
  std::string error;
  std::vector<vertex_t> src, dst;
  std::vector<double> weight;
};

struct MmLayout {
  MatrixMarketHeader header;
  std::uint64_t size_line = 0;  // line number of the size line
  const char* body = nullptr;   // first byte after the size line
};

MmLayout read_mm_preamble(std::string_view text, const std::string& name) {
  if (only_space(text)) throw ParseError(name, 0, "empty file");
  MmLayout out;
  detail::LineScanner lines(text.data(), text.data() + text.size());
  const char *b = nullptr, *e = nullptr;
  lines.next(b, e);
  std::string_view first(b, static_cast<std::size_t>(e - b));
  constexpr std::string_view kBanner = "%%MatrixMarket";
  if (first.size() < kBanner.size() || !iequals(first.substr(0, kBanner.size()), kBanner))
    throw ParseError(name, 1,
                     "missing '%%MatrixMarket' header (expected e.g. '%%MatrixMarket matrix "
                     "coordinate pattern symmetric')");
  // Tokens after the banner: object format field symmetry.
  std::vector<std::string_view> tok;
  {
    const char* p = b + kBanner.size();
    if (p < e && !detail::is_space(*p))
      throw ParseError(name, 1, "malformed header: expected a space after '%%MatrixMarket'");
    while (true) {
      p = detail::skip_space(p, e);
      if (p == e) break;
      const char* q = p;
      while (q < e && !detail::is_space(*q)) ++q;
      tok.emplace_back(p, static_cast<std::size_t>(q - p));
      p = q;
    }
  }
  if (tok.size() != 4)
    throw ParseError(name, 1,
                     "malformed header: expected 4 words after '%%MatrixMarket' (object format "
                     "field symmetry), found " +
                         std::to_string(tok.size()));
  auto& h = out.header;
  if (!iequals(tok[0], "matrix"))
    throw ParseError(name, 1, "unsupported object " + quote_token(tok[0]) + " (only 'matrix')");
  if (iequals(tok[1], "array"))
    throw ParseError(name, 1, "unsupported format 'array' (dense); only 'coordinate' is read");
  if (!iequals(tok[1], "coordinate"))
    throw ParseError(name, 1, "unknown format " + quote_token(tok[1]) + " (expected 'coordinate')");
  if (iequals(tok[2], "pattern"))
    h.field = MatrixMarketHeader::Field::pattern;
  else if (iequals(tok[2], "real") || iequals(tok[2], "double"))
    h.field = MatrixMarketHeader::Field::real;
  else if (iequals(tok[2], "integer"))
    h.field = MatrixMarketHeader::Field::integer;
  else if (iequals(tok[2], "complex"))
    throw ParseError(name, 1, "unsupported field 'complex' (pattern, real and integer are read)");
  else
    throw ParseError(
        name, 1, "unknown field " + quote_token(tok[2]) + " (expected pattern, real or integer)");
  if (iequals(tok[3], "general"))
    h.symmetry = MatrixMarketHeader::Symmetry::general;
  else if (iequals(tok[3], "symmetric"))
    h.symmetry = MatrixMarketHeader::Symmetry::symmetric;
  else if (iequals(tok[3], "skew-symmetric"))
    h.symmetry = MatrixMarketHeader::Symmetry::skew_symmetric;
  else if (iequals(tok[3], "hermitian"))
    throw ParseError(
        name, 1,
        "unsupported symmetry 'hermitian' (general, symmetric and skew-symmetric are read)");
  else
    throw ParseError(name, 1,
                     "unknown symmetry " + quote_token(tok[3]) +
                         " (expected general, symmetric or skew-symmetric)");

  // Comments and blank lines, then the size line "rows cols entries".
  std::uint64_t line = 1;
  while (true) {
    if (!lines.next(b, e))
      throw ParseError(name, line, "missing size line 'rows cols entries' after the header");
    ++line;
    const char* p = detail::skip_space(b, e);
    if (p == e || *p == '%') continue;
    std::uint64_t v[3];
    const char* what[3] = {"row count", "column count", "entry count"};
    for (int i = 0; i < 3; ++i) {
      FieldStatus st = detail::parse_u64(p, e, v[i]);
      if (st != FieldStatus::ok)
        throw ParseError(name, line, "size line: " + field_problem(st, what[i], p, e));
    }
    if (!detail::at_line_end(p, e))
      throw ParseError(
          name, line,
          "size line: unexpected text " + quote_field(p, e) + " after 'rows cols entries'");
    h.rows = v[0];
    h.cols = v[1];
    h.entries = v[2];
    break;
  }
  if (h.rows > kVertexIdLimit || h.cols > kVertexIdLimit)
    throw ParseError(name, line,
                     "size line: " + std::to_string(std::max(h.rows, h.cols)) +
                         " rows/columns exceed the vertex id limit (at most " +
                         std::to_string(kVertexIdLimit) + " = 2^31)");
  if (h.symmetry != MatrixMarketHeader::Symmetry::general && h.rows != h.cols)
    throw ParseError(name, line,
                     "size line: a symmetric or skew-symmetric matrix must be square, got " +
                         std::to_string(h.rows) + " x " + std::to_string(h.cols));
  out.size_line = line;
  out.body = lines.position();
  return out;
}

void parse_mm_chunk(MmChunk& c, const char* begin, const char* end, const MatrixMarketHeader& h,
                    std::atomic<std::uint64_t>& done) {
  const bool weighted = h.field != MatrixMarketHeader::Field::pattern;
  const bool integer = h.field == MatrixMarketHeader::Field::integer;
  const bool skew = h.symmetry == MatrixMarketHeader::Symmetry::skew_symmetric;
  const std::size_t guess = static_cast<std::size_t>(end - begin) / 12 + 16;
  c.src.reserve(guess);
  c.dst.reserve(guess);
  if (weighted) c.weight.reserve(guess);
  detail::LineScanner lines(begin, end);
  ProgressTick tick{begin, done};
  const char *b = nullptr, *e = nullptr;
  auto fail = [&](std::string problem) {
    c.error_line = c.lines;
    c.error = std::move(problem);
  };
  while (lines.next(b, e)) {
    ++c.lines;
    if ((c.lines & 0xffff) == 0) tick(b);
    const char* p = b;
    // Fast path: the first character is a digit (no leading blank, not a comment).
    if (p == e || static_cast<unsigned char>(*p - '0') >= 10) {
      p = detail::skip_space(p, e);
      if (p == e || *p == '%') continue;
    }
    std::uint64_t i, j;
    FieldStatus st = detail::parse_u64(p, e, i);
    if (st != FieldStatus::ok) return fail(field_problem(st, "row id", p, e));
    st = detail::parse_u64(p, e, j);
    if (st != FieldStatus::ok) return fail(field_problem(st, "column id", p, e));
    if (i == 0 || i > h.rows)
      return fail("row id " + std::to_string(i) + " out of range 1.." + std::to_string(h.rows));
    if (j == 0 || j > h.cols)
      return fail("column id " + std::to_string(j) + " out of range 1.." + std::to_string(h.cols));
    if (skew && i == j)
      return fail("diagonal entry (" + std::to_string(i) + ", " + std::to_string(j) +
                  ") in a skew-symmetric matrix");
    if (weighted) {
      double w;
      if (integer) {
        std::int64_t iv;
        st = detail::parse_i64(p, e, iv);
        w = static_cast<double>(iv);
      } else {
        st = detail::parse_double(p, e, w);
      }
      if (st != FieldStatus::ok) return fail(field_problem(st, "value", p, e));
      c.weight.push_back(w);
    }
    if (!detail::at_line_end(p, e))
      return fail("unexpected text " + quote_field(p, e) + " after the " +
                  (weighted ? "value" : "column id") + " (the header says '" +
                  (weighted ? (integer ? "integer" : "real") : "pattern") + "')");
    c.src.push_back(static_cast<vertex_t>(i - 1));
    c.dst.push_back(static_cast<vertex_t>(j - 1));
  }
  tick.flush(end);
}

/// Line number of the n-th (1-based) entry line of the body (comments and blanks skipped).
std::uint64_t mm_entry_line(const char* begin, const char* end, std::uint64_t first_line,
                            std::uint64_t n) {
  detail::LineScanner lines(begin, end);
  const char *b = nullptr, *e = nullptr;
  std::uint64_t line = first_line - 1;
  while (lines.next(b, e)) {
    ++line;
    const char* p = detail::skip_space(b, e);
    if (p == e || *p == '%') continue;
    if (--n == 0) return line;
  }
  return line;
}

/// Maps parse progress into the second half of read_graph's progress range (see read_graph).
ProgressFn scaled(const ProgressFn& fn, std::uint64_t offset, std::uint64_t span) {
  if (!fn) return {};
  return [fn, offset, span](std::uint64_t done, std::uint64_t total) {
    fn(offset + (total ? static_cast<std::uint64_t>(static_cast<double>(done) / total * span) : 0),
       2 * span);
  };
}

ReadResult parse_mm_impl(std::string_view text, const std::string& name,
                         const ProgressFn& progress) {
  text = strip_bom(text);
  MmLayout lay = read_mm_preamble(text, name);
  const auto& h = lay.header;
  const char* end = text.data() + text.size();
  auto chunks = detail::parse_in_chunks<MmChunk>(
      lay.body, end,
      [&](MmChunk& c, const char* b, const char* e, std::atomic<std::uint64_t>& done) {
        parse_mm_chunk(c, b, e, h, done);
      },
      progress);
  const std::uint64_t first_line = lay.size_line + 1;
  std::uint64_t found = 0, lines = lay.size_line;
  for (auto& c : chunks) lines += c.lines;
  auto [bad, bad_line] = detail::first_error(chunks, first_line);
  // An error after the declared number of entries is reported as "too many entries".
  std::uint64_t before_bad = 0;
  for (std::size_t k = 0; k < bad && k < chunks.size(); ++k) before_bad += chunks[k].src.size();
  if (bad < chunks.size()) before_bad += chunks[bad].src.size();
  for (auto& c : chunks) found += c.src.size();
  const std::uint64_t counted = bad < chunks.size() ? before_bad : found;
  if (counted > h.entries) {
    std::uint64_t line = mm_entry_line(lay.body, end, first_line, h.entries + 1);
    throw ParseError(name, line,
                     "more entries than the " + std::to_string(h.entries) +
                         " declared on the size line (line " + std::to_string(lay.size_line) + ")");
  }
  if (bad < chunks.size()) throw ParseError(name, bad_line, chunks[bad].error);
  if (found < h.entries)
    throw ParseError(name, lines,
                     "found " + std::to_string(found) + (found == 1 ? " entry" : " entries") +
                         " but the size line (line " + std::to_string(lay.size_line) +
                         ") declares " + std::to_string(h.entries));
  ReadResult r;
  r.format = FileFormat::matrix_market;
  r.mm = h;
  r.lines = lines;
  r.edges.num_vertices = std::max(h.rows, h.cols);
  r.id_range_line = lay.size_line;
  r.edges.symmetric = h.symmetry != MatrixMarketHeader::Symmetry::general;
  r.edges.src = detail::concat(chunks, &MmChunk::src);
  r.edges.dst = detail::concat(chunks, &MmChunk::dst);
  if (h.field != MatrixMarketHeader::Field::pattern)
    r.edges.weight = detail::concat(chunks, &MmChunk::weight);
  return r;
}

// ---- SNAP -------------------------------------------------------------------------------------

template <class Id>
struct SnapChunk {
  std::uint64_t lines = 0, error_line = 0;
  std::string error;
  std::vector<Id> src, dst;
  std::vector<double> weight;
  int fields = 0;  // 2 or 3, from the chunk's first edge line (0: none)
  std::uint64_t first_edge_line = 0;
  std::uint64_t max_id = 0;
  std::uint64_t max_id_line = 0;  // chunk-local line of the first occurrence of max_id
};

template <class Id>
void parse_snap_chunk(SnapChunk<Id>& c, const char* begin, const char* end,
                      std::atomic<std::uint64_t>& done) {
  constexpr std::uint64_t kLimit = sizeof(Id) == 4 ? kMaxVertexId : UINT64_MAX;
  const std::size_t guess = static_cast<std::size_t>(end - begin) / 12 + 16;
  c.src.reserve(guess);
  c.dst.reserve(guess);
  detail::LineScanner lines(begin, end);
  ProgressTick tick{begin, done};
  const char *b = nullptr, *e = nullptr;
  auto fail = [&](std::string problem) {
    c.error_line = c.lines;
    c.error = std::move(problem);
  };
  std::uint64_t max_id = 0;
  while (lines.next(b, e)) {
    ++c.lines;
    if ((c.lines & 0xffff) == 0) tick(b);
    const char* p = b;
    if (p == e || static_cast<unsigned char>(*p - '0') >= 10) {
      p = detail::skip_space(p, e);
      if (p == e || *p == '#' || *p == '%') continue;
    }
    std::uint64_t u, v;
    FieldStatus st = detail::parse_u64(p, e, u);
    if (st != FieldStatus::ok) return fail(field_problem(st, "source id", p, e));
    st = detail::parse_u64(p, e, v);
    if (st != FieldStatus::ok) return fail(field_problem(st, "target id", p, e));
    if (u > kLimit || v > kLimit)
      return fail("vertex id " + std::to_string(std::max(u, v)) +
                  " is past the vertex id limit (ids 0.." + std::to_string(kMaxVertexId) +
                  "); renumber the ids with --compact-ids (ReadOptions::compact_ids)");
    int fields = 2;
    if (!detail::at_line_end(p, e)) {
      double w;
      st = detail::parse_double(p, e, w);
      if (st != FieldStatus::ok) return fail(field_problem(st, "weight", p, e));
      if (!detail::at_line_end(p, e))
        return fail("unexpected text " + quote_field(p, e) + " after 'source target weight'");
      fields = 3;
      if (c.fields == 3)
        c.weight.push_back(w);
      else if (c.fields == 0)
        c.weight.assign(1, w);
    }
    if (c.fields == 0) {
      c.fields = fields;
      c.first_edge_line = c.lines;
    } else if (c.fields != fields) {
      return fail("line has " + std::to_string(fields) + " fields but earlier edge lines have " +
                  std::to_string(c.fields) + " (give a weight on every line or on none)");
    }
    if (std::max(u, v) > max_id || c.max_id_line == 0) {
      max_id = std::max(max_id, std::max(u, v));
      c.max_id_line = c.lines;
    }
    c.src.push_back(static_cast<Id>(u));
    c.dst.push_back(static_cast<Id>(v));
  }
  c.max_id = max_id;
  tick.flush(end);
}

/// Open-addressing map from original id to compact id (ids in order of first appearance).
class IdCompactor {
 public:
  explicit IdCompactor(std::size_t expected) {
    std::size_t cap = 16;
    while (cap < expected * 2) cap <<= 1;
    keys_.assign(cap, kEmpty);
    values_.resize(cap);
  }
  vertex_t map(std::uint64_t id, std::vector<std::uint64_t>& originals) {
    if (id == kEmpty) {
      if (!have_max_) {
        have_max_ = true;
        max_value_ = add(id, originals);
      }
      return max_value_;
    }
    std::size_t mask = keys_.size() - 1;
    std::size_t s = hash(id) & mask;
    while (true) {
      if (keys_[s] == id) return values_[s];
      if (keys_[s] == kEmpty) {
        if ((originals.size() + 1) * 2 > keys_.size()) {
          grow();
          return map(id, originals);
        }
        keys_[s] = id;
        return values_[s] = add(id, originals);
      }
      s = (s + 1) & mask;
    }
  }

 private:
  static constexpr std::uint64_t kEmpty = UINT64_MAX;
  static std::size_t hash(std::uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return static_cast<std::size_t>(x);
  }
  vertex_t add(std::uint64_t id, std::vector<std::uint64_t>& originals) {
    if (originals.size() >= kVertexIdLimit)
      throw Error("more than 2^31 distinct vertex ids: past the vertex id limit");
    originals.push_back(id);
    return static_cast<vertex_t>(originals.size() - 1);
  }
  void grow() {
    std::vector<std::uint64_t> k(keys_.size() * 2, kEmpty);
    std::vector<vertex_t> v(k.size());
    std::size_t mask = k.size() - 1;
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      if (keys_[i] == kEmpty) continue;
      std::size_t s = hash(keys_[i]) & mask;
      while (k[s] != kEmpty) s = (s + 1) & mask;
      k[s] = keys_[i];
      v[s] = values_[i];
    }
    keys_.swap(k);
    values_.swap(v);
  }
  std::vector<std::uint64_t> keys_;
  std::vector<vertex_t> values_;
  bool have_max_ = false;
  vertex_t max_value_ = 0;
};

template <class Id>
ReadResult parse_snap_impl(std::string_view text, const ReadOptions& options,
                           const std::string& name, const ProgressFn& progress) {
  text = strip_bom(text);
  if (only_space(text)) throw ParseError(name, 0, "empty file");
  const char* begin = text.data();
  const char* end = begin + text.size();
  auto chunks = detail::parse_in_chunks<SnapChunk<Id>>(
      begin, end,
      [](SnapChunk<Id>& c, const char* b, const char* e, std::atomic<std::uint64_t>& done) {
        parse_snap_chunk(c, b, e, done);
      },
      progress);
  auto [bad, bad_line] = detail::first_error(chunks, 1);
  // Weight columns must agree across chunks too: the first disagreeing chunk before `bad` wins.
  int fields = 0;
  std::uint64_t base = 1, lines = 0;
  for (std::size_t k = 0; k < chunks.size() && k <= bad; ++k) {
    auto& c = chunks[k];
    if (c.fields) {
      if (!fields)
        fields = c.fields;
      else if (c.fields != fields)
        throw ParseError(name, base + c.first_edge_line - 1,
                         "line has " + std::to_string(c.fields) +
                             " fields but earlier edge lines have " + std::to_string(fields) +
                             " (give a weight on every line or on none)");
    }
    base += c.lines;
  }
  if (bad < chunks.size()) throw ParseError(name, bad_line, chunks[bad].error);
  for (auto& c : chunks) lines += c.lines;
  if (!fields) throw ParseError(name, lines, "no edges found (only comments or blank lines)");

  ReadResult r;
  r.format = FileFormat::snap;
  r.lines = lines;
  r.edges.symmetric = options.snap_undirected;
  if (fields == 3) r.edges.weight = detail::concat(chunks, &SnapChunk<Id>::weight);
  if constexpr (sizeof(Id) == 4) {
    std::uint64_t max_id = 0, line_base = 0;
    for (auto& c : chunks) {
      if (c.max_id_line && (c.max_id > max_id || r.id_range_line == 0)) {
        max_id = std::max(max_id, c.max_id);
        r.id_range_line = line_base + c.max_id_line;
      }
      line_base += c.lines;
    }
    r.edges.num_vertices = max_id + 1;
    r.edges.src = detail::concat(chunks, &SnapChunk<Id>::src);
    r.edges.dst = detail::concat(chunks, &SnapChunk<Id>::dst);
  } else {
    std::size_t total = 0;
    for (auto& c : chunks) total += c.src.size();
    IdCompactor map(std::min<std::size_t>(total, std::size_t{1} << 24));
    r.edges.src.reserve(total);
    r.edges.dst.reserve(total);
    for (auto& c : chunks) {
      for (std::size_t i = 0; i < c.src.size(); ++i) {
        r.edges.src.push_back(map.map(c.src[i], r.original_ids));
        r.edges.dst.push_back(map.map(c.dst[i], r.original_ids));
      }
      std::vector<Id>().swap(c.src);
      std::vector<Id>().swap(c.dst);
    }
    r.edges.num_vertices = r.original_ids.size();
  }
  return r;
}

bool has_suffix(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         iequals(std::string_view(s).substr(s.size() - suffix.size()), suffix);
}

/// Renumbers the ids of a graph read with 32-bit ids to 0..n-1 in order of first appearance
/// (ReadOptions::compact_ids for Matrix Market files); original_ids keeps the 0-based ids.
void compact_ids_in_place(ReadResult& r) {
  IdCompactor map(std::min<std::size_t>(r.edges.size(), std::size_t{1} << 24));
  for (std::size_t i = 0; i < r.edges.size(); ++i) {
    r.edges.src[i] = map.map(r.edges.src[i], r.original_ids);
    r.edges.dst[i] = map.map(r.edges.dst[i], r.original_ids);
  }
  r.edges.num_vertices = r.original_ids.size();
}

}  // namespace

// ---- public -----------------------------------------------------------------------------------

ReadResult parse_matrix_market(std::string_view text, const std::string& name,
                               const ProgressFn& progress) {
  return parse_mm_impl(text, name, progress);
}

ReadResult parse_snap(std::string_view text, const ReadOptions& options, const std::string& name) {
  if (options.compact_ids)
    return parse_snap_impl<std::uint64_t>(text, options, name, options.progress);
  return parse_snap_impl<vertex_t>(text, options, name, options.progress);
}

std::string read_file(const std::string& path, const ProgressFn& progress) {
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw Error(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  std::uint64_t size = 0;
  if (::fstat(fileno(f.get()), &st) == 0 && S_ISREG(st.st_mode))
    size = static_cast<std::uint64_t>(st.st_size);
  if (::fstat(fileno(f.get()), &st) == 0 && S_ISDIR(st.st_mode))
    throw Error(path + ": is a directory");
  std::string bytes;
  constexpr std::size_t kBlock = std::size_t{32} << 20;
  std::size_t have = 0;
  bytes.resize(size ? static_cast<std::size_t>(size) : std::size_t{1} << 16);
  bool gzip = false;  // gzip files report decompression progress instead
  while (true) {
    if (have == bytes.size()) {
      // Full (the usual case when the size was known): grow only if there is more to read.
      int c = std::fgetc(f.get());
      if (c == EOF) {
        if (std::ferror(f.get())) throw Error(path + ": read error: " + std::strerror(errno));
        break;
      }
      bytes.resize(bytes.size() + std::max(bytes.size(), std::size_t{1} << 16));
      bytes[have++] = static_cast<char>(c);
    }
    std::size_t want = std::min(kBlock, bytes.size() - have);
    std::size_t got = std::fread(bytes.data() + have, 1, want, f.get());
    have += got;
    if (have >= 2 && !gzip) gzip = detail::is_gzip(std::string_view(bytes).substr(0, 2));
    if (progress && !gzip) progress(have, std::max<std::uint64_t>(size, have));
    if (got < want) {
      if (std::ferror(f.get())) throw Error(path + ": read error: " + std::strerror(errno));
      break;
    }
  }
  bytes.resize(have);
  // A gzip bomb must fail with a message, not exhaust memory: the output may take half of what
  // this process can still allocate (the parse needs about as much again).
  if (detail::is_gzip(bytes))
    return detail::gunzip(bytes, path, progress, memory_budget_bytes() / 2);
  return bytes;
}

static ReadResult read_graph_impl(const std::string& path, const ReadOptions& options);

ReadResult read_graph(const std::string& path, const ReadOptions& options) {
  try {
    return read_graph_impl(path, options);
  } catch (const std::bad_alloc&) {
    std::uint64_t size = 0;
    if (struct stat st{}; ::stat(path.c_str(), &st) == 0)
      size = static_cast<std::uint64_t>(st.st_size);
    throw Error(path + ": out of memory while reading it (" + format_bytes(size) + " file, " +
                format_bytes(memory_budget_bytes()) + " of memory left to this process)");
  }
}

static ReadResult read_graph_impl(const std::string& path, const ReadOptions& options) {
  // Plain regular files are memory-mapped and parsed in place (no copy); gzip files and
  // anything else (pipes, empty files) are read into memory first.
  // Progress: for read-then-parse, reading counts the file's size and parsing counts it again;
  // for mapped files parsing counts both (done/total is the fraction of the whole read).
  std::uint64_t file_size = 0;
  if (struct stat st{}; ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode))
    file_size = static_cast<std::uint64_t>(st.st_size);
  const std::uint64_t span = std::max<std::uint64_t>(file_size, 1);
  std::string owned;
  std::string_view text;
  detail::MappedFile mapped;
  ProgressFn parse_progress;
  if (file_size > 0 && mapped.map(path, file_size) && !detail::is_gzip(mapped.view())) {
    text = mapped.view();
    if (options.progress) {
      options.progress(0, 2 * span);
      parse_progress = [&](std::uint64_t done, std::uint64_t total) {
        options.progress(
            total ? static_cast<std::uint64_t>(static_cast<double>(done) / total * 2 * span) : 0,
            2 * span);
      };
    }
  } else {
    mapped.unmap();
    ProgressFn read_progress;
    if (options.progress)
      read_progress = [&](std::uint64_t done, std::uint64_t) {
        options.progress(std::min(done, span), 2 * span);
      };
    owned = read_file(path, read_progress);
    text = owned;
    parse_progress = scaled(options.progress, span, span);
  }

  FileFormat format = options.format;
  if (format == FileFormat::automatic) {
    std::string_view t = strip_bom(text);
    std::string base = has_suffix(path, ".gz") ? path.substr(0, path.size() - 3) : path;
    if (t.size() >= 14 && iequals(t.substr(0, 14), "%%MatrixMarket"))
      format = FileFormat::matrix_market;
    else if (has_suffix(base, ".mtx") || has_suffix(base, ".mm"))
      format = FileFormat::matrix_market;
    else
      format = FileFormat::snap;
  }
  ReadResult r;
  if (format == FileFormat::matrix_market) {
    r = parse_mm_impl(text, path, parse_progress);
    if (options.compact_ids) compact_ids_in_place(r);
  } else if (options.compact_ids) {
    r = parse_snap_impl<std::uint64_t>(text, options, path, parse_progress);
  } else {
    r = parse_snap_impl<vertex_t>(text, options, path, parse_progress);
  }
  if (options.progress) options.progress(2 * span, 2 * span);
  return r;
}

namespace detail {

std::string gunzip(std::string_view compressed, const std::string& name, const ProgressFn& progress,
                   std::uint64_t max_output) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) throw Error(name + ": zlib initialisation failed");
  std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&z, &inflateEnd);
  std::string out;
  // ISIZE (last 4 bytes) is the size of the last member mod 2^32: a good first guess.
  std::uint64_t guess = compressed.size() * 4;
  if (compressed.size() >= 18) {
    const auto* t =
        reinterpret_cast<const unsigned char*>(compressed.data() + compressed.size() - 4);
    std::uint64_t isize = t[0] | (t[1] << 8) | (t[2] << 16) | (std::uint64_t{t[3]} << 24);
    // A corrupt trailer must not make us allocate gigabytes: deflate expands at most ~1032x.
    guess = std::max(guess, std::min<std::uint64_t>(isize, compressed.size() * 1040));
  }
  // One byte beyond max_output lets the loop detect an output that is too large.
  const std::uint64_t cap = std::min<std::uint64_t>(max_output, std::uint64_t{1} << 62) + 1;
  out.resize(
      static_cast<std::size_t>(std::min<std::uint64_t>({guess + 1, cap, std::uint64_t{1} << 34})));
  std::size_t have = 0;
  const auto* in = reinterpret_cast<const unsigned char*>(compressed.data());
  std::size_t in_left = compressed.size();
  constexpr std::size_t kStep = std::size_t{1} << 30;  // zlib counts in 32-bit units
  std::uint64_t last_report = 0;
  while (true) {
    if (have == out.size()) {
      if (out.size() > max_output)
        throw Error(name + ": decompressed data exceeds " + std::to_string(max_output) + " bytes");
      out.resize(static_cast<std::size_t>(std::min<std::uint64_t>(out.size() * 2, cap)));
    }
    z.next_in = const_cast<unsigned char*>(in);
    z.avail_in = static_cast<uInt>(std::min(in_left, kStep));
    z.next_out = reinterpret_cast<unsigned char*>(out.data() + have);
    z.avail_out = static_cast<uInt>(std::min(out.size() - have, kStep));
    const uInt in_before = z.avail_in, out_before = z.avail_out;
    int rc = inflate(&z, Z_NO_FLUSH);
    std::size_t used = in_before - z.avail_in;
    in += used;
    in_left -= used;
    have += out_before - z.avail_out;
    if (have > max_output)
      throw Error(name + ": decompressed data exceeds " + std::to_string(max_output) + " bytes");
    const std::uint64_t consumed = compressed.size() - in_left;
    if (progress && consumed - last_report >= (std::uint64_t{4} << 20)) {
      progress(consumed, compressed.size());
      last_report = consumed;
    }
    if (rc == Z_STREAM_END) {
      if (in_left == 0) break;
      // Another member follows (gzip -c a b > c, or bgzip blocks); anything else is an error.
      if (!is_gzip(std::string_view(reinterpret_cast<const char*>(in), in_left)))
        throw Error(name + ": unexpected data after the end of the gzip stream");
      if (inflateReset(&z) != Z_OK) throw Error(name + ": zlib reset failed");
      continue;
    }
    if (rc == Z_BUF_ERROR) {
      if (z.avail_out != 0 && in_left == 0) throw Error(name + ": truncated gzip data");
      continue;  // needs more output space
    }
    if (rc != Z_OK)
      throw Error(name + ": corrupt gzip data (" +
                  (z.msg ? std::string(z.msg) : "zlib error " + std::to_string(rc)) + ")");
    if (in_left == 0 && z.avail_out != 0) throw Error(name + ": truncated gzip data");
  }
  out.resize(have);
  if (progress) progress(compressed.size(), compressed.size());
  return out;
}

}  // namespace detail
}  // namespace wg::datasets
