// The update-file format's additions (issue 44): weighted insertions, vertex operations, a
// UTF-8 BOM, and the input checks of graph files (NUL bytes, /dev/zero, FIFOs, weight rules).
// Old files read as before (update_stream_test.cpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/update_file_reader.hpp>
#include <warpgraph/datasets/update_stream.hpp>

#include "temp_files.hpp"

namespace {

using wg::vertex_t;
using namespace wg::datasets;
using K = UpdateBatch::Kind;

/// "FILE:LINE: problem" of the ParseError parsing `text` throws ("" when none).
std::string error_of(const std::string& text, const UpdateReadOptions& o = {}) {
  try {
    parse_update_text(text, true, "u.txt", o);
  } catch (const wg::ParseError& e) {
    return e.what();
  }
  return "";
}

TEST(UpdateFormat, WeightedInsertionsAndVertexOperations) {
  const std::string text =
      "\xEF\xBB\xBF# a BOM, then weighted insertions\n"
      "+ 0 1 2.5\n"
      "+ 1 2 7\n"
      "- 0 1\n"
      "+v 9\n"
      "+v 4\n"
      "-v 2\n"
      "=\n"
      "-v 1\n"
      "+ 3 4 1\n";
  wg::test::TempDir dir;
  for (int source = 0; source < 3; ++source) {
    SCOPED_TRACE(source);
    const auto s = source == 0   ? parse_update_text(text)
                   : source == 1 ? read_update_file(dir.write("u.txt", text))
                                 : read_update_file(dir.write_gz("u.txt.gz", text));
    ASSERT_EQ(s.batches.size(), 6u);
    const K kinds[] = {K::insert,         K::erase,          K::insert_vertices,
                       K::erase_vertices, K::erase_vertices, K::insert};
    for (int i = 0; i < 6; ++i) {
      EXPECT_EQ(s.batches[i].kind, kinds[i]) << i;
      EXPECT_EQ(s.batches[i].edges.num_vertices, 10u);  // vertex 9 sets the range
    }
    EXPECT_EQ(s.batches[0].edges.weight, (std::vector<double>{2.5, 7}));
    EXPECT_FALSE(s.batches[1].edges.weighted());
    EXPECT_EQ(s.batches[2].vertices, (std::vector<vertex_t>{9, 4}));
    EXPECT_TRUE(s.batches[2].edges.empty());
    EXPECT_EQ(s.batches[3].vertices, (std::vector<vertex_t>{2}));
    EXPECT_EQ(s.batches[4].vertices, (std::vector<vertex_t>{1}));
    EXPECT_EQ(s.batches[5].edges.weight, (std::vector<double>{1}));
  }
}

TEST(UpdateFormat, DuplicatesInABatchGetTheSmallestWeight) {
  auto s = parse_update_text("+ 0 1 5\n+ 1 0 2\n+ 2 3 4\n=\n+ 0 1 9\n");
  EXPECT_EQ(s.batches.at(0).edges.weight, (std::vector<double>{2, 2, 4}));
  EXPECT_EQ(s.batches.at(1).edges.weight, (std::vector<double>{9}));  // another batch
  UpdateReadOptions as_read;
  as_read.min_weight_duplicates = false;
  s = parse_update_text("+ 0 1 5\n+ 1 0 2\n", true, "u.txt", as_read);
  EXPECT_EQ(s.batches.at(0).edges.weight, (std::vector<double>{5, 2}));
  s = parse_update_text("+ 0 1 5\n+ 1 0 2\n", false);  // directed: two arcs
  EXPECT_EQ(s.batches.at(0).edges.weight, (std::vector<double>{5, 2}));
}

TEST(UpdateFormat, WeightRulesNameTheLine) {
  UpdateReadOptions o;
  o.non_negative_weights = true;
  EXPECT_EQ(error_of("+ 0 1 1\n+ 1 2 -3\n", o),
            "u.txt:2: negative weight -3 (shortest paths need weights >= 0)");
  o.non_negative_weights = false;
  o.weight_storage = wg::datasets::WeightStorage::u32;
  EXPECT_EQ(error_of("+ 0 1 1\n+ 1 2 0.5\n", o).rfind("u.txt:2: weight 0.5 cannot be held", 0), 0u);
  EXPECT_EQ(error_of("+ 0 1 1\n+ 1 2 -3\n"), "");
}

TEST(UpdateFormat, WeightColumnsAgreeAcrossSegments) {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "+ " + std::to_string(i) + " 1 3\n";
  text += "+ 5 6\n";
  UpdateReadOptions small;
  small.segment_bytes = 256;
  small.threads = 4;
  EXPECT_EQ(error_of(text, small),
            "u.txt:2001: insertion has 2 fields but earlier insertions have 3 (give a weight on "
            "every insertion or on none)");
}

TEST(UpdateFormat, BinaryInputFailsAtItsLine) {
  const std::string text("+ 0 1\n# c \0 x\n+ 1 2\n", 19);
  EXPECT_EQ(error_of(text),
            "u.txt:2: NUL byte: binary data, not a text file (the line starts '# c \\x00 x')");
  const std::string problem = wg::test::expect_parse_error(
      "/dev/zero", 1, [](const std::string& p) { read_update_file(p); });
  EXPECT_EQ(problem.rfind("NUL byte", 0), 0u) << problem;
}

TEST(UpdateFormat, LoneCarriageReturnsAreRefusedWithTheFix) {
  EXPECT_EQ(error_of("+ 0 1\r+ 1 2\r").rfind("u.txt:1: a carriage return (\\r) ends a line", 0),
            0u);
  EXPECT_EQ(error_of("+ 0 1\r\n+ 1 2\r\n"), "");  // CRLF is fine
}

TEST(UpdateFormat, FifoWithoutAWriterIsWaitedForWithANotice) {
  const auto got = wg::test::read_late_fifo<UpdateReadOptions>(
      "+ 0 1\n- 0 1\n", [](const std::string& p, const UpdateReadOptions& o) {
        return read_update_file(p, true, o);
      });
  EXPECT_EQ(got.notices.size(), 1u);
  EXPECT_EQ(got.result.batches.size(), 2u);
}

}  // namespace
