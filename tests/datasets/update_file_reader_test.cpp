// for_each_update_batch (datasets/update_file_reader.hpp) against parse_update_text: the same
// batches (kinds, entries) in the same order, for segment sizes from a few bytes up, with
// boundaries, comments, blank lines, CRLF and kind changes falling anywhere; errors name the
// same absolute line.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/update_file_reader.hpp>
#include <warpgraph/datasets/update_stream.hpp>

#include "temp_files.hpp"

namespace {

using wg::datasets::UpdateBatch;

std::string random_text(std::uint64_t seed, int lines) {
  std::mt19937_64 rng(seed);
  std::string t;
  for (int i = 0; i < lines; ++i) {
    const unsigned r = rng() % 20;
    if (r == 0) {
      t += "=\n";
    } else if (r == 1) {
      t += "# comment\n";
    } else if (r == 2) {
      t += "\n";
    } else if (r == 3) {
      t += "  = \r\n";
    } else {
      t += (rng() % 3 == 0) ? "- " : "+ ";
      t += std::to_string(rng() % 1000) + " " + std::to_string(rng() % 1000);
      t += (r == 4) ? "\r\n" : "\n";
    }
  }
  t += "+ 1 2";  // no final newline
  return t;
}

std::vector<UpdateBatch> collect(const std::string& text, std::size_t segment, unsigned threads,
                                 wg::datasets::UpdateReadSummary* sum = nullptr) {
  std::vector<UpdateBatch> out;
  const auto s = wg::datasets::for_each_update_batch(
      text, true, "t", [&](UpdateBatch&& b) { out.push_back(std::move(b)); },
      {.segment_bytes = segment, .threads = threads});
  if (sum) *sum = s;
  return out;
}

TEST(UpdateFileReader, SameBatchesAsTheWholeFileParser) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const std::string text = random_text(seed, 3000);
    const wg::datasets::UpdateStream want = wg::datasets::parse_update_text(text, true, "t");
    for (std::size_t seg : {std::size_t{1}, std::size_t{7}, std::size_t{100}, std::size_t{4096},
                            std::size_t{1} << 20}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " segment " + std::to_string(seg));
      wg::datasets::UpdateReadSummary sum;
      const auto got = collect(text, seg, seed % 2 ? 3 : 1, &sum);
      ASSERT_EQ(got.size(), want.batches.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        ASSERT_EQ(got[i].kind, want.batches[i].kind) << i;
        ASSERT_EQ(got[i].edges.src, want.batches[i].edges.src) << i;
        ASSERT_EQ(got[i].edges.dst, want.batches[i].edges.dst) << i;
        ASSERT_TRUE(got[i].edges.symmetric);
        ASSERT_GE(got[i].edges.num_vertices, 1u);
      }
      ASSERT_EQ(got.back().edges.num_vertices, want.batches.back().edges.num_vertices);
      ASSERT_EQ(sum.num_vertices, want.batches.back().edges.num_vertices);
      ASSERT_EQ(sum.batches, want.batches.size());
    }
  }
}

TEST(UpdateFileReader, ErrorsNameTheAbsoluteLine) {
  std::string text;
  for (int i = 0; i < 500; ++i)
    text += "+ " + std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  text += "+ 3 x\n+ 1 2\n";
  for (std::size_t seg : {std::size_t{5}, std::size_t{64}, std::size_t{1} << 20}) {
    std::size_t handed = 0;
    try {
      (void)wg::datasets::for_each_update_batch(
          text, true, "f.txt", [&](UpdateBatch&&) { ++handed; }, {.segment_bytes = seg});
      FAIL() << "no error";
    } catch (const wg::ParseError& e) {
      EXPECT_EQ(e.line(), 501u) << e.what();
      EXPECT_EQ(e.file(), "f.txt");
    }
    EXPECT_EQ(handed, 0u);  // one batch, which holds the error line
  }
  EXPECT_THROW(collect("", 16, 2), wg::ParseError);
  EXPECT_THROW(collect("# only\n=\n", 4, 2), wg::ParseError);
}

