// wg::cpu::DynamicGraph against a host model (std::map of arcs + degrees), after every batch:
// random batches with duplicates, self-loops, present and absent edges; weights (last wins);
// vertex deletion with id reuse; directed and undirected; one and two threads.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/graph/cpu/dynamic_graph.hpp>

#include "host_model.hpp"

// Inside wg::cpu: the CPU graph and wg's edge types need no using-declarations.
namespace wg::cpu {
namespace {

using wg::test::GraphModel;

struct Config {
  bool directed;
  bool weighted;
  unsigned threads;
};

std::string config_name(const testing::TestParamInfo<Config>& info) {
  const Config& c = info.param;
  return std::string(c.directed ? "Directed" : "Undirected") +
         (c.weighted ? "Weighted" : "Unweighted") + std::to_string(c.threads) + "Threads";
}

/// `n` random entries over ids [0, bound): about 1/50 self-loops; ids drawn from a small range
/// half of the time so that the batch repeats itself and hits present edges.
EdgeList random_batch(std::mt19937_64& rng, std::size_t n, vertex_t bound, bool weighted,
                      bool symmetric) {
  EdgeList b;
  b.num_vertices = bound;
  b.symmetric = symmetric;
  std::uniform_int_distribution<vertex_t> any(0, bound - 1);
  std::uniform_int_distribution<vertex_t> hot(0, std::min<vertex_t>(bound - 1, 40));
  std::uniform_int_distribution<int> pct(0, 99);
  std::uniform_real_distribution<double> weight(0.5, 8.0);
  for (std::size_t i = 0; i < n; ++i) {
    const int p = pct(rng);
    vertex_t u = p < 50 ? hot(rng) : any(rng);
    vertex_t v = p % 2 ? hot(rng) : any(rng);
    if (p == 7 || p == 77) v = u;
    b.src.push_back(u);
    b.dst.push_back(v);
    if (weighted) b.weight.push_back(std::round(weight(rng) * 4) / 4);
  }
  return b;
}

void expect_same(const DynamicGraph& g, const GraphModel& m, const std::string& where) {
  SCOPED_TRACE(where);
  ASSERT_EQ(g.num_vertices(), m.num_vertices());
  ASSERT_EQ(g.num_edges(), m.num_edges());
  const EdgeList got = g.export_coo();
  const EdgeList want = m.coo();
  ASSERT_EQ(got.symmetric, want.symmetric);
  ASSERT_EQ(got.src, want.src);
  ASSERT_EQ(got.dst, want.dst);
  ASSERT_EQ(got.weight, want.weight);
  ASSERT_EQ(g.degrees(), m.degrees());
  // CSR agrees with the arcs, both directions for undirected graphs.
  const wg::cpu::Csr csr = g.export_csr();
  ASSERT_EQ(csr.num_vertices, m.num_vertices());
  std::size_t i = 0;
  for (auto& [arc, w] : m.arcs()) {
    ASSERT_LT(i, csr.targets.size());
    ASSERT_GE(i, csr.offsets[arc.first]);
    ASSERT_LT(i, csr.offsets[arc.first + 1]);
    ASSERT_EQ(csr.targets[i], arc.second);
    if (g.weighted()) ASSERT_EQ(csr.values[i], w);
    ++i;
  }
  ASSERT_EQ(i, csr.targets.size());
  // Neighbour iteration and in-neighbours.
  std::vector<std::vector<vertex_t>> in(m.num_vertices());
  for (auto& [arc, w] : m.arcs()) in[arc.second].push_back(arc.first);
  for (vertex_t v = 0; v < m.num_vertices(); ++v) {
    std::vector<vertex_t> nb;
    g.neighbors(v, nb);
    ASSERT_EQ(nb.size(), g.degree(v));
    std::vector<vertex_t> in_nb;
    g.for_each_in_neighbor(v, [&](vertex_t u) { in_nb.push_back(u); });
    ASSERT_EQ(in_nb, in[v]) << "in-neighbours of " << v;
    ASSERT_EQ(g.in_degree(v), in[v].size());
    ASSERT_EQ(g.is_vertex(v), m.alive(v));
  }
}

class CpuGraphModel : public testing::TestWithParam<Config> {
 protected:
  DynamicGraph make() const {
    GraphOptions o;
    o.directed = GetParam().directed;
    o.weighted = GetParam().weighted;
    o.threads = GetParam().threads;
    return DynamicGraph(o);
  }
};

TEST_P(CpuGraphModel, RandomBatchesMatchModel) {
  const Config c = GetParam();
  std::mt19937_64 rng(12345 + c.directed * 2 + c.weighted);
  DynamicGraph g = make();
  GraphModel m(c.directed, c.weighted);
  const vertex_t bound = 600;
  EdgeList initial = random_batch(rng, 3000, bound, c.weighted, !c.directed);
  wg::UpdateResult want;
  m.build(initial, &want);
  EXPECT_EQ(g.build(initial), want);
  expect_same(g, m, "after build");
  for (int round = 0; round < 12; ++round) {
    // Large batches cross the thresholds where work is split over threads.
    const std::size_t n = round % 3 == 0 ? 9000 : 700;
    const vertex_t ids = round == 5 ? bound + 50 : bound;  // round 5: ids beyond the range
    EdgeList b = random_batch(rng, n, ids, c.weighted, !c.directed);
    const bool erase = round % 2 == 1;
    const wg::UpdateResult got = erase ? g.erase_edges(b) : g.insert_edges(b);
    const wg::UpdateResult exp = erase ? m.erase(b) : m.insert(b);
    EXPECT_EQ(got, exp) << "round " << round;
    EXPECT_EQ(got.entries(), b.size());
    expect_same(g, m, "round " + std::to_string(round));
  }
  // has_edges on random queries (present and absent).
  EdgeList q = random_batch(rng, 5000, bound + 60, false, !c.directed);
  const std::vector<std::uint8_t> found = g.has_edges(q);
  for (std::size_t i = 0; i < q.size(); ++i) {
    const bool want_found = m.arcs().count({q.src[i], q.dst[i]}) > 0;
    ASSERT_EQ(found[i] != 0, want_found) << q.src[i] << "-" << q.dst[i];
    ASSERT_EQ(g.has_edge(q.src[i], q.dst[i]), want_found);
  }
}

TEST_P(CpuGraphModel, VertexDeletionAndIdReuse) {
  const Config c = GetParam();
  std::mt19937_64 rng(777 + c.directed);
  DynamicGraph g = make();
  GraphModel m(c.directed, c.weighted);
  EdgeList initial = random_batch(rng, 6000, 300, c.weighted, !c.directed);
  m.build(initial);
  g.build(initial);
  for (int round = 0; round < 6; ++round) {
    std::vector<vertex_t> victims;
    std::uniform_int_distribution<vertex_t> pick(0, static_cast<vertex_t>(m.num_vertices() - 1));
    for (int i = 0; i < 25; ++i) victims.push_back(pick(rng));
    victims.push_back(victims.front());  // a repeat: ignored
    const wg::VertexEraseResult got = g.erase_vertices(victims);
    const wg::VertexEraseResult want = m.erase_vertices(victims);
    EXPECT_EQ(got.vertices, want.vertices);
    EXPECT_EQ(got.ignored_ids, want.ignored_ids);
    EXPECT_EQ(got.edges_removed, want.edges_removed);
    expect_same(g, m, "after erase_vertices, round " + std::to_string(round));
    // Edges naming an erased vertex are ignored.
    EdgeList b =
        random_batch(rng, 2000, static_cast<vertex_t>(m.num_vertices()), c.weighted, !c.directed);
    EXPECT_EQ(g.insert_edges(b), m.insert(b));
    expect_same(g, m, "after insert on erased ids, round " + std::to_string(round));
    // Re-insert some vertices: freed ids come back first, oldest first, then fresh ids.
    const std::uint64_t count = 10 + round * 6;
    EdgeList with;
    with.symmetric = !c.directed;
    for (vertex_t i = 0; i < count; ++i) {
      with.src.push_back(wg::new_vertex(i));
      with.dst.push_back(i % 2 ? wg::new_vertex((i + 1) % count) : pick(rng));
      if (c.weighted) with.weight.push_back(1.5 + i);
    }
    const wg::VertexInsertResult ins = g.insert_vertices(count, with);
    const std::vector<vertex_t> ids = m.insert_vertices(count);
    ASSERT_EQ(ins.ids, ids);
    EdgeList translated = with;
    for (std::size_t i = 0; i < with.size(); ++i) {
      auto tr = [&](vertex_t v) { return v & wg::kNewVertexTag ? ids[v & ~wg::kNewVertexTag] : v; };
      translated.src[i] = tr(with.src[i]);
      translated.dst[i] = tr(with.dst[i]);
    }
    EXPECT_EQ(ins.edges, m.insert(translated));
    expect_same(g, m, "after insert_vertices, round " + std::to_string(round));
  }
}

INSTANTIATE_TEST_SUITE_P(AllKinds, CpuGraphModel,
                         testing::Values(Config{false, false, 1}, Config{false, false, 2},
                                         Config{true, false, 2}, Config{false, true, 2},
                                         Config{true, true, 1}),
                         config_name);

TEST(CpuGraph, WeightsLastOneInBatchWinsAndUpdatesPresentEdges) {
  GraphOptions o;
  o.weighted = true;
  DynamicGraph g(4, o);
  EdgeList b;
  b.symmetric = true;
  b.src = {0, 1, 2, 1};
  b.dst = {1, 0, 3, 2};
  b.weight = {1.0, 2.0, 3.0, 4.0};
  const wg::UpdateResult r = g.insert_edges(b);
  EXPECT_EQ(r.applied, 3u);
  EXPECT_EQ(r.duplicates, 1u);
  EXPECT_EQ(g.edge_weight(0, 1), 2.0f);  // {1,0} came last
  EXPECT_EQ(g.edge_weight(1, 0), 2.0f);
  EdgeList again;
  again.symmetric = true;
  again.src = {3};
  again.dst = {2};
  again.weight = {9.0};
  const wg::UpdateResult r2 = g.insert_edges(again);
  EXPECT_EQ(r2.applied, 0u);
  EXPECT_EQ(r2.ignored, 1u);
  EXPECT_EQ(g.edge_weight(2, 3), 9.0f);
  EXPECT_EQ(g.edge_weight(3, 2), 9.0f);
  EXPECT_EQ(g.num_edges(), 3u);
}

TEST(CpuGraph, BuildMatchesIncrementalInsertionOnRmat) {
  wg::datasets::RmatParams p;
  p.scale = 13;
  p.edge_factor = 8;
  const EdgeList e = wg::datasets::generate_rmat(p);
  GraphOptions o;
  o.threads = 2;
  DynamicGraph built(o), grown(o);
  const wg::UpdateResult rb = built.build(e);
  wg::UpdateResult total;
  grown.build(EdgeList{e.num_vertices, {}, {}, {}, true});
  const std::size_t step = 10000;
  for (std::size_t at = 0; at < e.size(); at += step) {
    EdgeList b;
    b.symmetric = true;
    const std::size_t end = std::min(e.size(), at + step);
    b.src.assign(e.src.begin() + at, e.src.begin() + end);
    b.dst.assign(e.dst.begin() + at, e.dst.begin() + end);
    total += grown.insert_edges(b);
  }
  EXPECT_EQ(rb.applied, total.applied);
  EXPECT_EQ(rb.self_loops, total.self_loops);
  EXPECT_EQ(rb.duplicates + 0, total.duplicates + total.ignored);
  const EdgeList a = built.export_coo(), c = grown.export_coo();
  EXPECT_EQ(a.src, c.src);
  EXPECT_EQ(a.dst, c.dst);
  EXPECT_EQ(built.degrees(), grown.degrees());
  // Erase everything in two batches: the graph is empty again, degrees all zero.
  EdgeList first = a, second = a;
  first.src.resize(a.size() / 2);
  first.dst.resize(a.size() / 2);
  second.src.erase(second.src.begin(), second.src.begin() + a.size() / 2);
  second.dst.erase(second.dst.begin(), second.dst.begin() + a.size() / 2);
  EXPECT_EQ(grown.erase_edges(second).applied + grown.erase_edges(first).applied, a.size());
  EXPECT_EQ(grown.num_edges(), 0u);
  for (auto d : grown.degrees()) ASSERT_EQ(d, 0u);
}

TEST(CpuGraph, LargeBatchesOnFourThreadsMatchModel) {
  // Batches far above the per-thread grain: four threads insert into and erase from the one
  // BS-tree at once (both arcs of each edge, degrees by atomics).
  for (bool weighted : {false, true}) {
    GraphOptions o;
    o.threads = 4;
    o.weighted = weighted;
    DynamicGraph g(o);
    GraphModel m(false, weighted);
    std::mt19937_64 rng(4242 + weighted);
    EdgeList initial = random_batch(rng, 40000, 1 << 13, weighted, true);
    m.build(initial);
    g.build(initial);
    for (int round = 0; round < 4; ++round) {
      EdgeList b = random_batch(rng, 60000, 1 << 13, weighted, true);
      const bool erase = round % 2 == 1;
      EXPECT_EQ(erase ? g.erase_edges(b) : g.insert_edges(b), erase ? m.erase(b) : m.insert(b));
      expect_same(g, m, "round " + std::to_string(round));
    }
  }
}

TEST(CpuGraph, TreeReservationsGrowFromSmallAcrossBatches) {
  // The trees start with a reservation of a few thousand leaves and grow, between batches, by
  // moving into trees twice as large: an empty graph fed 300k distinct edges (far more than the
  // first reservation holds) in batches must match the model after every growth, on one thread
  // (single-writer trees) and on two, weighted and directed too.
  for (unsigned threads : {1u, 2u}) {
    for (bool directed : {false, true}) {
      GraphOptions o;
      o.threads = threads;
      o.directed = directed;
      o.weighted = directed;  // one weighted configuration is enough
      DynamicGraph g(o);
      GraphModel m(directed, o.weighted);
      std::mt19937_64 rng(77 + threads + 10 * directed);
      for (int round = 0; round < 12; ++round) {
        EdgeList b = random_batch(rng, 25000, 1u << 20, o.weighted, !directed);
        EXPECT_EQ(g.insert_edges(b), m.insert(b)) << "round " << round;
        if (round % 4 == 3) {
          EdgeList e = random_batch(rng, 5000, 1u << 20, o.weighted, !directed);
          EXPECT_EQ(g.erase_edges(e), m.erase(e)) << "round " << round;
        }
      }
      expect_same(g, m, "after growth");
    }
  }
}

TEST(CpuGraph, BadInputIsRefused) {
  DynamicGraph g;
  EdgeList bad;
  bad.src = {0, 1};
  bad.dst = {1};
  EXPECT_THROW(g.insert_edges(bad), wg::InvalidArgument);
  EdgeList tagged;
  tagged.src = {wg::new_vertex(3)};
  tagged.dst = {1};
  EXPECT_EQ(g.insert_edges(tagged).ignored, 1u);  // beyond the id range: ignored, as on the GPU
  EXPECT_THROW(g.build(tagged), wg::InvalidArgument);               // ids must be below 2^31
  EXPECT_THROW(g.insert_vertices(2, tagged), wg::InvalidArgument);  // new_vertex(3) of 2
  EXPECT_EQ(g.num_vertices(), 0u);  // nothing was added by the refused call
  GraphOptions d;
  d.directed = true;
  EXPECT_EQ(DynamicGraph(d).has_edges(EdgeList{}).size(), 0u);
}

}  // namespace

// One batch thread gives single-writer trees; set_threads moves the arcs (and weights) between
// the two tree kinds, and updates go on working in either.
TEST(CpuGraph, SetThreadsSwitchesTreeKindAndKeepsArcs) {
  for (bool weighted : {false, true}) {
    for (bool directed : {false, true}) {
      GraphOptions o;
      o.threads = 1;
      o.weighted = weighted;
      o.directed = directed;
      DynamicGraph g(o), model(GraphOptions{directed, weighted, 2});
      wg::datasets::RmatParams p;
      p.scale = 10;
      p.edge_factor = 8;
      EdgeList e = wg::datasets::generate_rmat(p);
      if (weighted) {
        e.weight.resize(e.size());
        for (std::size_t i = 0; i < e.size(); ++i) e.weight[i] = static_cast<float>(i % 7);
      }
      g.build(e);
      model.build(e);
      for (unsigned threads : {3u, 1u, 2u}) {
        g.set_threads(threads);
        EdgeList b;
        b.symmetric = e.symmetric;
        for (std::size_t i = threads; i < e.size(); i += 5) {
          b.src.push_back(e.dst[i]);
          b.dst.push_back(e.src[i] ^ threads);
          if (weighted) b.weight.push_back(static_cast<float>(threads));
        }
        EXPECT_EQ(g.insert_edges(b).applied, model.insert_edges(b).applied);
        const EdgeList a = g.export_coo(), m = model.export_coo();
        ASSERT_EQ(a.src, m.src);
        ASSERT_EQ(a.dst, m.dst);
        ASSERT_EQ(a.weight, m.weight);
        EXPECT_EQ(g.degrees(), model.degrees());
      }
    }
  }
}

}  // namespace wg::cpu
