// The CLI's reference backend (tools/cli/backend_reference.cpp) driven directly: its incremental
// triangle count must equal a full recount and the Boost.Graph reference after every batch, and
// its graph must equal a host model, on R-MAT update streams and on small dense random streams
// where many triangles get 2 or 3 of their edges from the same batch.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/update_stream.hpp>

#include "backend.hpp"
#include "stream_check.hpp"

namespace {

using wg::EdgeList;
using wg::vertex_t;
using Edge = std::pair<vertex_t, vertex_t>;

/// Host model: the simple undirected graph (the replay `warpgraph stream --verify` uses).
using Model = wg::cli::EdgeSetReplay;

void expect_matches(wg::cli::GraphBackend& backend, const Model& model, std::uint64_t count,
                    const std::string& where) {
  std::vector<std::uint64_t> per_vertex;
  EXPECT_EQ(backend.recount_triangles(&per_vertex), count) << where;
  const EdgeList exported = backend.export_edges();
  const auto reference = wg::reference::triangle_count(exported);
  EXPECT_EQ(reference.total, count) << where;
  per_vertex.resize(reference.per_vertex.size(), 0);
  EXPECT_EQ(per_vertex, reference.per_vertex) << where;
  const std::vector<std::uint64_t> keys = model.sorted_keys();
  ASSERT_EQ(exported.size(), keys.size()) << where;
  EXPECT_EQ(backend.num_edges(), keys.size()) << where;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const Edge e(static_cast<vertex_t>(keys[i] >> 32), static_cast<vertex_t>(keys[i]));
    ASSERT_EQ(Edge(exported.src[i], exported.dst[i]), e) << where << ", edge " << i;
  }
}