// The file variant, plain and gzip: segments read as they are parsed, lines cut across reads.
TEST(UpdateFileReader, FilesPlainAndGzip) {
  wg::test::TempDir dir;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const std::string text = random_text(seed, 4000);
    const wg::datasets::UpdateStream want = wg::datasets::parse_update_text(text, true, "t");
    for (const std::string& path : {dir.write("u.txt", text), dir.write_gz("u.txt.gz", text)}) {
      for (std::size_t seg :
           {std::size_t{1}, std::size_t{13}, std::size_t{5000}, std::size_t{1} << 20}) {
        SCOPED_TRACE(path + " segment " + std::to_string(seg));
        std::vector<UpdateBatch> got;
        const auto sum = wg::datasets::for_each_update_batch_in_file(
            path, true, [&](UpdateBatch&& b) { got.push_back(std::move(b)); },
            {.segment_bytes = seg, .threads = 3});
        ASSERT_EQ(got.size(), want.batches.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
          ASSERT_EQ(got[i].kind, want.batches[i].kind) << i;
          ASSERT_EQ(got[i].edges.src, want.batches[i].edges.src) << i;
          ASSERT_EQ(got[i].edges.dst, want.batches[i].edges.dst) << i;
        }
        ASSERT_EQ(sum.num_vertices, want.batches.back().edges.num_vertices);
        ASSERT_EQ(sum.lines,
                  static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n')) + 1);
      }
    }
  }
  const std::string bad = dir.write("bad.txt", "+ 1 2\n+ 2 3\n=\n+ 4 x\n");
  try {
    (void)wg::datasets::for_each_update_batch_in_file(bad, true, [](UpdateBatch&&) {},
                                                      {.segment_bytes = 4});
    FAIL() << "no error";
  } catch (const wg::ParseError& e) {
    EXPECT_EQ(e.line(), 4u) << e.what();
    EXPECT_EQ(e.file(), bad);
  }
  EXPECT_THROW((void)wg::datasets::for_each_update_batch_in_file(dir.file("missing.txt"), true,
                                                                 [](UpdateBatch&&) {}),
               wg::Error);
  EXPECT_THROW((void)wg::datasets::for_each_update_batch_in_file(dir.write("empty.txt", ""), true,
                                                                 [](UpdateBatch&&) {}),
               wg::ParseError);
}

// The parallel temporal reader: the batches of parse_temporal_snap (ties in time keep file
// order across segments), and its errors.
TEST(UpdateFileReader, TemporalParallelSameAsSerial) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    std::mt19937_64 rng(seed);
    std::string text = "# temporal\n";
    for (int i = 0; i < 3000; ++i) {
      if (rng() % 50 == 0) text += "% comment\n";
      text += std::to_string(rng() % 500) + " " + std::to_string(rng() % 500) + " " +
              std::to_string(static_cast<std::int64_t>(rng() % 200) - 50) + "\n";
    }
    for (std::uint64_t window : {1u, 7u, 1000u}) {
      const auto want = wg::datasets::parse_temporal_snap(text, window, true, "t");
      for (std::size_t seg : {std::size_t{1}, std::size_t{333}, std::size_t{1} << 20}) {
        SCOPED_TRACE("seed " + std::to_string(seed) + " window " + std::to_string(window) +
                     " segment " + std::to_string(seg));
        const auto got = wg::datasets::parse_temporal_snap_parallel(
            text, window, true, "t", {.segment_bytes = seg, .threads = 3});
        ASSERT_EQ(got.batches.size(), want.batches.size());
        ASSERT_EQ(got.initial.num_vertices, want.initial.num_vertices);
        for (std::size_t i = 0; i < got.batches.size(); ++i) {
          ASSERT_EQ(got.batches[i].edges.src, want.batches[i].edges.src) << i;
          ASSERT_EQ(got.batches[i].edges.dst, want.batches[i].edges.dst) << i;
          ASSERT_EQ(got.batches[i].edges.num_vertices, want.batches[i].edges.num_vertices);
          ASSERT_EQ(got.batches[i].kind, UpdateBatch::Kind::insert);
        }
      }
    }
  }
  const std::string bad = "1 2 3\n2 3 4\n3 4\n5 6 x\n";
  for (std::size_t seg : {std::size_t{2}, std::size_t{1} << 20}) {
    try {
      (void)wg::datasets::parse_temporal_snap_parallel(bad, 5, true, "b", {.segment_bytes = seg});
      FAIL() << "no error";
    } catch (const wg::ParseError& e) {
      EXPECT_EQ(e.line(), 3u) << e.what();
    }
  }
  EXPECT_THROW((void)wg::datasets::parse_temporal_snap_parallel("", 5, true, "b"), wg::ParseError);
  EXPECT_THROW((void)wg::datasets::parse_temporal_snap_parallel("1 2 3\n", 0, true, "b"),
               wg::InvalidArgument);
}

}  // namespace
