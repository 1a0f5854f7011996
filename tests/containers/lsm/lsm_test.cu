// GPU tests of wg::Lsm against std::map: mixed insert/erase batches of every size (below, at and
// above b; the same key inserted and erased within and across batches), every query kind after
// every batch (find present/absent, count, range, successor, the ends of the key domain),
// cleanup keeping every answer, bulk build, single-element batches, the capacity error and the
// key-domain error leaving the LSM unchanged, range's answer slot at every size. Both key
// widths.
// Size: WG_GPU_TEST_SCALE (default 12) scales the batch sizes by 2^(scale - 12) and shrinks the
// batch counts below 12 (test_sizes.hpp; 8 under compute-sanitizer); WG_GPU_TEST_BATCHES sets the
// mixed test's batch count (default 40, 14 at scale 9 or below).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/containers/lsm/lsm.cuh>

#include "../sorted_array/model_check.cuh"
#include "../sorted_array/test_sizes.hpp"
#include "mixed_batch.hpp"

namespace {

using namespace wg::test;

/// WG_GPU_TEST_BATCHES: batches of the mixed model test (default 40 at the default scale, 14 at
/// the sanitizer's scales: two cleanups either way).
int batches() {
  const char* s = std::getenv("WG_GPU_TEST_BATCHES");
  return s ? std::max(1, std::atoi(s)) : test_rounds(40, 14);
}

template <class Key>
class LsmModel : public ::testing::Test {};
using KeyTypes = ::testing::Types<u32, u64>;
TYPED_TEST_SUITE(LsmModel, KeyTypes);

template <class Key>
void expect_level_invariants(const wg::Lsm<Key>& lsm) {
  const auto sizes = lsm.level_sizes();
  for (std::size_t i = 0; i < sizes.size(); ++i)
    ASSERT_LE(sizes[i], lsm.options().batch_size << i) << "level " << i;
}

/// One mixed batch: random keys from the pool, ops 2/3 inserts; applied to the model in order.
template <class Key>
void mixed_batch(wg::Lsm<Key>& lsm, std::map<Key, u32>& model, const std::vector<Key>& pool,
                 std::size_t n, std::mt19937_64& rng, u32& next, cudaStream_t s) {
  // Recent keys repeated now and then: the same key inserted and erased in one batch.
  const MixedBatch<Key> b = mixed_batch_of(rng, pool, n, true, next, model);
  ASSERT_EQ(lsm.update(upload(b.keys, s).data(), upload(b.values, s).data(),
                       upload(b.ops, s).data(), n, s),
            n);
}

/// The state of a model test: a stream, the random source, an LSM of Key, a pool of its keys
/// (key_pool) and the std::map model, with the next value to insert.
template <class Key>
struct LsmCase {
  using L = wg::Lsm<Key>;
  LsmCase(std::uint64_t seed, const wg::LsmOptions& options, std::size_t pool_size)
      : rng(seed), lsm(options, stream), pool(key_pool<Key>(pool_size, L::max_key, rng)) {}
  /// Every query kind on the LSM against the model (check_queries).
  void check(const char* where) { check_queries(lsm, model, pool, L::max_key, rng, stream, where); }
  wg::CudaStream stream;
  std::mt19937_64 rng;
  L lsm;
  std::vector<Key> pool;
  std::map<Key, u32> model;
  u32 next = 1;
};

TYPED_TEST(LsmModel, MixedBatchesMatchStdMap) {
  const std::uint64_t b = test_size(256, 16);
  LsmCase<TypeParam> c(sizeof(TypeParam) * 31, {.batch_size = b, .num_levels = 10}, 6 * b);
  auto& [stream, rng, lsm, pool, model, next] = c;
  for (int batch = 0; batch < batches(); ++batch) {
    std::size_t n;
    switch (batch % 4) {
      case 0:
        n = b;
        break;  // the paper's batch
      case 1:
        n = 1 + rng() % (b / 2);
        break;  // partial
      case 2:
        n = b + 1 + rng() % (2 * b);
        break;  // bigger than level 0
      default:
        n = 1 + rng() % b;
        break;
    }
    mixed_batch(lsm, model, pool, n, rng, next, stream);
    if (::testing::Test::HasFatalFailure()) return;
    expect_level_invariants(lsm);
    c.check("after a batch");
    if (::testing::Test::HasFatalFailure()) return;
    if (batch % 7 == 6) {
      const std::uint64_t live = lsm.cleanup(stream);
      ASSERT_EQ(live, model.size());
      ASSERT_EQ(lsm.resident(), model.size());
      expect_level_invariants(lsm);
      c.check("after cleanup");
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TYPED_TEST(LsmModel, SingleElementBatchesAndEraseOnly) {
  using Key = TypeParam;
  LsmCase<Key> c(9, {.batch_size = 16, .num_levels = 8}, 64);
  auto& [stream, rng, lsm, pool, model, next] = c;
  const int steps = test_rounds(150, 48);
  for (int i = 0; i < steps; ++i) {
    const Key k = pool[rng() % pool.size()];
    if (i % 4 == 3) {
      ASSERT_EQ(lsm.erase(upload(std::vector<Key>{k}, stream).data(), 1, stream), 1u);
      model.erase(k);
    } else {
      const u32 v = next++;
      lsm.insert(upload(std::vector<Key>{k}, stream).data(),
                 upload(std::vector<u32>{v}, stream).data(), 1, stream);
      model[k] = v;
    }
    expect_level_invariants(lsm);
    if (i % 10 == 9) {
      c.check("single-element batches");
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  EXPECT_EQ(lsm.resident(), std::uint64_t(steps));  // nothing dropped before a cleanup
  EXPECT_EQ(lsm.cleanup(stream), model.size());
  c.check("after cleanup");
}

TYPED_TEST(LsmModel, BuildThenUpdates) {
  // b scales with the data: the built level (one, of b * 2^i >= distinct keys) keeps room for
  // the batches after it at every scale.
  LsmCase<TypeParam> c(13, {.batch_size = test_size(128, 16), .num_levels = 8},
                       test_size(2000, 200));
  auto& [stream, rng, lsm, pool, model, next] = c;
  const auto [keys, values] = build_pairs(pool, test_size(3000, 300), 1, rng, model);
  ASSERT_EQ(
      lsm.build(upload(keys, stream).data(), upload(values, stream).data(), keys.size(), stream),
      model.size());
  EXPECT_EQ(lsm.num_nonempty_levels(), 1u);
  c.check("after build");
  next = 10000;
  const int rounds = test_rounds(6, 3);
  for (int batch = 0; batch < rounds; ++batch) {
    mixed_batch(lsm, model, pool, test_size(100, 16) + rng() % test_size(300, 48), rng, next,
                stream);
    c.check("after build + batches");
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TYPED_TEST(LsmModel, CapacityAndKeyDomainErrorsLeaveLsmUnchanged) {
  using Key = TypeParam;
  using L = wg::Lsm<Key>;
  wg::CudaStream stream;
  std::mt19937_64 rng(21);
  L lsm({.batch_size = 16, .num_levels = 2}, stream);  // levels of 16 and 32
  ASSERT_EQ(lsm.capacity(), 48u);
  std::vector<Key> keys;
  std::vector<u32> values;
  std::map<Key, u32> model;
  for (Key k = 0; k < 30; ++k) {
    keys.push_back(k % 20);  // 20 distinct keys, 10 of them twice: 10 stale
    values.push_back(static_cast<u32>(k));
    model[k % 20] = static_cast<u32>(k);
  }
  lsm.insert(upload(keys, stream).data(), upload(values, stream).data(), 30, stream);  // level 1
  std::vector<Key> more(keys.begin(), keys.begin() + 10);
  lsm.insert(upload(more, stream).data(), upload(values, stream).data(), 10, stream);  // level 0
  for (std::size_t i = 0; i < 10; ++i) model[more[i]] = values[i];
  const std::vector<Key> pool(keys.begin(), keys.begin() + 20);
  // 10 more: level 0 (10 + 10 > 16) and level 1 (20 + 30 > 32) cannot take it.
  EXPECT_THROW(lsm.insert(upload(more, stream).data(), upload(values, stream).data(), 10, stream),
               wg::CapacityError);
  EXPECT_EQ(lsm.resident(), 40u);
  check_queries(lsm, model, pool, L::max_key, rng, stream, "after the capacity error");
  // A key above max_key (the status bit's) is rejected before anything changes.
  std::vector<Key> bad = {Key(3), Key(L::max_key + 1)};
  EXPECT_THROW(lsm.insert(upload(bad, stream).data(), upload(values, stream).data(), 2, stream),
               wg::InvalidArgument);
  EXPECT_EQ(lsm.resident(), 40u);
  check_queries(lsm, model, pool, L::max_key, rng, stream, "after the key-domain error");
  // Cleanup frees the stale elements, and the batch fits again.
  EXPECT_EQ(lsm.cleanup(stream), 20u);
  lsm.insert(upload(more, stream).data(), upload(values, stream).data(), 10, stream);
  for (std::size_t i = 0; i < 10; ++i) model[more[i]] = values[i];
  check_queries(lsm, model, pool, L::max_key, rng, stream, "after cleanup and a batch");
}

/// range buffers up to options.range_slot answers per query and walks again the queries with
/// more: every slot size (0 = always walk twice, 1, 4, the default, and one cut down by
/// range_slot_max_bytes) must give the std::map's answers, in particular for queries with exactly
/// slot and slot + 1 answers, across several levels, stale elements and tombstones.
TYPED_TEST(LsmModel, RangeSlotSizesGiveTheSameAnswers) {
  using Key = TypeParam;
  using L = wg::Lsm<Key>;
  wg::CudaStream stream;
  const std::vector<wg::LsmOptions> configs = {
      {.batch_size = 32, .num_levels = 6, .range_slot = 0},
      {.batch_size = 32, .num_levels = 6, .range_slot = 1},
      {.batch_size = 32, .num_levels = 6, .range_slot = 4},
      {.batch_size = 32, .num_levels = 6},
      {.batch_size = 32, .num_levels = 6, .range_slot = 16, .range_slot_max_bytes = 90000},
  };
  for (const wg::LsmOptions& opt : configs) {
    SCOPED_TRACE("range_slot " + std::to_string(opt.range_slot) + " max bytes " +
                 std::to_string(opt.range_slot_max_bytes));
    std::mt19937_64 rng(77 + opt.range_slot);
    L lsm(opt, stream);
    std::map<Key, u32> model;
    // Dense keys 0 .. 299 (and the top of the domain) so short ranges hold many answers;
    // batches of several sizes leave several levels with stale elements and tombstones.
    std::vector<Key> pool;
    for (Key k = 0; k < 300; ++k) pool.push_back(k);
    pool.push_back(L::max_key);
    pool.push_back(Key(L::max_key - 1));
    u32 next = 1;
    const int rounds = std::min(8, std::max(3, batches() / 5));  // fewer under a sanitizer
    for (int batch = 0; batch < rounds; ++batch) {
      mixed_batch(lsm, model, pool, 20 + rng() % 60, rng, next, stream);
      if (::testing::Test::HasFatalFailure()) return;
      // Every [k, k + w] for w < 12: answer counts cross each slot size.
      std::vector<Key> k1, k2;
      for (Key k = 0; k < 300; k += 1 + Key(batch % 3))
        for (Key w = 0; w < 12; ++w) {
          k1.push_back(k);
          k2.push_back(k + w);
        }
      k1.push_back(Key(L::max_key - 3));
      k2.push_back(L::max_key);
      k1.push_back(0);
      k2.push_back(L::max_key);
      const std::size_t m = k1.size();
      SCOPED_TRACE("batch " + std::to_string(batch));
      expect_range(lsm.range(upload(k1, stream).data(), upload(k2, stream).data(), m, stream), k1,
                   k2, model, stream);
      if (::testing::Test::HasFatalFailure()) return;
      if (batch == rounds - 1) {
        check_queries(lsm, model, pool, L::max_key, rng, stream, "range slots");
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

}  // namespace
