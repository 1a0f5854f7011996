// GPU connected components: static labels on every shared dataset and on directed R-MAT graphs
// (weakly connected), and dynamic labels after every batch of R-MAT insert/delete streams
// (undirected and directed, sparse and dense; duplicates, self-loops, absent edges; the
// deletion certificates, the restricted split and the recompute paths, certificates on and off),
// after hand-made batches (each certificate case, with the tier it must take) and after vertex
// deletions, all equal to the Boost.Graph reference on an independent host model of the graph.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/algorithms/wcc/gpu/wcc.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#include "../../support/test_support.hpp"
#include "../gpu_test_support.hpp"

namespace {

using wg::EdgeList;
using namespace wg::test;  // the GPU test vocabulary (gpu_test_support.hpp)

void expect_reference(const GraphModel& m, const wg::gpu::Components& got) {
  const auto want = wg::reference::connected_components(wg::test::reference_edges(m));
  ASSERT_EQ(got.component, want.component);
  ASSERT_EQ(got.count, want.count);
}

WG_BUNDLED_GRAPHS_TEST(SharedDatasets, StaticComponentsEqualReference) {
  WG_REQUIRE_GPU();
  WG_REQUIRE_DATASET(path, GetParam());
  const EdgeList e = wg::test::unweighted_edges(path);
  const auto want = wg::reference::connected_components(e);
  wg::test::on_set_and_map(e, [&](const auto& g) {
    const auto got = wg::gpu::connected_components(g);
    EXPECT_EQ(got.component, want.component);
    EXPECT_EQ(got.count, want.count);
  });
}

TEST(GpuComponents, DirectedIsWeak) {
  WG_REQUIRE_GPU();
  const wg::test::RmatGraph in(2, 5, true);
  expect_reference(in.model, wg::gpu::connected_components(in.graph));
}

TEST(GpuDynamicComponents, HandMadeBatches) {
  WG_REQUIRE_GPU();
  for (double fraction : {1.0, 0.0}) {
    SetGraph g(10);
    GraphModel m(10, false);
    wg::gpu::DynamicComponents<SetGraph> dyn(g, {}, {.recompute_fraction = fraction});
    EXPECT_EQ(dyn.count(), 10u);
    const EdgeList steps[] = {
        batch(10, {{0, 1}, {1, 2}, {2, 1}, {3, 3}}),  // path 0-1-2, a repeat, a self-loop
        batch(10, {{5, 6}, {6, 7}, {7, 5}, {0, 1}}),  // triangle 5-6-7, one present edge
        batch(10, {{2, 5}, {9, 8}}),                  // joins {0,1,2} and {5,6,7}
    };
    for (const EdgeList& b : steps) {
      const auto r = dyn.insert_edges(b);
      ASSERT_EQ(r.update, m.insert(b));
      expect_reference(m, dyn.result());
    }
    const EdgeList dels[] = {
        batch(10, {{2, 5}, {5, 2}, {4, 3}}),  // splits again; a repeat, an absent edge
        batch(10, {{5, 6}}),                  // the triangle stays connected
        batch(10, {{0, 1}, {8, 9}, {6, 7}}),  // more splits
    };
    for (const EdgeList& b : dels) {
      const auto before = dyn.result();
      const auto r = dyn.erase_edges(b);
      ASSERT_EQ(r.update, m.erase(b));
      expect_reference(m, dyn.result());
      EXPECT_EQ(r.changed, wg::count_changed(before.component, dyn.result().component));
    }
  }
}

/// Builds `edges` on n vertices, erases `dels` through DynamicComponents (certificates on, the
/// restricted path for what they leave), checks the labels, the changed count and the stats.
struct DeletionCase {
  std::uint64_t n;
  std::vector<std::pair<wg::vertex_t, wg::vertex_t>> edges, dels;
  wg::gpu::DeletionStats want;  ///< the tiers this one batch must take
};

void run_deletion_case(const DeletionCase& c, const wg::gpu::ComponentsTuning& tuning,
                       bool check_stats) {
  SetGraph g(c.n);
  GraphModel m(c.n, false);
  const EdgeList e = batch(c.n, c.edges);
  g.build(e);
  m.insert(e);
  wg::gpu::DynamicComponents<SetGraph> dyn(g, {}, tuning);
  expect_reference(m, dyn.result());
  const auto before = dyn.result();
  const EdgeList d = batch(c.n, c.dels);
  const auto r = dyn.erase_edges(d);
  ASSERT_EQ(r.update, m.erase(d));
  expect_reference(m, dyn.result());
  EXPECT_EQ(r.changed, wg::count_changed(before.component, dyn.result().component));
  if (!check_stats) return;
  const wg::gpu::DeletionStats& s = dyn.deletion_stats();
  EXPECT_EQ(s.certified, c.want.certified);
  EXPECT_EQ(s.isolated, c.want.isolated);
  EXPECT_EQ(s.pieces, c.want.pieces);
  EXPECT_EQ(s.undecided, c.want.undecided);
  EXPECT_EQ(s.searched, c.want.searched);
  EXPECT_EQ(s.restricted, c.want.restricted);
  EXPECT_EQ(s.recomputed, c.want.recomputed);
  EXPECT_EQ(s.direct, c.want.direct);
  EXPECT_EQ(r.recomputed, c.want.recomputed > 0);
}

/// A path 0 - 1 - ... - (len - 1) starting at `first`.
void add_path(std::vector<std::pair<wg::vertex_t, wg::vertex_t>>& es, wg::vertex_t first,
              wg::vertex_t len) {
  for (wg::vertex_t i = 0; i + 1 < len; ++i) es.emplace_back(first + i, first + i + 1);
}

/// A case on n ids: a path of `len` vertices from `first` (closed into a cycle, last to first,
/// when `cycle`), the edges `dels` deleted in one batch, which must take the tiers `want`.
DeletionCase ring_case(wg::vertex_t n, wg::vertex_t first, wg::vertex_t len, bool cycle,
                       std::vector<std::pair<wg::vertex_t, wg::vertex_t>> dels,
                       wg::gpu::DeletionStats want) {
  DeletionCase c{.n = n, .dels = std::move(dels), .want = want};
  add_path(c.edges, first, len);
  if (cycle) c.edges.emplace_back(first + len - 1, first);
  return c;
}

TEST(GpuDynamicComponents, DeletionCertificates) {
  WG_REQUIRE_GPU();
  std::vector<DeletionCase> cases;
  // Triangle 0-1-2 plus a tail: (0, 1) has the common neighbour 2.
  cases.push_back({.n = 6,
                   .edges = {{0, 1}, {1, 2}, {2, 0}, {2, 3}},
                   .dels = {{0, 1}},
                   .want = {.certified = 1}});
  // 4-cycle 1-2-3-4: after (1, 2) goes, 1 - 4 - 3 - 2 is a walk of length 3.
  cases.push_back({.n = 6,
                   .edges = {{1, 2}, {2, 3}, {3, 4}, {4, 1}},
                   .dels = {{1, 2}},
                   .want = {.certified = 1}});
  // 7-cycle: the endpoints stay connected only by a walk of length 6, which the bounded search
  // finds.
  cases.push_back(ring_case(9, 1, 7, true, {{3, 4}}, {.certified = 1}));
  // A 200-cycle: past the search's reach, undecided; the component is recomputed alone.
  cases.push_back(ring_case(202, 1, 200, true, {{100, 101}}, {.undecided = 1, .restricted = 1}));
  // A leaf splits off alone: certified without recomputing; its label moves.
  cases.push_back({.n = 6,
                   .edges = {{1, 2}, {2, 3}, {3, 1}, {3, 5}},
                   .dels = {{3, 5}},
                   .want = {.isolated = 1}});
  // A hub 4 whose edges all go: its partners 1, 2, 3 stay connected through 5 (the pairs
  // (2, 1) and (3, 1) with its smallest partner are certified).
  cases.push_back({.n = 7,
                   .edges = {{4, 1}, {4, 2}, {4, 3}, {1, 5}, {2, 5}, {3, 5}},
                   .dels = {{4, 1}, {2, 4}, {4, 3}},
                   .want = {.certified = 2, .isolated = 1}});
  // A hub 8 between two triangles that nothing else joins: the pair of its partners is
  // undecided and the component is recomputed (it splits in three).
  cases.push_back({.n = 9,
                   .edges = {{8, 2}, {8, 5}, {2, 3}, {3, 4}, {4, 2}, {5, 6}, {6, 7}, {7, 5}},
                   .dels = {{2, 8}, {5, 8}},
                   .want = {.isolated = 1, .undecided = 1, .restricted = 1}});
  // The component's smallest id is isolated: the rest's label is unknown, so recomputed.
  cases.push_back({.n = 5,
                   .edges = {{0, 1}, {1, 2}, {2, 3}, {3, 1}},
                   .dels = {{0, 1}},
                   .want = {.undecided = 1, .restricted = 1}});
  // An edge of two vertices: both left isolated, the component was {1, 2}; 2 moves.
  cases.push_back({.n = 5, .edges = {{1, 2}, {3, 4}}, .dels = {{1, 2}}, .want = {.isolated = 1}});
  // A path 1-2-3 cut twice: all three isolated; (1, 2) joins two isolated vertices, 2 had two
  // removed edges: undecided, recomputed alone.
  cases.push_back({.n = 5,
                   .edges = {{1, 2}, {2, 3}},
                   .dels = {{1, 2}, {2, 3}},
                   .want = {.undecided = 2, .restricted = 1}});
  // A piece of two vertices splits off a triangle (the search from 3 exhausts the triangle
  // first, which holds the label, so the other side is searched).
  cases.push_back({.n = 8,
                   .edges = {{1, 2}, {2, 3}, {3, 1}, {3, 4}, {4, 5}},
                   .dels = {{3, 4}},
                   .want = {.pieces = 1}});
  // The same, but the piece 4-5 also touches the removed (5, 6): undecided (the triangle holds
  // the label 1, so it is no piece either), and 6 isolated; recomputed alone.
  cases.push_back({.n = 8,
                   .edges = {{1, 2}, {2, 3}, {3, 1}, {3, 4}, {4, 5}, {5, 6}},
                   .dels = {{3, 4}, {5, 6}},
                   .want = {.isolated = 1, .undecided = 1, .restricted = 1}});
  // A 100-cycle with a path 100-101-102 hanging from 50: cutting (50, 100) splits the piece off;
  // cutting (101, 102) as well touches the piece, which is then undecided (102 isolated).
  for (const bool both : {false, true}) {
    DeletionCase c{.n = 110};
    add_path(c.edges, 0, 100);
    c.edges.emplace_back(99, 0);
    c.edges.emplace_back(50, 100);
    add_path(c.edges, 100, 3);
    c.dels = {{50, 100}};
    if (both) c.dels.emplace_back(101, 102);
    c.want = both ? wg::gpu::DeletionStats{.isolated = 1, .undecided = 1, .restricted = 1}
                  : wg::gpu::DeletionStats{.pieces = 1};
    cases.push_back(c);
  }
  // Mixed: one certified, one isolated, in one component (all decided).
  cases.push_back({.n = 8,
                   .edges = {{1, 2}, {2, 3}, {3, 1}, {3, 4}, {3, 6}, {4, 6}, {6, 7}},
                   .dels = {{1, 2}, {6, 7}, {3, 4}},
                   .want = {.certified = 2, .isolated = 1}});
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE("case " + std::to_string(i));
    // The first tier alone (the second tier would decide some of the undecided ones).
    run_deletion_case(cases[i], {.recompute_fraction = 1.0, .search_arcs_per_edge = 0}, true);
    // Both tiers, and certificates off: the same answers.
    run_deletion_case(cases[i], {.recompute_fraction = 1.0}, false);
    run_deletion_case(cases[i], {.recompute_fraction = 1.0, .certify_fraction = 0}, false);
  }
}

