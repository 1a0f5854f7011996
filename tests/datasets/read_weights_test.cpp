// The weight rules of the graph readers (issue 44, defects 4 and 6): weights a storage cannot
// hold exactly and negative weights are errors naming the file and line; duplicates of an edge
// all get its smallest weight, so that every backend sees one simple graph.
#include <gtest/gtest.h>

#include <string>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/read_graph.hpp>

#include "temp_files.hpp"

namespace {

using wg::datasets::check_weights;
using wg::datasets::read_graph;
using wg::datasets::ReadOptions;
using wg::datasets::WeightStorage;

std::string error_of(const std::string& name, const std::string& text, const ReadOptions& o) {
  return wg::test::read_error(name, text, o);
}

TEST(ReadWeights, NegativeWeightNamesFileAndLineWithTheExactValue) {
  ReadOptions o;
  o.non_negative_weights = true;
  EXPECT_EQ(error_of("g.txt", "0 1 1\n# c\n1 2 -3\n", o),
            "g.txt:3: negative weight -3 (shortest paths need weights >= 0)");
  EXPECT_EQ(error_of("g.txt", "0 1 -0.1000000000000000055511151231257827\n", o),
            "g.txt:1: negative weight -0.1 (shortest paths need weights >= 0)");
  const std::string mm = "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 2\n2 3 -2.5\n";
  EXPECT_EQ(error_of("g.mtx", mm, o),
            "g.mtx:4: negative weight -2.5 (shortest paths need weights >= 0)");
  o.non_negative_weights = false;
  EXPECT_EQ(error_of("g.mtx", mm, o), "");  // negative weights are fine where not excluded
}

TEST(ReadWeights, StorageThatCannotHoldAWeightIsAnErrorAtItsLine) {
  ReadOptions o;
  o.weight_storage = WeightStorage::f32;
  EXPECT_EQ(error_of("g.txt", "0 1 1\n1 2 1e308\n", o)
                .rfind("g.txt:2: weight 1e+308 cannot be "
                       "held exactly as a float",
                       0),
            0u);
  EXPECT_EQ(error_of("g.txt", "0 1 16777217\n", o).rfind("g.txt:1: weight 16777217", 0), 0u);
  EXPECT_EQ(error_of("g.txt", "0 1 16777216\n1 2 0.5\n", o), "");
  o.weight_storage = WeightStorage::u32;
  EXPECT_EQ(error_of("g.txt", "0 1 4294967295\n1 2 0.5\n", o)
                .rfind("g.txt:2: weight 0.5 cannot be held exactly as an unsigned 32-bit", 0),
            0u);
  EXPECT_EQ(error_of("g.txt", "0 1 4294967296\n", o).rfind("g.txt:1: weight 4294967296", 0), 0u);
  o.weight_storage = WeightStorage::f64;
  EXPECT_EQ(error_of("g.txt", "0 1 1e308\n1 2 0.5\n", o), "");
}

TEST(ReadWeights, FactsNameTheFirstLineOfEachKind) {
  wg::test::TempDir dir;
  const auto r = read_graph(dir.write("g.txt", "0 1 7\n1 2 0.1\n2 3 -1\n3 4 5e9\n"));
  EXPECT_EQ(r.weight_facts.not_float.line, 2u);
  EXPECT_EQ(r.weight_facts.not_uint32.line, 2u);
  EXPECT_EQ(r.weight_facts.negative.line, 3u);
  EXPECT_EQ(r.weight_facts.negative.value, -1.0);
  // The earliest line breaking a rule wins when several are checked.
  try {
    check_weights(r, "g.txt", WeightStorage::u32, true);
    ADD_FAILURE() << "no error";
  } catch (const wg::ParseError& e) {
    EXPECT_EQ(e.line(), 2u) << e.what();
  }
  const auto unweighted = read_graph(dir.write("u.txt", "0 1\n"));
  EXPECT_EQ(unweighted.weight_facts.negative.line, 0u);
  EXPECT_NO_THROW(check_weights(unweighted, "u.txt", WeightStorage::u32, true));
}

TEST(ReadWeights, DuplicatesOfAnUndirectedEdgeAllGetTheSmallestWeight) {
  wg::test::TempDir dir;
  const std::string text = "0 1 1\n1 0 10\n1 2 4\n2 1 3\n2 1 5\n3 4 9\n";
  auto r = read_graph(dir.write("g.txt", text));
  EXPECT_EQ(r.edges.weight, (std::vector<double>{1, 1, 3, 3, 3, 9}));
  EXPECT_EQ(r.edges.size(), 6u);  // nothing dropped
  EXPECT_EQ(r.weights_merged, 3u);
  // Directed: (0, 1) and (1, 0) are different arcs.
  ReadOptions directed;
  directed.snap_undirected = false;
  r = read_graph(dir.write("d.txt", text), directed);
  EXPECT_EQ(r.edges.weight, (std::vector<double>{1, 10, 4, 3, 3, 9}));
  // The rule can be turned off: weights as read.
  ReadOptions as_read;
  as_read.min_weight_duplicates = false;
  r = read_graph(dir.write("a.txt", text), as_read);
  EXPECT_EQ(r.edges.weight, (std::vector<double>{1, 10, 4, 3, 5, 9}));
  // Matrix Market symmetric files too.
  r = read_graph(dir.write("m.mtx",
                           "%%MatrixMarket matrix coordinate integer symmetric\n"
                           "3 3 3\n2 1 10\n2 1 1\n3 2 4\n"));
  EXPECT_EQ(r.edges.weight, (std::vector<double>{1, 1, 4}));
}

}  // namespace
