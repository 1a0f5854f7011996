// CPU connected components: static labels on every shared dataset (one and two threads) and
// dynamic labels after every batch of R-MAT insert/delete streams (undirected and directed, so
// weakly connected; with duplicates, self-loops and absent edges; split and recompute paths),
// and after vertex deletions, all equal to the Boost.Graph reference (smallest id per component).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
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
      GetParam(), [](const auto& g, unsigned t) { return connected_components(g, {}, {.threads = t}); },
      expect_exact);
}

TEST(StaticComponents, DirectedIsWeak) {
  DynamicGraph g = wg::test::directed_rmat_cpu_graph(11, 2, 5);
  expect_exact(g, connected_components(g));
}

void replay(bool directed, double recompute_fraction, std::uint64_t batch_size,
            std::uint64_t reconnect_budget = 1024) {
  // A sparse R-MAT (edge factor 2): many components, so deletions split and insertions merge.
  auto [stream, g] = wg::test::rmat_stream(directed, 2, batch_size);
  DynamicComponents dyn(
      g, {}, {.recompute_fraction = recompute_fraction, .reconnect_budget = reconnect_budget});
  expect_exact(g, dyn.result());
  const auto batches = wg::test::replay_checked(
      stream, dyn, [&] { return dyn.result().component; }, [&] { expect_exact(g, dyn.result()); });
  std::size_t split = 0;
  for (const auto& [insert, recomputed] : batches) split += !insert && !recomputed;
  if (recompute_fraction >= 1) EXPECT_GT(split, 0u);
}

WG_REPLAY_TEST(DynamicComponents, UndirectedStreamSplits, false, 1.0, 64)
WG_REPLAY_TEST(DynamicComponents, UndirectedStreamDefaultSwitch, false, 0.5, 256)
WG_REPLAY_TEST(DynamicComponents, UndirectedStreamAlwaysRecomputes, false, 0.0, 256)
WG_REPLAY_TEST(DynamicComponents, DirectedStreamSplits, true, 1.0, 64)

// No reconnection search: every component that lost an edge is recomputed.
WG_REPLAY_TEST(DynamicComponents, UndirectedStreamSplitsWithoutSearch, false, 1.0, 64, 0)
WG_REPLAY_TEST(DynamicComponents, DirectedStreamSplitsWithoutSearch, true, 1.0, 64, 0)

// A denser graph, where most deleted edges have a detour that the search finds.
TEST(DynamicComponents, DenseStreamMostlyReconnects) {
  const EdgeList whole = wg::datasets::generate_rmat({.scale = 10, .edge_factor = 8, .seed = 4});
  const auto stream = wg::datasets::make_update_stream(
      whole, {.initial_fraction = 0.5, .batch_size = 128, .seed = 8});
  DynamicGraph g(GraphOptions{.threads = 2});
  g.build(stream.initial);
  g.ensure_vertices(whole.num_vertices);
  DynamicComponents dyn(g, {}, {.recompute_fraction = 1.0});
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
  DynamicComponents dyn(g, {}, {.recompute_fraction = 1.0});
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
}

TEST(DynamicComponents, VertexDeletions) {
  const EdgeList whole = wg::datasets::generate_rmat({.scale = 10, .edge_factor = 2, .seed = 9});
  DynamicGraph g(GraphOptions{.threads = 2});
  g.build(whole);
  DynamicComponents dyn(g, {}, {.recompute_fraction = 1.0});
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
