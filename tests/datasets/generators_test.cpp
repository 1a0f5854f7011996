// Generators: determinism, id range, entry count, R-MAT quadrant skew, scrambling is a bijection.
#include <gtest/gtest.h>

#include <algorithm>
#include <unordered_map>
#include <vector>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/generators.hpp>

namespace {

using wg::datasets::ErdosRenyiParams;
using wg::datasets::RmatParams;

std::uint64_t fingerprint(const wg::EdgeList& e) {
  std::uint64_t h = 1469598103934665603ull;
  for (std::size_t i = 0; i < e.size(); ++i)
    h = (h ^ (std::uint64_t{e.src[i]} << 32 | e.dst[i])) * 1099511628211ull;
  return h;
}

/// Generates twice and expects the same edges both times; returns them.
template <class Params>
wg::EdgeList generated_twice(wg::EdgeList (*generate)(const Params&), const Params& p) {
  auto a = generate(p);
  const auto b = generate(p);
  EXPECT_EQ(a.src, b.src);
  EXPECT_EQ(a.dst, b.dst);
  return a;
}

TEST(Rmat, DeterministicShapeAndCount) {
  RmatParams p{.scale = 12, .edge_factor = 8, .seed = 42};
  const auto a = generated_twice(wg::datasets::generate_rmat, p);
  EXPECT_EQ(a.num_vertices, 4096u);
  EXPECT_EQ(a.size(), 8u * 4096);
  EXPECT_TRUE(a.symmetric);
  EXPECT_FALSE(a.weighted());
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_LT(a.src[i], 4096u);
    ASSERT_LT(a.dst[i], 4096u);
  }
  p.seed = 43;
  auto c = wg::datasets::generate_rmat(p);
  EXPECT_NE(c.src, a.src);
  p.edge_factor = 2.5;
  p.symmetric = false;
  auto d = wg::datasets::generate_rmat(p);
  EXPECT_EQ(d.size(), 10240u);
  EXPECT_FALSE(d.symmetric);
}

TEST(Rmat, ThreadCountIndependentPrefix) {
  // Entry i depends on (seed, i) only: a larger graph with the same seed and scale starts with the
  // entries of the smaller one (whatever way the work was split over threads).
  RmatParams p;
  p.scale = 16;
  p.edge_factor = 1;  // 65536 entries: one thread
  auto small = wg::datasets::generate_rmat(p);
  p.edge_factor = 64;  // 4M entries: split over the threads
  auto large = wg::datasets::generate_rmat(p);
  ASSERT_GE(large.size(), small.size());
  EXPECT_TRUE(std::equal(small.src.begin(), small.src.end(), large.src.begin()));
  EXPECT_TRUE(std::equal(small.dst.begin(), small.dst.end(), large.dst.begin()));
}

TEST(Rmat, GoldenFingerprintAcrossPlatforms) {
  // Pins the exact output (integer-only quadrant choice, SplitMix64): a change here changes
  // every generated benchmark graph, so it must be deliberate.
  RmatParams p;
  p.scale = 10;
  p.edge_factor = 4;
  p.seed = 7;
  EXPECT_EQ(fingerprint(wg::datasets::generate_rmat(p)), 726323965617219027ull)
      << fingerprint(wg::datasets::generate_rmat(p));
}

TEST(Rmat, QuadrantSkewWithoutScrambling) {
  RmatParams p;
  p.scale = 14;
  p.edge_factor = 16;
  p.scramble_ids = false;
  auto e = wg::datasets::generate_rmat(p);
  // The top bit of (u, v) is the first level's quadrant: a, b, c, d = .57, .19, .19, .05.
  const std::uint32_t half = 1u << 13;
  double q[4] = {0, 0, 0, 0};
  for (std::size_t i = 0; i < e.size(); ++i) q[(e.src[i] >= half) * 2 + (e.dst[i] >= half)] += 1;
  const double expect[4] = {0.57, 0.19, 0.19, 0.05};
  for (int k = 0; k < 4; ++k)
    EXPECT_NEAR(q[k] / static_cast<double>(e.size()), expect[k], 0.01) << k;
  // Skewed degrees: vertex 0 is the hub; the maximum degree is far above the average.
  std::vector<std::uint64_t> deg(e.num_vertices);
  for (std::size_t i = 0; i < e.size(); ++i) ++deg[e.src[i]], ++deg[e.dst[i]];
  const double avg = 2.0 * static_cast<double>(e.size()) / static_cast<double>(e.num_vertices);
  EXPECT_EQ(std::max_element(deg.begin(), deg.end()) - deg.begin(), 0);
  EXPECT_GT(static_cast<double>(deg[0]), 50 * avg);
}

