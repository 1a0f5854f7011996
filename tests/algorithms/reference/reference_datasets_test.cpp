// wg::reference on the shared real graphs against every figure of
// /work/shared/datasets/README.md (published or computed independently with networkx).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <ostream>
#include <string>

#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/datasets/read_graph.hpp>

#include "../../support/test_support.hpp"
#include "dataset_figures.hpp"

namespace {

namespace ref = wg::reference;

using wg::test::DatasetFigures;

void PrintTo(const DatasetFigures& f, std::ostream* os) {
  *os << f.file;
}

class ReferenceOnDataset : public ::testing::TestWithParam<DatasetFigures> {};

TEST_P(ReferenceOnDataset, MatchesPublishedFigures) {
  const DatasetFigures& want = GetParam();
  WG_REQUIRE_DATASET(path, want.file);
  const wg::EdgeList edges = wg::datasets::read_graph(path).edges;
  // The README's figures are for the undirected simple graph.
  ASSERT_TRUE(edges.symmetric) << "every shared dataset is read as undirected";

  const ref::GraphStats stats = ref::graph_stats(edges);
  EXPECT_EQ(stats.vertices, want.vertices);
  EXPECT_EQ(stats.edges, want.edges);
  EXPECT_EQ(stats.degree_max, want.max_degree);
  EXPECT_EQ(stats.components, want.components);

  const ref::Components cc = ref::connected_components(edges);
  EXPECT_EQ(cc.count, want.components);

  const ref::TriangleCounts tc = ref::triangle_count(edges);
  EXPECT_EQ(tc.total, want.triangles);
  EXPECT_EQ(std::accumulate(tc.per_vertex.begin(), tc.per_vertex.end(), std::uint64_t{0}),
            3 * want.triangles);

  const auto level = ref::bfs_levels(edges, 0);
  const auto reached = static_cast<std::uint64_t>(std::count_if(
      level.begin(), level.end(), [](std::int64_t l) { return l != ref::kUnreached; }));
  EXPECT_EQ(reached, want.bfs_reached);
  EXPECT_EQ(*std::max_element(level.begin(), level.end()), want.bfs_depth);
  // BFS reaches exactly vertex 0's component.
  std::uint64_t in_component_of_0 = 0;
  for (auto c : cc.component) in_component_of_0 += c == cc.component[0];
  EXPECT_EQ(in_component_of_0, want.bfs_reached);
}

INSTANTIATE_TEST_SUITE_P(SharedDatasets, ReferenceOnDataset,
                         ::testing::ValuesIn(wg::test::kDatasetFigures),
                         [](const ::testing::TestParamInfo<DatasetFigures>& info) {
                           std::string name = info.param.file;
                           name = name.substr(0, name.find('.'));
                           return name;
                         });

}  // namespace
