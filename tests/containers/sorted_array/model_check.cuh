#pragma once
// Shared by the sorted-array and LSM GPU tests: host-vector wrappers of the containers' device
// queries, and a check of every query kind (find, count, range, successor) against a std::map.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include <warpgraph/containers/core/cuda_stream.hpp>
#include <warpgraph/containers/core/device_buffer.cuh>

namespace wg::test {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

template <class T>
DeviceBuffer<T> upload(const std::vector<T>& v, cudaStream_t s) {
  DeviceBuffer<T> d(std::max<std::size_t>(v.size(), 1), s);
  d.copy_from_host(v.data(), v.size(), 0, s);
  return d;
}

/// Random keys for a test: `n` distinct keys spread over [0, max_key], always with 0, 1,
/// max_key - 1 and max_key (the ends of the domain).
template <class Key>
std::vector<Key> key_pool(std::size_t n, Key max_key, std::mt19937_64& rng) {
  std::vector<Key> pool = {Key(0), Key(1), Key(max_key - 1), max_key};
  std::uniform_int_distribution<Key> any(0, max_key);
  std::uniform_int_distribution<Key> small(0, Key(4 * n));
  while (pool.size() < n) pool.push_back(pool.size() % 2 ? any(rng) : small(rng));
  std::sort(pool.begin(), pool.end());
  pool.erase(std::unique(pool.begin(), pool.end()), pool.end());
  std::shuffle(pool.begin(), pool.end(), rng);
  return pool;
}

/// `n` pairs for a build: keys from the first half of `pool` (so duplicates, and absent keys in
/// the other half), values first_value, first_value + 1, ...; `model` gets each key's last value.
template <class Key>
std::pair<std::vector<Key>, std::vector<u32>> build_pairs(const std::vector<Key>& pool,
                                                          std::size_t n, u32 first_value,
                                                          std::mt19937_64& rng,
                                                          std::map<Key, u32>& model) {
  std::pair<std::vector<Key>, std::vector<u32>> kv;
  for (std::size_t i = 0; i < n; ++i) {
    kv.first.push_back(pool[rng() % (pool.size() / 2)]);
    kv.second.push_back(static_cast<u32>(first_value + i));
    model[kv.first.back()] = kv.second.back();
  }
  return kv;
}

/// The model's pairs with keys in [a, b] (none when a > b), in key order.
template <class Key>
std::vector<std::pair<Key, u32>> model_range(const std::map<Key, u32>& model, Key a, Key b) {
  std::vector<std::pair<Key, u32>> out;
  if (a <= b)
    for (auto it = model.lower_bound(a); it != model.end() && it->first <= b; ++it)
      out.push_back(*it);
  return out;
}

/// The answer of range(k1, k2) (any container's RangeResult) holds, per query, exactly the
/// model's pairs in [k1[i], k2[i]].
template <class Range, class Key>
void expect_range(const Range& r, const std::vector<Key>& k1, const std::vector<Key>& k2,
                  const std::map<Key, u32>& model, cudaStream_t s) {
  const std::size_t m = k1.size();
  const auto off = r.offsets.to_host(s);
  const auto rk = r.keys.to_host(s);
  const auto rv = r.values.to_host(s);
  ASSERT_EQ(off.size(), m + 1);
  ASSERT_EQ(off[m], r.total);
  for (std::size_t i = 0; i < m; ++i) {
    const auto expect = model_range(model, k1[i], k2[i]);
    ASSERT_EQ(off[i + 1] - off[i], expect.size()) << "range [" << k1[i] << ", " << k2[i] << "]";
    for (std::size_t j = 0; j < expect.size(); ++j) {
      ASSERT_EQ(rk[off[i] + j], expect[j].first) << "range key " << j;
      ASSERT_EQ(rv[off[i] + j], expect[j].second) << "range value " << j;
    }
  }
}

/// Every query kind on `c` (SortedArray or Lsm) against `model`, with keys from `pool` plus
/// neighbours of present keys (absent ones) and the domain ends.
template <class C, class Key>
void check_queries(const C& c, const std::map<Key, u32>& model, const std::vector<Key>& pool,
                   Key max_key, std::mt19937_64& rng, cudaStream_t s, const char* where) {
  SCOPED_TRACE(where);
  std::vector<Key> q(pool.begin(), pool.end());
  for (const auto& [k, v] : model) {
    if (k < max_key) q.push_back(k + 1);
    if (k > 0) q.push_back(k - 1);
    if (q.size() > 3 * pool.size()) break;
  }
  q.push_back(0);
  q.push_back(max_key);
  const std::size_t n = q.size();
  // find
  {
    auto dq = upload(q, s);
    DeviceBuffer<u32> dv(n, s);
    DeviceBuffer<std::uint8_t> df(n, s);
    dv.fill_bytes(0, s);
    c.find(dq.data(), n, dv.data(), df.data(), s);
    const auto v = dv.to_host(s);
    const auto f = df.to_host(s);
    for (std::size_t i = 0; i < n; ++i) {
      auto it = model.find(q[i]);
      ASSERT_EQ(f[i] != 0, it != model.end()) << "find " << q[i];
      if (it != model.end()) ASSERT_EQ(v[i], it->second) << "find value " << q[i];
    }
  }
  // successor
  {
    auto dq = upload(q, s);
    DeviceBuffer<Key> dk(n, s);
    DeviceBuffer<u32> dv(n, s);
    DeviceBuffer<std::uint8_t> df(n, s);
    c.successor(dq.data(), n, dk.data(), dv.data(), df.data(), s);
    const auto k = dk.to_host(s);
    const auto v = dv.to_host(s);
    const auto f = df.to_host(s);
    for (std::size_t i = 0; i < n; ++i) {
      auto it = model.lower_bound(q[i]);
      ASSERT_EQ(f[i] != 0, it != model.end()) << "successor " << q[i];
      if (it != model.end()) {
        ASSERT_EQ(k[i], it->first) << "successor " << q[i];
        ASSERT_EQ(v[i], it->second) << "successor value " << q[i];
      }
    }
  }
  // count and range on random intervals: short ones around present keys, long ones, reversed,
  // and the whole domain.
  std::vector<Key> k1, k2;
  std::uniform_int_distribution<std::size_t> pick(0, q.size() - 1);
  for (std::size_t i = 0; i < 600; ++i) {
    Key a = q[pick(rng)], b = q[pick(rng)];
    if (i % 3 == 0) b = a + std::min<Key>(Key(max_key - a), Key(rng() % 16));
    if (i % 7 == 0) std::swap(a, b);  // sometimes reversed (empty)
    k1.push_back(a);
    k2.push_back(b);
  }
  k1.push_back(0);
  k2.push_back(max_key);
  const std::size_t m = k1.size();
  auto d1 = upload(k1, s);
  auto d2 = upload(k2, s);
  DeviceBuffer<u64> dc(m, s);
  c.count(d1.data(), d2.data(), m, dc.data(), s);
  const auto counts = dc.to_host(s);
  for (std::size_t i = 0; i < m; ++i)
    ASSERT_EQ(counts[i], model_range(model, k1[i], k2[i]).size())
        << "count [" << k1[i] << ", " << k2[i] << "]";
  expect_range(c.range(d1.data(), d2.data(), m, s), k1, k2, model, s);
}

}  // namespace wg::test
