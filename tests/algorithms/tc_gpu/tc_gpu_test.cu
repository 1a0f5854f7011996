// GPU triangle counting: static counts on the shared datasets (published figures and the
// Boost.Graph reference), and incremental counts on update streams, batch by batch, against a
// full GPU recount and the reference on the host model's edges.
// WG_GPU_TEST_SCALE (default 12) sets the R-MAT scale (use ~8 under compute-sanitizer).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>

#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/algorithms/tc/gpu/tc.hpp>
#include <warpgraph/algorithms/tc/gpu/triangle_count.hpp>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/datasets/update_stream.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#include "../../graph/gpu/graph_model.hpp"
#include "../../support/test_support.hpp"
#include "../reference/dataset_figures.hpp"
#include "../tc_entry_check.hpp"

namespace {

using wg::EdgeList;

/// A row of /work/shared/datasets/README.md's table (the reference and CLI tests check it too).
using Published = wg::test::DatasetFigures;

class SharedDataset : public ::testing::TestWithParam<Published> {};

TEST_P(SharedDataset, StaticCountMatchesPublishedAndReference) {
  const Published p = GetParam();
  WG_REQUIRE_DATASET(path, p.file);
  const EdgeList e = wg::datasets::read_graph(path).edges;
  const wg::reference::TriangleCounts ref = wg::reference::triangle_count(e);
  EXPECT_EQ(ref.total, p.triangles) << "reference disagrees with the published figure";
  for (double lf : {0.7, 4.0}) {  // several buckets per vertex, and long chains
    wg::gpu::GraphOptions opt;
    opt.load_factor = lf;
    wg::gpu::Graph g(0, opt);
    g.build(e);
    EXPECT_EQ(wg::gpu::count_triangles(g), p.triangles) << p.file << " load factor " << lf;
    const wg::gpu::TriangleCounts pv = wg::gpu::count_triangles_per_vertex(g);
    EXPECT_EQ(pv.total, p.triangles);
    EXPECT_EQ(pv.per_vertex, ref.per_vertex);
    // The sorted count on the oriented view, whatever the lanes per arc.
    for (unsigned lanes : {4u, 8u, 16u, 32u})
      EXPECT_EQ(wg::gpu::count_triangles_sorted(g, {.lanes_per_arc = lanes}), p.triangles)
          << p.file << " load factor " << lf << " lanes " << lanes;
    const wg::gpu::TriangleCounts spv = wg::gpu::count_triangles_sorted_per_vertex(g);
    EXPECT_EQ(spv.total, p.triangles);
    EXPECT_EQ(spv.per_vertex, ref.per_vertex);
  }
  // Weighted adjacency counts the same.
  wg::gpu::WeightedGraph w(0);
  EdgeList unweighted = e;
  unweighted.weight.clear();
  w.build(unweighted);
  EXPECT_EQ(wg::gpu::count_triangles(w), p.triangles);
  // The static count's grab size and visiting order (TcTuning) change the schedule only.
  for (unsigned grab : {1u, 4u, 32u, 100u}) {
    for (bool interleave : {true, false}) {
      EXPECT_EQ(
          wg::gpu::count_triangles(w, {.vertices_per_grab = grab, .interleave_ids = interleave}),
          p.triangles)
          << "vertices_per_grab " << grab << " interleave_ids " << interleave;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Datasets, SharedDataset, ::testing::ValuesIn(wg::test::kDatasetFigures),
    wg::test::figure_test_name<::testing::TestParamInfo<wg::test::DatasetFigures>>);

std::uint64_t reference_count(const wg::test::GraphModel& m) {
  return wg::reference::triangle_count(m.export_coo(false)).total;
}

TEST(GpuIncrementalTc, HandMadeBatches) {
  // Triangles with 1, 2 and 3 edges from one batch, duplicates (both orientations), self-loops,
  // edges already present, absent deletions.
  wg::gpu::Graph g(8);
  wg::test::GraphModel m(8, false);
  wg::gpu::IncrementalTriangleCounter<wg::gpu::DynamicGraph<wg::gpu::SlabSetAdjacency>> tc(g);
  EXPECT_EQ(tc.total(), 0u);
  auto batch = [](std::vector<std::pair<wg::vertex_t, wg::vertex_t>> es) {
    EdgeList b;
    b.num_vertices = 8;
    for (auto [u, v] : es) {
      b.src.push_back(u);
      b.dst.push_back(v);
    }
    return b;
  };
  const EdgeList steps[] = {
      batch({{0, 1}, {1, 2}, {2, 0}, {1, 0}, {0, 0}}),          // one triangle, all 3 edges new
      batch({{0, 3}, {3, 1}, {0, 1}, {3, 3}}),                  // 2 new edges + 1 present
      batch({{2, 3}, {3, 2}, {2, 3}}),                          // 1 new edge closes 3 triangles
      batch({{4, 5}, {5, 6}, {6, 4}, {4, 0}, {5, 0}, {6, 0}}),  // K4 on {0,4,5,6}
  };
  for (const EdgeList& b : steps) {
    const auto r = tc.insert_edges(b);
    ASSERT_EQ(r.update, m.insert(b));
    ASSERT_EQ(r.total, reference_count(m));
    ASSERT_EQ(r.total, wg::gpu::count_triangles(g));
  }
  const EdgeList dels[] = {
      batch({{0, 1}, {1, 0}, {7, 6}, {2, 2}}),          // one present edge (twice), one absent
      batch({{0, 4}, {0, 5}, {4, 5}, {0, 2}, {2, 3}}),  // a whole triangle and more
  };
  for (const EdgeList& b : dels) {
    const auto r = tc.erase_edges(b);
    ASSERT_EQ(r.update, m.erase(b));
    ASSERT_EQ(r.total, reference_count(m));
    ASSERT_EQ(r.total, wg::gpu::count_triangles(g));
  }
}

template <class Adj>
void stream_test(unsigned scale, double edge_factor, std::uint64_t batch_size, double load_factor,
                 std::uint64_t seed) {
  const EdgeList graph =
      wg::datasets::generate_rmat({.scale = scale, .edge_factor = edge_factor, .seed = seed});
  wg::datasets::StreamParams sp{
      .initial_fraction = 0.3, .batch_size = batch_size, .delete_probability = 0.6};
  // A stream with a deletion batch: at some scales (WG_GPU_TEST_SCALE 9 and 10) the stream has
  // only two or three insertion batches, and a seed may draw no deletion after them; the next
  // seeds are tried then.
  const auto has_deletion = [](const wg::datasets::UpdateStream& st) {
    return std::any_of(st.batches.begin(), st.batches.end(), [](const auto& b) {
      return b.kind == wg::datasets::UpdateBatch::Kind::erase;
    });
  };
  wg::datasets::UpdateStream stream;
  for (std::uint64_t attempt = 0; attempt < 16; ++attempt) {
    sp.seed = seed + 1 + 1000 * attempt;
    stream = wg::datasets::make_update_stream(graph, sp);
    if (has_deletion(stream)) break;
  }
  ASSERT_GT(stream.batches.size(), 2u);

  wg::gpu::GraphOptions opt;
  opt.load_factor = load_factor;
  wg::gpu::DynamicGraph<Adj> g(0, opt);
  wg::test::GraphModel m(0, false);
  m.clear(stream.initial.num_vertices);
  ASSERT_EQ(g.build(stream.initial), m.insert(stream.initial));
  wg::gpu::IncrementalTriangleCounter<wg::gpu::DynamicGraph<Adj>> tc(g);
  ASSERT_EQ(tc.total(), reference_count(m));
  int deletions = 0;
  wg::test::replay_stream(stream, tc, m, [&](std::size_t i, const auto& r, bool insert) {
    deletions += !insert;
    const std::uint64_t recount = wg::gpu::count_triangles(g);
    ASSERT_EQ(r.total, recount);
    ASSERT_EQ(r.total, reference_count(m));
    if (i % 4 == 1) {  // the sorted count's per-vertex counts on the changed graph
      const wg::gpu::TriangleCounts spv = wg::gpu::count_triangles_sorted_per_vertex(g);
      ASSERT_EQ(spv.total, r.total);
      ASSERT_EQ(spv.per_vertex, wg::reference::triangle_count(m.export_coo(false)).per_vertex);
    }
    if (i % 4 == 0) {
      const EdgeList got = g.export_coo(), want = m.export_coo(false);
      ASSERT_EQ(got.src, want.src);
      ASSERT_EQ(got.dst, want.dst);
      ASSERT_EQ(g.degrees(), m.degrees());
    }
  });
  EXPECT_GT(deletions, 0);
  // The stream ends on the input graph.
  EXPECT_EQ(tc.total(), wg::reference::triangle_count(graph).total);
}

TEST(GpuIncrementalTc, RmatStreamSet) {
  const unsigned s = wg::test::gpu_test_scale(12);
  stream_test<wg::gpu::SlabSetAdjacency>(s, 16, std::uint64_t{1} << (s + 1), 0.7, 1);
}
TEST(GpuIncrementalTc, RmatStreamSmallBatchesLongChains) {
  const unsigned s = wg::test::gpu_test_scale(12) > 2 ? wg::test::gpu_test_scale(12) - 2
                                                      : wg::test::gpu_test_scale(12);
  // Batches of 500 (fewer at the sanitizers' reduced scales, so that the stream still has
  // several batches).
  const std::uint64_t batch = std::min<std::uint64_t>(500, std::uint64_t{1} << s);
  stream_test<wg::gpu::SlabSetAdjacency>(s, 8, batch, 8.0, 2);
}
TEST(GpuIncrementalTc, RmatStreamMap) {
  const unsigned s = wg::test::gpu_test_scale(12) > 1 ? wg::test::gpu_test_scale(12) - 1
                                                      : wg::test::gpu_test_scale(12);
  stream_test<wg::gpu::SlabMapAdjacency>(s, 16, std::uint64_t{1} << s, 0.7, 3);
}

// Host batches through the counter are uploaded as the graph's own EdgeList overloads upload
// them: ids past the vertex range grow it (a tagged new-vertex id is no id: ignored), a map
// graph keeps each edge's last weight, and a weight outside the uint32 range is refused.
TEST(GpuIncrementalTc, HostBatchesGrowTheIdRangeAndCarryWeights) {
  wg::gpu::WeightedGraph g(2);
  wg::gpu::IncrementalTriangleCounter<wg::gpu::DynamicGraph<wg::gpu::SlabMapAdjacency>> tc(g);
  EdgeList b;
  b.src = {5, 6, 7, 6, 0, wg::new_vertex(3)};
  b.dst = {6, 7, 5, 5, 1000, 1};
  b.weight = {1.0, 2.0, 3.0, 4.4, 5.0, 6.0};
  const auto r = tc.insert_edges(b);
  EXPECT_EQ(r.update.applied, 4u);
  EXPECT_EQ(r.update.duplicates, 1u);
  EXPECT_EQ(r.update.ignored, 1u);
  EXPECT_EQ(r.triangles, 1u);
  EXPECT_EQ(r.total, 1u);
  EXPECT_EQ(g.num_vertices(), 1001u);
  const EdgeList e = g.export_coo();
  std::map<std::pair<wg::vertex_t, wg::vertex_t>, double> w;
  for (std::size_t i = 0; i < e.size(); ++i)
    w[{std::min(e.src[i], e.dst[i]), std::max(e.src[i], e.dst[i])}] = e.weight[i];
  ASSERT_EQ(w.size(), 4u);
  EXPECT_EQ(w.at({5, 6}), 4);  // the edge's last entry, (6, 5)
  EXPECT_EQ(w.at({6, 7}), 2);
  EXPECT_EQ(w.at({5, 7}), 3);
  EXPECT_EQ(w.at({0, 1000}), 5);
  EdgeList bad = b;
  bad.weight[2] = -1.0;
  EXPECT_THROW(tc.insert_edges(bad), wg::InvalidArgument);
  EdgeList del;
  del.src = {6};
  del.dst = {5};
  const auto d = tc.erase_edges(del);
  EXPECT_EQ(d.update.applied, 1u);
  EXPECT_EQ(d.triangles, 1u);
  EXPECT_EQ(d.total, 0u);
}

// The sorted count reads the slab graph through its device view (graph/gpu/device_csr.cuh):
// erased ids (no row), ids without arcs and a graph with no triangle at all.
TEST(SortedTc, ErasedVerticesAndEmptyRowsOnTheSlabGraph) {
  const unsigned s = wg::test::gpu_test_scale(12);
  EdgeList e = wg::datasets::generate_rmat({.scale = s, .edge_factor = 8, .seed = 21});
  wg::gpu::Graph g(0);
  wg::test::GraphModel m(0, false);
  m.clear(e.num_vertices + 16);  // 16 ids past the generator's, without arcs
  g.build(e);
  g.grow_vertices(e.num_vertices + 16);
  m.insert(e);
  // Every 7th id erased, with its arcs.
  std::vector<wg::vertex_t> gone;
  for (wg::vertex_t v = 0; v < e.num_vertices; v += 7) gone.push_back(v);
  g.erase_vertices(gone);
  m.erase_vertices(gone);
  const EdgeList now = m.export_coo(false);
  const wg::reference::TriangleCounts ref = wg::reference::triangle_count(now);
  ASSERT_GT(ref.total, 0u);
  const wg::gpu::TriangleCounts got = wg::gpu::count_triangles_sorted_per_vertex(g);
  EXPECT_EQ(got.total, ref.total);
  std::vector<std::uint64_t> want = ref.per_vertex;
  want.resize(g.num_vertices(), 0);
  EXPECT_EQ(got.per_vertex, want);
  EXPECT_EQ(wg::gpu::count_triangles_sorted(g), ref.total);
  // A star has arcs but no triangle; a graph without edges has neither.
  wg::gpu::Graph star(0);
  EdgeList st;
  st.num_vertices = 9;
  for (wg::vertex_t v = 1; v < 9; ++v) {
    st.src.push_back(0);
    st.dst.push_back(v);
  }
  star.build(st);
  EXPECT_EQ(wg::gpu::count_triangles_sorted(star), 0u);
  EXPECT_EQ(wg::gpu::count_triangles_sorted_per_vertex(star).per_vertex,
            std::vector<std::uint64_t>(9, 0));
  wg::gpu::Graph empty(5);
  EXPECT_EQ(wg::gpu::count_triangles_sorted(empty), 0u);
  EXPECT_THROW(wg::gpu::count_triangles_sorted(g, {.lanes_per_arc = 6}), wg::InvalidArgument);
}

TEST(TcEntry, RunAndDynamicClassOnTheSlabGraphEqualTheReference) {
  wg::test::check_tc_entry([] { return wg::gpu::Graph(0); });
}

TEST(GpuIncrementalTc, DirectedGraphIsRefused) {
  wg::gpu::GraphOptions opt;
  opt.directed = true;
  wg::gpu::Graph g(4, opt);
  EXPECT_THROW(wg::gpu::count_triangles(g), wg::InvalidArgument);
  EXPECT_THROW(wg::gpu::count_triangles_sorted(g), wg::InvalidArgument);
}

}  // namespace
