#pragma once
// Batch-local deduplication of edge entries without sorting: an open-addressing hash set of
// 64-bit edge keys, sized at 4-8 times the batch (dedup_capacity) and zero before each batch (keys
// are stored + 1, so 0 marks an empty slot). The first entry to claim an edge's slot owns that edge
// for the batch: it alone touches the edge's arcs in the graph, which makes the slab tables'
// exclusive (tombstone-reusing) inserts safe and tells duplicates apart from edges already present.
// Weighted inserts, where the LAST entry of an edge must win, record the largest entry index per
// slot in a first pass and compare against it in the second.
//
// Cost: one 64-bit CAS per entry (expected O(1) probes at load factor <= 1/4).
// Zeroing: the graph keeps two such tables and clears the one of the previous batch inside the
// current batch's kernel, so a batch issues no memset in steady state.
#include <algorithm>
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

  /// A claim in flight: its first CAS is issued, its answer not yet looked at.
  struct Probe {
    std::uint64_t slot;
    unsigned long long old;
  };

  /// Claims `edge` (a key < 2^64 - 1); returns its slot. *first = this call inserted it.
  __device__ std::uint64_t claim(std::uint64_t edge, bool* first) const {
    return claim_end(edge, claim_begin(edge), first);
  }
  /// claim() in two steps, so a caller can issue other memory operations while the first CAS
  /// is in flight: claim_begin issues it, claim_end waits for it and probes further if needed.
  __device__ Probe claim_begin(std::uint64_t edge) const {
    const std::uint64_t h = hash(edge) & mask;
    return {h, atomicCAS(keys + h, 0ull, edge + 1)};
  }
  __device__ std::uint64_t claim_end(std::uint64_t edge, Probe probe, bool* first) const {
    const unsigned long long stored = edge + 1;
    std::uint64_t h = probe.slot;
    for (unsigned long long old = probe.old;; old = atomicCAS(keys + h, 0ull, stored)) {
      if (old == 0 || old == stored) {
        *first = old == 0;
        return h;
      }
      h = (h + 1) & mask;
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

/// Capacity for a batch of n entries: the power of two >= 8n while that is at most 2^20 slots
/// (8 MiB), else >= 4n. A warp waits for the longest probe sequence of its 32 claims, so a
/// sparse table pays: about two probe rounds per warp at load 1/8 against four at 1/2 (H100,
/// uniform batches: 2^16 inserts +15%, 2^22 +5% over 2n).
inline std::uint64_t dedup_capacity(std::uint64_t n) {
  constexpr std::uint64_t kSparseLimit = std::uint64_t{1} << 20;
  const std::uint64_t want = 8 * n <= kSparseLimit ? 8 * n : std::max(4 * n, kSparseLimit);
  std::uint64_t c = 64;
  while (c < want) c <<= 1;
  return c;
}

}  // namespace wg::gpu::detail
