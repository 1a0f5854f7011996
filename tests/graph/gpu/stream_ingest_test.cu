// StreamIngest (graph/gpu/stream_ingest.hpp) against the synchronous path: the same R-MAT stream
// of mixed insert and erase batches goes through the pipeline into one graph and through the
// EdgeList overloads into another (its max_chunk set to the staging size, so both split a batch
// alike); after every batch the UpdateResults, the exported edges (weights too) and the degrees
// agree, and at the end has_edges does. Batches are larger and smaller than the staging slots,
// empty, from pageable memory that the caller overwrites as soon as submit() returns, and from
// caller-pinned memory. WG_GPU_TEST_SCALE (default 11) sets the R-MAT scale.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <future>
#include <random>
#include <string>
#include <vector>

#include <warpgraph/algorithms/tc/gpu/triangle_count.hpp>
#include <warpgraph/containers/core/pinned_buffer.hpp>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/gpu/stream_ingest.hpp>

#include "../../support/test_support.hpp"
#include "graph_test_options.hpp"

namespace {

using wg::EdgeList;
using wg::UpdateResult;
using wg::vertex_t;
using wg::gpu::UpdateKind;

unsigned test_scale() {
  const char* s = std::getenv("WG_GPU_TEST_SCALE");
  return s ? static_cast<unsigned>(std::atoi(s)) : 11u;
}

std::string str(const UpdateResult& r) {
  return "applied " + std::to_string(r.applied) + " self_loops " + std::to_string(r.self_loops) +
         " duplicates " + std::to_string(r.duplicates) + " ignored " + std::to_string(r.ignored);
}

struct StreamBatch {
  UpdateKind kind = UpdateKind::insert;
  EdgeList edges;
};

/// A mixed stream over an R-MAT graph of 2^scale vertices: insert batches of the given sizes
/// (cycled) cut from the graph's entries, each followed (every other time) by an erase batch of
/// entries inserted so far, with some absent edges; every 7th batch is empty. Batches carry
/// num_vertices 0, so the vertex range grows from their ids alone; weighted streams get weights
/// with halves (rounding) and repeats with new weights (last entry wins).
std::vector<StreamBatch> make_stream(unsigned scale, const std::vector<std::size_t>& sizes,
                                     bool weighted, std::uint64_t seed) {
  const EdgeList g = wg::datasets::generate_rmat(
      {.scale = scale, .edge_factor = 8, .seed = seed, .symmetric = true});
  std::mt19937_64 rng(seed);
  std::vector<StreamBatch> out;
  std::size_t pos = 0, turn = 0;
  std::vector<std::size_t> inserted;  // entries of g inserted so far
  while (pos < g.size()) {
    StreamBatch b;
    if (turn % 7 == 6) {  // an empty batch, in order with the others
      out.push_back(std::move(b));
      ++turn;
      continue;
    }
    const std::size_t n = std::min(sizes[turn % sizes.size()], g.size() - pos);
    for (std::size_t i = pos; i < pos + n; ++i) {
      b.edges.src.push_back(g.src[i]);
      b.edges.dst.push_back(g.dst[i]);
      if (weighted) b.edges.weight.push_back(static_cast<double>(rng() % 2000) * 0.5);
      inserted.push_back(i);
    }
    pos += n;
    out.push_back(std::move(b));
    if (turn % 2 == 0) {
      StreamBatch e{.kind = UpdateKind::erase, .edges = {}};
      const std::size_t m = std::max<std::size_t>(1, n / 2);
      for (std::size_t k = 0; k < m; ++k) {
        if (rng() % 10 == 0) {  // likely absent
          e.edges.src.push_back(static_cast<vertex_t>(rng() % (1u << scale)));
          e.edges.dst.push_back(static_cast<vertex_t>(rng() % (1u << scale)));
        } else {
          const std::size_t i = inserted[rng() % inserted.size()];
          e.edges.src.push_back(g.src[i]);
          e.edges.dst.push_back(g.dst[i]);
        }
      }
      out.push_back(std::move(e));
    }
    ++turn;
  }
  return out;
}

template <class Graph>
UpdateResult apply_sync(Graph& g, const StreamBatch& b) {
  return b.kind == UpdateKind::insert ? g.insert_edges(b.edges) : g.erase_edges(b.edges);
}

struct Snapshot {
  EdgeList coo;
  std::vector<std::uint32_t> degrees;
  std::uint64_t num_vertices = 0;
};

enum class Memory { pageable, pinned };

/// The pipeline and the synchronous path on one stream; snapshots taken in the on_batch
/// callback (the apply thread, in order) are compared with the synchronous graph after each batch.
template <class Adj>
void compare_stream(bool directed, Memory memory, std::uint64_t staging, int slots,
                    const std::vector<std::size_t>& sizes, std::uint64_t seed,
                    unsigned extra_scale = 0) {
  WG_REQUIRE_GPU();
  constexpr bool weighted = Adj::weighted;
  using Graph = wg::gpu::DynamicGraph<Adj>;
  const std::vector<StreamBatch> stream =
      make_stream(test_scale() + extra_scale, sizes, weighted, seed);
  wg::gpu::GraphOptions sync_opt = wg::test::graph_options(directed);
  sync_opt.max_chunk = staging;
  Graph sync(0, sync_opt), pipe(0, wg::test::graph_options(directed));

  std::vector<Snapshot> snaps;
  std::vector<wg::gpu::IngestedBatch> seen;
  std::vector<std::future<UpdateResult>> futures;
  {
    wg::gpu::StreamIngest<Graph> ingest(
        pipe,
        {.staging_entries = staging, .slots = slots, .copy_threads = 3, .parallel_copy_from = 256},
        {}, [&](const wg::gpu::IngestedBatch& b) {
          seen.push_back(b);
          snaps.push_back({pipe.export_coo(), pipe.degrees(), pipe.num_vertices()});
        });
    // Pageable: one buffer, refilled right after each submit (the API allows it); overwriting
    // it with junk first makes a late read visible. Pinned: one arena holding every batch, kept
    // until drain().
    EdgeList reused;
    std::size_t total = 0;
    for (const auto& b : stream) total += b.edges.size();
    wg::PinnedBuffer<vertex_t> psrc(memory == Memory::pinned ? total + 1 : 0),
        pdst(memory == Memory::pinned ? total + 1 : 0);
    wg::PinnedBuffer<double> pw(memory == Memory::pinned && weighted ? total + 1 : 0);
    std::size_t at = 0;
    for (const auto& b : stream) {
      if (memory == Memory::pageable) {
        reused = b.edges;
        futures.push_back(ingest.submit(b.kind, reused));
        std::fill(reused.src.begin(), reused.src.end(), 0xDEADu);
        std::fill(reused.dst.begin(), reused.dst.end(), 0xBEEFu);
        std::fill(reused.weight.begin(), reused.weight.end(), -1.0);
        reused.src.assign(3, 1);  // and resized, which may move it
      } else {
        const std::size_t n = b.edges.size();
        std::copy(b.edges.src.begin(), b.edges.src.end(), psrc.data() + at);
        std::copy(b.edges.dst.begin(), b.edges.dst.end(), pdst.data() + at);
        if (weighted) std::copy(b.edges.weight.begin(), b.edges.weight.end(), pw.data() + at);
        futures.push_back(ingest.submit_pinned(
            b.kind, {.src = psrc.data() + at,
                     .dst = pdst.data() + at,
                     .weight = weighted && b.edges.weighted() ? pw.data() + at : nullptr,
                     .size = n,
                     .num_vertices = 0}));
        at += n;
      }
    }
    ingest.drain();
    EXPECT_EQ(ingest.completed(), stream.size());
  }
  ASSERT_EQ(snaps.size(), stream.size());
  ASSERT_EQ(seen.size(), stream.size());
  for (std::size_t i = 0; i < stream.size(); ++i) {
    SCOPED_TRACE("batch " + std::to_string(i) + " of " + std::to_string(stream.size()) +
                 (stream[i].kind == UpdateKind::insert ? " insert " : " erase ") +
                 std::to_string(stream[i].edges.size()));
    const UpdateResult want = apply_sync(sync, stream[i]);
    ASSERT_TRUE(futures[i].valid());
    const UpdateResult got = futures[i].get();
    ASSERT_EQ(got, want) << str(got) << " vs " << str(want);
    ASSERT_EQ(seen[i].index, i);
    ASSERT_EQ(seen[i].result, want);
    ASSERT_EQ(seen[i].entries, stream[i].edges.size());
    ASSERT_EQ(got.entries(), stream[i].edges.size());
    ASSERT_EQ(snaps[i].num_vertices, sync.num_vertices());
    const EdgeList coo = sync.export_coo();
    ASSERT_EQ(snaps[i].coo.src, coo.src);
    ASSERT_EQ(snaps[i].coo.dst, coo.dst);
    if (weighted) ASSERT_EQ(snaps[i].coo.weight, coo.weight);
    ASSERT_EQ(snaps[i].degrees, sync.degrees());
  }
  ASSERT_EQ(pipe.num_edges(), sync.num_edges());
  // Queries: half edges of the graph, half random pairs.
  EdgeList q = sync.export_coo();
  std::mt19937_64 rng(seed + 99);
  const std::size_t half = q.size();
  for (std::size_t k = 0; k < half + 100; ++k) {
    q.src.push_back(static_cast<vertex_t>(rng() % (sync.num_vertices() + 2)));
    q.dst.push_back(static_cast<vertex_t>(rng() % (sync.num_vertices() + 2)));
  }
  q.weight.clear();
  ASSERT_EQ(pipe.has_edges(q), sync.has_edges(q));
}

// Batches smaller than a slot, larger (split into up to 6 chunks), empty; 2 and 3 slots.
TEST(StreamIngest, PageableMixedUndirectedSet) {
  compare_stream<wg::gpu::SlabSetAdjacency>(false, Memory::pageable, 1000, 3,
                                            {700, 5000, 1, 1000, 1001, 3000}, 1);
}
TEST(StreamIngest, PageableMixedDirectedSet) {
  compare_stream<wg::gpu::SlabSetAdjacency>(true, Memory::pageable, 1000, 2, {4999, 30, 1000, 2500},
                                            2);
}
TEST(StreamIngest, PageableMixedUndirectedMap) {
  compare_stream<wg::gpu::SlabMapAdjacency>(false, Memory::pageable, 1000, 3,
                                            {700, 5000, 2, 1000, 1999}, 3);
}
TEST(StreamIngest, PageableMixedDirectedMap) {
  compare_stream<wg::gpu::SlabMapAdjacency>(true, Memory::pageable, 512, 2, {3000, 100, 512}, 4);
}
TEST(StreamIngest, PinnedMixedUndirectedSet) {
  compare_stream<wg::gpu::SlabSetAdjacency>(false, Memory::pinned, 1000, 3,
                                            {700, 5000, 1, 1000, 1001}, 5);
}
TEST(StreamIngest, PinnedMixedDirectedMap) {
  compare_stream<wg::gpu::SlabMapAdjacency>(true, Memory::pinned, 1000, 3, {2500, 10, 999}, 6);
}
// Slots of the default's order, batches around them, the copy split over host threads.
TEST(StreamIngest, LargeBatchesUndirectedSet) {
  compare_stream<wg::gpu::SlabSetAdjacency>(false, Memory::pageable, 1 << 14, 3,
                                            {1 << 15, (1 << 14) + 1, 3000}, 7, 4);
}

TEST(StreamIngest, PinnedRefusesPageableMemory) {
  WG_REQUIRE_GPU();
  wg::gpu::Graph g(16);
  wg::gpu::StreamIngest<wg::gpu::Graph> ingest(g, {.staging_entries = 64});
  std::vector<vertex_t> s{1, 2}, d{2, 3};
  EXPECT_THROW(
      ingest.submit_pinned(UpdateKind::insert, {.src = s.data(), .dst = d.data(), .size = 2}),
      wg::InvalidArgument);
  EdgeList bad;
  bad.src = {1, 2};
  bad.dst = {2};
  EXPECT_THROW(ingest.submit(UpdateKind::insert, bad), wg::InvalidArgument);
  EXPECT_NO_THROW(ingest.drain());
}

// A batch with a weight outside uint32: its future throws InvalidArgument (its earlier chunks
// stay applied, as for the synchronous path), later batches are not applied, drain rethrows.
TEST(StreamIngest, FailedBatchStopsTheStream) {
  WG_REQUIRE_GPU();
  wg::gpu::WeightedGraph g(64);
  std::future<UpdateResult> f0, f1, f2;
  {
    wg::gpu::StreamIngest<wg::gpu::WeightedGraph> ingest(g, {.staging_entries = 4, .slots = 2});
    EdgeList ok;
    ok.src = {1, 2};
    ok.dst = {2, 3};
    ok.weight = {1, 2};
    EdgeList bad;
    bad.src = {4, 5, 6, 7, 8, 9};
    bad.dst = {5, 6, 7, 8, 9, 10};
    bad.weight = {1, 1, 1, 1, -3, 1};  // entry 4: second chunk
    f0 = ingest.submit(UpdateKind::insert, ok);
    f1 = ingest.submit(UpdateKind::insert, bad);
    EdgeList later;
    later.src = {20};
    later.dst = {21};
    f2 = ingest.submit(UpdateKind::insert, later);
    EXPECT_THROW(ingest.drain(), wg::InvalidArgument);
    EXPECT_NO_THROW(ingest.drain());  // reported once
  }
  EXPECT_EQ(f0.get().applied, 2u);
  EXPECT_THROW(f1.get(), wg::InvalidArgument);
  EXPECT_THROW(f2.get(), wg::Error);
  EXPECT_EQ(g.num_edges(), 6u);  // the bad batch's first chunk (4 edges) stays applied
  const auto has = g.has_edges(EdgeList{.num_vertices = 0, .src = {20}, .dst = {21}});
  EXPECT_EQ(has[0], 0);
}

// The apply hook: an IncrementalTriangleCounter counts while the pipeline updates; its totals
// after every batch equal a counter fed synchronously.
TEST(StreamIngest, TriangleCounterHook) {
  WG_REQUIRE_GPU();
  using Graph = wg::gpu::Graph;
  const std::uint64_t staging = 700;
  const std::vector<StreamBatch> stream = make_stream(test_scale(), {500, 2000, 700}, false, 11);
  wg::gpu::GraphOptions sync_opt = wg::test::graph_options(false);
  sync_opt.max_chunk = staging;
  Graph sync(0, sync_opt), pipe(0, wg::test::graph_options(false));
  wg::gpu::IncrementalTriangleCounter<Graph> sync_tc(sync), pipe_tc(pipe);
  std::vector<std::uint64_t> totals;
  {
    wg::gpu::StreamIngest<Graph> ingest(
        pipe, {.staging_entries = staging, .slots = 3},
        [&](UpdateKind k, wg::gpu::DeviceEdges e) {
          return (k == UpdateKind::insert ? pipe_tc.insert_edges(e) : pipe_tc.erase_edges(e))
              .update;
        },
        [&](const wg::gpu::IngestedBatch&) { totals.push_back(pipe_tc.total()); });
    for (const auto& b : stream) ingest.submit(b.kind, b.edges);
    ingest.drain();
  }
  ASSERT_EQ(totals.size(), stream.size());
  for (std::size_t i = 0; i < stream.size(); ++i) {
    const auto r = stream[i].kind == UpdateKind::insert ? sync_tc.insert_edges(stream[i].edges)
                                                        : sync_tc.erase_edges(stream[i].edges);
    ASSERT_EQ(totals[i], r.total) << "batch " << i;
  }
  EXPECT_EQ(pipe_tc.recount(), sync_tc.total());
}

}  // namespace
