// Replays the fuzzers' seed corpus (datasets/fuzz/corpus/<target>/) through the same target
// bodies in every build, so the readers stay honest where libFuzzer is not run.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <warpgraph/datasets/fuzz/fuzz_targets.hpp>

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

}  // namespace
