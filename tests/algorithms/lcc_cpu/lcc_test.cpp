// CPU local clustering coefficient: the static result on every bundled graph equals the reference
// (algorithms/reference: from its per-vertex triangle counts), both match networkx on
// ego-Facebook, hand-made graphs give the textbook values, and the dynamic class stays equal to
// the reference after every batch of an R-MAT insert/delete stream, counting exactly the vertices
// whose coefficient moved.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <warpgraph/algorithms/lcc/cpu/lcc.hpp>
#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/algorithms/tc/cpu/triangle_count.hpp>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/read_graph.hpp>

#include "../cpu_graph_fixture.hpp"
#include "networkx_facebook.hpp"
#include "test_support.hpp"

namespace wg::cpu {
namespace {

constexpr double kTolerance = 1e-12;

void expect_near_all(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t v = 0; v < got.size(); ++v)
    ASSERT_NEAR(got[v], want[v], kTolerance) << "vertex " << v;
}

void expect_reference(const DynamicGraph& g, const LccResult& got) {
  const EdgeList coo = wg::test::reference_edges(g);
  const reference::LocalClustering want = reference::local_clustering(coo);
  expect_near_all(got.coefficient, want.coefficient);
  EXPECT_NEAR(got.average, want.average, kTolerance);
  EXPECT_EQ(got.triangles, reference::triangle_count(coo).total);
}

WG_BUNDLED_GRAPHS_TEST(SharedDatasets, StaticCoefficientsEqualReference) {
  wg::test::on_bundled_graph_threads(
      GetParam(), [](const auto& g, unsigned t) { return local_clustering(g, {.threads = t}); },
      expect_reference);
}

TEST(LocalClustering, FacebookMatchesNetworkx) {
  WG_REQUIRE_DATASET(path, "facebook_combined.txt");
  const EdgeList e = datasets::read_graph(path).edges;
  const reference::LocalClustering ref = reference::local_clustering(e);
  DynamicGraph g = wg::test::read_into_cpu_graph(path);
  const LccResult got = local_clustering(g);
  EXPECT_NEAR(ref.average, wg::test::kFacebookAverageClustering, kTolerance);
  EXPECT_NEAR(got.average, wg::test::kFacebookAverageClustering, kTolerance);
  for (const auto& [v, c] : wg::test::kFacebookClustering) {
    EXPECT_NEAR(ref.coefficient.at(v), c, kTolerance) << "reference, vertex " << v;
    EXPECT_NEAR(got.coefficient.at(v), c, kTolerance) << "cpu, vertex " << v;
  }
}

TEST(LocalClustering, HandMadeGraph) {
  // A triangle {0, 1, 2}, a pendant 3 on 2, an isolated id 4, and a 4-cycle 5-6-7-8 with the
  // chord 5-7: c(0) = c(1) = 1, c(2) = 1/3, c(3) = c(4) = 0; c(5) = c(7) = 2/3, c(6) = c(8) = 1.
  EdgeList e;
  for (auto [u, v] : std::vector<std::pair<vertex_t, vertex_t>>{
           {0, 1}, {1, 2}, {0, 2}, {2, 3}, {5, 6}, {6, 7}, {7, 8}, {8, 5}, {5, 7}}) {
    e.src.push_back(u);
    e.dst.push_back(v);
  }
  e.num_vertices = 9;
  e.symmetric = true;
  DynamicGraph g(GraphOptions{.threads = 2});
  g.build(e);
  const LccResult r = local_clustering(g);
  const std::vector<double> want{1, 1, 1.0 / 3, 0, 0, 2.0 / 3, 1, 2.0 / 3, 1};
  expect_near_all(r.coefficient, want);
  double sum = 0;
  for (double c : want) sum += c;
  EXPECT_NEAR(r.average, sum / 9, kTolerance);
  EXPECT_EQ(r.triangles, 3u);
}

TEST(LocalClustering, DirectedGraphIsRejected) {
  DynamicGraph g = wg::test::directed_rmat_cpu_graph(8, 2, 5);
  EXPECT_THROW(local_clustering(g), InvalidArgument);
  EXPECT_THROW(DynamicLocalClustering{g}, InvalidArgument);
}

TEST(DynamicLocalClustering, StreamStaysEqualToReference) {
  for (std::uint64_t batch : {64u, 2048u}) {
    SCOPED_TRACE("batch size " + std::to_string(batch));
    auto [stream, g] = wg::test::rmat_stream(false, 4, batch);
    DynamicLocalClustering dyn(g);
    expect_reference(g, dyn.result());
    const auto batches = wg::test::replay_checked(
        stream, dyn, [&] { return dyn.result().coefficient; },
        [&] {
          expect_reference(g, dyn.result());
          std::vector<std::uint64_t> want = count_triangles_per_vertex(g).per_vertex;
          want.resize(g.num_vertices(), 0);
          EXPECT_EQ(dyn.triangles_per_vertex(), want);
        });
    EXPECT_GT(batches.size(), 2u);
  }
}

TEST(DynamicLocalClustering, IdsGrowWithInsertions) {
  DynamicGraph g(GraphOptions{.threads = 2});
  DynamicLocalClustering dyn(g);
  EdgeList e;
  e.src = {0, 1, 2, 10};
  e.dst = {1, 2, 0, 11};
  e.num_vertices = 12;
  e.symmetric = true;
  g.ensure_vertices(12);
  const auto r = dyn.insert_edges(e);
  EXPECT_EQ(r.update.applied, 4u);
  EXPECT_EQ(r.changed, 3u);  // 0, 1, 2 go to 1; 10 and 11 stay 0
  expect_reference(g, dyn.result());
  const auto erased = dyn.erase_edges(e);
  EXPECT_EQ(erased.changed, 3u);
  expect_reference(g, dyn.result());
}

}  // namespace
}  // namespace wg::cpu
