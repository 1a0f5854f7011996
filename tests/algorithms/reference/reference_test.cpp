// wg::reference on small hand-made graphs with known answers, and on random multigraphs
// (self-loops and duplicates included) against brute-force models written here on an
// adjacency matrix.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <queue>
#include <random>
#include <utility>
#include <vector>

#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/containers/core/error.hpp>

namespace {

using wg::EdgeList;
using wg::vertex_t;
namespace ref = wg::reference;
constexpr double kInf = std::numeric_limits<double>::infinity();

EdgeList make(std::uint64_t n, std::vector<std::pair<vertex_t, vertex_t>> entries,
              bool symmetric = true, std::vector<double> weights = {}) {
  EdgeList e;
  e.num_vertices = n;
  e.symmetric = symmetric;
  for (auto [u, v] : entries) {
    e.src.push_back(u);
    e.dst.push_back(v);
  }
  e.weight = std::move(weights);
  return e;
}

EdgeList path5() {
  return make(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}});
}
EdgeList star6() {
  return make(6, {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}});
}
EdgeList k4() {
  return make(4, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}});
}
// Triangle {0,1,2}, edge {5,6}, isolated 3, 4 and 7.
EdgeList pieces() {
  return make(8, {{0, 1}, {1, 2}, {2, 0}, {5, 6}});
}

// ---------------------------------------------------------------- triangles
TEST(ReferenceTriangles, HandMadeGraphs) {
  EXPECT_EQ(ref::triangle_count(path5()).total, 0u);
  EXPECT_EQ(ref::triangle_count(star6()).total, 0u);
  const auto t = ref::triangle_count(k4());
  EXPECT_EQ(t.total, 4u);
  EXPECT_EQ(t.per_vertex, (std::vector<std::uint64_t>{3, 3, 3, 3}));
  const auto p = ref::triangle_count(pieces());
  EXPECT_EQ(p.total, 1u);
  EXPECT_EQ(p.per_vertex, (std::vector<std::uint64_t>{1, 1, 1, 0, 0, 0, 0, 0}));
}

TEST(ReferenceTriangles, SelfLoopsDuplicatesAndDirectionIgnored) {
  // One triangle written with every edge twice (both orientations), plus self-loops, as a
  // directed list: triangle counting always uses the undirected simple graph.
  const auto e = make(3, {{0, 1}, {1, 0}, {1, 2}, {2, 1}, {2, 0}, {0, 2}, {0, 0}, {1, 1}, {0, 1}},
                      /*symmetric=*/false);
  const auto t = ref::triangle_count(e);
  EXPECT_EQ(t.total, 1u);
  EXPECT_EQ(t.per_vertex, (std::vector<std::uint64_t>{1, 1, 1}));
}

TEST(ReferenceTriangles, EmptyAndEdgeless) {
  EXPECT_EQ(ref::triangle_count(make(0, {})).total, 0u);
  const auto t = ref::triangle_count(make(3, {}));
  EXPECT_EQ(t.total, 0u);
  EXPECT_EQ(t.per_vertex.size(), 3u);
}

