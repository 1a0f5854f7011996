// CPU core numbers: static on every shared dataset and on a directed R-MAT (its undirected view),
// dynamic after every batch of R-MAT insert/delete streams (with duplicates, self-loops and
// absent edges; incremental and recompute paths), all equal to the Boost.Graph reference; at
// default options on R-MAT scale 14 the incremental path answers every insertion and mixed batch
// (checked against the reference over the test's own edge set); hand-made insertions that raise
// a chain and that visit candidates which do not rise.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
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

/// The test's own model of the graph: its edge set, kept from the batches alone (not from the
/// graph under test), and its core numbers by the Boost.Graph reference.
class EdgeModel {
 public:
  explicit EdgeModel(std::uint64_t n) : n_(n) {}
  void insert(const EdgeList& b) {
    for (std::size_t i = 0; i < b.size(); ++i)
      if (b.src[i] != b.dst[i]) edges_.insert(std::minmax(b.src[i], b.dst[i]));
  }
  void erase(const EdgeList& b) {
    for (std::size_t i = 0; i < b.size(); ++i) edges_.erase(std::minmax(b.src[i], b.dst[i]));
  }
  /// `count` distinct present edges, drawn at random.
  EdgeList sample(std::size_t count, std::mt19937_64& rng) const {
    std::vector<std::pair<vertex_t, vertex_t>> all(edges_.begin(), edges_.end());
    std::shuffle(all.begin(), all.end(), rng);
    all.resize(std::min(count, all.size()));
    return list(all);
  }
  std::vector<std::uint32_t> cores() const {
    return wg::reference::core_numbers(list({edges_.begin(), edges_.end()}));
  }

 private:
  EdgeList list(const std::vector<std::pair<vertex_t, vertex_t>>& pairs) const {
    EdgeList e{.num_vertices = n_, .symmetric = true};
    for (const auto& [u, v] : pairs) {
      e.src.push_back(u);
      e.dst.push_back(v);
    }
    return e;
  }
  std::uint64_t n_;
  std::set<std::pair<vertex_t, vertex_t>> edges_;
};

/// Power-law graph (Graph500 R-MAT scale 14, ~180K edges), default options: insertion batches of
/// 16 to 1,024 edges of the rest of the R-MAT, then mixed steps (erase present edges, insert new
/// ones) of 16 to 1,024 entries, each exact and answered by the incremental path (statistics),
/// but for the batches where the degeneracy changes (at most 2 here).
TEST(DynamicCoreNumbers, RmatDefaultOptionsStayIncremental) {
  const EdgeList whole = datasets::generate_rmat({.scale = 14, .edge_factor = 16, .seed = 11});
  const std::size_t built = whole.size() * 7 / 10;
  auto slice = [&](std::size_t from, std::size_t count) {
    EdgeList e{.num_vertices = whole.num_vertices, .symmetric = true};
    for (std::size_t i = from; i < std::min(from + count, whole.size()); ++i) {
      e.src.push_back(whole.src[i]);
      e.dst.push_back(whole.dst[i]);
    }
    return e;
  };
  DynamicGraph g(GraphOptions{.threads = 2});
  EdgeModel model(whole.num_vertices);
  const EdgeList initial = slice(0, built);
  g.build(initial);
  g.ensure_vertices(whole.num_vertices);
  model.insert(initial);
  DynamicCoreNumbers dyn(g);
  ASSERT_EQ(dyn.result().core, model.cores());
  std::uint64_t degeneracy_changes = 0;
  auto check = [&](const std::vector<std::uint32_t>& before, std::uint64_t changed) {
    const std::vector<std::uint32_t> want = model.cores();
    ASSERT_EQ(dyn.result().core, want);
    ASSERT_EQ(dyn.result().max_core, *std::max_element(want.begin(), want.end()));
    EXPECT_EQ(changed, count_changed(before, want));  // a mixed step counts its net changes
    degeneracy_changes += *std::max_element(before.begin(), before.end()) != dyn.result().max_core;
  };
  std::size_t next = built;
  std::mt19937_64 rng(5);
  for (int round = 0; round < 2; ++round) {
    for (std::size_t size = 16; size <= 1024; size *= 2) {
      SCOPED_TRACE("insert " + std::to_string(size));
      const EdgeList batch = slice(next, size);
      next += size;
      const auto before = dyn.result().core;
      const auto r = dyn.insert_edges(batch);
      model.insert(batch);
      check(before, r.changed);
    }
  }
  for (std::size_t size = 16; size <= 1024; size *= 2) {
    for (int rep = 0; rep < 2; ++rep) {
      SCOPED_TRACE("mixed " + std::to_string(size));
      const EdgeList erase = model.sample(size / 2, rng);
      const EdgeList insert = slice(next, size / 2);
      next += size / 2;
      const auto before = dyn.result().core;
      const auto r = dyn.update(erase, insert);
      model.erase(erase);
      model.insert(insert);
      check(before, r.changed);
    }
  }
  ASSERT_LE(next, whole.size());
  // Where the degeneracy rises, every vertex of the densest core rises with it: its arcs may pass
  // the default budget, so such a batch may fall back, and after two such failures close together
  // the backoff may skip the search of up to 3 more batches (search_backoff.hpp). Every other
  // batch is answered incrementally.
  EXPECT_EQ(dyn.statistics().batches, 14u + 14u);
  EXPECT_LE(dyn.search_counters().skipped, 3u);
  EXPECT_LE(dyn.statistics().recomputed, degeneracy_changes + dyn.search_counters().skipped);
  EXPECT_LE(degeneracy_changes, 2u);
  EXPECT_GT(dyn.search_counters().moved, 0u);
}

