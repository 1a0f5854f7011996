// Good input: every Matrix Market field and symmetry, comments, tabs, CRLF, weights, SNAP id
// compaction, and the chunked (multi-threaded) parse agreeing with a line-by-line model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/fuzz/fuzz_targets.hpp>
#include <warpgraph/datasets/read_graph.hpp>

#include "temp_files.hpp"

namespace {

using wg::vertex_t;
using namespace wg::datasets;

using wg::test::pairs;
using wg::test::Pairs;

/// Reads `text` from a plain and a gzip file and checks that both give the same result.
ReadResult read_both(const std::string& name, const std::string& text, const ReadOptions& o = {}) {
  wg::test::TempDir dir;
  ReadResult plain = read_graph(dir.write(name, text), o);
  ReadResult gz = read_graph(dir.write_gz(name + ".gz", text), o);
  EXPECT_EQ(pairs(plain.edges), pairs(gz.edges));
  EXPECT_EQ(plain.edges.weight, gz.edges.weight);
  EXPECT_EQ(plain.edges.num_vertices, gz.edges.num_vertices);
  EXPECT_EQ(plain.original_ids, gz.original_ids);
  EXPECT_EQ(plain.lines, gz.lines);
  return plain;
}

/// What reading a Matrix Market file must give: its header's field and symmetry, the vertex
/// count, the edges and their weights (none: a pattern file). Every symmetry but general makes a
/// symmetric edge list.
using Field = MatrixMarketHeader::Field;
using Symmetry = MatrixMarketHeader::Symmetry;
struct MatrixMarketRead {
  Field field;
  Symmetry symmetry;
  std::uint64_t num_vertices;
  Pairs edges;
  std::vector<double> weights;
};

void expect_read(const ReadResult& r, const MatrixMarketRead& want) {
  EXPECT_EQ(r.format, FileFormat::matrix_market);
  EXPECT_EQ(r.mm.field, want.field);
  EXPECT_EQ(r.mm.symmetry, want.symmetry);
  EXPECT_EQ(r.edges.symmetric, want.symmetry != Symmetry::general);
  EXPECT_EQ(r.edges.num_vertices, want.num_vertices);
  EXPECT_EQ(pairs(r.edges), want.edges);
  EXPECT_EQ(r.edges.weight, want.weights);
}

TEST(MatrixMarket, PatternGeneralRectangularOneBasedToZeroBased) {
  auto r = read_both("g.mtx",
                     "%%MatrixMarket matrix coordinate pattern general\n"
                     "% comment right after the header\n"
                     "%\n"
                     "\n"
                     "3 5 3\n"
                     "1 5\n"
                     "% a comment between entries\n"
                     "3 1\n"
                     "2 2\n");
  // max(rows, cols) vertices; no weights.
  expect_read(r, {Field::pattern, Symmetry::general, 5, {{0, 4}, {2, 0}, {1, 1}}, {}});
  EXPECT_EQ(r.mm.rows, 3u);
  EXPECT_EQ(r.mm.cols, 5u);
  EXPECT_EQ(r.mm.entries, 3u);
  EXPECT_EQ(r.lines, 9u);
}

TEST(MatrixMarket, RealSymmetricCrlfTabsNoFinalNewline) {
  auto r = read_both("s.mtx",
                     "%%MatrixMarket matrix coordinate real symmetric\r\n"
                     "% crlf\r\n"
                     "4 4 3\r\n"
                     "2\t1\t0.5\r\n"
                     "  4 2 -1.25e2  \r\n"
                     "+3 3 +7");
  expect_read(r,
              {Field::real, Symmetry::symmetric, 4, {{1, 0}, {3, 1}, {2, 2}}, {0.5, -125.0, 7.0}});
}

TEST(MatrixMarket, IntegerSkewSymmetricAndCaseInsensitiveHeader) {
  auto r = read_both("k.mtx",
                     "%%matrixmarket MATRIX Coordinate Integer Skew-Symmetric\n"
                     "3 3 2\n"
                     "2 1 -4\n"
                     "3 1 9007199254740992\n");
  // 2^53 is held exactly.
  expect_read(
      r,
      {Field::integer, Symmetry::skew_symmetric, 3, {{1, 0}, {2, 0}}, {-4.0, 9007199254740992.0}});
}

TEST(MatrixMarket, EmptyMatrixKeepsDeclaredVertices) {
  auto r = read_both("e.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n7 7 0\n");
  EXPECT_EQ(r.edges.num_vertices, 7u);
  EXPECT_TRUE(r.edges.empty());
}

TEST(MatrixMarket, LargestIdsAtTheIdLimit) {
  // The size line may reach wg::kVertexIdLimit (ids 1..2^31 in the file, 0..2^31-1 inside);
  // nothing is allocated for the declared range, and the size line is its line.
  auto r = read_both("big.mtx",
                     "%%MatrixMarket matrix coordinate pattern general\n"
                     "2147483648 2147483648 1\n"
                     "2147483648 1\n");
  EXPECT_EQ(r.edges.num_vertices, wg::kVertexIdLimit);
  EXPECT_EQ(pairs(r.edges), (Pairs{{2147483647u, 0}}));
  EXPECT_EQ(r.id_range_line, 2u);
}

TEST(MatrixMarket, CompactIdsRenumberInOrderOfFirstAppearance) {
  ReadOptions o;
  o.compact_ids = true;
  const auto r = read_both("compact.mtx",
                           "%%MatrixMarket matrix coordinate pattern general\n"
                           "2000000000 2000000000 2\n2000000000 7\n7 3\n",
                           o);
  EXPECT_EQ(r.edges.num_vertices, 3u);
  EXPECT_EQ(pairs(r.edges), (Pairs{{0, 1}, {1, 2}}));
  EXPECT_EQ(r.original_ids, (std::vector<std::uint64_t>{1999999999, 6, 2}));
}

TEST(MatrixMarket, ByteOrderMarkAndFormatDetectionByHeader) {
  // A .txt name with a Matrix Market header is read as Matrix Market.
  auto r = read_both("x.txt",
                     "\xEF\xBB\xBF%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n");
  EXPECT_EQ(r.format, FileFormat::matrix_market);
  EXPECT_EQ(pairs(r.edges), (Pairs{{0, 1}}));
}

TEST(Snap, CommentsTabsSpacesCrlf) {
  auto r = read_both("g.txt",
                     "# Directed graph: example\r\n"
                     "# FromNodeId\tToNodeId\r\n"
                     "0\t1\r\n"
                     "  2 3  \r\n"
                     "\r\n"
                     "% konect-style comment\n"
                     "5\t\t0\n"
                     "4 4");
  EXPECT_EQ(r.format, FileFormat::snap);
  EXPECT_TRUE(r.edges.symmetric);
  EXPECT_FALSE(r.edges.weighted());
  EXPECT_EQ(r.edges.num_vertices, 6u);
  EXPECT_EQ(pairs(r.edges), (Pairs{{0, 1}, {2, 3}, {5, 0}, {4, 4}}));
  EXPECT_EQ(r.lines, 8u);
}

TEST(Snap, WeightsAndDirected) {
  ReadOptions o;
  o.snap_undirected = false;
  auto r = read_both("w.txt", "0 1 0.25\n1 2 3\n2 0 -1e-3\n", o);
  EXPECT_FALSE(r.edges.symmetric);
  EXPECT_EQ(r.edges.weight, (std::vector<double>{0.25, 3.0, -1e-3}));
}

TEST(Snap, LargestIdFits) {
  auto r = read_both("max.txt", "0 1\n# c\n2147483647 0\n5 2147483647\n");
  EXPECT_EQ(r.edges.num_vertices, wg::kVertexIdLimit);
  EXPECT_EQ(r.id_range_line, 3u);  // the first line naming the largest id
}

TEST(Snap, CompactIdsInOrderOfFirstAppearance) {
  ReadOptions o;
  o.compact_ids = true;
  auto r =
      read_both("c.txt", "# sparse ids\n1000 70\n70 18446744073709551615\n5000000000 1000\n", o);
  EXPECT_EQ(r.edges.num_vertices, 4u);
  EXPECT_EQ(pairs(r.edges), (Pairs{{0, 1}, {1, 2}, {3, 0}}));
  EXPECT_EQ(r.original_ids,
            (std::vector<std::uint64_t>{1000, 70, 18446744073709551615ull, 5000000000ull}));
}

TEST(ReadGraph, ForcedFormat) {
  ReadOptions o;
  o.format = FileFormat::matrix_market;
  auto r = read_both("m.txt", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n2 1\n", o);
  EXPECT_EQ(pairs(r.edges), (Pairs{{1, 0}}));
}

TEST(ReadGraph, ProgressIsMonotonicAndEnds) {
  wg::test::TempDir dir;
  std::string text;
  for (int i = 0; i < 1000; ++i)
    text += std::to_string(i) + " " + std::to_string(i * 7 % 1000) + "\n";
  std::string path = dir.write("p.txt", text);
  ReadOptions o;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> calls;
  o.progress = [&](std::uint64_t done, std::uint64_t total) { calls.emplace_back(done, total); };
  auto r = read_graph(path, o);
  EXPECT_EQ(r.edges.size(), 1000u);
  ASSERT_FALSE(calls.empty());
  for (std::size_t i = 0; i < calls.size(); ++i) {
    EXPECT_LE(calls[i].first, calls[i].second);
    if (i) EXPECT_GE(calls[i].first, calls[i - 1].first);
  }
  EXPECT_EQ(calls.back().first, calls.back().second);
}

// ---- chunked parsing: texts large enough to be split across threads ---------------------------

/// A SNAP text of `n` lines with pseudo-random ids (and weights), plus the expected pairs.
std::string big_snap(std::size_t n, bool weights, Pairs& expected) {
  std::string text;
  text.reserve(n * 24);
  std::uint64_t x = 12345;
  char buf[64];
  for (std::size_t i = 0; i < n; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    vertex_t u = static_cast<vertex_t>(x >> 40), v = static_cast<vertex_t>((x >> 16) & 0xffffff);
    expected.emplace_back(u, v);
    int len = weights ? std::snprintf(buf, sizeof buf, "%u\t%u\t%u.5\n", u, v,
                                      static_cast<unsigned>(i % 100))
                      : std::snprintf(buf, sizeof buf, "%u %u\n", u, v);
    if (i % 1000 == 0) text += "# comment\n";
    text.append(buf, static_cast<std::size_t>(len));
  }
  return text;
}

std::uint64_t line_of_offset(const std::string& text, std::size_t offset) {
  return 1 + static_cast<std::uint64_t>(std::count(
                 text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

TEST(ChunkedParse, SnapMatchesModelAndLocatesLateErrors) {
  Pairs expected;
  std::string text = big_snap(3'000'000, false, expected);  // ~40 MB: split over the threads
  auto r = wg::datasets::parse_snap(text);
  ASSERT_EQ(r.edges.size(), expected.size());
  EXPECT_TRUE(pairs(r.edges) == expected);
  vertex_t max_id = 0;
  for (auto& [u, v] : expected) max_id = std::max({max_id, u, v});
  EXPECT_EQ(r.edges.num_vertices, std::uint64_t{max_id} + 1);

  // An error in the last quarter (another chunk than the first) is reported at its true line.
  for (double where : {0.3, 0.55, 0.8, 0.999}) {
    std::string bad = text;
    std::size_t pos =
        bad.find('\n', static_cast<std::size_t>(static_cast<double>(bad.size()) * where)) + 1;
    bad.insert(pos, "12 oops\n");
    const std::string problem = wg::test::expect_parse_error(
        "big.txt", line_of_offset(bad, pos),
        [&](const std::string& name) { wg::datasets::parse_snap(bad, {}, name); });
    EXPECT_NE(problem.find("'oops'"), std::string::npos) << problem;
  }
  // A weight appearing only in a later chunk is reported at its line.
  std::string mixed = text;
  std::size_t pos = mixed.find('\n', mixed.size() * 3 / 4) + 1;
  mixed.insert(pos, "1 2 3.5\n");
  wg::test::expect_parse_error("big.txt", line_of_offset(mixed, pos), [&](const std::string& name) {
    wg::datasets::parse_snap(mixed, {}, name);
  });
}

TEST(ChunkedParse, WeightedSnapAndCompaction) {
  Pairs expected;
  std::string text = big_snap(1'700'000, true, expected);  // ~36 MB
  auto r = wg::datasets::parse_snap(text);
  ASSERT_EQ(r.edges.weight.size(), expected.size());
  EXPECT_TRUE(pairs(r.edges) == expected);
  EXPECT_EQ(r.edges.weight[7], 7.5);
  EXPECT_EQ(r.edges.weight[1'699'999], 99.5);
  ReadOptions o;
  o.compact_ids = true;
  auto c = wg::datasets::parse_snap(text, o);
  ASSERT_EQ(c.edges.size(), expected.size());
  // Model of the compaction: ids in order of first appearance.
  std::unordered_map<std::uint64_t, vertex_t> model;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    for (vertex_t id : {expected[i].first, expected[i].second})
      model.emplace(id, static_cast<vertex_t>(model.size()));
    ASSERT_EQ(c.edges.src[i], model.at(expected[i].first));
    ASSERT_EQ(c.edges.dst[i], model.at(expected[i].second));
  }
  EXPECT_EQ(c.edges.num_vertices, model.size());
  ASSERT_EQ(c.original_ids.size(), model.size());
  for (auto& [orig, compact] : model) ASSERT_EQ(c.original_ids[compact], orig);
}

TEST(ChunkedParse, MatrixMarketEntryCountAcrossChunks) {
  Pairs expected;
  std::string body = big_snap(3'000'000, false, expected);
  // The generated ids are < 2^24; as 1-based ids they need rows = 2^24.
  auto header = [&](std::uint64_t entries) {
    return "%%MatrixMarket matrix coordinate pattern general\n" + std::to_string(1u << 24) + " " +
           std::to_string(1u << 24) + " " + std::to_string(entries) + "\n";
  };
  // Rewrite "# comment" lines as "%" comments and shift ids to 1-based.
  std::string mm;
  mm.reserve(body.size() + 100);
  for (auto& [u, v] : expected) {
    mm += std::to_string(u + 1);
    mm += ' ';
    mm += std::to_string(v + 1);
    mm += '\n';
  }
  auto r = wg::datasets::parse_matrix_market(header(expected.size()) + mm);
  ASSERT_EQ(r.edges.size(), expected.size());
  EXPECT_TRUE(pairs(r.edges) == expected);
  // One entry fewer declared: the error names the line of the extra (last) entry.
  std::string text = header(expected.size() - 1) + mm;
  const auto parse = [&](const std::string& name) {
    wg::datasets::parse_matrix_market(text, name);
  };
  const std::string problem = wg::test::expect_parse_error("big.mtx", expected.size() + 2, parse);
  EXPECT_NE(problem.find("more entries"), std::string::npos) << problem;
  // Half the entries declared: the error names the line of entry half + 1 (in the first chunk).
  text = header(expected.size() / 2) + mm;
  wg::test::expect_parse_error("big.mtx", expected.size() / 2 + 3, parse);
}

}  // namespace

namespace {

// The chunked parse on tiny chunks (every split point, 2..8 threads) gives the same result or
// the same error message as a single chunk.
TEST(ChunkedParse, TinyChunksAgreeWithOneChunk) {
  const char* mm_texts[] = {
      "%%MatrixMarket matrix coordinate pattern general\n3 3 4\n1 2\n% c\n2 3\n\n3 1\n1 1\n",
      "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n% c\n2 3\n\n3 1\n1 1\n",
      "%%MatrixMarket matrix coordinate pattern general\n3 3 6\n1 2\n2 3\n% end\n",
      "%%MatrixMarket matrix coordinate real symmetric\r\n4 4 3\r\n2\t1\t0.5\r\n  4 2 -1.25e2  "
      "\r\n+3 3 +7",
      "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 1\n2 3 x\n3 1 2\n",
      "%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n2 3\n3 1\n4 1\n0 0\n",
  };
  const char* snap_texts[] = {
      "# c\n0 1\n2 3\n\n4 5\n6 7\n8 9\n", "0 1 2\n1 2 3\n2 3\n3 4 5\n", "0 1\n1 2\n2 3\n3 4 5\n",
      "0 1\n1 2\n2 x\n3 4\n5 6 7 8\n",    "# only\n# comments\n",       "0 1 0.5\r\n1 2 1.5\r\n",
  };
  auto outcome = [](auto parse) {
    wg::datasets::fuzz::Outcome o;
    try {
      o.result = parse();
      o.ok = true;
    } catch (const wg::Error& e) {
      o.error = e.what();
    }
    return o;
  };
  auto& policy = wg::datasets::detail::chunk_policy();
  for (unsigned threads = 2; threads <= 8; threads += 3)
    for (std::size_t chunk = 1; chunk <= 16; chunk *= 2) {
      for (const char* t : mm_texts) {
        policy = {std::size_t{1} << 40, 1};
        auto one = outcome([&] { return wg::datasets::parse_matrix_market(t); });
        policy = {chunk, threads};
        auto many = outcome([&] { return wg::datasets::parse_matrix_market(t); });
        policy = {};
        EXPECT_TRUE(wg::datasets::fuzz::same(one, many)) << t << "\n"
                                                         << one.error << "\n"
                                                         << many.error;
      }
      for (const char* t : snap_texts)
        for (bool compact : {false, true}) {
          ReadOptions o;
          o.compact_ids = compact;
          policy = {std::size_t{1} << 40, 1};
          auto one = outcome([&] { return wg::datasets::parse_snap(t, o); });
          policy = {chunk, threads};
          auto many = outcome([&] { return wg::datasets::parse_snap(t, o); });
          policy = {};
          EXPECT_TRUE(wg::datasets::fuzz::same(one, many)) << t << "\n"
                                                           << one.error << "\n"
                                                           << many.error;
        }
    }
}

}  // namespace
