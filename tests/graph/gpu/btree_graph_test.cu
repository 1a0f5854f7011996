// The B-tree graph (graph/gpu/btree_graph.hpp) against the host model (graph_model.hpp): after
// every batch the UpdateResult, the exported edges, the degrees, has_edges and the tree's
// invariants agree; its device view's walks against its CSR export; triangle counts (sorted
// intersection, the generic count, the incremental counter) against the slab graph and the
// Boost reference; BFS and components against the reference.
// WG_GPU_TEST_SCALE (default 12) sets the R-MAT scale (use ~8 under compute-sanitizer).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <string>

#include <warpgraph/algorithms/bfs/gpu/bfs.hpp>
#include <warpgraph/algorithms/kcore/gpu/kcore.hpp>
#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/algorithms/sssp/gpu/sssp.hpp>
#include <warpgraph/algorithms/tc/gpu/sorted_triangle_count.hpp>
#include <warpgraph/algorithms/tc/gpu/triangle_count.hpp>
#include <warpgraph/algorithms/wcc/gpu/wcc.hpp>
#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/datasets/update_stream.hpp>
#include <warpgraph/graph/gpu/batch_prep.hpp>
#include <warpgraph/graph/gpu/btree_graph.hpp>
#include <warpgraph/graph/gpu/btree_graph_ref.cuh>

#include "../../algorithms/reference/dataset_figures.hpp"
#include "../../support/test_support.hpp"
#include "four_way_tests.hpp"
#include "graph_model.hpp"

