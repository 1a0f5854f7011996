// GPU local clustering coefficient: static coefficients on the bundled graphs (slab and B-tree
// graphs) equal the reference's (from its per-vertex triangle counts), ego-Facebook matches
// networkx, and the dynamic class equals the reference on an independent host model after every
// batch of R-MAT insert/delete streams, counting exactly the vertices whose coefficient moved.
// WG_GPU_TEST_SCALE (default 11) sets the R-MAT scale (use ~8 under compute-sanitizer).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <warpgraph/algorithms/lcc/gpu/lcc.hpp>
#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/graph/gpu/btree_graph.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#include "../../support/test_support.hpp"
#include "../gpu_test_support.hpp"
#include "../lcc_cpu/networkx_facebook.hpp"

namespace {

using wg::EdgeList;
using wg::LccResult;
using wg::test::GraphModel;
using wg::test::SetGraph;
using TreeGraph = wg::gpu::BTreeGraph<false>;

constexpr double kTolerance = 1e-12;

void expect_reference(const EdgeList& edges, const LccResult& got) {
  const wg::reference::LocalClustering want = wg::reference::local_clustering(edges);
  ASSERT_EQ(got.coefficient.size(), want.coefficient.size());
  for (std::size_t v = 0; v < got.coefficient.size(); ++v)
    ASSERT_NEAR(got.coefficient[v], want.coefficient[v], kTolerance) << "vertex " << v;
  EXPECT_NEAR(got.average, want.average, kTolerance);
  EXPECT_EQ(got.triangles, wg::reference::triangle_count(edges).total);
}

WG_BUNDLED_GRAPHS_TEST(SharedDatasets, StaticCoefficientsEqualReference) {
  WG_REQUIRE_GPU();
  WG_REQUIRE_DATASET(path, GetParam());
  const EdgeList e = wg::test::unweighted_edges(path);
  SetGraph g(0);
  g.build(e);
  g.grow_vertices(e.num_vertices);
  expect_reference(e, wg::gpu::local_clustering(g));
  TreeGraph t(0);
  t.build(e);
  t.grow_vertices(e.num_vertices);
  expect_reference(e, wg::gpu::local_clustering(t));
}

TEST(GpuLocalClustering, FacebookMatchesNetworkx) {
  WG_REQUIRE_GPU();
  WG_REQUIRE_DATASET(path, "facebook_combined.txt");
  SetGraph g(0);
  g.build(wg::datasets::read_graph(path).edges);
  const LccResult got = wg::gpu::local_clustering(g);
  EXPECT_NEAR(got.average, wg::test::kFacebookAverageClustering, kTolerance);
  for (const auto& [v, c] : wg::test::kFacebookClustering)
    EXPECT_NEAR(got.coefficient.at(v), c, kTolerance) << "vertex " << v;
}

TEST(GpuLocalClustering, DirectedGraphIsRejected) {
  WG_REQUIRE_GPU();
  SetGraph g(4, {.directed = true});
  EXPECT_THROW(wg::gpu::local_clustering(g), wg::InvalidArgument);
  EXPECT_THROW(wg::gpu::DynamicLocalClustering<SetGraph>{g}, wg::InvalidArgument);
}

template <class Graph>
void replay_stream(std::uint64_t batch_size) {
  const auto stream =
      wg::test::gpu_rmat_stream(wg::test::gpu_test_scale(), 8, batch_size, false, 21);
  Graph g(0);
  g.build(stream.initial);
  GraphModel m(0, false);
  m.clear(stream.initial.num_vertices);
  m.insert(stream.initial);
  g.grow_vertices(m.id_range());
  wg::gpu::DynamicLocalClustering<Graph> dyn(g);
  expect_reference(wg::test::reference_edges(m), dyn.result());
  std::vector<double> before = dyn.result().coefficient;
  wg::test::replay_gpu(stream, dyn, m, [&](std::size_t, const auto& r, bool) {
    const LccResult now = dyn.result();
    expect_reference(wg::test::reference_edges(m), now);
    before.resize(now.coefficient.size(), 0.0);  // ids the batch added start at 0
    EXPECT_EQ(r.changed, wg::count_changed(before, now.coefficient));
    EXPECT_FALSE(r.recomputed);
    before = now.coefficient;
  });
}

TEST(GpuDynamicLocalClustering, SlabStreamStaysEqualToReference) {
  WG_REQUIRE_GPU();
  replay_stream<SetGraph>(256);
  replay_stream<SetGraph>(8192);
}

TEST(GpuDynamicLocalClustering, BTreeStreamStaysEqualToReference) {
  WG_REQUIRE_GPU();
  replay_stream<TreeGraph>(256);
  replay_stream<TreeGraph>(8192);
}

}  // namespace