TEST(Rmat, ScramblingIsABijectionOfTheUnscrambledGraph) {
  RmatParams p;
  p.scale = 11;
  p.edge_factor = 16;
  auto scrambled = wg::datasets::generate_rmat(p);
  p.scramble_ids = false;
  auto plain = wg::datasets::generate_rmat(p);
  ASSERT_EQ(plain.size(), scrambled.size());
  std::unordered_map<std::uint32_t, std::uint32_t> fwd, back;
  auto check = [&](std::uint32_t a, std::uint32_t b) {
    auto [it, fresh] = fwd.emplace(a, b);
    ASSERT_EQ(it->second, b);
    auto [jt, fresh2] = back.emplace(b, a);
    ASSERT_EQ(jt->second, a);
  };
  for (std::size_t i = 0; i < plain.size(); ++i) {
    check(plain.src[i], scrambled.src[i]);
    check(plain.dst[i], scrambled.dst[i]);
  }
  EXPECT_NE(fwd.at(0), 0u);  // the hub moved
}

// Batches drawn with another seed but the graph's scramble_seed share its id permutation (the
// graph's hub is the batch's hub); without it the permutation changes with the seed.
TEST(Rmat, ScrambleSeedFixesThePermutationAcrossSeeds) {
  auto hub_of = [](std::uint64_t seed, std::uint64_t scramble_seed) {
    RmatParams p;
    p.scale = 12;
    p.edge_factor = 8;
    p.seed = seed;
    p.scramble_seed = scramble_seed;
    const auto e = wg::datasets::generate_rmat(p);
    std::vector<std::uint32_t> deg(e.num_vertices);
    for (std::size_t i = 0; i < e.size(); ++i) ++deg[e.src[i]];
    return std::max_element(deg.begin(), deg.end()) - deg.begin();
  };
  EXPECT_EQ(hub_of(3, 77), hub_of(4, 77));
  EXPECT_EQ(hub_of(3, 3), hub_of(3, 0));  // 0: the permutation follows the seed
  EXPECT_NE(hub_of(3, 0), hub_of(4, 0));
}

TEST(Rmat, RejectsBadParameters) {
  RmatParams p;
  p.scale = 32;  // ids up to 2^32 - 1: past wg::kVertexIdLimit
  EXPECT_THROW(wg::datasets::generate_rmat(p), wg::InvalidArgument);
  p.scale = 4;
  p.a = 0.9;
  EXPECT_THROW(wg::datasets::generate_rmat(p), wg::InvalidArgument);
  p.a = 0.57;
  p.edge_factor = -1;
  EXPECT_THROW(wg::datasets::generate_rmat(p), wg::InvalidArgument);
}

TEST(ErdosRenyi, DeterministicUniform) {
  ErdosRenyiParams p{.num_vertices = 1000, .num_edges = 200000};
  const auto a = generated_twice(wg::datasets::generate_erdos_renyi, p);
  EXPECT_EQ(a.size(), 200000u);
  EXPECT_EQ(a.num_vertices, 1000u);
  std::vector<std::uint64_t> deg(1000);
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_LT(a.src[i], 1000u);
    ASSERT_LT(a.dst[i], 1000u);
    ++deg[a.src[i]], ++deg[a.dst[i]];
  }
  // Mean degree 400, binomial standard deviation 20: every vertex within 7 sigma.
  for (auto d : deg) {
    EXPECT_GT(d, 260u);
    EXPECT_LT(d, 540u);
  }
  p.seed = 2;
  EXPECT_NE(wg::datasets::generate_erdos_renyi(p).src, a.src);
  p.num_vertices = wg::kVertexIdLimit + 1;
  EXPECT_THROW(wg::datasets::generate_erdos_renyi(p), wg::InvalidArgument);
}

}  // namespace
