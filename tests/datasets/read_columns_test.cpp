// CSV / TSV edge lists (issue 44): delimiter detection, header lines, chosen columns and extra
// columns, as ReadOptions fields; SNAP files read as before.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/detail/parallel_lines.hpp>
#include <warpgraph/datasets/read_graph.hpp>

#include "temp_files.hpp"

namespace {

using wg::vertex_t;
using namespace wg::datasets;
using wg::test::pairs;
using wg::test::Pairs;
using wg::test::read_graph_text;

std::string error_of(const std::string& name, const std::string& text, const ReadOptions& o = {}) {
  return wg::test::read_error(name, text, o);
}

// The layout of the common CSV copies of SNAP's ca-GrQc: a header of column names, commas.
TEST(ReadColumns, CaGrQcStyleCsvWithAHeaderReads) {
  const auto r =
      read_graph_text("ca-GrQc.csv", "FromNodeId,ToNodeId\n3466,937\n3466,5233\n10310,1854\n");
  EXPECT_EQ(pairs(r.edges), (Pairs{{3466, 937}, {3466, 5233}, {10310, 1854}}));
  EXPECT_EQ(r.header_line, 1u);
  EXPECT_EQ(r.lines, 4u);
  EXPECT_EQ(r.edges.num_vertices, 10311u);
  // Errors keep the file's line numbers past the header.
  EXPECT_EQ(error_of("e.csv", "# c\nsource,target\n0,1\n1,x\n"),
            "e.csv:4: target id 'x' is not a valid number");
}

TEST(ReadColumns, TsvWithHeaderQuotesAndWeights) {
  auto r = read_graph_text("g.tsv", "\"src\"\t\"dst\"\t\"w\"\n0\t1\t2.5\n1\t2\t4\n");
  EXPECT_EQ(pairs(r.edges), (Pairs{{0, 1}, {1, 2}}));
  EXPECT_EQ(r.edges.weight, (std::vector<double>{2.5, 4}));
  ReadOptions tab;
  tab.delimiter = Delimiter::tab;
  r = read_graph_text("g.tsv", "a\tb\n\"0\" \t 1\n", tab);
  EXPECT_EQ(pairs(r.edges), (Pairs{{0, 1}}));
  ReadOptions semi;
  semi.delimiter = Delimiter::semicolon;
  r = read_graph_text("g.csv", "0;1;7\n2;3;8\n", semi);
  EXPECT_EQ(r.edges.weight, (std::vector<double>{7, 8}));
}

TEST(ReadColumns, ChosenColumnsAndExtraColumns) {
  const std::string text = "id,time,to,from,weight,label\n9,100,1,0,0.5,x\n9,101,2,1,1.5,y\n";
  ReadOptions o;
  o.source_column = 3;
  o.target_column = 2;
  o.weight_column = 4;
  EXPECT_EQ(error_of("g.csv", text, o),
            "g.csv:2: unexpected text 'x' in column 6 (columns after the last one used are an "
            "error unless ignore_extra_columns is set)");
  o.ignore_extra_columns = true;
  auto r = read_graph_text("g.csv", text, o);
  EXPECT_EQ(pairs(r.edges), (Pairs{{0, 1}, {1, 2}}));
  EXPECT_EQ(r.edges.weight, (std::vector<double>{0.5, 1.5}));
  o.weight_column = wg::datasets::kNoWeightColumn;
  r = read_graph_text("g.csv", text, o);
  EXPECT_FALSE(r.edges.weighted());
  // Columns must differ.
  ReadOptions same;
  same.weight_column = 1;
  EXPECT_THROW(read_graph_text("g.csv", "0,1,2\n", same), wg::InvalidArgument);
  same.weight_column = -7;
  EXPECT_THROW(read_graph_text("g.csv", "0,1,2\n", same), wg::InvalidArgument);
  same = {};
  same.target_column = 0;
  EXPECT_THROW(read_graph_text("g.csv", "0,1,2\n", same), wg::InvalidArgument);
  // A chosen weight column must be on every line.
  ReadOptions w;
  w.weight_column = 2;
  EXPECT_EQ(error_of("g.csv", "0,1,5\n1,2\n", w), "g.csv:2: missing weight (column 3)");
  // Extra columns in a SNAP file: ignored only when asked.
  EXPECT_EQ(error_of("g.txt", "0 1 5 x\n"),
            "g.txt:1: unexpected text 'x' after 'source target weight'");
  ReadOptions extra;
  extra.ignore_extra_columns = true;
  r = read_graph_text("g.txt", "0 1 5 x\n1 2 6 y\n", extra);
  EXPECT_EQ(r.edges.weight, (std::vector<double>{5, 6}));
}

TEST(ReadColumns, HeaderRules) {
  // automatic: a first line of names is a header; a first line of numbers is data.
  EXPECT_EQ(read_graph_text("g.txt", "0 1\n1 2\n").header_line, 0u);
  ReadOptions skip;
  skip.header = HeaderLine::skip;
  auto r = read_graph_text("g.txt", "# c\n7 7\n0 1\n", skip);
  EXPECT_EQ(r.header_line, 2u);
  EXPECT_EQ(pairs(r.edges), (Pairs{{0, 1}}));
  ReadOptions none;
  none.header = HeaderLine::none;
  EXPECT_EQ(error_of("g.csv", "source,target\n0,1\n", none),
            "g.csv:1: source id 'source' is not a valid number");
  EXPECT_EQ(error_of("g.csv", "source,target\n"),
            "g.csv:1: no edges found (only comments or blank lines)");
}

TEST(ReadColumns, ChunkedParseAgreesWithOneChunk) {
  std::string text = "u,v,w\n";
  for (int i = 0; i < 20000; ++i)
    text += std::to_string(i) + "," + std::to_string(i * 7 % 20000) + "," + std::to_string(i % 9) +
            "\n";
  text += "5,x,1\n";
  const auto one = read_graph_text("g.csv", text.substr(0, text.size() - 6));
  EXPECT_EQ(one.edges.size(), 20000u);
  EXPECT_EQ(one.lines, 20001u);
  wg::datasets::detail::chunk_policy() = {.min_chunk_bytes = 1 << 12, .max_threads = 4};
  const auto many = read_graph_text("g.csv", text.substr(0, text.size() - 6));
  const std::string bad = error_of("g.csv", text);
  wg::datasets::detail::chunk_policy() = {};
  EXPECT_EQ(pairs(many.edges), pairs(one.edges));
  EXPECT_EQ(many.edges.weight, one.edges.weight);
  EXPECT_EQ(many.lines, one.lines);
  EXPECT_EQ(bad, "g.csv:20002: target id 'x' is not a valid number");
}

}  // namespace
