// GPU dynamic graph against the host model (tests/graph/gpu/graph_model.hpp): after every batch
// the UpdateResult, the exported edges, the degrees and has_edges agree.
// WG_GPU_TEST_SCALE (default 12) sets the R-MAT scale of the larger cases (use ~8 under
// compute-sanitizer).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>

#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#include "../../support/test_support.hpp"
#include "four_way_tests.hpp"
#include "graph_model.hpp"
#include "graph_test_options.hpp"

/// The four TESTs of a scenario fn<Adjacency>(directed, args..., seed) (four_way_tests.hpp).
#define WG_GRAPH_TESTS_FOUR_WAYS(name, fn, seed, ...)                                         \
  WG_FOUR_WAY_TESTS(GpuGraph, wg::gpu::SlabSetAdjacency, wg::gpu::SlabMapAdjacency, name, fn, \
                    seed __VA_OPT__(, ) __VA_ARGS__)
/// The two TESTs of a scenario fn<Adjacency>(): set and map adjacency.
#define WG_GRAPH_TESTS_SET_AND_MAP(name, fn) \
  TEST(GpuGraph, name##Set) {                \
    fn<wg::gpu::SlabSetAdjacency>();         \
  }                                          \
  TEST(GpuGraph, name##Map) {                \
    fn<wg::gpu::SlabMapAdjacency>();         \
  }

namespace {

using wg::EdgeList;
using wg::UpdateResult;
using wg::vertex_t;
using namespace wg::test;  // the graph test vocabulary (graph_model.hpp)

/// Entries [off, end) of e (weights too), as a batch over e's vertices.
EdgeList slice(const EdgeList& e, std::size_t off, std::size_t end) {
  EdgeList part;
  part.num_vertices = e.num_vertices;
  part.src.assign(e.src.begin() + off, e.src.begin() + end);
  part.dst.assign(e.dst.begin() + off, e.dst.begin() + end);
  if (!e.weight.empty()) part.weight.assign(e.weight.begin() + off, e.weight.begin() + end);
  return part;
}

/// Arcs from each of `sources` vertices starting at `first` to targets base + j, j in [from, to)
/// (weights h + j when weighted), over n vertices: hubs whose chains a test fills slab by slab.
EdgeList star_arcs(std::uint32_t n, std::uint32_t base, std::uint32_t first, std::uint32_t sources,
                   std::uint32_t from, std::uint32_t to, bool weighted) {
  EdgeList b;
  b.num_vertices = n;
  for (std::uint32_t h = first; h < first + sources; ++h)
    for (std::uint32_t j = from; j < to; ++j) {
      b.src.push_back(h);
      b.dst.push_back(base + j);
      if (weighted) b.weight.push_back(h + j);
    }
  return b;
}

template <class Adj>
void random_batches(bool directed, std::uint64_t n, std::size_t batch, int rounds,
                    std::uint64_t seed) {
  constexpr bool weighted = Adj::weighted;
  wg::gpu::DynamicGraph<Adj> g(n, wg::test::graph_options(directed));
  GraphModel m(n, directed);
  TestRng rng{seed};
  for (int r = 0; r < rounds; ++r) {
    const EdgeList ins = wg::test::random_batch(rng, n, batch, weighted);
    const UpdateResult got = g.insert_edges(ins), want = m.insert(ins);
    ASSERT_EQ(got, want) << "insert round " << r << ": " << str(got) << " vs " << str(want);
    expect_same(g, m, weighted, "after insert " + std::to_string(r));
    expect_has_edges(g, m, rng, n);
    const EdgeList del = wg::test::random_batch(rng, n, batch / 2, false);
    const UpdateResult got2 = g.erase_edges(del), want2 = m.erase(del);
    ASSERT_EQ(got2, want2) << "erase round " << r << ": " << str(got2) << " vs " << str(want2);
    expect_same(g, m, weighted, "after erase " + std::to_string(r));
  }
}

WG_GRAPH_TESTS_FOUR_WAYS(RandomBatches, random_batches, 1, 60, 400, 6)
// Many neighbours per vertex: long chains, allocator use.
TEST(GpuGraph, DenseChainsSet) {
  random_batches<wg::gpu::SlabSetAdjacency>(false, 300, 20000, 3, 5);
}
TEST(GpuGraph, DenseChainsMap) {
  random_batches<wg::gpu::SlabMapAdjacency>(true, 300, 20000, 3, 6);
}

// Batches of 2^19 entries and more (weighted inserts: 2^18) are filtered before their dedup
// claims (graph/gpu/slab/detail/batch_dedup.cuh; weighted inserts in both of their passes), and
// erases of 2^21 and more sorted instead (inserts too, see LargeUniform*InsertsMatchModel); the
// small cases above take those paths too under graph_gpu_test_filtered and graph_gpu_test_sorted
// (WG_GRAPH_FILTER_FROM=0, WG_GRAPH_SORT_FROM=0). Here: inserts of 2^20 and erases of 2^19
// entries over 1500 vertices (2.25M possible arcs), so many entries repeat others (the map's
// last weight must still win), with self-loops, edges already present and absent erases
// (2^(scale + 8) entries when WG_GPU_TEST_SCALE is below 12).
TEST(GpuGraph, LargeFilteredBatchesMatchModel) {
  const std::size_t batch = std::size_t{1} << std::min(20u, wg::test::gpu_test_scale(12) + 8);
  for (const bool directed : {true, false}) {
    SCOPED_TRACE(directed ? "directed" : "undirected");
    random_batches<wg::gpu::SlabSetAdjacency>(directed, 1500, batch, 2, 8);
  }
  random_batches<wg::gpu::SlabMapAdjacency>(true, 1500, batch, 1, 9);
}

// Inserts of 2^21 entries and more are sorted into edge order once an earlier large
// insert batch showed few duplicates (uniform batches: the second and third batch here are sorted
// by default, the first goes through the filter): directed ones go through insert_sorted_kernel,
// undirected ones through the general kernel on the sorted keys.
TEST(GpuGraph, LargeUniformDirectedInsertsMatchModel) {
  const std::size_t batch = std::size_t{1} << std::min(21u, wg::test::gpu_test_scale(12) + 9);
  random_batches<wg::gpu::SlabSetAdjacency>(true, std::uint64_t{1} << 17, batch, 3, 10);
}
TEST(GpuGraph, LargeUniformUndirectedInsertsMatchModel) {
  const std::size_t batch = std::size_t{1} << std::min(21u, wg::test::gpu_test_scale(12) + 9);
  random_batches<wg::gpu::SlabSetAdjacency>(false, std::uint64_t{1} << 17, batch, 3, 11);
}
// Maps too: the values go through the sort with the keys, and the last entry of an edge (the
// batch's ~250 repeated edges here) must still set its weight.
TEST(GpuGraph, LargeUniformMapInsertsMatchModel) {
  const std::size_t batch = std::size_t{1} << std::min(21u, wg::test::gpu_test_scale(12) + 9);
  random_batches<wg::gpu::SlabMapAdjacency>(false, std::uint64_t{1} << 17, batch, 3, 12);
}

TEST(GpuGraph, LastWeightWins) {
  wg::gpu::WeightedGraph g(4, wg::test::graph_options());
  EdgeList b;
  b.num_vertices = 4;
  b.src = {0, 1, 0, 2, 3};
  b.dst = {1, 0, 1, 3, 2};
  b.weight = {5, 7, 9, 1, 2};  // {0,1}: 5, 7, then 9 (last); {2,3}: 1 then 2
  UpdateResult r = g.insert_edges(b);
  EXPECT_EQ(r.applied, 2u);
  EXPECT_EQ(r.duplicates, 3u);
  EdgeList e = g.export_coo();
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e.weight[0], 9);
  EXPECT_EQ(e.weight[1], 2);
  // A later batch re-assigns a present edge's weight (counted as ignored: nothing added).
  EdgeList c;
  c.num_vertices = 4;
  c.src = {1};
  c.dst = {0};
  c.weight = {42};
  r = g.insert_edges(c);
  EXPECT_EQ(r.applied, 0u);
  EXPECT_EQ(r.ignored, 1u);
  e = g.export_coo();
  EXPECT_EQ(e.weight[0], 42);
  // Both arcs carry the value.
  const wg::gpu::Csr csr = g.export_csr();
  ASSERT_EQ(csr.targets.size(), 4u);
  EXPECT_EQ(csr.values[csr.offsets[1]], 42u);
}

