// CPU SSSP: static on every bundled graph (integer weights, and unit lengths == BFS levels)
// against the Boost.Graph reference; DynamicSssp on weighted streams (new edges, present edges
// re-weighted up and down, repeats, self-loops, absent deletions, vertex deletions, the source's
// too), undirected and directed, checked after every batch (distances exact, parents valid,
// `changed` exact), and on the R-MAT insert/delete streams of the other CPU tests.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <warpgraph/algorithms/bfs/cpu/bfs.hpp>
#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/algorithms/sssp/cpu/sssp.hpp>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/read_graph.hpp>

#include "../cpu_graph_fixture.hpp"
#include "../sssp_gpu/traversal_check.hpp"
#include "test_support.hpp"

namespace {

using wg::EdgeList;
using wg::vertex_t;
using wg::test::with_weights;

void expect_sssp(const wg::cpu::SsspResult& r, const wg::cpu::DynamicGraph& g, vertex_t source,
                 bool unit, bool source_live = true) {
  wg::test::expect_traversal(g.export_coo(), g.directed(), source, source_live, r.distance,
                             r.parent, r.reached, wg::cpu::kSsspUnreached, wg::cpu::kSsspNoParent,
                             unit);
}

class SsspCpuDataset : public ::testing::TestWithParam<const char*> {};

TEST_P(SsspCpuDataset, StaticMatchesReference) {
  WG_REQUIRE_DATASET(path, GetParam());
  const EdgeList e = with_weights(wg::datasets::read_graph(path).edges, 100, 11);
  wg::cpu::DynamicGraph g(wg::cpu::GraphOptions{.weighted = true, .threads = 2});
  g.build(e);
  for (vertex_t s : {vertex_t{0}, static_cast<vertex_t>(g.num_vertices() / 3)}) {
    SCOPED_TRACE("source " + std::to_string(s));
    expect_sssp(wg::cpu::sssp(g, s), g, s, false);
    const wg::cpu::SsspResult unit = wg::cpu::sssp(g, s, {.unit_weights = true});
    expect_sssp(unit, g, s, true);
    const wg::cpu::BfsResult levels = wg::cpu::bfs(g, s);
    for (std::size_t v = 0; v < unit.distance.size(); ++v)
      ASSERT_EQ(unit.distance[v] == wg::cpu::kSsspUnreached ? -1.0 : unit.distance[v],
                static_cast<double>(levels.level[v]));
  }
}

INSTANTIATE_TEST_SUITE_P(Datasets, SsspCpuDataset, wg::test::kBundledGraphs,
                         wg::test::graph_test_name);

TEST(SsspCpu, NegativeLengthMessageNamesTheWeightExactly) {
  // std::to_string(float) would print -0.100000 (rounded to six decimals).
  wg::cpu::DynamicGraph g(wg::cpu::GraphOptions{.weighted = true, .threads = 1});
  EdgeList e;
  e.num_vertices = 3;
  e.symmetric = true;
  e.src = {0, 1};
  e.dst = {1, 2};
  e.weight = {1.0, static_cast<double>(-0.1f)};
  g.build(e);
  try {
    (void)wg::cpu::sssp(g, 0);
    FAIL() << "a negative length must throw";
  } catch (const wg::InvalidArgument& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("length -0.1;"), std::string::npos) << message;
  }
}

TEST(SsspCpu, SourceOutOfRangeThrows) {
  wg::cpu::DynamicGraph g(4, wg::cpu::GraphOptions{.threads = 1});
  EXPECT_THROW(wg::cpu::sssp(g, 4), wg::InvalidArgument);
  EXPECT_THROW(wg::cpu::DynamicSssp(g, 7), wg::InvalidArgument);
}

void weighted_replay(bool directed, std::uint64_t batch_size, double recompute_fraction,
                     int batches) {
  const EdgeList initial =
      with_weights(wg::datasets::generate_rmat(
                       {.scale = 10, .edge_factor = 4, .seed = 21, .symmetric = !directed}),
                   20, 3);
  wg::cpu::DynamicGraph g(
      wg::cpu::GraphOptions{.directed = directed, .weighted = true, .threads = 2});
  g.build(initial);
  const std::uint64_t n = g.num_vertices();
  wg::cpu::DynamicSssp dyn(g, 0, {}, {.recompute_fraction = recompute_fraction});
  expect_sssp(dyn.result(), g, 0, false);
  for (int b = 0; b < batches; ++b) {
    SCOPED_TRACE("batch " + std::to_string(b));
    const std::vector<double> before = dyn.result().distance;
    wg::DynamicUpdate<wg::UpdateResult> r;
    EdgeList batch = wg::test::random_weighted_batch(n, batch_size / 2, 20, 100 + b, !directed);
    wg::test::append_present_edges(batch, g.export_coo(), batch_size / 2, 7 + b, 40);
    r = b % 3 == 2 ? dyn.erase_edges(batch) : dyn.insert_edges(batch);
    EXPECT_EQ(r.update.entries(), batch.size());
    expect_sssp(dyn.result(), g, 0, false);
    std::uint64_t changed = 0;
    for (std::size_t v = 0; v < before.size(); ++v)
      changed += before[v] != dyn.result().distance[v];
    EXPECT_EQ(r.changed, changed);
    if (::testing::Test::HasFailure()) return;
  }
  std::vector<vertex_t> ids;
  for (vertex_t v = 1; v < n; v += 37) ids.push_back(v);
  dyn.erase_vertices(ids);
  expect_sssp(dyn.result(), g, 0, false);
  const std::vector<vertex_t> source{0};
  dyn.erase_vertices(source);
  expect_sssp(dyn.result(), g, 0, false, false);
}

TEST(DynamicSsspCpu, UndirectedRepair) {
  weighted_replay(false, 64, 2.0, 24);
}
TEST(DynamicSsspCpu, UndirectedLarge) {
  weighted_replay(false, 1024, 2.0, 9);
}
TEST(DynamicSsspCpu, DirectedRepair) {
  weighted_replay(true, 128, 2.0, 15);
}
TEST(DynamicSsspCpu, RecomputeSwitch) {
  weighted_replay(false, 256, 0.0, 6);
}

TEST(DynamicSsspCpu, UnweightedRmatStreamsEqualBfs) {
  for (bool directed : {false, true}) {
    SCOPED_TRACE(directed ? "directed" : "undirected");
    wg::test::RmatStream s = wg::test::rmat_stream(directed, 8, 256);
    wg::cpu::DynamicSssp dyn(s.graph, 0, {}, {.recompute_fraction = 2.0});
    wg::test::replay_checked(
        s.stream, dyn, [&] { return dyn.result().distance; },
        [&] {
          expect_sssp(dyn.result(), s.graph, 0, true);
          const wg::cpu::BfsResult levels = wg::cpu::bfs(s.graph, 0);
          for (std::size_t v = 0; v < levels.level.size(); ++v)
            ASSERT_EQ(dyn.result().distance[v] == wg::cpu::kSsspUnreached
                          ? -1.0
                          : dyn.result().distance[v],
                      static_cast<double>(levels.level[v]));
        });
  }
}

}  // namespace