TEST(GpuDynamicComponents, BigSplitFallsBack) {
  WG_REQUIRE_GPU();
  // A long path cut in the middle: undecided, and the component holds every id, so the static
  // computation runs (default recompute_fraction).
  DeletionCase c{.n = 400, .want = {.undecided = 1, .recomputed = 1}};
  add_path(c.edges, 0, 400);
  c.dels = {{200, 201}};
  run_deletion_case(c, {.search_arcs_per_edge = 0}, true);
  // A batch too large for its budget goes to the static computation without certificates.
  DeletionCase d{.n = 400, .want = {.recomputed = 1, .direct = 1}};
  add_path(d.edges, 0, 400);
  for (wg::vertex_t i = 0; i < 100; i += 2) d.dels.emplace_back(i, i + 1);
  run_deletion_case(d, {.certify_min_arcs = 64, .certify_min_arcs_per_edge = 32}, true);
}

TEST(GpuDynamicComponents, SecondTier) {
  WG_REQUIRE_GPU();
  const wg::gpu::ComponentsTuning both{.recompute_fraction = 1.0};
  std::vector<DeletionCase> cases;
  // A 200-cycle cut once: past the first tier's 64-vertex search; the second meets.
  cases.push_back(ring_case(202, 1, 200, true, {{100, 101}}, {.certified = 1, .searched = 1}));
  // A 400-path cut in the middle: the side 201..399 (199 vertices, no label 0) splits off.
  cases.push_back(ring_case(400, 0, 400, false, {{200, 201}}, {.pieces = 1, .searched = 1}));
  // An isolated vertex 201 whose partners 1 and 100 lie 99 apart on a 200-cycle: the pair
  // (100, 1) is past the walk of length 3, the second tier connects it.
  {
    DeletionCase c{.n = 203, .want = {.certified = 1, .isolated = 1, .searched = 1}};
    add_path(c.edges, 1, 200);
    c.edges.emplace_back(200, 1);
    c.edges.emplace_back(201, 1);
    c.edges.emplace_back(201, 100);
    c.dels = {{201, 1}, {100, 201}};
    cases.push_back(c);
  }
  // A 400-path cut twice: (300, 301) splits off 301..399 in the second tier; (200, 201) is
  // undecided (one side holds the label 0, the other touches (300, 301)); recomputed alone.
  cases.push_back(ring_case(400, 0, 400, false, {{200, 201}, {300, 301}},
                            {.pieces = 1, .undecided = 1, .searched = 1, .restricted = 1}));
  // Two hubs: 0 with leaves 1..999, 1000 with leaves 1001..2000; leaf 5 of 0 is joined to
  // leaf 2000 of 1000. Cutting (0, 1000): past the first tier's budget; the second tier expands
  // the cheaper side, hub 0 (walked in parts by every warp: its degree is past hub_degree), then
  // its leaves, then 2000, which meets 1000.
  {
    DeletionCase c{.n = 2001, .want = {.certified = 1, .searched = 1}};
    for (wg::vertex_t i = 1; i <= 999; ++i) c.edges.emplace_back(0, i);
    for (wg::vertex_t i = 1001; i <= 2000; ++i) c.edges.emplace_back(1000, i);
    c.edges.emplace_back(0, 1000);
    c.edges.emplace_back(5, 2000);
    c.dels = {{0, 1000}};
    cases.push_back(c);
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE("second tier case " + std::to_string(i));
    run_deletion_case(cases[i], both, true);
  }
  // Budget exhausted: the 200-cycle with 64 arcs per search stays undecided.
  {
    DeletionCase c = cases[0];
    c.want = {.undecided = 1, .restricted = 1};
    run_deletion_case(c, {.recompute_fraction = 1.0, .search_arcs_per_edge = 64}, true);
    // The path piece of 199 vertices as well.
    DeletionCase d = cases[1];
    d.want = {.undecided = 1, .restricted = 1};
    run_deletion_case(d, {.recompute_fraction = 1.0, .search_arcs_per_edge = 64}, true);
  }
  // Too many undecided edges for the second tier (two 200-cycles, at most one search): both
  // fall back; with room for two, both are certified.
  {
    DeletionCase c{.n = 402};
    add_path(c.edges, 1, 200);
    c.edges.emplace_back(200, 1);
    add_path(c.edges, 201, 200);
    c.edges.emplace_back(400, 201);
    c.dels = {{100, 101}, {300, 301}};
    c.want = {.undecided = 2, .restricted = 1};
    run_deletion_case(
        c, {.recompute_fraction = 1.0, .search_max_edges = 1, .search_edge_fraction = 0}, true);
    c.want = {.certified = 2, .searched = 2};
    run_deletion_case(
        c, {.recompute_fraction = 1.0, .search_max_edges = 2, .search_edge_fraction = 0}, true);
  }
}

