// CPU tests of the LSM's host-side logic: the level cascade plan (detail/lsm_plan.hpp), the
// layout after cleanup, the binary searches, and the device view's queries (LsmRef is plain C++
// too) on a host emulation of the LSM's levels, against std::map after every mixed batch.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include <warpgraph/containers/lsm/detail/lsm_plan.hpp>
#include <warpgraph/containers/lsm/detail/lsm_range.hpp>
#include <warpgraph/containers/lsm/lsm_ref.cuh>

#include "mixed_batch.hpp"

namespace {

using wg::lsm_detail::apply_plan;
using wg::lsm_detail::plan_insert;
using wg::lsm_detail::plan_layout;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

TEST(LsmPlan, FullBatchesFollowTheBinaryCounter) {
  const u64 b = 16;
  std::vector<u64> sizes(6, 0);
  for (u64 r = 1; r < 64; ++r) {
    auto plan = plan_insert(sizes, b, b);
    ASSERT_TRUE(plan);
    apply_plan(sizes, *plan);
    for (u32 i = 0; i < 6; ++i) ASSERT_EQ(sizes[i], (r >> i) & 1 ? b << i : 0) << r;
  }
  EXPECT_FALSE(plan_insert(sizes, b, b));  // 63 batches fill 6 levels
  EXPECT_FALSE(plan_insert(sizes, 1, b));
}

TEST(LsmPlan, PartialBatchesAccumulateWithoutPadding) {
  const u64 b = 100;
  std::vector<u64> sizes(4, 0);
  auto p = plan_insert(sizes, 30, b);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->destination, 0u);
  EXPECT_TRUE(p->merge_levels.empty());
  apply_plan(sizes, *p);
  p = plan_insert(sizes, 70, b);  // 30 + 70 fills level 0 exactly
  ASSERT_TRUE(p);
  EXPECT_EQ(p->destination, 0u);
  EXPECT_EQ(p->merge_levels, std::vector<u32>{0});
  apply_plan(sizes, *p);
  EXPECT_EQ(sizes, (std::vector<u64>{100, 0, 0, 0}));
  p = plan_insert(sizes, 50, b);  // 150 > 100: moves to level 1
  ASSERT_TRUE(p);
  apply_plan(sizes, *p);
  EXPECT_EQ(sizes, (std::vector<u64>{0, 150, 0, 0}));
  p = plan_insert(sizes, 250, b);  // too big for level 0 (empty, skipped), merges level 1: 400
  ASSERT_TRUE(p);
  EXPECT_EQ(p->merge_levels, std::vector<u32>{1});
  EXPECT_EQ(p->destination, 2u);
  apply_plan(sizes, *p);
  EXPECT_EQ(sizes, (std::vector<u64>{0, 0, 400, 0}));
  p = plan_insert(sizes, 1000, b);  // 1400 > 800 (level 3)
  EXPECT_FALSE(p);
}

TEST(LsmPlan, LayoutPrefersOneLevel) {
  auto l = plan_layout(0, 10, 4);
  ASSERT_TRUE(l);
  EXPECT_TRUE(l->empty());
  l = plan_layout(35, 10, 4);
  ASSERT_TRUE(l);
  ASSERT_EQ(l->size(), 1u);
  EXPECT_EQ((*l)[0].level, 2u);
  l = plan_layout(150, 10, 4);  // > 80 = largest level: split 80 + 40 + 20 + 10
  ASSERT_TRUE(l);
  u64 total = 0;
  for (auto s : *l) {
    EXPECT_LE(s.count, u64(10) << s.level);
    total += s.count;
  }
  EXPECT_EQ(total, 150u);
  EXPECT_FALSE(plan_layout(151, 10, 4));
}

TEST(SortedSearch, MatchesStd) {
  std::mt19937 rng(3);
  for (int t = 0; t < 200; ++t) {
    std::vector<u32> a(rng() % 40);
    for (auto& x : a) x = rng() % 50;
    std::sort(a.begin(), a.end());
    for (u32 x = 0; x < 52; ++x) {
      ASSERT_EQ(wg::lower_bound_index(a.data(), a.size(), x),
                u64(std::lower_bound(a.begin(), a.end(), x) - a.begin()));
      const u64 ub = u64(std::upper_bound(a.begin(), a.end(), x) - a.begin());
      ASSERT_EQ(wg::upper_bound_index(a.data(), a.size(), x), ub);
      const u64 lb = wg::lower_bound_index(a.data(), a.size(), x);
      for (u64 from = 0; from <= lb; ++from)  // any start whose prefix is <= x
        ASSERT_EQ(wg::upper_bound_from(a.data(), a.size(), from, x), ub) << "from " << from;
    }
  }
}

