#pragma once
// The figures of /work/shared/datasets/README.md for the bundled real graphs (published, or
// computed independently with networkx), row by row: what the Boost reference
// (reference_datasets_test) and the CLI (tests/tools/cli_test) must both reproduce.
#include <cctype>
#include <cstdint>
#include <string>

namespace wg::test {

struct DatasetFigures {
  const char* file;
  std::uint64_t vertices, edges, max_degree, components, triangles;
  std::uint64_t bfs_reached;  ///< from the lowest id (0 in warpgraph's 0-based numbering)
  std::int64_t bfs_depth;
};

inline constexpr DatasetFigures kDatasetFigures[] = {
    {"karate.mtx", 34, 78, 17, 1, 45, 34, 3},
    {"dolphins.mtx", 62, 159, 12, 1, 95, 62, 6},
    {"polbooks.mtx", 105, 441, 25, 1, 560, 105, 4},
    {"netscience.mtx", 1589, 2742, 34, 396, 3764, 4, 2},
    {"facebook_combined.txt", 4039, 88234, 1045, 1, 1612010, 4039, 6},
    {"luxembourg_osm.mtx", 114599, 119666, 6, 1, 68, 114599, 1034},
    {"delaunay_n16.mtx", 65536, 196575, 17, 1, 131842, 65536, 109},
};

/// A test name for a DatasetFigures parameter (gtest's TestParamInfo): its file name with every
/// character other than a letter or digit as '_'.
template <class Info>
std::string figure_test_name(const Info& info) {
  std::string n = info.param.file;
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

}  // namespace wg::test
