// Several dynamic results kept on one CPU graph (issue 44, defect 2): calling each result's own
// insert_edges in turn applies the batch once, so the second result saw nothing to do and
// answered wrong; it now refuses (StaleResultError) until recompute(). The DynamicResults set
// applies each batch once and every tracked result follows it: triangles, components and core
// numbers equal the static computations after every batch of an insert/erase stream; and the
// frame's mixed step on CPU policies.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <warpgraph/algorithms/dynamic_frame.hpp>
#include <warpgraph/algorithms/kcore/cpu/kcore.hpp>
#include <warpgraph/algorithms/tc/cpu/triangle_count.hpp>
#include <warpgraph/algorithms/wcc/cpu/wcc.hpp>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/update_stream.hpp>

namespace wg::cpu {
namespace {

/// A sparse R-MAT cut into an initial part and insert/erase batches (many components, so
/// insertions merge them and deletions split them).
datasets::UpdateStream sparse_stream() {
  const EdgeList whole = datasets::generate_rmat({.scale = 11, .edge_factor = 2, .seed = 7});
  return datasets::make_update_stream(whole,
                                      {.initial_fraction = 0.5, .batch_size = 256, .seed = 3});
}

DynamicGraph build(const datasets::UpdateStream& stream) {
  DynamicGraph g(GraphOptions{.threads = 2});
  g.build(stream.initial);
  return g;
}

// The misuse in the old API only: the second result either refuses or answers right
// (before the graph change check it answered 21310-like wrong counts, silently).
TEST(DynamicResults, EachResultsOwnCallInTurnNeverAnswersWrong) {
  const auto stream = sparse_stream();
  DynamicGraph g = build(stream);
  IncrementalTriangleCounter triangles(g);
  DynamicComponents components(g);
  for (std::size_t i = 0; i < 4; ++i) {
    const EdgeList& b = stream.batches[i].edges;
    const bool insert = stream.batches[i].kind == datasets::UpdateBatch::Kind::insert;
    insert ? triangles.insert_edges(b) : triangles.erase_edges(b);
    bool refused = false;
    try {
      insert ? components.insert_edges(b) : components.erase_edges(b);
    } catch (const InvalidArgument&) {
      refused = true;
    }
    EXPECT_TRUE(refused || components.result().component == connected_components(g).component);
    if (refused) components.recompute();
  }
  EXPECT_EQ(components.result().component, connected_components(g).component);
}

TEST(DynamicResults, EachResultsOwnCallInTurnIsRefused) {
  const auto stream = sparse_stream();
  DynamicGraph g = build(stream);
  IncrementalTriangleCounter triangles(g);
  DynamicComponents components(g);
  const EdgeList& b = stream.batches.front().edges;
  // The misuse of the issue: the batch goes to the graph through the first result only.
  triangles.insert_edges(b);
  EXPECT_FALSE(components.current());
  EXPECT_THROW(components.insert_edges(b), StaleResultError);
  EXPECT_THROW(components.erase_edges(b), InvalidArgument);  // StaleResultError is one
  // recompute() is the documented way back: the result is then exact and follows batches again.
  components.recompute();
  EXPECT_TRUE(components.current());
  EXPECT_EQ(components.result().component, connected_components(g).component);
  EXPECT_NO_THROW(components.erase_edges(b));
  EXPECT_EQ(components.result().component, connected_components(g).component);
  // A direct graph update is a change behind the results' backs too.
  g.insert_edges(b);
  EXPECT_THROW(triangles.erase_edges(b), StaleResultError);
}

TEST(DynamicResults, OneBatchFollowedByEveryResult) {
  const auto stream = sparse_stream();
  DynamicGraph g = build(stream);
  DynamicResults<DynamicGraph> set(g);
  auto& triangles = set.track<IncrementalTriangleCounter>();
  auto& components = set.track<DynamicComponents>(ComponentsOptions{});
  auto& cores = set.track<DynamicCoreNumbers>();
  // untrack: a result its owner drops stops following (and is destroyed); the others go on, and
  // what the set does not hold is not found.
  auto& dropped = set.track<IncrementalTriangleCounter>();
  ASSERT_EQ(set.size(), 4u);
  EXPECT_TRUE(set.untrack(dropped));
  EXPECT_FALSE(set.untrack(g));  // not a tracked result
  ASSERT_EQ(set.size(), 3u);
  std::size_t erasures = 0;
  for (const auto& batch : stream.batches) {
    const bool insert = batch.kind == datasets::UpdateBatch::Kind::insert;
    erasures += !insert;
    const auto before = triangles.total();
    const auto r = insert ? set.insert_edges(batch.edges) : set.erase_edges(batch.edges);
    ASSERT_EQ(r.effects.size(), 3u);
    EXPECT_EQ(triangles.total(), count_triangles(g));
    EXPECT_EQ(r.effects[0].changed,
              insert ? triangles.total() - before : before - triangles.total());
    EXPECT_EQ(components.result().component, connected_components(g).component);
    EXPECT_EQ(cores.result().core, core_numbers(g).core);
    EXPECT_TRUE(triangles.current() && components.current() && cores.current());
  }
  EXPECT_GT(erasures, 0u);
  EXPECT_EQ(components.statistics().batches, stream.batches.size());
  EXPECT_TRUE(set.untrack(cores));
  EXPECT_EQ(set.size(), 2u);
  // A result changed through its own call leaves the others stale: the set's next batch refuses.
  components.insert_edges(stream.batches.front().edges);
  EXPECT_THROW(set.insert_edges(stream.batches.front().edges), StaleResultError);
}

TEST(DynamicResults, VertexErasureFollowedByEveryResult) {
  const auto stream = sparse_stream();
  DynamicGraph g = build(stream);
  DynamicResults<DynamicGraph> set(g);
  auto& triangles = set.track<IncrementalTriangleCounter>();
  auto& components = set.track<DynamicComponents>();
  const std::vector<vertex_t> ids = {0, 1, 2, 3, 5, 8, 13};
  set.erase_vertices(ids);
  EXPECT_EQ(triangles.total(), count_triangles(g));
  EXPECT_EQ(components.result().component, connected_components(g).component);
}

// The frame's mixed step on CPU policies (erase one batch, then insert another, answered once):
// the results equal the static computations after every step, and each step is one batch of
// the common statistics.
TEST(DynamicFrame, MixedStepsEqualTheStaticComputations) {
  const auto stream = sparse_stream();
  DynamicGraph g = build(stream);
  DynamicGraph h = build(stream);
  DynamicComponents components(g);
  DynamicCoreNumbers cores(h);
  std::uint64_t steps = 0;
  for (std::size_t i = 0; i + 1 < stream.batches.size() && steps < 8; i += 2, ++steps) {
    const EdgeList& erase = stream.batches[i].edges;
    const EdgeList& insert = stream.batches[i + 1].edges;
    const auto r = components.update(erase, insert);
    EXPECT_EQ(components.result().component, connected_components(g).component);
    EXPECT_EQ(r.update.erased.entries(), erase.size());
    cores.update(erase, insert);
    EXPECT_EQ(cores.result().core, core_numbers(h).core);
  }
  ASSERT_GT(steps, 0u);
  EXPECT_EQ(components.statistics().batches, steps);
  EXPECT_EQ(cores.statistics().batches, steps);
}

}  // namespace
}  // namespace wg::cpu
