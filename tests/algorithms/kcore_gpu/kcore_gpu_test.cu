// GPU core numbers: static numbers on every shared dataset, and dynamic numbers after every batch
// of R-MAT insert/delete streams (duplicates, self-loops, absent edges; the round path with
// budgets out of the way, and the default budgets) and hand-made batches (a clique built in one
// batch: numbers rise by more than one per batch), all equal to the Boost.Graph reference on an
// independent host model of the graph. Power-law hand-made graphs (preferential attachment, hubs
// joined into a dense core) take insertion and deletion batches of 1 to 64 edges; small batches
// on R-MAT must take the rounds (stats()), and forced fallbacks must be counted as such.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <warpgraph/algorithms/kcore/gpu/kcore.hpp>
#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#include "../../support/test_support.hpp"
#include "../gpu_test_support.hpp"

namespace {

using wg::EdgeList;
using namespace wg::test;  // the GPU test vocabulary (gpu_test_support.hpp)

void expect_reference(const GraphModel& m, const wg::gpu::CoreNumbers& got) {
  const auto want = wg::reference::core_numbers(wg::test::reference_edges(m));
  ASSERT_EQ(got.core, want);
  std::uint32_t top = 0;
  for (auto c : want) top = std::max(top, c);
  ASSERT_EQ(got.max_core, top);
}

WG_BUNDLED_GRAPHS_TEST(SharedDatasets, StaticCoreNumbersEqualReference) {
  WG_REQUIRE_GPU();
  WG_REQUIRE_DATASET(path, GetParam());
  const EdgeList e = wg::test::unweighted_edges(path);
  const auto want = wg::reference::core_numbers(e);
  wg::test::on_set_and_map(e,
                           [&](const auto& g) { EXPECT_EQ(wg::gpu::core_numbers(g).core, want); });
}

TEST(GpuCoreNumbers, DirectedGraphIsRefused) {
  WG_REQUIRE_GPU();
  SetGraph g(4, {.directed = true});
  EXPECT_THROW(wg::gpu::core_numbers(g), wg::InvalidArgument);
  EXPECT_THROW(wg::gpu::DynamicCoreNumbers<SetGraph>{g}, wg::InvalidArgument);
}

TEST(GpuDynamicCoreNumbers, HandMadeBatches) {
  WG_REQUIRE_GPU();
  SetGraph g(12);
  GraphModel m(12, false);
  // A triangle first, so that the batches below are not the whole graph (a batch of more than
  // recompute_fraction of the other edges is recomputed, and an empty graph has none).
  const EdgeList triangle = batch(12, {{9, 10}, {10, 11}, {9, 11}});
  ASSERT_EQ(g.insert_edges(triangle), m.insert(triangle));
  wg::gpu::DynamicCoreNumbers<SetGraph> dyn(g, {.recompute_fraction = 100, .recompute_work = 100});
  // K5 on 0..4 in one batch (numbers 0 -> 4), with repeats and a self-loop; then a path.
  std::vector<std::pair<wg::vertex_t, wg::vertex_t>> k5;
  for (wg::vertex_t u = 0; u < 5; ++u)
    for (wg::vertex_t v = u + 1; v < 5; ++v) k5.emplace_back(u, v);
  k5.emplace_back(1, 0);
  k5.emplace_back(3, 3);
  // Insertions (true), then deletions: each answered by the rounds, never by recomputation.
  const std::pair<bool, EdgeList> steps[] = {
      {true, batch(12, k5)},
      {true, batch(12, {{5, 6}, {6, 7}, {7, 8}, {8, 5}, {0, 5}})},
      {true, batch(12, {{5, 7}, {6, 8}, {0, 1}, {9, 10}})},  // K4 on 5..8; a present edge
      {false,
       batch(12, {{0, 1}, {1, 0}, {2, 3}, {11, 10}})},  // K5 loses two edges; the triangle one
      {false, batch(12, {{0, 2}, {0, 3}, {0, 4}, {5, 6}, {7, 8}, {5, 7}})},
  };
  for (const auto& [insert, b] : steps) {
    const auto before = dyn.result();
    const auto r = insert ? dyn.insert_edges(b) : dyn.erase_edges(b);
    ASSERT_EQ(r.update, insert ? m.insert(b) : m.erase(b));
    ASSERT_FALSE(r.recomputed);
    expect_reference(m, dyn.result());
    EXPECT_EQ(r.changed, wg::count_changed(before.core, dyn.result().core));
  }
}

/// The options and the GPU tuning of one case.
struct KcoreSetup {
  wg::gpu::DynamicCoreNumbersOptions options;
  wg::gpu::DynamicCoreNumbersTuning tuning;
};

template <class Graph>
void stream_case(double edge_factor, std::uint64_t batch_size, const KcoreSetup& setup,
                 bool expect_rounds, std::uint64_t seed) {
  WG_REQUIRE_GPU();
  const auto stream =
      wg::test::gpu_rmat_stream(wg::test::gpu_test_scale(), edge_factor, batch_size, false, seed);
  Graph g(0);
  GraphModel m(0, false);
  m.clear(stream.initial.num_vertices);
  ASSERT_EQ(g.build(stream.initial), m.insert(stream.initial));
  wg::gpu::DynamicCoreNumbers<Graph> dyn(g, setup.options, setup.tuning);
  expect_reference(m, dyn.result());
  std::vector<std::uint32_t> before = dyn.result().core;
  std::size_t by_rounds = 0;
  wg::test::replay_gpu(stream, dyn, m, [&](std::size_t, const auto& r, bool) {
    const auto now = dyn.result();
    expect_reference(m, now);
    EXPECT_EQ(r.changed, wg::count_changed(before, now.core));
    by_rounds += !r.recomputed;
    before = now.core;
  });
  if (expect_rounds) EXPECT_EQ(by_rounds, stream.batches.size());
}

const KcoreSetup kNoBudget{{.recompute_fraction = 1e9, .recompute_work = 1e9},
                           {.max_rounds = 1u << 30}};

TEST(GpuDynamicCoreNumbers, SparseStreamRounds) {
  stream_case<SetGraph>(4, 128, kNoBudget, true, 3);
}
TEST(GpuDynamicCoreNumbers, DenseStreamRounds) {
  stream_case<SetGraph>(16, 256, kNoBudget, true, 4);
}
TEST(GpuDynamicCoreNumbers, StreamDefaultBudgets) {
  stream_case<SetGraph>(8, 512, {}, false, 5);
}
TEST(GpuDynamicCoreNumbers, StreamAlwaysRecomputes) {
  stream_case<SetGraph>(8, 512, {{.recompute_fraction = 0}}, false, 6);
}
TEST(GpuDynamicCoreNumbers, TinyWorkBudgetUndoes) {
  stream_case<SetGraph>(8, 256, {{.recompute_fraction = 1e9, .recompute_work = 1e-6}}, false, 7);
}
TEST(GpuDynamicCoreNumbers, FewRoundsAllowedRecomputes) {
  // max_rounds 2: batches whose vertices repeat more are answered by the static peeling, before
  // or during their rounds (changes undone).
  stream_case<SetGraph>(
      8, 256, {{.recompute_fraction = 1e9, .recompute_work = 1e9}, {.max_rounds = 2}}, false, 9);
}
TEST(GpuDynamicCoreNumbers, MapAdjacencyStream) {
  stream_case<MapGraph>(8, 256, kNoBudget, true, 8);
}

TEST(GpuDynamicCoreNumbers, VertexDeletions) {
  WG_REQUIRE_GPU();
  wg::test::RmatGraph in(8, 9);
  GraphModel& m = in.model;
  wg::gpu::DynamicCoreNumbers<SetGraph> dyn(in.graph);
  for (wg::vertex_t first : {0u, 7u, 100u}) {
    const auto before = dyn.result();
    const std::vector<wg::vertex_t> ids{first, first + 1, first + 2, first};  // a repeat
    const auto r = wg::test::erase_vertices_checked(dyn, ids, m);
    EXPECT_TRUE(r.recomputed);
    expect_reference(m, dyn.result());
    EXPECT_EQ(r.changed, wg::count_changed(before.core, dyn.result().core));
    // Batches after the deletions still update exactly.
    const EdgeList more = wg::datasets::generate_rmat(
        {.scale = wg::test::gpu_test_scale(), .edge_factor = 0.05, .seed = first + 20u});
    ASSERT_EQ(dyn.insert_edges(more).update, m.insert(more));
    expect_reference(m, dyn.result());
  }
}

// ---- power-law graphs, path counters -----------------------------------------------------------

/// Preferential attachment (each new vertex joins `per` endpoints drawn from the edge list, so
/// hubs gather edges) plus a dense core: the first `core` vertices all joined.
EdgeList power_law(std::uint64_t n, unsigned per, unsigned core, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  EdgeList e;
  e.num_vertices = n;
  auto add = [&](wg::vertex_t u, wg::vertex_t v) {
    e.src.push_back(u);
    e.dst.push_back(v);
  };
  for (wg::vertex_t u = 0; u < core; ++u)
    for (wg::vertex_t v = u + 1; v < core; ++v) add(u, v);
  for (wg::vertex_t v = core; v < n; ++v)
    for (unsigned j = 0; j < per; ++j) {
      const std::size_t i = rng() % e.src.size();
      add(v, (rng() & 1) ? e.src[i] : e.dst[i]);
    }
  return e;
}

/// `count` absent pairs: endpoints drawn from the edge list (hub-biased) when `hubs`, uniform
/// otherwise.
EdgeList new_edges(const GraphModel& m, std::uint64_t n, std::uint64_t count, bool hubs,
                   std::mt19937_64& rng) {
  const EdgeList cur = wg::test::reference_edges(m);
  std::set<std::pair<wg::vertex_t, wg::vertex_t>> have;
  for (std::size_t i = 0; i < cur.size(); ++i)
    have.emplace(std::min(cur.src[i], cur.dst[i]), std::max(cur.src[i], cur.dst[i]));
  auto pick = [&]() -> wg::vertex_t {
    if (hubs && cur.size() && (rng() & 1)) {
      const std::size_t i = rng() % cur.size();
      return (rng() & 1) ? cur.src[i] : cur.dst[i];
    }
    return static_cast<wg::vertex_t>(rng() % n);
  };
  EdgeList b;
  b.num_vertices = n;
  for (std::uint64_t tries = 0; b.size() < count && tries < 100 * count; ++tries) {
    const wg::vertex_t u = pick(), v = pick();
    if (u == v || !have.emplace(std::min(u, v), std::max(u, v)).second) continue;
    b.src.push_back(u);
    b.dst.push_back(v);
  }
  return b;
}

/// `count` present edges, uniform (hub edges are most of them on a power-law graph).
EdgeList old_edges(const GraphModel& m, std::uint64_t count, std::mt19937_64& rng) {
  EdgeList cur = wg::test::reference_edges(m);
  EdgeList b;
  b.num_vertices = m.id_range();
  std::vector<std::size_t> idx(cur.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::shuffle(idx.begin(), idx.end(), rng);
  for (std::size_t j = 0; j < idx.size() && b.size() < count; ++j) {
    b.src.push_back(cur.src[idx[j]]);
    b.dst.push_back(cur.dst[idx[j]]);
  }
  return b;
}

/// Alternating insertion and deletion batches of growing size, each checked against the
/// reference; returns the object's counters.
template <class Graph>
wg::gpu::DynamicCoreNumbersStats mixed_batches(const EdgeList& base, bool hubs,
                                               const KcoreSetup& setup, std::uint64_t max_batch,
                                               int per_size, std::uint64_t seed) {
  const std::uint64_t n = base.num_vertices;
  Graph g(0);
  GraphModel m(0, false);
  m.clear(n);
  EXPECT_EQ(g.build(base), m.insert(base));
  wg::gpu::DynamicCoreNumbers<Graph> dyn(g, setup.options, setup.tuning);
  expect_reference(m, dyn.result());
  std::mt19937_64 rng(seed);
  std::vector<std::uint32_t> before = dyn.result().core;
  for (std::uint64_t size = 1; size <= max_batch; size *= 4)
    for (int rep = 0; rep < per_size; ++rep)
      for (const bool insert : {true, false}) {
        SCOPED_TRACE((insert ? "insert " : "erase ") + std::to_string(size) + " #" +
                     std::to_string(rep));
        const EdgeList b = insert ? new_edges(m, n, size, hubs, rng) : old_edges(m, size, rng);
        const auto r = insert ? dyn.insert_edges(b) : dyn.erase_edges(b);
        EXPECT_EQ(r.update, insert ? m.insert(b) : m.erase(b));
        const auto now = dyn.result();
        expect_reference(m, now);
        if (testing::Test::HasFatalFailure()) return dyn.stats();
        EXPECT_EQ(r.changed, wg::count_changed(before, now.core));
        before = now.core;
      }
  return dyn.stats();
}

TEST(GpuDynamicCoreNumbers, PowerLawBatchesRounds) {
  WG_REQUIRE_GPU();
  for (const bool hubs : {true, false}) {
    const auto st = mixed_batches<SetGraph>(power_law(3000, 3, 24, 21), hubs, kNoBudget, 64, 4, 22);
    EXPECT_EQ(st.recomputed, 0u);
    EXPECT_EQ(st.incremental, st.batches);
    EXPECT_GT(st.rounds, st.batches);  // hub-biased batches need several rounds
  }
}

TEST(GpuDynamicCoreNumbers, PowerLawBatchesDefaultOptions) {
  WG_REQUIRE_GPU();
  const auto st = mixed_batches<SetGraph>(power_law(5000, 4, 40, 23), true, {}, 64, 4, 24);
  EXPECT_EQ(st.incremental + st.recomputed, st.batches);
}

TEST(GpuDynamicCoreNumbers, PowerLawMapAdjacency) {
  WG_REQUIRE_GPU();
  const auto st = mixed_batches<MapGraph>(power_law(2000, 2, 16, 25), true, kNoBudget, 16, 3, 26);
  EXPECT_EQ(st.recomputed, 0u);
}

TEST(GpuDynamicCoreNumbers, RmatSmallBatchesTakeRounds) {
  // Small batches of uniform new pairs and of present edges on R-MAT are answered by the rounds,
  // not by the static peeling. At test scale the static peeling takes only a few dozen
  // synchronisations, so the budget is raised (recompute_work 10) to what the defaults allow on
  // large graphs, where the static peeling's synchronisations number in the thousands.
  WG_REQUIRE_GPU();
  const auto st =
      mixed_batches<SetGraph>(unweighted_rmat(8, 31), false, {{.recompute_work = 10}}, 16, 6, 32);
  EXPECT_EQ(st.batches, 2u * 3u * 6u);
  EXPECT_EQ(st.incremental, st.batches)
      << "recomputed " << st.recomputed << " cut " << st.cut << " rounds " << st.rounds;
  EXPECT_EQ(st.cut, 0u);
}

TEST(GpuDynamicCoreNumbers, LevelsPerSyncOneAndMany) {
  // One level per synchronisation (every phase change seen by the host) and many (rounds
  // enqueued whole): the same exact numbers.
  WG_REQUIRE_GPU();
  for (const std::uint32_t levels : {1u, 16u}) {
    const auto st = mixed_batches<SetGraph>(power_law(2000, 3, 20, 51), true,
                                            {{.recompute_fraction = 1e9, .recompute_work = 1e9},
                                             {.max_rounds = 1u << 30, .levels_per_sync = levels}},
                                            64, 2, 52);
    EXPECT_EQ(st.recomputed, 0u);
  }
}

TEST(GpuDynamicCoreNumbers, RmatStreamRoundsStats) {
  WG_REQUIRE_GPU();
  const auto st = mixed_batches<SetGraph>(unweighted_rmat(8, 33), true, kNoBudget, 256, 2, 34);
  EXPECT_EQ(st.recomputed, 0u);
  EXPECT_GT(st.arcs_scanned, 0u);
}

TEST(GpuDynamicCoreNumbers, ForcedFallbacksAreCounted) {
  WG_REQUIRE_GPU();
  const EdgeList base = power_law(2000, 3, 20, 41);
  // Every batch over the size threshold: straight to the static peeling, nothing cut.
  auto st = mixed_batches<SetGraph>(base, true, {{.recompute_fraction = 0}}, 16, 2, 42);
  EXPECT_EQ(st.recomputed, st.batches);
  EXPECT_EQ(st.cut, 0u);
  EXPECT_EQ(st.rounds, 0u);
  // A budget below one round's synchronisations: decided before any round runs.
  st = mixed_batches<SetGraph>(base, true, {{.recompute_fraction = 1e9, .recompute_work = 1e-9}},
                               16, 2, 43);
  EXPECT_EQ(st.recomputed, st.batches);
  EXPECT_EQ(st.cut, 0u);
  EXPECT_EQ(st.rounds, 0u);
  // Free synchronisations and a scan budget below any level: every batch is tried, cut before
  // its first level and undone.
  st = mixed_batches<SetGraph>(
      base, true, {{.recompute_fraction = 1e9, .recompute_work = 1e-9}, {.sync_cost_arcs = 0}}, 16,
      2, 45);
  EXPECT_EQ(st.recomputed, st.batches);
  EXPECT_EQ(st.cut, st.batches);
  EXPECT_EQ(st.arcs_scanned, 0u);  // priced before launch: nothing scanned
  // One round allowed: hub-biased batches of several edges at one vertex fall back.
  st = mixed_batches<SetGraph>(
      base, true, {{.recompute_fraction = 1e9, .recompute_work = 1e9}, {.max_rounds = 1}}, 64, 2,
      44);
  EXPECT_GT(st.recomputed, 0u);
  EXPECT_GT(st.incremental, 0u);
}

// Mixed steps (update(erase, insert)): after every step the numbers equal the reference and the
// two-call path's (erase_edges then insert_edges on a twin graph), and changed counts exactly the
// numbers that moved over the step. expect: 0 any path, 1 every step by the rounds, 2 every step
// that changed an edge by the one static peeling.
template <class Graph>
wg::gpu::DynamicCoreNumbersStats mixed_stream_case(double edge_factor, std::uint64_t batch_size,
                                                   const KcoreSetup& setup, int expect,
                                                   std::uint64_t seed) {
  // Batches shrink with the graph (sanitizer scales), so that every case has several steps.
  const auto stream = wg::test::gpu_rmat_stream(
      wg::test::gpu_test_scale(), edge_factor, wg::test::scaled_batch(batch_size, 32), false, seed);
  Graph g(0), t(0);
  GraphModel m(0, false);
  m.clear(stream.initial.num_vertices);
  EXPECT_EQ(g.build(stream.initial), m.insert(stream.initial));
  t.build(stream.initial);
  wg::gpu::DynamicCoreNumbers<Graph> dyn(g, setup.options, setup.tuning),
      twin(t, setup.options, setup.tuning);
  std::vector<std::uint32_t> before = dyn.result().core;
  std::size_t recomputed = 0, moved = 0;
  const std::size_t steps =
      wg::test::replay_mixed_gpu(stream, dyn, twin, m, [&](std::size_t, const auto& r) {
        const auto now = dyn.result();
        expect_reference(m, now);
        ASSERT_EQ(now.core, twin.result().core);
        EXPECT_EQ(r.changed, wg::count_changed(before, now.core));
        recomputed += r.recomputed;
        moved += r.update.erased.applied + r.update.inserted.applied > 0;
        if (expect == 1) EXPECT_FALSE(r.recomputed);
        if (expect == 2)
          EXPECT_EQ(r.recomputed, r.update.erased.applied + r.update.inserted.applied > 0);
        before = now.core;
      });
  EXPECT_GT(steps, 4u);
  const auto& st = dyn.stats();
  EXPECT_EQ(st.shared, recomputed);
  if (expect == 2) EXPECT_EQ(recomputed, moved);
  return st;
}

TEST(GpuDynamicCoreNumbers, MixedStepsByRounds) {
  WG_REQUIRE_GPU();
  const auto st = mixed_stream_case<SetGraph>(8, 256, kNoBudget, 1, 61);
  EXPECT_EQ(st.recomputed, 0u);
  EXPECT_GT(st.rounds, 0u);
}
TEST(GpuDynamicCoreNumbers, MixedStepsDefaultBudgets) {
  WG_REQUIRE_GPU();
  mixed_stream_case<SetGraph>(8, 512, {}, 0, 62);
}
TEST(GpuDynamicCoreNumbers, MixedStepsUpFrontRule) {
  // recompute_fraction 0: every step with an erasure goes to one peeling, no round tried.
  WG_REQUIRE_GPU();
  const auto st = mixed_stream_case<SetGraph>(8, 256, {{.recompute_fraction = 0}}, 2, 63);
  EXPECT_EQ(st.rounds, 0u);
  EXPECT_EQ(st.incremental, 0u);
}
TEST(GpuDynamicCoreNumbers, MixedStepsCutErasures) {
  // Every part tried and cut before its first level: the erasure's changes undone, the step
  // answered by one peeling.
  WG_REQUIRE_GPU();
  const auto st = mixed_stream_case<SetGraph>(
      8, 256, {{.recompute_fraction = 1e9, .recompute_work = 1e-9}, {.sync_cost_arcs = 0}}, 2, 64);
  EXPECT_GT(st.cut, 0u);
}
TEST(GpuDynamicCoreNumbers, MixedStepsFewRounds) {
  // max_rounds 2: some parts fall back before or during their rounds, others do not.
  WG_REQUIRE_GPU();
  mixed_stream_case<SetGraph>(
      8, 256, {{.recompute_fraction = 1e9, .recompute_work = 1e9}, {.max_rounds = 2}}, 0, 65);
}
TEST(GpuDynamicCoreNumbers, MixedStepsMapAdjacency) {
  WG_REQUIRE_GPU();
  mixed_stream_case<MapGraph>(8, 256, kNoBudget, 1, 66);
}

TEST(GpuDynamicCoreNumbers, MixedStepsHandMade) {
  // One step by the rounds, one whose erasure falls back (the insertion then only updates the
  // graph), an empty erasure, an empty insertion, and a device-batch step; changed exact, the
  // numbers those of the two calls and of the reference.
  WG_REQUIRE_GPU();
  constexpr std::uint64_t n = 14;
  std::vector<std::pair<wg::vertex_t, wg::vertex_t>> k5;
  for (wg::vertex_t u = 0; u < 5; ++u)
    for (wg::vertex_t v = u + 1; v < 5; ++v) k5.emplace_back(u, v);
  k5.insert(k5.end(), {{5, 6}, {6, 7}, {7, 8}, {8, 5}, {0, 5}, {9, 10}, {10, 11}, {9, 11}});
  const EdgeList base = batch(n, k5);
  // fallback_options sends an erasure of more than one edge to the peeling (max_rounds 1: a
  // vertex in two of its edges), incremental ones stay by the rounds.
  const KcoreSetup setup{{.recompute_fraction = 1e9, .recompute_work = 1e9}, {.max_rounds = 1}};
  const std::vector<wg::test::MixedStep> steps = {
      {batch(n, {{0, 1}}), batch(n, {{5, 7}}), false},                   // both by the rounds
      {batch(n, {{0, 2}, {0, 3}}), batch(n, {{6, 8}, {12, 13}}), true},  // erasure falls back
      {EdgeList{}, batch(n, {{0, 2}, {12, 9}}), false},                  // empty erasure
      {batch(n, {{9, 10}, {11, 12}}), EdgeList{}, false},                // empty insertion
      {batch(n, {{0, 4}, {4, 3}}), batch(n, {{9, 10}}), true},           // vertex 4 twice
      {batch(n, {{3, 3}, {13, 1}}), batch(n, {{0, 1}}), false},          // nothing to erase
  };
  SetGraph g(n), t(n);
  GraphModel m(n, false);
  ASSERT_EQ(g.insert_edges(base), m.insert(base));
  t.insert_edges(base);
  wg::gpu::DynamicCoreNumbers<SetGraph> dyn(g, setup.options, setup.tuning),
      twin(t, setup.options, setup.tuning);
  wg::test::run_mixed_steps(
      steps, dyn, twin, m,
      [&](std::size_t, const auto& r, const auto& before, const auto& now, const auto& twin_now) {
        expect_reference(m, now);
        ASSERT_EQ(now.core, twin_now.core);
        EXPECT_EQ(r.changed, wg::count_changed(before.core, now.core));
      });
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_EQ(dyn.stats().shared, 2u);
  // Device batches: erase {5, 6}, insert {1, 2} and {10, 13}.
  const auto before = dyn.result();
  const auto r = wg::test::update_from_device(dyn, g.stream(), n, {{5, 6}}, {{1, 2}, {10, 13}}, m);
  ASSERT_FALSE(HasFatalFailure());
  const auto now = dyn.result();
  expect_reference(m, now);
  EXPECT_EQ(r.changed, wg::count_changed(before.core, now.core));
}

}  // namespace
