// The bulk build's bucket counts (graph/gpu/slab/detail/table_sizing.hpp), on the CPU: a small build
// allocates its pool for small_build_spare_buckets() before the GPU has summed the tables'
// buckets, so the bound must hold for every degree sequence, rounding included.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include <warpgraph/graph/gpu/slab/detail/table_sizing.hpp>

namespace {

using wg::gpu::detail::buckets_for;
using wg::gpu::detail::small_build_spare_buckets;

// What size_small_tables_kernel takes after the first n buckets for these degrees.
std::uint64_t runs_after_n(const std::vector<std::uint64_t>& degrees, double per_bucket) {
  std::uint64_t sum = 0;
  for (const std::uint64_t d : degrees) {
    const std::uint64_t b = buckets_for(static_cast<double>(d), per_bucket);
    if (b > 1) sum += b;
  }
  return sum;
}

void expect_bound(const std::vector<std::uint64_t>& degrees, double per_bucket, const char* what) {
  std::uint64_t arcs = 0;
  for (const std::uint64_t d : degrees) arcs += d;
  const std::uint64_t spare = small_build_spare_buckets(arcs, per_bucket);
  EXPECT_LE(runs_after_n(degrees, per_bucket), spare) << what << ", per_bucket " << per_bucket;
  // And not much more than the 2 arcs / per_bucket of the proof.
  EXPECT_LE(static_cast<double>(spare), 2.0 * static_cast<double>(arcs) / per_bucket + 2.0) << what;
}

// Keys per bucket of the graph's policies (load_factor x slab capacity), computed as the
// graph computes them, including the defaults 0.7 x 30 (sets) and 0.7 x 15 (maps).
const double kPerBucket[] = {0.7 * 30, 0.7 * 15, 0.1 * 30, 0.3 * 15, 1.0 * 30, 2.5 * 30, 8.0 * 15};

TEST(TableSizing, BucketsFor) {
  EXPECT_EQ(buckets_for(0, 21), 1u);
  EXPECT_EQ(buckets_for(1, 21), 1u);
  EXPECT_EQ(buckets_for(21, 21), 1u);
  EXPECT_EQ(buckets_for(22, 21), 2u);
  EXPECT_EQ(buckets_for(42, 21), 2u);
  EXPECT_EQ(buckets_for(43, 21), 3u);
  EXPECT_EQ(buckets_for(1000000, 0.7 * 30), 47620u);
}

TEST(TableSizing, SmallBuildPoolBoundHolds) {
  std::mt19937_64 rng(42);
  for (const double c : kPerBucket) {
    // Every table just past one bucket: the most buckets per arc (2 for about c + 1 arcs).
    expect_bound(std::vector<std::uint64_t>(5000, static_cast<std::uint64_t>(c) + 1), c,
                 "just past one bucket");
    // Degrees on and around every multiple of c, where rounding decides the count.
    std::vector<std::uint64_t> around;
    for (int k = 1; k <= 200; ++k)
      for (int delta = -1; delta <= 1; ++delta)
        around.push_back(static_cast<std::uint64_t>(k * c) + delta);
    expect_bound(around, c, "around the multiples");
    // One hub with every arc, and empty tables beside it.
    std::vector<std::uint64_t> hub(100000, 0);
    hub[7] = 1u << 20;
    expect_bound(hub, c, "one hub");
    // Skewed degrees (a few hubs, many small tables) and uniform ones.
    for (int round = 0; round < 20; ++round) {
      std::vector<std::uint64_t> skewed, uniform;
      std::uniform_real_distribution<double> u(0, 1);
      for (int i = 0; i < 20000; ++i) {
        skewed.push_back(static_cast<std::uint64_t>(1.0 / (u(rng) * u(rng) + 1e-6)) % 200000);
        uniform.push_back(rng() % static_cast<std::uint64_t>(4 * c + 2));
      }
      expect_bound(skewed, c, "skewed");
      expect_bound(uniform, c, "uniform");
    }
  }
}

}  // namespace