template <class Graph>
void stream_case(bool directed, const wg::gpu::ComponentsTuning& tuning, std::uint64_t batch_size,
                 std::uint64_t seed, double edge_factor = 2) {
  const double fraction = tuning.recompute_fraction, certify = tuning.certify_fraction;
  WG_REQUIRE_GPU();
  // A sparse R-MAT (edge factor 2): many components, so deletions split and insertions merge.
  // Batches shrink with the graph (WG_GPU_TEST_SCALE below the default 11, as under the
  // sanitizer), so that every stream still has several insertion and deletion batches.
  const unsigned scale = wg::test::gpu_test_scale();
  batch_size = wg::test::scaled_batch(batch_size, 4);
  const auto stream = wg::test::gpu_rmat_stream(scale, edge_factor, batch_size, directed, seed);
  Graph g(0, {.directed = directed});
  GraphModel m(0, directed);
  m.clear(stream.initial.num_vertices);
  ASSERT_EQ(g.build(stream.initial), m.insert(stream.initial));
  wg::gpu::DynamicComponents<Graph> dyn(g, {}, tuning);
  expect_reference(m, dyn.result());
  std::vector<wg::vertex_t> before = dyn.result().component;
  std::size_t splits = 0;
  const std::size_t recomputed =
      wg::test::replay_gpu(stream, dyn, m, [&](std::size_t, const auto& r, bool insert) {
        const auto now = dyn.result();
        expect_reference(m, now);
        EXPECT_EQ(r.changed, wg::count_changed(before, now.component));
        splits += !insert && !r.recomputed;
        before = now.component;
      });
  if (fraction >= 1) {
    EXPECT_EQ(recomputed, 0u);
    EXPECT_GT(splits, 0u);
  }
  if (fraction <= 0 && certify <= 0) EXPECT_GT(recomputed, 0u);
  const wg::gpu::DeletionStats& s = dyn.deletion_stats();
  if (certify <= 0) {
    EXPECT_EQ(s.certified + s.isolated + s.pieces + s.undecided, 0u);
  } else if (!directed) {
    EXPECT_GT(s.certified + s.isolated, 0u);  // leaves and common neighbours abound in R-MAT
  }
}

