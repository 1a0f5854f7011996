// GPU tests of wg::btree::BTree<std::uint64_t> (7 pairs per node, 8-lane tiles) against a
// std::map model: random insert and erase batches over the whole 64-bit domain (both ends
// included), bulk build, and after every batch validate(), the contents, find, successor,
// predecessor, count and range. Size: WG_GPU_TEST_SCALE (default 12) scales the batch sizes
// by 2^(scale - 12) (test_scale.hpp).
#include <gtest/gtest.h>

#include "test_scale.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <warpgraph/containers/btree/btree.cuh>
#include <warpgraph/containers/core/cuda_stream.hpp>
#include <warpgraph/containers/core/device_buffer.cuh>

namespace {

using wg::DeviceBuffer;
using u64 = std::uint64_t;
using Tree = wg::btree::BTree<u64>;
using Model = std::map<u64, u64>;
constexpr u64 kMax = Tree::kMaxKey;
constexpr u64 kNone = Tree::kReservedKey;

using wg::test::btree_test_size;

/// Dense low keys (repeats), keys spread over the whole domain, and both ends.
u64 random_key(std::mt19937_64& rng, u64 range) {
  switch (rng() % 16) {
    case 0:
      return 0;
    case 1:
      return kMax - rng() % 8;
    case 2:
      return (rng() % range) << 40;
    default:
      return rng() % range;
  }
}

std::vector<char> flags(const DeviceBuffer<bool>& b, std::size_t n, cudaStream_t s) {
  std::unique_ptr<bool[]> h(new bool[std::max<std::size_t>(n, 1)]);
  b.copy_to_host(h.get(), n, s);
  WG_CUDA_TRY(cudaStreamSynchronize(s));
  return std::vector<char>(h.get(), h.get() + n);
}

void expect_matches(const Tree& t, const Model& m, std::mt19937_64& rng, u64 range,
                    cudaStream_t s) {
  ASSERT_EQ(t.validate(s), "");
  ASSERT_EQ(t.size(), m.size());
  const auto items = t.to_host(s);
  ASSERT_EQ(items.size(), m.size());
  auto it = m.begin();
  for (const auto& kv : items) {
    ASSERT_EQ(kv.first, it->first);
    ASSERT_EQ(kv.second, it->second);
    ++it;
  }
  const std::size_t n = 3000;
  std::vector<u64> q(n), lo(n), hi(n);
  for (std::size_t i = 0; i < n; ++i) {
    q[i] = random_key(rng, range);
    lo[i] = random_key(rng, range);
    hi[i] = i % 11 == 0 ? lo[i] - 1 : lo[i] + std::min<u64>(kNone - lo[i], rng() % 64);
  }
  q[0] = 0, q[1] = kMax, q[2] = kNone;
  auto dq = DeviceBuffer<u64>::from_host(q, s), dlo = DeviceBuffer<u64>::from_host(lo, s),
       dhi = DeviceBuffer<u64>::from_host(hi, s);
  DeviceBuffer<u64> dk(n, s), dv(n, s);
  DeviceBuffer<bool> df(n, s);
  t.find(dq.data(), n, dv.data(), df.data(), s);
  auto v = dv.to_host(s);
  auto f = flags(df, n, s);
  for (std::size_t i = 0; i < n; ++i) {
    auto mi = m.find(q[i]);
    ASSERT_EQ(bool(f[i]), mi != m.end()) << "find " << q[i];
    if (mi != m.end()) ASSERT_EQ(v[i], mi->second);
  }
  for (int dir = 0; dir < 2; ++dir) {
    if (dir == 0)
      t.successor(dq.data(), n, dk.data(), dv.data(), df.data(), s);
    else
      t.predecessor(dq.data(), n, dk.data(), dv.data(), df.data(), s);
    const auto k = dk.to_host(s);
    f = flags(df, n, s);
    for (std::size_t i = 0; i < n; ++i) {
      auto mi = dir == 0 ? m.upper_bound(q[i]) : m.lower_bound(q[i]);
      const bool has = dir == 0 ? mi != m.end() : mi != m.begin();
      if (dir == 1 && has) --mi;
      ASSERT_EQ(bool(f[i]), has) << (dir ? "predecessor " : "successor ") << q[i];
      ASSERT_EQ(k[i], has ? mi->first : kNone) << (dir ? "predecessor " : "successor ") << q[i];
    }
  }
  DeviceBuffer<std::uint32_t> dc(n, s);
  DeviceBuffer<std::uint64_t> off(n + 1, s);
  DeviceBuffer<u64> rk, rv;
  t.count(dlo.data(), dhi.data(), n, dc.data(), s);
  const std::uint64_t total = t.range(dlo.data(), dhi.data(), n, off.data(), rk, rv, s);
  const auto c = dc.to_host(s);
  const auto o = off.to_host(s);
  const auto hk = rk.to_host(s);
  std::uint64_t j = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(o[i], j);
    if (lo[i] <= hi[i])
      for (auto mi = m.lower_bound(lo[i]); mi != m.end() && mi->first <= hi[i]; ++mi, ++j)
        ASSERT_EQ(hk[j], mi->first) << "range " << lo[i] << ".." << hi[i];
    ASSERT_EQ(c[i], j - o[i]) << "count " << lo[i] << ".." << hi[i];
  }
  ASSERT_EQ(total, j);
}