// ---------------------------------------------------------------- BFS
TEST(ReferenceBfs, PathStarK4) {
  EXPECT_EQ(ref::bfs_levels(path5(), 0), (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(ref::bfs_levels(path5(), 2), (std::vector<std::int64_t>{2, 1, 0, 1, 2}));
  EXPECT_EQ(ref::bfs_levels(star6(), 3), (std::vector<std::int64_t>{1, 2, 2, 0, 2, 2}));
  EXPECT_EQ(ref::bfs_levels(k4(), 1), (std::vector<std::int64_t>{1, 0, 1, 1}));
}

TEST(ReferenceBfs, UnreachedPieces) {
  const auto u = ref::kUnreached;
  EXPECT_EQ(ref::bfs_levels(pieces(), 0), (std::vector<std::int64_t>{0, 1, 1, u, u, u, u, u}));
  EXPECT_EQ(ref::bfs_levels(pieces(), 6), (std::vector<std::int64_t>{u, u, u, u, u, 1, 0, u}));
  EXPECT_EQ(ref::bfs_levels(pieces(), 7), (std::vector<std::int64_t>{u, u, u, u, u, u, u, 0}));
}

TEST(ReferenceBfs, DirectedFollowsArcsOnly) {
  const auto e = make(4, {{0, 1}, {1, 2}, {3, 2}}, /*symmetric=*/false);
  const auto u = ref::kUnreached;
  EXPECT_EQ(ref::bfs_levels(e, 0, /*directed=*/true), (std::vector<std::int64_t>{0, 1, 2, u}));
  EXPECT_EQ(ref::bfs_levels(e, 2, /*directed=*/true), (std::vector<std::int64_t>{u, u, 0, u}));
  EXPECT_EQ(ref::bfs_levels(e, 0, /*directed=*/false), (std::vector<std::int64_t>{0, 1, 2, 3}));
  // A symmetric list is undirected whatever `directed` says.
  auto s = e;
  s.symmetric = true;
  EXPECT_EQ(ref::bfs_levels(s, 2, /*directed=*/true), (std::vector<std::int64_t>{2, 1, 0, 1}));
}

TEST(ReferenceBfs, SourceOutOfRangeThrows) {
  EXPECT_THROW(ref::bfs_levels(path5(), 5), wg::InvalidArgument);
  EXPECT_THROW(ref::bfs_levels(make(0, {}), 0), wg::InvalidArgument);
}

// ---------------------------------------------------------------- components
TEST(ReferenceComponents, CanonicalLabels) {
  const auto c = ref::connected_components(pieces());
  EXPECT_EQ(c.count, 5u);
  EXPECT_EQ(c.component, (std::vector<vertex_t>{0, 0, 0, 3, 4, 5, 5, 7}));
  EXPECT_EQ(ref::connected_components(k4()).count, 1u);
  EXPECT_EQ(ref::connected_components(make(0, {})).count, 0u);
}

TEST(ReferenceComponents, LabelIsSmallestIdEvenWhenDiscoveredLate) {
  // Component {1, 4} is reached from neither 0 nor 2; its label must be 1.
  const auto c = ref::connected_components(make(5, {{4, 1}, {2, 3}, {3, 0}}, false));
  EXPECT_EQ(c.count, 2u);
  EXPECT_EQ(c.component, (std::vector<vertex_t>{0, 1, 0, 0, 1}));
}

TEST(ReferenceComponents, DirectedListGivesWeakComponents) {
  const auto c = ref::connected_components(make(4, {{0, 1}, {2, 1}, {3, 3}}, false));
  EXPECT_EQ(c.count, 2u);
  EXPECT_EQ(c.component, (std::vector<vertex_t>{0, 0, 0, 3}));
}

// ---------------------------------------------------------------- SSSP
TEST(ReferenceSssp, ShortcutAndUnreachable) {
  // 0-2 directly costs 5, through 1 costs 2; 4 is isolated.
  const auto e = make(5, {{0, 1}, {1, 2}, {0, 2}, {2, 3}}, true, {1, 1, 5, 1.5});
  EXPECT_EQ(ref::sssp(e, 0), (std::vector<double>{0, 1, 2, 3.5, kInf}));
  EXPECT_EQ(ref::sssp(e, 3), (std::vector<double>{3.5, 2.5, 1.5, 0, kInf}));
}

TEST(ReferenceSssp, DirectedAndDuplicatesKeepMinimum) {
  // Arcs: 0->1 (4 and a duplicate 0.5 ... 10), 0->2 (1), 2->1 (2), 1->3 (1), 3->0 (1).
  const auto e = make(4, {{0, 1}, {0, 2}, {2, 1}, {1, 3}, {0, 1}, {3, 0}, {0, 1}}, false,
                      {4, 1, 2, 1, 2.5, 1, 10});
  EXPECT_EQ(ref::sssp(e, 0, /*directed=*/true), (std::vector<double>{0, 2.5, 1, 3.5}));
  EXPECT_EQ(ref::sssp(e, 1, /*directed=*/true), (std::vector<double>{2, 0, 3, 1}));
  // Undirected: 1-3 and 3-0 give 0..1 = 2 as well; 1 -> 2 via 0 (2 + 1) or direct (2).
  EXPECT_EQ(ref::sssp(e, 1, /*directed=*/false), (std::vector<double>{2, 0, 2, 1}));
}

TEST(ReferenceSssp, UnweightedIsHopCount) {
  const auto d = ref::sssp(pieces(), 1);
  EXPECT_EQ(d, (std::vector<double>{1, 0, 1, kInf, kInf, kInf, kInf, kInf}));
}

TEST(ReferenceSssp, BadInputThrows) {
  EXPECT_THROW(ref::sssp(make(3, {{0, 1}, {1, 2}}, true, {1, -0.5}), 0), wg::InvalidArgument);
  EXPECT_THROW(ref::sssp(make(3, {{0, 1}, {1, 2}}, true, {1, std::nan("")}), 0),
               wg::InvalidArgument);
  EXPECT_THROW(ref::sssp(path5(), 9), wg::InvalidArgument);
}

// ---------------------------------------------------------------- core numbers
TEST(ReferenceCores, HandMadeGraphs) {
  // K4 with a pendant vertex 4 on 0 and an isolated vertex 5.
  const auto e = make(6, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}, {0, 4}});
  EXPECT_EQ(ref::core_numbers(e), (std::vector<std::uint32_t>{3, 3, 3, 3, 1, 0}));
  EXPECT_EQ(ref::core_numbers(path5()), (std::vector<std::uint32_t>(5, 1)));
  EXPECT_EQ(ref::core_numbers(star6()), (std::vector<std::uint32_t>(6, 1)));
  EXPECT_TRUE(ref::core_numbers(make(0, {})).empty());
}