void run_stream(const wg::datasets::UpdateStream& stream) {
  auto backend = wg::cli::make_reference_backend();
  Model model;
  model.apply(stream.initial, true);
  const auto built = backend->build(stream.initial);
  EXPECT_EQ(built.edges_changed, model.size());
  expect_matches(*backend, model, built.triangles, "initial");
  for (std::size_t i = 0; i < stream.batches.size(); ++i) {
    const auto& batch = stream.batches[i];
    const bool insert = batch.kind == wg::datasets::UpdateBatch::Kind::insert;
    const auto outcome =
        insert ? backend->insert_edges(batch.edges) : backend->erase_edges(batch.edges);
    const std::uint64_t changed = model.apply(batch.edges, insert);
    const std::string where = "batch " + std::to_string(i) + (insert ? " (insert)" : " (erase)");
    EXPECT_EQ(outcome.edges_changed, changed) << where;
    expect_matches(*backend, model, outcome.triangles, where);
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(ReferenceBackend, RmatStreamMatchesRecountAfterEveryBatch) {
  const EdgeList graph = wg::datasets::generate_rmat({.scale = 10, .edge_factor = 8, .seed = 3});
  const auto stream = wg::datasets::make_update_stream(graph, {.initial_fraction = 0.3,
                                                               .batch_size = 700,
                                                               .delete_probability = 0.6,
                                                               .duplicate_fraction = 0.1,
                                                               .absent_fraction = 0.1,
                                                               .seed = 11});
  ASSERT_GT(stream.batches.size(), 4u);
  run_stream(stream);
  // The stream ends on the simple graph of the input.
  auto backend = wg::cli::make_reference_backend();
  backend->build(graph);
  EXPECT_EQ(backend->num_edges(), [&] {
    Model m;
    m.apply(graph, true);
    return m.size();
  }());
}

/// Dense random batches on 24 vertices: most new triangles have 2 or 3 new edges.
TEST(ReferenceBackend, DenseRandomBatchesWithManyNewEdgesPerTriangle) {
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<vertex_t> vertex(0, 23);
  wg::datasets::UpdateStream stream;
  stream.initial.num_vertices = 24;
  stream.initial.symmetric = true;
  for (int b = 0; b < 40; ++b) {
    wg::datasets::UpdateBatch batch;
    batch.kind = b % 3 == 2 ? wg::datasets::UpdateBatch::Kind::erase
                            : wg::datasets::UpdateBatch::Kind::insert;
    batch.edges.num_vertices = 24;
    batch.edges.symmetric = true;
    const int n = 1 + static_cast<int>(rng() % 80);
    for (int i = 0; i < n; ++i) {  // self-loops and duplicates included
      batch.edges.src.push_back(vertex(rng));
      batch.edges.dst.push_back(vertex(rng));
    }
    stream.batches.push_back(std::move(batch));
  }
  run_stream(stream);
}

TEST(ReferenceBackend, WholeTriangleInOneBatchAndBack) {
  wg::datasets::UpdateStream stream;
  auto batch = [](bool insert, std::vector<Edge> edges) {
    wg::datasets::UpdateBatch b;
    b.kind =
        insert ? wg::datasets::UpdateBatch::Kind::insert : wg::datasets::UpdateBatch::Kind::erase;
    b.edges.symmetric = true;
    for (auto [u, v] : edges) {
      b.edges.src.push_back(u);
      b.edges.dst.push_back(v);
      b.edges.num_vertices = std::max<std::uint64_t>(b.edges.num_vertices, std::max(u, v) + 1);
    }
    return b;
  };
  // K4 in one batch (4 triangles, each with 3 new edges), written in both directions.
  stream.batches.push_back(
      batch(true, {{0, 1}, {1, 2}, {2, 0}, {3, 0}, {3, 1}, {3, 2}, {1, 0}, {2, 2}}));
  stream.batches.push_back(batch(false, {{0, 1}, {1, 0}, {5, 6}}));         // 2 triangles go
  stream.batches.push_back(batch(true, {{0, 1}, {2, 3}, {4, 0}, {4, 1}}));  // 2 back, 1 new
  stream.batches.push_back(batch(false, {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}}));
  run_stream(stream);
}

TEST(ReferenceBackend, MismatchedEdgeListIsRejected) {
  auto backend = wg::cli::make_reference_backend();
  EdgeList bad;
  bad.src = {0, 1};
  bad.dst = {1};
  EXPECT_THROW(backend->insert_edges(bad), wg::InvalidArgument);
}

/// A backend that forwards to the reference but can lie: about the count after a batch, about
/// its recount, or by losing one edge.
class FaultyBackend final : public wg::cli::GraphBackend {
 public:
  enum class Fault { none, running_count, recount, lost_edge };
  explicit FaultyBackend(Fault f) : fault_(f), inner_(wg::cli::make_reference_backend()) {}
  std::string name() const override { return "faulty"; }
  wg::cli::BatchOutcome build(const EdgeList& e) override { return inner_->build(e); }
  wg::cli::BatchOutcome insert_edges(const EdgeList& b) override {
    auto o = inner_->insert_edges(b);
    if (fault_ == Fault::running_count) ++o.triangles;
    return o;
  }
  wg::cli::BatchOutcome erase_edges(const EdgeList& b) override { return inner_->erase_edges(b); }
  std::uint64_t recount_triangles(std::vector<std::uint64_t>* pv) override {
    return inner_->recount_triangles(pv) + (fault_ == Fault::recount ? 1 : 0);
  }
  EdgeList export_edges() override {
    EdgeList e = inner_->export_edges();
    if (fault_ == Fault::lost_edge && !e.empty()) {
      e.src.pop_back();
      e.dst.pop_back();
    }
    return e;
  }
  std::uint64_t num_vertices() const override { return inner_->num_vertices(); }
  std::uint64_t num_edges() const override { return inner_->num_edges(); }

 private:
  Fault fault_;
  std::unique_ptr<wg::cli::GraphBackend> inner_;
};

TEST(StreamVerification, DetectsEveryKindOfDisagreement) {
  const EdgeList graph = wg::datasets::generate_rmat({.scale = 8});
  const auto stream = wg::datasets::make_update_stream(graph, {.batch_size = 256});
  ASSERT_FALSE(stream.batches.empty());
  using Fault = FaultyBackend::Fault;
  for (Fault f : {Fault::none, Fault::running_count, Fault::recount, Fault::lost_edge}) {
    FaultyBackend backend(f);
    std::uint64_t count = backend.build(stream.initial).triangles;
    for (const auto& b : stream.batches) {
      count = (b.kind == wg::datasets::UpdateBatch::Kind::insert ? backend.insert_edges(b.edges)
                                                                 : backend.erase_edges(b.edges))
                  .triangles;
    }
    const auto v = wg::cli::verify_stream(backend, count, stream, &graph);
    const int fault = static_cast<int>(f);
    ASSERT_TRUE(v.input_reference.has_value());
    if (f == Fault::none) {
      EXPECT_TRUE(v.ok()) << v.problems.front();
      EXPECT_TRUE(v.edges_match);
      EXPECT_EQ(*v.input_reference, count);
    } else {
      EXPECT_FALSE(v.ok()) << "fault " << fault << " not detected";
    }
    if (f == Fault::lost_edge) EXPECT_FALSE(v.edges_match);
  }
}

TEST(BackendRegistry, NamesAndAuto) {
  const auto available = wg::cli::available_backends();
  ASSERT_FALSE(available.empty());
  EXPECT_EQ(available.front(), "reference");
  EXPECT_TRUE(wg::cli::is_backend_name("auto"));
  EXPECT_FALSE(wg::cli::is_backend_name("quantum"));
  EXPECT_EQ(wg::cli::make_backend("auto")->name(), wg::cli::default_backend());
  EXPECT_EQ(wg::cli::make_backend("reference")->name(), "reference");
  EXPECT_THROW(wg::cli::make_backend("quantum"), wg::Error);
  const auto usable = wg::cli::usable_backends();
  if (std::find(usable.begin(), usable.end(), "gpu") == usable.end()) {
    EXPECT_THROW(wg::cli::make_backend("gpu"), wg::Error);
  } else {
    EXPECT_EQ(wg::cli::default_backend(), "gpu");
  }
}

}  // namespace