/// The LSM's update path on the host: reverse, stable sort on the key, then the planned cascade
/// of stable merges (newer run first), as lsm.cu does with CUB.
template <class Key>
struct HostLsm {
  using Ref = wg::LsmRef<Key, u32>;
  struct Level {
    std::vector<Key> keys;
    std::vector<u32> values;
  };
  u64 b;
  std::vector<Level> levels;

  bool apply(const std::vector<Key>& keys, const std::vector<u32>& values,
             const std::vector<std::uint8_t>& live) {
    std::vector<u64> sizes;
    for (auto& l : levels) sizes.push_back(l.keys.size());
    auto plan = plan_insert(sizes, keys.size(), b);
    if (!plan) return false;
    std::vector<std::pair<Key, u32>> carry;
    for (std::size_t i = keys.size(); i-- > 0;)
      carry.push_back({Ref::encode(keys[i], live[i]), values[i]});
    auto by_key = [](const auto& x, const auto& y) { return (x.first >> 1) < (y.first >> 1); };
    std::stable_sort(carry.begin(), carry.end(), by_key);
    for (u32 l : plan->merge_levels) {
      std::vector<std::pair<Key, u32>> lv, out;
      for (std::size_t i = 0; i < levels[l].keys.size(); ++i)
        lv.push_back({levels[l].keys[i], levels[l].values[i]});
      std::merge(carry.begin(), carry.end(), lv.begin(), lv.end(), std::back_inserter(out), by_key);
      carry = std::move(out);
      levels[l] = {};
    }
    Level& dst = levels[plan->destination];
    dst = {};
    for (auto& [k, v] : carry) {
      dst.keys.push_back(k);
      dst.values.push_back(v);
    }
    return true;
  }
  Ref ref() const {
    Ref r;
    for (auto& l : levels)
      if (!l.keys.empty())
        r.levels[r.num_levels++] = {l.keys.data(), l.values.data(), l.keys.size()};
    return r;
  }
};

/// Lsm::range's two passes on the host (detail/lsm_range.hpp), for a slot of `slot` answers per
/// query: every query's answers must be the model's, whether buffered or walked again.
template <class Key>
void check_range_slots(const wg::LsmRef<Key, u32>& ref, const std::map<Key, u32>& model,
                       const std::vector<Key>& k1, const std::vector<Key>& k2, std::uint32_t slot) {
  const std::size_t n = k1.size();
  std::vector<Key> slot_keys(slot * n);
  std::vector<u32> slot_values(slot * n);
  std::vector<u64> offsets(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i)
    offsets[i + 1] =
        offsets[i] + wg::lsm_detail::range_count_into_slot(
                         ref, k1[i], k2[i], slot, slot_keys.data(), slot_values.data(), n, i);
  std::vector<Key> out_keys(offsets[n]);
  std::vector<u32> out_values(offsets[n]);
  for (std::size_t i = 0; i < n; ++i)
    if (offsets[i + 1] > offsets[i])
      wg::lsm_detail::range_fill_from_slot(
          ref, k1[i], k2[i], offsets[i + 1] - offsets[i], slot, slot_keys.data(),
          slot_values.data(), n, i, out_keys.data() + offsets[i], out_values.data() + offsets[i]);
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<std::pair<Key, u32>> expect;
    if (k1[i] <= k2[i])
      for (auto it = model.lower_bound(k1[i]); it != model.end() && it->first <= k2[i]; ++it)
        expect.push_back(*it);
    ASSERT_EQ(offsets[i + 1] - offsets[i], expect.size())
        << "slot " << slot << " range [" << k1[i] << ", " << k2[i] << "]";
    for (std::size_t j = 0; j < expect.size(); ++j) {
      ASSERT_EQ(out_keys[offsets[i] + j], expect[j].first) << "slot " << slot << " key " << j;
      ASSERT_EQ(out_values[offsets[i] + j], expect[j].second) << "slot " << slot << " value " << j;
    }
  }
}