// ---------------------------------------------------------------- stats
TEST(ReferenceStats, PathAndPieces) {
  const auto s = ref::graph_stats(path5());
  EXPECT_EQ(s.vertices, 5u);
  EXPECT_EQ(s.edges, 4u);
  EXPECT_EQ(s.degree_min, 1u);
  EXPECT_EQ(s.degree_max, 2u);
  EXPECT_DOUBLE_EQ(s.degree_avg, 1.6);
  EXPECT_NEAR(s.degree_stddev, std::sqrt(0.24), 1e-12);  // degrees 1 2 2 2 1
  EXPECT_EQ(s.components, 1u);

  const auto p = ref::graph_stats(pieces());
  EXPECT_EQ(p.edges, 4u);
  EXPECT_EQ(p.degree_min, 0u);
  EXPECT_EQ(p.degree_max, 2u);
  EXPECT_EQ(p.components, 5u);
}

TEST(ReferenceStats, CountsDroppedSelfLoopsAndDuplicates) {
  // (0,1) three times (once reversed), two self-loops, (1,2) once.
  const auto entries =
      std::vector<std::pair<vertex_t, vertex_t>>{{0, 1}, {1, 0}, {0, 1}, {1, 1}, {2, 2}, {1, 2}};
  const auto u = ref::graph_stats(make(3, entries, /*symmetric=*/true));
  EXPECT_EQ(u.edges, 2u);
  EXPECT_EQ(u.self_loops_dropped, 2u);
  EXPECT_EQ(u.duplicates_dropped, 2u);
  EXPECT_EQ(u.degree_max, 2u);
  // As arcs: 0->1 (twice), 1->0, 1->2 are 3 distinct arcs; out-degrees 1 2 0.
  const auto d = ref::graph_stats(make(3, entries, /*symmetric=*/false), /*directed=*/true);
  EXPECT_EQ(d.edges, 3u);
  EXPECT_EQ(d.self_loops_dropped, 2u);
  EXPECT_EQ(d.duplicates_dropped, 1u);
  EXPECT_EQ(d.degree_min, 0u);
  EXPECT_EQ(d.degree_max, 2u);
  EXPECT_EQ(d.components, 1u);
}

TEST(ReferenceStats, EmptyGraph) {
  const auto s = ref::graph_stats(make(0, {}));
  EXPECT_EQ(s.vertices, 0u);
  EXPECT_EQ(s.edges, 0u);
  EXPECT_EQ(s.components, 0u);
}

