#pragma once
// Shared by the LSM tests on the host (lsm_plan_test.cpp) and on the GPU (lsm_test.cu): a random
// mixed batch of insertions and erasures applied to a std::map model, and the model's count of a
// key range.
#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

namespace wg::test {

/// A batch of keys with their values and operations (1: insert, 0: erase), in input order.
template <class Key>
struct MixedBatch {
  std::vector<Key> keys;
  std::vector<std::uint32_t> values;
  std::vector<std::uint8_t> ops;
};

/// n random keys from `pool`, each with a new value (next, next + 1, ...) and inserted with
/// probability 2/3, else erased; with `repeats`, now and then one of the four keys before it
/// again, so that one key is inserted and erased within the batch. Applied in order to `model`
/// (the last operation on a key wins).
template <class Key>
MixedBatch<Key> mixed_batch_of(std::mt19937_64& rng, const std::vector<Key>& pool, std::size_t n,
                               bool repeats, std::uint32_t& next,
                               std::map<Key, std::uint32_t>& model) {
  MixedBatch<Key> b{std::vector<Key>(n), std::vector<std::uint32_t>(n),
                    std::vector<std::uint8_t>(n)};
  for (std::size_t i = 0; i < n; ++i) {
    b.keys[i] = (repeats && i > 0 && rng() % 5 == 0)
                    ? b.keys[i - 1 - rng() % std::min<std::size_t>(i, 4)]
                    : pool[rng() % pool.size()];
    b.values[i] = next++;
    b.ops[i] = rng() % 3 != 0;
    if (b.ops[i])
      model[b.keys[i]] = b.values[i];
    else
      model.erase(b.keys[i]);
  }
  return b;
}

/// The model's keys in [a, c] (none when a > c).
template <class Key>
std::uint64_t model_count(const std::map<Key, std::uint32_t>& model, Key a, Key c) {
  std::uint64_t n = 0;
  if (a <= c)
    for (auto it = model.lower_bound(a); it != model.end() && it->first <= c; ++it) ++n;
  return n;
}

}  // namespace wg::test
