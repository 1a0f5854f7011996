// GPU PageRank: static ranks on every shared dataset and on a directed R-MAT graph (push), and
// dynamic ranks after every batch of R-MAT insert/delete streams (undirected and directed;
// duplicates, self-loops, absent edges), all within the stated bound of the Boost.Graph
// reference with the same damping, dangling rule and L1 tolerance: 2 d / (1 - d) * tol (plus
// rounding) per vertex, since the L1 distance bounds every entry.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <warpgraph/algorithms/pagerank/gpu/pagerank.hpp>
#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#include "../../support/test_support.hpp"
#include "../wcc_gpu/gpu_stream_fixture.hpp"

namespace {

using wg::EdgeList;
using wg::test::GraphModel;
using SetGraph = wg::gpu::DynamicGraph<wg::gpu::SlabSetAdjacency>;
using MapGraph = wg::gpu::DynamicGraph<wg::gpu::SlabMapAdjacency>;

constexpr double kTol = 1e-10;

double bound(double d, double tol) {
  return 2 * d / (1 - d) * tol + 1e-12;
}

void expect_close(const std::vector<double>& got, const EdgeList& edges, bool directed,
                  double damping = 0.85) {
  const auto want = wg::reference::pagerank(
      edges, {.damping = damping, .tolerance = kTol, .max_iterations = 1000}, directed);
  ASSERT_EQ(got.size(), want.rank.size());
  double l1 = 0;
  for (std::size_t v = 0; v < got.size(); ++v) l1 += std::fabs(got[v] - want.rank[v]);
  EXPECT_LE(l1, bound(damping, kTol));
  EXPECT_NEAR(std::accumulate(got.begin(), got.end(), 0.0), 1.0, 1e-9);
}

class SharedDatasets : public testing::TestWithParam<const char*> {};

TEST_P(SharedDatasets, StaticRanksWithinBound) {
  WG_REQUIRE_GPU();
  WG_REQUIRE_DATASET(path, GetParam());
  EdgeList e = wg::datasets::read_graph(path).edges;
  e.weight.clear();
  SetGraph g(0);
  g.build(e);
  const auto r = wg::gpu::pagerank(g, {.tolerance = kTol});
  EXPECT_TRUE(r.converged);
  expect_close(r.rank, e, false);
  MapGraph w(0);
  w.build(e);
  expect_close(wg::gpu::pagerank(w, {.tolerance = kTol}).rank, e, false);
}

INSTANTIATE_TEST_SUITE_P(All, SharedDatasets, wg::test::kBundledGraphs, wg::test::graph_test_name);

TEST(GpuPageRank, DirectedPushWithinBound) {
  WG_REQUIRE_GPU();
  const EdgeList e = wg::datasets::generate_rmat(
      {.scale = wg::test::gpu_test_scale(), .edge_factor = 8, .seed = 5, .symmetric = false});
  SetGraph g(0, {.directed = true});
  g.build(e);
  GraphModel m(0, true);
  m.clear(e.num_vertices);
  m.insert(e);
  for (double d : {0.85, 0.5}) {
    const auto r = wg::gpu::pagerank(g, {.damping = d, .tolerance = kTol});
    expect_close(r.rank, wg::test::reference_edges(m), true, d);
  }
}

TEST(GpuPageRank, MaxChangeStopAndOptions) {
  WG_REQUIRE_GPU();
  const EdgeList e = wg::datasets::generate_rmat({.scale = 10, .edge_factor = 8, .seed = 2});
  SetGraph g(0);
  g.build(e);
  using Stop = wg::gpu::PageRankOptions::Stop;
  const auto l1 = wg::gpu::pagerank(g, {.tolerance = 1e-6});
  const auto mx = wg::gpu::pagerank(g, {.tolerance = 1e-6, .stop = Stop::max_change});
  EXPECT_TRUE(mx.converged);
  EXPECT_LE(mx.iterations, l1.iterations);  // the largest change is at most the L1 change
  const auto capped = wg::gpu::pagerank(g, {.tolerance = 0, .max_iterations = 3});
  EXPECT_EQ(capped.iterations, 3);
  EXPECT_FALSE(capped.converged);
  EXPECT_THROW(wg::gpu::pagerank(g, {.damping = 1.5}), wg::InvalidArgument);
  EXPECT_THROW(wg::gpu::pagerank(g, {.tolerance = -1}), wg::InvalidArgument);
  EXPECT_THROW(wg::gpu::pagerank(g, {.max_iterations = -1}), wg::InvalidArgument);
}

template <class Graph>
void stream_case(bool directed, std::uint64_t batch_size, std::uint64_t seed) {
  WG_REQUIRE_GPU();
  const auto stream =
      wg::test::gpu_rmat_stream(wg::test::gpu_test_scale(), 8, batch_size, directed, seed);
  Graph g(0, {.directed = directed});
  GraphModel m(0, directed);
  m.clear(stream.initial.num_vertices);
  ASSERT_EQ(g.build(stream.initial), m.insert(stream.initial));
  wg::gpu::DynamicPageRank<Graph> dyn(g, {.tolerance = kTol});
  expect_close(dyn.result().rank, wg::test::reference_edges(m), directed);
  wg::test::replay_gpu(stream, dyn, m, [&](std::size_t, const auto& r, bool) {
    EXPECT_FALSE(r.recomputed);
    expect_close(dyn.result().rank, wg::test::reference_edges(m), directed);
  });
  // A batch that changes nothing iterates not at all.
  EdgeList none;
  none.num_vertices = g.num_vertices();
  none.src = {0};
  none.dst = {0};
  const auto r = dyn.insert_edges(none);
  EXPECT_EQ(r.changed, 0u);
  EXPECT_EQ(dyn.last_run().iterations, 0);
}

TEST(GpuDynamicPageRank, UndirectedStream) {
  stream_case<SetGraph>(false, 512, 3);
}
TEST(GpuDynamicPageRank, DirectedStream) {
  stream_case<SetGraph>(true, 512, 4);
}
TEST(GpuDynamicPageRank, MapAdjacencyStream) {
  stream_case<MapGraph>(false, 1024, 5);
}

TEST(GpuDynamicPageRank, VertexDeletions) {
  WG_REQUIRE_GPU();
  const EdgeList e = wg::datasets::generate_rmat(
      {.scale = wg::test::gpu_test_scale(), .edge_factor = 8, .seed = 9});
  SetGraph g(0);
  GraphModel m(0, false);
  m.clear(e.num_vertices);
  g.build(e);
  m.insert(e);
  wg::gpu::DynamicPageRank<SetGraph> dyn(g, {.tolerance = kTol});
  for (wg::vertex_t first : {0u, 7u, 100u}) {
    std::vector<wg::vertex_t> ids{first, first + 1, first + 2, first};  // a repeat
    const auto r = dyn.erase_vertices(ids);
    const wg::VertexEraseResult want = m.erase_vertices(ids);
    ASSERT_EQ(r.update.vertices, want.vertices);
    ASSERT_EQ(r.update.edges_removed, want.edges_removed);
    expect_close(dyn.result().rank, wg::test::reference_edges(m), false);
  }
}

}  // namespace