/// A stream scenario (stream_case's arguments), named for its test.
struct StreamCase {
  const char* name;
  bool directed;
  std::uint64_t batch_size, seed;
  double edge_factor;
  wg::gpu::ComponentsTuning tuning;
};

class SetStreams : public testing::TestWithParam<StreamCase> {};

TEST_P(SetStreams, MatchReferenceAfterEveryBatch) {
  const StreamCase& c = GetParam();
  stream_case<SetGraph>(c.directed, c.tuning, c.batch_size, c.seed, c.edge_factor);
}

// 40 arcs per edge (a batch budget that never binds): walks stop early, more edges are
// undecided, the answers stay exact.
const wg::gpu::ComponentsTuning kSmallBudget{.recompute_fraction = 1.0,
                                             .certify_fraction = 100.0,
                                             .certify_min_arcs = 0,
                                             .certify_arcs_per_edge = 40,
                                             .certify_min_arcs_per_edge = 0};

INSTANTIATE_TEST_SUITE_P(
    GpuDynamicComponents, SetStreams,
    testing::Values(
        StreamCase{"UndirectedStreamRestricted", false, 256, 3, 2, {.recompute_fraction = 1.0}},
        StreamCase{"UndirectedStreamDefault", false, 512, 4, 2, {}},
        StreamCase{"UndirectedStreamRecomputes",
                   false,
                   512,
                   5,
                   2,
                   {.recompute_fraction = 0.0, .certify_fraction = 0}},
        // Every component with an undecided edge recomputed in full: only certificates keep it
        // dynamic.
        StreamCase{
            "UndirectedStreamCertificatesOnly", false, 512, 5, 2, {.recompute_fraction = 0.0}},
        // Budget 0: always the restricted path, the same answers.
        StreamCase{"UndirectedStreamNoCertificates",
                   false,
                   256,
                   3,
                   2,
                   {.recompute_fraction = 1.0, .certify_fraction = 0}},
        StreamCase{"DirectedStreamRestricted", true, 256, 6, 2, {.recompute_fraction = 1.0}},
        // Edge factor 16: hubs of degree past the shared-memory target set and past the
        // per-edge budget (partial walks); most deletions inside the giant component.
        StreamCase{"DenseStreamHubs", false, 512, 12, 16, {}},
        StreamCase{"DenseStreamSmallBudget", false, 512, 13, 16, kSmallBudget},
        StreamCase{"DenseStreamFirstTierOnly",
                   false,
                   512,
                   17,
                   16,
                   {.recompute_fraction = 1.0, .search_arcs_per_edge = 0}},
        StreamCase{"DirectedDenseStream", true, 512, 14, 8, {}},
        // The second tier with small budgets and room for few searches: many searches give up
        // or are not run, the rest decide; the answers stay exact.
        StreamCase{"DenseStreamSecondTierSmall",
                   false,
                   512,
                   16,
                   16,
                   {.recompute_fraction = 1.0,
                    .certify_arcs_per_edge = 40,
                    .search_arcs_per_edge = 300,
                    .search_max_edges = 8,
                    .search_edge_fraction = 0}}),
    [](const testing::TestParamInfo<StreamCase>& info) { return std::string(info.param.name); });

