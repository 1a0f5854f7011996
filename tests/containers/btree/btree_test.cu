// GPU tests of wg::btree::BTree against a std::map model: random batches of every operation
// (duplicates, absent erasures, the ends of the key domain) with validate() after every batch,
// bulk build, pool exhaustion, reserved keys, and concurrent mixed batches in which every
// answer about a key no update of the batch touched is checked exactly.
// Size: WG_GPU_TEST_SCALE (default 12) scales the batch sizes by 2^(scale - 12) (test_scale.hpp).
#include <gtest/gtest.h>

#include "test_scale.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <warpgraph/containers/btree/btree.cuh>
#include <warpgraph/containers/core/cuda_stream.hpp>
#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/core/error.hpp>

namespace {

using wg::DeviceBuffer;
using BTree = wg::btree::BTree<>;
using wg::btree::BTreeOptions;
using u32 = std::uint32_t;
using Model = std::map<u32, u32>;
constexpr u32 kMax = BTree::kMaxKey;
constexpr u32 kNone = BTree::kReservedKey;

using wg::test::btree_test_size;

template <class T>
DeviceBuffer<T> upload(const std::vector<T>& v, cudaStream_t s) {
  DeviceBuffer<T> b(std::max<std::size_t>(v.size(), 1), s);
  b.copy_from_host(v.data(), v.size(), 0, s);
  WG_CUDA_TRY(cudaStreamSynchronize(s));
  return b;
}
std::vector<char> download_flags(const DeviceBuffer<bool>& b, std::size_t n, cudaStream_t s) {
  std::unique_ptr<bool[]> h(new bool[std::max<std::size_t>(n, 1)]);
  b.copy_to_host(h.get(), n, s);
  WG_CUDA_TRY(cudaStreamSynchronize(s));
  return std::vector<char>(h.get(), h.get() + n);
}

/// Keys with many repeats, plus both ends of the domain.
u32 random_key(std::mt19937& rng, u32 range) {
  const u32 r = rng() % 64;
  if (r == 0) return 0;
  if (r == 1) return kMax;
  if (r == 2) return kMax - rng() % 40;
  if (r == 3) return rng() % 40;
  return rng() % range;
}

/// Every query type against the model, then validate() and the full contents.
void expect_matches(const BTree& t, const Model& m, std::mt19937& rng, u32 range, cudaStream_t s) {
  ASSERT_EQ(t.validate(s), "");
  ASSERT_EQ(t.size(), m.size());
  const auto items = t.to_host(s);
  ASSERT_EQ(items.size(), m.size());
  ASSERT_TRUE(std::equal(items.begin(), items.end(), m.begin(), [](const auto& a, const auto& b) {
    return a.first == b.first && a.second == b.second;
  }));

  const std::size_t nq = 4000;
  std::vector<u32> q(nq);
  std::vector<u32> present;
  for (const auto& kv : m) present.push_back(kv.first);
  for (std::size_t i = 0; i < nq; ++i)
    q[i] =
        (i % 3 == 0 && !present.empty()) ? present[rng() % present.size()] : random_key(rng, range);
  q[0] = 0;
  q[1] = kMax;
  q[2] = kNone;
  q[3] = kMax - 1;
  q[4] = 1;
  auto dq = upload(q, s);
  DeviceBuffer<u32> dv(nq, s), dk(nq, s);
  DeviceBuffer<bool> df(nq, s);
  dv.fill_bytes(0xAB, s);

  // find
  const std::uint64_t hits = t.find(dq.data(), nq, dv.data(), df.data(), s);
  auto v = dv.to_host(s);
  auto f = download_flags(df, nq, s);
  std::uint64_t expect_hits = 0;
  for (std::size_t i = 0; i < nq; ++i) {
    auto it = m.find(q[i]);
    ASSERT_EQ(bool(f[i]), it != m.end()) << "find " << q[i];
    if (it != m.end()) {
      ++expect_hits;
      ASSERT_EQ(v[i], it->second) << "find value " << q[i];
    }
  }
  ASSERT_EQ(hits, expect_hits);

  // successor and predecessor (strict)
  for (int dir = 0; dir < 2; ++dir) {
    if (dir == 0)
      t.successor(dq.data(), nq, dk.data(), dv.data(), df.data(), s);
    else
      t.predecessor(dq.data(), nq, dk.data(), dv.data(), df.data(), s);
    auto k = dk.to_host(s);
    v = dv.to_host(s);
    f = download_flags(df, nq, s);
    for (std::size_t i = 0; i < nq; ++i) {
      Model::const_iterator it;
      bool has;
      if (dir == 0) {
        it = m.upper_bound(q[i]);
        has = it != m.end();
      } else {
        it = m.lower_bound(q[i]);
        has = it != m.begin();
        if (has) --it;
      }
      ASSERT_EQ(bool(f[i]), has) << (dir ? "predecessor " : "successor ") << q[i];
      if (has) {
        ASSERT_EQ(k[i], it->first) << (dir ? "predecessor " : "successor ") << q[i];
        ASSERT_EQ(v[i], it->second);
      } else {
        ASSERT_EQ(k[i], kNone);
      }
    }
  }

  // count and range
  const std::size_t nr = 1000;
  std::vector<u32> lo(nr), hi(nr);
  for (std::size_t i = 0; i < nr; ++i) {
    lo[i] = random_key(rng, range);
    const u32 len = (i % 4 == 0) ? rng() % 4 : (i % 4 == 1) ? rng() % 64 : rng() % (range / 8 + 1);
    hi[i] = (i % 17 == 0) ? lo[i] - 1 : (lo[i] > kNone - len ? kNone : lo[i] + len);
  }
  lo[0] = 0, hi[0] = kNone;  // everything
  lo[1] = kMax, hi[1] = kMax;
  lo[2] = 0, hi[2] = 0;
  auto dlo = upload(lo, s), dhi = upload(hi, s);
  DeviceBuffer<u32> dc(nr, s);
  const std::uint64_t total = t.count(dlo.data(), dhi.data(), nr, dc.data(), s);
  const auto c = dc.to_host(s);
  DeviceBuffer<std::uint64_t> doff(nr + 1, s);
  DeviceBuffer<u32> rk, rv;
  const std::uint64_t total2 = t.range(dlo.data(), dhi.data(), nr, doff.data(), rk, rv, s);
  ASSERT_EQ(total, total2);
  const auto off = doff.to_host(s);
  const auto hk = rk.to_host(s), hv = rv.to_host(s);
  std::uint64_t expect_total = 0;
  for (std::size_t i = 0; i < nr; ++i) {
    ASSERT_EQ(off[i], expect_total) << "range offset " << i;
    std::uint64_t j = off[i];
    if (lo[i] <= hi[i])
      for (auto it = m.lower_bound(lo[i]); it != m.end() && it->first <= hi[i]; ++it, ++j) {
        ASSERT_LT(j, hk.size());
        ASSERT_EQ(hk[j], it->first) << "range " << lo[i] << ".." << hi[i];
        ASSERT_EQ(hv[j], it->second);
      }
    ASSERT_EQ(j - off[i], c[i]) << "count " << lo[i] << ".." << hi[i];
    expect_total = j;
  }
  ASSERT_EQ(off[nr], expect_total);
  ASSERT_EQ(total, expect_total);
}

void insert_batch(BTree& t, Model& m, const std::vector<u32>& k, const std::vector<u32>& v,
                  cudaStream_t s) {
  std::set<u32> fresh;
  for (std::size_t i = 0; i < k.size(); ++i) {
    if (!m.count(k[i])) fresh.insert(k[i]);
    m[k[i]] = v[i];  // the last pair of a key wins
  }
  auto dk = upload(k, s), dv = upload(v, s);
  ASSERT_EQ(t.insert(dk.data(), dv.data(), k.size(), s), fresh.size());
}

void erase_batch(BTree& t, Model& m, const std::vector<u32>& k, cudaStream_t s) {
  std::uint64_t gone = 0;
  for (u32 x : k) gone += m.erase(x);
  auto dk = upload(k, s);
  ASSERT_EQ(t.erase(dk.data(), k.size(), s), gone);
}

class BTreeModel : public ::testing::TestWithParam<int> {};  // param: 0 sorted batches, 1 unsorted

TEST_P(BTreeModel, RandomBatchesMatchStdMap) {
  wg::CudaStream s;
  const std::uint64_t n = btree_test_size(6000);
  BTree t({.node_capacity = 1 << 18, .sort_updates = GetParam() == 0}, s);
  Model m;
  std::mt19937 rng(11 + GetParam());
  const u32 range = static_cast<u32>(4 * n);
  expect_matches(t, m, rng, range, s);
  for (int batch = 0; batch < 14; ++batch) {
    const std::size_t b = n / 2 + rng() % n;
    std::vector<u32> k(b), v(b);
    for (std::size_t i = 0; i < b; ++i) k[i] = random_key(rng, range), v[i] = rng();
    if (GetParam() == 1 && batch % 4 != 3) {
      // Unsorted inserts (sort_updates = false): duplicates only in runs (BTreeOptions), some
      // runs added on purpose; a key repeated elsewhere is replaced by one not yet in the batch.
      std::set<u32> seen;
      for (std::size_t i = 0; i < b; ++i) {
        if (i > 0 && i % 10 == 0) k[i] = k[i - 1];
        const bool run = i > 0 && k[i] == k[i - 1];
        while (!run && seen.count(k[i])) k[i] = rng() % range;
        seen.insert(k[i]);
      }
    }
    if (batch % 4 == 3) {  // erase: present keys, absent ones and duplicates
      std::vector<u32> present;
      for (const auto& kv : m) present.push_back(kv.first);
      for (std::size_t i = 0; i < b && !present.empty(); i += 2)
        k[i] = present[rng() % present.size()];
      erase_batch(t, m, k, s);
    } else {
      insert_batch(t, m, k, v, s);
    }
    SCOPED_TRACE("batch " + std::to_string(batch));
    expect_matches(t, m, rng, range, s);
    if (HasFatalFailure()) return;
  }
}
INSTANTIATE_TEST_SUITE_P(Sorting, BTreeModel, ::testing::Values(0, 1));

TEST(BTree, AscendingAndDescendingRuns) {
  wg::CudaStream s;
  const u32 n = static_cast<u32>(btree_test_size(20000));
  BTree t({.node_capacity = 1 << 16}, s);
  Model m;
  std::mt19937 rng(3);
  std::vector<u32> k(n), v(n);
  for (u32 i = 0; i < n; ++i) k[i] = i, v[i] = i * 7;
  insert_batch(t, m, k, v, s);
  for (u32 i = 0; i < n; ++i) k[i] = kMax - i, v[i] = i;
  insert_batch(t, m, k, v, s);
  expect_matches(t, m, rng, 2 * n, s);
}

TEST(BTree, BuildThenUpdate) {
  wg::CudaStream s;
  const std::uint64_t n = btree_test_size(30000);
  for (double fill : {0.5, 0.8, 1.0}) {
    BTree t({.node_capacity = 1 << 17, .build_fill = fill}, s);
    Model m;
    std::mt19937 rng(5);
    const u32 range = static_cast<u32>(2 * n);
    std::vector<u32> k(n), v(n);
    for (std::size_t i = 0; i < n; ++i) k[i] = random_key(rng, range), v[i] = rng();
    for (std::size_t i = 0; i < n; ++i) m[k[i]] = v[i];  // last wins
    auto dk = upload(k, s), dv = upload(v, s);
    ASSERT_EQ(t.build(dk.data(), dv.data(), n, s), m.size());
    expect_matches(t, m, rng, range, s);
    for (int batch = 0; batch < 4; ++batch) {
      std::vector<u32> bk(n / 4), bv(n / 4);
      for (std::size_t i = 0; i < bk.size(); ++i) bk[i] = random_key(rng, range), bv[i] = rng();
      if (batch % 2)
        erase_batch(t, m, bk, s);
      else
        insert_batch(t, m, bk, bv, s);
      expect_matches(t, m, rng, range, s);
      if (HasFatalFailure()) return;
    }
    // Small builds: empty, one key, one full leaf.
    for (std::uint64_t small : {0, 1, 15, 16}) {
      ASSERT_EQ(t.build(dk.data(), dv.data(), small, s),
                std::set<u32>(k.begin(), k.begin() + small).size());
      Model ms;
      for (std::size_t i = 0; i < small; ++i) ms[k[i]] = v[i];
      expect_matches(t, ms, rng, range, s);
    }
  }
}

TEST(BTree, ReservedKeyRejectedOthersApplied) {
  wg::CudaStream s;
  BTree t({}, s);
  Model m;
  std::mt19937 rng(9);
  std::vector<u32> k = {5, kNone, 0, kMax, 7}, v = {1, 2, 3, 4, 5};
  auto dk = upload(k, s), dv = upload(v, s);
  EXPECT_THROW(t.insert(dk.data(), dv.data(), k.size(), s), wg::InvalidArgument);
  m = {{5, 1}, {0, 3}, {kMax, 4}, {7, 5}};
  expect_matches(t, m, rng, 100, s);
  EXPECT_THROW(t.erase(dk.data(), 2, s), wg::InvalidArgument);
  m.erase(5);
  expect_matches(t, m, rng, 100, s);
  EXPECT_THROW(t.build(dk.data(), dv.data(), k.size(), s), wg::InvalidArgument);
  m = {{5, 1}, {0, 3}, {kMax, 4}, {7, 5}};
  expect_matches(t, m, rng, 100, s);
}

TEST(BTree, PoolExhaustionThrowsAndTreeStaysValid) {
  wg::CudaStream s;
  BTree t({.node_capacity = 40}, s);
  Model m;
  std::mt19937 rng(13);
  const u32 n = 4000;
  std::vector<u32> k(n), v(n);
  for (u32 i = 0; i < n; ++i) k[i] = rng() % (1u << 30), v[i] = i;
  auto dk = upload(k, s), dv = upload(v, s);
  EXPECT_THROW(t.insert(dk.data(), dv.data(), n, s), wg::CapacityError);
  ASSERT_EQ(t.validate(s), "");
  EXPECT_LE(t.node_count(s), 40u);
  EXPECT_GT(t.size(), 0u);
  EXPECT_LT(t.size(), n);
  std::map<u32, u32> want;
  for (u32 i = 0; i < n; ++i) want[k[i]] = v[i];
  for (const auto& [key, val] : t.to_host(s)) {
    ASSERT_TRUE(want.count(key));
    ASSERT_EQ(want[key], val);
    m[key] = val;
  }
  // Replacing present keys needs no node: it still works after exhaustion.
  std::vector<u32> pk, pv;
  for (auto& kv : m) pk.push_back(kv.first), pv.push_back(kv.second + 1);
  insert_batch(t, m, pk, pv, s);
  expect_matches(t, m, rng, 1u << 30, s);
  // And the build of too many keys throws without touching the tree.
  EXPECT_THROW(t.build(dk.data(), dv.data(), n, s), wg::CapacityError);
  expect_matches(t, m, rng, 1u << 30, s);
}

}  // namespace