// Each edge entered several times with different weights, in shuffled order (and for
// undirected graphs in both orientations), into a graph that already holds some of them: the
// last entry's weight wins whichever entry claims the edge (small batches assign the values of
// duplicated edges after their arcs are in).
void repeated_weighted_entries(bool directed, std::uint64_t seed) {
  const std::uint64_t n = 3000;
  wg::gpu::WeightedGraph g(n, wg::test::graph_options(directed));
  GraphModel m(n, directed);
  TestRng rng{seed};
  const EdgeList base = wg::test::insert_random_batch(g, m, rng, n, 4000, true);
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    // 2500 new edges and 300 of the graph's, each entered 1 to 6 times.
    EdgeList distinct = wg::test::random_batch(rng, n, 2500, true);
    for (int k = 0; k < 300; ++k) {
      const std::size_t j = rng.below(base.size());
      distinct.src.push_back(base.src[j]);
      distinct.dst.push_back(base.dst[j]);
    }
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < distinct.src.size(); ++i)
      for (std::uint64_t k = 0, copies = 1 + rng.below(6); k < copies; ++k) order.push_back(i);
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
    EdgeList b;
    b.num_vertices = n;
    for (const std::size_t i : order) {
      const bool flip = !directed && rng.below(2) == 0;
      b.src.push_back(flip ? distinct.dst[i] : distinct.src[i]);
      b.dst.push_back(flip ? distinct.src[i] : distinct.dst[i]);
      b.weight.push_back(static_cast<double>(1 + rng.below(1000)));
    }
    ASSERT_EQ(g.insert_edges(b), m.insert(b));
    expect_same(g, m, true, "after the repeated entries");
  }
}
TEST(GpuGraph, RepeatedWeightedEntriesLastWinsDirected) {
  repeated_weighted_entries(true, 51);
}
TEST(GpuGraph, RepeatedWeightedEntriesLastWinsUndirected) {
  repeated_weighted_entries(false, 52);
}

template <class Adj>
void vertex_ops(bool directed, std::uint64_t seed) {
  constexpr bool weighted = Adj::weighted;
  const std::uint64_t n = 120;
  wg::gpu::DynamicGraph<Adj> g(n, wg::test::graph_options(directed));
  GraphModel m(n, directed);
  TestRng rng{seed};
  const EdgeList ins = wg::test::insert_random_batch(g, m, rng, n, 3000, weighted);
  for (int round = 0; round < 4; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    std::vector<wg::vertex_t> victims;
    for (int i = 0; i < 15; ++i) victims.push_back(static_cast<wg::vertex_t>(rng.below(n + 5)));
    victims.push_back(victims.front());  // a repeat
    const wg::VertexEraseResult ge = g.erase_vertices(victims), me = m.erase_vertices(victims);
    ASSERT_EQ(ge.vertices, me.vertices);
    ASSERT_EQ(ge.ignored_ids, me.ignored_ids);
    ASSERT_EQ(ge.edges_removed, me.edges_removed);
    expect_same(g, m, weighted, "after erase_vertices");
    EXPECT_EQ(g.num_free_ids(), g.num_vertices() - g.num_live_vertices());
    // Edges touching erased ids are ignored.
    const EdgeList touch = wg::test::random_batch(rng, g.num_vertices(), 500, weighted);
    ASSERT_EQ(g.insert_edges(touch), m.insert(touch));
    expect_same(g, m, weighted, "after insert touching erased ids");
    // New vertices reuse the erased ids (earliest first), then fresh ids.
    EdgeList nb;
    const std::uint64_t count = 10 + round * 4;
    for (int i = 0; i < 200; ++i) {
      nb.src.push_back(wg::new_vertex(static_cast<wg::vertex_t>(rng.below(count))));
      const bool to_new = rng.below(3) == 0;
      nb.dst.push_back(to_new ? wg::new_vertex(static_cast<wg::vertex_t>(rng.below(count)))
                              : static_cast<wg::vertex_t>(rng.below(n)));
      if (weighted) nb.weight.push_back(static_cast<double>(rng.below(100)));
    }
    const wg::VertexInsertResult gi = g.insert_vertices(count, nb);
    const wg::VertexInsertResult mi = m.insert_vertices(count, nb);
    ASSERT_EQ(gi.ids, mi.ids);
    ASSERT_EQ(gi.edges, mi.edges);
    expect_same(g, m, weighted, "after insert_vertices");
    expect_has_edges(g, m, rng, g.num_vertices());
  }
}

WG_GRAPH_TESTS_FOUR_WAYS(VertexEraseAndReuse, vertex_ops, 11)

// Erasing hubs: their many buckets are shared by all warps (erase_vertices works bucket by
// bucket); tables built by bulk build, so a hub has ~100 buckets. Neighbours that are erased too,
// and ones that stay, in both directions.
template <class Adj>
void erase_hubs(bool directed, std::uint64_t seed) {
  constexpr bool weighted = Adj::weighted;
  const std::uint64_t n = 2500;
  wg::gpu::DynamicGraph<Adj> g(0, wg::test::graph_options(directed));
  GraphModel m(n, directed);
  TestRng rng{seed};
  EdgeList e = wg::test::random_batch(rng, n, 6000, weighted);
  for (wg::vertex_t hub = 0; hub < 6; ++hub)
    for (wg::vertex_t v = 0; v < n; v += 1 + hub % 2) {
      e.src.push_back(hub % 2 ? v : hub);
      e.dst.push_back(hub % 2 ? hub : v);
      if (weighted) e.weight.push_back(static_cast<double>(rng.below(100)));
    }
  ASSERT_EQ(g.build(e), m.insert(e));
  expect_same(g, m, weighted, "after build");
  std::vector<wg::vertex_t> victims = {0, 1, 3, 4};
  for (int i = 0; i < 60; ++i) victims.push_back(static_cast<wg::vertex_t>(rng.below(n)));
  const wg::VertexEraseResult ge = g.erase_vertices(victims), me = m.erase_vertices(victims);
  ASSERT_EQ(ge.vertices, me.vertices);
  ASSERT_EQ(ge.ignored_ids, me.ignored_ids);
  ASSERT_EQ(ge.edges_removed, me.edges_removed);
  expect_same(g, m, weighted, "after erasing hubs");
  // The hubs' buckets are empty and reusable: new edges of a reused id land correctly.
  EdgeList nb;
  for (int i = 0; i < 300; ++i) {
    nb.src.push_back(wg::new_vertex(static_cast<wg::vertex_t>(rng.below(4))));
    nb.dst.push_back(static_cast<wg::vertex_t>(rng.below(n)));
    if (weighted) nb.weight.push_back(static_cast<double>(rng.below(100)));
  }
  ASSERT_EQ(g.insert_vertices(4, nb).edges, m.insert_vertices(4, nb).edges);
  expect_same(g, m, weighted, "after reusing the hubs' ids");
}

