// CPU BFS: static levels on every shared dataset (top-down only, direction-optimising, one and
// two threads) and dynamic levels after every batch of R-MAT insert/delete streams (undirected
// and directed; with duplicates, self-loops and absent edges; repair and recompute paths), and
// after vertex deletions, all equal to the Boost.Graph reference; parents always valid.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <warpgraph/algorithms/bfs/cpu/bfs.hpp>
#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/datasets/update_stream.hpp>

#include "../cpu_graph_fixture.hpp"
#include "test_support.hpp"

namespace wg::cpu {
namespace {

/// The result equals the reference's levels on the graph as it is now; every parent is an
/// in-neighbour one level up.
void expect_exact(const DynamicGraph& g, vertex_t source, const BfsResult& r) {
  const EdgeList coo = wg::test::reference_edges(g);
  const std::vector<std::int64_t> want =
      g.is_live(source) ? wg::reference::bfs_levels(coo, source, g.directed())
                        : std::vector<std::int64_t>(g.num_vertices(), kBfsUnreached);
  ASSERT_EQ(r.level, want);
  ASSERT_EQ(r.parent.size(), want.size());
  std::uint64_t reached = 0;
  for (vertex_t v = 0; v < want.size(); ++v) {
    if (want[v] == kBfsUnreached) {
      ASSERT_EQ(r.parent[v], kNoParent) << v;
      continue;
    }
    ++reached;
    if (v == source) {
      ASSERT_EQ(r.parent[v], source);
      continue;
    }
    const vertex_t p = r.parent[v];
    ASSERT_LT(p, want.size()) << v;
    ASSERT_EQ(r.level[p], r.level[v] - 1) << v;
    ASSERT_TRUE(g.has_edge(p, v)) << p << " -> " << v;
  }
  ASSERT_EQ(r.reached, reached);
}

vertex_t max_degree_vertex(const DynamicGraph& g) {
  vertex_t best = 0;
  for (vertex_t v = 0; v < g.num_vertices(); ++v) {
    if (g.degree(v) > g.degree(best)) best = v;
  }
  return best;
}

// ---- static BFS on the shared datasets --------------------------------------------------------

WG_BUNDLED_GRAPHS_TEST(SharedDatasets, StaticLevelsEqualReference) {
  WG_REQUIRE_DATASET(path, GetParam());
  DynamicGraph g = wg::test::read_into_cpu_graph(path);
  for (vertex_t source : {vertex_t{0}, max_degree_vertex(g), vertex_t(g.num_vertices() - 1)}) {
    SCOPED_TRACE("source " + std::to_string(source));
    expect_exact(g, source, bfs(g, source));
    expect_exact(g, source, bfs(g, source, {}, {.threads = 1}));
    expect_exact(g, source, bfs(g, source, {.top_down_alpha = 0}));  // top-down only
    // Every level bottom-up after the first, in small parallel pieces (O(n * depth): not on the
    // deep road and mesh graphs).
    if (g.num_vertices() < 10000) {
      expect_exact(g, source, bfs(g, source, {.top_down_alpha = 1u << 30}, {.parallel_grain = 1}));
    }
  }
}

TEST(StaticBfs, DirectedFollowsOutArcsBothWays) {
  DynamicGraph g = wg::test::directed_rmat_cpu_graph(10, 6, 5);
  const vertex_t s = max_degree_vertex(g);
  expect_exact(g, s, bfs(g, s));
  expect_exact(g, s, bfs(g, s, {.top_down_alpha = 0}));
  expect_exact(g, s, bfs(g, s, {.top_down_alpha = 1u << 30}));
}

TEST(StaticBfs, SourcePastTheIdBoundThrows) {
  DynamicGraph g(4, GraphOptions{.threads = 1});
  EXPECT_THROW(bfs(g, 4), wg::InvalidArgument);
  const BfsResult r = bfs(g, 3);
  EXPECT_EQ(r.reached, 1u);
  EXPECT_EQ(r.level, (std::vector<std::int64_t>{-1, -1, -1, 0}));
}

// ---- dynamic BFS on update streams ------------------------------------------------------------

void replay(bool directed, double recompute_fraction, std::uint64_t batch_size) {
  auto [stream, g] = wg::test::rmat_stream(directed, 8, batch_size);
  DynamicBfs dyn(g, max_degree_vertex(g), {}, {.recompute_fraction = recompute_fraction});
  expect_exact(g, dyn.source(), dyn.result());
  const auto batches = wg::test::replay_checked(
      stream, dyn, [&] { return dyn.result().level; },
      [&] { expect_exact(g, dyn.source(), dyn.result()); });
  std::size_t repaired = 0;
  for (const auto& [insert, recomputed] : batches) repaired += !recomputed;
  if (recompute_fraction >= 1) EXPECT_EQ(repaired, stream.batches.size());
  if (recompute_fraction == 0) EXPECT_EQ(repaired, 0u);
}

WG_REPLAY_TEST(DynamicBfs, UndirectedStreamRepairs, false, 1.0, 512)
WG_REPLAY_TEST(DynamicBfs, UndirectedStreamDefaultSwitch, false, 0.1, 64)
WG_REPLAY_TEST(DynamicBfs, UndirectedStreamAlwaysRecomputes, false, 0.0, 2048)
WG_REPLAY_TEST(DynamicBfs, DirectedStreamRepairs, true, 1.0, 512)
WG_REPLAY_TEST(DynamicBfs, DirectedStreamDefaultSwitch, true, 0.1, 64)

TEST(DynamicBfs, HandMadeBatchesOnAPath) {
  // 0-1-2-3-4-5 and a far vertex 6.
  DynamicGraph g(7, GraphOptions{.threads = 1});
  EdgeList path{
      .num_vertices = 7, .src = {0, 1, 2, 3, 4}, .dst = {1, 2, 3, 4, 5}, .symmetric = true};
  g.insert_edges(path);
  DynamicBfs dyn(g, 0, {}, {.recompute_fraction = 1.0});
  // A shortcut, given twice and reversed, with a self-loop and an edge already present.
  auto r = dyn.insert_edges(
      {.num_vertices = 7, .src = {0, 4, 3, 1, 6}, .dst = {4, 0, 3, 2, 6}, .symmetric = true});
  EXPECT_EQ(r.update.applied, 1u);
  EXPECT_EQ(r.update.duplicates, 1u);
  EXPECT_EQ(r.update.self_loops, 2u);
  EXPECT_EQ(r.update.ignored, 1u);
  EXPECT_EQ(r.changed, 3u);  // 3: 3 -> 2, 4: 4 -> 1, 5: 5 -> 2
  expect_exact(g, 0, dyn.result());
  // Cut 1-2 (and an absent edge): 2 now comes through 4-3.
  r = dyn.erase_edges({.num_vertices = 7, .src = {2, 5}, .dst = {1, 6}, .symmetric = true});
  EXPECT_EQ(r.update.applied, 1u);
  EXPECT_EQ(r.update.ignored, 1u);
  EXPECT_EQ(r.changed, 1u);  // 2: 2 -> 3
  expect_exact(g, 0, dyn.result());
  // Cut 0-4: everything but 0 and 1 unreachable.
  r = dyn.erase_edges({.num_vertices = 7, .src = {0}, .dst = {4}, .symmetric = true});
  EXPECT_EQ(r.changed, 4u);
  expect_exact(g, 0, dyn.result());
  EXPECT_EQ(dyn.result().reached, 2u);
}

TEST(DynamicBfs, VertexDeletions) {
  const EdgeList whole = wg::datasets::generate_rmat({.scale = 10, .edge_factor = 6, .seed = 9});
  DynamicGraph g(GraphOptions{.threads = 2});
  g.build(whole);
  const vertex_t s = max_degree_vertex(g);
  DynamicBfs dyn(g, s, {}, {.recompute_fraction = 1.0});
  for (vertex_t first = 1; first < 200; first += 37) {
    std::vector<vertex_t> ids;
    for (vertex_t v = first; v < first + 12; ++v) {
      if (v != s) ids.push_back(v);
    }
    const auto r = dyn.erase_vertices(ids);
    EXPECT_FALSE(r.recomputed);
    expect_exact(g, s, dyn.result());
  }
  // Erasing the source leaves nothing reached.
  const vertex_t ids[] = {s};
  const auto r = dyn.erase_vertices(ids);
  EXPECT_TRUE(r.recomputed);
  EXPECT_EQ(dyn.result().reached, 0u);
  expect_exact(g, s, dyn.result());
}

}  // namespace
}  // namespace wg::cpu
