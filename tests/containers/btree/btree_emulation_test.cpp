// CPU test of BTreeRef's tile operations (the GPU code itself, run on host threads through
// tile_emulation.hpp): sorted and unsorted insert batches with hints, erasures, every query
// against std::map, concurrent mixed batches of several tiles with exact answers for untouched
// keys, and pool exhaustion; the host invariant walk (detail/host_walk.hpp) after every batch.
#include "tile_emulation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include <warpgraph/containers/btree/btree_ref.cuh>
#include <warpgraph/containers/btree/detail/host_walk.hpp>

namespace {

using namespace wg::btree;
using wg::emu::Tile;
using wg::emu::TileShared;
using u32 = std::uint32_t;
// The key type under test: std::uint32_t, or std::uint64_t for btree_emulation64_test.
#ifndef WG_EMU_KEY
#define WG_EMU_KEY std::uint32_t
#endif
using Key = WG_EMU_KEY;
using Model = std::map<Key, Key>;
constexpr Key kNone = detail::Layout<Key>::kEmpty;
constexpr unsigned kLanes = detail::Layout<Key>::kLanes;
/// Keys from here on, so that 64-bit keys use their upper half.
constexpr Key kBase = sizeof(Key) == 8 ? Key(Key{1} << 40) : Key{0};

template <class Key>
struct HostTree {
  using L = detail::Layout<Key>;
  explicit HostTree(u32 capacity) : nodes(capacity) {
    for (unsigned c = 0; c < L::kSlots; ++c) L::init_slot(nodes.data(), c, L::kEmpty, 0);
    L::init_meta(nodes.data(), L::kEmpty, detail::kNoLink | detail::kLeafFlag);
    state = detail::TreeState{0, 1, 0, 0};
  }
  BTreeRef<Key> ref() {
    return BTreeRef<Key>(nodes.data(), &state, static_cast<u32>(nodes.size()));
  }
  std::string check(std::uint64_t keys) const {
    const std::uint64_t used = std::min<std::uint64_t>(state.next_free, nodes.size());
    return detail::check_tree<Key>(nodes, used, state.root, keys);
  }
  std::vector<std::pair<Key, Key>> pairs() const {
    return detail::list_pairs<Key>(nodes, state.root);
  }
  std::vector<detail::Node> nodes;
  detail::TreeState state;
};

/// Runs body(tile, i) for i in [0, n), `tiles` tiles of kLanes threads, each tile a contiguous
/// chunk (as the kernels do).
void run_tiles(std::uint64_t n, unsigned tiles,
               const std::function<void(const Tile&, std::uint64_t, Hint&)>& body) {
  std::vector<std::unique_ptr<TileShared>> shared;
  for (unsigned t = 0; t < tiles; ++t) shared.push_back(std::make_unique<TileShared>(kLanes));
  std::vector<std::thread> threads;
  const std::uint64_t chunk = (n + tiles - 1) / tiles;
  for (unsigned t = 0; t < tiles; ++t)
    for (unsigned lane = 0; lane < kLanes; ++lane)
      threads.emplace_back([&, t, lane] {
        const Tile tile{shared[t].get(), lane};
        Hint hint;
        for (std::uint64_t i = t * chunk; i < std::min(n, (t + 1) * chunk); ++i)
          body(tile, i, hint);
      });
  for (auto& th : threads) th.join();
}

bool same_pair(const std::pair<Key, Key>& a, const std::pair<const Key, Key>& b) {
  return a.first == b.first && a.second == b.second;
}

Key random_key(std::mt19937& rng, Key range) {
  switch (rng() % 32) {
    case 0:
      return 0;
    case 1:
      return kNone - 1;
    case 2:
      return kNone - 1 - rng() % 30;
    default:
      return kBase + rng() % range;
  }
}

void check_queries(HostTree<Key>& t, const Model& m, std::mt19937& rng, Key range) {
  ASSERT_EQ(t.check(m.size()), "");
  const auto p = t.pairs();
  ASSERT_TRUE(std::equal(p.begin(), p.end(), m.begin(), m.end(), same_pair));
  const std::uint64_t nq = 150;
  std::vector<Key> q(nq), lo(nq), hi(nq);
  for (auto& x : q) x = random_key(rng, range);
  q[0] = 0, q[1] = kNone, q[2] = kNone - 1;
  for (std::uint64_t i = 0; i < nq; ++i) {
    lo[i] = random_key(rng, range);
    hi[i] = i % 9 == 0 ? lo[i] - 1 : lo[i] + std::min<Key>(kNone - lo[i], rng() % 300);
  }
  struct Out {
    bool found, succ, pred;
    Key value, sk, sv, pk, pv, count;
    std::vector<Key> rk;
  };
  std::vector<Out> out(nq);
  BTreeRef<Key> ref = t.ref();
  run_tiles(nq, 2, [&](const Tile& tile, std::uint64_t i, Hint&) {
    Out o{};
    o.found = ref.find<Access::kReadOnly>(tile, q[i], &o.value);
    o.succ = ref.successor<Access::kReadOnly>(tile, q[i], &o.sk, &o.sv);
    o.pred = ref.predecessor(tile, q[i], &o.pk, &o.pv);
    std::vector<Key> rk(400, kNone);
    o.count = ref.range<Access::kReadOnly, true>(tile, lo[i], hi[i], [&](Key k, Key, Key idx) {
      if (idx < 400) rk[idx] = k;
    });
    // Each lane wrote its own entries: gather them through the shared slots.
    for (Key j = 0; j < std::min<Key>(o.count, 400); ++j) {
      const Key mine = rk[j];
      const unsigned b = tile.ballot(mine != kNone);
      o.rk.push_back(b ? tile.shfl(mine, __ffs(b) - 1) : kNone);
    }
    if (tile.thread_rank() == 0) out[i] = o;
  });
  for (std::uint64_t i = 0; i < nq; ++i) {
    auto it = m.find(q[i]);
    ASSERT_EQ(out[i].found, it != m.end()) << q[i];
    if (it != m.end()) ASSERT_EQ(out[i].value, it->second);
    auto s = m.upper_bound(q[i]);
    ASSERT_EQ(out[i].succ, s != m.end()) << "succ " << q[i];
    if (s != m.end()) {
      ASSERT_EQ(out[i].sk, s->first);
      ASSERT_EQ(out[i].sv, s->second);
    }
    auto pr = m.lower_bound(q[i]);
    ASSERT_EQ(out[i].pred, pr != m.begin()) << "pred " << q[i];
    if (pr != m.begin()) ASSERT_EQ(out[i].pk, std::prev(pr)->first) << "pred " << q[i];
    std::vector<Key> want;
    if (lo[i] <= hi[i])
      for (auto r = m.lower_bound(lo[i]); r != m.end() && r->first <= hi[i]; ++r)
        want.push_back(r->first);
    ASSERT_EQ(out[i].count, want.size()) << lo[i] << ".." << hi[i];
    want.resize(std::min<std::size_t>(want.size(), 400));
    ASSERT_EQ(out[i].rk, want) << lo[i] << ".." << hi[i];
  }
}

TEST(BTreeEmulation, BatchesMatchStdMap) {
  for (bool sorted : {true, false}) {
    HostTree<Key> t(1 << 14);
    Model m;
    std::mt19937 rng(sorted ? 1 : 2);
    const Key range = 3000;
    BTreeRef<Key> ref = t.ref();
    for (int batch = 0; batch < 6; ++batch) {
      SCOPED_TRACE("batch " + std::to_string(batch) + (sorted ? " sorted" : " unsorted"));
      std::vector<Key> k(100 + rng() % 100), v(k.size());  // each lane is a thread: keep CI fast
      // Unsorted batches: a duplicated key carries one value (which copy lands is unspecified).
      for (std::size_t i = 0; i < k.size(); ++i)
        k[i] = random_key(rng, range), v[i] = sorted ? rng() : k[i] * 3 + batch;
      if (sorted) std::sort(k.begin(), k.end());
      if (batch % 3 == 2) {
        std::uint64_t want = 0;
        std::set<Key> distinct(k.begin(), k.end());
        for (Key x : distinct) want += m.erase(x);
        std::atomic<std::uint64_t> got{0};
        run_tiles(k.size(), 3, [&](const Tile& tile, std::uint64_t i, Hint& h) {
          if (i + 1 < k.size() && k[i + 1] == k[i]) return;
          const bool e = ref.erase(tile, k[i], sorted ? &h : nullptr);
          if (tile.thread_rank() == 0 && e) ++got;
        });
        ASSERT_EQ(got.load(), want);
      } else {
        std::uint64_t want = 0;
        for (std::size_t i = 0; i < k.size(); ++i) {
          if (i + 1 < k.size() && k[i + 1] == k[i]) continue;
          want += m.count(k[i]) == 0;
          m[k[i]] = v[i];
        }
        std::atomic<std::uint64_t> got{0};
        run_tiles(k.size(), 3, [&](const Tile& tile, std::uint64_t i, Hint& h) {
          if (i + 1 < k.size() && k[i + 1] == k[i]) return;
          const InsertStatus s = ref.insert(tile, k[i], v[i], sorted ? &h : nullptr);
          if (tile.thread_rank() == 0) {
            EXPECT_NE(s, InsertStatus::kOutOfNodes);
            got += s == InsertStatus::kInserted;
          }
        });
        ASSERT_EQ(got.load(), want);
      }
      check_queries(t, m, rng, range);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(BTreeEmulation, ConcurrentMixedUntouchedExact) {
  HostTree<Key> t(1 << 14);
  Model m;
  std::mt19937 rng(7);
  const Key range = 2000;
  BTreeRef<Key> ref = t.ref();
  for (int batch = 0; batch < 4; ++batch) {
    SCOPED_TRACE("batch " + std::to_string(batch));
    const std::uint64_t n = 800;
    std::vector<Key> kind(n), key(n), arg(n);
    std::set<Key> ins, era;
    const Key hot = rng() % (range - 300);
    for (std::uint64_t i = 0; i < n; ++i) {
      const Key r = rng() % 10;
      Key k = kBase + (batch % 2 ? hot + rng() % 300 : rng() % range);
      kind[i] = r < 4 ? 0 : r < 5 ? 1 : 2 + rng() % 3;
      if (kind[i] == 0 && era.count(k)) kind[i] = 2;
      if (kind[i] == 1 && ins.count(k)) kind[i] = 2;
      if (kind[i] >= 2) k = kBase + rng() % range;
      key[i] = k;
      arg[i] = kind[i] == 3 ? k + rng() % 100 : static_cast<Key>(rng());
      if (kind[i] == 0) ins.insert(k);
      if (kind[i] == 1) era.insert(k);
    }
    std::set<Key> touched(ins);
    touched.insert(era.begin(), era.end());
    auto untouched = [&](Key lo, Key hi) {
      auto it = touched.lower_bound(lo);
      return it == touched.end() || *it > hi;
    };
    std::vector<Key> st(n), rk(n), rv(n);
    run_tiles(n, 4, [&](const Tile& tile, std::uint64_t i, Hint&) {
      Key s = 0, k2 = kNone, v2 = 0;
      switch (kind[i]) {
        case 0:
          s = static_cast<Key>(ref.insert(tile, key[i], arg[i]));
          break;
        case 1:
          s = ref.erase(tile, key[i]);
          break;
        case 2:
          s = ref.find<Access::kConcurrent>(tile, key[i], &v2);
          break;
        case 3:
          s = ref.range<Access::kConcurrent, false>(tile, key[i], arg[i], [](Key, Key, Key) {});
          break;
        case 4:
          s = ref.successor<Access::kConcurrent>(tile, key[i], &k2, &v2);
          break;
      }
      if (tile.thread_rank() == 0) st[i] = s, rk[i] = k2, rv[i] = v2;
    });
    std::map<Key, int> news, gone;
    for (std::uint64_t i = 0; i < n; ++i) {
      const Key k = key[i];
      if (kind[i] == 0) news[k] += st[i] == 1;
      if (kind[i] == 1) gone[k] += st[i];
      if (kind[i] == 2 && !touched.count(k)) {
        ASSERT_EQ(st[i] != 0, m.count(k) != 0) << "find " << k;
        if (st[i]) ASSERT_EQ(rv[i], m.at(k));
      }
      if (kind[i] == 3 && untouched(k, arg[i])) {
        Key c = 0;
        for (auto it = m.lower_bound(k); it != m.end() && it->first <= arg[i]; ++it) ++c;
        ASSERT_EQ(st[i], c) << "range " << k;
      }
      if (kind[i] == 4) {
        auto it = m.upper_bound(k);
        if (untouched(k + 1, it == m.end() ? kNone : it->first)) {
          ASSERT_EQ(st[i] != 0, it != m.end()) << "succ " << k;
          if (it != m.end()) ASSERT_EQ(rk[i], it->first);
        }
      }
    }
    for (Key k : ins) ASSERT_EQ(news[k], m.count(k) ? 0 : 1) << k;
    for (Key k : era) ASSERT_EQ(gone[k], m.count(k) ? 1 : 0) << k;
    for (Key k : era) m.erase(k);
    for (std::uint64_t i = 0; i < n; ++i)
      if (kind[i] == 0) m[key[i]] = 0;
    ASSERT_EQ(t.check(m.size()), "");
    for (const auto& [k, v] : t.pairs()) {
      ASSERT_TRUE(m.count(k));
      m[k] = v;  // which of several inserted values stayed is unspecified
    }
    check_queries(t, m, rng, range);
    if (HasFatalFailure()) return;
  }
}

TEST(BTreeEmulation, PoolExhaustionFailsInsertsNotTree) {
  HostTree<Key> t(12);
  BTreeRef<Key> ref = t.ref();
  std::mt19937 rng(3);
  std::vector<Key> k(300);
  for (auto& x : k) x = kBase + rng() % 100000;
  std::vector<Key> st(k.size());
  run_tiles(k.size(), 2, [&](const Tile& tile, std::uint64_t i, Hint&) {
    const auto s = ref.insert(tile, k[i], k[i] + 1);
    if (tile.thread_rank() == 0) st[i] = static_cast<Key>(s);
  });
  EXPECT_EQ(t.state.exhausted, 1u);
  Model m;
  for (std::size_t i = 0; i < k.size(); ++i)
    if (st[i] == 1) m[k[i]] = k[i] + 1;
  EXPECT_GT(std::count(st.begin(), st.end(), 2u), 0);
  ASSERT_EQ(t.check(m.size()), "");
  auto p = t.pairs();
  ASSERT_TRUE(std::equal(p.begin(), p.end(), m.begin(), m.end(), same_pair));
  // With the pool still exhausted, replacing present keys works (full inner nodes on the way
  // are passed through unsplit).
  std::vector<Key> present;
  for (auto& [key, val] : m) present.push_back(key), val += 7;
  run_tiles(present.size(), 2, [&](const Tile& tile, std::uint64_t i, Hint&) {
    const auto s = ref.insert(tile, present[i], present[i] + 8);
    if (tile.thread_rank() == 0) EXPECT_EQ(s, InsertStatus::kReplaced);
  });
  ASSERT_EQ(t.check(m.size()), "");
  p = t.pairs();
  ASSERT_TRUE(std::equal(p.begin(), p.end(), m.begin(), m.end(), same_pair));
}

/// The two states a reader can meet in the middle of a split of leaf L into L + R (ref_updates
/// .cuh, step 2): (a) L's link already points to R but its high key is still the old one, and
/// (b) L's high key is the separator but the moved pairs are not yet erased from L. In both,
/// every pair of L is still in L and the moved ones are in R too: range and successor must
/// still answer each key once.
TEST(BTreeEmulation, SplitInFlightCountsEachKeyOnce) {
  using L = detail::Layout<Key>;
  constexpr unsigned S = L::kSlots, keep = L::kSplitKeep;
  const Key old_high = kBase + S + 5;
  for (int state = 0; state < 2; ++state) {
    SCOPED_TRACE(state == 0 ? "link stored, old high key" : "high key stored, slots not erased");
    HostTree<Key> t(4);
    detail::Node* n = t.nodes.data();
    // L (node 0): keys kBase + 1 .. kBase + S, all present.
    for (unsigned c = 0; c < S; ++c) L::init_slot(n, c, kBase + 1 + c, 100 + c);
    const Key sep = kBase + 1 + keep;
    L::init_meta(n, state == 0 ? old_high : sep, 1u | detail::kLeafFlag);
    // R (node 1): the moved keys, L's old high key and old link (node 2).
    for (unsigned c = 0; c < S; ++c)
      L::init_slot(n + 1, c, c < S - keep ? kBase + 1 + keep + c : kNone,
                   c < S - keep ? 100 + keep + c : 0);
    L::init_meta(n + 1, old_high, 2u | detail::kLeafFlag);
    // Node 2: three keys from the old high key on, the last leaf.
    for (unsigned c = 0; c < S; ++c)
      L::init_slot(n + 2, c, c < 3 ? old_high + c : kNone, c < 3 ? 500 + c : 0);
    L::init_meta(n + 2, kNone, detail::kNoLink | detail::kLeafFlag);
    t.state = detail::TreeState{0, 3, 0, 0};
    Model m;
    for (unsigned c = 0; c < S; ++c) m[kBase + 1 + c] = 100 + c;
    for (unsigned c = 0; c < 3; ++c) m[old_high + c] = 500 + c;
    BTreeRef<Key> ref = t.ref();
    std::vector<Key> q{0};
    for (Key x = kBase + 1; x < old_high + 4; ++x) q.push_back(x);
    for (int access = 0; access < 2; ++access) {
      std::vector<Key> count(q.size()), succ(q.size());
      std::vector<std::vector<Key>> listed(q.size());
      run_tiles(q.size(), 2, [&](const Tile& tile, std::uint64_t i, Hint&) {
        std::vector<Key> mine(64, kNone);
        auto f = [&](Key k, Key, Key idx) {
          if (idx < 64) mine[idx] = k;
        };
        Key c, sk = kNone, sv = 0;
        if (access == 0)
          c = ref.range<Access::kConcurrent, true>(tile, q[i], kNone - 1, f);
        else
          c = ref.range<Access::kReadOnly, true>(tile, q[i], kNone - 1, f);
        const bool found = access == 0 ? ref.successor<Access::kConcurrent>(tile, q[i], &sk, &sv)
                                       : ref.successor<Access::kReadOnly>(tile, q[i], &sk, &sv);
        std::vector<Key> all;
        for (Key j = 0; j < std::min<Key>(c, 64); ++j) {
          const unsigned b = tile.ballot(mine[j] != kNone);
          all.push_back(b ? tile.shfl(mine[j], __ffs(b) - 1) : kNone);
        }
        if (tile.thread_rank() == 0) {
          count[i] = c;
          succ[i] = found ? sk : kNone;
          listed[i] = all;
        }
      });
      for (std::size_t i = 0; i < q.size(); ++i) {
        std::vector<Key> want;
        for (auto it = m.lower_bound(q[i]); it != m.end(); ++it) want.push_back(it->first);
        ASSERT_EQ(count[i], want.size()) << "range from " << q[i] << " access " << access;
        ASSERT_EQ(listed[i], want) << "range from " << q[i];
        const auto s = m.upper_bound(q[i]);
        ASSERT_EQ(succ[i], s == m.end() ? kNone : s->first) << "successor " << q[i];
      }
    }
  }
}

}  // namespace
