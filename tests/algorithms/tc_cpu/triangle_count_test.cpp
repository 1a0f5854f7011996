// CPU triangle counting: static counts on every shared dataset against the published figures
// and the Boost.Graph reference; incremental counts on update streams (R-MAT and ego-Facebook)
// against a full recount and the reference after every batch; exactness on dense random graphs
// whose batches put 1, 2 or 3 edges of a triangle in the same batch, with duplicates,
// self-loops, present and absent edges, against a brute-force count.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/algorithms/tc/cpu/tc.hpp>
#include <warpgraph/algorithms/tc/cpu/triangle_count.hpp>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/datasets/update_stream.hpp>

#include "../tc_entry_check.hpp"
#include "test_support.hpp"

// Inside wg::cpu: the CPU graph and counter and wg's edge types need no using-declarations.
namespace wg::cpu {
namespace {

DynamicGraph undirected_graph(unsigned threads = 2) {
  GraphOptions o;
  o.threads = threads;
  return DynamicGraph(o);
}

// ---- static counts on the shared datasets ----------------------------------------------------

struct Dataset {
  const char* file;
  std::uint64_t triangles;  ///< published figure (../shared/datasets/README.md)
};

class SharedDatasets : public testing::TestWithParam<Dataset> {};

TEST_P(SharedDatasets, StaticCountEqualsPublishedAndReference) {
  WG_REQUIRE_DATASET(path, GetParam().file);
  const EdgeList edges = wg::datasets::read_graph(path).edges;
  ASSERT_TRUE(edges.symmetric);
  GraphOptions o;
  o.weighted = edges.weighted();  // netscience is weighted: exercise the map form too
  o.threads = 2;
  DynamicGraph g(o);
  g.build(edges);
  wg::cpu::TcOptions tc;
  tc.per_vertex = true;
  const wg::cpu::TriangleCounts got = wg::cpu::triangle_count(g, tc);
  const wg::reference::TriangleCounts want = wg::reference::triangle_count(edges);
  EXPECT_EQ(got.total, GetParam().triangles);
  EXPECT_EQ(got.total, want.total);
  EXPECT_EQ(got.per_vertex, want.per_vertex);
  // Sorted-merge intersections give the same, per vertex too.
  tc.intersection = wg::cpu::TcOptions::Intersection::merge;
  const wg::cpu::TriangleCounts merged = wg::cpu::triangle_count(g, tc);
  EXPECT_EQ(merged.total, want.total);
  EXPECT_EQ(merged.per_vertex, want.per_vertex);
  // One thread gives the same, with either intersection.
  tc.threads = 1;
  tc.per_vertex = false;
  EXPECT_EQ(wg::cpu::triangle_count(g, tc).total, want.total);
  tc.intersection = wg::cpu::TcOptions::Intersection::bitmap;
  EXPECT_EQ(wg::cpu::triangle_count(g, tc).total, want.total);
}

INSTANTIATE_TEST_SUITE_P(All, SharedDatasets,
                         testing::Values(Dataset{"karate.mtx", 45}, Dataset{"dolphins.mtx", 95},
                                         Dataset{"polbooks.mtx", 560},
                                         Dataset{"netscience.mtx", 3764},
                                         Dataset{"facebook_combined.txt", 1612010},
                                         Dataset{"luxembourg_osm.mtx", 68},
                                         Dataset{"delaunay_n16.mtx", 131842}),
                         [](const testing::TestParamInfo<Dataset>& info) {
                           std::string name = info.param.file;
                           return name.substr(0, name.find('.'));
                         });

// ---- incremental counts on update streams ------------------------------------------------------

/// Replays `stream` through an IncrementalTriangleCounter; after every batch the running total
/// must equal a static recount and the reference on the exported graph.
void replay_and_check(const wg::datasets::UpdateStream& stream, const EdgeList& whole) {
  DynamicGraph g = undirected_graph();
  g.build(stream.initial);
  IncrementalTriangleCounter counter(g);
  ASSERT_EQ(counter.total(), wg::reference::triangle_count(stream.initial).total);
  std::size_t index = 0;
  for (const auto& batch : stream.batches) {
    SCOPED_TRACE("batch " + std::to_string(index++));
    const bool insert = batch.kind == wg::datasets::UpdateBatch::Kind::insert;
    const std::uint64_t before = counter.total();
    const auto r = insert ? counter.insert_edges(batch.edges) : counter.erase_edges(batch.edges);
    ASSERT_EQ(r.update.entries(), batch.edges.size());
    ASSERT_EQ(r.total, insert ? before + r.triangles_changed : before - r.triangles_changed);
    const std::uint64_t recount = wg::cpu::triangle_count(g).total;
    ASSERT_EQ(r.total, recount);
    ASSERT_EQ(r.total, wg::reference::triangle_count(g.export_coo()).total);
  }
  // The stream ends on the input graph.
  EXPECT_EQ(counter.total(), wg::reference::triangle_count(whole).total);
}

TEST(IncrementalTriangles, RmatStreamEveryBatchEqualsRecountAndReference) {
  const EdgeList g = wg::datasets::generate_rmat({.scale = 11, .edge_factor = 12, .seed = 7});
  const auto stream =
      wg::datasets::make_update_stream(g, {.initial_fraction = 0.3, .batch_size = 1500, .seed = 3});
  ASSERT_GE(stream.batches.size(), 8u);
  replay_and_check(stream, g);
}

TEST(IncrementalTriangles, FacebookStreamEveryBatchEqualsRecountAndReference) {
  // The copy bundled in the source tree, so this runs wherever the sources are.
  const EdgeList g =
      wg::datasets::read_graph(wg::test::source_path("datasets/data/facebook_combined.txt.gz"))
          .edges;
  const auto stream = wg::datasets::make_update_stream(
      g, {.initial_fraction = 0.5, .batch_size = 8192, .seed = 11});
  replay_and_check(stream, g);
}

// ---- the registry entry on the CPU graph --------------------------------------------------------

TEST(TcEntry, RunAndDynamicClassOnTheCpuGraphEqualTheReference) {
  wg::test::check_tc_entry([] { return undirected_graph(); });
}

// ---- exactness on dense random graphs ---------------------------------------------------------

std::uint64_t brute_force_triangles(const std::vector<std::vector<char>>& adj) {
  const std::size_t n = adj.size();
  std::uint64_t t = 0;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b)
      if (adj[a][b])
        for (std::size_t c = b + 1; c < n; ++c) t += adj[a][c] && adj[b][c];
  return t;
}

TEST(IncrementalTriangles, DenseBatchesWithOneTwoThreeNewEdgesPerTriangle) {
  const vertex_t n = 28;
  std::mt19937_64 rng(99);
  std::uniform_int_distribution<vertex_t> id(0, n - 1);
  std::vector<std::vector<char>> adj(n, std::vector<char>(n, 0));
  for (unsigned threads : {1u, 2u}) {
    DynamicGraph g = undirected_graph(threads);
    g.build(EdgeList{n, {}, {}, {}, true});
    for (auto& row : adj) std::fill(row.begin(), row.end(), 0);
    IncrementalTriangleCounter counter(g);
    for (int round = 0; round < 60; ++round) {
      const bool insert = round % 3 != 2;
      EdgeList b;
      b.num_vertices = n;
      b.symmetric = true;
      const int entries = 20 + round % 7 * 15;
      for (int i = 0; i < entries; ++i) {
        const vertex_t u = id(rng);
        const vertex_t v = i % 11 == 0 ? u : id(rng);  // self-loops
        b.src.push_back(u);
        b.dst.push_back(v);
        if (i % 5 == 0) {  // the same edge again, reversed: a duplicate
          b.src.push_back(v);
          b.dst.push_back(u);
        }
      }
      const auto r = insert ? counter.insert_edges(b) : counter.erase_edges(b);
      for (std::size_t i = 0; i < b.size(); ++i) {
        if (b.src[i] == b.dst[i]) continue;
        adj[b.src[i]][b.dst[i]] = adj[b.dst[i]][b.src[i]] = insert;
      }
      ASSERT_EQ(r.total, brute_force_triangles(adj)) << "round " << round;
      EXPECT_EQ(r.update.entries(), b.size());
    }
    // Vertex deletion through the counter.
    std::vector<vertex_t> victims{3, 17, 3, 25};
    const auto vr = counter.erase_vertices(victims);
    for (vertex_t v : {3u, 17u, 25u}) {
      for (vertex_t w = 0; w < n; ++w) adj[v][w] = adj[w][v] = 0;
    }
    EXPECT_EQ(vr.update.vertices, 3u);
    EXPECT_EQ(vr.total, brute_force_triangles(adj));
    EXPECT_EQ(vr.total, counter.recount());
  }
}

TEST(IncrementalTriangles, OneBatchHoldsAWholeTriangle) {
  DynamicGraph g = undirected_graph(1);
  g.build(EdgeList{6, {0}, {1}, {}, true});  // edge {0,1} already present
  IncrementalTriangleCounter counter(g);
  // {0,1,2}: two new edges; {2,3,4}: three new edges, each given twice; {0,1} again; a loop.
  EdgeList b{6, {0, 2, 2, 3, 4, 2, 3, 4, 1, 5}, {2, 1, 3, 4, 2, 3, 4, 2, 0, 5}, {}, true};
  const auto r = counter.insert_edges(b);
  EXPECT_EQ(r.triangles_changed, 2u);
  EXPECT_EQ(r.update.applied, 5u);
  EXPECT_EQ(r.update.duplicates, 3u);
  EXPECT_EQ(r.update.ignored, 1u);
  EXPECT_EQ(r.update.self_loops, 1u);
  // Deleting two edges of one triangle and an absent edge removes exactly one triangle.
  const auto e = counter.erase_edges(EdgeList{6, {2, 3, 0}, {3, 4, 5}, {}, true});
  EXPECT_EQ(e.triangles_changed, 1u);
  EXPECT_EQ(e.update.ignored, 1u);
  EXPECT_EQ(e.total, 1u);
}

TEST(IncrementalTriangles, DirectedGraphIsRefused) {
  GraphOptions o;
  o.directed = true;
  DynamicGraph g(o);
  EXPECT_THROW(IncrementalTriangleCounter{g}, wg::InvalidArgument);
  EXPECT_THROW(wg::cpu::triangle_count(g), wg::InvalidArgument);
}

}  // namespace
}  // namespace wg::cpu
