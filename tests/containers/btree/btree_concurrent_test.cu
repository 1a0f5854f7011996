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
#include <warpgraph/containers/core/cuda_error.cuh>
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

/// A split caught half-way, written into the pool directly: leaf L's side link already points to
/// the new right leaf R while L still holds its old high key and every pair (state 0), or L's
/// high key is the separator but the moved pairs are not yet erased (state 1). Range counts
/// (concurrent and read-only) and successors must see each key once; before the fix a range
/// over L and R counted the moved pairs twice.
TEST(BTreeMixed, SplitInFlightCountsEachKeyOnce) {
  using Lay = wg::btree::detail::Layout<u32>;
  namespace d = wg::btree::detail;
  constexpr unsigned S = Lay::kSlots, keep = Lay::kSplitKeep;
  constexpr u32 kNone = BTree::kReservedKey;
  const u32 old_high = 100;
  for (int state = 0; state < 2; ++state) {
    SCOPED_TRACE("state " + std::to_string(state));
    wg::CudaStream s;
    BTree t({.node_capacity = 8}, s);
    std::vector<d::Node> nodes(3);
    for (unsigned c = 0; c < S; ++c) Lay::init_slot(&nodes[0], c, 10 + c, 1000 + c);
    Lay::init_meta(&nodes[0], state == 0 ? old_high : 10 + keep, 1u | d::kLeafFlag);
    for (unsigned c = 0; c < S; ++c)
      Lay::init_slot(&nodes[1], c, c < S - keep ? 10 + keep + c : kNone,
                     c < S - keep ? 1000 + keep + c : 0);
    Lay::init_meta(&nodes[1], old_high, 2u | d::kLeafFlag);
    for (unsigned c = 0; c < S; ++c)
      Lay::init_slot(&nodes[2], c, c < 3 ? old_high + c : kNone, c < 3 ? 2000 + c : 0);
    Lay::init_meta(&nodes[2], kNone, d::kNoLink | d::kLeafFlag);
    const d::TreeState st{0, 3, 0, 0};
    WG_CUDA_TRY(cudaMemcpyAsync(t.ref().nodes(), nodes.data(), sizeof(d::Node) * nodes.size(),
                                cudaMemcpyHostToDevice, s));
    WG_CUDA_TRY(cudaMemcpyAsync(t.ref().state(), &st, sizeof(st), cudaMemcpyHostToDevice, s));
    WG_CUDA_TRY(cudaStreamSynchronize(s));
    Model m;
    for (unsigned c = 0; c < S; ++c) m[10 + c] = 1000 + c;
    for (unsigned c = 0; c < 3; ++c) m[old_high + c] = 2000 + c;
    std::vector<Op> ops;
    std::vector<u32> lo, hi;
    for (u32 q = 0; q < old_high + 5; ++q) {
      ops.push_back({OpKind::kRangeCount, q, q + 200});
      ops.push_back({OpKind::kSuccessor, q, 0});
      lo.push_back(q), hi.push_back(q + 200);
    }
    auto dops = DeviceBuffer<Op>::from_host(ops, s);
    DeviceBuffer<OpResult> dres(ops.size(), s);
    t.apply(dops.data(), ops.size(), dres.data(), s);
    const auto res = dres.to_host(s);
    auto dlo = DeviceBuffer<u32>::from_host(lo, s), dhi = DeviceBuffer<u32>::from_host(hi, s);
    DeviceBuffer<u32> dc(lo.size(), s);
    t.count(dlo.data(), dhi.data(), lo.size(), dc.data(), s);
    const auto c = dc.to_host(s);
    for (std::size_t i = 0; i < lo.size(); ++i) {
      u32 want = 0;
      for (auto it = m.lower_bound(lo[i]); it != m.end() && it->first <= hi[i]; ++it) ++want;
      ASSERT_EQ(res[2 * i].status, want) << "concurrent range from " << lo[i];
      ASSERT_EQ(c[i], want) << "count from " << lo[i];
      const auto sit = m.upper_bound(lo[i]);
      const OpResult& r = res[2 * i + 1];
      ASSERT_EQ(r.status != 0, sit != m.end()) << "successor " << lo[i];
      if (sit != m.end()) {
        ASSERT_EQ(r.key, sit->first) << "successor " << lo[i];
        ASSERT_EQ(r.value, sit->second);
      }
    }
  }
}

}  // namespace