TEST(GpuDynamicComponents, MapAdjacencyStream) {
  stream_case<MapGraph>(false, {.recompute_fraction = 1.0}, 512, 7);
}
TEST(GpuDynamicComponents, MapAdjacencyDenseStream) {
  stream_case<MapGraph>(false, {}, 512, 15, 16);
}

TEST(GpuDynamicComponents, VertexDeletionsAndGrowth) {
  WG_REQUIRE_GPU();
  wg::test::RmatGraph in(3, 9);
  const EdgeList& e = in.edges;
  SetGraph& g = in.graph;
  GraphModel& m = in.model;
  wg::gpu::DynamicComponents<SetGraph> dyn(g, {}, {.recompute_fraction = 1.0});
  std::mt19937_64 rng(3);
  for (int round = 0; round < 4; ++round) {
    std::vector<wg::vertex_t> ids;
    for (int i = 0; i < 16; ++i) ids.push_back(static_cast<wg::vertex_t>(rng() % e.num_vertices));
    ids.push_back(ids.front());                                    // a repeat
    ids.push_back(static_cast<wg::vertex_t>(e.num_vertices + 5));  // out of range
    wg::test::erase_vertices_checked(dyn, ids, m);
    expect_reference(m, dyn.result());
  }
  // Host batches past the id range grow it: new ids join as their own components, then merge.
  const auto n = static_cast<wg::vertex_t>(g.num_vertices());
  const EdgeList grow = batch(0, {{n, n + 1}, {n + 2, 0}, {5, 5}});
  const auto r = dyn.insert_edges(grow);
  m.grow(n + 3);
  ASSERT_EQ(r.update, m.insert(grow));
  expect_reference(m, dyn.result());
}

