// Update streams: replaying a generated stream on a std::set model ends on the input's simple
// graph; batch sizes, duplicates and absent deletions are as specified. Update files and SNAP
// temporal lists: formats and errors with file:line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/datasets/update_stream.hpp>

#include "temp_files.hpp"
#include "test_support.hpp"

namespace {

using wg::datasets::StreamParams;
using wg::datasets::UpdateBatch;
using Key = std::pair<wg::vertex_t, wg::vertex_t>;

Key key(wg::vertex_t u, wg::vertex_t v, bool sym) {
  return sym && u > v ? Key{v, u} : Key{u, v};
}

std::set<Key> simple_graph(const wg::EdgeList& e) {
  std::set<Key> s;
  for (std::size_t i = 0; i < e.size(); ++i)
    if (e.src[i] != e.dst[i]) s.insert(key(e.src[i], e.dst[i], e.symmetric));
  return s;
}

struct Observed {
  std::uint64_t dup_in_batch = 0, insert_present = 0, erase_absent = 0, erase_dup = 0;
};

/// Replays the stream on a set model, checking the invariants; returns what it saw.
Observed replay_and_check(const wg::EdgeList& graph, const StreamParams& p) {
  auto s = wg::datasets::make_update_stream(graph, p);
  const bool sym = graph.symmetric;
  auto target = simple_graph(graph);
  std::set<Key> model = simple_graph(s.initial);
  EXPECT_EQ(s.initial.size(), model.size()) << "initial part holds no duplicates";
  EXPECT_EQ(s.initial.size(),
            static_cast<std::size_t>(std::floor(target.size() * p.initial_fraction)));
  Observed seen;
  for (std::size_t b = 0; b < s.batches.size(); ++b) {
    const auto& batch = s.batches[b];
    EXPECT_EQ(batch.edges.symmetric, sym);
    EXPECT_EQ(batch.edges.num_vertices, graph.num_vertices);
    EXPECT_LE(batch.edges.size(), p.batch_size);
    EXPECT_FALSE(batch.edges.empty());
    std::set<Key> in_batch;
    for (std::size_t i = 0; i < batch.edges.size(); ++i) {
      Key k = key(batch.edges.src[i], batch.edges.dst[i], sym);
      EXPECT_LT(k.second, graph.num_vertices);
      if (!in_batch.insert(k).second)
        ++(batch.kind == UpdateBatch::Kind::insert ? seen.dup_in_batch : seen.erase_dup);
      if (batch.kind == UpdateBatch::Kind::insert) {
        EXPECT_TRUE(target.count(k)) << "insertions come from the graph";
        if (model.count(k) && in_batch.size() == i + 1) ++seen.insert_present;
      } else if (!model.count(k) && in_batch.size() == i + 1) {
        ++seen.erase_absent;
      }
    }
    // Apply after the batch (a batch is a set operation).
    for (const Key& k : in_batch) {
      if (k.first == k.second) continue;
      if (batch.kind == UpdateBatch::Kind::insert)
        model.insert(k);
      else
        model.erase(k);
    }
  }
  if (!s.batches.empty()) EXPECT_EQ(s.batches.back().kind, UpdateBatch::Kind::insert);
  EXPECT_TRUE(model == target) << "the stream ends on the input's simple graph";
  // Every insertion batch but the last is full.
  std::size_t inserts = 0;
  for (std::size_t b = 0; b < s.batches.size(); ++b)
    if (s.batches[b].kind == UpdateBatch::Kind::insert) ++inserts;
  std::size_t k = 0;
  for (std::size_t b = 0; b < s.batches.size(); ++b) {
    if (s.batches[b].kind != UpdateBatch::Kind::insert) continue;
    if (++k < inserts && p.batch_size > 0) EXPECT_EQ(s.batches[b].edges.size(), p.batch_size) << b;
  }
  return seen;
}

TEST(UpdateStream, RmatReplayEndsOnInputWithDuplicatesAndAbsentDeletions) {
  wg::datasets::RmatParams rp;
  rp.scale = 12;
  rp.edge_factor = 8;
  auto g = wg::datasets::generate_rmat(rp);  // has duplicates and self-loops
  StreamParams p;
  p.batch_size = 1000;
  p.delete_probability = 0.7;
  auto seen = replay_and_check(g, p);
  EXPECT_GT(seen.dup_in_batch, 0u);
  EXPECT_GT(seen.insert_present, 0u);
  EXPECT_GT(seen.erase_absent, 0u);
  EXPECT_GT(seen.erase_dup, 0u);
}

TEST(UpdateStream, DirectedAndEdgeCases) {
  wg::datasets::ErdosRenyiParams ep;
  ep.num_vertices = 300;
  ep.num_edges = 5000;
  ep.symmetric = false;
  auto g = wg::datasets::generate_erdos_renyi(ep);
  for (double init : {0.0, 0.3, 1.0})
    for (double del : {0.0, 1.0})
      for (std::uint64_t bs : {1ull, 7ull, 4096ull, 100000ull}) {
        StreamParams p;
        p.initial_fraction = init;
        p.delete_probability = del;
        p.batch_size = bs;
        SCOPED_TRACE(testing::Message() << init << " " << del << " " << bs);
        replay_and_check(g, p);
      }
  // No duplicates, no absent deletions asked: none produced.
  StreamParams clean;
  clean.duplicate_fraction = 0;
  clean.absent_fraction = 0;
  clean.batch_size = 100;
  auto seen = replay_and_check(g, clean);
  EXPECT_EQ(seen.dup_in_batch + seen.insert_present + seen.erase_absent + seen.erase_dup, 0u);
  // Empty graph: empty stream.
  wg::EdgeList empty;
  empty.num_vertices = 5;
  auto s = wg::datasets::make_update_stream(empty, {});
  EXPECT_TRUE(s.initial.empty());
  EXPECT_TRUE(s.batches.empty());
}

TEST(UpdateStream, DeterministicForASeed) {
  wg::datasets::RmatParams rp;
  rp.scale = 10;
  auto g = wg::datasets::generate_rmat(rp);
  StreamParams p;
  p.batch_size = 500;
  auto a = wg::datasets::make_update_stream(g, p);
  auto b = wg::datasets::make_update_stream(g, p);
  ASSERT_EQ(a.batches.size(), b.batches.size());
  EXPECT_EQ(a.initial.src, b.initial.src);
  for (std::size_t i = 0; i < a.batches.size(); ++i) {
    EXPECT_EQ(a.batches[i].kind, b.batches[i].kind);
    EXPECT_EQ(a.batches[i].edges.src, b.batches[i].edges.src);
    EXPECT_EQ(a.batches[i].edges.dst, b.batches[i].edges.dst);
  }
  p.seed = 99;
  auto c = wg::datasets::make_update_stream(g, p);
  EXPECT_NE(c.initial.src, a.initial.src);
}

TEST(UpdateStream, AWeightedGraphsStreamCarriesEachEdgesSmallestWeight) {
  // Undirected: (0,1) listed twice (weights 7 and 3) and reversed; (1,2) 2.5; (2,3) 9; a loop.
  wg::EdgeList g;
  g.num_vertices = 4;
  g.symmetric = true;
  g.src = {0, 1, 1, 2, 3, 2};
  g.dst = {1, 0, 2, 3, 3, 1};
  g.weight = {7, 3, 2.5, 9, 1, 4};
  const std::map<Key, double> want = {{{0, 1}, 3}, {{1, 2}, 2.5}, {{2, 3}, 9}};
  StreamParams p;
  p.batch_size = 2;
  p.initial_fraction = 0.34;
  p.delete_probability = 1;
  const auto s = wg::datasets::make_update_stream(g, p);
  std::size_t weighed = 0;
  const auto check = [&](const wg::EdgeList& e) {
    ASSERT_EQ(e.weight.size(), e.size());
    for (std::size_t i = 0; i < e.size(); ++i, ++weighed)
      EXPECT_EQ(e.weight[i], want.at(key(e.src[i], e.dst[i], true)));
  };
  check(s.initial);
  for (const auto& b : s.batches) {
    if (b.kind == UpdateBatch::Kind::insert)
      check(b.edges);
    else
      EXPECT_FALSE(b.edges.weighted());
  }
  EXPECT_GE(weighed, want.size());  // every edge arrives at least once
  // An unweighted graph's stream stays unweighted.
  g.weight.clear();
  const auto u = wg::datasets::make_update_stream(g, p);
  EXPECT_FALSE(u.initial.weighted());
  for (const auto& b : u.batches) EXPECT_FALSE(b.edges.weighted());
}

TEST(UpdateStream, RejectsBadParameters) {
  wg::EdgeList g;
  StreamParams p;
  p.batch_size = 0;
  EXPECT_THROW(wg::datasets::make_update_stream(g, p), wg::InvalidArgument);
  p = {};
  p.initial_fraction = 1.5;
  EXPECT_THROW(wg::datasets::make_update_stream(g, p), wg::InvalidArgument);
  p = {};
  p.duplicate_fraction = 0.6;
  p.absent_fraction = 0.5;
  EXPECT_THROW(wg::datasets::make_update_stream(g, p), wg::InvalidArgument);
}

TEST(UpdateStream, FacebookStreamEndsOnTheGraph) {
  WG_REQUIRE_DATASET(path, "facebook_combined.txt");
  auto g = wg::datasets::read_graph(path).edges;
  StreamParams p;
  auto seen = replay_and_check(g, p);
  EXPECT_GT(seen.erase_absent, 0u);
}

// ---- update files ------------------------------------------------------------------------------

TEST(UpdateFile, BatchesAndBoundaries) {
  wg::test::TempDir dir;
  const std::string text =
      "# a stream\n"
      "+ 0 1\n"
      "+\t1 2\r\n"
      "=\n"
      "+ 2 3\n"
      "- 0 1\n"
      "-  5 6  \n"
      "=\n"
      "=\n"
      "- 1 2\n"
      "+ 7 0";
  for (bool gz : {false, true}) {
    std::string path = gz ? dir.write_gz("u.txt.gz", text) : dir.write("u.txt", text);
    auto s = wg::datasets::read_update_file(path, true);
    EXPECT_TRUE(s.initial.empty());
    ASSERT_EQ(s.batches.size(), 5u);
    using K = UpdateBatch::Kind;
    const K kinds[] = {K::insert, K::insert, K::erase, K::erase, K::insert};
    const std::size_t sizes[] = {2, 1, 2, 1, 1};
    for (int i = 0; i < 5; ++i) {
      EXPECT_EQ(s.batches[i].kind, kinds[i]) << i;
      EXPECT_EQ(s.batches[i].edges.size(), sizes[i]) << i;
      EXPECT_EQ(s.batches[i].edges.num_vertices, 8u);
      EXPECT_TRUE(s.batches[i].edges.symmetric);
    }
    EXPECT_EQ(s.batches[2].edges.src[1], 5u);
    EXPECT_EQ(s.batches[2].edges.dst[1], 6u);
  }
  auto directed = wg::datasets::parse_update_text("+ 1 0\n", false);
  EXPECT_FALSE(directed.batches.at(0).edges.symmetric);
}

struct BadLine {
  const char* text;
  std::uint64_t line;
  const char* needle;
};

template <class Fn>
void expect_errors(const BadLine* cases, std::size_t n, const char* name, Fn read) {
  for (std::size_t i = 0; i < n; ++i) {
    SCOPED_TRACE(cases[i].text);
    wg::test::expect_parse_error_plain_and_gz(name, cases[i].text, cases[i].line, cases[i].needle,
                                              read);
  }
}

TEST(UpdateFile, Errors) {
  const BadLine cases[] = {
      {"", 0, "empty file"},
      {"# only comments\n\n", 2, "no updates found"},
      {"+ 0 1\n* 1 2\n", 2, "unknown operation '*'"},
      {"+ 0 1\n1 2\n", 2, "unknown operation '1'"},
      {"+ 0\n", 1, "missing target id"},
      {"+ 0 x\n", 1, "target id 'x' is not a valid number"},
      {"- -1 2\n", 1, "source id '-1'"},
      {"+ 0 1 2 3\n", 1, "unexpected text '3' after '+ u v w'"},
      {"- 0 1 2\n", 1, "unexpected text '2' after '- u v' (a deletion takes no weight)"},
      {"+ 0 1 2\n+ 1 2\n", 2, "insertion has 2 fields but earlier insertions have 3"},
      {"+ 0 1\n- 0 1\n+ 1 2 0.5\n", 3, "insertion has 3 fields but earlier insertions have 2"},
      {"+ 0 1 x\n", 1, "weight 'x' is not a valid number"},
      {"+ 0 1 9007199254740993\n", 1, "an integer that a double cannot hold exactly"},
      {"+v\n", 1, "missing vertex id"},
      {"-v 2147483648\n", 1, "vertex id limit"},
      {"+v 3 4\n", 1, "unexpected text '4' after '+v u'"},
      {"+ 0 1\r+ 1 2\r", 1, "classic Mac line ends"},
      {"= 3\n", 1, "after '='"},
      {"+ 0 4294967296\n", 1, "vertex id limit"},
      {"+ 0 2147483648\n", 1, "vertex id limit"},
      {"+ 0 99999999999999999999999\n", 1, "out of range"},
  };
  expect_errors(cases, std::size(cases), "updates.txt",
                [](const std::string& p) { wg::datasets::read_update_file(p); });
}

TEST(TemporalSnap, WindowsInTimeOrder) {
  const std::string text =
      "# u v t\n"
      "0 1 100\n"
      "1 2 -5\n"
      "2 3 104\n"
      "3 4 99\n"
      "4 5 250\n"
      "5 6 100\n";
  auto s = wg::datasets::parse_temporal_snap(text, 10);
  // t sorted: -5 | 99 100 100 104 | 250 ; windows of 10 from t_min = -5: slots 0, 10, 10, 10,
  // 10, 25.
  ASSERT_EQ(s.batches.size(), 3u);
  EXPECT_EQ(s.batches[0].edges.size(), 1u);
  EXPECT_EQ(s.batches[1].edges.size(), 4u);
  EXPECT_EQ(s.batches[2].edges.size(), 1u);
  // Stable order for equal timestamps: (0,1) before (5,6).
  EXPECT_EQ(s.batches[1].edges.src, (std::vector<wg::vertex_t>{3, 0, 5, 2}));
  for (auto& b : s.batches) {
    EXPECT_EQ(b.kind, UpdateBatch::Kind::insert);
    EXPECT_EQ(b.edges.num_vertices, 7u);
  }
  auto one = wg::datasets::parse_temporal_snap(text, 1000);
  EXPECT_EQ(one.batches.size(), 1u);
  auto extreme =
      wg::datasets::parse_temporal_snap("0 1 -9223372036854775808\n1 2 9223372036854775807\n", 1);
  EXPECT_EQ(extreme.batches.size(), 2u);
  EXPECT_THROW(wg::datasets::parse_temporal_snap(text, 0), wg::InvalidArgument);
}

TEST(TemporalSnap, Errors) {
  const BadLine cases[] = {
      {"", 0, "empty file"},
      {"# c\n", 1, "no edges found"},
      {"0 1 5\n0 1\n", 2, "missing timestamp"},
      {"0 1 5\n0 1 t\n", 2, "timestamp 't' is not a valid number"},
      {"0 1 5 6\n", 1, "unexpected text '6'"},
      {"0 1 99999999999999999999\n", 1, "timestamp '99999999999999999999' is out of range"},
      {"x 1 5\n", 1, "source id 'x'"},
  };
  expect_errors(cases, std::size(cases), "temporal.txt",
                [](const std::string& p) { wg::datasets::read_temporal_snap(p, 10); });
}

}  // namespace