/// A path 0-1-...-9 with a tail 5-10-11: closing the path into a cycle raises all ten of its
/// vertices from 1 to 2 (one search), the tail stays at 1.
TEST(DynamicCoreNumbers, InsertionRaisesAChain) {
  DynamicGraph g(12, GraphOptions{.threads = 1});
  EdgeList path{.num_vertices = 12, .symmetric = true};
  for (vertex_t v = 0; v + 1 < 10; ++v) {
    path.src.push_back(v);
    path.dst.push_back(v + 1);
  }
  path.src.insert(path.src.end(), {5, 10});
  path.dst.insert(path.dst.end(), {10, 11});
  g.insert_edges(path);
  DynamicCoreNumbers dyn(g, {.recompute_fraction = 1.0, .recompute_work = 1e9});
  EXPECT_EQ(dyn.result().max_core, 1u);
  const auto r = dyn.insert_edges(EdgeList{.num_vertices = 12, .src = {9}, .dst = {0}});
  EXPECT_FALSE(r.recomputed);
  EXPECT_EQ(r.changed, 10u);
  EXPECT_EQ(dyn.search_counters().searches, 1u);
  EXPECT_EQ(dyn.search_counters().moved, 10u);
  expect_exact(g, dyn.result());
  for (vertex_t v = 0; v < 10; ++v) EXPECT_EQ(dyn.result().core[v], 2u);
  // The cycle and tail removed again edge by edge: every step exact.
  for (vertex_t v = 0; v < 10; ++v) {
    dyn.erase_edges(EdgeList{.num_vertices = 12, .src = {v}, .dst = {vertex_t((v + 1) % 10)}});
    expect_exact(g, dyn.result());
  }
  EXPECT_EQ(dyn.statistics().recomputed, 0u);
}

/// One batch makes a 6-clique of 6 vertices (a path 0-1 to start): each rises from 1 or 0 to 5,
/// several levels in one batch (each level's risers start the next one's replay); one batch
/// takes the clique's edges back and they fall as far.
TEST(DynamicCoreNumbers, BatchRisesAndFallsSeveralLevels) {
  DynamicGraph g(8, GraphOptions{.threads = 1});
  g.insert_edges(EdgeList{.num_vertices = 8, .src = {0, 6}, .dst = {1, 7}});
  DynamicCoreNumbers dyn(g, {.recompute_fraction = 1e9, .recompute_work = 1e9});
  EdgeList clique{.num_vertices = 8, .symmetric = true};
  for (vertex_t u = 0; u < 6; ++u) {
    for (vertex_t v = u + 1; v < 6; ++v) {
      clique.src.push_back(v);
      clique.dst.push_back(u);
    }
  }
  auto r = dyn.insert_edges(clique);
  EXPECT_FALSE(r.recomputed);
  EXPECT_EQ(r.changed, 6u);
  EXPECT_EQ(dyn.result().max_core, 5u);
  expect_exact(g, dyn.result());
  EXPECT_GE(dyn.search_counters().searches, 5u);  // levels 0 (or 1) to 4 replayed
  r = dyn.erase_edges(clique);
  EXPECT_FALSE(r.recomputed);
  EXPECT_EQ(r.changed, 6u);
  expect_exact(g, dyn.result());
  EXPECT_EQ(dyn.result().max_core, 1u);
  r = dyn.insert_edges(clique);  // and back, on the order the falls left
  EXPECT_EQ(dyn.result().max_core, 5u);
  expect_exact(g, dyn.result());
  EXPECT_EQ(dyn.statistics().recomputed, 0u);
}

