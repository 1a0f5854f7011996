// The GPU observer protocol (algorithms/gpu_dynamic_update.cuh): one graph, one update per batch
// (insert_observed / erase_observed), followed by six dynamic results at once (components, core
// numbers, BFS, SSSP, PageRank, the triangle counter). After every batch of an R-MAT
// insert/delete stream (duplicates, self-loops and absent edges included), each must equal the
// same class driven alone through its own insert_edges / erase_edges on a graph of its own (the
// same values, the same `changed`), and the Boost.Graph reference on the exported graph. The
// same through a DynamicResults set (algorithms/dynamic_frame.hpp), and a result whose graph
// changed behind its back refuses the next batch (StaleResultError).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <warpgraph/algorithms/bfs/gpu/bfs.hpp>
#include <warpgraph/algorithms/gpu_dynamic_update.cuh>
#include <warpgraph/algorithms/kcore/gpu/kcore.hpp>
#include <warpgraph/algorithms/pagerank/gpu/pagerank.hpp>
#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/algorithms/sssp/gpu/sssp.hpp>
#include <warpgraph/algorithms/tc/gpu/triangle_count.hpp>
#include <warpgraph/algorithms/wcc/gpu/wcc.hpp>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/update_stream.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#include "../../support/test_support.hpp"

namespace {

using wg::EdgeList;
using Graph = wg::gpu::DynamicGraph<wg::gpu::SlabSetAdjacency>;

/// The scale of the R-MAT graph: WG_GPU_TEST_SCALE (default 10) keeps sanitizer runs short.
/// Every result, each on a graph of its own (driven by insert_edges / erase_edges).
struct Alone {
  Graph g_cc, g_kc, g_bfs, g_sssp, g_pr, g_tc;
  wg::gpu::DynamicComponents<Graph> cc;
  wg::gpu::DynamicCoreNumbers<Graph> kc;
  wg::gpu::DynamicBfs<Graph> bfs;
  wg::gpu::DynamicSssp<Graph> sssp;
  wg::gpu::DynamicPageRank<Graph> pr;
  wg::gpu::IncrementalTriangleCounter<Graph> tc;
  static Graph built(const EdgeList& e) {
    Graph g(e.num_vertices);
    g.insert_edges(e);
    return g;
  }
  explicit Alone(const EdgeList& initial)
      : g_cc(built(initial)),
        g_kc(built(initial)),
        g_bfs(built(initial)),
        g_sssp(built(initial)),
        g_pr(built(initial)),
        g_tc(built(initial)),
        cc(g_cc),
        kc(g_kc),
        bfs(g_bfs, 0),
        sssp(g_sssp, 0),
        pr(g_pr),
        tc(g_tc) {}
};

void run_stream(std::uint64_t batch_size) {
  WG_REQUIRE_GPU();
  const EdgeList whole = wg::datasets::generate_rmat(
      {.scale = wg::test::gpu_test_scale(10), .edge_factor = 8, .seed = 11, .symmetric = true});
  const wg::datasets::UpdateStream stream = wg::datasets::make_update_stream(
      whole, {.initial_fraction = 0.4, .batch_size = batch_size, .seed = 5});

  Graph g(whole.num_vertices);
  g.insert_edges(stream.initial);
  wg::gpu::DynamicComponents<Graph> cc(g);
  wg::gpu::DynamicCoreNumbers<Graph> kc(g);
  wg::gpu::DynamicBfs<Graph> bfs(g, 0);
  wg::gpu::DynamicSssp<Graph> sssp(g, 0);
  wg::gpu::DynamicPageRank<Graph> pr(g);
  wg::gpu::IncrementalTriangleCounter<Graph> tc(g);
  Alone alone(stream.initial);

  std::uint64_t b = 0;
  for (const auto& batch : stream.batches) {
    SCOPED_TRACE("batch " + std::to_string(b++));
    const bool insert = batch.kind == wg::datasets::UpdateBatch::Kind::insert;
    std::array<wg::BatchEffect, 6> e{};
    const wg::UpdateResult u =
        insert ? wg::gpu::insert_observed(g, batch.edges, std::span<wg::BatchEffect>(e), cc, kc,
                                          bfs, sssp, pr, tc)
               : wg::gpu::erase_observed(g, batch.edges, std::span<wg::BatchEffect>(e), cc, kc, bfs,
                                         sssp, pr, tc);
    const auto apply = [&](auto& a) {
      return insert ? a.insert_edges(batch.edges) : a.erase_edges(batch.edges);
    };
    const auto r_cc = apply(alone.cc);
    const auto r_kc = apply(alone.kc);
    const auto r_bfs = apply(alone.bfs);
    const auto r_sssp = apply(alone.sssp);
    const auto r_pr = apply(alone.pr);
    const auto r_tc = apply(alone.tc);
    EXPECT_EQ(u, r_cc.update);
    EXPECT_EQ(u, r_tc.update);
    EXPECT_EQ(e[0].changed, r_cc.changed);
    EXPECT_EQ(e[1].changed, r_kc.changed);
    EXPECT_EQ(e[2].changed, r_bfs.changed);
    EXPECT_EQ(e[3].changed, r_sssp.changed);
    EXPECT_EQ(e[5].changed, r_tc.triangles);

    const EdgeList now = g.export_coo();
    EXPECT_EQ(cc.result().component, alone.cc.result().component);
    EXPECT_EQ(cc.result().component, wg::reference::connected_components(now).component);
    EXPECT_EQ(kc.result().core, alone.kc.result().core);
    EXPECT_EQ(kc.result().core, wg::reference::core_numbers(now));
    EXPECT_EQ(bfs.result().level, alone.bfs.result().level);
    EXPECT_EQ(bfs.result().level, wg::reference::bfs_levels(now, 0));
    const auto d = sssp.result().distance;
    EXPECT_EQ(d, alone.sssp.result().distance);
    const auto want_d = wg::reference::sssp(now, 0);
    ASSERT_EQ(d.size(), want_d.size());
    for (std::size_t v = 0; v < d.size(); ++v) {
      if (d[v] == wg::gpu::kSsspUnreached)
        EXPECT_TRUE(std::isinf(want_d[v])) << v;
      else
        EXPECT_EQ(static_cast<double>(d[v]), want_d[v]) << v;
    }
    // PageRank: both warm-started from the same ranks after the same batches, so within the
    // stated accuracy of each other.
    const auto ranks = pr.result().rank, alone_ranks = alone.pr.result().rank;
    ASSERT_EQ(ranks.size(), alone_ranks.size());
    double l1 = 0;
    for (std::size_t v = 0; v < ranks.size(); ++v) l1 += std::abs(ranks[v] - alone_ranks[v]);
    EXPECT_LT(l1, 1e-8);
    (void)r_pr;
    EXPECT_EQ(tc.total(), alone.tc.total());
    EXPECT_EQ(tc.total(), wg::reference::triangle_count(now).total);
    if (::testing::Test::HasFailure()) break;
  }
}

TEST(GpuObservers, SixResultsFollowOneUpdateSmallBatches) {
  run_stream(128);
}
TEST(GpuObservers, SixResultsFollowOneUpdateLargeBatches) {
  run_stream(2048);
}

TEST(GpuObservers, EmptyAndAbsentBatchesCallNobodyOrEmpty) {
  WG_REQUIRE_GPU();
  Graph g(8);
  EdgeList tri;
  tri.num_vertices = 8;
  tri.src = {0, 1, 0};
  tri.dst = {1, 2, 2};
  g.insert_edges(tri);
  wg::gpu::DynamicComponents<Graph> cc(g);
  wg::gpu::IncrementalTriangleCounter<Graph> tc(g);
  ASSERT_EQ(tc.total(), 1u);
  // Erasing absent edges: nobody is told, nothing changes.
  EdgeList absent;
  absent.num_vertices = 8;
  absent.src = {3, 5};
  absent.dst = {4, 6};
  std::array<wg::BatchEffect, 2> e{};
  const wg::UpdateResult u =
      wg::gpu::erase_observed(g, absent, std::span<wg::BatchEffect>(e), cc, tc);
  EXPECT_EQ(u.applied, 0u);
  EXPECT_EQ(e[0].changed + e[1].changed, 0u);
  // An insertion past the id range grows it: the new ids are components of their own.
  EdgeList grow;
  grow.num_vertices = 12;
  grow.src = {10};
  grow.dst = {11};
  e = {};
  wg::gpu::insert_observed(g, grow, std::span<wg::BatchEffect>(e), cc, tc);
  const auto labels = cc.result().component;
  ASSERT_EQ(labels.size(), 12u);
  EXPECT_EQ(labels[11], 10u);
  EXPECT_EQ(labels[9], 9u);
  EXPECT_EQ(tc.total(), 1u);
}

TEST(GpuObservers, DynamicResultsSetFollowsEveryBatch) {
  WG_REQUIRE_GPU();
  const EdgeList whole = wg::datasets::generate_rmat(
      {.scale = wg::test::gpu_test_scale(10), .edge_factor = 8, .seed = 11, .symmetric = true});
  const wg::datasets::UpdateStream stream = wg::datasets::make_update_stream(
      whole, {.initial_fraction = 0.4, .batch_size = 512, .seed = 5});
  Graph g(whole.num_vertices);
  g.insert_edges(stream.initial);
  wg::gpu::DynamicResults<Graph> set(g);
  auto& cc = set.track<wg::gpu::DynamicComponents<Graph>>();
  auto& tc = set.track<wg::gpu::IncrementalTriangleCounter<Graph>>();
  auto& kc = set.track<wg::gpu::DynamicCoreNumbers<Graph>>();
  std::uint64_t b = 0;
  for (const auto& batch : stream.batches) {
    SCOPED_TRACE("batch " + std::to_string(b++));
    const bool insert = batch.kind == wg::datasets::UpdateBatch::Kind::insert;
    const auto r = insert ? set.insert_edges(batch.edges) : set.erase_edges(batch.edges);
    ASSERT_EQ(r.effects.size(), 3u);
    const EdgeList now = g.export_coo();
    EXPECT_EQ(cc.result().component, wg::reference::connected_components(now).component);
    EXPECT_EQ(tc.total(), wg::reference::triangle_count(now).total);
    EXPECT_EQ(kc.result().core, wg::reference::core_numbers(now));
    if (::testing::Test::HasFailure()) break;
  }
  // An edge erased twice is absent the second time: nothing changes, every result stays current.
  EdgeList absent;
  absent.num_vertices = 2;
  absent.src = {0};
  absent.dst = {1};
  set.erase_edges(absent);
  set.erase_edges(absent);
  EXPECT_TRUE(cc.current() && tc.current() && kc.current());
  // Each result's own call in turn (issue 44): the second sees the edges present and refuses.
  const EdgeList& first = stream.batches.front().edges;
  tc.erase_edges(first);
  EXPECT_THROW(cc.erase_edges(first), wg::StaleResultError);
  EXPECT_THROW(set.insert_edges(first), wg::StaleResultError);
  cc.recompute();
  kc.recompute();
  EXPECT_NO_THROW(set.insert_edges(first));
  EXPECT_EQ(cc.result().component, wg::reference::connected_components(g.export_coo()).component);
}

}  // namespace