TEST(BTree64, RandomBatchesAndBuildMatchStdMap) {
  wg::CudaStream s;
  const std::uint64_t n = btree_test_size(5000);
  const u64 range = 4 * n;
  Tree t({.node_capacity = 1 << 18}, s);
  Model m;
  std::mt19937_64 rng(17);
  for (int batch = 0; batch < 10; ++batch) {
    SCOPED_TRACE("batch " + std::to_string(batch));
    std::vector<u64> k(n / 2 + rng() % n), v(k.size());
    for (std::size_t i = 0; i < k.size(); ++i) k[i] = random_key(rng, range), v[i] = rng();
    auto dk = DeviceBuffer<u64>::from_host(k, s), dv = DeviceBuffer<u64>::from_host(v, s);
    if (batch == 5) {  // rebuild from scratch: the last pair of a key wins
      m.clear();
      for (std::size_t i = 0; i < k.size(); ++i) m[k[i]] = v[i];
      ASSERT_EQ(t.build(dk.data(), dv.data(), k.size(), s), m.size());
    } else if (batch % 3 == 2) {
      std::uint64_t gone = 0;
      for (u64 x : k) gone += m.erase(x);
      ASSERT_EQ(t.erase(dk.data(), k.size(), s), gone);
    } else {
      std::uint64_t fresh = 0;
      Model before = m;
      for (std::size_t i = 0; i < k.size(); ++i) m[k[i]] = v[i];
      for (const auto& kv : m) fresh += before.count(kv.first) == 0;
      ASSERT_EQ(t.insert(dk.data(), dv.data(), k.size(), s), fresh);
    }
    expect_matches(t, m, rng, range, s);
    if (HasFatalFailure()) return;
  }
}

TEST(BTree64, ConcurrentMixedKeepsUntouchedKeys) {
  wg::CudaStream s;
  const std::uint64_t n = btree_test_size(20000);
  Tree t({.node_capacity = 1 << 18}, s);
  std::mt19937_64 rng(5);
  std::vector<u64> k(n), v(n);
  for (std::size_t i = 0; i < n; ++i) k[i] = (rng() >> 2) & ~u64{1}, v[i] = i;  // even keys
  auto dk = DeviceBuffer<u64>::from_host(k, s), dv = DeviceBuffer<u64>::from_host(v, s);
  t.build(dk.data(), dv.data(), n, s);
  Model m;
  for (std::size_t i = 0; i < n; ++i) m[k[i]] = v[i];
  // Odd keys are inserted, every key of the model is looked up at the same time.
  std::vector<wg::btree::Op<u64>> ops(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    ops[2 * i] = {wg::btree::OpKind::kInsert, k[i] | 1, i};
    ops[2 * i + 1] = {wg::btree::OpKind::kFind, k[(i * 7919) % n], 0};
  }
  auto dops = DeviceBuffer<wg::btree::Op<u64>>::from_host(ops, s);
  DeviceBuffer<wg::btree::OpResult<u64>> dres(ops.size(), s);
  t.apply(dops.data(), ops.size(), dres.data(), s);
  const auto res = dres.to_host(s);
  for (std::size_t i = 0; i < n; ++i) {
    const u64 key = ops[2 * i + 1].key;
    ASSERT_EQ(res[2 * i + 1].status, 1u) << key;
    ASSERT_EQ(res[2 * i + 1].value, m[key]) << key;
  }
  for (std::size_t i = 0; i < n; ++i) m[k[i] | 1] = i;
  ASSERT_EQ(t.validate(s), "");
  ASSERT_EQ(t.size(), m.size());
}

}  // namespace