// Mixed steps (update(erase, insert)): after every step the labels equal the reference and the
// two-call path's (erase_edges then insert_edges on a twin graph), and changed counts exactly the
// labels that moved over the step.
template <class Graph>
std::size_t mixed_stream_case(bool directed, const wg::gpu::ComponentsTuning& tuning,
                              std::uint64_t batch_size, std::uint64_t seed,
                              double edge_factor = 2) {
  const unsigned scale = wg::test::gpu_test_scale();
  batch_size = wg::test::scaled_batch(batch_size, 4);
  const auto stream = wg::test::gpu_rmat_stream(scale, edge_factor, batch_size, directed, seed);
  Graph g(0, {.directed = directed}), t(0, {.directed = directed});
  GraphModel m(0, directed);
  m.clear(stream.initial.num_vertices);
  EXPECT_EQ(g.build(stream.initial), m.insert(stream.initial));
  t.build(stream.initial);
  wg::gpu::DynamicComponents<Graph> dyn(g, {}, tuning), twin(t, {}, tuning);
  std::vector<wg::vertex_t> before = dyn.result().component;
  std::size_t recomputed = 0;
  const std::size_t steps =
      wg::test::replay_mixed_gpu(stream, dyn, twin, m, [&](std::size_t, const auto& r) {
        const auto now = dyn.result();
        expect_reference(m, now);
        const auto other = twin.result();
        ASSERT_EQ(now.component, other.component);
        ASSERT_EQ(now.count, other.count);
        EXPECT_EQ(r.changed, wg::count_changed(before, now.component));
        recomputed += r.recomputed;
        before = now.component;
      });
  EXPECT_GT(steps, 4u);
  EXPECT_EQ(dyn.deletion_stats().shared, recomputed);
  return recomputed;
}

