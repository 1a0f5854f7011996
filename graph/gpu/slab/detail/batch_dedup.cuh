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
//
// Large batches put a filter in front of the table (BatchFilterRef): a first kernel marks each
// entry's bit in a bitmap of 16 bits per entry, which stays in L2, and only entries whose bit
// another entry marked too claim in the table. Without it the table (64 MB and more from 2^21
// entries) costs each entry a random DRAM round trip and 64 bytes of traffic plus its zeroing.
#include <algorithm>
#include <cstdint>

#include <warpgraph/containers/core/hash.cuh>

namespace wg::gpu::detail {

struct BatchDedupRef {
  unsigned long long* keys = nullptr;  ///< capacity slots, 0 = empty, else edge key + 1
  std::uint32_t* last = nullptr;       ///< per slot: largest entry index + 1 (weighted inserts)
  std::uint64_t mask = 0;              ///< capacity - 1 (capacity a power of two)

  __device__ static std::uint64_t hash(std::uint64_t k) { return wg::mix64(k); }

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
  /// One more step of a claim in flight, for a caller with other work to overlap: if its CAS
  /// found another edge's key, the CAS at the next slot is issued (not waited for). Waits for
  /// the CAS in flight (so call it when its answer is due anyway).
  __device__ Probe claim_advance(std::uint64_t edge, Probe probe) const {
    if (probe.old == 0 || probe.old == edge + 1) return probe;
    const std::uint64_t h = (probe.slot + 1) & mask;
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

  /// Filtered batches: records slot as claimed in the bitmap `claimed`, so the table can be
  /// cleared slot by slot (the filter keeps most entries out of it). A reduction, no return.
  __device__ void note_claim(std::uint32_t* claimed, std::uint64_t slot) const {
    atomicOr(claimed + (slot >> 5), 1u << (slot & 31));
  }

  /// Slot of an edge claimed earlier in this batch (a completed previous kernel).
  __device__ std::uint64_t slot_of(std::uint64_t edge) const {
    const unsigned long long stored = edge + 1;
    std::uint64_t h = hash(edge) & mask;
    while (keys[h] != stored) h = (h + 1) & mask;
    return h;
  }
};

/// Two bitmaps over a hash of the edge keys: `seen` has the bit of every entry, `shared` the bits
/// that two or more entries marked. Every entry of an edge marks the same bit, so an entry whose
/// bit is not shared is the only entry of its edge and owns it without a claim; the others (the
/// edge's duplicates, and edges that share a bit by chance: about 1 in 16 at 16 bits per entry)
/// claim in the table. Zero before the marking pass (filter_batch_kernel: an atomicOr into
/// `seen` per entry, and into `shared` where `seen` had the bit already); read-only after it.
struct BatchFilterRef {
  std::uint32_t* seen = nullptr;  ///< null: no filter, every entry claims
  std::uint32_t* shared = nullptr;
  unsigned shift = 64;  ///< bit of a key: hash >> shift (64 - log2 of the bits)

  __device__ bool active() const { return seen != nullptr; }
  __device__ std::uint64_t bit_of(std::uint64_t edge) const {
    return BatchDedupRef::hash(edge) >> shift;  // high bits: the table probes from the low ones
  }
  /// After the marking pass: whether the entry must claim its edge in the table.
  __device__ bool must_claim(std::uint64_t edge) const {
    const std::uint64_t b = bit_of(edge);
    return (shared[b >> 5] >> (b & 31)) & 1u;
  }
};

/// Mask of the table part used by a filtered batch with `claimers` claiming entries: the power
/// of two >= 4 x claimers (at least 64 slots), at most the whole table (`full_mask` + 1 slots).
__host__ __device__ inline std::uint64_t claim_mask(std::uint64_t claimers,
                                                    std::uint64_t full_mask) {
  std::uint64_t c = 64;
  while (c < 4 * claimers && c <= full_mask) c <<= 1;
  return (c - 1) < full_mask ? c - 1 : full_mask;
}

/// Bits of the filter for n entries: the power of two >= 16n (at least 1024).
inline std::uint64_t filter_bits(std::uint64_t n) {
  std::uint64_t b = 1024;
  while (b < 16 * n) b <<= 1;
  return b;
}

/// Capacity for a batch of n entries: the power of two >= 8n while that is at most 2^20 slots
/// (8 MiB), else >= 4n. A warp waits for the longest probe sequence of its 32 claims, so a
/// sparse table pays: about two probe rounds per warp at load 1/8 against four at 1/2.
inline std::uint64_t dedup_capacity(std::uint64_t n) {
  constexpr std::uint64_t kSparseLimit = std::uint64_t{1} << 20;
  const std::uint64_t want = 8 * n <= kSparseLimit ? 8 * n : std::max(4 * n, kSparseLimit);
  std::uint64_t c = 64;
  while (c < want) c <<= 1;
  return c;
}

}  // namespace wg::gpu::detail
