// GPU BFS: static (direction-optimising and top-down only) on every bundled graph, on the slab
// graphs and on CsrGraph, against the Boost.Graph reference; DynamicBfs on R-MAT insert/delete
// streams (undirected and directed), checked after every batch (levels exact, parents valid,
// `changed` exact), hand-made batches with duplicates, self-loops, absent edges and vertex
// deletions (the source's too). WG_GPU_TEST_SCALE (default 11) sets the R-MAT scale.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include <warpgraph/algorithms/bfs/gpu/bfs.cuh>
#include <warpgraph/algorithms/gpu_dynamic_update.cuh>
#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/datasets/update_stream.hpp>
#include <warpgraph/graph/gpu/csr_graph.cuh>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#include "../../support/test_support.hpp"
#include "../sssp_gpu/traversal_check.hpp"

namespace {

using wg::EdgeList;
using wg::vertex_t;

void expect_bfs(const wg::gpu::BfsResult& r, const EdgeList& coo, bool directed, vertex_t source,
                bool source_live = true) {
  wg::test::expect_traversal(coo, directed, source, source_live, r.level, r.parent, r.reached,
                             wg::gpu::kBfsUnreached, wg::gpu::kBfsNoParent, true);
}

template <class Graph>
void static_checks(const Graph& g, const EdgeList& coo, vertex_t source) {
  SCOPED_TRACE("source " + std::to_string(source));
  expect_bfs(wg::gpu::bfs(g, source), coo, g.directed(), source);
  expect_bfs(wg::gpu::bfs(g, source, {.top_down_alpha = 0}), coo, g.directed(), source);
  // Bottom-up from the first level on and staying there (alpha and beta huge).
  expect_bfs(wg::gpu::bfs(g, source, {.top_down_alpha = 1u << 20, .bottom_up_beta = 1u << 30}), coo,
             g.directed(), source);
  // Hubs split over several warps (every vertex of more than 2 neighbours, 3 parts).
  expect_bfs(wg::gpu::bfs(g, source, {}, {.split_degree = 2, .split_parts = 3}), coo, g.directed(),
             source);
  expect_bfs(wg::gpu::bfs(g, source, {.top_down_alpha = 0}, {.split_degree = 1, .split_parts = 64}),
             coo, g.directed(), source);
  // The same kernels on the plain CSR.
  const wg::gpu::CsrGraph<false> csr(g.export_csr(), g.directed());
  expect_bfs(wg::gpu::bfs(csr, source), coo, g.directed(), source);
  expect_bfs(
      wg::gpu::bfs(csr, source, {.top_down_alpha = 0}, {.split_degree = 2, .split_parts = 3}), coo,
      g.directed(), source);
  expect_bfs(wg::gpu::bfs(csr, source, {.top_down_alpha = 1u << 20, .bottom_up_beta = 1u << 30}),
             coo, g.directed(), source);
}

class BfsGpuDataset : public ::testing::TestWithParam<const char*> {};

TEST_P(BfsGpuDataset, StaticMatchesReference) {
  WG_REQUIRE_GPU();
  WG_REQUIRE_DATASET(path, GetParam());
  EdgeList e = wg::datasets::read_graph(path).edges;
  e.weight.clear();
  wg::gpu::Graph g(0);
  g.build(e);
  const EdgeList coo = g.export_coo();
  for (vertex_t s : {vertex_t{0}, static_cast<vertex_t>(g.num_vertices() / 2)}) {
    static_checks(g, coo, s);
  }
  wg::gpu::WeightedGraph w(0);
  w.build(e);
  expect_bfs(wg::gpu::bfs(w, 0), coo, false, 0);
}

INSTANTIATE_TEST_SUITE_P(Datasets, BfsGpuDataset, wg::test::kBundledGraphs,
                         wg::test::graph_test_name);

TEST(BfsGpu, DirectedRmat) {
  WG_REQUIRE_GPU();
  wg::gpu::Graph g(0, {.directed = true});
  g.build(wg::datasets::generate_rmat(
      {.scale = wg::test::gpu_test_scale(11), .edge_factor = 8, .seed = 5, .symmetric = false}));
  const EdgeList coo = g.export_coo();
  static_checks(g, coo, 0);
  static_checks(g, coo, 17);
}

TEST(BfsGpu, SourceOutOfRangeThrows) {
  WG_REQUIRE_GPU();
  wg::gpu::Graph g(4);
  EXPECT_THROW(wg::gpu::bfs(g, 4), wg::InvalidArgument);
  EXPECT_THROW(wg::gpu::DynamicBfs<wg::gpu::Graph>(g, 9), wg::InvalidArgument);
}

/// Replays an R-MAT stream through DynamicBfs, checking after every batch. observed: the batches
/// go through the observer calls (insert_observed / erase_observed: the graph applies them and
/// lists the changed edges) instead of the class's own insert_edges / erase_edges.
template <class Graph>
void replay(bool directed, std::uint64_t batch_size, const wg::gpu::BfsTuning& tuning,
            bool expect_repairs, bool observed = false) {
  WG_REQUIRE_GPU();
  const EdgeList whole = wg::datasets::generate_rmat(
      {.scale = wg::test::gpu_test_scale(11), .edge_factor = 8, .seed = 7, .symmetric = !directed});
  const wg::datasets::UpdateStream stream = wg::datasets::make_update_stream(
      whole, {.initial_fraction = 0.3, .batch_size = batch_size, .seed = 3});
  Graph g(whole.num_vertices, {.directed = directed});
  g.insert_edges(stream.initial);
  const vertex_t source = 0;
  wg::gpu::DynamicBfs<Graph> dyn(g, source, {}, tuning);
  expect_bfs(dyn.result(), g.export_coo(), directed, source);
  std::uint64_t repaired = 0, b = 0;
  for (const auto& batch : stream.batches) {
    SCOPED_TRACE("batch " + std::to_string(b++));
    const std::vector<std::int64_t> before = dyn.result().level;
    const bool insert = batch.kind == wg::datasets::UpdateBatch::Kind::insert;
    const auto r = observed
                       ? (insert ? wg::gpu::insert_observed(g, batch.edges, dyn)
                                 : wg::gpu::erase_observed(g, batch.edges, dyn))
                       : (insert ? dyn.insert_edges(batch.edges) : dyn.erase_edges(batch.edges));
    EXPECT_EQ(r.update.entries(), batch.edges.size());
    const wg::gpu::BfsResult after = dyn.result();
    expect_bfs(after, g.export_coo(), directed, source);
    std::uint64_t changed = 0;
    for (std::size_t v = 0; v < before.size(); ++v) changed += before[v] != after.level[v];
    EXPECT_EQ(r.changed, changed);
    repaired += !r.recomputed;
    if (::testing::Test::HasFailure()) break;
  }
  if (expect_repairs) EXPECT_GT(repaired, 0u);
}

constexpr wg::gpu::BfsTuning kAlwaysRepair{.recompute_fraction = 2.0,
                                           .recompute_batch_fraction = 1e9};
constexpr wg::gpu::BfsTuning kAlwaysRecompute{.recompute_fraction = 0.0,
                                              .recompute_batch_fraction = 0.0};

constexpr wg::gpu::BfsTuning kSplitRepair{.split_degree = 3,
                                          .split_parts = 5,
                                          .recompute_fraction = 2.0,
                                          .recompute_batch_fraction = 1e9};
TEST(DynamicBfsGpu, UndirectedRepairSplitHubs) {
  replay<wg::gpu::Graph>(false, 256, kSplitRepair, true);
}
TEST(DynamicBfsGpu, UndirectedRepair) {
  replay<wg::gpu::Graph>(false, 256, kAlwaysRepair, true);
}
TEST(DynamicBfsGpu, UndirectedDefaults) {
  replay<wg::gpu::Graph>(false, 64, {}, true);
}
TEST(DynamicBfsGpu, UndirectedLargeBatches) {
  replay<wg::gpu::Graph>(false, 4096, {}, false);
}
TEST(DynamicBfsGpu, UndirectedRecompute) {
  replay<wg::gpu::Graph>(false, 512, kAlwaysRecompute, false);
}
TEST(DynamicBfsGpu, DirectedRepair) {
  replay<wg::gpu::Graph>(true, 256, kAlwaysRepair, true);
}
// Rounds checked by the host after every round, and after 16 (most batches then launch rounds
// that find an empty queue).
TEST(DynamicBfsGpu, UndirectedRepairCheckEveryRound) {
  replay<wg::gpu::Graph>(
      false, 256,
      {.rounds_per_check = 1, .recompute_fraction = 2.0, .recompute_batch_fraction = 1e9}, true);
}
TEST(DynamicBfsGpu, UndirectedRepairManyRoundsPerCheck) {
  replay<wg::gpu::Graph>(false, 64,
                         {.split_degree = 3,
                          .split_parts = 5,
                          .rounds_per_check = 16,
                          .recompute_fraction = 2.0,
                          .recompute_batch_fraction = 1e9},
                         true);
}
// The observer calls (the CLI's stream): the graph applies the batch, DynamicBfs follows.
TEST(DynamicBfsGpu, UndirectedObserved) {
  replay<wg::gpu::Graph>(false, 256, kAlwaysRepair, true, true);
}
TEST(DynamicBfsGpu, DirectedObservedDefaults) {
  replay<wg::gpu::Graph>(true, 128, {}, false, true);
}
TEST(DynamicBfsGpu, WeightedGraphUnitLevels) {
  replay<wg::gpu::WeightedGraph>(false, 256, kAlwaysRepair, true);
}

TEST(DynamicBfsGpu, HandMadeBatchesAndVertexDeletions) {
  WG_REQUIRE_GPU();
  // A path 0-1-2-3-4 with a detour 0-5-6-4, and 7 isolated.
  EdgeList init;
  init.num_vertices = 8;
  init.symmetric = true;
  for (auto [u, v] : std::vector<std::pair<vertex_t, vertex_t>>{
           {0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 5}, {5, 6}, {6, 4}}) {
    init.src.push_back(u);
    init.dst.push_back(v);
  }
  wg::gpu::Graph g(0);
  g.build(init);
  wg::gpu::DynamicBfs<wg::gpu::Graph> dyn(g, 0, {}, kAlwaysRepair);
  auto check = [&](bool source_live = true) {
    expect_bfs(dyn.result(), g.export_coo(), false, 0, source_live);
  };
  check();
  EdgeList b;
  b.num_vertices = 8;
  b.symmetric = true;
  auto add = [&](vertex_t u, vertex_t v) {
    b.src.push_back(u);
    b.dst.push_back(v);
  };
  // Insert: a shortcut 0-3 twice (both orientations), a self-loop, an edge already present.
  add(0, 3), add(3, 0), add(2, 2), add(1, 2), add(7, 7);
  auto r = dyn.insert_edges(b);
  EXPECT_EQ(r.update.entries(), 5u);
  EXPECT_EQ(r.update.applied, 1u);
  EXPECT_EQ(r.changed, 2u);  // 3: level 3 -> 1, 4: 3 -> 2
  check();
  // Erase: the shortcut, an absent edge, a self-loop, a duplicate.
  b.src.clear(), b.dst.clear();
  add(3, 0), add(0, 3), add(1, 7), add(4, 4);
  r = dyn.erase_edges(b);
  EXPECT_EQ(r.update.applied, 1u);
  check();
  // Erase vertex 1 (2 and 3 lose their tree path; 3 is re-levelled through 4).
  const std::vector<vertex_t> ids{1, 1, 99};
  const auto rv = dyn.erase_vertices(ids);
  EXPECT_EQ(rv.update.vertices, 1u);
  check();
  // Erasing the source leaves everything unreached.
  const std::vector<vertex_t> src{0};
  dyn.erase_vertices(src);
  check(false);
  b.src.clear(), b.dst.clear();
  add(5, 7);
  dyn.insert_edges(b);
  check(false);
}

}  // namespace