/// Random small dense graphs, random insertion, deletion and mixed batches of up to a quarter of
/// the edges, all answered incrementally (scan budget off): exact after every batch, so the k-order
/// kept across thousands of batches stays a valid peeling order.
TEST(DynamicCoreNumbers, RandomSmallGraphsStayExact) {
  std::mt19937_64 rng(17);
  for (int graph = 0; graph < 6; ++graph) {
    const vertex_t n = 12 + 8 * graph;
    auto random_edges = [&](std::size_t count) {
      EdgeList e{.num_vertices = n, .symmetric = true};
      for (std::size_t i = 0; i < count; ++i) {
        e.src.push_back(vertex_t(rng() % n));
        e.dst.push_back(vertex_t(rng() % n));
      }
      return e;
    };
    DynamicGraph g(n, GraphOptions{.threads = 1});
    EdgeModel model(n);
    const EdgeList initial = random_edges(5 * n);
    g.insert_edges(initial);
    model.insert(initial);
    DynamicCoreNumbers dyn(g, {.recompute_fraction = 1e9, .recompute_work = 1e9});
    for (int step = 0; step < 300; ++step) {
      SCOPED_TRACE("graph " + std::to_string(graph) + " step " + std::to_string(step));
      const std::size_t size = 1 + rng() % std::max<std::uint64_t>(g.num_edges() / 4, 1);
      const int kind = int(rng() % 3);
      if (kind == 0) {
        const EdgeList batch = random_edges(2 * size);
        dyn.insert_edges(batch);
        model.insert(batch);
      } else {
        const EdgeList erase = model.sample(size, rng);
        const EdgeList insert = random_edges(kind == 2 ? size : 0);
        if (kind == 1)
          dyn.erase_edges(erase);
        else
          dyn.update(erase, insert);
        model.erase(erase);
        model.insert(insert);
      }
      ASSERT_EQ(dyn.result().core, model.cores());
    }
    EXPECT_EQ(dyn.statistics().recomputed, 0u);
  }
}

/// A 6-cycle (core 2; the peeling takes equal degrees by id, so 0 is first in the k-order) gets
/// the chord 0-3: 0 has three neighbours after it, so the search runs, but the vertices it visits
/// keep at most 2 neighbours present and are pruned: none rises.
TEST(DynamicCoreNumbers, InsertionPrunesCandidates) {
  DynamicGraph g(6, GraphOptions{.threads = 1});
  g.insert_edges(EdgeList{.num_vertices = 6, .src = {0, 1, 2, 3, 4, 5}, .dst = {1, 2, 3, 4, 5, 0}});
  DynamicCoreNumbers dyn(g, {.recompute_fraction = 1.0, .recompute_work = 1e9});
  const auto r = dyn.insert_edges(EdgeList{.num_vertices = 6, .src = {0}, .dst = {3}});
  EXPECT_FALSE(r.recomputed);
  EXPECT_EQ(r.changed, 0u);
  EXPECT_EQ(dyn.search_counters().searches, 1u);
  EXPECT_GE(dyn.search_counters().visited, 2u);
  EXPECT_EQ(dyn.search_counters().moved, 0u);
  expect_exact(g, dyn.result());
  // The other two long chords: the second makes 0..5 a 3-regular graph (K3,3), all rise to 3.
  dyn.insert_edges(EdgeList{.num_vertices = 6, .src = {1}, .dst = {4}});
  expect_exact(g, dyn.result());
  dyn.insert_edges(EdgeList{.num_vertices = 6, .src = {2}, .dst = {5}});
  expect_exact(g, dyn.result());
  EXPECT_EQ(dyn.result().max_core, 3u);
  EXPECT_EQ(dyn.statistics().recomputed, 0u);
}

/// Mixed steps whose parts pass a tiny budget (the erase part falls back first): answered by the
/// static computation as one step, exact, its changes counted net (not part by part).
TEST(DynamicCoreNumbers, MixedStepFallbackCountsNetChanges) {
  auto [stream, g] = wg::test::rmat_stream(false, 8, 512);
  DynamicCoreNumbers dyn(g, {.recompute_fraction = 1.0, .recompute_work = 1e-9});
  const EdgeList present = g.export_coo();
  std::size_t steps = 0;
  for (const auto& batch : stream.batches) {
    if (batch.kind != datasets::UpdateBatch::Kind::insert || steps == 4) continue;
    EdgeList erase{.num_vertices = g.num_vertices(), .symmetric = true};
    for (std::size_t i = steps * 300; i < (steps + 1) * 300; ++i) {
      erase.src.push_back(present.src[i]);
      erase.dst.push_back(present.dst[i]);
    }
    const auto before = dyn.result().core;
    const auto r = dyn.update(erase, batch.edges);
    EXPECT_TRUE(r.recomputed);
    expect_exact(g, dyn.result());
    EXPECT_EQ(r.changed, count_changed(before, dyn.result().core));
    ++steps;
  }
  EXPECT_EQ(steps, 4u);
  EXPECT_EQ(dyn.statistics().recomputed, 4u);
}

