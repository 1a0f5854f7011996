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
#include <random>
#include <set>
#include <string>
#include <utility>
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
  DynamicPageRank dyn(g, {}, {.push_work = 100});
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
  // Joining the isolated vertex 4 moves every rank; the push answers (no iteration).
  r = dyn.insert_edges({.num_vertices = 5, .src = {3, 3}, .dst = {4, 4}, .symmetric = true});
  EXPECT_EQ(r.update.applied, 1u);
  EXPECT_EQ(r.update.duplicates, 1u);
  EXPECT_EQ(r.changed, 5u);
  EXPECT_FALSE(r.recomputed);
  EXPECT_EQ(dyn.result().iterations, 0);
  expect_close(g, dyn.result());
  EXPECT_EQ(dyn.statistics().recomputed, 0u);
}

/// The vertices whose rank moved by more than tolerance / n between `before` and `after` (ids
/// `after` adds count from 0).
std::uint64_t moved(std::vector<double> before, const std::vector<double>& after) {
  before.resize(after.size(), 0.0);
  std::uint64_t c = 0;
  for (std::size_t v = 0; v < after.size(); ++v)
    c += std::abs(after[v] - before[v]) > kTolerance / static_cast<double>(after.size());
  return c;
}

// Dangling vertices spread their rank over every id: a vertex that loses its last out-arc (its
// column becomes uniform), one that gains one, and ids a batch adds (isolated, so dangling, and
// counted in n). The push answers each, within the bound, with `changed` exact.
TEST(DynamicPageRank, DanglingChangesAndNewIdsArePushed) {
  for (bool directed : {true, false}) {
    SCOPED_TRACE(directed ? "directed" : "undirected");
    DynamicGraph g(6, GraphOptions{.directed = directed, .threads = 1});
    g.insert_edges({.num_vertices = 6, .src = {0, 1, 2, 2, 3}, .dst = {1, 2, 0, 3, 4}});
    // On 6 vertices every residual reaches the whole graph: a budget that lets the push finish.
    DynamicPageRank dyn(g, {.damping = kDamping, .tolerance = kTolerance}, {.push_work = 100});
    expect_close(g, dyn.result());
    auto step = [&](auto&& apply) {
      const std::vector<double> before = dyn.result().rank;
      const auto r = apply();
      EXPECT_FALSE(r.recomputed);
      EXPECT_EQ(dyn.result().iterations, 0);
      EXPECT_EQ(r.changed, moved(before, dyn.result().rank));
      expect_close(g, dyn.result());
    };
    // 3 -> 4 goes: 3 becomes dangling (undirected: 4 becomes isolated).
    step([&] { return dyn.erase_edges({.num_vertices = 6, .src = {3}, .dst = {4}}); });
    // 4 -> 0 and 5 -> 1: dangling 4 and isolated 5 gain out-arcs.
    step([&] { return dyn.insert_edges({.num_vertices = 6, .src = {4, 5}, .dst = {0, 1}}); });
    // New ids 6..9: two of them joined by the batch, two left isolated.
    g.ensure_vertices(10);
    step([&] { return dyn.insert_edges({.num_vertices = 10, .src = {6, 0}, .dst = {1, 7}}); });
    // New ids and nothing else (no edge): every rank moves.
    g.ensure_vertices(12);
    step([&] { return dyn.erase_edges({.num_vertices = 12, .src = {0}, .dst = {11}}); });
    // A mixed step where vertex 2 loses both out-arcs and 3 gains its first.
    step([&] {
      return dyn.update({.num_vertices = 12, .src = {2, 2}, .dst = {0, 3}},
                        {.num_vertices = 12, .src = {3}, .dst = {8}});
    });
    EXPECT_EQ(dyn.statistics().recomputed, 0u);
    EXPECT_EQ(dyn.statistics().incremental, 5u);
  }
}

// Stop::max_change falls back to the warm-started iteration (the push's bound is an L1 one).
TEST(DynamicPageRank, MaxChangeFallsBack) {
  DynamicGraph g = wg::test::directed_rmat_cpu_graph(9, 4, 3);
  DynamicPageRank dyn(g, {.damping = kDamping,
                          .tolerance = kTolerance / static_cast<double>(g.num_vertices()),
                          .stop = PageRankOptions::Stop::max_change});
  const EdgeList all = g.export_coo();
  EdgeList some{.num_vertices = g.num_vertices()};
  for (std::size_t i = 0; i < 8; ++i) {
    some.src.push_back(all.src[i * 7]);
    some.dst.push_back(all.dst[i * 7]);
  }
  const auto r = dyn.erase_edges(some);
  EXPECT_TRUE(r.recomputed);
  EXPECT_GT(dyn.result().iterations, 0);
  expect_close(g, dyn.result());
}

}  // namespace
}  // namespace wg::cpu