TEST(GpuGraph, VertexEraseHubsUndirectedSet) {
  erase_hubs<wg::gpu::SlabSetAdjacency>(false, 21);
}
TEST(GpuGraph, VertexEraseHubsDirectedSet) {
  erase_hubs<wg::gpu::SlabSetAdjacency>(true, 22);
}
TEST(GpuGraph, VertexEraseHubsUndirectedMap) {
  erase_hubs<wg::gpu::SlabMapAdjacency>(false, 23);
}

TEST(GpuGraph, VertexEraseFreesOverflowSlabs) {
  const std::uint64_t n = 64;
  wg::gpu::GraphOptions opt = wg::test::graph_options();
  opt.max_load_factor = 0;  // no resizing: keep one bucket per vertex, so chains overflow
  wg::gpu::Graph g(n, opt);
  EdgeList all;
  all.num_vertices = n;
  for (wg::vertex_t u = 0; u < n; ++u)
    for (wg::vertex_t v = u + 1; v < n; ++v) {
      all.src.push_back(u);
      all.dst.push_back(v);
    }
  ASSERT_EQ(g.insert_edges(all).applied, all.size());  // one bucket each: 63 keys -> overflow
  const std::uint64_t used = g.overflow_slabs_in_use();
  EXPECT_GT(used, 0u);
  std::vector<wg::vertex_t> every(n);
  for (wg::vertex_t u = 0; u < n; ++u) every[u] = u;
  const auto r = g.erase_vertices(every);
  EXPECT_EQ(r.edges_removed, all.size());
  EXPECT_EQ(g.num_edges(), 0u);
  EXPECT_EQ(g.overflow_slabs_in_use(), 0u);
}

// Erased arcs leave tombstones; the next batch's inserts take them again, so a graph under a
// steady stream of inserts and erases keeps its chains (and overflow slabs) at their length.
template <class Adj>
void tombstones_reused(bool directed) {
  const std::uint64_t n = 64;
  wg::gpu::GraphOptions opt = wg::test::graph_options(directed);
  opt.max_load_factor = 0;  // one bucket per vertex: chains overflow
  wg::gpu::DynamicGraph<Adj> g(n, opt);
  GraphModel m(n, directed);
  EdgeList all;
  all.num_vertices = n;
  for (wg::vertex_t u = 0; u < n; ++u)
    for (wg::vertex_t v = 0; v < n; ++v)
      if (u != v && (directed || u < v)) {
        all.src.push_back(u);
        all.dst.push_back(v);
        if (Adj::weighted) all.weight.push_back(u * 100 + v);
      }
  std::uint64_t used = 0;
  for (int round = 0; round < 6; ++round) {
    ASSERT_EQ(g.insert_edges(all), m.insert(all));
    expect_same(g, m, Adj::weighted, "insert round " + std::to_string(round));
    if (round == 0) used = g.overflow_slabs_in_use();
    EXPECT_EQ(g.overflow_slabs_in_use(), used) << "round " << round;
    // Erase every other edge, then (next round) insert all again: holes are refilled.
    EdgeList half;
    half.num_vertices = n;
    for (std::size_t i = round % 2; i < all.size(); i += 2) {
      half.src.push_back(all.src[i]);
      half.dst.push_back(all.dst[i]);
    }
    ASSERT_EQ(g.erase_edges(half), m.erase(half));
    expect_same(g, m, Adj::weighted, "erase round " + std::to_string(round));
  }
  EXPECT_GT(used, 0u);
}
TEST(GpuGraph, TombstonesReusedUndirectedSet) {
  tombstones_reused<wg::gpu::SlabSetAdjacency>(false);
}
TEST(GpuGraph, TombstonesReusedDirectedMap) {
  tombstones_reused<wg::gpu::SlabMapAdjacency>(true);
}

TEST(GpuGraph, BulkBuildMatchesModel) {
  for (bool directed : {false, true}) {
    wg::datasets::RmatParams p;
    p.scale = wg::test::gpu_test_scale(12);
    p.edge_factor = 8;
    p.seed = 7;
    const EdgeList e = wg::datasets::generate_rmat(p);
    wg::gpu::Graph g(0, wg::test::graph_options(directed));
    GraphModel m(e.num_vertices, directed);
    ASSERT_EQ(g.build(e), m.insert(e));
    expect_same(g, m, false, directed ? "directed build" : "undirected build");
    // Rebuilding replaces the graph.
    ASSERT_EQ(g.build(e).applied, m.num_edges());
    EXPECT_EQ(g.num_edges(), m.num_edges());
  }
}

// A bulk build whose input repeats its edges (up to four entries each, reversed or not, in the
// same warp or far apart) around hubs, with self-loops and ids past the build's vertex count
// (uploaded as they are: the host API would widen the id range), at the default load factor and
// at one far above 1 (chains of many slabs, grown while the build runs; and the first slab of a
// one-bucket table fills up while the build places arcs in it): the counts, edges, degrees and
// (maps) each edge's last weight are the host model's, and the tables take batches as usual
// afterwards.
template <class Adj>
void build_of_repeated_entries() {
  constexpr bool kWeighted = Adj::weighted;
  for (const bool directed : {false, true}) {
    for (const double load_factor : {0.7, 8.0}) {
      const std::uint64_t n = 3000, built = 2900;  // ids >= built: ignored
      TestRng rng{directed ? 41u : 42u};
      EdgeList e;
      e.num_vertices = built;
      const auto add = [&](wg::vertex_t u, wg::vertex_t v) {
        const std::uint64_t copies = 1 + rng.below(4);
        for (std::uint64_t c = 0; c < copies; ++c) {
          const bool flip = rng.below(2) != 0;
          e.src.push_back(flip ? v : u);
          e.dst.push_back(flip ? u : v);
          if (kWeighted) e.weight.push_back(static_cast<double>(rng.below(1000)));
        }
      };
      for (wg::vertex_t v = 1; v < n; ++v) add(0, v);  // a hub
      for (wg::vertex_t v = 2; v < n; v += 3) add(1, v);
      for (int k = 0; k < 20000; ++k)
        add(static_cast<wg::vertex_t>(rng.below(n)), static_cast<wg::vertex_t>(rng.below(n)));
      for (std::size_t i = e.size(); i > 1; --i) {  // entries of one edge far apart, or close
        const std::size_t j = rng.below(i);
        std::swap(e.src[i - 1], e.src[j]);
        std::swap(e.dst[i - 1], e.dst[j]);
        if (kWeighted) std::swap(e.weight[i - 1], e.weight[j]);
      }
      wg::gpu::GraphOptions opt = wg::test::graph_options(directed);
      opt.load_factor = load_factor;
      wg::gpu::DynamicGraph<Adj> g(0, opt);
      GraphModel m(built, directed);
      const auto src = wg::DeviceBuffer<wg::vertex_t>::from_host(e.src);
      const auto dst = wg::DeviceBuffer<wg::vertex_t>::from_host(e.dst);
      std::vector<std::uint32_t> w(e.weight.begin(), e.weight.end());
      const auto values = wg::DeviceBuffer<std::uint32_t>::from_host(w);
      const std::string where = std::string(kWeighted ? "map, " : "set, ") +
                                (directed ? "directed" : "undirected") + " build, load factor " +
                                std::to_string(load_factor);
      const UpdateResult got =
          g.build({src.data(), dst.data(), kWeighted ? values.data() : nullptr, e.size()}, built);
      const UpdateResult want = m.insert(e);
      ASSERT_EQ(got, want) << where << ": " << str(got) << " vs " << str(want);
      ASSERT_GT(want.duplicates, e.size() / 4) << where;
      expect_same(g, m, kWeighted, where);
      // The tables take batches as usual after such a build.
      const EdgeList more = wg::test::random_batch(rng, built, 5000, kWeighted);
      ASSERT_EQ(g.insert_edges(more), m.insert(more)) << where;
      ASSERT_EQ(g.erase_edges(e), m.erase(e)) << where;
      expect_same(g, m, kWeighted, where + ", then a batch in and the input out");
    }
  }
}
WG_GRAPH_TESTS_SET_AND_MAP(BuildOfRepeatedEntriesMatchesModel, build_of_repeated_entries)

