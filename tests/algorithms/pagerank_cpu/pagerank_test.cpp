// CPU PageRank: static ranks on every shared dataset (default threads and one thread) and on a
// directed R-MAT, dynamic ranks after every batch of R-MAT insert/delete streams (undirected and
// directed; with duplicates, self-loops and absent edges), all within the stated L1 bound of the
// Boost.Graph reference (same damping, dangling rule and stop rule).
//
// The bound: both sides stop when one iteration changes the ranks by less than tol in L1, and
// an iteration contracts L1 distances by d, so each is within d / (1 - d) * tol of the exact
// ranks (pagerank.hpp, "Accuracy"): L1(ours, reference) <= 2 * d / (1 - d) * tol, plus a
// rounding allowance of 1e-12 (sums of ~1e5 doubles of magnitude <= 1 over ~200 iterations).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <warpgraph/algorithms/pagerank/cpu/pagerank.hpp>
#include <warpgraph/algorithms/pagerank/cpu/pagerank_impl.hpp>
#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/graph/cpu/csr_view.hpp>

#include "../cpu_graph_fixture.hpp"
#include "test_support.hpp"

namespace wg::cpu {
namespace {

constexpr double kTolerance = 1e-10;
constexpr double kDamping = 0.85;
constexpr double kBound = 2 * kDamping / (1 - kDamping) * kTolerance + 1e-12;

void expect_close(const DynamicGraph& g, const PageRankResult& got) {
  const EdgeList coo = wg::test::reference_edges(g);
  const auto want = wg::reference::pagerank(
      coo, {.damping = kDamping, .tolerance = kTolerance, .max_iterations = 1000}, g.directed());
  ASSERT_TRUE(want.converged);
  ASSERT_TRUE(got.converged);
  ASSERT_EQ(got.rank.size(), want.rank.size());
  double l1 = 0, sum = 0;
  for (std::size_t v = 0; v < got.rank.size(); ++v) {
    l1 += std::abs(got.rank[v] - want.rank[v]);
    sum += got.rank[v];
  }
  EXPECT_LE(l1, kBound);
  if (!got.rank.empty()) EXPECT_NEAR(sum, 1.0, 1e-9);
}

class BundledGraphs : public testing::TestWithParam<const char*> {};

// The graph's threads (2) and one thread: the split of the sums must not matter beyond rounding.
TEST_P(BundledGraphs, StaticRanksWithinBoundOfReference) {
  WG_REQUIRE_DATASET(path, GetParam());
  const DynamicGraph g = wg::test::read_into_cpu_graph(path);
  for (unsigned threads : {0u, 1u}) expect_close(g, pagerank(g, {}, {.threads = threads}));
}

INSTANTIATE_TEST_SUITE_P(All, BundledGraphs, wg::test::kBundledGraphs, wg::test::graph_test_name);

TEST(StaticPageRank, DirectedWithDanglingVertices) {
  DynamicGraph g = wg::test::directed_rmat_cpu_graph(11, 4, 5);
  expect_close(g, pagerank(g));
}

// Any HostGraphView: a CSR snapshot has neither export_csr nor in-neighbours, so the in-arcs
// come from the transpose of its out-arcs.
TEST(StaticPageRank, OnAnyHostGraphView) {
  WG_REQUIRE_DATASET(path, "karate.mtx");
  for (bool directed : {true, false}) {
    const DynamicGraph g = directed ? wg::test::directed_rmat_cpu_graph(10, 4, 6)
                                    : wg::test::read_into_cpu_graph(path);
    const Csr csr = g.export_csr();
    expect_close(g, pagerank(CsrView(csr, directed)));
  }
}

// Stop::max_change (the largest change of one vertex) stops no later than the L1 rule at the
// same tolerance, and on the same iteration as the reference's max_change rule; the ranks stay
// within the L1 rule's bound at the reference's (their L1 change is at most n x the largest).
TEST(StaticPageRank, MaxChangeStopAsTheReference) {
  const DynamicGraph g = wg::test::directed_rmat_cpu_graph(10, 4, 7);
  const double tol = kTolerance / static_cast<double>(g.num_vertices());
  const PageRankOptions max_rule{
      .damping = kDamping, .tolerance = tol, .stop = PageRankOptions::Stop::max_change};
  const PageRankResult mx = pagerank(g, max_rule);
  const PageRankResult l1 = pagerank(g, {.damping = kDamping, .tolerance = tol});
  const EdgeList coo = wg::test::reference_edges(g);
  const auto want = wg::reference::pagerank(coo, max_rule, g.directed());
  ASSERT_TRUE(mx.converged);
  EXPECT_LT(mx.iterations, l1.iterations);
  EXPECT_NEAR(mx.iterations, want.iterations, 1);  // summation order may move the last step
  expect_close(g, mx);
}

TEST(StaticPageRank, EmptyGraphAndBadOptions) {
  DynamicGraph g(GraphOptions{.threads = 1});
  const PageRankResult r = pagerank(g);
  EXPECT_TRUE(r.rank.empty());
  EXPECT_TRUE(r.converged);
  EXPECT_THROW(pagerank(g, {.damping = 1.5}), InvalidArgument);
  EXPECT_THROW(pagerank(g, {.tolerance = -1}), InvalidArgument);
  EXPECT_THROW(pagerank(g, {.max_iterations = -1}), InvalidArgument);
}

void replay(bool directed, std::uint64_t batch_size) {
  auto [stream, g] = wg::test::rmat_stream(directed, 4, batch_size);
  DynamicPageRank dyn(g, {.damping = kDamping, .tolerance = kTolerance});
  expect_close(g, dyn.result());
  const int cold = dyn.result().iterations;
  const double moved = kTolerance / static_cast<double>(g.num_vertices());
  int warm = 0;
  const auto batches = wg::test::replay_checked(
      stream, dyn, [&] { return dyn.result().rank; },
      [&] {
        expect_close(g, dyn.result());
        warm += dyn.result().iterations;
      },
      [&](double a, double b) { return std::abs(a - b) > moved; });
  // The warm start is the point of the dynamic class: fewer iterations than starting over.
  EXPECT_LT(warm, cold * static_cast<int>(batches.size()));
}

TEST(DynamicPageRank, UndirectedStream) {
  replay(false, 256);
}
TEST(DynamicPageRank, DirectedStream) {
  replay(true, 256);
}

TEST(DynamicPageRank, BatchesThatChangeNothingDoNotIterate) {
  DynamicGraph g(5, GraphOptions{.threads = 1});
  g.insert_edges({.num_vertices = 5, .src = {0, 1, 2}, .dst = {1, 2, 3}, .symmetric = true});
  DynamicPageRank dyn(g);
  expect_close(g, dyn.result());
  // A self-loop, a duplicate pair and edges already present: nothing to iterate.
  auto r = dyn.insert_edges(
      {.num_vertices = 5, .src = {4, 3, 2, 0}, .dst = {4, 2, 3, 1}, .symmetric = true});
  EXPECT_EQ(r.update.applied, 0u);
  EXPECT_EQ(r.changed, 0u);
  EXPECT_EQ(dyn.result().iterations, 0);
  // Absent edges and a self-loop.
  r = dyn.erase_edges({.num_vertices = 5, .src = {0, 4}, .dst = {4, 4}, .symmetric = true});
  EXPECT_EQ(r.update.applied, 0u);
  EXPECT_EQ(r.changed, 0u);
  EXPECT_EQ(dyn.result().iterations, 0);
  expect_close(g, dyn.result());
  // Joining the isolated vertex 4 moves every rank.
  r = dyn.insert_edges({.num_vertices = 5, .src = {3, 3}, .dst = {4, 4}, .symmetric = true});
  EXPECT_EQ(r.update.applied, 1u);
  EXPECT_EQ(r.update.duplicates, 1u);
  EXPECT_EQ(r.changed, 5u);
  EXPECT_GT(dyn.result().iterations, 0);
  expect_close(g, dyn.result());
}

}  // namespace
}  // namespace wg::cpu
