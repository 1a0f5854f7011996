#pragma once
// wg::SortedArrayRef<Key, Value>: the device view of a wg::SortedArray (sorted_array.cuh):
// trivially copyable, passed by value into kernels. Valid until the next update of its array
// (insert, erase, build, clear replace the arrays). One thread per query; no cooperation needed,
// so any thread may call any member under any branch.
#include <cstdint>

#include <warpgraph/containers/sorted_array/sorted_search.cuh>

namespace wg {

template <class Key, class Value>
struct SortedArrayRef {
  const Key* keys = nullptr;      ///< size strictly increasing keys
  const Value* values = nullptr;  ///< their values
  std::uint64_t size = 0;

  /// True and *out = the value when k is present. O(log n).
  WG_HD bool find(Key k, Value* out) const {
    const std::uint64_t i = lower_bound_index(keys, size, k);
    if (i < size && keys[i] == k) {
      *out = values[i];
      return true;
    }
    return false;
  }
  /// Index of the first key >= k (size when none). O(log n).
  WG_HD std::uint64_t lower_bound(Key k) const { return lower_bound_index(keys, size, k); }
  /// Index one past the last key <= k. O(log n).
  WG_HD std::uint64_t upper_bound(Key k) const { return upper_bound_index(keys, size, k); }
  /// Number of keys in [k1, k2] (0 when k1 > k2). O(log n).
  WG_HD std::uint64_t count(Key k1, Key k2) const {
    if (k2 < k1) return 0;
    const std::uint64_t lo = lower_bound(k1);
    return upper_bound_from(keys, size, lo, k2) - lo;
  }
  /// The smallest key >= k with its value (std::map::lower_bound); false when none. O(log n).
  WG_HD bool successor(Key k, Key* key_out, Value* value_out) const {
    const std::uint64_t i = lower_bound(k);
    if (i >= size) return false;
    *key_out = keys[i];
    *value_out = values[i];
    return true;
  }
};

}  // namespace wg
