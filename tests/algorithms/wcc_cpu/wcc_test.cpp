// CPU connected components: static labels on every shared dataset (one and two threads) and
// dynamic labels after every batch of R-MAT insert/delete streams (undirected and directed, so
// weakly connected; with duplicates, self-loops and absent edges; incremental and recompute
// paths), after mixed steps on an R-MAT of scale 14 at the default tuning (against an edge list
// the test keeps itself), after vertex deletions, and on hand-made graphs whose deletions take
// each path of the spanning forest (not a forest edge, replacement, split), all equal to the
// Boost.Graph reference (smallest id per component).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/algorithms/wcc/cpu/wcc.hpp>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/datasets/update_stream.hpp>

#include "../cpu_graph_fixture.hpp"
#include "test_support.hpp"

namespace wg::cpu {
namespace {

void expect_exact(const DynamicGraph& g, const Components& got) {
  const EdgeList coo = wg::test::reference_edges(g);
  const wg::reference::Components want = wg::reference::connected_components(coo);
  ASSERT_EQ(got.component, want.component);
  ASSERT_EQ(got.count, want.count);
}

WG_BUNDLED_GRAPHS_TEST(SharedDatasets, StaticComponentsEqualReference) {
  wg::test::on_bundled_graph_threads(
      GetParam(),
      [](const auto& g, unsigned t) { return connected_components(g, {}, {.threads = t}); },
      expect_exact);
}

TEST(StaticComponents, DirectedIsWeak) {
  DynamicGraph g = wg::test::directed_rmat_cpu_graph(11, 2, 5);
  expect_exact(g, connected_components(g));
}

void replay(bool directed, std::uint64_t batch_size, const ComponentsTuning& tuning) {
  // A sparse R-MAT (edge factor 2): many components, so deletions split and insertions merge.
  auto [stream, g] = wg::test::rmat_stream(directed, 2, batch_size);
  DynamicComponents dyn(g, {}, tuning);
  expect_exact(g, dyn.result());
  const auto batches = wg::test::replay_checked(
      stream, dyn, [&] { return dyn.result().component; }, [&] { expect_exact(g, dyn.result()); });
  std::size_t erasures = 0, recomputed = 0;
  for (const auto& [insert, recomputed_batch] : batches) {
    erasures += !insert;
    recomputed += recomputed_batch;
  }
  const DeletionStats& s = dyn.deletion_stats();
  EXPECT_EQ(dyn.statistics().recomputed, recomputed);
  if (tuning.search_work_fraction == 0 && tuning.search_min_work == 0) {
    // No budget: every erasure with a forest edge falls back, at its first search step or, after
    // such batches in a row, without a search (the backoff).
    EXPECT_EQ(s.replaced + s.split, 0u);
    EXPECT_EQ(recomputed, s.abandoned + s.skipped_batches);
    EXPECT_GT(s.skipped_batches, 0u);
    EXPECT_GT(recomputed, erasures / 2);
  } else {
    EXPECT_EQ(recomputed, 0u);
    EXPECT_EQ(s.skipped_batches, 0u);
    EXPECT_GT(s.split, 0u);
    EXPECT_GT(s.replaced, 0u);
    EXPECT_GT(s.unaffected, 0u);
  }
}

WG_REPLAY_TEST(DynamicComponents, UndirectedStreamIncremental, false, 64, {})
WG_REPLAY_TEST(DynamicComponents, UndirectedStreamLargeBatches, false, 256, {})
WG_REPLAY_TEST(DynamicComponents, DirectedStreamIncremental, true, 64, {})
WG_REPLAY_TEST(DynamicComponents, UndirectedStreamNoBudgetRecomputes, false, 256,
               {.search_work_fraction = 0, .search_min_work = 0})
WG_REPLAY_TEST(DynamicComponents, DirectedStreamNoBudgetRecomputes, true, 64,
               {.search_work_fraction = 0, .search_min_work = 0})

// A denser graph, where most deleted edges have a detour that the search finds.
TEST(DynamicComponents, DenseStreamMostlyReconnects) {
  const EdgeList whole = wg::datasets::generate_rmat({.scale = 10, .edge_factor = 8, .seed = 4});
  const auto stream = wg::datasets::make_update_stream(
      whole, {.initial_fraction = 0.5, .batch_size = 128, .seed = 8});
  DynamicGraph g(GraphOptions{.threads = 2});
  g.build(stream.initial);
  g.ensure_vertices(whole.num_vertices);
  DynamicComponents dyn(g);
  for (const auto& batch : stream.batches) {
    const bool insert = batch.kind == wg::datasets::UpdateBatch::Kind::insert;
    const auto r = insert ? dyn.insert_edges(batch.edges) : dyn.erase_edges(batch.edges);
    EXPECT_FALSE(r.recomputed);
    expect_exact(g, dyn.result());
  }
}

TEST(DynamicComponents, HandMadeBatches) {
  // Two paths 0-1-2 and 3-4, isolated 5.
  DynamicGraph g(6, GraphOptions{.threads = 1});
  g.insert_edges({.num_vertices = 6, .src = {0, 1, 3}, .dst = {1, 2, 4}, .symmetric = true});
  DynamicComponents dyn(g);
  EXPECT_EQ(dyn.result().count, 3u);
  // Join them twice over (2-3 and 4-0, 3-2 repeated), a self-loop, an edge already present.
  auto r = dyn.insert_edges(
      {.num_vertices = 6, .src = {2, 4, 3, 5, 0}, .dst = {3, 0, 2, 5, 1}, .symmetric = true});
  EXPECT_EQ(r.update.applied, 2u);
  EXPECT_EQ(r.changed, 2u);  // 3 and 4 join 0's component
  expect_exact(g, dyn.result());
  // Cutting 2-3 keeps one component (4-0 holds it); then cutting 4-0 splits 3-4 off again.
  r = dyn.erase_edges({.num_vertices = 6, .src = {2, 5}, .dst = {3, 1}, .symmetric = true});
  EXPECT_EQ(r.update.ignored, 1u);
  EXPECT_EQ(r.changed, 0u);
  expect_exact(g, dyn.result());
  r = dyn.erase_edges({.num_vertices = 6, .src = {0}, .dst = {4}, .symmetric = true});
  EXPECT_EQ(r.changed, 2u);
  EXPECT_EQ(dyn.result().count, 3u);
  expect_exact(g, dyn.result());
  EXPECT_EQ(dyn.statistics().recomputed, 0u);
}

/// A path (every edge a forest edge) and no search budget: each deletion batch is answered by
/// the static computation, exact and counted as recomputed. Its search stops at its first step
/// (abandoned), or, once most tries failed, is not tried (skipped_batches: no search work): 3
/// batches after the second failure, 7 after the next (algorithms/search_backoff.hpp). A batch of
/// under half their size is still tried.
TEST(DynamicComponents, TinyBudgetBacksOffWithoutSearching) {
  constexpr vertex_t kN = 1000;
  DynamicGraph g(kN, GraphOptions{.threads = 2});
  EdgeList path{.num_vertices = kN, .symmetric = true};
  for (vertex_t v = 0; v + 1 < kN; ++v) {
    path.src.push_back(v);
    path.dst.push_back(v + 1);
  }
  g.insert_edges(path);
  DynamicComponents dyn(g, {}, {.search_work_fraction = 0, .search_min_work = 0});
  auto cut = [&](std::size_t first, std::size_t count) {
    EdgeList b{.num_vertices = kN, .symmetric = true};
    for (std::size_t i = first; i < first + count; ++i) {
      b.src.push_back(path.src[i * 50]);
      b.dst.push_back(path.dst[i * 50]);
    }
    return b;
  };
  std::vector<int> skipped;  // per deletion batch: 1 when it did not search
  for (std::size_t round = 0; round < 9; ++round) {
    const EdgeList b = cut(round % 2, round == 8 ? 2 : 8);  // the last one: 2 edges
    const DeletionStats before = dyn.deletion_stats();
    const auto r = dyn.erase_edges(b);
    const DeletionStats& after = dyn.deletion_stats();
    EXPECT_TRUE(r.recomputed);
    expect_exact(g, dyn.result());
    const bool skip = after.skipped_batches > before.skipped_batches;
    skipped.push_back(skip);
    EXPECT_EQ(after.abandoned - before.abandoned, skip ? 0u : 1u);
    if (skip) EXPECT_EQ(after.work, before.work);  // no search work
    EXPECT_FALSE(dyn.insert_edges(b).recomputed);
    expect_exact(g, dyn.result());
  }
  EXPECT_EQ(skipped, (std::vector<int>{0, 0, 1, 1, 1, 0, 1, 1, 0}));
  EXPECT_EQ(dyn.statistics().recomputed, 9u);
}

/// One undirected edge {u, v} as a batch of the 4-vertex graphs below.
EdgeList edge(vertex_t u, vertex_t v) {
  return {.num_vertices = 4, .src = {u}, .dst = {v}, .symmetric = true};
}

/// A deletion's path through the forest: the change of deletion_stats() over `step`.
template <class Step>
DeletionStats delta(const DynamicComponents& dyn, Step&& step) {
  const DeletionStats before = dyn.deletion_stats();
  step();
  const DeletionStats& after = dyn.deletion_stats();
  return {.unaffected = after.unaffected - before.unaffected,
          .replaced = after.replaced - before.replaced,
          .split = after.split - before.split,
          .abandoned = after.abandoned - before.abandoned};
}

void expect_path(const DeletionStats& d, std::uint64_t unaffected, std::uint64_t replaced,
                 std::uint64_t split) {
  EXPECT_EQ(d.unaffected, unaffected);
  EXPECT_EQ(d.replaced, replaced);
  EXPECT_EQ(d.split, split);
  EXPECT_EQ(d.abandoned, 0u);
}

TEST(DynamicComponents, ForestPaths) {
  // The cycle 0-1-2-3-0 built edge by edge through the object: 0-1, 1-2, 2-3 join components
  // (forest edges), 3-0 closes the cycle (not in the forest).
  DynamicGraph g(4, GraphOptions{.threads = 1});
  DynamicComponents dyn(g);
  for (auto [u, v] : {std::pair{0u, 1u}, {1u, 2u}, {2u, 3u}, {3u, 0u}})
    dyn.insert_edges(edge(u, v));
  EXPECT_EQ(dyn.result().count, 1u);
  DynamicUpdate<UpdateResult> r;
  // Not a forest edge: nothing to search, nothing changes.
  expect_path(delta(dyn, [&] { r = dyn.erase_edges(edge(3, 0)); }), 1, 0, 0);
  EXPECT_EQ(r.changed, 0u);
  dyn.insert_edges(edge(3, 0));
  // A forest edge of the cycle: the search finds the way round, 3-0 replaces it.
  expect_path(delta(dyn, [&] { r = dyn.erase_edges(edge(1, 2)); }), 0, 1, 0);
  EXPECT_EQ(r.changed, 0u);
  expect_exact(g, dyn.result());
  // The path 1-0-3-2 is all forest now: cutting 0-1 splits 1 off (it takes a label of its own).
  expect_path(delta(dyn, [&] { r = dyn.erase_edges(edge(0, 1)); }), 0, 0, 1);
  EXPECT_EQ(r.changed, 1u);
  expect_exact(g, dyn.result());
  // Cutting 3-0 splits 0 off, which keeps its label: the other side {2, 3} takes label 2.
  expect_path(delta(dyn, [&] { r = dyn.erase_edges(edge(3, 0)); }), 0, 0, 1);
  EXPECT_EQ(r.changed, 2u);
  EXPECT_EQ(dyn.result().count, 3u);
  expect_exact(g, dyn.result());
  EXPECT_EQ(dyn.statistics().recomputed, 0u);
}

TEST(DynamicComponents, LaterEdgeOfTheBatchReplaces) {
  // Triangle 0-1-2 with forest edges 0-1, 1-2. Erasing {0-1, 0-2} takes 0-1 first, while 0-2
  // still counts as present: 0-2 replaces it, and then its own deletion splits 0 off.
  DynamicGraph g(4, GraphOptions{.threads = 1});
  DynamicComponents dyn(g);
  for (auto [u, v] : {std::pair{0u, 1u}, {1u, 2u}, {0u, 2u}}) dyn.insert_edges(edge(u, v));
  DynamicUpdate<UpdateResult> r;
  const EdgeList both{.num_vertices = 4, .src = {0, 2}, .dst = {1, 0}, .symmetric = true};
  expect_path(delta(dyn, [&] { r = dyn.erase_edges(both); }), 0, 1, 1);
  EXPECT_EQ(r.changed, 2u);  // 1 and 2 take label 1
  expect_exact(g, dyn.result());
}

TEST(DynamicComponents, DirectedReverseArcKeepsTheEdge) {
  // Arcs 0->1 and 1->0: the forest edge {0, 1} stays while either arc does.
  DynamicGraph g(4, GraphOptions{.directed = true, .threads = 1});
  DynamicComponents dyn(g);
  dyn.insert_edges({.num_vertices = 4, .src = {0, 1}, .dst = {1, 0}, .symmetric = false});
  DynamicUpdate<UpdateResult> r;
  const EdgeList forward{.num_vertices = 4, .src = {0}, .dst = {1}, .symmetric = false};
  const EdgeList backward{.num_vertices = 4, .src = {1}, .dst = {0}, .symmetric = false};
  expect_path(delta(dyn, [&] { r = dyn.erase_edges(forward); }), 1, 0, 0);
  EXPECT_EQ(r.changed, 0u);
  expect_path(delta(dyn, [&] { r = dyn.erase_edges(backward); }), 0, 0, 1);
  EXPECT_EQ(r.changed, 1u);
  expect_exact(g, dyn.result());
}

/// Undirected edges (u < v, unique, no self-loop) of an R-MAT graph.
std::vector<std::pair<vertex_t, vertex_t>> unique_edges(const EdgeList& e) {
  std::vector<std::pair<vertex_t, vertex_t>> out;
  for (std::size_t i = 0; i < e.size(); ++i) {
    if (e.src[i] != e.dst[i])
      out.emplace_back(std::min(e.src[i], e.dst[i]), std::max(e.src[i], e.dst[i]));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

/// `count` edges moved from `from` to `to` at random, as a batch.
EdgeList move_random(std::vector<std::pair<vertex_t, vertex_t>>& from,
                     std::vector<std::pair<vertex_t, vertex_t>>& to, std::size_t count,
                     std::uint64_t n, std::mt19937_64& rng) {
  EdgeList batch{.num_vertices = n, .symmetric = true};
  for (std::size_t k = 0; k < count && !from.empty(); ++k) {
    const std::size_t j = std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(rng);
    batch.src.push_back(from[j].first);
    batch.dst.push_back(from[j].second);
    to.push_back(from[j]);
    from[j] = from.back();
    from.pop_back();
  }
  return batch;
}

TEST(DynamicComponents, RmatMixedStepsDefaultTuningStayIncremental) {
  // R-MAT scale 14, edge factor 8; 70% of its edges built in. Each step erases 256 present edges
  // and inserts 256 absent ones (update(erase, insert)); after each, the labels equal the
  // reference's on the edge list this test keeps, and changed counts the labels that moved.
  const EdgeList whole = wg::datasets::generate_rmat({.scale = 14, .edge_factor = 8, .seed = 21});
  std::vector<std::pair<vertex_t, vertex_t>> absent = unique_edges(whole), present;
  std::mt19937_64 rng(5);
  const std::uint64_t n = whole.num_vertices;
  const EdgeList initial = move_random(absent, present, absent.size() * 7 / 10, n, rng);
  DynamicGraph g(n, GraphOptions{.threads = 2});
  g.build(initial);
  DynamicComponents dyn(g);
  const int steps = 40;
  for (int step = 0; step < steps; ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    const std::vector<vertex_t> before = dyn.result().component;
    const EdgeList erase = move_random(present, absent, 256, n, rng);
    const EdgeList insert = move_random(absent, present, 256, n, rng);
    const auto r = dyn.update(erase, insert);
    EXPECT_EQ(r.update.erased.applied, erase.size());
    EXPECT_EQ(r.update.inserted.applied, insert.size());
    EdgeList model{.num_vertices = n, .symmetric = true};
    for (const auto& [u, v] : present) {
      model.src.push_back(u);
      model.dst.push_back(v);
    }
    const wg::reference::Components want = wg::reference::connected_components(model);
    ASSERT_EQ(dyn.result().component, want.component);
    ASSERT_EQ(dyn.result().count, want.count);
    EXPECT_EQ(r.changed, wg::count_changed(before, dyn.result().component));
  }
  // The incremental path answered (nearly) every step, and the deletions took every path.
  const DeletionStats& s = dyn.deletion_stats();
  EXPECT_EQ(dyn.statistics().batches, std::uint64_t(steps));
  EXPECT_LE(dyn.statistics().recomputed, std::uint64_t(steps / 10));
  EXPECT_LE(s.abandoned, dyn.statistics().recomputed);
  EXPECT_GT(s.replaced, 0u);
  EXPECT_GT(s.split, 0u);
  EXPECT_GT(s.unaffected + s.replaced + s.split, 0.9 * steps * 256);
}

TEST(DynamicComponents, VertexDeletions) {
  const EdgeList whole = wg::datasets::generate_rmat({.scale = 10, .edge_factor = 2, .seed = 9});
  DynamicGraph g(GraphOptions{.threads = 2});
  g.build(whole);
  DynamicComponents dyn(g);
  for (vertex_t first = 0; first < 300; first += 41) {
    std::vector<vertex_t> ids;
    for (vertex_t v = first; v < first + 10; ++v) ids.push_back(v);
    const auto r = dyn.erase_vertices(ids);
    EXPECT_FALSE(r.recomputed);
    expect_exact(g, dyn.result());
  }
}

}  // namespace
}  // namespace wg::cpu
