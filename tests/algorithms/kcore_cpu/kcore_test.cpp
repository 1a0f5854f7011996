// CPU core numbers: static on every shared dataset and on a directed R-MAT (its undirected view),
// dynamic after every batch of R-MAT insert/delete streams (with duplicates, self-loops and
// absent edges; subcore and recompute paths), all equal to the Boost.Graph reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <warpgraph/algorithms/kcore/cpu/kcore.hpp>
#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/datasets/generators.hpp>

#include "../cpu_graph_fixture.hpp"
#include "test_support.hpp"

namespace wg::cpu {
namespace {

void expect_exact(const DynamicGraph& g, const CoreNumbers& got) {
  const EdgeList coo = wg::test::reference_edges(g);
  const std::vector<std::uint32_t> want = wg::reference::core_numbers(coo);
  ASSERT_EQ(got.core, want);
  const std::uint32_t max = want.empty() ? 0 : *std::max_element(want.begin(), want.end());
  ASSERT_EQ(got.max_core, max);
}

WG_BUNDLED_GRAPHS_TEST(SharedDatasets, StaticCoreNumbersEqualReference) {
  WG_REQUIRE_DATASET(path, GetParam());
  DynamicGraph g = wg::test::read_into_cpu_graph(path);
  expect_exact(g, core_numbers(g));
}

TEST(StaticCoreNumbers, DirectedIsItsUndirectedView) {
  DynamicGraph g = wg::test::directed_rmat_cpu_graph(11, 4, 5);
  expect_exact(g, core_numbers(g));
}

void replay(double edge_factor, double recompute_fraction, std::uint64_t batch_size,
            double recompute_work = 1e9) {
  const DynamicCoreNumbersOptions options{.recompute_fraction = recompute_fraction,
                                          .recompute_work = recompute_work};
  auto [stream, g] = wg::test::rmat_stream(false, edge_factor, batch_size);
  DynamicCoreNumbers dyn(g, options);
  auto values = [&] { return dyn.result().core; };
  auto check = [&] { expect_exact(g, dyn.result()); };
  check();
  const auto batches = wg::test::replay_checked(stream, dyn, values, check);
  std::size_t incremental = 0;
  for (const auto& [insert, recomputed] : batches) incremental += !recomputed;
  if (recompute_fraction >= 1 && recompute_work >= 1) EXPECT_EQ(incremental, batches.size());
  if (recompute_fraction <= 0) EXPECT_EQ(incremental, 0u);
}

WG_REPLAY_TEST(DynamicCoreNumbers, SparseStreamIncremental, 2, 1.0, 64)
WG_REPLAY_TEST(DynamicCoreNumbers, DenseStreamIncremental, 8, 1.0, 256)
WG_REPLAY_TEST(DynamicCoreNumbers, DenseStreamDefaultSwitch, 8, 0.05, 1024, 0.25)
// A small scan budget: batches stop part-way, undo and recompute.
WG_REPLAY_TEST(DynamicCoreNumbers, DenseStreamOverBudget, 8, 1.0, 256, 0.02)
WG_REPLAY_TEST(DynamicCoreNumbers, StreamAlwaysRecomputes, 4, 0.0, 256)

TEST(DynamicCoreNumbers, HandMadeBatches) {
  auto edges = [](std::vector<vertex_t> src, std::vector<vertex_t> dst) {
    return EdgeList{
        .num_vertices = 6, .src = std::move(src), .dst = std::move(dst), .symmetric = true};
  };
  // A triangle 0-1-2 with a tail 2-3; 4 and 5 isolated.
  DynamicGraph g(6, GraphOptions{.threads = 1});
  g.insert_edges(edges({0, 1, 2, 2}, {1, 2, 0, 3}));
  DynamicCoreNumbers dyn(g, {.recompute_fraction = 1.0});
  EXPECT_EQ(dyn.result().max_core, 2u);
  // K4 on 0..3 (1-3 and 0-3, 3-1 repeated), a self-loop, an edge already present.
  auto r = dyn.insert_edges(edges({1, 0, 3, 5, 0}, {3, 3, 1, 5, 1}));
  EXPECT_EQ(r.update.applied, 2u);
  EXPECT_EQ(r.changed, 4u);  // every vertex of the K4 rises to 3
  EXPECT_EQ(dyn.result().max_core, 3u);
  expect_exact(g, dyn.result());
  // Removing 0-1 and an absent edge: 0..3 fall back to 2.
  r = dyn.erase_edges(edges({0, 4}, {1, 5}));
  EXPECT_EQ(r.update.ignored, 1u);
  EXPECT_EQ(r.changed, 4u);
  expect_exact(g, dyn.result());
  // 0-1 back in, then three edges out at once (one listed twice).
  dyn.insert_edges(edges({0}, {1}));
  r = dyn.erase_edges(edges({0, 2, 2, 3}, {1, 3, 1, 2}));
  EXPECT_EQ(r.update.ignored, 0u);
  expect_exact(g, dyn.result());
}

TEST(DynamicCoreNumbers, DirectedGraphRefused) {
  DynamicGraph g = wg::test::directed_rmat_cpu_graph(6, 2, 1);
  EXPECT_THROW(DynamicCoreNumbers{g}, std::invalid_argument);
}

}  // namespace
}  // namespace wg::cpu
