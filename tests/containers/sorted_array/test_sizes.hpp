#pragma once
// Sizes of the sorted-array and LSM GPU tests. WG_GPU_TEST_SCALE reads as the graph and B-tree
// tests' scale (default 12, the sizes as written): each size is its default times
// 2^(scale - 12), never below a floor that keeps every case meaningful, so the compute-sanitizer
// runs (scale 7 or 8) get a 16th to a 32nd of the data and a third of the batches. Under a
// sanitizer the cost is mostly per kernel launch and per shared-memory access of the CUB sorts
// and merges, hence batch counts shrink too (test_rounds), not only batch sizes.
#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace wg::test {

/// WG_GPU_TEST_SCALE (default 12), clamped to [0, 18].
inline int test_scale() {
  const char* e = std::getenv("WG_GPU_TEST_SCALE");
  const int s = e && *e ? std::atoi(e) : 12;
  return std::clamp(s, 0, 18);
}

/// n * 2^(scale - 12), at least `floor`.
inline std::uint64_t test_size(std::uint64_t n, std::uint64_t floor) {
  const int d = test_scale() - 12;
  const std::uint64_t r = d >= 0 ? n << d : n >> -d;
  return std::max(r, floor);
}

/// A count of batches or rounds: `n` at the default scale and above, n / 2 at scale 10-11 and
/// n / 3 at 9 or below, at least `floor`.
inline int test_rounds(int n, int floor) {
  const int s = test_scale();
  const int r = s >= 12 ? n : s >= 10 ? n / 2 : n / 3;
  return std::max(r, floor);
}

}  // namespace wg::test