TEST(ReferenceInput, MalformedEdgeListsThrow) {
  EXPECT_THROW(ref::graph_stats(make(3, {{0, 3}})), wg::InvalidArgument);
  EXPECT_THROW(ref::triangle_count(make(3, {{5, 1}})), wg::InvalidArgument);
  auto e = make(3, {{0, 1}, {1, 2}});
  e.dst.pop_back();
  EXPECT_THROW(ref::connected_components(e), wg::InvalidArgument);
  EXPECT_THROW(ref::sssp(make(3, {{0, 1}, {1, 2}}, true, {1.0}), 0), wg::InvalidArgument);
}

// ---------------------------------------------------------------- PageRank
// Solves (I - d M) r = (1 - d)/n * 1 by Gaussian elimination with partial pivoting, where
// M[v][u] = 1/outdeg(u) for each arc u->v and 1/n for every v when u is dangling: the fixed
// point of the power iteration that reference.hpp states.
std::vector<double> pagerank_direct(std::size_t n, const std::vector<std::vector<bool>>& arc,
                                    double d) {
  std::vector<std::vector<double>> a(n, std::vector<double>(n + 1, 0.0));
  for (std::size_t u = 0; u < n; ++u) {
    const auto deg = static_cast<double>(std::count(arc[u].begin(), arc[u].end(), true));
    for (std::size_t v = 0; v < n; ++v) {
      const double m = deg == 0 ? 1.0 / static_cast<double>(n) : (arc[u][v] ? 1.0 / deg : 0.0);
      a[v][u] -= d * m;
    }
  }
  for (std::size_t v = 0; v < n; ++v) {
    a[v][v] += 1.0;
    a[v][n] = (1.0 - d) / static_cast<double>(n);
  }
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;
    for (std::size_t r = col + 1; r < n; ++r)
      if (std::abs(a[r][col]) > std::abs(a[pivot][col])) pivot = r;
    std::swap(a[col], a[pivot]);
    for (std::size_t r = 0; r < n; ++r) {
      if (r == col) continue;
      const double f = a[r][col] / a[col][col];
      for (std::size_t k = col; k <= n; ++k) a[r][k] -= f * a[col][k];
    }
  }
  std::vector<double> r(n);
  for (std::size_t v = 0; v < n; ++v) r[v] = a[v][n] / a[v][v];
  return r;
}

std::vector<std::vector<bool>> arc_matrix(const EdgeList& e, bool directed) {
  const auto n = static_cast<std::size_t>(e.num_vertices);
  std::vector<std::vector<bool>> arc(n, std::vector<bool>(n, false));
  for (std::size_t i = 0; i < e.size(); ++i) {
    if (e.src[i] == e.dst[i]) continue;
    arc[e.src[i]][e.dst[i]] = true;
    if (e.symmetric || !directed) arc[e.dst[i]][e.src[i]] = true;
  }
  return arc;
}

void expect_ranks(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t v = 0; v < got.size(); ++v) EXPECT_NEAR(got[v], want[v], 1e-9) << "vertex " << v;
  EXPECT_NEAR(std::accumulate(got.begin(), got.end(), 0.0), 1.0, 1e-12);
}

TEST(ReferencePageRank, DanglingVerticesMatchDirectSolve) {
  // 0->1, 0->2, 1->2; 2 has no out-arcs; 3 is isolated (also dangling); a self-loop on 1 and a
  // duplicate 0->2 are dropped.
  const auto e = make(4, {{0, 1}, {0, 2}, {1, 2}, {1, 1}, {0, 2}}, /*symmetric=*/false);
  for (double d : {0.85, 0.5, 0.99}) {
    ref::PageRankOptions opt;
    opt.damping = d;
    const auto pr = ref::pagerank(e, opt, /*directed=*/true);
    EXPECT_TRUE(pr.converged);
    EXPECT_GT(pr.iterations, 1);
    expect_ranks(pr.rank, pagerank_direct(4, arc_matrix(e, true), d));
  }
}

TEST(ReferencePageRank, SymmetricGraphsClosedForms) {
  // On K4 every vertex has rank 1/4.
  expect_ranks(ref::pagerank(k4()).rank, std::vector<double>(4, 0.25));
  // Star with k leaves, d = 0.85: centre c and leaf l satisfy c + k l = 1 and
  // l = (1-d)/n + d c / k, so c = (1 - k (1-d)/n) / (1 + d).
  const double d = 0.85, k = 5, n = 6;
  const double c = (1 - k * (1 - d) / n) / (1 + d), l = (1 - d) / n + d * c / k;
  expect_ranks(ref::pagerank(star6()).rank, {c, l, l, l, l, l});
}

