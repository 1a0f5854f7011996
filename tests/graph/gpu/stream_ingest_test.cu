// StreamIngest (graph/gpu/stream_ingest.hpp) against the synchronous path: the same R-MAT stream
// of mixed insert and erase batches goes through the pipeline into one graph and through the
// EdgeList overloads into another (its max_chunk set to the staging size, so both split a batch
// alike); after every batch the UpdateResults, the exported edges (weights too) and the degrees
// agree, and at the end has_edges does. Batches are larger and smaller than the staging slots,
// empty, from pageable memory that the caller overwrites as soon as submit() returns, and from
// caller-pinned memory. WG_GPU_TEST_SCALE (default 11) sets the R-MAT scale.
// Graph files built through EdgeUpload while they are parsed (read_graph's on_edges, as the CLI's
// gpu backend builds them) give the graph that build(EdgeList) gives: contents, degrees, counts,
// on the bundled graphs and on generated files larger than the staging slots; bad lines and bad
// weights fail with the same messages.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <random>
#include <string>
#include <vector>

#include <warpgraph/algorithms/tc/gpu/triangle_count.hpp>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/containers/core/pinned_buffer.hpp>
#include <warpgraph/datasets/detail/parallel_lines.hpp>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/gpu/host_batch.hpp>
#include <warpgraph/graph/gpu/stream_ingest.hpp>

#include "../../support/test_support.hpp"
#include "graph_model.hpp"
#include "graph_test_options.hpp"

namespace {

using wg::EdgeList;
using wg::UpdateResult;
using wg::vertex_t;
using wg::gpu::UpdateKind;
using wg::test::str;

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
      make_stream(wg::test::gpu_test_scale(11) + extra_scale, sizes, weighted, seed);
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
  const std::vector<StreamBatch> stream =
      make_stream(wg::test::gpu_test_scale(11), {500, 2000, 700}, false, 11);
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

// ---- graph files: the pipelined build (EdgeUpload fed by read_graph's on_edges) ----------------

/// Small segments and slots, so that a few-MB file is many chunks and many staged copies.
struct SmallSegments {
  SmallSegments() {
    wg::datasets::detail::chunk_policy() = {.min_chunk_bytes = std::size_t{1} << 16,
                                            .max_threads = 4,
                                            .stream_segment_bytes = std::size_t{1} << 15};
  }
  ~SmallSegments() { wg::datasets::detail::chunk_policy() = {}; }
};

template <class Graph>
void expect_same_graph(const Graph& want, const Graph& got) {
  ASSERT_EQ(got.num_vertices(), want.num_vertices());
  ASSERT_EQ(got.num_live_vertices(), want.num_live_vertices());
  ASSERT_EQ(got.num_edges(), want.num_edges());
  ASSERT_EQ(got.degrees(), want.degrees());
  const EdgeList a = want.export_coo(), b = got.export_coo();
  ASSERT_EQ(b.src, a.src);
  ASSERT_EQ(b.dst, a.dst);
  ASSERT_EQ(b.weight, a.weight);
}

/// Reads `path` twice: plainly, then built into a graph through EdgeUpload while it is parsed.
/// Returns the error messages (empty when it worked) of both ways, after comparing the graphs.
template <class Graph>
std::pair<std::string, std::string> build_both(const std::string& path,
                                               const wg::gpu::EdgeUploadOptions& uo) {
  std::string plain_error, piped_error;
  Graph want(0), got(0);
  try {
    const auto r = wg::datasets::read_graph(path);
    const UpdateResult built = want.build(r.edges);
    EXPECT_EQ(built.entries(), r.edges.size());
  } catch (const wg::Error& e) {
    plain_error = e.what();
  }
  try {
    wg::gpu::EdgeUpload up(Graph::is_weighted, got.stream(), uo);
    wg::datasets::ReadOptions o;
    std::uint64_t chunks = 0;
    o.on_edges = [&](const wg::datasets::EdgeChunk& c) {
      up.append(c.src, c.dst, c.weight, c.size);
      ++chunks;
    };
    const auto r = wg::datasets::read_graph(path, o);
    EXPECT_EQ(up.size(), r.edges.size());
    const std::uint64_t n = up.size();
    const wg::gpu::HostBatchUpload u = up.finish();
    EXPECT_EQ(up.size(), 0u);
    const UpdateResult built =
        got.build(u.view(n), std::max<std::uint64_t>(r.edges.num_vertices, u.id_range));
    EXPECT_EQ(built.entries(), n);
    // Unweighted files reach the graph in pieces while they parse; weighted ones in one piece,
    // once the reader's duplicate rule (smallest weight) has seen every entry.
    if (r.edges.size() > (std::size_t{1} << 15) && r.edges.weight.empty()) EXPECT_GT(chunks, 1u);
  } catch (const wg::Error& e) {
    piped_error = e.what();
  }
  if (plain_error.empty() && piped_error.empty()) expect_same_graph(want, got);
  return {plain_error, piped_error};
}

class PipelinedBuild : public ::testing::TestWithParam<const char*> {};

TEST_P(PipelinedBuild, SameGraphAsThePlainBuild) {
  WG_REQUIRE_DATASET(path, GetParam());
  SmallSegments small;
  for (std::uint64_t staging : {std::uint64_t{1} << 12, std::uint64_t{1} << 20}) {
    const auto [a, b] =
        build_both<wg::gpu::Graph>(path, {.staging_entries = staging, .slots = 2, .reserve = 0});
    EXPECT_EQ(a, "");
    EXPECT_EQ(b, "");
    // Weighted: the same graph, or the same error for a weight outside uint32.
    const auto [c, d] = build_both<wg::gpu::WeightedGraph>(
        path, {.staging_entries = staging, .slots = 3, .reserve = 1000});
    EXPECT_EQ(d, c);
  }
}
INSTANTIATE_TEST_SUITE_P(Bundled, PipelinedBuild, wg::test::kBundledGraphs,
                         wg::test::graph_test_name);

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = (std::filesystem::path(::testing::TempDir()) / name).string();
  std::ofstream f(path, std::ios::binary);
  f << text;
  return path;
}