namespace wg::cpu {
namespace {

/// An undirected edge set kept beside the graph: the reference runs on it, not on the graph's
/// export.
struct Model {
  std::uint64_t n = 0;
  std::set<std::pair<vertex_t, vertex_t>> edges;
  static std::pair<vertex_t, vertex_t> key(vertex_t u, vertex_t v) {
    return u < v ? std::pair{u, v} : std::pair{v, u};
  }
  void insert(const EdgeList& b) {
    for (std::size_t i = 0; i < b.size(); ++i)
      if (b.src[i] != b.dst[i]) edges.insert(key(b.src[i], b.dst[i]));
  }
  void erase(const EdgeList& b) {
    for (std::size_t i = 0; i < b.size(); ++i) edges.erase(key(b.src[i], b.dst[i]));
  }
  EdgeList list() const {
    EdgeList e{.num_vertices = n};
    for (auto [u, v] : edges) {
      e.src.push_back(u);
      e.dst.push_back(v);
    }
    return e;
  }
};

// R-MAT scale 14: insertion batches (fresh R-MAT edges on the graph's ids), erasure batches
// (edges of the graph) and mixed steps of 16..1024 edges, followed by two objects on two copies
// of the graph: default options, and a push budget large enough for the push to finish. After
// every batch both objects' ranks lie within the bound of the reference on the model's edges and
// `changed` is exact; the second object's push answered (no fallback) every batch of up to 256
// edges. (With the default budget the push falls back on this graph: see pagerank.hpp.)
TEST(DynamicPageRank, RmatBatchesWithinBoundPushAndFallback) {
  const datasets::RmatParams base{.scale = 14, .seed = 11};
  const EdgeList whole = datasets::generate_rmat(base);
  DynamicGraph g(GraphOptions{.threads = 2}), h(GraphOptions{.threads = 2});
  g.build(whole);
  h.build(whole);
  Model model{.n = g.num_vertices()};
  model.insert(whole);
  DynamicPageRank dyn(g), pushed(h, {}, {.push_work = 100});
  std::mt19937_64 rng(5);
  auto fresh = [&](std::size_t count, std::uint64_t seed) {
    datasets::RmatParams p = base;
    p.seed = seed;
    p.scramble_seed = 11;  // the graph's permutation: the batch's hubs are the graph's
    p.edge_factor = static_cast<double>(count) / static_cast<double>(model.n);
    EdgeList e = datasets::generate_rmat(p);
    e.num_vertices = model.n;
    return e;
  };
  auto present = [&](std::size_t count) {
    EdgeList e = datasets::sample_entries(model.list(), count, rng);
    e.num_vertices = model.n;
    return e;
  };
  // Applies one batch (apply(object)) to both, then checks both against the reference.
  auto follow = [&](auto&& apply) {
    const std::vector<double> before[2] = {dyn.result().rank, pushed.result().rank};
    const std::uint64_t changed[2] = {apply(dyn).changed, apply(pushed).changed};
    const auto want = wg::reference::pagerank(model.list(), {}, false);
    ASSERT_TRUE(want.converged);
    for (int k = 0; k < 2; ++k) {
      SCOPED_TRACE(k ? "push budget 100" : "default options");
      const auto& got = (k ? pushed : dyn).result().rank;
      ASSERT_EQ(got.size(), want.rank.size());
      double l1 = 0;
      for (std::size_t v = 0; v < got.size(); ++v) l1 += std::abs(got[v] - want.rank[v]);
      EXPECT_LE(l1, kBound);
      EXPECT_EQ(changed[k], moved(before[k], got));
    }
  };
  std::uint64_t seed = 100;
  for (std::size_t size = 16; size <= 1024; size *= 4) {
    SCOPED_TRACE("batch " + std::to_string(size));
    const std::uint64_t fallbacks = pushed.statistics().recomputed;
    const EdgeList ins = fresh(size, ++seed);
    model.insert(ins);
    follow([&](DynamicPageRank& d) { return d.insert_edges(ins); });
    const EdgeList era = present(size);
    model.erase(era);
    follow([&](DynamicPageRank& d) { return d.erase_edges(era); });
    const EdgeList out = present(size / 2), in = fresh(size / 2, ++seed);
    model.erase(out);
    model.insert(in);
    follow([&](DynamicPageRank& d) { return d.update(out, in); });
    if (size <= 256) EXPECT_EQ(pushed.statistics().recomputed, fallbacks);
  }
  for (const DynamicPageRank* d : {&dyn, &pushed}) {
    EXPECT_EQ(d->statistics().batches, 12u);
    EXPECT_EQ(d->statistics().incremental + d->statistics().recomputed, 12u);
  }
}

// A road network (luxembourg_osm, 115K vertices; long paths), default options: erasing 16
// edges and inserting them back, twice, is answered by the push (no fallback), within the bound
// of the reference on the model's edges after every batch.
TEST(DynamicPageRank, RoadNetworkDefaultOptionsPushAnswers) {
  WG_REQUIRE_DATASET(path, "luxembourg_osm.mtx");
  const EdgeList road = wg::test::unweighted_edges(path);
  DynamicGraph g(GraphOptions{.threads = 2});
  g.build(road);
  Model model{.n = g.num_vertices()};
  model.insert(road);
  DynamicPageRank dyn(g);
  std::mt19937_64 rng(9);
  auto check = [&] {
    const auto want = wg::reference::pagerank(model.list(), {}, false);
    ASSERT_TRUE(want.converged);
    double l1 = 0;
    for (std::size_t v = 0; v < want.rank.size(); ++v)
      l1 += std::abs(dyn.result().rank[v] - want.rank[v]);
    EXPECT_LE(l1, kBound);
  };
  for (int round = 0; round < 2; ++round) {
    EdgeList batch{.num_vertices = model.n};
    std::uniform_int_distribution<std::size_t> pick(0, road.size() - 1);
    for (std::size_t i = 0; i < 16; ++i) {
      const std::size_t k = pick(rng);
      batch.src.push_back(road.src[k]);
      batch.dst.push_back(road.dst[k]);
    }
    EXPECT_FALSE(dyn.erase_edges(batch).recomputed);
    model.erase(batch);
    check();
    EXPECT_FALSE(dyn.insert_edges(batch).recomputed);
    model.insert(batch);
    check();
  }
  EXPECT_EQ(dyn.statistics().recomputed, 0u);
}

}  // namespace
}  // namespace wg::cpu