TEST(ReferencePageRank, IterationLimitAndOptions) {
  const auto e = make(3, {{0, 1}, {1, 2}}, false);
  ref::PageRankOptions opt;
  opt.max_iterations = 0;
  const auto none = ref::pagerank(e, opt, true);
  EXPECT_FALSE(none.converged);
  EXPECT_EQ(none.iterations, 0);
  expect_ranks(none.rank, std::vector<double>(3, 1.0 / 3));
  opt.max_iterations = 2;
  const auto two = ref::pagerank(e, opt, true);
  EXPECT_EQ(two.iterations, 2);
  EXPECT_FALSE(two.converged);
  EXPECT_NEAR(std::accumulate(two.rank.begin(), two.rank.end(), 0.0), 1.0, 1e-12);
  opt = {};
  opt.damping = 1.5;
  EXPECT_THROW(ref::pagerank(e, opt), wg::InvalidArgument);
  opt = {};
  opt.tolerance = -1;
  EXPECT_THROW(ref::pagerank(e, opt), wg::InvalidArgument);
  EXPECT_TRUE(ref::pagerank(make(0, {})).rank.empty());
}

// ---------------------------------------------------------------- random graphs vs models
// n vertices, m entries drawn uniformly (self-loops and duplicates happen), weights in [0, 10).
EdgeList random_multigraph(std::uint32_t n, std::size_t m, bool symmetric, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<vertex_t> id(0, n - 1);
  std::uniform_real_distribution<double> w(0.0, 10.0);
  EdgeList e;
  e.num_vertices = n;
  e.symmetric = symmetric;
  for (std::size_t i = 0; i < m; ++i) {
    e.src.push_back(id(rng));
    e.dst.push_back(id(rng));
    e.weight.push_back(w(rng));
  }
  return e;
}

class ReferenceVsModel : public ::testing::TestWithParam<std::uint32_t> {};