// Builds of different sizes into one graph object (a small build takes the previous tables'
// largest pool again when it has room), with batches between them: after each build the graph
// is exactly the new input (edges, degrees, weights), whatever the graph before it held.
template <class Adj>
void rebuilds_replace_the_graph(bool directed) {
  constexpr bool kWeighted = Adj::weighted;
  wg::gpu::DynamicGraph<Adj> g(0, wg::test::graph_options(directed));
  const unsigned s = wg::test::gpu_test_scale(12);
  const struct {
    unsigned scale;
    double edge_factor;
  } inputs[] = {{s, 8}, {s > 4 ? s - 2 : s, 4}, {s, 16}, {s > 3 ? s - 1 : s, 8}};
  std::uint64_t seed = 20;
  for (const auto& in : inputs) {
    wg::datasets::RmatParams p;
    p.scale = in.scale;
    p.edge_factor = in.edge_factor;
    p.seed = ++seed;
    EdgeList e = wg::datasets::generate_rmat(p);
    if (kWeighted) {
      e.weight.resize(e.size());
      for (std::size_t i = 0; i < e.size(); ++i) e.weight[i] = static_cast<double>(i % 97);
    }
    GraphModel m(e.num_vertices, directed);
    const std::string where = "build of scale " + std::to_string(in.scale) + " ef " +
                              std::to_string(static_cast<int>(in.edge_factor));
    ASSERT_EQ(g.build(e), m.insert(e)) << where;
    expect_same(g, m, kWeighted, where);
    // Dirty the tables (overflow slabs, tombstones) before the next build starts over.
    p.seed += 1000;
    p.edge_factor = 2;
    const EdgeList extra = wg::datasets::generate_rmat(p);
    ASSERT_EQ(g.insert_edges(extra), m.insert(extra)) << where;
    ASSERT_EQ(g.erase_edges(e), m.erase(e)) << where;
    expect_same(g, m, kWeighted, where + ", then a batch in and the input out");
  }
}
TEST(GpuGraph, RebuildsReplaceTheGraphUndirectedSet) {
  rebuilds_replace_the_graph<wg::gpu::SlabSetAdjacency>(false);
}
TEST(GpuGraph, RebuildsReplaceTheGraphDirectedMap) {
  rebuilds_replace_the_graph<wg::gpu::SlabMapAdjacency>(true);
}

/// Builds an R-MAT graph from empty in `parts` insert batches, checking each batch's counts and
/// the final contents against the model.
wg::gpu::GraphStats build_incrementally(const wg::gpu::GraphOptions& opt, std::uint64_t seed,
                                        std::size_t parts, const std::string& where) {
  wg::datasets::RmatParams p;
  p.scale = wg::test::gpu_test_scale(12);
  p.edge_factor = 16;
  p.seed = seed;
  const EdgeList e = wg::datasets::generate_rmat(p);
  wg::gpu::Graph g(e.num_vertices, opt);
  GraphModel m(e.num_vertices, opt.directed);
  const std::size_t batch = e.size() / parts + 1;
  for (std::size_t off = 0; off < e.size(); off += batch) {
    const EdgeList part = slice(e, off, std::min(e.size(), off + batch));
    EXPECT_EQ(g.insert_edges(part), m.insert(part)) << where << ", entries from " << off;
  }
  expect_same(g, m, false, where);
  return g.stats();
}

TEST(GpuGraph, IncrementalBuildFromASmallAllocator) {
  wg::gpu::GraphOptions opt = wg::test::graph_options();
  opt.initial_slabs = 1;  // one super block of 1024 slabs (growth: RebuildRoundsRedone*)
  opt.slabs_per_super_block = 1024;
  const wg::gpu::GraphStats st = build_incrementally(opt, 9, 4, "incremental build");
  EXPECT_GT(st.rebuild_rounds, 0u);
  opt.rebuild_growth = 1;  // rebuilt tables without room to grow: rebuilt more often
  const wg::gpu::GraphStats st1 =
      build_incrementally(opt, 10, 8, "incremental build, rebuild_growth 1");
  EXPECT_GT(st1.rebuild_rounds, 0u);
  opt.rebuild_growth = 0.5;
  EXPECT_THROW(wg::gpu::Graph(4, opt), wg::InvalidArgument);
}

// A batch of fewer than 2^20 entries chains its rebuild round (queued behind the first pass,
// planned by one block for at most 8192 tables). One that lists more tables than that: 12000
// vertices of one bucket each get 80-100 arcs each (the limit is 60), so nearly all are listed;
// the chained round leaves them to the host's plan, and the result is the model's.
TEST(GpuGraph, RebuildRoundOfManyTables) {
  for (const bool directed : {false, true}) {
    wg::gpu::GraphOptions opt = wg::test::graph_options(directed);
    const std::uint64_t n = 12000;
    wg::gpu::Graph g(n, opt);
    GraphModel m(n, directed);
    TestRng rng{directed ? 41u : 42u};
    const EdgeList b = wg::test::random_batch(rng, n, (directed ? 80 : 50) * n, false, 0.0);
    ASSERT_LT(b.size(), 1u << 20);
    ASSERT_EQ(g.insert_edges(b), m.insert(b));
    EXPECT_GT(g.stats().rebuild_rounds, 0u);
    EXPECT_GT(g.stats().rebuilt_buckets, 8192u);
    expect_same(g, m, false, directed ? "directed" : "undirected");
  }
}

// Rebuilds that do not fit the arena are held back (the deferred arcs wait), the arena grows and
// the rebuild runs again in the same batch; the allocator grows meanwhile too.
TEST(GpuGraph, RebuildsWithATinyArena) {
  for (const bool directed : {false, true}) {
    wg::gpu::GraphOptions opt = wg::test::graph_options(directed);
    opt.initial_slabs = 1;
    opt.rebuild_arena_slabs = 8;
    const wg::gpu::GraphStats st = build_incrementally(
        opt, 11, 24, directed ? "tiny arena, directed" : "tiny arena, undirected");
    EXPECT_GT(st.rounds_without_arena_room, 0u);
    EXPECT_GT(st.arenas, 1u);
    EXPECT_GT(st.rebuild_rounds, 0u);
  }
}

