// ReadOptions::on_edges (datasets/read_graph.hpp): the chunks handed over while a file is parsed
// concatenate to the result's edges, in order, for segment sizes from a few bytes up; files with
// an error fail with the same message as without the callback; ReadOptions::cancel stops a read.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/detail/parallel_lines.hpp>
#include <warpgraph/datasets/read_graph.hpp>

#include "temp_files.hpp"

namespace {

using wg::datasets::EdgeChunk;
using wg::datasets::ReadOptions;

struct Collected {
  wg::EdgeList edges;
  std::uint64_t chunks = 0;
  bool offsets_ok = true, weights_consistent = true;
};

ReadOptions collecting(Collected& c, ReadOptions o = {}) {
  o.on_edges = [&c](const EdgeChunk& k) {
    if (k.offset != c.edges.src.size() || k.size == 0) c.offsets_ok = false;
    if (c.chunks && (k.weight != nullptr) != !c.edges.weight.empty()) c.weights_consistent = false;
    c.edges.src.insert(c.edges.src.end(), k.src, k.src + k.size);
    c.edges.dst.insert(c.edges.dst.end(), k.dst, k.dst + k.size);
    if (k.weight) c.edges.weight.insert(c.edges.weight.end(), k.weight, k.weight + k.size);
    ++c.chunks;
  };
  return o;
}

std::string snap_text(std::uint64_t seed, int lines, bool weights) {
  std::mt19937_64 rng(seed);
  std::string t = "# a comment\n";
  for (int i = 0; i < lines; ++i) {
    if (rng() % 17 == 0) t += "# more\n";
    t += std::to_string(rng() % 5000) + "\t" + std::to_string(rng() % 5000);
    if (weights) t += " " + std::to_string(rng() % 100) + ".5";
    t += (i % 5 == 0) ? "\r\n" : "\n";
  }
  return t;
}

std::string mm_text(std::uint64_t seed, int entries, bool weights) {
  std::mt19937_64 rng(seed);
  std::string t = std::string("%%MatrixMarket matrix coordinate ") +
                  (weights ? "real" : "pattern") + " general\n% c\n3000 3000 " +
                  std::to_string(entries) + "\n";
  for (int i = 0; i < entries; ++i) {
    t += std::to_string(1 + rng() % 3000) + " " + std::to_string(1 + rng() % 3000);
    if (weights) t += " " + std::to_string(rng() % 1000);
    t += "\n";
  }
  return t;
}

class ReadStream : public ::testing::TestWithParam<std::size_t> {
 protected:
  void SetUp() override {
    wg::datasets::detail::chunk_policy() = {
        .min_chunk_bytes = 1 << 12, .max_threads = 4, .stream_segment_bytes = GetParam()};
  }
  void TearDown() override { wg::datasets::detail::chunk_policy() = {}; }
  wg::test::TempDir dir_;
};

void expect_same(const wg::EdgeList& want, const Collected& got) {
  EXPECT_TRUE(got.offsets_ok);
  EXPECT_TRUE(got.weights_consistent);
  EXPECT_EQ(got.edges.src, want.src);
  EXPECT_EQ(got.edges.dst, want.dst);
  EXPECT_EQ(got.edges.weight, want.weight);
}

TEST_P(ReadStream, ChunksConcatenateToTheResult) {
  for (bool weights : {false, true}) {
    for (bool mm : {false, true}) {
      for (bool gz : {false, true}) {
        const std::string text = mm ? mm_text(3, 4000, weights) : snap_text(5, 4000, weights);
        const std::string name = std::string(mm ? "g.mtx" : "g.txt") + (gz ? ".gz" : "");
        const std::string path = gz ? dir_.write_gz(name, text) : dir_.write(name, text);
        for (int rule = 0; rule < 4; ++rule) {
          const bool compact = rule & 1, min_rule = rule & 2;
          ReadOptions plain;
          plain.compact_ids = compact;
          plain.min_weight_duplicates = min_rule;
          const auto want = wg::datasets::read_graph(path, plain);
          Collected got;
          const auto r = wg::datasets::read_graph(path, collecting(got, plain));
          SCOPED_TRACE(name + (compact ? " compact" : "") + (weights ? " weighted" : ""));
          expect_same(want.edges, got);
          EXPECT_EQ(r.edges.src, want.edges.src);
          EXPECT_EQ(r.edges.num_vertices, want.edges.num_vertices);
          EXPECT_EQ(r.lines, want.lines);
          EXPECT_EQ(r.id_range_line, want.id_range_line);
          // The duplicate rule changes weights at the end: a weighted list then comes in one.
          if (weights && min_rule)
            EXPECT_EQ(got.chunks, 1u);
          else if (GetParam() < 4096 && !compact)
            EXPECT_GT(got.chunks, 1u);
        }
      }
    }
  }
}

TEST_P(ReadStream, BadLinesFailWithTheSameMessage) {
  std::vector<std::pair<std::string, std::string>> files;
  {
    std::string t = snap_text(7, 3000, false);
    const std::size_t at = t.size() * 2 / 3;
    t.insert(t.find('\n', at) + 1, "12 x7\n");
    files.emplace_back("bad_field.txt", t);
  }
  {
    std::string t = snap_text(8, 3000, false);
    t.insert(t.find('\n', t.size() / 2) + 1, "1 2 3.5\n");
    files.emplace_back("bad_columns.txt", t);
  }
  {
    std::string t = mm_text(9, 3000, false);
    t.insert(t.find('\n', t.size() / 2) + 1, "5 3001\n");
    files.emplace_back("bad_range.mtx", t);
  }
  files.emplace_back("too_many.mtx", mm_text(10, 3000, false) + "1 1\n");
  {
    std::string t = mm_text(11, 3000, false);
    t.resize(t.rfind('\n', t.size() - 2) + 1);
    files.emplace_back("too_few.mtx", t);
  }
  files.emplace_back("past_limit.txt", snap_text(12, 2000, false) + "1 3000000000\n");
  for (const auto& [name, text] : files) {
    const std::string path = dir_.write(name, text);
    std::string want, got;
    try {
      (void)wg::datasets::read_graph(path);
    } catch (const wg::ParseError& e) {
      want = e.what();
    }
    Collected c;
    try {
      (void)wg::datasets::read_graph(path, collecting(c));
    } catch (const wg::ParseError& e) {
      got = e.what();
    }
    EXPECT_FALSE(want.empty()) << name;
    EXPECT_EQ(got, want) << name;
  }
}

// ReadOptions::cancel: set before the read, or by the first chunk handed over (the parsing
// threads are then still at work), the read ends with wg::Cancelled naming the file.
TEST_P(ReadStream, CancelStopsTheReadWithItsFile) {
  const std::pair<std::string, std::string> files[] = {{"c.txt", snap_text(21, 20000, false)},
                                                       {"c.mtx", mm_text(22, 20000, false)}};
  for (const auto& [name, text] : files) {
    const std::string path = dir_.write(name, text);
    std::atomic<bool> flag{true};
    ReadOptions o;
    o.cancel = &flag;
    try {
      (void)wg::datasets::read_graph(path, o);
      ADD_FAILURE() << name << ": a cancelled read returned";
    } catch (const wg::Cancelled& e) {
      EXPECT_EQ(std::string(e.what()), path + ": read cancelled");
    }
    flag = false;
    Collected c;
    ReadOptions later = collecting(c);
    later.cancel = &flag;
    const auto collect = later.on_edges;
    later.on_edges = [&](const EdgeChunk& k) {
      collect(k);
      flag = true;
    };
    EXPECT_THROW((void)wg::datasets::read_graph(path, later), wg::Cancelled) << name;
    EXPECT_GT(c.chunks, 0u) << name;
    // A flag left unset changes nothing.
    flag = false;
    ReadOptions unset;
    unset.cancel = &flag;
    EXPECT_EQ(wg::datasets::read_graph(path, unset).edges.src,
              wg::datasets::read_graph(path).edges.src)
        << name;
  }
}

INSTANTIATE_TEST_SUITE_P(Segments, ReadStream,
                         ::testing::Values(std::size_t{5}, std::size_t{333}, std::size_t{8192},
                                           std::size_t{8} << 20));

}  // namespace
