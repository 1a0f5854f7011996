// GPU SSSP: static on every bundled graph (file weights rounded as the graph stores them, and
// unit lengths), on the slab map graph and on CsrGraph, against the Boost.Graph reference (exact:
// integer weights); unit lengths equal BFS levels; DynamicSssp on weighted streams (insertions
// with new, lower and higher weights of present edges, deletions, absent edges, self-loops,
// repeats, vertex deletions), undirected and directed, checked after every batch.
// WG_GPU_TEST_SCALE (default 11) sets the graph scale.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include <warpgraph/algorithms/bfs/gpu/bfs.cuh>
#include <warpgraph/algorithms/gpu_dynamic_update.cuh>
#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/algorithms/sssp/gpu/sssp.cuh>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/graph/gpu/csr_graph.cuh>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#include "../../support/test_support.hpp"
#include "traversal_check.hpp"

namespace {

using wg::EdgeList;
using wg::vertex_t;
using wg::test::with_weights;

void expect_sssp(const wg::gpu::SsspResult& r, const EdgeList& coo, bool directed, vertex_t source,
                 bool unit, bool source_live = true) {
  wg::test::expect_traversal(coo, directed, source, source_live, r.distance, r.parent, r.reached,
                             wg::gpu::kSsspUnreached, wg::gpu::kSsspNoParent, unit);
}

class SsspGpuDataset : public ::testing::TestWithParam<const char*> {};

TEST_P(SsspGpuDataset, StaticMatchesReference) {
  WG_REQUIRE_GPU();
  WG_REQUIRE_DATASET(path, GetParam());
  EdgeList e = wg::datasets::read_graph(path).edges;
  if (!e.weighted()) e = with_weights(e, 100, 11);
  for (double& w : e.weight) w = std::abs(w);  // the graph rounds to uint32
  wg::gpu::WeightedGraph g(0);
  g.build(e);
  const EdgeList coo = g.export_coo();
  const wg::gpu::CsrGraph<true> csr(g.export_csr(), false);
  for (vertex_t s : {vertex_t{0}, static_cast<vertex_t>(g.num_vertices() / 3)}) {
    SCOPED_TRACE("source " + std::to_string(s));
    expect_sssp(wg::gpu::sssp(g, s), coo, false, s, false);
    expect_sssp(wg::gpu::sssp(csr, s), coo, false, s, false);
    // Near-far with several threshold steps, and plain rounds.
    for (std::uint32_t delta : {0u, 16u, 1000u})  // (long-diameter road graphs: not 1)
      expect_sssp(wg::gpu::sssp(g, s, {}, {.near_far_delta = delta}), coo, false, s, false);
    // The host checking the queue after every round, and after 16.
    expect_sssp(wg::gpu::sssp(g, s, {}, {.near_far_delta = 16, .rounds_per_check = 1}), coo, false,
                s, false);
    expect_sssp(
        wg::gpu::sssp(csr, s, {}, {.split_degree = 2, .split_parts = 3, .rounds_per_check = 16}),
        coo, false, s, false);
    expect_sssp(
        wg::gpu::sssp(csr, s, {}, {.split_degree = 3, .split_parts = 2, .near_far_delta = 50}), coo,
        false, s, false);
    // Hubs split over several warps.
    expect_sssp(wg::gpu::sssp(g, s, {}, {.split_degree = 2, .split_parts = 3}), coo, false, s,
                false);
    expect_sssp(wg::gpu::sssp(csr, s, {}, {.split_degree = 1, .split_parts = 7}), coo, false, s,
                false);
    // Unit lengths: distances are the BFS levels.
    const wg::gpu::SsspResult unit = wg::gpu::sssp(g, s, {.unit_weights = true});
    expect_sssp(unit, coo, false, s, true);
    const wg::gpu::BfsResult levels = wg::gpu::bfs(g, s);
    for (std::size_t v = 0; v < unit.distance.size(); ++v) {
      ASSERT_EQ(unit.distance[v] == wg::gpu::kSsspUnreached ? -1 : std::int64_t{unit.distance[v]},
                levels.level[v]);
    }
  }
  // An unweighted graph has unit lengths.
  EdgeList plain = e;
  plain.weight.clear();
  wg::gpu::Graph u(0);
  u.build(plain);
  expect_sssp(wg::gpu::sssp(u, 0), u.export_coo(), false, 0, true);
}

INSTANTIATE_TEST_SUITE_P(Datasets, SsspGpuDataset, wg::test::kBundledGraphs,
                         wg::test::graph_test_name);

TEST(SsspGpu, ZeroWeightsAndDirected) {
  WG_REQUIRE_GPU();
  for (bool directed : {false, true}) {
    EdgeList e = with_weights(wg::datasets::generate_rmat({.scale = wg::test::gpu_test_scale(11),
                                                           .edge_factor = 8,
                                                           .seed = 9,
                                                           .symmetric = !directed}),
                              4, 5);
    for (std::size_t i = 0; i < e.size(); i += 3) e.weight[i] = 0;  // zero-length arcs
    wg::gpu::WeightedGraph g(0, {.directed = directed});
    g.build(e);
    const EdgeList coo = g.export_coo();
    expect_sssp(wg::gpu::sssp(g, 0), coo, directed, 0, false);
    expect_sssp(wg::gpu::sssp(g, 0, {}, {.near_far_delta = 1}), coo, directed, 0, false);
    expect_sssp(wg::gpu::sssp(g, 0, {}, {.near_far_delta = 0}), coo, directed, 0, false);
    const wg::gpu::CsrGraph<true> csr(g.export_csr(), directed);
    expect_sssp(wg::gpu::sssp(csr, 0), coo, directed, 0, false);
  }
}

/// Weighted stream: initial R-MAT, then insertion batches (new edges, present edges with new
/// weights, repeats, self-loops) and deletion batches (present and absent edges).
/// observed: the batches go through the observer calls (insert_observed / erase_observed), and
/// insertion batches hold no present edge (the observer sees new edges only).
void replay(bool directed, std::uint64_t batch_size, const wg::gpu::SsspTuning& tuning, int batches,
            bool observed = false) {
  WG_REQUIRE_GPU();
  const unsigned scale = wg::test::gpu_test_scale(11);
  const EdgeList initial =
      with_weights(wg::datasets::generate_rmat(
                       {.scale = scale, .edge_factor = 4, .seed = 21, .symmetric = !directed}),
                   20, 3);
  wg::gpu::WeightedGraph g(0, {.directed = directed});
  g.build(initial);
  const std::uint64_t n = g.num_vertices();
  wg::gpu::DynamicSssp<wg::gpu::WeightedGraph> dyn(g, 0, {}, tuning);
  expect_sssp(dyn.result(), g.export_coo(), directed, 0, false);
  for (int b = 0; b < batches; ++b) {
    SCOPED_TRACE("batch " + std::to_string(b));
    const std::vector<std::uint32_t> before = dyn.result().distance;
    wg::DynamicUpdate<wg::UpdateResult> r;
    EdgeList batch;
    if (b % 3 == 2) {
      // Deletions: half present edges (from the graph's export), half random (mostly absent).
      batch = wg::test::random_weighted_batch(n, batch_size / 2, 20, 100 + b, !directed);
      wg::test::append_present_edges(batch, g.export_coo(), batch_size / 2, 7 + b, 1);
      r = observed ? wg::gpu::erase_observed(g, batch, dyn) : dyn.erase_edges(batch);
    } else {
      batch = wg::test::random_weighted_batch(n, batch_size, 20, 200 + b, !directed);
      if (observed) {
        const std::vector<std::uint8_t> present = g.has_edges(batch);
        EdgeList kept;
        kept.num_vertices = batch.num_vertices;
        kept.symmetric = batch.symmetric;
        for (std::size_t i = 0; i < batch.size(); ++i) {
          if (present[i]) continue;
          kept.src.push_back(batch.src[i]);
          kept.dst.push_back(batch.dst[i]);
          kept.weight.push_back(batch.weight[i]);
        }
        batch = kept;
        r = wg::gpu::insert_observed(g, batch, dyn);
      } else {
        // Present edges with new weights (increases and decreases).
        const EdgeList coo = g.export_coo();
        for (std::uint64_t i = 0; i < batch_size / 4 && i < coo.size(); ++i) {
          const std::size_t k = (i * 7919 + b * 104729) % coo.size();
          batch.src.push_back(coo.src[k]);
          batch.dst.push_back(coo.dst[k]);
          batch.weight.push_back(static_cast<double>(1 + (i * 13 + b) % 40));
        }
        r = dyn.insert_edges(batch);
      }
    }
    EXPECT_EQ(r.update.entries(), batch.size());
    const wg::gpu::SsspResult after = dyn.result();
    expect_sssp(after, g.export_coo(), directed, 0, false);
    std::uint64_t changed = 0;
    for (std::size_t v = 0; v < before.size(); ++v) changed += before[v] != after.distance[v];
    EXPECT_EQ(r.changed, changed);
    if (::testing::Test::HasFailure()) return;
  }
  // Vertex deletions (not the source), then the source.
  std::vector<vertex_t> ids;
  for (vertex_t v = 1; v < n; v += 37) ids.push_back(v);
  dyn.erase_vertices(ids);
  expect_sssp(dyn.result(), g.export_coo(), directed, 0, false);
  const std::vector<vertex_t> source{0};
  dyn.erase_vertices(source);
  expect_sssp(dyn.result(), g.export_coo(), directed, 0, false, false);
}

constexpr wg::gpu::SsspTuning kAlwaysRepair{.recompute_fraction = 2.0,
                                            .recompute_batch_fraction = 1e9};

TEST(DynamicSsspGpu, SplitHubs) {
  replay(false, 128,
         {.split_degree = 2,
          .split_parts = 5,
          .recompute_fraction = 2.0,
          .recompute_batch_fraction = 1e9},
         12);
}
TEST(DynamicSsspGpu, UndirectedSmallBatches) {
  replay(false, 64, kAlwaysRepair, 24);
}
TEST(DynamicSsspGpu, UndirectedLargeBatches) {
  replay(false, 2048, kAlwaysRepair, 9);
}
TEST(DynamicSsspGpu, UndirectedDefaults) {
  replay(false, 256, {}, 12);
}
TEST(DynamicSsspGpu, Directed) {
  replay(true, 256, kAlwaysRepair, 12);
}
// Rounds checked by the host after every round, and after 16.
TEST(DynamicSsspGpu, CheckEveryRound) {
  replay(false, 256,
         {.rounds_per_check = 1, .recompute_fraction = 2.0, .recompute_batch_fraction = 1e9}, 9);
}
TEST(DynamicSsspGpu, ManyRoundsPerCheckSplitHubs) {
  replay(false, 128,
         {.split_degree = 2,
          .split_parts = 5,
          .rounds_per_check = 16,
          .recompute_fraction = 2.0,
          .recompute_batch_fraction = 1e9},
         9);
}
TEST(DynamicSsspGpu, DirectedManyRoundsPerCheck) {
  replay(true, 256,
         {.rounds_per_check = 7, .recompute_fraction = 2.0, .recompute_batch_fraction = 1e9}, 9);
}
// The observer calls (the CLI's stream): the graph applies the batch, DynamicSssp follows.
TEST(DynamicSsspGpu, UndirectedObserved) {
  replay(false, 256, kAlwaysRepair, 12, true);
}
TEST(DynamicSsspGpu, DirectedObserved) {
  replay(true, 128, {}, 9, true);
}
TEST(DynamicSsspGpu, AlwaysRecomputeNearFarSteps) {
  replay(false, 256, {.near_far_delta = 2, .recompute_fraction = 0, .recompute_batch_fraction = 0},
         6);
}
TEST(DynamicSsspGpu, AlwaysRecompute) {
  replay(false, 256, {.recompute_fraction = 0, .recompute_batch_fraction = 0}, 6);
}

}  // namespace