// A rebuild round that finds no room in the arena, or whose re-inserts find the allocator
// exhausted, leaves the old tables as they are; the arcs it was for wait, the arena or the
// allocator grows, and the round runs again in the same batch. Deterministic: `hubs` vertices
// hold `limit` arcs each, the most one bucket takes before a rebuild (max(max_load_factor,
// 2 x load_factor) x slots). Then the allocator is filled to `margin` free slabs: `filler`
// vertices get a slab's worth of arcs (their base slabs), then one arc each, which takes one
// overflow slab (one arc per chain: no two threads race to append). A batch brings each hub
// limit / 2 more arcs: every hub's arcs are deferred and its table is listed for a rebuild to
// 3 buckets. The arena (16 buckets) has no room for 3 x hubs, so that round waits for a new
// arena. At load_factor 4 and rebuild_growth 1 a rebuilt bucket takes 4 slabs' worth of keys,
// so each re-inserted table needs ~6 overflow slabs, ~1200 in all: that round finds the
// allocator exhausted, it grows, and the third round is done.
/// The options of the hub rebuild scenarios below: directed; at load_factor 4 and rebuild_growth
/// 1 rebuilt tables need overflow slabs; the allocator starts with one super block of 1024.
wg::gpu::GraphOptions hub_rebuild_options() {
  wg::gpu::GraphOptions opt = wg::test::graph_options(true);
  opt.load_factor = 4;
  opt.rebuild_growth = 1;
  opt.slabs_per_super_block = 1024;
  opt.initial_slabs = 1;
  return opt;
}
/// A hub scenario's sizes on adjacency Adj: whether its arcs are weighted, a slab's slots,
/// `limit` (the arcs one bucket takes before a rebuild under hub_rebuild_options: 8 slabs'
/// worth) and more = limit / 2.
struct HubSizes {
  bool weighted;
  std::uint32_t slots, limit, more;
};
template <class Adj>
constexpr HubSizes hub_sizes() {
  return {Adj::weighted, Adj::slab_capacity, 8 * Adj::slab_capacity, 4 * Adj::slab_capacity};
}
/// star_arcs over a hub scenario's graph of n vertices, whose hubs' targets are numbered from
/// `hubs` (after the hubs).
auto hub_stars(std::uint32_t n, std::uint32_t hubs, bool weighted) {
  return [=](std::uint32_t first, std::uint32_t sources, std::uint32_t from, std::uint32_t to) {
    return star_arcs(n, hubs, first, sources, from, to, weighted);
  };
}
template <class Adj>
void rebuild_rounds_redone() {
  wg::gpu::GraphOptions opt = hub_rebuild_options();
  opt.rebuild_arena_slabs = 16;
  const auto [weighted, slots, limit, more] = hub_sizes<Adj>();
  const std::uint32_t hubs = 200, margin = 50;
  // Ids: hubs, their targets, then the filler vertices (targets 0 .. slots of the hubs' ones).
  const std::uint32_t targets = limit + more, filler_base = hubs + targets, max_filler = 1u << 15;
  const std::uint32_t n = filler_base + max_filler;
  wg::gpu::DynamicGraph<Adj> g(n, opt);
  GraphModel m(n, true);
  const auto arcs = hub_stars(n, hubs, weighted);
  const EdgeList first = arcs(0, hubs, 0, limit);
  ASSERT_EQ(g.insert_edges(first), m.insert(first));
  EXPECT_EQ(g.stats().rebuild_rounds, 0u);  // at the limit, not past it
  EXPECT_GT(g.stats().allocator_growths, 0u);
  const std::uint64_t in_use = g.overflow_slabs_in_use();
  EXPECT_EQ(in_use, std::uint64_t{hubs} * (limit / slots - 1));  // chains of full slabs
  const std::uint64_t free_slabs = g.overflow_slab_capacity() - in_use;
  ASSERT_GT(free_slabs, margin);
  const auto filler = static_cast<std::uint32_t>(free_slabs - margin);
  ASSERT_LE(filler, max_filler);
  const EdgeList base_slabs = arcs(filler_base, filler, 0, slots),
                 one_more = arcs(filler_base, filler, slots, slots + 1);
  ASSERT_EQ(g.insert_edges(base_slabs), m.insert(base_slabs));
  ASSERT_EQ(g.insert_edges(one_more), m.insert(one_more));
  ASSERT_EQ(g.overflow_slab_capacity() - g.overflow_slabs_in_use(), margin);
  const EdgeList second = arcs(0, hubs, limit, limit + more);
  ASSERT_EQ(g.insert_edges(second), m.insert(second));
  const wg::gpu::GraphStats st = g.stats();
  EXPECT_EQ(st.rounds_without_arena_room, 1u);
  EXPECT_EQ(st.rounds_out_of_slabs, 1u);
  EXPECT_EQ(st.rebuild_rounds, 1u);
  EXPECT_EQ(st.rebuilt_buckets, 3u * hubs);
  EXPECT_EQ(st.arenas, 2u);
  expect_same(g, m, weighted, "after the rebuilds");
  // The rebuilt tables work: erase half of each hub's arcs, insert them again.
  const EdgeList half = arcs(0, hubs, limit / 2, limit + more);
  ASSERT_EQ(g.erase_edges(half), m.erase(half));
  ASSERT_EQ(g.insert_edges(half), m.insert(half));
  expect_same(g, m, weighted, "after erasing and inserting again");
}
WG_GRAPH_TESTS_SET_AND_MAP(RebuildRoundsRedone, rebuild_rounds_redone)

// ---- a batch that runs out of overflow slabs (dynamic_graph.hpp, "Errors") ----------------

/// The number in a stopped batch's CapacityError ("stopped after adding N edges ...").
std::uint64_t edges_added_in(const wg::CapacityError& e) {
  const std::string what = e.what(), tag = "stopped after adding ";
  const std::size_t at = what.find(tag);
  EXPECT_NE(at, std::string::npos) << what;
  return at == std::string::npos ? ~std::uint64_t{0} : std::stoull(what.substr(at + tag.size()));
}

