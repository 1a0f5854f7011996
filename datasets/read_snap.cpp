// The SNAP edge-list reader: "source target [weight]" lines parsed in chunks, one thread per
// chunk, without per-line allocation; ids kept (32-bit) or renumbered (compact_ids).
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/detail/id_compactor.hpp>
#include <warpgraph/datasets/detail/parallel_lines.hpp>
#include <warpgraph/datasets/detail/read_fields.hpp>
#include <warpgraph/datasets/detail/text_scan.hpp>
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
};

template <class Id>
void parse_snap_chunk(SnapChunk<Id>& c, const char* begin, const char* end,
                      std::atomic<std::uint64_t>& done) {
  constexpr std::uint64_t kLimit = sizeof(Id) == 4 ? kMaxVertexId : UINT64_MAX;
  const std::size_t guess = static_cast<std::size_t>(end - begin) / 12 + 16;
  c.src.reserve(guess);
  c.dst.reserve(guess);
  detail::DataLines<true> lines(begin, end, c.lines, done);
  const char *p = nullptr, *e = nullptr;
  std::uint64_t max_id = 0;
  while (lines.next(p, e)) {
    std::uint64_t u, v;
    if (!detail::parse_id_pair(c, p, e, u, v, "source id", "target id")) return;
    if (u > kLimit || v > kLimit)
      return c.fail("vertex id " + std::to_string(std::max(u, v)) +
                    " is past the vertex id limit (ids 0.." + std::to_string(kMaxVertexId) +
                    "); renumber the ids with --compact-ids (ReadOptions::compact_ids)");
    int fields = 2;
    if (!detail::at_line_end(p, e)) {
      double w;
      const FieldStatus st = detail::parse_double(p, e, w);
      if (st != FieldStatus::ok) return c.fail(field_problem(st, "weight", p, e));
      if (!detail::at_line_end(p, e))
        return c.fail("unexpected text " + quote_field(p, e) + " after 'source target weight'");
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

template <class Id>
ReadResult parse_snap_impl(std::string_view text, const ReadOptions& options,
                           const std::string& name, const ProgressFn& progress) {
  text = strip_bom(text);
  if (only_space(text)) throw ParseError(name, 0, "empty file");
  const char* begin = text.data();
  const char* end = begin + text.size();
  const auto parse = [](SnapChunk<Id>& c, const char* b, const char* e,
                        std::atomic<std::uint64_t>& done) { parse_snap_chunk(c, b, e, done); };
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
  return detail::parse_snap_text(text, options, name, options.progress);
}

}  // namespace wg::datasets
