// The third store of the GPU graph front (graph/gpu/sorted/: one sorted arc array) against the
// host model of the graph semantics (graph_model.hpp) on random batches, vertex erasure and
// insertion, and the front's version counter. GPU test: skips without a GPU.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <warpgraph/graph/gpu/sorted/sorted_store.hpp>

#include "../../support/test_support.hpp"
#include "four_way_tests.hpp"
#include "graph_model.hpp"

namespace {

using wg::EdgeList;
using wg::test::GraphModel;
using wg::test::TestRng;
template <bool W>
using SGraph = wg::gpu::SortedArcGraph<W>;

/// expect_same (graph_model.hpp), then has_edges on 400 random pairs (a few ids out of range).
template <class G>
void expect_same_answers(const G& g, const GraphModel& m, bool weighted, const std::string& where) {
  wg::test::expect_same(g, m, weighted, where);
  if (::testing::Test::HasFatalFailure()) return;
  SCOPED_TRACE(where);
  TestRng rng{m.num_edges() + 7};
  wg::test::expect_has_edges(g, m, rng, m.id_range() + 2, nullptr, 400);
}

template <bool W>
void random_batches(bool directed, std::uint64_t seed) {
  WG_REQUIRE_GPU();
  const std::uint64_t n = 300;
  SGraph<W> g(n, {.directed = directed, .max_chunk = 1000});  // batches split into chunks
  GraphModel m(n, directed);
  TestRng rng{seed};
  wg::test::insert_erase_rounds(
      g, m, rng, n, 900, 5, W,
      [&](const EdgeList&, const std::string& where) { expect_same_answers(g, m, W, where); });
}

WG_FOUR_WAY_TESTS(SortedArcGraph, false, true, RandomBatches, random_batches, 1)

template <bool W>
void vertex_ops(bool directed, std::uint64_t seed) {
  WG_REQUIRE_GPU();
  wg::test::vertex_scenario_on_new<SGraph<W>>(
      directed, W, seed, {.n = 200, .base = 2000, .rounds = 3, .erase = 12, .count = 6},
      [](const auto& g, const GraphModel& m, TestRng&, const std::string&,
         const std::string& where) { expect_same_answers(g, m, W, where); });
}

TEST(SortedArcGraph, VertexOpsUndirectedSet) {
  vertex_ops<false>(false, 11);
}
TEST(SortedArcGraph, VertexOpsDirectedMap) {
  vertex_ops<true>(true, 12);
}

}  // namespace