namespace {

using wg::EdgeList;
using wg::UpdateResult;
using wg::vertex_t;
using namespace wg::test;  // the graph test vocabulary (graph_model.hpp)
template <bool W>
using BGraph = wg::gpu::BTreeGraph<W>;

template <bool W>
void random_batches(bool directed, std::uint64_t n, std::size_t batch, int rounds,
                    std::uint64_t seed) {
  WG_REQUIRE_GPU();
  // A tiny first pool, so that batches rebuild it.
  BGraph<W> g(n, {.directed = directed, .initial_nodes = 64});
  GraphModel m(n, directed);
  TestRng rng{seed};
  wg::test::insert_erase_rounds(g, m, rng, n, batch, rounds, W,
                                [&](const EdgeList& b, const std::string& where) {
                                  expect_same(g, m, W, where);
                                  expect_has_edges(g, m, rng, n + 2, &b);
                                });
  EXPECT_GT(g.pool_rebuilds(), 0u);
}

WG_FOUR_WAY_TESTS(BTreeGraph, false, true, RandomBatches, random_batches, 1, 300, 3000, 5)
TEST(BTreeGraph, LargerRandomBatches) {
  const unsigned s =
      wg::test::gpu_test_scale(12);  // 20480 vertices, batches of 102400 at the default 12
  random_batches<false>(false, 5ull << s, 25ull << s, 3, 5);
}

template <bool W>
void vertex_ops(bool directed, std::uint64_t seed) {
  WG_REQUIRE_GPU();
  wg::test::vertex_scenario_on_new<BGraph<W>>(
      directed, W, seed,
      {.n = 200, .base = 3000, .rounds = 4, .erase = 12, .count = 8, .insert_after = 500},
      [](const auto& g, const GraphModel& m, TestRng& rng, const std::string& step,
         const std::string& where) {
        expect_same(g, m, W, where);
        if (step == "erase_vertices") expect_has_edges(g, m, rng, m.id_range() + 2);
      });
}

WG_FOUR_WAY_TESTS(BTreeGraph, false, true, VertexOps, vertex_ops, 11)

TEST(BTreeGraph, OptionsAreChecked) {
  WG_REQUIRE_GPU();
  EXPECT_THROW(BGraph<false>(4, {.growth = 1.0}), wg::InvalidArgument);
  BGraph<false> g(4, {.directed = true});
  EXPECT_THROW(wg::gpu::count_triangles_sorted(g), wg::InvalidArgument);
  BGraph<false> u(4);
  EXPECT_THROW(wg::gpu::count_triangles_sorted(u, {.lanes_per_arc = 3}), wg::InvalidArgument);
  EXPECT_EQ(wg::gpu::count_triangles_sorted(u), 0u);
}

// ---- the device view against the CSR export -------------------------------------------------

constexpr vertex_t kNone = 0xFFFFFFFFu;

template <class Ref>
__global__ void walks_kernel(Ref g, unsigned parts, unsigned long long* stats,
                             vertex_t* found_first, unsigned* order_errors) {
  const wg::warp_tile tile = wg::this_warp();
  const std::uint64_t warps = std::uint64_t{gridDim.x} * blockDim.x / 32;
  for (std::uint64_t x = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32;
       x < g.num_vertices(); x += warps) {
    const vertex_t u = static_cast<vertex_t>(x);
    unsigned long long* s = stats + 6 * x;  // count, sum, slot count, part count, part sum, -
    auto each = [&](vertex_t w) {
      atomicAdd(s + 0, 1ull);
      atomicAdd(s + 1, static_cast<unsigned long long>(w) + 1);
    };
    if constexpr (Ref::weighted)
      g.for_each_neighbor(tile, u, [&](vertex_t w, std::uint32_t) { each(w); });
    else
      g.for_each_neighbor(tile, u, each);
    long long prev_max = -1;
    unsigned slots = 0;
    g.for_each_neighbor_slot(tile, u, [&](vertex_t w, bool valid) {
      const unsigned lo = __reduce_min_sync(0xFFFFFFFFu, valid ? w : 0xFFFFFFFFu);
      const unsigned hi = __reduce_max_sync(0xFFFFFFFFu, valid ? w : 0u);
      const unsigned n = __popc(tile.ballot(valid));
      if (n && static_cast<long long>(lo) <= prev_max && tile.thread_rank() == 0)
        atomicAdd(order_errors, 1u);  // leaves must come in increasing id
      if (n) prev_max = hi;
      slots += n;
    });
    if (tile.thread_rank() == 0) s[2] = slots;
    for (unsigned p = 0; p < parts; ++p) {
      auto part_each = [&](vertex_t w) {
        atomicAdd(s + 3, 1ull);
        atomicAdd(s + 4, static_cast<unsigned long long>(w) + 1);
      };
      if constexpr (Ref::weighted)
        g.for_each_neighbor_part(tile, u, p, parts,
                                 [&](vertex_t w, std::uint32_t) { part_each(w); });
      else
        g.for_each_neighbor_part(tile, u, p, parts, part_each);
      unsigned part_slots = 0;
      g.for_each_neighbor_slot_part(tile, u, p, parts, [&](vertex_t, bool valid) {
        part_slots += __popc(tile.ballot(valid));
      });
      if (tile.thread_rank() == 0) atomicAdd(s + 5, static_cast<unsigned long long>(part_slots));
    }
    const vertex_t f = g.find_neighbor(tile, u, [](vertex_t w) { return w % 3 == 0; });
    if (tile.thread_rank() == 0) found_first[x] = f;
  }
}

template <class Ref>
__global__ void has_edge_kernel(Ref g, const vertex_t* src, const vertex_t* dst, std::uint64_t n,
                                std::uint8_t* out) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    out[i] = g.has_edge(src[i], dst[i]) ? 1 : 0;
}

