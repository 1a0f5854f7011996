// The edge-list reader (SNAP, CSV, TSV): "source target [weight]" lines, or chosen columns of
// delimited lines after an optional header, parsed in chunks, one thread per chunk, without
// per-line allocation; ids kept (32-bit) or renumbered (compact_ids).
#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/detail/id_compactor.hpp>
#include <warpgraph/datasets/detail/input_file.hpp>
#include <warpgraph/datasets/detail/parallel_lines.hpp>
#include <warpgraph/datasets/detail/read_fields.hpp>
#include <warpgraph/datasets/detail/text_scan.hpp>
#include <warpgraph/datasets/detail/weights.hpp>
#include <warpgraph/datasets/read_graph.hpp>

namespace wg::datasets {
namespace {

using detail::field_problem;
using detail::FieldStatus;
using detail::IdCompactor;
using detail::kMaxVertexId;
using detail::only_space;
using detail::quote_field;
using detail::strip_bom;

template <class Id>
struct SnapChunk : detail::ChunkStatus {
  std::vector<Id> src, dst;
  std::vector<double> weight;
  int fields = 0;  // 2 or 3, from the chunk's first edge line (0: none)
  std::uint64_t first_edge_line = 0;
  std::uint64_t max_id = 0;
  std::uint64_t max_id_line = 0;  // chunk-local line of the first occurrence of max_id
  WeightFacts facts;              // chunk-local lines
};

/// How the lines of an edge list are read: the SNAP loop ("u v [w]", whitespace; `fast`) or
/// chosen columns of delimited lines.
struct Layout {
  char delim = 0;  ///< 0: runs of whitespace
  unsigned src = 0, dst = 1;
  int weight = kAutoWeightColumn;  ///< a column, kAutoWeightColumn or kNoWeightColumn
  bool ignore_extra = false;
  bool fast = true;
  /// The weight column when it is automatic: the one after source and target.
  unsigned auto_weight() const { return std::max(src, dst) + 1; }
};

/// The next field of a line at p: [fb, fe) without surrounding blanks (and quotes when
/// delimited); p moves past its delimiter. False when the line has no more fields.
bool next_field(const Layout& l, const char*& p, const char* e, bool& more, const char*& fb,
                const char*& fe) {
  if (!l.delim) {
    p = detail::skip_space(p, e);
    if (p == e) return false;
    fb = p;
    while (p < e && !detail::is_space(*p)) ++p;
    fe = p;
    return true;
  }
  if (!more) return false;
  const void* d = std::memchr(p, l.delim, static_cast<std::size_t>(e - p));
  fb = detail::skip_space(p, e);
  fe = d ? static_cast<const char*>(d) : e;
  more = d != nullptr;
  p = more ? fe + 1 : e;
  while (fe > fb && detail::is_space(fe[-1])) --fe;
  if (fe - fb >= 2 && *fb == '"' && fe[-1] == '"') ++fb, --fe;
  return true;
}

/// Reads one delimited line's chosen columns; fields = 3 when it has a weight, else 2.
template <class Id>
bool parse_columns(SnapChunk<Id>& c, const Layout& l, const char* p, const char* e,
                   std::uint64_t& u, std::uint64_t& v, double& w, int& fields) {
  const unsigned wcol = l.weight >= 0 ? static_cast<unsigned>(l.weight) : l.auto_weight();
  const bool want_w = l.weight != kNoWeightColumn;
  const unsigned last = want_w ? std::max(wcol, l.auto_weight() - 1) : l.auto_weight() - 1;
  bool more = true, got_u = false, got_v = false;
  fields = 2;
  const char *fb = nullptr, *fe = nullptr;
  for (unsigned i = 0; next_field(l, p, e, more, fb, fe); ++i) {
    if (i == l.src || i == l.dst) {
      std::uint64_t x = 0;
      const char* q = fb;
      const char* what = i == l.src ? "source id" : "target id";
      const FieldStatus st = detail::parse_u64(q, fe, x);
      if (st != FieldStatus::ok) return c.fail(field_problem(st, what, fb, fe)), false;
      if (q != fe) return c.fail(field_problem(FieldStatus::not_a_number, what, fb, fe)), false;
      (i == l.src ? u : v) = x;
      (i == l.src ? got_u : got_v) = true;
    } else if (want_w && i == wcol) {
      const char* q = fb;
      if (!detail::parse_weight(c, q, fe, false, "weight", w)) return false;
      if (q != fe) return c.fail(field_problem(FieldStatus::not_a_number, "weight", fb, fe)), false;
      fields = 3;
    } else if (i > last && !l.ignore_extra) {
      return c.fail("unexpected text " + quote_field(fb, fe) + " in column " +
                    std::to_string(i + 1) +
                    " (columns after the last one used are an error unless "
                    "ignore_extra_columns is set)"),
             false;
    }
  }
  if (!got_u) return c.fail("missing source id (column " + std::to_string(l.src + 1) + ")"), false;
  if (!got_v) return c.fail("missing target id (column " + std::to_string(l.dst + 1) + ")"), false;
  if (l.weight >= 0 && fields != 3)
    return c.fail("missing weight (column " + std::to_string(wcol + 1) + ")"), false;
  return true;
}

template <class Id>
void parse_snap_chunk(SnapChunk<Id>& c, const Layout& layout, const char* begin, const char* end,
                      std::atomic<std::uint64_t>& done) {
  constexpr std::uint64_t kLimit = sizeof(Id) == 4 ? kMaxVertexId : UINT64_MAX;
  const std::size_t guess = static_cast<std::size_t>(end - begin) / 12 + 16;
  c.src.reserve(guess);
  c.dst.reserve(guess);
  detail::DataLines<true> lines(begin, end, c.lines, done);
  const char *p = nullptr, *e = nullptr;
  std::uint64_t max_id = 0;
  while (lines.next(p, e)) {
    std::uint64_t u = 0, v = 0;
    int fields = 2;
    double w = 0;
    if (!layout.fast) {
      if (!parse_columns(c, layout, p, e, u, v, w, fields)) return;
    } else {
      if (!detail::parse_id_pair(c, p, e, u, v, "source id", "target id")) return;
      if (!detail::at_line_end(p, e)) {
        if (!detail::parse_weight(c, p, e, false, "weight", w)) return;
        if (!detail::at_line_end(p, e))
          return c.fail("unexpected text " + quote_field(p, e) + " after 'source target weight'");
        fields = 3;
      }
    }
    if (u > kLimit || v > kLimit)
      return c.fail("vertex id " + std::to_string(std::max(u, v)) +
                    " is past the vertex id limit (ids 0.." + std::to_string(kMaxVertexId) +
                    "); renumber the ids with --compact-ids (ReadOptions::compact_ids)");
    if (fields == 3) {
      detail::note_weight(c.facts, w, c.lines);
      if (c.fields == 3)
        c.weight.push_back(w);
      else if (c.fields == 0)
        c.weight.assign(1, w);
    }
    if (c.fields == 0) {
      c.fields = fields;
      c.first_edge_line = c.lines;
    } else if (c.fields != fields) {
      return c.fail("line has " + std::to_string(fields) + " fields but earlier edge lines have " +
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
  lines.finish();
}

/// The layout of an edge list and where its data starts: the delimiter detected and the header
/// line skipped from the first line that is not blank or a comment.
struct Start {
  Layout layout;
  const char* body = nullptr;
  std::uint64_t header_line = 0;  ///< 0: none
  std::uint64_t first_line = 1;   ///< line number of body's first line
};

Start find_start(std::string_view text, const ReadOptions& o) {
  Start s;
  s.body = text.data();
  detail::LineScanner lines(text.data(), text.data() + text.size());
  const char *b = nullptr, *e = nullptr;
  std::uint64_t line = 0;
  std::string_view first;
  while (lines.next(b, e)) {
    ++line;
    const char* p = detail::skip_space(b, e);
    if (p == e || *p == '#' || *p == '%') continue;
    first = std::string_view(p, static_cast<std::size_t>(e - p));
    break;
  }
  Layout& l = s.layout;
  switch (o.delimiter) {
    case Delimiter::automatic:
      l.delim = first.find(',') != std::string_view::npos ? ',' : 0;
      break;
    case Delimiter::whitespace:
      l.delim = 0;
      break;
    case Delimiter::comma:
      l.delim = ',';
      break;
    case Delimiter::tab:
      l.delim = '\t';
      break;
    case Delimiter::semicolon:
      l.delim = ';';
      break;
  }
  l.src = o.source_column;
  l.dst = o.target_column;
  l.weight = o.weight_column;
  l.ignore_extra = o.ignore_extra_columns;
  l.fast =
      l.delim == 0 && l.src == 0 && l.dst == 1 && l.weight == kAutoWeightColumn && !l.ignore_extra;
  const auto c = first.empty() ? '0' : static_cast<unsigned char>(first[0]);
  const bool named = std::isalpha(c) || c == '_' || c == '"';
  if (!first.empty() &&
      (o.header == HeaderLine::skip || (o.header == HeaderLine::automatic && named))) {
    s.header_line = line;
    s.first_line = line + 1;
    s.body = lines.position();
  }
  return s;
}

template <class Id>
ReadResult parse_snap_impl(std::string_view text, const ReadOptions& options,
                           const std::string& name, const ProgressFn& progress) {
  text = strip_bom(text);
  if (only_space(text)) throw ParseError(name, 0, "empty file");
  const int wc = options.weight_column;
  if (options.source_column == options.target_column ||
      (wc >= 0 && (static_cast<unsigned>(wc) == options.source_column ||
                   static_cast<unsigned>(wc) == options.target_column)) ||
      (wc < 0 && wc != kAutoWeightColumn && wc != kNoWeightColumn))
    throw InvalidArgument(name + ": the source, target and weight columns (" +
                          std::to_string(options.source_column) + ", " +
                          std::to_string(options.target_column) + ", " + std::to_string(wc) +
                          ") must be different columns (weight: a column, kAutoWeightColumn or "
                          "kNoWeightColumn)");
  if (const detail::TextProblem cr = detail::find_lone_cr(text); cr.line)
    throw ParseError(name, cr.line, cr.problem);
  const Start start = find_start(text, options);
  const char* begin = start.body;
  const char* end = text.data() + text.size();
  const auto parse = [&](SnapChunk<Id>& c, const char* b, const char* e,
                         std::atomic<std::uint64_t>& done) {
    parse_snap_chunk(c, start.layout, b, e, done);
  };
  std::vector<SnapChunk<Id>> chunks;
  if constexpr (sizeof(Id) == 4) {
    std::uint64_t offset = 0;
    if (options.on_edges) {
      chunks = detail::parse_in_segments<SnapChunk<Id>>(
          begin, end, parse,
          [&](const SnapChunk<Id>& c) {
            if (c.src.empty()) return;
            options.on_edges({.src = c.src.data(),
                              .dst = c.dst.data(),
                              .weight = c.fields == 3 ? c.weight.data() : nullptr,
                              .size = c.src.size(),
                              .offset = offset});
            offset += c.src.size();
          },
          progress);
    }
  }
  if (chunks.empty()) chunks = detail::parse_in_chunks<SnapChunk<Id>>(begin, end, parse, progress);
  auto [bad, bad_line] = detail::first_error(chunks, start.first_line);
  // Weight columns must agree across chunks too: the first disagreeing chunk before `bad` wins.
  int fields = 0;
  std::uint64_t base = start.first_line, lines = start.first_line - 1;
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
  r.header_line = start.header_line;
  r.edges.symmetric = options.snap_undirected;
  if (fields == 3) {
    base = start.first_line;
    for (const auto& c : chunks) {
      detail::merge_weight_facts(r.weight_facts, c.facts, base);
      base += c.lines;
    }
    r.edges.weight = detail::concat(chunks, &SnapChunk<Id>::weight);
  }
  if constexpr (sizeof(Id) == 4) {
    std::uint64_t max_id = 0, line_base = start.first_line - 1;
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
    detail::hand_over_whole_list(r.edges, options.on_edges);
  }
  return r;
}

}  // namespace

ReadResult detail::parse_snap_text(std::string_view text, const ReadOptions& options,
                                   const std::string& name, const ProgressFn& progress) {
  if (options.compact_ids) return parse_snap_impl<std::uint64_t>(text, options, name, progress);
  return parse_snap_impl<vertex_t>(text, options, name, progress);
}

ReadResult parse_snap(std::string_view text, const ReadOptions& options, const std::string& name) {
  ReadResult r = detail::parse_snap_text(text, options, name, options.progress);
  detail::finish_weights(r, options, name);
  return r;
}

}  // namespace wg::datasets