TEST(GpuDynamicComponents, MixedStepsDefault) {
  WG_REQUIRE_GPU();
  mixed_stream_case<SetGraph>(false, {}, 512, 71);
}
TEST(GpuDynamicComponents, MixedStepsRestricted) {
  WG_REQUIRE_GPU();
  EXPECT_EQ(mixed_stream_case<SetGraph>(false, {.recompute_fraction = 1.0}, 256, 72), 0u);
}
TEST(GpuDynamicComponents, MixedStepsRecompute) {
  // Every erasure that removes an edge goes to the static computation, deferred to the end of
  // its step.
  WG_REQUIRE_GPU();
  EXPECT_GT(
      mixed_stream_case<SetGraph>(false, {.recompute_fraction = 0, .certify_fraction = 0}, 256, 73),
      0u);
}
TEST(GpuDynamicComponents, MixedStepsDirected) {
  WG_REQUIRE_GPU();
  mixed_stream_case<SetGraph>(true, {.recompute_fraction = 0}, 256, 74);
}
TEST(GpuDynamicComponents, MixedStepsDenseMap) {
  WG_REQUIRE_GPU();
  mixed_stream_case<MapGraph>(false, {}, 512, 75, 8);
}

TEST(GpuDynamicComponents, MixedStepsHandMade) {
  // A path 0..299 with leaves 300..309 (at 0..9) and isolated ids 310..319; the first tier only
  // (search off), so cutting the path leaves its edge undecided and the component is recomputed.
  WG_REQUIRE_GPU();
  constexpr std::uint64_t n = 320;
  std::vector<std::pair<wg::vertex_t, wg::vertex_t>> es;
  add_path(es, 0, 300);
  for (wg::vertex_t j = 0; j < 10; ++j) es.emplace_back(j, 300 + j);
  const EdgeList base = batch(n, es);
  const std::vector<wg::test::MixedStep> steps = {
      // A leaf splits off, then joins an isolated id: incremental, two labels move.
      {batch(n, {{0, 300}}), batch(n, {{300, 310}}), false},
      // The path cut (falls back), and closed into a ring: one computation, no label moves.
      {batch(n, {{150, 151}}), batch(n, {{0, 299}}), true},
      {EdgeList{}, batch(n, {{311, 312}}), false},  // empty erasure
      {batch(n, {{1, 301}}), EdgeList{}, false},    // empty insertion
      // A leaf splits off (certificate) and the path (151..299, 0..150 since step 1) is cut
      // with more than 64 vertices on each side (falls back); the leaf comes back: the
      // computation counts against the labels before the step (51..150 move).
      {batch(n, {{5, 305}, {50, 51}}), batch(n, {{305, 6}}), true},
      {batch(n, {{313, 314}, {7, 7}}), batch(n, {{2, 302}}), false},  // nothing changes
  };
  const wg::gpu::ComponentsTuning tuning{.search_arcs_per_edge = 0};
  SetGraph g(n), t(n);
  GraphModel m(n, false);
  ASSERT_EQ(g.insert_edges(base), m.insert(base));
  t.insert_edges(base);
  wg::gpu::DynamicComponents<SetGraph> dyn(g, {}, tuning), twin(t, {}, tuning);
  const std::uint64_t want_changed[] = {2, 0, 1, 1, 100, 0};
  wg::test::run_mixed_steps(
      steps, dyn, twin, m,
      [&](std::size_t i, const auto& r, const auto& before, const auto& now, const auto& twin_now) {
        expect_reference(m, now);
        ASSERT_EQ(now.component, twin_now.component);
        EXPECT_EQ(r.changed, wg::count_changed(before.component, now.component));
        EXPECT_EQ(r.changed, want_changed[i]);
      });
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_EQ(dyn.deletion_stats().shared, 2u);
  // Device batches: the leaf 303 splits off and joins 315.
  const auto before = dyn.result();
  const auto r = wg::test::update_from_device(dyn, g.stream(), n, {{3, 303}}, {{303, 315}}, m);
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_FALSE(r.recomputed);
  const auto now = dyn.result();
  expect_reference(m, now);
  EXPECT_EQ(r.changed, wg::count_changed(before.component, now.component));
  EXPECT_EQ(r.changed, 2u);
}

}  // namespace
