#pragma once
// Batch-local deduplication of edge entries without sorting: an open-addressing hash set of
// 64-bit edge keys, sized at twice the batch and zeroed before each batch (keys are stored + 1,
// so 0 marks an empty slot). The first entry to claim an edge's slot owns that edge for the
// batch: it alone touches the edge's arcs in the graph, which makes the slab tables' exclusive
// (tombstone-reusing) inserts safe and tells duplicates apart from edges already present.
// Weighted inserts, where the LAST entry of an edge must win, record the largest entry index per
// slot in a first pass and compare against it in the second.
//
// Cost: one 64-bit CAS per entry (expected O(1) probes at load factor <= 0.5).
#include <cstdint>

namespace wg::gpu::detail {

struct BatchDedupRef {
  unsigned long long* keys = nullptr;  ///< capacity slots, 0 = empty, else edge key + 1
  std::uint32_t* last = nullptr;       ///< per slot: largest entry index + 1 (weighted inserts)
  std::uint64_t mask = 0;              ///< capacity - 1 (capacity a power of two)

  __device__ static std::uint64_t hash(std::uint64_t k) {  // murmur3 finaliser
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return k;
  }

  /// Claims `edge` (a key < 2^64 - 1); returns its slot. *first = this call inserted it.
  __device__ std::uint64_t claim(std::uint64_t edge, bool* first) const {
    const unsigned long long stored = edge + 1;
    for (std::uint64_t h = hash(edge) & mask;; h = (h + 1) & mask) {
      const unsigned long long old = atomicCAS(keys + h, 0ull, stored);
      if (old == 0 || old == stored) {
        *first = old == 0;
        return h;
      }
    }
  }

  /// Slot of an edge claimed earlier in this batch (a completed previous kernel).
  __device__ std::uint64_t slot_of(std::uint64_t edge) const {
    const unsigned long long stored = edge + 1;
    std::uint64_t h = hash(edge) & mask;
    while (keys[h] != stored) h = (h + 1) & mask;
    return h;
  }
};

/// Capacity for a batch of n entries: the power of two >= 2n (at least 64).
inline std::uint64_t dedup_capacity(std::uint64_t n) {
  std::uint64_t c = 64;
  while (c < 2 * n) c <<= 1;
  return c;
}

}  // namespace wg::gpu::detail
