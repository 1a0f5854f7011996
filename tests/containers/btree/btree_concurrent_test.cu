// GPU tests of wg::btree::BTree::apply: mixed batches, each thread its own operation (insert,
// erase, find, range count, successor), run concurrently. Answers about keys that no update of
// the batch touched must be exact; updates report exactly once per key; validate() and the
// contents are checked after every batch. A hot-window variant makes every insert land in a few
// leaves, so splits race with each other and with the readers.
// Size: WG_GPU_TEST_SCALE (default 12) scales the batch sizes by 2^(scale - 12) (test_scale.hpp).
#include <gtest/gtest.h>

#include "test_scale.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <warpgraph/containers/btree/btree.cuh>
#include <warpgraph/containers/core/cuda_stream.hpp>
#include <warpgraph/containers/core/device_buffer.cuh>

namespace {

using wg::DeviceBuffer;
using BTree = wg::btree::BTree<>;
using wg::btree::InsertStatus;
using Op = wg::btree::Op<>;
using wg::btree::OpKind;
using OpResult = wg::btree::OpResult<>;
using u32 = std::uint32_t;
using Model = std::map<u32, u32>;

using wg::test::btree_test_size;

struct Params {
  const char* name;
  u32 hot_window;  ///< 0: updates anywhere in the key range; else within [base, base + window)
};

class BTreeMixed : public ::testing::TestWithParam<Params> {};

TEST_P(BTreeMixed, UntouchedKeysAnsweredExactly) {
  wg::CudaStream s;
  const Params p = GetParam();
  const std::uint64_t n = btree_test_size(20000);
  const u32 range = static_cast<u32>(8 * n);
  BTree t({.node_capacity = 1 << 18, .build_fill = 0.9}, s);
  std::mt19937 rng(101 + p.hot_window);
  Model m;
  {
    std::vector<u32> k(n), v(n);
    for (std::size_t i = 0; i < n; ++i) k[i] = (rng() % range) & ~1u, v[i] = k[i] * 3;
    for (std::size_t i = 0; i < n; ++i) m[k[i]] = v[i];
    auto dk = DeviceBuffer<u32>::from_host(k, s), dv = DeviceBuffer<u32>::from_host(v, s);
    t.build(dk.data(), dv.data(), n, s);
    ASSERT_EQ(t.validate(s), "");
  }
  for (int batch = 0; batch < 8; ++batch) {
    SCOPED_TRACE("batch " + std::to_string(batch));
    const u32 base = p.hot_window ? rng() % (range - p.hot_window) : 0;
    auto update_key = [&] { return p.hot_window ? base + rng() % p.hot_window : rng() % range; };
    // Disjoint insert and erase key sets (a key both inserted and erased in one batch has no
    // defined outcome); each key may appear in several ops.
    std::set<u32> ins_keys, era_keys;
    std::vector<Op> ops(n);
    std::map<u32, std::set<u32>> ins_values;
    for (std::size_t i = 0; i < n; ++i) {
      const u32 r = rng() % 100;
      Op& op = ops[i];
      if (r < 30) {
        u32 k = update_key();
        if (era_keys.count(k)) k = update_key();
        if (era_keys.count(k)) goto reader;
        op = {OpKind::kInsert, k, static_cast<u32>(rng())};
        ins_keys.insert(k);
        ins_values[k].insert(op.arg);
        continue;
      }
      if (r < 45) {
        u32 k = update_key();
        if (rng() % 2) {  // mostly present keys
          auto it = m.lower_bound(k);
          if (it != m.end()) k = it->first;
        }
        if (ins_keys.count(k)) goto reader;
        op = {OpKind::kErase, k, 0};
        era_keys.insert(k);
        continue;
      }
    reader:
      const u32 q = rng() % range;
      const u32 kind = rng() % 3;
      if (kind == 0) {
        auto it = m.lower_bound(q);
        op = {OpKind::kFind, (it != m.end() && rng() % 2) ? it->first : q, 0};
      } else if (kind == 1) {
        op = {OpKind::kRangeCount, q, q + static_cast<u32>(rng() % 200)};
      } else {
        op = {OpKind::kSuccessor, q, 0};
      }
    }
    std::set<u32> touched(ins_keys);
    touched.insert(era_keys.begin(), era_keys.end());
    auto untouched = [&](u32 lo, u32 hi) {  // no touched key in [lo, hi]
      auto it = touched.lower_bound(lo);
      return it == touched.end() || *it > hi;
    };

    auto dops = DeviceBuffer<Op>::from_host(ops, s);
    DeviceBuffer<OpResult> dres(n, s);
    t.apply(dops.data(), n, dres.data(), s);
    const auto res = dres.to_host(s);

    std::map<u32, int> inserted_new, erased;
    std::uint64_t checked = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const Op& op = ops[i];
      const OpResult& r = res[i];
      switch (op.kind) {
        case OpKind::kInsert:
          ASSERT_NE(r.status, static_cast<u32>(InsertStatus::kOutOfNodes));
          inserted_new[op.key] += r.status == static_cast<u32>(InsertStatus::kInserted);
          break;
        case OpKind::kErase:
          erased[op.key] += r.status;
          break;
        case OpKind::kFind:
          if (!touched.count(op.key)) {
            auto it = m.find(op.key);
            ASSERT_EQ(r.status != 0, it != m.end()) << "find " << op.key;
            if (it != m.end()) ASSERT_EQ(r.value, it->second) << "find " << op.key;
            ++checked;
          }
          break;
        case OpKind::kRangeCount:
          if (untouched(op.key, op.arg)) {
            std::uint64_t c = 0;
            for (auto it = m.lower_bound(op.key); it != m.end() && it->first <= op.arg; ++it) ++c;
            ASSERT_EQ(r.status, c) << "range " << op.key << ".." << op.arg;
            ++checked;
          }
          break;
        case OpKind::kSuccessor: {
          auto it = m.upper_bound(op.key);
          const u32 until = it == m.end() ? BTree::kReservedKey : it->first;
          if (op.key < BTree::kMaxKey && untouched(op.key + 1, until)) {
            ASSERT_EQ(r.status != 0, it != m.end()) << "successor " << op.key;
            if (it != m.end()) {
              ASSERT_EQ(r.key, it->first) << "successor " << op.key;
              ASSERT_EQ(r.value, it->second);
            }
            ++checked;
          }
          break;
        }
      }
    }
    EXPECT_GT(checked, n / 10);
    for (u32 k : ins_keys) ASSERT_EQ(inserted_new[k], m.count(k) ? 0 : 1) << "insert " << k;
    for (u32 k : era_keys) ASSERT_EQ(erased[k], m.count(k) ? 1 : 0) << "erase " << k;
    // The model after the batch: any of the inserted values may have stayed.
    for (u32 k : era_keys) m.erase(k);
    for (u32 k : ins_keys) m[k] = 0;
    ASSERT_EQ(t.validate(s), "");
    ASSERT_EQ(t.size(), m.size());
    const auto items = t.to_host(s);
    ASSERT_EQ(items.size(), m.size());
    auto it = m.begin();
    for (const auto& [k, v] : items) {
      ASSERT_EQ(k, it->first);
      if (ins_keys.count(k)) {
        ASSERT_TRUE(ins_values[k].count(v)) << "value of " << k;
        it->second = v;
      } else {
        ASSERT_EQ(v, it->second);
      }
      ++it;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Keys, BTreeMixed,
                         ::testing::Values(Params{"spread", 0}, Params{"hot", 3000},
                                           Params{"hottest", 200}),
                         [](const auto& info) { return std::string(info.param.name); });

/// Many tiles insert ascending runs into the same few leaves at once (unsorted apply), then
/// erase them all: every split path (root, inner, leaf, restarts) under contention.
TEST(BTreeMixed, ContendedSplitsThenEraseAll) {
  wg::CudaStream s;
  const u32 n = static_cast<u32>(btree_test_size(50000));
  BTree t({.node_capacity = 1 << 16}, s);
  std::vector<Op> ops(n);
  for (u32 i = 0; i < n; ++i) ops[i] = {OpKind::kInsert, (i % 64) * n + i / 64, i};
  auto dops = DeviceBuffer<Op>::from_host(ops, s);
  DeviceBuffer<OpResult> dres(n, s);
  t.apply(dops.data(), n, dres.data(), s);
  ASSERT_EQ(t.validate(s), "");
  ASSERT_EQ(t.size(), n);
  const auto items = t.to_host(s);
  ASSERT_EQ(items.size(), n);
  std::map<u32, u32> want;
  for (const Op& op : ops) want[op.key] = op.arg;
  auto it = want.begin();
  for (const auto& kv : items) {
    ASSERT_EQ(kv.first, it->first);
    ASSERT_EQ(kv.second, it->second);
    ++it;
  }
  for (auto& op : ops) op.kind = OpKind::kErase;
  dops = DeviceBuffer<Op>::from_host(ops, s);
  t.apply(dops.data(), n, dres.data(), s);
  ASSERT_EQ(t.validate(s), "");
  ASSERT_EQ(t.size(), 0u);
}

/// One hot key: a third of the threads replace its value, a third read it, a third read its
/// neighbours. Every read of the hot key finds it with its old value or one that was written;
/// every neighbour read is exact.
TEST(BTreeMixed, HotKeyReadersSeeOnlyWrittenValues) {
  wg::CudaStream s;
  const u32 n = static_cast<u32>(btree_test_size(60000));
  BTree t({.node_capacity = 1 << 14}, s);
  std::vector<u32> k(4000), v(4000);
  for (u32 i = 0; i < 4000; ++i) k[i] = 2 * i, v[i] = 5 * i;
  auto dk = DeviceBuffer<u32>::from_host(k, s), dv = DeviceBuffer<u32>::from_host(v, s);
  t.build(dk.data(), dv.data(), k.size(), s);
  const u32 hot = 4000;  // present, value 10000
  std::vector<Op> ops(n);
  for (u32 i = 0; i < n; ++i) {
    if (i % 3 == 0)
      ops[i] = {OpKind::kInsert, hot, 100000 + i};
    else if (i % 3 == 1)
      ops[i] = {OpKind::kFind, hot, 0};
    else
      ops[i] = {OpKind::kFind, hot + 2 * (i % 7) - 6, 0};  // even neighbours, present
  }
  auto dops = DeviceBuffer<Op>::from_host(ops, s);
  DeviceBuffer<OpResult> dres(n, s);
  t.apply(dops.data(), n, dres.data(), s);
  const auto res = dres.to_host(s);
  for (u32 i = 0; i < n; ++i) {
    const OpResult& r = res[i];
    if (i % 3 == 0) {
      ASSERT_EQ(r.status, static_cast<u32>(InsertStatus::kReplaced));
    } else if (i % 3 == 1) {
      ASSERT_EQ(r.status, 1u);
      ASSERT_TRUE(r.value == 10000 ||
                  (r.value >= 100000 && (r.value - 100000) % 3 == 0 && r.value - 100000 < n))
          << r.value;
    } else if (ops[i].key != hot) {
      ASSERT_EQ(r.status, 1u) << ops[i].key;
      ASSERT_EQ(r.value, ops[i].key / 2 * 5) << ops[i].key;
    }
  }
  ASSERT_EQ(t.validate(s), "");
  ASSERT_EQ(t.size(), 4000u);
}

}  // namespace