template <bool W>
void device_view(bool directed) {
  WG_REQUIRE_GPU();
  wg::datasets::RmatParams p;
  p.scale = wg::test::gpu_test_scale(12);
  p.edge_factor = 8;
  p.seed = 21 + directed;
  EdgeList e = wg::datasets::generate_rmat(p);
  e.symmetric = !directed;
  BGraph<W> g(0, {.directed = directed});
  g.build(e);
  const wg::gpu::Csr csr = g.export_csr();
  const std::uint64_t n = g.num_vertices();
  const unsigned parts = 3;
  wg::DeviceBuffer<unsigned long long> stats(6 * n);
  WG_CUDA_TRY(cudaMemset(stats.data(), 0, stats.bytes()));
  wg::DeviceBuffer<vertex_t> found(n);
  wg::DeviceBuffer<unsigned> errors(1);
  WG_CUDA_TRY(cudaMemset(errors.data(), 0, 4));
  walks_kernel<<<256, 256>>>(g.ref(), parts, stats.data(), found.data(), errors.data());
  WG_CUDA_TRY(cudaDeviceSynchronize());
  const auto hs = stats.to_host();
  const auto hf = found.to_host();
  EXPECT_EQ(errors.to_host()[0], 0u) << "a walk step came out of order";
  for (std::uint64_t u = 0; u < n; ++u) {
    unsigned long long count = 0, sum = 0;
    std::set<vertex_t> pred;
    for (std::uint64_t i = csr.offsets[u]; i < csr.offsets[u + 1]; ++i) {
      ++count;
      sum += csr.targets[i] + 1ull;
      if (csr.targets[i] % 3 == 0) pred.insert(csr.targets[i]);
    }
    const unsigned long long* s = &hs[6 * u];
    ASSERT_EQ(s[0], count) << "vertex " << u;
    ASSERT_EQ(s[1], sum) << "vertex " << u;
    ASSERT_EQ(s[2], count) << "vertex " << u;
    ASSERT_EQ(s[3], count) << "vertex " << u;
    ASSERT_EQ(s[4], sum) << "vertex " << u;
    ASSERT_EQ(s[5], count) << "vertex " << u;
    if (pred.empty())
      ASSERT_EQ(hf[u], kNone) << "vertex " << u;
    else
      ASSERT_TRUE(pred.count(hf[u])) << "vertex " << u << " found " << hf[u];
  }
  // has_edge by one thread: every arc, and as many shifted pairs.
  std::vector<vertex_t> qs, qd;
  std::set<std::pair<vertex_t, vertex_t>> arcs;
  for (std::uint64_t u = 0; u < n; ++u)
    for (std::uint64_t i = csr.offsets[u]; i < csr.offsets[u + 1]; ++i) {
      arcs.insert({static_cast<vertex_t>(u), csr.targets[i]});
      qs.push_back(static_cast<vertex_t>(u));
      qd.push_back(csr.targets[i]);
      qs.push_back(static_cast<vertex_t>(u));
      qd.push_back(static_cast<vertex_t>((csr.targets[i] + 1) % n));
    }
  const auto ds = wg::DeviceBuffer<vertex_t>::from_host(qs);
  const auto dd = wg::DeviceBuffer<vertex_t>::from_host(qd);
  wg::DeviceBuffer<std::uint8_t> out(std::max<std::size_t>(qs.size(), 1));
  has_edge_kernel<<<256, 256>>>(g.ref(), ds.data(), dd.data(), qs.size(), out.data());
  WG_CUDA_TRY(cudaDeviceSynchronize());
  const auto ho = out.to_host();
  for (std::size_t i = 0; i < qs.size(); ++i)
    ASSERT_EQ(ho[i] != 0, arcs.count({qs[i], qd[i]}) > 0) << qs[i] << " " << qd[i];
}

TEST(BTreeGraph, DeviceViewUndirectedSet) {
  device_view<false>(false);
}
TEST(BTreeGraph, DeviceViewDirectedMap) {
  device_view<true>(true);
}

// ---- datasets: contents, triangles, BFS, components ------------------------------------------

class BTreeDataset : public ::testing::TestWithParam<wg::test::DatasetFigures> {};