/// What a graph holds after `batch` stopped with a CapacityError, checked against the model of
/// the graph before it: every arc's edge complete (an undirected edge's two arcs, with one value),
/// degrees and num_edges() exact, the edges before all there and the others from the batch, a
/// value either the edge's old one or one of its entries'. Returns the model of what it holds.
template <class G>
GraphModel expect_consistent_after_stop(const G& g, const GraphModel& before, const EdgeList& batch,
                                        bool weighted, bool directed, std::uint64_t added) {
  const std::uint64_t n = before.id_range();
  std::map<std::pair<vertex_t, vertex_t>, std::vector<std::uint32_t>> allowed;
  const EdgeList old = before.export_coo(weighted);
  for (std::size_t i = 0; i < old.size(); ++i)
    allowed[{old.src[i], old.dst[i]}].push_back(weighted ? static_cast<std::uint32_t>(old.weight[i])
                                                         : 0u);
  for (std::size_t i = 0; i < batch.size(); ++i) {
    vertex_t u = batch.src[i], v = batch.dst[i];
    if (!directed && v < u) std::swap(u, v);
    if (u != v)
      allowed[{u, v}].push_back(weighted ? static_cast<std::uint32_t>(batch.weight[i]) : 0u);
  }
  const wg::gpu::Csr csr = g.export_csr();
  const std::vector<std::uint32_t> deg = g.degrees();
  std::map<std::pair<vertex_t, vertex_t>, std::uint32_t> arcs;
  for (std::uint64_t x = 0; x < n; ++x) {
    EXPECT_EQ(csr.offsets[x + 1] - csr.offsets[x], deg[x]) << "degree of " << x;
    for (std::uint64_t k = csr.offsets[x]; k < csr.offsets[x + 1]; ++k)
      arcs[{static_cast<vertex_t>(x), csr.targets[k]}] = weighted ? csr.values[k] : 0u;
  }
  EdgeList held;
  held.num_vertices = n;
  for (const auto& [arc, value] : arcs) {
    const auto [u, v] = arc;
    if (!directed) {
      const auto back = arcs.find({v, u});
      EXPECT_TRUE(back != arcs.end()) << "arc " << u << " -> " << v << " without its reverse";
      if (back != arcs.end()) EXPECT_EQ(back->second, value) << "values of " << u << " - " << v;
      if (v < u) continue;
    }
    const auto it = allowed.find({u, v});
    EXPECT_TRUE(it != allowed.end()) << "edge " << u << " - " << v << " in neither";
    if (it != allowed.end())
      EXPECT_NE(std::find(it->second.begin(), it->second.end(), value), it->second.end())
          << "value " << value << " of " << u << " - " << v;
    held.src.push_back(u);
    held.dst.push_back(v);
    if (weighted) held.weight.push_back(value);
  }
  for (std::size_t i = 0; i < old.size(); ++i)
    EXPECT_TRUE(arcs.count({old.src[i], old.dst[i]})) << old.src[i] << " - " << old.dst[i];
  EXPECT_EQ(g.num_edges(), held.size());
  EXPECT_EQ(g.num_edges(), before.num_edges() + added);
  GraphModel now(n, directed);
  now.insert(held);
  return now;
}

// Random batches under a cap of two super blocks go in until one needs more slabs than the
// cap: passes find the allocator exhausted and cannot grow it, and once a pass makes no progress
// the batch stops, its unfinished edges taken out again (undirected: those with one arc in). The
// graph is then as consistent as before and takes more batches (erases leave tombstones, which
// the smaller inserts after them take). `rebuilds`: tables are rebuilt past max_load_factor (on
// 400 vertices, which reach it before the cap), at load_factor 2 and rebuild_growth 1 so that
// rebuilt tables need overflow slabs too (deferred arcs wait for rebuilds that may not fit);
// else chains only, on 800 vertices.
template <class Adj>
void stops_out_of_slabs(bool directed, bool rebuilds, std::uint64_t seed) {
  constexpr bool weighted = Adj::weighted;
  wg::gpu::GraphOptions opt = wg::test::graph_options(directed);
  opt.max_load_factor = rebuilds ? 2 : 0;
  if (rebuilds) {
    opt.load_factor = 2;
    opt.rebuild_growth = 1;
  }
  opt.slabs_per_super_block = 1024;
  opt.initial_slabs = 1;
  opt.max_overflow_slabs = 2048;
  const std::uint64_t n = rebuilds ? 400 : 800;
  wg::gpu::DynamicGraph<Adj> g(n, opt);
  GraphModel m(n, directed);
  TestRng rng{seed};
  const std::size_t batch = (directed ? 30 : 15) * n;  // ~30 new arcs per vertex
  int stopped = -1;
  for (int r = 0; r < 20 && stopped < 0; ++r) {
    const EdgeList b = wg::test::random_batch(rng, n, batch, weighted);
    UpdateResult got;
    try {
      got = g.insert_edges(b);
    } catch (const wg::CapacityError& e) {
      stopped = r;
      EXPECT_LE(g.overflow_slab_capacity(), opt.max_overflow_slabs);
      m = expect_consistent_after_stop(g, m, b, weighted, directed, edges_added_in(e));
      ASSERT_FALSE(::testing::Test::HasFailure()) << e.what();
      break;
    }
    ASSERT_EQ(got, m.insert(b)) << "batch " << r;
  }
  ASSERT_GT(stopped, 0) << "the cap was never reached, or reached by the first batch";
  if (rebuilds) EXPECT_GT(g.stats().rebuild_rounds, 0u);
  for (int r = 0; r < 3; ++r) {
    // Every other edge out (their slots become tombstones), then a smaller batch in.
    const EdgeList all = m.export_coo(false);
    EdgeList del;
    del.num_vertices = n;
    for (std::size_t i = r % 2; i < all.size(); i += 2) {
      del.src.push_back(all.src[i]);
      del.dst.push_back(all.dst[i]);
    }
    ASSERT_EQ(g.erase_edges(del), m.erase(del)) << "erase " << r;
    const EdgeList ins = wg::test::random_batch(rng, n, batch / 8, weighted);
    ASSERT_EQ(g.insert_edges(ins), m.insert(ins)) << "insert " << r;
    expect_same(g, m, weighted, "after the stop, round " + std::to_string(r));
  }
}
/// Both stop points of stops_out_of_slabs (the flag), seeds seed and seed + 4.
template <class Adj>
void stops_out_of_slabs_both(bool directed, std::uint64_t seed) {
  stops_out_of_slabs<Adj>(directed, false, seed);
  stops_out_of_slabs<Adj>(directed, true, seed + 4);
}
WG_GRAPH_TESTS_FOUR_WAYS(StopsOutOfSlabs, stops_out_of_slabs_both, 31)

// Rebuilds that do not fit under the cap. As in rebuild_rounds_redone, `hubs` hubs hold `limit`
// arcs each (chains of 8 slabs, 7 overflow: 595 of the cap's 1024), and a second batch brings
// each limit / 2 more, all deferred for a rebuild to 3 buckets of 4 slabs' worth. Re-inserting a
// hub's limit arcs there takes about 6 overflow slabs, ~510 in all, more than the 429 left: the
// round fails and, the allocator being at its cap, the old tables stay and the deferred arcs go
// into their chains (4 slabs per hub). Then the rebuild counts the batch listed are zero again (as
// between calls): a hub whose arcs are erased and that gets more than `limit` arcs in one batch is
// listed and rebuilt. A last batch of limit / 2 more arcs per hub fits neither way and stops.
template <class Adj>
void stops_in_a_rebuild() {
  wg::gpu::GraphOptions opt = hub_rebuild_options();
  opt.max_overflow_slabs = 1024;
  const auto [weighted, slots, limit, more] = hub_sizes<Adj>();
  const std::uint32_t hubs = 85, n = hubs + limit + 3 * more;
  wg::gpu::DynamicGraph<Adj> g(n, opt);
  GraphModel m(n, true);
  const auto arcs = hub_stars(n, hubs, weighted);
  const EdgeList full = arcs(0, hubs, 0, limit);
  ASSERT_EQ(g.insert_edges(full), m.insert(full));
  ASSERT_EQ(g.overflow_slabs_in_use(), std::uint64_t{hubs} * (limit / slots - 1));
  const EdgeList second = arcs(0, hubs, limit, limit + more);
  ASSERT_EQ(g.insert_edges(second), m.insert(second));
  EXPECT_EQ(g.stats().rebuild_rounds, 0u);
  EXPECT_EQ(g.stats().rounds_out_of_slabs, 1u);
  EXPECT_EQ(g.overflow_slab_capacity(), 1024u);
  expect_same(g, m, weighted, "after the rebuild that did not fit");
  // Hub 0 empty, then limit + slots arcs in one batch: deferred past the limit, listed, rebuilt.
  const EdgeList hub0 = arcs(0, 1, 0, limit + more);
  ASSERT_EQ(g.erase_edges(hub0), m.erase(hub0));
  const EdgeList again = arcs(0, 1, 0, limit + slots);
  ASSERT_EQ(g.insert_edges(again), m.insert(again));
  EXPECT_EQ(g.stats().rebuild_rounds, 1u);
  expect_same(g, m, weighted, "after hub 0's rebuild");
  const EdgeList third = arcs(1, hubs - 1, limit + more, limit + 2 * more);
  try {
    g.insert_edges(third);
    FAIL() << "the third batch fit under the cap";
  } catch (const wg::CapacityError& e) {
    EXPECT_NE(std::string(e.what()).find("max_overflow_slabs"), std::string::npos) << e.what();
    expect_consistent_after_stop(g, m, third, weighted, true, edges_added_in(e));
  }
}
WG_GRAPH_TESTS_SET_AND_MAP(StopsInARebuild, stops_in_a_rebuild)

