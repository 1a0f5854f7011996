#pragma once
// wg::PointQueries<Derived, Key, Value>: the bulk point queries wg::SortedArray and wg::Lsm share,
// each over its device view Derived::ref() (SortedArrayRef, LsmRef). One thread per query:
// O(log n) per query on the sorted array, O(l log n) over the LSM's l non-empty levels. "A key"
// below is a present key of the array, a live key (its newest element) of the LSM. All three
// are asynchronous on `stream` and synchronise nothing.
//
// Declarations only; the definitions (and their kernels) are in sorted_primitives.cuh, and each
// container's .cu instantiates them for its key types.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>

namespace wg {

template <class Derived, class Key, class Value>
class PointQueries {
  static_assert(std::is_same_v<Key, std::uint32_t> || std::is_same_v<Key, std::uint64_t>,
                "SortedArray / Lsm: Key is std::uint32_t or std::uint64_t");

 public:
  using key_type = Key;
  using mapped_type = Value;

  /// out_values[i] = the value of key queries[i] when there is one (untouched otherwise);
  /// out_found[i] = 1/0. Either output may be null.
  void find(const Key* queries, std::uint64_t n, Value* out_values, std::uint8_t* out_found,
            cudaStream_t stream) const;
  /// out_counts[i] = the number of keys in [k1[i], k2[i]] (0 when k1[i] > k2[i]).
  void count(const Key* k1, const Key* k2, std::uint64_t n, std::uint64_t* out_counts,
             cudaStream_t stream) const;
  /// The smallest key >= queries[i] with its value; out_found[i] = 0 when none. Any output may
  /// be null.
  void successor(const Key* queries, std::uint64_t n, Key* out_keys, Value* out_values,
                 std::uint8_t* out_found, cudaStream_t stream) const;
};

}  // namespace wg