TEST_P(BTreeDataset, MatchesModelSlabGraphAndReference) {
  WG_REQUIRE_GPU();
  const auto p = GetParam();
  WG_REQUIRE_DATASET(path, p.file);
  EdgeList e = wg::test::unweighted_edges(path);
  for (std::size_t i = 0; i < e.size(); ++i)
    e.num_vertices = std::max<std::uint64_t>(e.num_vertices, std::max(e.src[i], e.dst[i]) + 1ull);
  BGraph<false> g(0);
  GraphModel m(0, false);
  m.clear(e.num_vertices);
  ASSERT_EQ(g.build(e), m.insert(e));
  expect_same(g, m, false, p.file);
  EXPECT_EQ(g.num_edges(), p.edges);
  EXPECT_EQ(g.max_degree(), p.max_degree);

  const wg::reference::TriangleCounts ref = wg::reference::triangle_count(e);
  EXPECT_EQ(ref.total, p.triangles);
  for (unsigned lanes : {4u, 8u, 32u})
    EXPECT_EQ(wg::gpu::count_triangles_sorted(g, {.lanes_per_arc = lanes}), p.triangles)
        << lanes << " lanes per arc";
  EXPECT_EQ(wg::gpu::count_triangles(g), p.triangles);
  const wg::gpu::TriangleCounts pv = wg::gpu::count_triangles_per_vertex(g);
  EXPECT_EQ(pv.per_vertex, ref.per_vertex);
  wg::gpu::Graph slab(0);
  slab.build(e);
  EXPECT_EQ(wg::gpu::count_triangles(slab), p.triangles);
  BGraph<true> w(0);
  w.build(e);
  EXPECT_EQ(wg::gpu::count_triangles_sorted(w), p.triangles);

  const wg::gpu::BfsResult b = wg::gpu::bfs(g, 0);
  EXPECT_EQ(b.level, wg::reference::bfs_levels(e, 0, false));
  EXPECT_EQ(b.reached, p.bfs_reached);
  const wg::gpu::Components c = wg::gpu::connected_components(g);
  const auto want = wg::reference::connected_components(e);
  EXPECT_EQ(c.component, want.component);
  EXPECT_EQ(c.count, p.components);
  EXPECT_EQ(wg::gpu::core_numbers(g).core, wg::reference::core_numbers(e));

  // The incremental counter: a third of the edges out, then back in.
  {
    wg::gpu::SortedTriangleCounter<false> tc(g);
    ASSERT_EQ(tc.total(), p.triangles);
    EdgeList third;
    third.num_vertices = e.num_vertices;
    for (std::size_t i = 0; i < e.size(); i += 3) {
      third.src.push_back(e.src[i]);
      third.dst.push_back(e.dst[i]);
    }
    const auto out = tc.erase_edges(third);
    ASSERT_EQ(out.update, m.erase(third));
    ASSERT_EQ(out.total, wg::reference::triangle_count(m.export_coo(false)).total);
    ASSERT_EQ(out.total, wg::gpu::count_triangles_sorted(g));
    const auto in = tc.insert_edges(third);
    ASSERT_EQ(in.update, m.insert(third));
    ASSERT_EQ(in.total, p.triangles);
    expect_same(g, m, false, "after the counter's batches");
  }

  // SSSP on the weighted B-tree graph (a weight per unordered pair, so repeats agree).
  EdgeList weighted = e;
  for (std::size_t i = 0; i < e.size(); ++i) {
    const std::uint64_t a = std::min(e.src[i], e.dst[i]), z = std::max(e.src[i], e.dst[i]);
    weighted.weight.push_back(static_cast<double>(1 + (a * 31 + z) % 13));
  }
  BGraph<true> wg_graph(0);
  wg_graph.build(weighted);
  const wg::gpu::SsspResult sp = wg::gpu::sssp(wg_graph, 0);
  const std::vector<double> want_d = wg::reference::sssp(weighted, 0, false);
  ASSERT_EQ(sp.distance.size(), want_d.size());
  for (std::size_t v = 0; v < want_d.size(); ++v) {
    if (std::isinf(want_d[v]))
      ASSERT_EQ(sp.distance[v], wg::gpu::kSsspUnreached) << "vertex " << v;
    else
      ASSERT_EQ(sp.distance[v], static_cast<std::uint32_t>(want_d[v])) << "vertex " << v;
  }
}

TEST_P(BTreeDataset, UpdateStreamMatchesModel) {
  WG_REQUIRE_GPU();
  const auto p = GetParam();
  WG_REQUIRE_DATASET(path, p.file);
  EdgeList e = wg::test::unweighted_edges(path);
  e.symmetric = true;
  wg::datasets::StreamParams sp;
  sp.initial_fraction = 0.4;
  sp.batch_size = std::max<std::uint64_t>(e.size() / 6, 16);
  sp.seed = 41;
  const wg::datasets::UpdateStream stream = wg::datasets::make_update_stream(e, sp);
  BGraph<false> g(0);
  GraphModel m(0, false);
  m.clear(stream.initial.num_vertices);
  ASSERT_EQ(g.build(stream.initial), m.insert(stream.initial));
  wg::gpu::SortedTriangleCounter<false> tc(g);
  TestRng rng{43};
  replay_stream(stream, tc, m, [&](std::size_t i, const auto& r, bool) {
    expect_same(g, m, false, p.file);
    expect_has_edges(g, m, rng, m.id_range() + 2, &stream.batches[i].edges);
    ASSERT_EQ(r.total, wg::reference::triangle_count(m.export_coo(false)).total);
  });
}

INSTANTIATE_TEST_SUITE_P(
    Datasets, BTreeDataset, ::testing::ValuesIn(wg::test::kDatasetFigures),
    wg::test::figure_test_name<::testing::TestParamInfo<wg::test::DatasetFigures>>);