// compact() after a stream that left tables large: an incremental build from one bucket each
// (tables rebuilt with room to grow, chains past their base slabs), then most edges and some
// vertices (hubs among them) erased. Contents, degrees, liveness and id reuse stay as the model
// says, the memory held and the overflow slabs in use drop, and the graph takes more batches
// (rebuilding tables again) and a second compact().
template <class Adj>
void compaction(bool directed, std::uint64_t seed) {
  constexpr bool weighted = Adj::weighted;
  wg::datasets::RmatParams p;
  p.scale = wg::test::gpu_test_scale(12);
  p.edge_factor = 16;
  p.seed = seed;
  p.symmetric = !directed;
  EdgeList e = wg::datasets::generate_rmat(p);
  TestRng rng{seed};
  if (weighted)
    for (std::size_t i = 0; i < e.size(); ++i)
      e.weight.push_back(static_cast<double>(rng.below(1000)));
  const std::uint64_t n = e.num_vertices;
  wg::gpu::DynamicGraph<Adj> g(n, wg::test::graph_options(directed));
  GraphModel m(n, directed);
  const std::size_t parts = 8, batch = e.size() / parts + 1;
  for (std::size_t off = 0; off < e.size(); off += batch) {
    const EdgeList part = slice(e, off, std::min(e.size(), off + batch));
    ASSERT_EQ(g.insert_edges(part), m.insert(part)) << "entries from " << off;
  }
  ASSERT_GT(g.stats().rebuild_rounds, 0u);
  // Erase three quarters of the edges, then the 8 vertices of highest degree and 8 others.
  const EdgeList all = m.export_coo(false);
  EdgeList gone;
  gone.num_vertices = n;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (rng.below(4) != 0) {
      gone.src.push_back(all.src[i]);
      gone.dst.push_back(all.dst[i]);
    }
  ASSERT_EQ(g.erase_edges(gone), m.erase(gone));
  const std::vector<std::uint32_t> deg = m.degrees();
  std::vector<wg::vertex_t> by_degree(n);
  for (std::uint64_t v = 0; v < n; ++v) by_degree[v] = static_cast<wg::vertex_t>(v);
  std::partial_sort(by_degree.begin(), by_degree.begin() + 8, by_degree.end(),
                    [&](wg::vertex_t a, wg::vertex_t b) { return deg[a] > deg[b]; });
  std::vector<wg::vertex_t> victims(by_degree.begin(), by_degree.begin() + 8);
  for (int i = 0; i < 8; ++i) victims.push_back(static_cast<wg::vertex_t>(rng.below(n)));
  const wg::VertexEraseResult ge = g.erase_vertices(victims), me = m.erase_vertices(victims);
  ASSERT_EQ(ge.vertices, me.vertices);
  ASSERT_EQ(ge.edges_removed, me.edges_removed);
  expect_same(g, m, weighted, "before compact");
  const std::uint64_t bytes = g.memory_bytes(), slabs = g.overflow_slabs_in_use();
  const std::uint64_t free_ids = g.num_free_ids(), live = g.num_live_vertices();
  ASSERT_GT(slabs, 0u) << "the stream left no overflow slabs to free";

  g.compact();
  EXPECT_EQ(g.stats().compactions, 1u);
  expect_same(g, m, weighted, "after compact");
  expect_has_edges(g, m, rng, n);
  EXPECT_LT(g.memory_bytes(), bytes);
  EXPECT_LT(g.overflow_slabs_in_use(), slabs);
  EXPECT_EQ(g.num_free_ids(), free_ids);
  EXPECT_EQ(g.num_live_vertices(), live);

  // The compacted graph takes batches: erased ids come back, tables grow and are rebuilt again.
  EdgeList nb;
  for (int i = 0; i < 300; ++i) {
    nb.src.push_back(wg::new_vertex(static_cast<wg::vertex_t>(rng.below(6))));
    nb.dst.push_back(static_cast<wg::vertex_t>(rng.below(n)));
    if (weighted) nb.weight.push_back(static_cast<double>(rng.below(100)));
  }
  const wg::VertexInsertResult gi = g.insert_vertices(6, nb), mi = m.insert_vertices(6, nb);
  ASSERT_EQ(gi.ids, mi.ids);
  ASSERT_EQ(gi.edges, mi.edges);
  const std::uint64_t rounds = g.stats().rebuild_rounds;
  ASSERT_EQ(g.insert_edges(e), m.insert(e));  // the whole stream again, in one batch
  EXPECT_GT(g.stats().rebuild_rounds, rounds);
  for (int r = 0; r < 2; ++r) {
    const EdgeList ins = wg::test::insert_random_batch(g, m, rng, n, 2000, weighted);
    const EdgeList del = wg::test::random_batch(rng, n, 2000, false);
    ASSERT_EQ(g.erase_edges(del), m.erase(del));
  }
  expect_same(g, m, weighted, "after batches on the compacted graph");
  g.compact();
  EXPECT_EQ(g.stats().compactions, 2u);
  expect_same(g, m, weighted, "after the second compact");
  expect_has_edges(g, m, rng, n);
}
WG_GRAPH_TESTS_FOUR_WAYS(Compaction, compaction, 31)

