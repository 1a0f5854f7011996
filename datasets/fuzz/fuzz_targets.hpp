#pragma once
// The fuzz targets' bodies, shared by the libFuzzer executables (datasets/fuzz, clang only) and by
// the corpus replay test (tests/datasets/corpus_replay_test.cpp) that runs in every build.
//
// Contract checked: a reader either returns a well-formed result or throws wg::Error (ParseError
// for bad text, Error for bad gzip). Any other exception escapes to the caller (libFuzzer reports
// it); a broken invariant of the result calls std::abort().
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/detail/gzip.hpp>
#include <warpgraph/datasets/detail/parallel_lines.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/datasets/update_stream.hpp>

namespace wg::datasets::fuzz {

inline void require(bool ok) {
  if (!ok) std::abort();
}

inline void check_edges(const EdgeList& e) {
  require(e.src.size() == e.dst.size());
  require(e.weight.empty() || e.weight.size() == e.src.size());
  for (std::size_t i = 0; i < e.size(); ++i)
    require(e.src[i] < e.num_vertices && e.dst[i] < e.num_vertices);
}

/// What a parse gave: the result, or the message of the wg::Error it threw.
struct Outcome {
  bool ok = false;
  std::string error;
  ReadResult result;
};

inline bool same(const Outcome& a, const Outcome& b) {
  if (a.ok != b.ok) return false;
  if (!a.ok) return a.error == b.error;
  const ReadResult &x = a.result, &y = b.result;
  return x.edges.src == y.edges.src && x.edges.dst == y.edges.dst &&
         x.edges.weight == y.edges.weight && x.edges.num_vertices == y.edges.num_vertices &&
         x.edges.symmetric == y.edges.symmetric && x.original_ids == y.original_ids &&
         x.lines == y.lines && x.mm.rows == y.mm.rows && x.mm.cols == y.mm.cols &&
         x.mm.entries == y.mm.entries;
}

/// Differential check of the chunked (multi-threaded) parse: the text is parsed in one chunk
/// and again split into 2..6 chunks of any size; results and error messages must be identical.
template <class Parse>
Outcome parse_both_ways(std::size_t size, const Parse& parse) {
  auto run = [&](detail::ChunkPolicy policy) {
    detail::chunk_policy() = policy;
    Outcome o;
    try {
      o.result = parse();
      o.ok = true;
    } catch (const Error& e) {
      o.error = e.what();
    }
    detail::chunk_policy() = {};
    return o;
  };
  Outcome one = run({std::size_t{1} << 40, 1});
  Outcome many = run({1, static_cast<unsigned>(2 + size % 5)});
  require(same(one, many));
  return one;
}

/// Inputs starting with the gzip magic are decompressed first (at most 16 MiB).
inline std::string_view maybe_gunzip(std::string_view in, std::string& storage) {
  if (!detail::is_gzip(in)) return in;
  storage = detail::gunzip(in, "<fuzz>", {}, std::uint64_t{16} << 20);
  return storage;
}

inline void matrix_market(const std::uint8_t* data, std::size_t size) {
  std::string storage;
  std::string_view text;
  try {
    text = maybe_gunzip({reinterpret_cast<const char*>(data), size}, storage);
  } catch (const Error&) {
    return;
  }
  Outcome o = parse_both_ways(size, [&] { return parse_matrix_market(text, "<fuzz>"); });
  if (!o.ok) return;
  const ReadResult& r = o.result;
  check_edges(r.edges);
  require(r.edges.size() == r.mm.entries);
  require(r.edges.num_vertices == std::max(r.mm.rows, r.mm.cols));
  // Weighted fields give one weight per entry (none when there are no entries).
  require(r.edges.weight.size() ==
          (r.mm.field == MatrixMarketHeader::Field::pattern ? 0 : r.edges.size()));
}

/// First byte: options (bit 0 compact_ids, bit 1 directed, bit 2 comma-delimited, bit 3
/// extra columns ignored, bit 4 columns chosen: target 0, source 2, weight 1); the rest is the
/// text.
inline void snap(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  ReadOptions o;
  o.compact_ids = data[0] & 1;
  o.snap_undirected = !(data[0] & 2);
  if (data[0] & 4) o.delimiter = Delimiter::comma;
  o.ignore_extra_columns = data[0] & 8;
  if (data[0] & 16) {
    o.target_column = 0;
    o.source_column = 2;
    o.weight_column = 1;
  }
  std::string storage;
  std::string_view text;
  try {
    text = maybe_gunzip({reinterpret_cast<const char*>(data + 1), size - 1}, storage);
  } catch (const Error&) {
    return;
  }
  Outcome out = parse_both_ways(size, [&] { return parse_snap(text, o, "<fuzz>"); });
  if (!out.ok) return;
  const ReadResult& r = out.result;
  check_edges(r.edges);
  require(!r.edges.empty());
  require(r.edges.symmetric == o.snap_undirected);
  if (o.compact_ids) require(r.original_ids.size() == r.edges.num_vertices);
}

/// First byte: bit 0 selects the temporal reader (window = 1 + second byte), bit 1 directed.
inline void updates(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return;
  const bool temporal = data[0] & 1, symmetric = !(data[0] & 2);
  const std::uint64_t window = 1 + data[1];
  std::string storage;
  try {
    std::string_view text =
        maybe_gunzip({reinterpret_cast<const char*>(data + 2), size - 2}, storage);
    UpdateStream s = temporal ? parse_temporal_snap(text, window, symmetric, "<fuzz>")
                              : parse_update_text(text, symmetric, "<fuzz>");
    require(!s.batches.empty());
    for (const auto& b : s.batches) {
      const bool vertex_batch = b.kind == UpdateBatch::Kind::insert_vertices ||
                                b.kind == UpdateBatch::Kind::erase_vertices;
      require(vertex_batch ? b.edges.empty() && !b.vertices.empty() : !b.edges.empty());
      require(!b.edges.weighted() || b.edges.weight.size() == b.edges.size());
      require(b.edges.symmetric == symmetric);
      require(!temporal || b.kind == UpdateBatch::Kind::insert);
      check_edges(b.edges);
    }
  } catch (const ParseError& e) {
    require(!e.problem().empty());
  } catch (const Error&) {
  }
}

}  // namespace wg::datasets::fuzz