// ---- R-MAT update streams: contents after every batch, exact triangle counts ------------------

template <bool W, class Counter>
void rmat_stream(unsigned scale, std::uint64_t batch_size, std::uint64_t seed) {
  WG_REQUIRE_GPU();
  const EdgeList graph =
      wg::datasets::generate_rmat({.scale = scale, .edge_factor = 16, .seed = seed});
  const wg::datasets::UpdateStream stream =
      wg::datasets::make_update_stream(graph, {.initial_fraction = 0.3,
                                               .batch_size = batch_size,
                                               .delete_probability = 0.5,
                                               .seed = seed + 1});
  ASSERT_GT(stream.batches.size(), 2u);
  BGraph<W> g(0);
  GraphModel m(0, false);
  m.clear(stream.initial.num_vertices);
  ASSERT_EQ(g.build(stream.initial), m.insert(stream.initial));
  Counter tc(g);
  ASSERT_EQ(tc.total(), wg::reference::triangle_count(m.export_coo(false)).total);
  wg::gpu::Graph slab(0);
  slab.build(stream.initial);
  TestRng rng{seed};
  for (std::size_t i = 0; i < stream.batches.size(); ++i) {
    SCOPED_TRACE("batch " + std::to_string(i));
    const auto& b = stream.batches[i];
    const bool ins = b.kind == wg::datasets::UpdateBatch::Kind::insert;
    const auto r = ins ? tc.insert_edges(b.edges) : tc.erase_edges(b.edges);
    ASSERT_EQ(r.update, ins ? m.insert(b.edges) : m.erase(b.edges));
    if (ins)
      slab.insert_edges(b.edges);
    else
      slab.erase_edges(b.edges);
    expect_same(g, m, false, "stream");
    expect_has_edges(g, m, rng, m.id_range() + 2, &b.edges);
    const std::uint64_t want = wg::reference::triangle_count(m.export_coo(false)).total;
    ASSERT_EQ(r.total, want);
    ASSERT_EQ(wg::gpu::count_triangles_sorted(g), want);
    ASSERT_EQ(wg::gpu::count_triangles(slab), want);
    // Triangles through a sample of edges: the leaf merge, the descents and the generic kernel
    // agree.
    const EdgeList now = m.export_coo(false);
    const unsigned bits = wg::gpu::key_bits_for(g.num_vertices());
    std::vector<std::uint64_t> keys;
    for (std::size_t j = 0; j < now.size(); j += 1 + now.size() / 3000)
      keys.push_back((std::uint64_t{now.src[j]} << bits) | now.dst[j]);
    if (keys.empty()) continue;
    const auto dk = wg::DeviceBuffer<std::uint64_t>::from_host(keys);
    const std::uint64_t through =
        wg::gpu::count_triangles_touching(g, dk.data(), keys.size(), bits);
    for (unsigned ratio : {0u, 1u, 8u, 1u << 30})
      ASSERT_EQ(wg::gpu::count_triangles_touching_sorted(g, dk.data(), keys.size(), bits,
                                                         {.merge_ratio = ratio}),
                through)
          << "merge_ratio " << ratio;
  }
}

TEST(BTreeGraph, RmatStreamSet) {
  const unsigned s = wg::test::gpu_test_scale(12);
  rmat_stream<false, wg::gpu::IncrementalTriangleCounter<BGraph<false>>>(
      s, std::uint64_t{1} << (s + 1), 31);
}
TEST(BTreeGraph, RmatStreamMapSmallBatches) {
  const unsigned s = wg::test::gpu_test_scale(12) > 2 ? wg::test::gpu_test_scale(12) - 2
                                                      : wg::test::gpu_test_scale(12);
  rmat_stream<true, wg::gpu::SortedTriangleCounter<true>>(
      s, std::min<std::uint64_t>(500, std::uint64_t{1} << s), 32);
}
TEST(BTreeGraph, RmatStreamSetSortedCounter) {
  const unsigned s = wg::test::gpu_test_scale(12) > 1 ? wg::test::gpu_test_scale(12) - 1
                                                      : wg::test::gpu_test_scale(12);
  rmat_stream<false, wg::gpu::SortedTriangleCounter<false>>(s, std::uint64_t{1} << s, 33);
}

}  // namespace
