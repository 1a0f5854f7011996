// Every bundled dataset reads with the vertex and entry counts of datasets/data/README.md and of
// its own size line; the gzip reader gives exactly the edges an independent parse of the
// decompressed text gives.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <warpgraph/datasets/read_graph.hpp>

#include "test_support.hpp"

namespace {

struct Published {
  const char* file;
  std::uint64_t vertices;
  std::uint64_t undirected_edges;  // simple graph: self-loops and duplicates dropped
};
// The README's V and E columns.
const Published kPublished[] = {
    {"karate.mtx", 34, 78},
    {"dolphins.mtx", 62, 159},
    {"polbooks.mtx", 105, 441},
    {"netscience.mtx", 1589, 2742},
    {"facebook_combined.txt", 4039, 88234},
    {"luxembourg_osm.mtx", 114599, 119666},
    {"delaunay_n16.mtx", 65536, 196575},
};

std::uint64_t simple_undirected_edges(const wg::EdgeList& e) {
  std::vector<std::uint64_t> keys;
  for (std::size_t i = 0; i < e.size(); ++i) {
    std::uint64_t u = std::min(e.src[i], e.dst[i]), v = std::max(e.src[i], e.dst[i]);
    if (u != v) keys.push_back(u << 32 | v);
  }
  std::sort(keys.begin(), keys.end());
  return static_cast<std::uint64_t>(std::unique(keys.begin(), keys.end()) - keys.begin());
}

/// The size line of a Matrix Market file, read independently of the library (iostreams).
std::vector<std::uint64_t> size_line(const std::string& path) {
  std::istringstream in(wg::test::read_text(path));
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '%') break;
  std::istringstream s(line);
  std::vector<std::uint64_t> v(3);
  s >> v[0] >> v[1] >> v[2];
  return v;
}

class SharedDataset : public ::testing::TestWithParam<Published> {};

TEST_P(SharedDataset, CountsMatchReadmeAndSizeLine) {
  const Published& p = GetParam();
  WG_REQUIRE_DATASET(path, p.file);
  auto r = wg::datasets::read_graph(path);
  EXPECT_EQ(r.edges.num_vertices, p.vertices);
  EXPECT_EQ(simple_undirected_edges(r.edges), p.undirected_edges);
  for (std::size_t i = 0; i < r.edges.size(); ++i) {
    ASSERT_LT(r.edges.src[i], r.edges.num_vertices);
    ASSERT_LT(r.edges.dst[i], r.edges.num_vertices);
  }
  if (r.format == wg::datasets::FileFormat::matrix_market) {
    auto sl = size_line(path);
    EXPECT_EQ(r.mm.rows, sl[0]);
    EXPECT_EQ(r.mm.cols, sl[1]);
    EXPECT_EQ(r.mm.entries, sl[2]);
    EXPECT_EQ(r.edges.size(), sl[2]);
    EXPECT_TRUE(r.edges.symmetric);
    EXPECT_EQ(r.edges.weighted(), r.mm.field != wg::datasets::MatrixMarketHeader::Field::pattern);
  } else {
    // One edge per non-comment line.
    std::istringstream in(wg::test::read_text(path));
    std::string line;
    std::uint64_t n = 0;
    while (std::getline(in, line))
      if (!line.empty() && line[0] != '#') ++n;
    EXPECT_EQ(r.edges.size(), n);
  }
}

INSTANTIATE_TEST_SUITE_P(All, SharedDataset, ::testing::ValuesIn(kPublished), [](const auto& info) {
  std::string n = info.param.file;
  std::replace_if(
      n.begin(), n.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return n;
});

TEST(BundledDataset, FacebookGzipEqualsIndependentParse) {
  const std::string path = wg::test::source_path("datasets/data/facebook_combined.txt.gz");
  auto bundled = wg::datasets::read_graph(path);
  std::istringstream in(wg::test::read_text(path));
  std::vector<std::uint32_t> src, dst;
  std::uint32_t u, v, lines = 0;
  std::string line;
  while (std::getline(in, line)) {
    ++lines;
    std::istringstream(line) >> u >> v;
    src.push_back(u);
    dst.push_back(v);
  }
  EXPECT_EQ(bundled.edges.num_vertices, 4039u);
  EXPECT_EQ(bundled.edges.src, src);
  EXPECT_EQ(bundled.edges.dst, dst);
  EXPECT_EQ(bundled.lines, lines);
}

}  // namespace
