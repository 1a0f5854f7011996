#pragma once
// Batch sizes of the GPU B-tree tests. WG_GPU_TEST_SCALE reads as the graph tests' scale
// (default 12): each size is its default times 2^(scale - 12), at least kMinBatch, so the
// compute-sanitizer runs (scale 7 or 8) get a 16th to a 32nd of the default work.
#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace wg::test {

inline constexpr std::uint64_t kMinBatch = 512;

inline std::uint64_t btree_test_size(std::uint64_t n) {
  const char* e = std::getenv("WG_GPU_TEST_SCALE");
  const int s = e && *e ? std::atoi(e) : 12;
  const int d = std::clamp(s - 12, -12, 6);
  const std::uint64_t r = d >= 0 ? n << d : n >> -d;
  return std::max<std::uint64_t>(r, kMinBatch);
}

}  // namespace wg::test