/// A generated R-MAT file (SNAP, or Matrix Market with weights) of 2^scale * 8 entries.
std::string rmat_text(unsigned scale, bool mm) {
  const EdgeList g = wg::datasets::generate_rmat(
      {.scale = scale, .edge_factor = 8, .seed = 17, .symmetric = true});
  std::string t;
  if (mm) {
    t = "%%MatrixMarket matrix coordinate real general\n" + std::to_string(1u << scale) + " " +
        std::to_string(1u << scale) + " " + std::to_string(g.size()) + "\n";
  }
  for (std::size_t i = 0; i < g.size(); ++i) {
    t += std::to_string(g.src[i] + (mm ? 1 : 0)) + " " + std::to_string(g.dst[i] + (mm ? 1 : 0));
    if (mm) t += " " + std::to_string(i % 1000) + ".5";
    t += "\n";
  }
  return t;
}

TEST(PipelinedBuild, GeneratedFilesLargerThanTheSlots) {
  SmallSegments small;
  const unsigned scale = std::max(wg::test::gpu_test_scale(11), 12u);
  for (bool mm : {false, true}) {
    const std::string path = write_file(mm ? "rmat.mtx" : "rmat.txt", rmat_text(scale, mm));
    const wg::gpu::EdgeUploadOptions uo{.staging_entries = 1000, .slots = 2, .reserve = 0};
    const auto [a, b] = build_both<wg::gpu::Graph>(path, uo);
    EXPECT_EQ(a, "");
    EXPECT_EQ(b, "");
    const auto [c, d] = build_both<wg::gpu::WeightedGraph>(path, uo);
    EXPECT_EQ(c, "");
    EXPECT_EQ(d, "");
  }
}

TEST(PipelinedBuild, BadLinesAndWeightsFailAlike) {
  SmallSegments small;
  std::string snap = rmat_text(12, false);
  snap.insert(snap.find('\n', snap.size() * 3 / 4) + 1, "17 x3\n");
  std::string mm = rmat_text(12, true);
  std::string bad_weight = mm;
  bad_weight.insert(bad_weight.find('\n', bad_weight.size() / 2) + 1, "3 4 -2.5\n");
  // (one entry more than the size line declares: also a parse error, reported at the end)
  const std::string unweighted_bad = write_file("bad.txt", snap);
  const std::string too_many = write_file("too_many.mtx", mm + "1 2 3\n");
  const std::string negative = write_file("negative.mtx", bad_weight);
  const wg::gpu::EdgeUploadOptions uo{.staging_entries = 1000, .slots = 2, .reserve = 0};
  for (const std::string& p : {unweighted_bad, too_many}) {
    const auto [a, b] = build_both<wg::gpu::Graph>(p, uo);
    EXPECT_NE(a, "") << p;
    EXPECT_EQ(b, a) << p;
  }
  // The size line of `negative` declares one entry less than it has: the parse fails first.
  std::string fixed = bad_weight;
  {
    const std::size_t l1 = fixed.find('\n') + 1, l2 = fixed.find('\n', l1);
    const std::string line = fixed.substr(l1, l2 - l1);
    const std::size_t sp = line.rfind(' ');
    const std::uint64_t entries = std::stoull(line.substr(sp + 1)) + 1;
    fixed.replace(l1, l2 - l1, line.substr(0, sp + 1) + std::to_string(entries));
  }
  const std::string weight_path = write_file("weight.mtx", fixed);
  {
    const auto [a, b] = build_both<wg::gpu::WeightedGraph>(weight_path, uo);
    EXPECT_NE(a.find("is outside the uint32 value range"), std::string::npos) << a;
    EXPECT_EQ(b, a);
    // An unweighted graph ignores weights, both ways.
    const auto [c, d] = build_both<wg::gpu::Graph>(weight_path, uo);
    EXPECT_EQ(c, "");
    EXPECT_EQ(d, "");
  }
  {
    const auto [a, b] = build_both<wg::gpu::WeightedGraph>(negative, uo);
    EXPECT_NE(a, "");
    EXPECT_EQ(b, a);
  }
}

}  // namespace
