#pragma once
// The per-query steps of wg::Lsm::range (lsm.cu), plain C++ over an LsmRef so that the CPU tests
// run exactly what the kernels run. The counting walk buffers a query's first `slot` answers in
// a query-minor slot array (answer j of query i at [j * stride + i], stride = number of queries,
// so a warp's j-th stores are coalesced); the fill step copies them, or walks again when the
// query has more answers than the slot holds (the walk is deterministic: the same answers).
#include <cstdint>

#include <warpgraph/containers/lsm/lsm_ref.cuh>

namespace wg::lsm_detail {

/// Counts the live keys in [k1, k2] and stores the first `slot` of them for query i.
template <class Key, class Value>
WG_HD std::uint64_t range_count_into_slot(const LsmRef<Key, Value>& ref, Key k1, Key k2,
                                          std::uint32_t slot, Key* slot_keys, Value* slot_values,
                                          std::uint64_t stride, std::uint64_t i) {
  std::uint64_t j = 0;
  return ref.walk(k1, k2, ~std::uint64_t(0), [&](Key k, const Value& v) {
    if (j < slot) {
      slot_keys[j * stride + i] = k;
      slot_values[j * stride + i] = v;
    }
    ++j;
  });
}

/// Writes query i's `count` answers (its count from range_count_into_slot) to out_keys/values.
template <class Key, class Value>
WG_HD void range_fill_from_slot(const LsmRef<Key, Value>& ref, Key k1, Key k2, std::uint64_t count,
                                std::uint32_t slot, const Key* slot_keys, const Value* slot_values,
                                std::uint64_t stride, std::uint64_t i, Key* out_keys,
                                Value* out_values) {
  if (count <= slot) {
    for (std::uint64_t j = 0; j < count; ++j) {
      out_keys[j] = slot_keys[j * stride + i];
      out_values[j] = slot_values[j * stride + i];
    }
    return;
  }
  std::uint64_t at = 0;
  ref.walk(k1, k2, count, [&](Key k, const Value& v) {
    out_keys[at] = k;
    out_values[at] = v;
    ++at;
  });
}

}  // namespace wg::lsm_detail