/// A budget too small for any search (recompute_work 1e-9): every batch of an R-MAT stream is
/// answered by the static computation, exact and counted as recomputed; no batch searches (each
/// is priced over budget by the arcs of its seeds or first fallen, or skipped by the backoff
/// after such batches: counted in skipped).
TEST(DynamicCoreNumbers, TinyBudgetFallsBackExactWithoutSearching) {
  auto [stream, g] = wg::test::rmat_stream(false, 8, 256);
  DynamicCoreNumbers dyn(g, {.recompute_fraction = 1.0, .recompute_work = 1e-9});
  for (const auto& batch : stream.batches) {
    const bool insert = batch.kind == datasets::UpdateBatch::Kind::insert;
    const auto before = dyn.result().core;
    const auto r = insert ? dyn.insert_edges(batch.edges) : dyn.erase_edges(batch.edges);
    EXPECT_TRUE(r.recomputed);
    expect_exact(g, dyn.result());
    EXPECT_EQ(r.changed, count_changed(before, dyn.result().core));
  }
  EXPECT_EQ(dyn.statistics().recomputed, stream.batches.size());
  EXPECT_EQ(dyn.statistics().incremental, 0u);
  const CoreSearchCounters& c = dyn.search_counters();
  EXPECT_EQ(c.searches, 0u);
  EXPECT_EQ(c.visited, 0u);
  EXPECT_EQ(c.moved, 0u);
  EXPECT_GT(c.skipped, 0u);
}

/// The hubs of an R-MAT, then a few low-degree vertices, erased through the object (their edges
/// as one deletion batch each): exact after each, answered incrementally.
TEST(DynamicCoreNumbers, VertexErasureFollowed) {
  auto [stream, g] = wg::test::rmat_stream(false, 8, 256);
  DynamicCoreNumbers dyn(g, {.recompute_fraction = 1.0, .recompute_work = 1.0});
  std::vector<vertex_t> ids(g.num_vertices());
  for (vertex_t v = 0; v < ids.size(); ++v) ids[v] = v;
  std::sort(ids.begin(), ids.end(),
            [&](vertex_t a, vertex_t b) { return g.degree(a) > g.degree(b); });
  const std::vector<vertex_t> hubs(ids.begin(), ids.begin() + 5);
  const std::vector<vertex_t> low(ids.end() - 400, ids.end() - 390);
  for (const auto& erase : {hubs, low}) {
    const auto before = dyn.result().core;
    const auto r = dyn.erase_vertices(erase);
    EXPECT_FALSE(r.recomputed);
    expect_exact(g, dyn.result());
    EXPECT_EQ(r.changed, count_changed(before, dyn.result().core));
  }
}

/// The order-maintenance lists (detail/order_lists.hpp) against a vector model: bursts of
/// insertions at one spot (which exhaust the tag gaps and relabel), at the front and at random
/// places, and erasures; after each round before() agrees with the model's order.
TEST(OrderLists, RelabellingKeepsTheOrder) {
  constexpr std::uint32_t kIds = 4000;
  detail::OrderLists lists;
  lists.reset(kIds, 2);
  std::vector<std::uint32_t> model;
  std::mt19937_64 rng(3);
  std::uint32_t next = 0;
  auto insert_after = [&](std::size_t at) {  // at: model index, or model.size() for the front
    const std::uint32_t id = next++;
    const std::uint32_t after = at == model.size() ? detail::OrderLists::kNone : model[at];
    lists.insert_after(1, after, id);
    model.insert(at == model.size() ? model.begin() : model.begin() + std::ptrdiff_t(at) + 1, id);
  };
  auto check = [&] {
    std::size_t i = 0;
    for (std::uint32_t v = lists.head(1); v != detail::OrderLists::kNone; v = lists.next(v))
      ASSERT_EQ(v, model[i++]);
    ASSERT_EQ(i, model.size());
    for (std::size_t j = 0; j + 1 < model.size(); ++j)
      ASSERT_TRUE(lists.before(model[j], model[j + 1]));
  };
  insert_after(model.size());
  while (next + 200 < kIds) {
    const std::size_t spot = rng() % model.size();
    for (int b = 0; b < 100; ++b) insert_after(spot);  // each right after the same vertex
    for (int b = 0; b < 40; ++b) insert_after(model.size());
    for (int b = 0; b < 40; ++b) insert_after(rng() % model.size());
    for (int b = 0; b < 10 && model.size() > 1; ++b) {
      const std::size_t at = rng() % model.size();
      lists.erase(1, model[at]);
      model.erase(model.begin() + std::ptrdiff_t(at));
    }
    check();
  }
  EXPECT_EQ(lists.head(0), detail::OrderLists::kNone);
}

TEST(DynamicCoreNumbers, DirectedGraphRefused) {
  DynamicGraph g = wg::test::directed_rmat_cpu_graph(6, 2, 1);
  EXPECT_THROW(DynamicCoreNumbers{g}, std::invalid_argument);
}

}  // namespace
}  // namespace wg::cpu
