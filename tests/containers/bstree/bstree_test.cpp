// Model-based tests of BSTree and CompressedBSTree against std::set / std::map, on every SIMD path
// this CPU runs (paths it lacks are skipped, not faked).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <warpgraph/containers/bstree/bstree.hpp>
#include <warpgraph/containers/bstree/detail/ops_table.hpp>

#include <warpgraph/containers/core/error.hpp>
#include "bstree_variants.hpp"

// Inside the tree's namespace: the tree types and the shared test parameters need no
// using-declarations.
namespace wg::bstree::test {
namespace {

class BSTreeTest : public VariantTest {};

template <class Tree>
std::vector<std::uint64_t> all_keys(const Tree& t, std::uint64_t lo = 0,
                                    std::uint64_t hi = kMaxKey) {
  std::vector<std::uint64_t> out;
  t.range(lo, hi, [&](std::uint64_t k) { out.push_back(k); });
  return out;
}

std::vector<std::uint64_t> model_range(const std::set<std::uint64_t>& m, std::uint64_t lo,
                                       std::uint64_t hi) {
  if (lo >= hi) return {};
  return {m.lower_bound(lo), m.lower_bound(hi)};
}

template <class Tree>
void expect_equal(const Tree& t, const std::set<std::uint64_t>& model) {
  ASSERT_EQ(t.size(), model.size());
  ASSERT_EQ(all_keys(t), std::vector<std::uint64_t>(model.begin(), model.end()));
  ASSERT_NO_THROW(t.check_invariants());
}

// Key generators: each stresses a different part of the tree.
enum class Dist { uniform, small_range, clustered, delta_edges, near_max };

std::uint64_t draw(Dist d, std::mt19937_64& rng, const std::vector<std::uint64_t>& bases) {
  switch (d) {
    case Dist::uniform:
      return rng() % (kMaxKey - 1);
    case Dist::small_range:
      return rng() % 3000;
    case Dist::clustered:  // (u << 32 | v) adjacency keys: a few vertices, dense neighbours
      return ((rng() % 40) << 32) | (rng() % 5000);
    case Dist::delta_edges: {  // deltas right around the 16- and 32-bit frame limits
      static const std::uint64_t offs[] = {
          0,       1,          0xFFFD,     0xFFFE,        0xFFFF,         0x10000,
          0x10001, 0xFFFFFFFD, 0xFFFFFFFE, 0xFFFFFFFFull, 0x100000000ull, 0x100000001ull};
      const std::uint64_t b = bases[rng() % bases.size()];
      const std::uint64_t o = offs[rng() % 12] + (rng() % 3);
      return b + o;
    }
    case Dist::near_max:
      return kMaxKey - 1 - rng() % 2000;
  }
  return 0;
}

void random_ops(const Param& p, const Options& o, Dist dist, int ops, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> bases;
  for (int i = 0; i < 6; ++i) bases.push_back(rng() % (std::uint64_t{1} << 62));
  with_tree<void>(p, o, [&](auto& t) {
    std::set<std::uint64_t> model;
    for (int i = 0; i < ops; ++i) {
      const std::uint64_t k = draw(dist, rng, bases);
      const int op = static_cast<int>(rng() % 100);
      if (op < 45) {
        ASSERT_EQ(t.insert(k), model.insert(k).second) << "insert " << k;
      } else if (op < 70) {
        ASSERT_EQ(t.erase(k), model.erase(k) == 1) << "erase " << k;
      } else if (op < 85) {
        ASSERT_EQ(t.contains(k), model.count(k) == 1) << "contains " << k;
      } else if (op < 95) {
        auto it = model.lower_bound(k);
        auto got = t.lower_bound(k);
        if (it == model.end())
          ASSERT_FALSE(got.has_value()) << "lower_bound " << k;
        else
          ASSERT_EQ(got, std::optional<std::uint64_t>(*it)) << "lower_bound " << k;
      } else {
        const std::uint64_t k2 = draw(dist, rng, bases);
        const std::uint64_t lo = std::min(k, k2), hi = std::max(k, k2);
        ASSERT_EQ(all_keys(t, lo, hi), model_range(model, lo, hi)) << "range " << lo << " " << hi;
      }
      if (i % 5000 == 4999) ASSERT_NO_THROW(t.check_invariants()) << "after op " << i;
    }
    expect_equal(t, model);
    // Delete everything.
    std::vector<std::uint64_t> keys(model.begin(), model.end());
    std::shuffle(keys.begin(), keys.end(), rng);
    for (std::uint64_t k : keys) ASSERT_TRUE(t.erase(k));
    expect_equal(t, {});
    for (std::uint64_t k : keys) ASSERT_FALSE(t.contains(k));
    // And the emptied tree keeps working.
    for (std::size_t i = 0; i < keys.size() / 2; ++i) ASSERT_TRUE(t.insert(keys[i]));
    std::set<std::uint64_t> half(keys.begin(), keys.begin() + keys.size() / 2);
    expect_equal(t, half);
  });
}

TEST_P(BSTreeTest, RandomUniform) {
  random_ops(GetParam(), options(), Dist::uniform, 30000, 1);
}
TEST_P(BSTreeTest, RandomSmallRange) {
  random_ops(GetParam(), options(), Dist::small_range, 30000, 2);
}
TEST_P(BSTreeTest, RandomClustered) {
  random_ops(GetParam(), options(), Dist::clustered, 30000, 3);
}
TEST_P(BSTreeTest, RandomCompressionBoundaries) {
  random_ops(GetParam(), options(), Dist::delta_edges, 30000, 4);
}
TEST_P(BSTreeTest, RandomNearMaxKey) {
  random_ops(GetParam(), options(), Dist::near_max, 20000, 5);
}

TEST_P(BSTreeTest, EmptyTree) {
  with_tree<void>(GetParam(), options(), [&](auto& t) {
    EXPECT_EQ(t.size(), 0u);
    EXPECT_TRUE(t.empty());
    EXPECT_FALSE(t.contains(0));
    EXPECT_FALSE(t.contains(kMaxKey));
    EXPECT_FALSE(t.erase(5));
    EXPECT_FALSE(t.lower_bound(0).has_value());
    EXPECT_TRUE(all_keys(t).empty());
    EXPECT_EQ(t.height(), 1);
    EXPECT_NO_THROW(t.check_invariants());
    EXPECT_GT(t.memory_bytes(), 0u);
  });
}

TEST_P(BSTreeTest, MaxKeyIsRejectedAndNeighboursWork) {
  with_tree<void>(GetParam(), options(), [&](auto& t) {
    EXPECT_THROW(t.insert(kMaxKey), wg::InvalidArgument);
    EXPECT_EQ(t.size(), 0u);
    EXPECT_TRUE(t.insert(kMaxKey - 1));
    EXPECT_TRUE(t.insert(kMaxKey - 2));
    EXPECT_TRUE(t.insert(0));
    EXPECT_FALSE(t.contains(kMaxKey));
    EXPECT_FALSE(t.erase(kMaxKey));
    EXPECT_TRUE(t.contains(kMaxKey - 1));
    EXPECT_EQ(t.lower_bound(kMaxKey - 1), std::optional<std::uint64_t>(kMaxKey - 1));
    EXPECT_FALSE(t.lower_bound(kMaxKey).has_value());
    EXPECT_EQ(all_keys(t), (std::vector<std::uint64_t>{0, kMaxKey - 2, kMaxKey - 1}));
    EXPECT_NO_THROW(t.check_invariants());
  });
}

TEST_P(BSTreeTest, AscendingAndDescendingInsertsSplitEverywhere) {
  for (bool descending : {false, true}) {
    with_tree<void>(GetParam(), options(), [&](auto& t) {
      std::set<std::uint64_t> model;
      const std::uint64_t n = 20000;
      for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t k = (descending ? n - i : i) * 1000003;
        ASSERT_TRUE(t.insert(k));
        model.insert(k);
      }
      EXPECT_GE(t.height(), 3);
      expect_equal(t, model);
      for (std::uint64_t k : model) ASSERT_TRUE(t.contains(k));
      for (std::uint64_t k : model) ASSERT_FALSE(t.contains(k + 1));
    });
  }
}

TEST_P(BSTreeTest, FullLeafThenOneMore) {
  // Exactly fill the root leaf (16 keys, or 64 close keys when compressed), then split it.
  with_tree<void>(GetParam(), options(), [&](auto& t) {
    std::set<std::uint64_t> model;
    for (std::uint64_t i = 0; i < 64; ++i) {
      ASSERT_TRUE(t.insert(i * 3));
      model.insert(i * 3);
      ASSERT_NO_THROW(t.check_invariants()) << i;
    }
    ASSERT_TRUE(t.insert(1));
    model.insert(1);
    expect_equal(t, model);
    // A key far outside every leaf's frame forces re-encoding / multi-way splits when compressed.
    ASSERT_TRUE(t.insert(std::uint64_t{1} << 60));
    model.insert(std::uint64_t{1} << 60);
    expect_equal(t, model);
  });
}

TEST_P(BSTreeTest, BulkLoadThenUpdates) {
  for (std::size_t n : {0, 1, 11, 12, 13, 100, 20000}) {
    with_tree<void>(GetParam(), options(), [&](auto& t) {
      std::mt19937_64 rng(n);
      std::set<std::uint64_t> model;
      while (model.size() < n) model.insert(((rng() % 50) << 32) | (rng() % 100000));
      std::vector<std::uint64_t> keys(model.begin(), model.end());
      t.bulk_load(keys.data(), keys.size());
      expect_equal(t, model);
      for (int i = 0; i < 20000; ++i) {
        const std::uint64_t k = ((rng() % 50) << 32) | (rng() % 100000);
        if (rng() % 2)
          ASSERT_EQ(t.insert(k), model.insert(k).second);
        else
          ASSERT_EQ(t.erase(k), model.erase(k) == 1);
      }
      expect_equal(t, model);
    });
  }
}

TEST_P(BSTreeTest, BulkLoadRejectsBadInput) {
  with_tree<void>(GetParam(), options(), [&](auto& t) {
    std::vector<std::uint64_t> unsorted{1, 3, 2};
    EXPECT_THROW(t.bulk_load(unsorted.data(), unsorted.size()), wg::InvalidArgument);
    std::vector<std::uint64_t> dup{1, 2, 2};
    EXPECT_THROW(t.bulk_load(dup.data(), dup.size()), wg::InvalidArgument);
    std::vector<std::uint64_t> max{1, kMaxKey};
    EXPECT_THROW(t.bulk_load(max.data(), max.size()), wg::InvalidArgument);
    EXPECT_EQ(t.size(), 0u);
    t.insert(5);
    std::vector<std::uint64_t> ok{1, 2};
    EXPECT_THROW(t.bulk_load(ok.data(), ok.size()), wg::InvalidArgument);
    EXPECT_NO_THROW(t.check_invariants());
  });
}

TEST_P(BSTreeTest, RangesAcrossLeafBoundaries) {
  with_tree<void>(GetParam(), options(), [&](auto& t) {
    std::set<std::uint64_t> model;
    std::vector<std::uint64_t> keys;
    for (std::uint64_t i = 0; i < 600; ++i) keys.push_back(i * 7);
    t.bulk_load(keys.data(), keys.size());
    model.insert(keys.begin(), keys.end());
    for (std::uint64_t i = 0; i < 600; i += 5) t.erase(i * 7), model.erase(i * 7);
    for (std::uint64_t lo = 0; lo < 4300; lo += 13)
      for (std::uint64_t len : {0, 1, 6, 7, 8, 84, 85, 86, 600, 5000})
        ASSERT_EQ(all_keys(t, lo, lo + len), model_range(model, lo, lo + len)) << lo << "+" << len;
    for (std::uint64_t k = 0; k < 4300; ++k) {
      auto it = model.lower_bound(k);
      ASSERT_EQ(t.lower_bound(k),
                it == model.end() ? std::nullopt : std::optional<std::uint64_t>(*it));
    }
  });
}

TEST_P(BSTreeTest, RangeStopsWhenTheCallbackReturnsFalse) {
  with_tree<void>(GetParam(), options(), [&](auto& t) {
    for (std::uint64_t k = 0; k < 1000; ++k) t.insert(k * 3);
    std::vector<std::uint64_t> got;
    t.range(10, 3000, [&](std::uint64_t k) {
      got.push_back(k);
      return got.size() < 25;
    });
    std::vector<std::uint64_t> want;
    for (std::uint64_t k = 12; want.size() < 25; k += 3) want.push_back(k);
    EXPECT_EQ(got, want);
  });
}

TEST_P(BSTreeTest, MapFormAgainstStdMap) {
  with_tree<std::uint32_t>(GetParam(), options(), [&](auto& t) {
    std::map<std::uint64_t, std::uint32_t> model;
    std::mt19937_64 rng(7);
    for (int i = 0; i < 30000; ++i) {
      const std::uint64_t k = ((rng() % 8) << 32) | (rng() % 4000);
      const auto v = static_cast<std::uint32_t>(rng());
      const int op = static_cast<int>(rng() % 4);
      if (op == 0) {
        ASSERT_EQ(t.insert(k, v), model.emplace(k, v).second);
      } else if (op == 1) {
        ASSERT_EQ(t.insert_or_assign(k, v), model.insert_or_assign(k, v).second);
      } else if (op == 2) {
        ASSERT_EQ(t.erase(k), model.erase(k) == 1);
      } else {
        auto it = model.find(k);
        auto got = t.find(k);
        if (it == model.end())
          ASSERT_FALSE(got.has_value());
        else
          ASSERT_EQ(got, std::optional<std::uint32_t>(it->second));
      }
    }
    std::vector<std::pair<std::uint64_t, std::uint32_t>> got;
    t.range(0, kMaxKey, [&](std::uint64_t k, std::uint32_t v) { got.emplace_back(k, v); });
    ASSERT_EQ(got,
              (std::vector<std::pair<std::uint64_t, std::uint32_t>>(model.begin(), model.end())));
    ASSERT_NO_THROW(t.check_invariants());
  });
}

TEST_P(BSTreeTest, MapBulkLoadCarriesValues) {
  with_tree<std::uint64_t>(GetParam(), options(), [&](auto& t) {
    std::vector<std::uint64_t> keys, values;
    for (std::uint64_t i = 0; i < 5000; ++i) keys.push_back(i * 977), values.push_back(i * i + 1);
    t.bulk_load(keys.data(), values.data(), keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i)
      ASSERT_EQ(t.find(keys[i]), std::optional<std::uint64_t>(values[i]));
    // A narrower argument (42u) converts to the map's 64-bit value (once read 8 bytes from it).
    for (std::size_t i = 0; i < keys.size(); i += 3) ASSERT_TRUE(t.insert(keys[i] + 1, 42u));
    for (std::size_t i = 0; i < keys.size(); ++i) {
      ASSERT_EQ(t.find(keys[i]), std::optional<std::uint64_t>(values[i]));
      if (i % 3 == 0) ASSERT_EQ(t.find(keys[i] + 1), std::optional<std::uint64_t>(42));
    }
    ASSERT_NO_THROW(t.check_invariants());
  });
}

TEST_P(BSTreeTest, CapacityExhaustionIsAnErrorAndLeavesTheTreeIntact) {
  Options o = options();
  o.max_leaves = 8;
  with_tree<void>(GetParam(), o, [&](auto& t) {
    std::set<std::uint64_t> model;
    bool threw = false;
    for (std::uint64_t i = 0; i < 10000 && !threw; ++i) {
      const std::uint64_t k = i * 0x9E3779B97F4A7C15ull % 0xFFFFFFFFFFFFull;
      try {
        if (t.insert(k)) model.insert(k);
      } catch (const wg::CapacityError&) {
        threw = true;
      }
    }
    EXPECT_TRUE(threw);
    expect_equal(t, model);
  });
}

std::vector<Param> all_params() {
  std::vector<Param> out;
  for (bool single_writer : {false, true})
    for (bool c : {false, true})
      for (SimdPath s : {SimdPath::avx512, SimdPath::avx2, SimdPath::scalar})
        out.push_back({c, s, single_writer});
  return out;
}
INSTANTIATE_TEST_SUITE_P(AllPaths, BSTreeTest, testing::ValuesIn(all_params()), param_name);

// ---- compression --------------------------------------------------------------------------------

TEST(BSTreeCompression, LeafWidthFollowsTheKeys) {
  auto formats_for = [](std::uint64_t stride) {
    std::vector<std::uint64_t> keys;
    for (std::uint64_t i = 0; i < 10000; ++i) keys.push_back(i * stride);
    CompressedBSTree<> t;
    t.bulk_load(keys.data(), keys.size());
    t.check_invariants();
    return t.leaf_formats();
  };
  const auto dense = formats_for(3);          // 48 keys span 141: 16-bit deltas
  const auto mid = formats_for(1000000);      // 24 keys span 2.3e7: 32-bit deltas
  const auto wide = formats_for(1ull << 40);  // 64-bit keys
  EXPECT_GT(dense.delta16, 0u);
  EXPECT_EQ(dense.delta32 + dense.delta64, 0u);
  EXPECT_GT(mid.delta32, 0u);
  EXPECT_EQ(mid.delta16 + mid.delta64, 0u);
  EXPECT_GT(wide.delta64, 0u);
  EXPECT_EQ(wide.delta16 + wide.delta32, 0u);
  // A 16-bit-delta tree is about 4x smaller than the plain one.
  std::vector<std::uint64_t> keys;
  for (std::uint64_t i = 0; i < 100000; ++i) keys.push_back(i * 5);
  BSTree<> plain;
  CompressedBSTree<> packed;
  plain.bulk_load(keys.data(), keys.size());
  packed.bulk_load(keys.data(), keys.size());
  EXPECT_LT(packed.memory_bytes() * 3, plain.memory_bytes());
}

TEST(BSTreeCompression, PaperRuleDecides) {
  std::vector<std::uint64_t> dense, sparse;
  for (std::uint64_t i = 0; i < 1000; ++i) dense.push_back(i * 100), sparse.push_back(i << 45);
  EXPECT_TRUE(wg::bstree::compression_pays(dense.data(), dense.size()));
  EXPECT_FALSE(wg::bstree::compression_pays(sparse.data(), sparse.size()));
  EXPECT_FALSE(wg::bstree::compression_pays(dense.data(), 0));
}

TEST(BSTreeSimd, RequestedPathIsUsedOrRejected) {
  for (SimdPath s : {SimdPath::avx512, SimdPath::avx2, SimdPath::scalar}) {
    Options o;
    o.simd = s;
    if (wg::bstree::simd_path_supported(s)) {
      BSTree<> t(o);
      EXPECT_EQ(t.simd_path(), s);
    } else {
      EXPECT_THROW(BSTree<> t(o), wg::InvalidArgument);
    }
  }
  EXPECT_NE(wg::bstree::default_simd_path(), SimdPath::automatic);
}

// Every successor kernel against a plain count, on blocks of random, equal and filler slots
// (sorted and not), keys at and around every slot value and at the extremes. (The GCC 12
// mask-spill miscompile described in ops.cpp shows only where a kernel is inlined into a large
// operation under a sanitizer: the model tests above catch it in such a build, this test does not.)
TEST(BSTreeSimd, KernelsCountLikeAPlainLoop) {
  std::mt19937_64 rng(7);
  alignas(64) unsigned char block[128];
  for (SimdPath s : {SimdPath::avx512, SimdPath::avx2, SimdPath::scalar}) {
    if (!wg::bstree::simd_path_supported(s)) continue;
    for (unsigned bits : {64u, 32u, 16u}) {
      const unsigned slots = 1024 / bits;
      const std::uint64_t all = bits == 64 ? kMaxKey : (std::uint64_t{1} << bits) - 1;
      for (int round = 0; round < 200; ++round) {
        std::vector<std::uint64_t> v(slots);
        for (auto& x : v) {
          const int kind = static_cast<int>(rng() % 4);
          x = kind == 0 ? all : kind == 1 ? 0 : (rng() & all) >> (rng() % bits);
        }
        if (round % 2) std::sort(v.begin(), v.end());
        for (unsigned i = 0; i < slots; ++i) {
          if (bits == 64) reinterpret_cast<std::uint64_t*>(block)[i] = v[i];
          if (bits == 32)
            reinterpret_cast<std::uint32_t*>(block)[i] = static_cast<std::uint32_t>(v[i]);
          if (bits == 16)
            reinterpret_cast<std::uint16_t*>(block)[i] = static_cast<std::uint16_t>(v[i]);
        }
        std::vector<std::uint64_t> keys = {0, 1, all, all - 1};
        for (std::uint64_t x : v) {
          keys.push_back(x);
          if (x < all) keys.push_back(x + 1);
        }
        for (std::uint64_t k : keys) {
          const unsigned expected = static_cast<unsigned>(
              std::count_if(v.begin(), v.end(), [&](std::uint64_t x) { return x < k; }));
          ASSERT_EQ(wg::bstree::detail::count_less_for_testing(s, bits, block, k), expected)
              << wg::bstree::to_string(s) << " " << bits << "-bit slots, key " << k;
        }
      }
    }
  }
}

}  // namespace
}  // namespace wg::bstree::test
