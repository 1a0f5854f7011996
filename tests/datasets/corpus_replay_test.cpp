// Replays the fuzzers' seed corpus (datasets/fuzz/corpus/<target>/) through the same target
// bodies in every build, so the readers stay honest where libFuzzer is not run.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <warpgraph/datasets/fuzz/fuzz_targets.hpp>
#include <warpgraph/datasets/update_stream.hpp>

#include "test_support.hpp"

namespace {

std::vector<std::string> corpus(const std::string& target) {
  std::vector<std::string> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(wg::test::source_path("datasets/fuzz/corpus/" + target)))
    if (entry.is_regular_file()) files.push_back(entry.path().string());
  return files;
}

template <class Fn>
void replay(const std::string& target, Fn fn) {
  auto files = corpus(target);
  EXPECT_GE(files.size(), 3u) << "seed corpus of " << target << " is missing";
  for (const auto& path : files) {
    SCOPED_TRACE(path);
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // Any exception other than wg::Error escapes here and fails the test; a broken invariant
    // aborts.
    EXPECT_NO_THROW(fn(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
  }
}

TEST(FuzzCorpus, MatrixMarket) {
  replay("matrix_market", wg::datasets::fuzz::matrix_market);
}
TEST(FuzzCorpus, Snap) {
  replay("snap", wg::datasets::fuzz::snap);
}
TEST(FuzzCorpus, Updates) {
  replay("updates", wg::datasets::fuzz::updates);
}

// The valid seeds must actually parse (not only "not crash").
TEST(FuzzCorpus, ValidSeedsParse) {
  EXPECT_EQ(wg::datasets::read_graph(
                wg::test::source_path("datasets/fuzz/corpus/matrix_market/karate.mtx"))
                .edges.size(),
            78u);
  EXPECT_EQ(wg::datasets::read_graph(
                wg::test::source_path("datasets/fuzz/corpus/matrix_market/karate_head.mtx.gz"))
                .edges.size(),
            5u);
}

/// A seed's text and options byte (the targets' first byte).
std::pair<std::uint8_t, std::string> seed(const std::string& path, std::size_t option_bytes) {
  std::ifstream in(wg::test::source_path(path), std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return {static_cast<std::uint8_t>(bytes.at(0)), bytes.substr(option_bytes)};
}

// The seeds of issue 44's input options parse as their option bytes say.
TEST(FuzzCorpus, CsvAndUpdateSeedsParse) {
  const auto [flags, csv] = seed("datasets/fuzz/corpus/snap/csv_header.txt", 1);
  wg::datasets::ReadOptions o;
  o.delimiter = flags & 4 ? wg::datasets::Delimiter::comma : wg::datasets::Delimiter::automatic;
  const auto r = wg::datasets::parse_snap(csv, o);
  EXPECT_EQ(r.edges.size(), 3u);
  EXPECT_EQ(r.edges.weight, (std::vector<double>{2.5, 3, 1}));
  const auto [u_flags, updates] =
      seed("datasets/fuzz/corpus/updates/update_weighted_vertices.txt", 2);
  const auto s = wg::datasets::parse_update_text(updates, !(u_flags & 2));
  ASSERT_EQ(s.batches.size(), 4u);
  EXPECT_EQ(s.batches[0].edges.weight, (std::vector<double>{1, 1}));  // the duplicate rule
  EXPECT_EQ(s.batches[1].vertices, (std::vector<wg::vertex_t>{7}));
}

}  // namespace