template <class Key>
void host_model_run(Key max_key, u64 seed) {
  std::mt19937_64 rng(seed);
  HostLsm<Key> lsm{32, std::vector<typename HostLsm<Key>::Level>(10)};
  std::map<Key, u32> model;
  std::vector<Key> pool = {0, 1, Key(max_key - 1), max_key};
  while (pool.size() < 300) pool.push_back(pool.size() % 2 ? rng() % 1000 : Key(rng() & max_key));
  u32 next = 1;
  for (int batch = 0; batch < 60; ++batch) {
    const std::size_t n = 1 + rng() % 90;  // below, at and above b = 32
    const auto mixed = wg::test::mixed_batch_of(rng, pool, n, false, next, model);
    ASSERT_TRUE(lsm.apply(mixed.keys, mixed.values, mixed.ops));
    const auto ref = lsm.ref();
    for (Key q : pool) {
      for (Key k : {q, Key(q + 1)}) {
        if (k > max_key) continue;
        u32 v = 0;
        auto it = model.find(k);
        ASSERT_EQ(ref.find(k, &v), it != model.end()) << "batch " << batch << " key " << k;
        if (it != model.end()) ASSERT_EQ(v, it->second);
        Key sk = 0;
        u32 sv = 0;
        auto s = model.lower_bound(k);
        ASSERT_EQ(ref.successor(k, &sk, &sv), s != model.end()) << "successor " << k;
        if (s != model.end()) ASSERT_EQ(sk, s->first);
      }
    }
    // The same state as ONE level (all levels concatenated newest first, stably sorted by key):
    // the single-level scan path must agree.
    std::vector<std::pair<Key, u32>> all;
    for (auto& l : lsm.levels)
      for (std::size_t i = 0; i < l.keys.size(); ++i) all.push_back({l.keys[i], l.values[i]});
    std::stable_sort(all.begin(), all.end(),
                     [](const auto& x, const auto& y) { return (x.first >> 1) < (y.first >> 1); });
    std::vector<Key> one_keys;
    std::vector<u32> one_values;
    for (auto& [k, v] : all) {
      one_keys.push_back(k);
      one_values.push_back(v);
    }
    typename HostLsm<Key>::Ref one;
    one.levels[0] = {one_keys.data(), one_values.data(), one_keys.size()};
    one.num_levels = 1;
    for (int t = 0; t < 100; ++t) {
      Key a = pool[rng() % pool.size()], c = pool[rng() % pool.size()];
      ASSERT_EQ(one.count(a, c), wg::test::model_count(model, a, c))
          << "one-level count " << a << " " << c;
      Key sk = 0;
      u32 sv = 0;
      auto it = model.lower_bound(a);
      ASSERT_EQ(one.successor(a, &sk, &sv), it != model.end());
      if (it != model.end()) ASSERT_EQ(sv, it->second);
    }
    for (int t = 0; t < 100; ++t) {
      Key a = pool[rng() % pool.size()], c = pool[rng() % pool.size()];
      ASSERT_EQ(ref.count(a, c), wg::test::model_count(model, a, c)) << "count " << a << " " << c;
    }
    // range with every slot size: short ranges over the dense small keys (answer counts around
    // the slot sizes), random ones, reversed ones.
    std::vector<Key> r1, r2;
    for (Key a = 0; a < 1000; a += 7)
      for (Key w : {Key(0), Key(3), Key(10), Key(25), Key(60)}) {
        r1.push_back(a);
        r2.push_back(a + w);
      }
    for (int t = 0; t < 100; ++t) {
      r1.push_back(pool[rng() % pool.size()]);
      r2.push_back(pool[rng() % pool.size()]);
    }
    for (std::uint32_t slot : {0u, 1u, 2u, 4u, 16u}) {
      check_range_slots<Key>(ref, model, r1, r2, slot);
      check_range_slots<Key>(one, model, r1, r2, slot);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST(LsmRefOnHost, MixedBatchesMatchStdMap32) {
  host_model_run<u32>(wg::LsmRef<u32, u32>::max_key, 1);
}
TEST(LsmRefOnHost, MixedBatchesMatchStdMap64) {
  host_model_run<u64>(wg::LsmRef<u64, u32>::max_key, 2);
}

}  // namespace
