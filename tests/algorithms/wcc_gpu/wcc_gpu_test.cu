// GPU connected components: static labels on every shared dataset and on directed R-MAT graphs
// (weakly connected), and dynamic labels after every batch of R-MAT insert/delete streams
// (undirected and directed; duplicates, self-loops, absent edges; the restricted split and the
// recompute paths), after hand-made batches and after vertex deletions, all equal to the
// Boost.Graph reference on an independent host model of the graph.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/algorithms/wcc/gpu/wcc.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#include "../../support/test_support.hpp"
#include "gpu_stream_fixture.hpp"

namespace {

using wg::EdgeList;
using wg::test::GraphModel;
using SetGraph = wg::gpu::DynamicGraph<wg::gpu::SlabSetAdjacency>;
using MapGraph = wg::gpu::DynamicGraph<wg::gpu::SlabMapAdjacency>;

void expect_reference(const GraphModel& m, const wg::gpu::Components& got) {
  const auto want = wg::reference::connected_components(wg::test::reference_edges(m));
  ASSERT_EQ(got.component, want.component);
  ASSERT_EQ(got.count, want.count);
}

class SharedDatasets : public testing::TestWithParam<const char*> {};

TEST_P(SharedDatasets, StaticComponentsEqualReference) {
  WG_REQUIRE_GPU();
  WG_REQUIRE_DATASET(path, GetParam());
  const EdgeList e = wg::datasets::read_graph(path).edges;
  EdgeList unweighted = e;
  unweighted.weight.clear();
  const auto want = wg::reference::connected_components(e);
  SetGraph g(0);
  g.build(unweighted);
  auto got = wg::gpu::connected_components(g);
  EXPECT_EQ(got.component, want.component);
  EXPECT_EQ(got.count, want.count);
  MapGraph w(0);
  w.build(unweighted);
  got = wg::gpu::connected_components(w);
  EXPECT_EQ(got.component, want.component);
  EXPECT_EQ(got.count, want.count);
}

INSTANTIATE_TEST_SUITE_P(All, SharedDatasets, wg::test::kBundledGraphs, wg::test::graph_test_name);

TEST(GpuComponents, DirectedIsWeak) {
  WG_REQUIRE_GPU();
  const EdgeList e = wg::datasets::generate_rmat(
      {.scale = wg::test::gpu_test_scale(), .edge_factor = 2, .seed = 5, .symmetric = false});
  SetGraph g(0, {.directed = true});
  g.build(e);
  GraphModel m(0, true);
  m.clear(e.num_vertices);
  m.insert(e);
  expect_reference(m, wg::gpu::connected_components(g));
}

EdgeList batch(std::uint64_t n, std::vector<std::pair<wg::vertex_t, wg::vertex_t>> es) {
  EdgeList b;
  b.num_vertices = n;
  for (auto [u, v] : es) {
    b.src.push_back(u);
    b.dst.push_back(v);
  }
  return b;
}

TEST(GpuDynamicComponents, HandMadeBatches) {
  WG_REQUIRE_GPU();
  for (double fraction : {1.0, 0.0}) {
    SetGraph g(10);
    GraphModel m(10, false);
    wg::gpu::DynamicComponents<SetGraph> dyn(g, {.recompute_fraction = fraction});
    EXPECT_EQ(dyn.count(), 10u);
    const EdgeList steps[] = {
        batch(10, {{0, 1}, {1, 2}, {2, 1}, {3, 3}}),  // path 0-1-2, a repeat, a self-loop
        batch(10, {{5, 6}, {6, 7}, {7, 5}, {0, 1}}),  // triangle 5-6-7, one present edge
        batch(10, {{2, 5}, {9, 8}}),                  // joins {0,1,2} and {5,6,7}
    };
    for (const EdgeList& b : steps) {
      const auto r = dyn.insert_edges(b);
      ASSERT_EQ(r.update, m.insert(b));
      expect_reference(m, dyn.result());
    }
    const EdgeList dels[] = {
        batch(10, {{2, 5}, {5, 2}, {4, 3}}),  // splits again; a repeat, an absent edge
        batch(10, {{5, 6}}),                  // the triangle stays connected
        batch(10, {{0, 1}, {8, 9}, {6, 7}}),  // more splits
    };
    for (const EdgeList& b : dels) {
      const auto before = dyn.result();
      const auto r = dyn.erase_edges(b);
      ASSERT_EQ(r.update, m.erase(b));
      expect_reference(m, dyn.result());
      EXPECT_EQ(r.changed, wg::count_changed(before.component, dyn.result().component));
    }
  }
}

template <class Graph>
void stream_case(bool directed, double fraction, std::uint64_t batch_size, std::uint64_t seed) {
  WG_REQUIRE_GPU();
  // A sparse R-MAT (edge factor 2): many components, so deletions split and insertions merge.
  // Batches shrink with the graph (WG_GPU_TEST_SCALE below the default 11, as under the
  // sanitizer), so that every stream still has several insertion and deletion batches.
  const unsigned scale = wg::test::gpu_test_scale();
  if (scale < 11) batch_size = std::max<std::uint64_t>(batch_size >> (12 - scale), 4);
  const auto stream = wg::test::gpu_rmat_stream(scale, 2, batch_size, directed, seed);
  Graph g(0, {.directed = directed});
  GraphModel m(0, directed);
  m.clear(stream.initial.num_vertices);
  ASSERT_EQ(g.build(stream.initial), m.insert(stream.initial));
  wg::gpu::DynamicComponents<Graph> dyn(g, {.recompute_fraction = fraction});
  expect_reference(m, dyn.result());
  std::vector<wg::vertex_t> before = dyn.result().component;
  std::size_t splits = 0;
  const std::size_t recomputed =
      wg::test::replay_gpu(stream, dyn, m, [&](std::size_t, const auto& r, bool insert) {
        const auto now = dyn.result();
        expect_reference(m, now);
        EXPECT_EQ(r.changed, wg::count_changed(before, now.component));
        splits += !insert && !r.recomputed;
        before = now.component;
      });
  if (fraction >= 1) {
    EXPECT_EQ(recomputed, 0u);
    EXPECT_GT(splits, 0u);
  }
  if (fraction <= 0) EXPECT_GT(recomputed, 0u);
}

TEST(GpuDynamicComponents, UndirectedStreamRestricted) {
  stream_case<SetGraph>(false, 1.0, 256, 3);
}
TEST(GpuDynamicComponents, UndirectedStreamDefault) {
  stream_case<SetGraph>(false, 0.25, 512, 4);
}
TEST(GpuDynamicComponents, UndirectedStreamRecomputes) {
  stream_case<SetGraph>(false, 0.0, 512, 5);
}
TEST(GpuDynamicComponents, DirectedStreamRestricted) {
  stream_case<SetGraph>(true, 1.0, 256, 6);
}
TEST(GpuDynamicComponents, MapAdjacencyStream) {
  stream_case<MapGraph>(false, 1.0, 512, 7);
}

TEST(GpuDynamicComponents, VertexDeletionsAndGrowth) {
  WG_REQUIRE_GPU();
  const EdgeList e = wg::datasets::generate_rmat(
      {.scale = wg::test::gpu_test_scale(), .edge_factor = 3, .seed = 9});
  SetGraph g(0);
  GraphModel m(0, false);
  m.clear(e.num_vertices);
  g.build(e);
  m.insert(e);
  wg::gpu::DynamicComponents<SetGraph> dyn(g, {.recompute_fraction = 1.0});
  std::mt19937_64 rng(3);
  for (int round = 0; round < 4; ++round) {
    std::vector<wg::vertex_t> ids;
    for (int i = 0; i < 16; ++i) ids.push_back(static_cast<wg::vertex_t>(rng() % e.num_vertices));
    ids.push_back(ids.front());                                    // a repeat
    ids.push_back(static_cast<wg::vertex_t>(e.num_vertices + 5));  // out of range
    const auto r = dyn.erase_vertices(ids);
    const wg::VertexEraseResult want = m.erase_vertices(ids);
    ASSERT_EQ(r.update.vertices, want.vertices);
    ASSERT_EQ(r.update.ignored_ids, want.ignored_ids);
    ASSERT_EQ(r.update.edges_removed, want.edges_removed);
    expect_reference(m, dyn.result());
  }
  // Host batches past the id range grow it: new ids join as their own components, then merge.
  const auto n = static_cast<wg::vertex_t>(g.num_vertices());
  const EdgeList grow = batch(0, {{n, n + 1}, {n + 2, 0}, {5, 5}});
  const auto r = dyn.insert_edges(grow);
  m.grow(n + 3);
  ASSERT_EQ(r.update, m.insert(grow));
  expect_reference(m, dyn.result());
}

}  // namespace
