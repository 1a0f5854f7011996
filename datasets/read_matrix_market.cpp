// The Matrix Market reader: header and size line, then the entry lines parsed in chunks, one
// thread per chunk, without per-line allocation.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/detail/input_file.hpp>
#include <warpgraph/datasets/detail/parallel_lines.hpp>
#include <warpgraph/datasets/detail/read_fields.hpp>
#include <warpgraph/datasets/detail/text_scan.hpp>
#include <warpgraph/datasets/read_graph.hpp>

namespace wg::datasets {
namespace {

using detail::field_problem;
using detail::FieldStatus;
using detail::iequals;
using detail::only_space;
using detail::quote_field;
using detail::quote_token;
using detail::strip_bom;

struct MmChunk : detail::ChunkStatus {
  std::vector<vertex_t> src, dst;
  std::vector<double> weight;
  WeightFacts facts;  // chunk-local lines
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
  detail::DataLines<false> lines(begin, end, c.lines, done);
  const char *p = nullptr, *e = nullptr;
  while (lines.next(p, e)) {
    std::uint64_t i, j;
    if (!detail::parse_id_pair(c, p, e, i, j, "row id", "column id")) return;
    if (i == 0 || i > h.rows)
      return c.fail("row id " + std::to_string(i) + " out of range 1.." + std::to_string(h.rows));
    if (j == 0 || j > h.cols)
      return c.fail("column id " + std::to_string(j) + " out of range 1.." +
                    std::to_string(h.cols));
    if (skew && i == j)
      return c.fail("diagonal entry (" + std::to_string(i) + ", " + std::to_string(j) +
                    ") in a skew-symmetric matrix");
    if (weighted) {
      double w;
      if (!detail::parse_weight(c, p, e, integer, "value", w)) return;
      detail::note_weight(c.facts, w, c.lines);
      c.weight.push_back(w);
    }
    if (!detail::at_line_end(p, e))
      return c.fail("unexpected text " + quote_field(p, e) + " after the " +
                    (weighted ? "value" : "column id") + " (the header says '" +
                    (weighted ? (integer ? "integer" : "real") : "pattern") + "')");
    c.src.push_back(static_cast<vertex_t>(i - 1));
    c.dst.push_back(static_cast<vertex_t>(j - 1));
  }
  lines.finish();
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

ReadResult parse_mm_impl(std::string_view text, const std::string& name, const ProgressFn& progress,
                         const EdgeChunkFn& on_edges) {
  text = strip_bom(text);
  if (const detail::TextProblem cr = detail::find_lone_cr(text); cr.line)
    throw ParseError(name, cr.line, cr.problem);
  MmLayout lay = read_mm_preamble(text, name);
  const auto& h = lay.header;
  const char* end = text.data() + text.size();
  const auto parse = [&](MmChunk& c, const char* b, const char* e,
                         std::atomic<std::uint64_t>& done) { parse_mm_chunk(c, b, e, h, done); };
  std::uint64_t offset = 0;
  const bool weighted = h.field != MatrixMarketHeader::Field::pattern;
  auto chunks = on_edges ? detail::parse_in_segments<MmChunk>(
                               lay.body, end, parse,
                               [&](const MmChunk& c) {
                                 if (c.src.empty()) return;
                                 on_edges({.src = c.src.data(),
                                           .dst = c.dst.data(),
                                           .weight = weighted ? c.weight.data() : nullptr,
                                           .size = c.src.size(),
                                           .offset = offset});
                                 offset += c.src.size();
                               },
                               progress)
                         : detail::parse_in_chunks<MmChunk>(lay.body, end, parse, progress);
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
  if (h.field != MatrixMarketHeader::Field::pattern) {
    std::uint64_t base = first_line;
    for (const auto& c : chunks) {
      detail::merge_weight_facts(r.weight_facts, c.facts, base);
      base += c.lines;
    }
    r.edges.weight = detail::concat(chunks, &MmChunk::weight);
  }
  return r;
}

}  // namespace

ReadResult parse_matrix_market(std::string_view text, const std::string& name,
                               const ProgressFn& progress) {
  return parse_mm_impl(text, name, progress, {});
}

ReadResult detail::parse_matrix_market_text(std::string_view text, const std::string& name,
                                            const ProgressFn& progress,
                                            const EdgeChunkFn& on_edges) {
  return parse_mm_impl(text, name, progress, on_edges);
}

}  // namespace wg::datasets
