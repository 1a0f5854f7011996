#pragma once
// wg::RangeResult<Key, Value>: the answer of a batch of range(k1, k2) queries on the sorted array
// or the LSM, in CSR form: query q's pairs are keys[offsets[q] .. offsets[q + 1]) (and the same
// slice of values), sorted by key, one pair per live key. offsets has num_queries + 1 entries.
#include <cstdint>

#include <warpgraph/containers/core/device_buffer.cuh>

namespace wg {

template <class Key, class Value>
struct RangeResult {
  DeviceBuffer<std::uint64_t> offsets;  ///< num_queries + 1 exclusive prefix sums
  DeviceBuffer<Key> keys;               ///< offsets[num_queries] keys
  DeviceBuffer<Value> values;           ///< the values of those keys
  std::uint64_t total = 0;              ///< offsets[num_queries]
};

}  // namespace wg
