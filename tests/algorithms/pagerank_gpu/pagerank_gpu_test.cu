// GPU PageRank: static ranks on every shared dataset and on a directed R-MAT graph (push), and
// dynamic ranks after every batch of R-MAT insert/delete streams (undirected and directed;
// duplicates, self-loops, absent edges), all within the stated bound of the Boost.Graph
// reference with the same damping, dangling rule and L1 tolerance: 2 d / (1 - d) * tol (plus
// rounding) per vertex, since the L1 distance bounds every entry. The hub split (forced with a
// small split_degree), the device-side stop read every 1..64 iterations, the CSR view and the
// warm-start switch to a cold start are checked the same way; the switch's prediction on the host.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <warpgraph/algorithms/pagerank/gpu/detail/warm_limit.hpp>
#include <warpgraph/algorithms/pagerank/gpu/pagerank.cuh>
#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/graph/gpu/csr_graph.cuh>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#include "../../support/test_support.hpp"
#include "../gpu_test_support.hpp"

namespace {

using wg::EdgeList;
using wg::test::GraphModel;
using wg::test::MapGraph;
using wg::test::SetGraph;

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

WG_BUNDLED_GRAPHS_TEST(SharedDatasets, StaticRanksWithinBound) {
  WG_REQUIRE_GPU();
  WG_REQUIRE_DATASET(path, GetParam());
  const EdgeList e = wg::test::unweighted_edges(path);
  wg::test::on_set_and_map(e, [&](const auto& g) {
    const auto r = wg::gpu::pagerank(g, {.tolerance = kTol});
    EXPECT_TRUE(r.converged);
    expect_close(r.rank, e, false);
  });
}

TEST(GpuPageRank, DirectedPushWithinBound) {
  WG_REQUIRE_GPU();
  const wg::test::RmatGraph in(8, 5, true);
  for (double d : {0.85, 0.5}) {
    const auto r = wg::gpu::pagerank(in.graph, {.damping = d, .tolerance = kTol});
    expect_close(r.rank, in.reference(), true, d);
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

using Options = wg::gpu::PageRankOptions;
using Tuning = wg::gpu::PageRankTuning;

/// Every vertex of more than 16 out-arcs split into parts of 8 (hubs at the test scales).
constexpr Tuning kSplit{.split_degree = 16, .arcs_per_part = 8};

template <class Graph>
void stream_case(bool directed, std::uint64_t batch_size, std::uint64_t seed, Tuning tuning = {}) {
  WG_REQUIRE_GPU();
  const auto stream =
      wg::test::gpu_rmat_stream(wg::test::gpu_test_scale(), 8, batch_size, directed, seed);
  Graph g(0, {.directed = directed});
  GraphModel m(0, directed);
  m.clear(stream.initial.num_vertices);
  ASSERT_EQ(g.build(stream.initial), m.insert(stream.initial));
  wg::gpu::DynamicPageRank<Graph> dyn(g, {.tolerance = kTol}, tuning);
  expect_close(dyn.result().rank, wg::test::reference_edges(m), directed);
  wg::test::replay_gpu(stream, dyn, m, [&](std::size_t, const auto& r, bool) {
    // A restarted warm start ends as the cold start it became.
    if (r.recomputed) EXPECT_EQ(dyn.last_run().iterations, dyn.cold_iterations());
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
TEST(GpuDynamicPageRank, UndirectedStreamSplitHubs) {
  stream_case<SetGraph>(false, 512, 6, kSplit);
}
TEST(GpuDynamicPageRank, DirectedStreamSplitHubs) {
  stream_case<SetGraph>(true, 512, 7, kSplit);
}

// The device-side stop read every k iterations gives the iterations and ranks of a check after
// every iteration; with hubs split or not; undirected (pull) and directed (push).
TEST(GpuPageRank, StopReadEveryKIterations) {
  WG_REQUIRE_GPU();
  for (const bool directed : {false, true}) {
    const wg::test::RmatGraph in(8, 12, directed);
    const SetGraph& g = in.graph;
    const EdgeList ref = in.reference();
    for (const auto stop : {Options::Stop::l1, Options::Stop::max_change}) {
      const double tol = stop == Options::Stop::l1 ? kTol : 1e-12;
      const auto one =
          wg::gpu::pagerank(g, {.tolerance = tol, .stop = stop},
                            {.split_degree = 16, .arcs_per_part = 8, .iterations_per_check = 1});
      EXPECT_TRUE(one.converged);
      if (stop == Options::Stop::l1) expect_close(one.rank, ref, directed);
      for (const int k : {2, 3, 4, 64}) {
        for (const std::uint32_t split : {16u, 1u << 30}) {
          const auto r = wg::gpu::pagerank(
              g, {.tolerance = tol, .stop = stop},
              {.split_degree = split, .arcs_per_part = 8, .iterations_per_check = k});
          EXPECT_TRUE(r.converged);
          EXPECT_NEAR(r.iterations, one.iterations, 1) << k << " " << split;  // summation order
          if (stop == Options::Stop::l1) expect_close(r.rank, ref, directed);
        }
      }
      // max_iterations that k does not divide: exactly that many, not converged.
      for (const int cap : {1, 3, 5}) {
        const auto r = wg::gpu::pagerank(g, {.tolerance = 0, .max_iterations = cap, .stop = stop},
                                         {.iterations_per_check = 4});
        EXPECT_EQ(r.iterations, cap);
        EXPECT_FALSE(r.converged);
        EXPECT_NEAR(std::accumulate(r.rank.begin(), r.rank.end(), 0.0), 1.0, 1e-9);
      }
    }
  }
}

// Every out-arc a hub (split_degree 0, one arc per part): the per-hub tickets on every vertex.
TEST(GpuPageRank, EveryVertexSplit) {
  WG_REQUIRE_GPU();
  const wg::test::RmatGraph in(8, 13, false, 10);
  const SetGraph& g = in.graph;
  const auto r = wg::gpu::pagerank(g, {.tolerance = kTol}, {.split_degree = 0, .arcs_per_part = 1});
  EXPECT_TRUE(r.converged);
  expect_close(r.rank, in.reference(), false);
  EXPECT_THROW(wg::gpu::pagerank(g, {}, {.arcs_per_part = 0}), wg::InvalidArgument);
  EXPECT_THROW(wg::gpu::pagerank(g, {}, {.max_parts = 0}), wg::InvalidArgument);
  EXPECT_THROW(wg::gpu::pagerank(g, {}, {.iterations_per_check = 0}), wg::InvalidArgument);
  EXPECT_THROW(wg::gpu::pagerank(g, {}, {.warm_restart_ratio = -1}), wg::InvalidArgument);
}

// The same iteration on the plain CSR view (graph/gpu/csr_graph.cuh), hubs split and not.
TEST(GpuPageRank, CsrView) {
  WG_REQUIRE_GPU();
  for (const bool directed : {false, true}) {
    const wg::test::RmatGraph in(8, 14, directed);
    const SetGraph& g = in.graph;
    const wg::gpu::CsrGraph<false> csr(g.export_csr(), directed, g.stream());
    const std::uint64_t n = csr.num_vertices();
    for (const std::uint32_t split : {16u, 1u << 30}) {
      wg::DeviceBuffer<double> rank(n, g.stream());
      const auto run =
          wg::gpu::pagerank(csr.ref(), n, directed, rank.data(), g.stream(), {.tolerance = kTol},
                            {.split_degree = split, .arcs_per_part = 40});
      EXPECT_TRUE(run.converged);
      expect_close(rank.to_host(), in.reference(), directed);
    }
  }
}

// The switch to a cold start: ratio 0 restarts every warm start that one iteration did not
// converge, at the cold start's count; a huge ratio never restarts.
TEST(GpuDynamicPageRank, WarmStartRestartsCold) {
  WG_REQUIRE_GPU();
  const auto stream = wg::test::gpu_rmat_stream(wg::test::gpu_test_scale(), 8, 2048, false, 15);
  for (const double ratio : {0.0, 1e9}) {
    SetGraph g(0);
    GraphModel m(0, false);
    m.clear(stream.initial.num_vertices);
    g.build(stream.initial);
    m.insert(stream.initial);
    wg::gpu::DynamicPageRank<SetGraph> dyn(g, {.tolerance = kTol}, {.warm_restart_ratio = ratio});
    const int cold = dyn.cold_iterations();
    EXPECT_GT(cold, 1);
    int restarts = 0;
    for (std::size_t i = 0; i < stream.batches.size() && i < 4; ++i) {
      const auto& b = stream.batches[i];
      const bool erase = b.kind == wg::datasets::UpdateBatch::Kind::erase;
      const auto r = erase ? dyn.erase_edges(b.edges) : dyn.insert_edges(b.edges);
      if (erase)
        m.erase(b.edges);
      else
        m.insert(b.edges);
      restarts += r.recomputed;
      if (r.recomputed) {
        EXPECT_TRUE(dyn.last_run().restarted);
        EXPECT_EQ(dyn.last_run().iterations, dyn.cold_iterations());
      }
      if (ratio > 0) EXPECT_FALSE(r.recomputed);
      if (ratio == 0 && r.update.applied > 0) EXPECT_TRUE(r.recomputed);
      expect_close(dyn.result().rank, wg::test::reference_edges(m), false);
    }
    if (ratio == 0) EXPECT_GT(restarts, 0);
  }
}

// A mixed step (erase, then insert, one warm start) after every pair of batches of a stream.
TEST(GpuDynamicPageRank, MixedUpdateConvergesOnce) {
  WG_REQUIRE_GPU();
  for (const bool directed : {false, true}) {
    const auto stream = wg::test::gpu_rmat_stream(wg::test::gpu_test_scale(), 8, 512, directed, 16);
    SetGraph g(0, {.directed = directed});
    GraphModel m(0, directed);
    m.clear(stream.initial.num_vertices);
    g.build(stream.initial);
    m.insert(stream.initial);
    wg::gpu::DynamicPageRank<SetGraph> dyn(g, {.tolerance = kTol});
    EdgeList none;  // a self-loop: dropped, changes nothing
    none.num_vertices = stream.initial.num_vertices;
    none.symmetric = stream.initial.symmetric;
    none.src = {0};
    none.dst = {0};
    for (std::size_t i = 0; i < stream.batches.size() && i < 12; ++i) {
      const auto& b = stream.batches[i];
      const bool erase = b.kind == wg::datasets::UpdateBatch::Kind::erase;
      // Alternately an erase with an insert of nothing, and an insert with the last erase.
      const EdgeList& del = erase ? b.edges : none;
      const EdgeList& add = erase ? none : b.edges;
      const auto r = dyn.update(del, add);
      EXPECT_EQ(r.update.erased, m.erase(del));
      EXPECT_EQ(r.update.inserted, m.insert(add));
      if (r.update.erased.applied + r.update.inserted.applied == 0)
        EXPECT_EQ(dyn.last_run().iterations, 0);
      expect_close(dyn.result().rank, wg::test::reference_edges(m), directed);
    }
    // Both halves in one step: insert a batch's edges while erasing the previous batch's.
    for (std::size_t i = 1; i < stream.batches.size() && i < 6; ++i) {
      const auto& prev = stream.batches[i - 1].edges;
      const auto& next = stream.batches[i].edges;
      const auto r = dyn.update(prev, next);
      EXPECT_EQ(r.update.erased, m.erase(prev));
      EXPECT_EQ(r.update.inserted, m.insert(next));
      expect_close(dyn.result().rank, wg::test::reference_edges(m), directed);
    }
  }
}

// The switch's prediction (host only): change_k ~ first * rate^(k - 1).
TEST(PageRankWarmLimit, Prediction) {
  using namespace wg::gpu::pr_detail;
  EXPECT_EQ(predicted_iterations(1e-12, 1e-10, 0.5), 1);
  EXPECT_EQ(predicted_iterations(1.0, 0.3, 0.5), 3);        // changes 1, .5, .25
  EXPECT_EQ(predicted_iterations(1.0, 0.25, 0.5), 3);       // optimistic by one at an exact power
  EXPECT_GT(predicted_iterations(1.0, 1e-10, 1.0), 1e100);  // no contraction measured
  wg::gpu::PageRankRun cold{
      .iterations = 11, .converged = true, .first_change = 1.0, .last_change = 1.0 / 1024};
  EXPECT_NEAR(mean_rate(cold), 0.5, 1e-12);
  EXPECT_EQ(mean_rate({.iterations = 1, .first_change = 1, .last_change = 1}), 0);
  EXPECT_TRUE(can_predict(11, 0.5));
  EXPECT_FALSE(can_predict(1, 0.5));
  EXPECT_FALSE(can_predict(11, 1.0));
  const WarmLimit lim{.cold_iterations = 11, .cold_rate = 0.5, .ratio = 1.0};
  EXPECT_FALSE(give_up_warm(lim, 1.0 / 64, 1.0 / 1000));  // 1 + 4 iterations
  EXPECT_TRUE(give_up_warm(lim, 1.0, 1e-6));              // 1 + 20 > 11
  EXPECT_TRUE(give_up_warm({.cold_iterations = 11, .cold_rate = 0.5, .ratio = 0}, 1.0, 0.5));
  EXPECT_FALSE(give_up_warm(lim, 0.1, 0.5));  // already below the tolerance
}

TEST(GpuDynamicPageRank, VertexDeletions) {
  WG_REQUIRE_GPU();
  wg::test::RmatGraph in(8, 9);
  GraphModel& m = in.model;
  wg::gpu::DynamicPageRank<SetGraph> dyn(in.graph, {.tolerance = kTol});
  for (wg::vertex_t first : {0u, 7u, 100u}) {
    wg::test::erase_vertices_checked(dyn, {first, first + 1, first + 2, first}, m);  // a repeat
    expect_close(dyn.result().rank, wg::test::reference_edges(m), false);
  }
}

}  // namespace
