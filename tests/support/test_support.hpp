#pragma once
// Helpers for warpgraph's tests: finding the bundled datasets (and reading one without weights),
// suites over every bundled graph, and skipping GPU tests on machines without a CUDA device.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include <warpgraph/datasets/read_graph.hpp>

namespace wg::test {

/// Path of a real graph in the datasets folder (CMake cache variable WG_DATASETS_DIR, by default
/// the bundled datasets/data): `name` itself or its gzip copy `name.gz`; nullopt when neither is
/// there (only in a build pointed at another folder).
std::optional<std::string> shared_dataset(const std::string& name);
/// The whole text of a file, decompressed when it is gzip (read independently of the library).
std::string read_text(const std::string& path);

/// The bundled real graphs (datasets/data/README.md), as test parameters.
inline const auto kBundledGraphs =
    ::testing::Values("karate.mtx", "dolphins.mtx", "polbooks.mtx", "netscience.mtx",
                      "facebook_combined.txt", "luxembourg_osm.mtx", "delaunay_n16.mtx");
/// A test name for a graph file parameter: the file name up to its first dot.
inline std::string graph_test_name(const ::testing::TestParamInfo<const char*>& info) {
  const std::string name = info.param;
  return name.substr(0, name.find('.'));
}
/// A dataset file's edges without their weights (the unweighted algorithms' input).
inline EdgeList unweighted_edges(const std::string& path) {
  EdgeList e = datasets::read_graph(path).edges;
  e.weight.clear();
  return e;
}
/// Path of a file in the source tree (e.g. "datasets/data/facebook_combined.txt.gz").
std::string source_path(const std::string& relative);
/// WG_GPU_TEST_SCALE (the R-MAT scale of the GPU tests; ~8 under compute-sanitizer), else
/// `fallback`.
inline unsigned gpu_test_scale(unsigned fallback = 11) {
  const char* s = std::getenv("WG_GPU_TEST_SCALE");
  return s ? static_cast<unsigned>(std::atoi(s)) : fallback;
}
/// True when the CUDA runtime sees at least one device (always false in a CPU-only build).
bool cuda_device_available();

}  // namespace wg::test

/// Skips the current test, with a message, when the named shared dataset is absent.
#define WG_REQUIRE_DATASET(var, name)                                                             \
  auto var##_opt = ::wg::test::shared_dataset(name);                                              \
  if (!var##_opt) GTEST_SKIP() << "shared dataset " << (name) << " not found in WG_DATASETS_DIR"; \
  const std::string var = *var##_opt

/// Skips the current test when no CUDA device is present.
#define WG_REQUIRE_GPU() \
  if (!::wg::test::cuda_device_available()) GTEST_SKIP() << "no CUDA device"

/// TEST_P(suite, name) on every bundled graph (GetParam(): its file name), with the suite's
/// fixture and its instantiation "All" (tests named by graph_test_name); one such test a suite.
#define WG_BUNDLED_GRAPHS_TEST(suite, name)                                                      \
  class suite : public ::testing::TestWithParam<const char*> {};                                 \
  INSTANTIATE_TEST_SUITE_P(All, suite, ::wg::test::kBundledGraphs, ::wg::test::graph_test_name); \
  TEST_P(suite, name)

/// A TEST that runs the file's replay(args...) scenario: stream scenarios declared one a line.
#define WG_REPLAY_TEST(suite, name, ...) \
  TEST(suite, name) {                    \
    replay(__VA_ARGS__);                 \
  }
