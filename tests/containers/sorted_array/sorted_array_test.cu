// GPU tests of wg::SortedArray against std::map: random insert batches (duplicates inside a
// batch, last occurrence wins) and erase batches (present, absent, duplicated keys), every query
// kind after every batch, bulk build, and the capacity error leaving the array unchanged.
// Both key widths. Size: WG_GPU_TEST_SCALE (default 12) scales the sizes by 2^(scale - 12) and
// shrinks the batch count below 12 (test_sizes.hpp; 8 under compute-sanitizer).
#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <random>
#include <vector>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/containers/sorted_array/sorted_array.cuh>

#include "model_check.cuh"
#include "test_sizes.hpp"

namespace {

using namespace wg::test;

template <class Key>
class SortedArrayModel : public ::testing::Test {};
using KeyTypes = ::testing::Types<u32, u64>;
TYPED_TEST_SUITE(SortedArrayModel, KeyTypes);

template <class Key>
void expect_contents(const wg::SortedArray<Key>& sa, const std::map<Key, u32>& model,
                     cudaStream_t s) {
  auto [keys, values] = sa.to_host(s);
  ASSERT_EQ(keys.size(), model.size());
  std::size_t i = 0;
  for (const auto& [k, v] : model) {
    ASSERT_EQ(keys[i], k) << "position " << i;
    ASSERT_EQ(values[i], v) << "key " << k;
    ++i;
  }
}

TYPED_TEST(SortedArrayModel, RandomBatchesMatchStdMap) {
  using Key = TypeParam;
  const Key max_key = std::numeric_limits<Key>::max();
  wg::CudaStream stream;
  std::mt19937_64 rng(sizeof(Key) * 17);
  const std::size_t n = test_size(2000, 128);
  const auto pool = key_pool<Key>(n, max_key, rng);
  wg::SortedArray<Key> sa({.capacity = 2 * n}, stream);
  std::map<Key, u32> model;
  std::uniform_int_distribution<std::size_t> pick(0, pool.size() - 1);
  u32 next_value = 1;
  const int batches = test_rounds(24, 9);  // every third an erase batch
  for (int batch = 0; batch < batches; ++batch) {
    const std::size_t m = 1 + rng() % (n / 3);
    std::vector<Key> keys(m);
    for (auto& k : keys) k = pool[pick(rng)];
    if (batch % 3 == 2) {
      std::size_t present = 0;
      std::map<Key, u32> after = model;
      for (Key k : keys) present += after.erase(k);
      ASSERT_EQ(sa.erase(upload(keys, stream).data(), m, stream), present) << "batch " << batch;
      model = std::move(after);
    } else {
      std::vector<u32> values(m);
      for (std::size_t i = 0; i < m; ++i) {
        values[i] = next_value++;
        model[keys[i]] = values[i];  // in order: the last occurrence wins
      }
      const std::size_t before = sa.size();
      const auto added =
          sa.insert(upload(keys, stream).data(), upload(values, stream).data(), m, stream);
      ASSERT_EQ(added, model.size() - before) << "batch " << batch;
    }
    ASSERT_EQ(sa.size(), model.size());
    expect_contents(sa, model, stream);
    check_queries(sa, model, pool, max_key, rng, stream, "after a batch");
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TYPED_TEST(SortedArrayModel, BuildKeepsLastOccurrence) {
  using Key = TypeParam;
  wg::CudaStream stream;
  std::mt19937_64 rng(5);
  const auto pool = key_pool<Key>(test_size(3000, 192), std::numeric_limits<Key>::max(), rng);
  std::map<Key, u32> model;
  const std::size_t n = test_size(5000, 320);
  const auto [keys, values] = build_pairs(pool, n, 0, rng, model);
  wg::SortedArray<Key> sa({.capacity = n}, stream);
  ASSERT_EQ(
      sa.build(upload(keys, stream).data(), upload(values, stream).data(), keys.size(), stream),
      model.size());
  expect_contents(sa, model, stream);
  check_queries(sa, model, pool, std::numeric_limits<Key>::max(), rng, stream, "after build");
}

TYPED_TEST(SortedArrayModel, CapacityErrorLeavesArrayUnchanged) {
  using Key = TypeParam;
  wg::CudaStream stream;
  wg::SortedArray<Key> sa({.capacity = 100}, stream);
  std::vector<Key> keys;
  std::vector<u32> values;
  for (Key k = 0; k < 80; ++k) {
    keys.push_back(k * 3);
    values.push_back(static_cast<u32>(k));
  }
  ASSERT_EQ(sa.insert(upload(keys, stream).data(), upload(values, stream).data(), 80, stream), 80u);
  std::map<Key, u32> model;
  for (std::size_t i = 0; i < 80; ++i) model[keys[i]] = values[i];
  std::vector<Key> more;
  std::vector<u32> more_values;
  for (Key k = 0; k < 30; ++k) {
    more.push_back(k * 3 + 1);  // 30 new keys: 110 > 100
    more_values.push_back(1000);
  }
  EXPECT_THROW(
      sa.insert(upload(more, stream).data(), upload(more_values, stream).data(), 30, stream),
      wg::CapacityError);
  EXPECT_EQ(sa.size(), 80u);
  expect_contents(sa, model, stream);
  // Replacing present keys needs no room.
  std::vector<Key> same(keys.begin(), keys.begin() + 30);
  ASSERT_EQ(sa.insert(upload(same, stream).data(), upload(more_values, stream).data(), 30, stream),
            0u);
  for (Key k : same) model[k] = 1000;
  expect_contents(sa, model, stream);
  // Exactly full is allowed.
  std::vector<Key> fill(more.begin(), more.begin() + 20);
  ASSERT_EQ(sa.insert(upload(fill, stream).data(), upload(more_values, stream).data(), 20, stream),
            20u);
  EXPECT_EQ(sa.size(), 100u);
}

}  // namespace
