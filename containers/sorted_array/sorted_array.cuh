#pragma once
// wg::SortedArray<Key, Value>: the GPU sorted-array baseline of the GPU LSM paper (Ashkiani et
// al., IPDPS'18): one array of strictly increasing keys with their values, updated in batches by
// sort + merge, queried one thread per query by binary search. The device view is
// wg::SortedArrayRef (sorted_array_ref.cuh).
//
//   wg::SortedArray<std::uint32_t> sa({.capacity = 1 << 24}, stream);
//   sa.insert(d_keys, d_values, n, stream);            // insert-or-assign, returns new keys
//   sa.erase(d_keys, m, stream);                       // returns keys removed
//   sa.find(d_q, q, d_values, d_found, stream);        // asynchronous
//   sa.count(d_k1, d_k2, q, d_counts, stream);         // |keys in [k1, k2]|, asynchronous
//   wg::RangeResult<std::uint32_t, std::uint32_t> r = sa.range(d_k1, d_k2, q, stream);
//   sa.successor(d_q, q, d_keys_out, d_values_out, d_found, stream);
//
// Keys: std::uint32_t or std::uint64_t, every value allowed. Values: any trivially copyable type
// (instantiated for std::uint32_t). It is a map only (a set is a map with ignored values).
//
// Semantics: phase-concurrent. Operations on one stream apply in order; queries see every
// earlier update. Within one insert batch, the LAST occurrence of a key (by position) wins;
// a present key gets the batch's value (insert-or-assign). Erase removes every listed key that
// is present (duplicates and absent keys are fine). successor(k) is the smallest key >= k
// (std::map::lower_bound). count/range take inclusive bounds [k1, k2]; k1 > k2 is an empty range.
//
// Capacity: fixed at construction (`capacity` keys). An insert or build whose result would hold
// more keys throws wg::CapacityError and leaves the array exactly as it was (the batch is NOT
// applied): the merged result is built aside and only swapped in when it fits. Running out of
// GPU memory for scratch also throws wg::CapacityError (DeviceBuffer), array unchanged.
//
// Cost (n resident, m batch, q queries): insert O(m log m + n + m) work (radix sort, merge,
// unique); erase O(m + n log m); build O(m) radix sort; find / count / successor O(log n) per
// query; range O(log n + answer) per query in two passes (count, exclusive scan, fill).
// insert / erase / build / range synchronise `stream` once to read a size; find, count and
// successor do not. Memory: keys + values of the array, plus scratch of n + m pairs per update.
//
// Instantiated in sorted_array.cu for <uint32_t, uint32_t> and <uint64_t, uint32_t> (this header
// holds no kernel and includes no CUB).
#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/sorted_array/point_queries.hpp>
#include <warpgraph/containers/sorted_array/range_result.cuh>
#include <warpgraph/containers/sorted_array/sorted_array_ref.cuh>

namespace wg {

struct SortedArrayOptions {
  std::uint64_t capacity = 1u << 20;  ///< most keys the array may hold
};

template <class Key, class Value = std::uint32_t>
class SortedArray : public PointQueries<SortedArray<Key, Value>, Key, Value> {
 public:
  using ref_type = SortedArrayRef<Key, Value>;

  explicit SortedArray(const SortedArrayOptions& options = {}, cudaStream_t stream = 0);

  /// Inserts or assigns n pairs (device spans; values may be null: Value{}). Returns how many
  /// keys were new. Throws CapacityError (array unchanged) when the result would not fit.
  std::uint64_t insert(const Key* keys, const Value* values, std::uint64_t n, cudaStream_t stream);
  /// Removes the listed keys; returns how many were present.
  std::uint64_t erase(const Key* keys, std::uint64_t n, cudaStream_t stream);
  /// Replaces the contents by the n pairs (last occurrence of a key wins); returns the size.
  /// Throws CapacityError (array unchanged) when the distinct keys exceed the capacity.
  std::uint64_t build(const Key* keys, const Value* values, std::uint64_t n, cudaStream_t stream);
  /// Empties the array (keeps its memory).
  void clear() { size_ = 0; }

  // find, count, successor: PointQueries (point_queries.hpp).
  /// Every pair with a key in [k1[i], k2[i]], per query, sorted (synchronises once).
  RangeResult<Key, Value> range(const Key* k1, const Key* k2, std::uint64_t n,
                                cudaStream_t stream) const;

  std::uint64_t size() const noexcept { return size_; }
  std::uint64_t capacity() const noexcept { return capacity_; }
  std::size_t memory_bytes() const noexcept {
    return keys_.capacity() * sizeof(Key) + values_.capacity() * sizeof(Value);
  }
  ref_type ref() const noexcept { return {keys_.data(), values_.data(), size_}; }
  /// The contents as host vectors (synchronises).
  std::pair<std::vector<Key>, std::vector<Value>> to_host(cudaStream_t stream) const;

 private:
  /// Replaces the contents with the first m pairs of keys / values (sorted, unique); returns
  /// the old size.
  std::uint64_t replace(DeviceBuffer<Key>&& keys, DeviceBuffer<Value>&& values, std::uint64_t m);

  std::uint64_t capacity_;
  std::uint64_t size_ = 0;
  DeviceBuffer<Key> keys_;
  DeviceBuffer<Value> values_;
};

extern template class SortedArray<std::uint32_t, std::uint32_t>;
extern template class SortedArray<std::uint64_t, std::uint32_t>;

}  // namespace wg
