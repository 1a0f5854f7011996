// Multi-threaded stress tests of the optimistic lock coupling: writers and readers on disjoint and
// overlapping keys, checked against what the threads did (per-key success counts), and readers
// checking that they never see a key that was never inserted, never a torn value, and always the
// keys nobody touches. Also run under ThreadSanitizer (see the report / CI notes).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <warpgraph/containers/bstree/bstree.hpp>

#include "bstree_variants.hpp"

// Inside the tree's namespace: the tree types and the shared test parameters need no
// using-declarations.
namespace wg::bstree::test {
namespace {

#if defined(__SANITIZE_THREAD__)
constexpr bool kTsan = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
constexpr bool kTsan = true;
#else
constexpr bool kTsan = false;
#endif
#else
constexpr bool kTsan = false;
#endif

// Under TSan the work is scaled down (it is ~10x slower) and only the scalar path runs: the SIMD
// kernels' vector loads of shared nodes are validated by the version check but are plain loads
// TSan would (rightly, by the letter of the memory model) report.
constexpr int kScale = kTsan ? 4 : 1;
constexpr int kThreads = 4;

class BSTreeConcurrency : public VariantTest {};

template <class F>
void run_threads(int n, F&& f) {
  std::vector<std::thread> ts;
  for (int i = 0; i < n; ++i) ts.emplace_back([&, i] { f(i); });
  for (auto& t : ts) t.join();
}

// Keys of the form (u << 32 | v) as the CPU graph uses them.
std::uint64_t edge_key(std::uint64_t u, std::uint64_t v) {
  return (u << 32) | v;
}

/// Writer `id`'s keys for DisjointWritersMatchModel: `per` random edge keys of its own residue
/// class, unique, in random order (the same for the same id).
std::vector<std::uint64_t> writer_keys(int id, int per) {
  std::mt19937_64 rng(id);
  std::vector<std::uint64_t> mine;
  for (int i = 0; i < per; ++i)
    mine.push_back(edge_key(rng() % 64, rng() % 100000) * kThreads + id);
  std::sort(mine.begin(), mine.end());
  mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
  std::shuffle(mine.begin(), mine.end(), rng);
  return mine;
}

TEST_P(BSTreeConcurrency, DisjointWritersMatchModel) {
  with_tree<void>(GetParam(), options(), [&](auto& t) {
    const int per = 30000 / kScale;
    run_threads(kThreads, [&](int id) {
      const std::vector<std::uint64_t> mine = writer_keys(id, per);
      for (std::uint64_t k : mine) ASSERT_TRUE(t.insert(k));
      for (std::size_t i = 0; i < mine.size(); i += 2) ASSERT_TRUE(t.erase(mine[i]));
      for (std::size_t i = 0; i < mine.size(); ++i) ASSERT_EQ(t.contains(mine[i]), i % 2 == 1);
    });
    // Rebuild the model from the same seeds.
    std::set<std::uint64_t> model;
    for (int id = 0; id < kThreads; ++id) {
      const std::vector<std::uint64_t> mine = writer_keys(id, per);
      for (std::size_t i = 1; i < mine.size(); i += 2) model.insert(mine[i]);
    }
    std::vector<std::uint64_t> got;
    t.range(0, kMaxKey, [&](std::uint64_t k) { got.push_back(k); });
    ASSERT_EQ(got, std::vector<std::uint64_t>(model.begin(), model.end()));
    ASSERT_EQ(t.size(), model.size());
    ASSERT_NO_THROW(t.check_invariants());
  });
}

TEST_P(BSTreeConcurrency, OverlappingWritersAgreeWithTheirOwnResults) {
  // Every thread inserts and erases the same small key space; a key is present at the end iff
  // (successful inserts - successful erases) == 1, and that difference is always 0 or 1.
  with_tree<void>(GetParam(), options(), [&](auto& t) {
    const std::uint64_t space = 4000;
    std::vector<std::atomic<int>> balance(space);
    const int ops = 60000 / kScale;
    run_threads(kThreads, [&](int id) {
      std::mt19937_64 rng(100 + id);
      for (int i = 0; i < ops; ++i) {
        const std::uint64_t j = rng() % space;
        const std::uint64_t k = edge_key(j % 7, j * 13);
        if (rng() % 2) {
          if (t.insert(k)) balance[j].fetch_add(1);
        } else {
          if (t.erase(k)) balance[j].fetch_sub(1);
        }
      }
    });
    std::size_t present = 0;
    for (std::uint64_t j = 0; j < space; ++j) {
      const int b = balance[j].load();
      ASSERT_TRUE(b == 0 || b == 1) << j << " balance " << b;
      ASSERT_EQ(t.contains(edge_key(j % 7, j * 13)), b == 1) << j;
      present += b;
    }
    ASSERT_EQ(t.size(), present);
    ASSERT_NO_THROW(t.check_invariants());
  });
}

TEST_P(BSTreeConcurrency, ReadersSeeOnlyInsertedKeysAndAlwaysTheStableOnes) {
  // Stable keys (multiples of 4) are bulk-loaded and never touched; writers insert and erase keys
  // that are 1 mod 4; nobody ever inserts keys 2 or 3 mod 4. Readers check find, lower_bound and
  // range against that.
  with_tree<std::uint64_t>(GetParam(), options(), [&](auto& t) {
    const std::uint64_t n = 40000 / kScale;
    std::vector<std::uint64_t> stable, values;
    for (std::uint64_t i = 0; i < n; ++i)
      stable.push_back(i * 4 * 1009), values.push_back(i * 4 * 1009 * 3 + 1);
    t.bulk_load(stable.data(), values.data(), stable.size());
    const std::uint64_t top = stable.back();
    std::atomic<bool> stop{false};
    std::atomic<int> writers_left{2};
    std::atomic<long> violations{0}, reads{0};
    auto value_of = [](std::uint64_t k) { return k * 3 + 1; };
    run_threads(kThreads, [&](int id) {
      std::mt19937_64 rng(200 + id);
      if (id < 2) {  // writers
        for (int i = 0; i < 80000 / kScale; ++i) {
          const std::uint64_t k = (rng() % top) / 4 * 4 + 1;
          if (rng() % 3)
            t.insert_or_assign(k, value_of(k));
          else
            t.erase(k);
        }
        writers_left.fetch_sub(1);
        return;
      }
      while (writers_left.load() > 0 || reads.load() < 2000) {
        const std::uint64_t k = rng() % top;
        reads.fetch_add(1);
        const auto v = t.find(k);
        if (k % 4 >= 2 && v) violations.fetch_add(1);
        if (v && *v != value_of(k)) violations.fetch_add(1);     // torn or misplaced value
        if (k % (4 * 1009) == 0 && !v) violations.fetch_add(1);  // stable key missing
        const auto lb = t.lower_bound(k);
        // The next stable key at or after k must bound the answer.
        const std::uint64_t next_stable = (k + 4 * 1009 - 1) / (4 * 1009) * (4 * 1009);
        if (!lb || *lb > next_stable || *lb < k || *lb % 4 >= 2) violations.fetch_add(1);
        if (rng() % 8 == 0) {
          const std::uint64_t hi = k + 200000;
          std::uint64_t prev = 0, stable_seen = 0;
          bool first = true;
          t.range(k, hi, [&](std::uint64_t key, std::uint64_t val) {
            if ((!first && key <= prev) || key < k || key >= hi || key % 4 >= 2 ||
                val != value_of(key))
              violations.fetch_add(1);
            if (key % (4 * 1009) == 0) ++stable_seen;
            prev = key;
            first = false;
          });
          // Every stable key in [k, hi) exactly once.
          std::uint64_t expect = 0;
          for (std::uint64_t s = next_stable; s < hi && s <= top; s += 4 * 1009) ++expect;
          if (stable_seen != expect) violations.fetch_add(1);
        }
      }
    });
    EXPECT_EQ(violations.load(), 0) << "after " << reads.load() << " reads";
    for (std::uint64_t k : stable) ASSERT_EQ(t.find(k), std::optional<std::uint64_t>(value_of(k)));
    ASSERT_NO_THROW(t.check_invariants());
  });
}

TEST_P(BSTreeConcurrency, GrowingFromEmptySplitsTheRootConcurrently) {
  // All threads insert ascending interleaved keys into an empty tree: every split (root leaf,
  // root inner, eager inner splits) happens under contention.
  with_tree<void>(GetParam(), options(), [&](auto& t) {
    const std::uint64_t per = 40000 / kScale;
    run_threads(kThreads, [&](int id) {
      for (std::uint64_t i = 0; i < per; ++i) ASSERT_TRUE(t.insert(i * kThreads + id));
    });
    ASSERT_EQ(t.size(), per * kThreads);
    std::uint64_t expect = 0;
    bool ok = true;
    t.range(0, kMaxKey, [&](std::uint64_t k) { ok = ok && k == expect++; });
    ASSERT_TRUE(ok);
    ASSERT_EQ(expect, per * kThreads);
    ASSERT_NO_THROW(t.check_invariants());
  });
}

std::vector<Param> params() {
  std::vector<Param> out;
  for (bool c : {false, true}) {
    if (kTsan) {
      out.push_back({c, SimdPath::scalar});
    } else {
      for (SimdPath s : {SimdPath::avx512, SimdPath::avx2, SimdPath::scalar}) out.push_back({c, s});
    }
  }
  return out;
}
INSTANTIATE_TEST_SUITE_P(AllPaths, BSTreeConcurrency, testing::ValuesIn(params()), param_name);

}  // namespace
}  // namespace wg::bstree::test