TEST_P(ReferenceVsModel, AllFunctions) {
  const std::uint32_t seed = GetParam();
  const std::uint32_t n = 40 + seed % 25;
  for (bool symmetric : {true, false}) {
    const EdgeList e = random_multigraph(n, 3 * n + seed % 50, symmetric, seed);
    const auto und = arc_matrix(e, /*directed=*/false);
    const auto dir = arc_matrix(e, /*directed=*/true);

    // Triangles: all triples.
    std::uint64_t total = 0;
    std::vector<std::uint64_t> per(n, 0);
    for (std::uint32_t a = 0; a < n; ++a)
      for (std::uint32_t b = a + 1; b < n; ++b)
        for (std::uint32_t c = b + 1; c < n; ++c)
          if (und[a][b] && und[b][c] && und[a][c]) ++total, ++per[a], ++per[b], ++per[c];
    const auto t = ref::triangle_count(e);
    EXPECT_EQ(t.total, total);
    EXPECT_EQ(t.per_vertex, per);

    // BFS from a few sources, both modes.
    for (bool directed : {false, true}) {
      const auto& adj = directed ? dir : und;
      for (vertex_t s : {0u, n / 2, n - 1}) {
        std::vector<std::int64_t> level(n, ref::kUnreached);
        std::queue<vertex_t> q;
        level[s] = 0;
        q.push(s);
        while (!q.empty()) {
          const vertex_t u = q.front();
          q.pop();
          for (vertex_t v = 0; v < n; ++v)
            if (adj[u][v] && level[v] == ref::kUnreached) level[v] = level[u] + 1, q.push(v);
        }
        EXPECT_EQ(ref::bfs_levels(e, s, directed), level) << "source " << s;
      }
    }

    // Components: label propagation to the minimum id until stable.
    std::vector<vertex_t> label(n);
    std::iota(label.begin(), label.end(), 0u);
    for (bool changed = true; changed;) {
      changed = false;
      for (vertex_t u = 0; u < n; ++u)
        for (vertex_t v = 0; v < n; ++v)
          if (und[u][v] && label[v] < label[u]) label[u] = label[v], changed = true;
    }
    std::vector<vertex_t> roots = label;
    std::sort(roots.begin(), roots.end());
    const auto cc = ref::connected_components(e);
    EXPECT_EQ(cc.component, label);
    EXPECT_EQ(cc.count,
              static_cast<std::uint64_t>(std::unique(roots.begin(), roots.end()) - roots.begin()));

    // SSSP: Bellman-Ford on the minimum weight of each (non-loop) arc.
    for (bool directed : {false, true}) {
      std::vector<std::vector<double>> w(n, std::vector<double>(n, kInf));
      for (std::size_t i = 0; i < e.size(); ++i) {
        const vertex_t u = e.src[i], v = e.dst[i];
        if (u == v) continue;
        w[u][v] = std::min(w[u][v], e.weight[i]);
        if (symmetric || !directed) w[v][u] = std::min(w[v][u], e.weight[i]);
      }
      std::vector<double> dist(n, kInf);
      dist[0] = 0;
      for (std::uint32_t round = 0; round < n; ++round)
        for (vertex_t u = 0; u < n; ++u)
          for (vertex_t v = 0; v < n; ++v) dist[v] = std::min(dist[v], dist[u] + w[u][v]);
      const auto got = ref::sssp(e, 0, directed);
      ASSERT_EQ(got.size(), dist.size());
      for (vertex_t v = 0; v < n; ++v) {
        if (std::isinf(dist[v]))
          EXPECT_TRUE(std::isinf(got[v]));
        else
          EXPECT_NEAR(got[v], dist[v], 1e-9) << "vertex " << v;
      }
    }

    // Core numbers: peel a minimum-degree vertex at a time.
    std::vector<std::uint32_t> deg(n, 0), core(n, 0);
    std::vector<bool> removed(n, false);
    for (vertex_t u = 0; u < n; ++u)
      deg[u] = static_cast<std::uint32_t>(std::count(und[u].begin(), und[u].end(), true));
    std::uint32_t k = 0;
    for (std::uint32_t step = 0; step < n; ++step) {
      vertex_t best = 0;
      std::uint32_t best_deg = std::numeric_limits<std::uint32_t>::max();
      for (vertex_t u = 0; u < n; ++u)
        if (!removed[u] && deg[u] < best_deg) best = u, best_deg = deg[u];
      k = std::max(k, best_deg);
      core[best] = k;
      removed[best] = true;
      for (vertex_t v = 0; v < n; ++v)
        if (und[best][v] && !removed[v]) --deg[v];
    }
    EXPECT_EQ(ref::core_numbers(e), core);

    // PageRank: direct solve, both modes.
    for (bool directed : {false, true})
      expect_ranks(ref::pagerank(e, {}, directed).rank,
                   pagerank_direct(n, directed ? dir : und, 0.85));

    // Stats, both modes.
    for (bool directed : {false, true}) {
      const auto& adj = directed ? dir : und;
      std::uint64_t arcs = 0, loops = 0, dmin = n, dmax = 0;
      for (vertex_t u = 0; u < n; ++u) {
        const auto d = static_cast<std::uint64_t>(std::count(adj[u].begin(), adj[u].end(), true));
        arcs += d, dmin = std::min(dmin, d), dmax = std::max(dmax, d);
      }
      for (std::size_t i = 0; i < e.size(); ++i) loops += e.src[i] == e.dst[i];
      const bool undirected = symmetric || !directed;
      const std::uint64_t edges = undirected ? arcs / 2 : arcs;
      const auto s = ref::graph_stats(e, directed);
      EXPECT_EQ(s.vertices, n);
      EXPECT_EQ(s.edges, edges);
      EXPECT_EQ(s.self_loops_dropped, loops);
      EXPECT_EQ(s.duplicates_dropped, e.size() - loops - edges);
      EXPECT_EQ(s.degree_min, dmin);
      EXPECT_EQ(s.degree_max, dmax);
      EXPECT_NEAR(s.degree_avg, static_cast<double>(arcs) / n, 1e-12);
      EXPECT_EQ(s.components, cc.count);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, ReferenceVsModel, ::testing::Range(1u, 13u));

}  // namespace
