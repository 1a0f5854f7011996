// BatchScratchPool (batch_scratch.cuh): the two halves of batch scratch and their cleaning.
#include <algorithm>
#include <bit>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/graph/gpu/slab/detail/batch_scratch.cuh>

namespace wg::gpu::detail {
namespace {

std::uint64_t align256(std::uint64_t b) {
  return (b + 255) & ~std::uint64_t{255};
}

}  // namespace

BatchScratch BatchScratchPool::take(std::uint64_t n, bool last_wins, BatchDedup mode) {
  const bool filtered = mode == BatchDedup::filtered;
  const std::uint64_t cap = mode == BatchDedup::sorted ? 0 : dedup_capacity(n);
  const std::uint64_t filter_bytes = filtered ? filter_bits(n) / 8 : 0;
  const std::uint64_t claimed_bytes = filtered ? align256(cap / 8) : 0;
  const std::uint64_t o_seen = align256(sizeof(BatchCounters));
  const std::uint64_t o_shared = o_seen + align256(filter_bytes);
  const std::uint64_t o_claimed = o_shared + align256(filter_bytes);
  const std::uint64_t o_dedup = o_claimed + claimed_bytes;
  const std::uint64_t o_last = o_dedup + cap * sizeof(unsigned long long);
  const std::uint64_t zeroed = align256(o_last + (last_wins ? cap * sizeof(std::uint32_t) : 0));
  // Weighted batches deduplicated in the table list their duplicates (BatchPass::last_fixups).
  const std::uint64_t fixup_bytes =
      last_wins && mode == BatchDedup::table ? align256(2 * n * sizeof(unsigned long long)) : 0;
  // After the two halves: the retry lists (one per pass parity), the resize list, the fix-ups.
  const std::uint64_t retry_bytes = align256(n * sizeof(unsigned long long));
  const std::uint64_t resize_bytes = align256(2 * n * sizeof(vertex_t));
  const std::uint64_t lists = 2 * retry_bytes + resize_bytes + fixup_bytes;
  if (half_bytes_ < zeroed || scratch_.size() < 2 * half_bytes_ + lists) {
    half_bytes_ = std::max(half_bytes_, zeroed);
    const std::uint64_t total = std::max<std::uint64_t>(2 * half_bytes_ + lists, scratch_.size());
    scratch_ = DeviceBuffer<unsigned char>();
    scratch_ = DeviceBuffer<unsigned char>(total, stream_, "batch scratch");
    half_dirty_[0] = half_dirty_[1] = half_bytes_;  // fresh memory: zeroed on first use
    half_claimed_[0] = half_claimed_[1] = ClaimedSlots{};
  }
  const unsigned h = parity_;
  parity_ ^= 1u;
  unsigned char* base = scratch_.data();
  unsigned char* b = base + h * half_bytes_;
  if (half_dirty_[h]) WG_CUDA_TRY(cudaMemsetAsync(b, 0, half_dirty_[h], stream_));
  BatchScratch sc;
  sc.counters = reinterpret_cast<BatchCounters*>(b);
  sc.dedup.keys = reinterpret_cast<unsigned long long*>(b + o_dedup);
  sc.dedup.last = last_wins ? reinterpret_cast<std::uint32_t*>(b + o_last) : nullptr;
  sc.dedup.mask = cap - 1;
  sc.claimed = nullptr;
  if (filtered) {
    sc.filter.seen = reinterpret_cast<std::uint32_t*>(b + o_seen);
    sc.filter.shared = reinterpret_cast<std::uint32_t*>(b + o_shared);
    sc.filter.shift = 64 - static_cast<unsigned>(std::countr_zero(filter_bits(n)));
    sc.claimed = reinterpret_cast<std::uint32_t*>(b + o_claimed);
  }
  unsigned char* l = base + 2 * half_bytes_;
  sc.retry[0] = reinterpret_cast<unsigned long long*>(l);
  sc.retry[1] = reinterpret_cast<unsigned long long*>(l + retry_bytes);
  sc.resize = reinterpret_cast<vertex_t*>(l + 2 * retry_bytes);
  sc.fixups = fixup_bytes
                  ? reinterpret_cast<unsigned long long*>(l + 2 * retry_bytes + resize_bytes)
                  : nullptr;
  sc.clear = reinterpret_cast<uint4*>(base + (h ^ 1u) * half_bytes_);
  sc.clear_words = half_dirty_[h ^ 1u] / sizeof(uint4);  // 256-aligned: whole words
  sc.clear_claimed = half_claimed_[h ^ 1u];
  // A filtered batch dirties its prefix up to the claimed-slot bitmap, and the slots that
  // bitmap lists (the next batch clears those and the bitmap).
  half_dirty_[h] = filtered ? o_claimed : zeroed;
  half_claimed_[h] = filtered ? ClaimedSlots{.keys = sc.dedup.keys,
                                             .bitmap = sc.claimed,
                                             .words = cap / 32,
                                             .last = sc.dedup.last}
                              : ClaimedSlots{};
  half_dirty_[h ^ 1u] = 0;  // the batch's first kernel zeroes it
  half_claimed_[h ^ 1u] = ClaimedSlots{};
  return sc;
}

}  // namespace wg::gpu::detail
