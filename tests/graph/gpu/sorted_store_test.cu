// The third store of the GPU graph front (graph/gpu/sorted/: one sorted arc array) against the
// host model of the graph semantics (graph_model.hpp) on random batches, vertex erasure and
// insertion, and the front's version counter. GPU test: skips without a GPU.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <warpgraph/graph/gpu/sorted/sorted_store.hpp>

#include "../../support/test_support.hpp"
#include "graph_model.hpp"

namespace {

using wg::EdgeList;
using wg::vertex_t;
using wg::test::GraphModel;
using wg::test::TestRng;
template <bool W>
using SGraph = wg::gpu::SortedArcGraph<W>;

/// The graph holds the model's edges (wg::test::expect_same) and answers has_edges like it.
template <class G>
void expect_store_same(const G& g, const GraphModel& m, bool weighted, const std::string& where) {
  wg::test::expect_same(g, m, weighted, where);
  SCOPED_TRACE(where);
  TestRng rng{m.num_edges() + 7};
  const EdgeList q = wg::test::random_batch(rng, m.id_range() + 2, 400, false);
  const auto has = g.has_edges(q);
  ASSERT_EQ(has.size(), q.size());
  for (std::size_t i = 0; i < q.size(); ++i)
    ASSERT_EQ(has[i] != 0, m.has_edge(q.src[i], q.dst[i])) << q.src[i] << " " << q.dst[i];
}

template <bool W>
void random_batches(bool directed, std::uint64_t seed) {
  WG_REQUIRE_GPU();
  const std::uint64_t n = 300;
  SGraph<W> g(n, {.directed = directed, .max_chunk = 1000});  // batches split into chunks
  GraphModel m(n, directed);
  TestRng rng{seed};
  for (int r = 0; r < 5; ++r) {
    const std::uint64_t before = g.version();
    const EdgeList ins = wg::test::random_batch(rng, n, 900, W);
    ASSERT_EQ(g.insert_edges(ins), m.insert(ins)) << "insert round " << r;
    EXPECT_GT(g.version(), before);
    expect_store_same(g, m, W, "after insert " + std::to_string(r));
    EdgeList del = wg::test::random_batch(rng, n, 450, false);
    for (std::size_t i = 0; i < del.size(); i += 2) {  // half name edges just inserted
      del.src[i] = ins.dst[i % ins.size()];
      del.dst[i] = ins.src[i % ins.size()];
    }
    ASSERT_EQ(g.erase_edges(del), m.erase(del)) << "erase round " << r;
    expect_store_same(g, m, W, "after erase " + std::to_string(r));
  }
}

TEST(SortedArcGraph, RandomBatchesUndirectedSet) {
  random_batches<false>(false, 1);
}
TEST(SortedArcGraph, RandomBatchesDirectedSet) {
  random_batches<false>(true, 2);
}
TEST(SortedArcGraph, RandomBatchesUndirectedMap) {
  random_batches<true>(false, 3);
}
TEST(SortedArcGraph, RandomBatchesDirectedMap) {
  random_batches<true>(true, 4);
}

template <bool W>
void vertex_ops(bool directed, std::uint64_t seed) {
  WG_REQUIRE_GPU();
  const std::uint64_t n = 200;
  SGraph<W> g(0, {.directed = directed});
  GraphModel m(0, directed);
  TestRng rng{seed};
  const EdgeList base = wg::test::random_batch(rng, n, 2000, W);
  m.clear(n);
  ASSERT_EQ(g.build(base), m.insert(base));
  expect_store_same(g, m, W, "build");
  for (int r = 0; r < 3; ++r) {
    wg::test::vertex_round(g, m, rng, n, W, 12, 6, [&](const char* step) {
      expect_store_same(g, m, W, step + std::string(" ") + std::to_string(r));
    });
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(SortedArcGraph, VertexOpsUndirectedSet) {
  vertex_ops<false>(false, 11);
}
TEST(SortedArcGraph, VertexOpsDirectedMap) {
  vertex_ops<true>(true, 12);
}

}  // namespace
