#pragma once
// BatchScratchPool: the device scratch of a graph's batches (private to graph/gpu).
//
// Contract: two halves, each
//   [counters | filter bitmaps and claimed-slot bitmap (filtered batches) | dedup keys |
//    dedup last (weighted)],
// used by alternate batches; each batch's first kernel zeroes the half of the batch before it,
// so in steady state a batch needs no memset. A filtered batch leaves its dedup table non-zero
// only at the slots of its claimed-slot bitmap, so those are cleared instead of the whole
// table. The retry and resize lists (written before read) are shared. The memory only grows.
#include <cstdint>

#include <warpgraph/graph/gpu/slab/detail/batch_dedup.cuh>
#include <warpgraph/graph/gpu/slab/detail/kernels/batch_pass.cuh>
#include <warpgraph/containers/core/device_buffer.cuh>

namespace wg::gpu::detail {

/// How a batch tells an edge's first entry from its duplicates: claims in a hash table, the
/// same behind a filter, or the batch sorted into edge order (equal keys adjacent).
enum class BatchDedup { table, filtered, sorted };

/// A filtered batch's dedup table, non-zero at the bits of `bitmap`.
struct ClaimedSlots {
  unsigned long long* keys = nullptr;
  std::uint32_t* bitmap = nullptr;
  std::uint64_t words = 0;
  std::uint32_t* last = nullptr;  // and its last-entry array (weighted inserts)
};

/// One batch's scratch (see BatchPass for what each part is).
struct BatchScratch {
  BatchCounters* counters;
  BatchDedupRef dedup;
  BatchFilterRef filter;  // seen == null: not filtered
  std::uint32_t* claimed;
  unsigned long long* retry[2];
  unsigned long long* fixups;  // BatchPass::last_fixups
  vertex_t* resize;
  uint4* clear;  // the other half's dirty prefix, for the kernel to zero
  std::uint64_t clear_words;
  ClaimedSlots clear_claimed;  // and its claimed slots
};

class BatchScratchPool {
 public:
  explicit BatchScratchPool(cudaStream_t stream) : stream_(stream) {}

  /// Scratch for a batch of n entries: its half's counters, filter and dedup table are zero when
  /// the batch's kernels run (a memset only when the half was not cleaned: first use, growth).
  /// filtered: with the filter bitmaps and the claimed-slot bitmap; sorted: no dedup table.
  /// last_wins: with the dedup table's last-entry array (weighted inserts).
  BatchScratch take(std::uint64_t n, bool last_wins, BatchDedup mode);

  std::uint64_t memory_bytes() const { return scratch_.bytes(); }

 private:
  cudaStream_t stream_;
  DeviceBuffer<unsigned char> scratch_;    // grow-only
  std::uint64_t half_bytes_ = 0;          // bytes of one half (each 256-aligned)
  std::uint64_t half_dirty_[2] = {0, 0};  // prefix of each half that may be non-zero
  ClaimedSlots half_claimed_[2];
  unsigned parity_ = 0;  // half of the next batch
};

}  // namespace wg::gpu::detail