// A compaction whose copies run out of slabs empties its fresh allocator, doubles it and runs
// again. Deterministic: with no rebuilds (max_load_factor 0), `hubs` one-bucket tables hold 8
// slabs' worth of arcs each. At load_factor 1 a compacted hub table has 8 buckets for them, a
// slab's worth each on average, so about half of its buckets overflow: ~3.7 overflow slabs per
// hub, ~7400 in all, while the fresh allocator starts with room for an eighth of the buckets
// (~2000, two super blocks of 1024). It runs out at 2048 and 4096 slabs and fits in 8192.
template <class Adj>
void compaction_out_of_slabs() {
  wg::gpu::GraphOptions opt = wg::test::graph_options(true);
  opt.load_factor = 1;
  opt.max_load_factor = 0;
  opt.slabs_per_super_block = 1024;
  opt.initial_slabs = 1;
  constexpr bool weighted = Adj::weighted;
  const std::uint32_t slots = Adj::slab_capacity;
  const std::uint32_t hubs = 2000, per_hub = 8 * slots, n = hubs + per_hub;
  wg::gpu::DynamicGraph<Adj> g(n, opt);
  GraphModel m(n, true);
  const auto arcs = [&](std::uint32_t from, std::uint32_t to) {
    return star_arcs(n, hubs, 0, hubs, from, to, weighted);
  };
  const EdgeList hub_arcs = arcs(0, per_hub);
  ASSERT_EQ(g.insert_edges(hub_arcs), m.insert(hub_arcs));
  const std::uint64_t in_use = g.overflow_slabs_in_use();
  ASSERT_EQ(in_use, std::uint64_t{hubs} * (per_hub / slots - 1));  // chains of full slabs
  const wg::gpu::GraphStats before = g.stats();
  g.compact();
  const wg::gpu::GraphStats after = g.stats();
  EXPECT_GT(after.rounds_out_of_slabs, before.rounds_out_of_slabs);
  EXPECT_EQ(after.allocator_growths - before.allocator_growths,
            after.rounds_out_of_slabs - before.rounds_out_of_slabs);  // one doubling per round
  EXPECT_EQ(after.compactions, 1u);
  expect_same(g, m, weighted, "after compact");
  EXPECT_LT(g.overflow_slabs_in_use(), in_use);
  EXPECT_LT(g.overflow_slab_capacity(), in_use);  // the old allocator is gone
  const EdgeList half = arcs(per_hub / 2, per_hub);
  ASSERT_EQ(g.erase_edges(half), m.erase(half));
  ASSERT_EQ(g.insert_edges(half), m.insert(half));
  expect_same(g, m, weighted, "after erasing and inserting again");
}
WG_GRAPH_TESTS_SET_AND_MAP(CompactionOutOfSlabs, compaction_out_of_slabs)

TEST(GpuGraph, CompactionOfAnEmptyGraph) {
  wg::gpu::Graph g(0, wg::test::graph_options());
  g.compact();
  EXPECT_EQ(g.num_vertices(), 0u);
  EXPECT_EQ(g.stats().compactions, 0u);
  wg::gpu::Graph h(5);
  h.compact();  // five empty tables
  EXPECT_EQ(h.stats().compactions, 1u);
  EXPECT_EQ(h.num_edges(), 0u);
  EdgeList b;
  b.num_vertices = 5;
  b.src = {0, 1, 2};
  b.dst = {1, 2, 3};
  EXPECT_EQ(h.insert_edges(b).applied, 3u);
  EXPECT_EQ(h.export_coo().size(), 3u);
}

TEST(GpuGraph, SuperBlockSizeIsChecked) {
  for (const std::uint32_t bad : {0u, 512u, 1000u}) {
    wg::gpu::GraphOptions opt = wg::test::graph_options();
    opt.slabs_per_super_block = bad;
    EXPECT_THROW(wg::gpu::Graph(4, opt), wg::InvalidArgument) << bad;
  }
}

TEST(GpuGraph, ChunkedBatchesAreExact) {
  wg::gpu::GraphOptions opt = wg::test::graph_options();
  opt.max_chunk = 1000;  // a repeat in a later chunk is reported as ignored, not duplicate
  wg::gpu::Graph g(500, opt);
  GraphModel m(500, false);
  TestRng rng{21};
  const EdgeList b = wg::test::random_batch(rng, 500, 5000, false);
  const UpdateResult r = g.insert_edges(b), w = m.insert(b);
  EXPECT_EQ(r.applied, w.applied);
  EXPECT_EQ(r.self_loops, w.self_loops);
  EXPECT_EQ(r.entries(), w.entries());
  expect_same(g, m, false, "chunked");
}

TEST(GpuGraph, GrowVertexRangeCopiesHandles) {
  wg::gpu::Graph g(10, wg::test::graph_options());
  GraphModel m(10, false);
  TestRng rng{31};
  for (std::uint64_t n : {10u, 50u, 400u, 3000u}) {
    const EdgeList b = wg::test::random_batch(rng, n, 2000, false);
    m.grow(n);
    ASSERT_EQ(g.insert_edges(b), m.insert(b));
    expect_same(g, m, false, "range " + std::to_string(n));
  }
}

TEST(GpuGraph, InvalidInputIsRefused) {
  wg::gpu::WeightedGraph g(4, wg::test::graph_options());
  EdgeList b;
  b.num_vertices = 4;
  b.src = {0};
  b.dst = {1};
  b.weight = {-1};
  EXPECT_THROW(g.insert_edges(b), wg::InvalidArgument);
  EdgeList c;
  c.src = {0, 1};
  c.dst = {1};
  EXPECT_THROW(g.insert_edges(c), wg::InvalidArgument);
  // The first bad weight is named with its entry, and nothing of the batch is applied: not its
  // edges, not the vertex range that its ids would grow to.
  for (const double bad : {4294967296.0, std::nan(""), -0.5}) {
    EdgeList d;
    d.src = {0, 1, 2, 9, 3};
    d.dst = {1, 2, 3, 8, 0};
    d.weight = {1, 2, 3, bad, -7};
    try {
      g.insert_edges(d);
      ADD_FAILURE() << "weight " << bad << " accepted";
    } catch (const wg::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("of entry 3 "), std::string::npos) << e.what();
    }
    EXPECT_EQ(g.num_edges(), 0u);
    EXPECT_EQ(g.num_vertices(), 4u);
  }
}

// Host weights become uint32 values on the device: rounded half away from zero (exactly, also
// just below a half), the whole uint32 range accepted; the ids of a host batch grow the range.
TEST(GpuGraph, HostWeightsAndIdRange) {
  for (const bool build : {false, true}) {
    wg::gpu::WeightedGraph g(2, wg::test::graph_options());
    EdgeList b;
    b.src = {0, 1, 2, 3, 4, 5};
    b.dst = {10, 11, 12, 13, 14, 1048575u};
    b.weight = {2.5, 0.49999999999999994, 4294967295.0, 7.0, 0.5, 1e9 + 0.4};
    b.src.push_back(wg::new_vertex(3));  // a tagged id is no id of a batch: ignored, no growth
    b.dst.push_back(1);
    b.weight.push_back(1);
    const UpdateResult r = build ? g.build(b) : g.insert_edges(b);
    EXPECT_EQ(r.applied, 6u);
    EXPECT_EQ(r.ignored, 1u);
    EXPECT_EQ(g.num_vertices(), 1048576u);
    const EdgeList e = g.export_coo();
    ASSERT_EQ(e.size(), 6u);
    std::map<std::pair<wg::vertex_t, wg::vertex_t>, double> w;
    for (std::size_t i = 0; i < e.size(); ++i) w[{e.src[i], e.dst[i]}] = e.weight[i];
    EXPECT_EQ(w.at({0, 10}), 3);
    EXPECT_EQ(w.at({1, 11}), 0);
    EXPECT_EQ(w.at({2, 12}), 4294967295.0);
    EXPECT_EQ(w.at({3, 13}), 7);
    EXPECT_EQ(w.at({4, 14}), 1);
    EXPECT_EQ(w.at({5, 1048575u}), 1e9);
  }
}

}  // namespace
