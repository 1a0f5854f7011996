#pragma once
// Device-side bodies of SlabAllocatorRef (see slab_allocator.cuh for the algorithm).

namespace wg::slab {

namespace detail {
/// One try at a free bit of the bitmap word at p, whose last value seen is `word` (not all
/// ones): sets the first free bit at or after bit_rot (cyclically) with atomicOr. Returns the
/// bit if this call set it, else -1; `word` becomes what the atomic saw, with that bit set.
__device__ __forceinline__ int claim_free_bit(std::uint32_t* p, std::uint32_t& word,
                                              std::uint32_t bit_rot) {
  const unsigned free_bits = ~word;
  const unsigned rotated = __funnelshift_r(free_bits, free_bits, bit_rot);
  const unsigned bit = (static_cast<unsigned>(__ffs(rotated)) - 1 + bit_rot) & 31;
  const unsigned old = atomicOr(p, 1u << bit);
  word = old | (1u << bit);
  return (old & (1u << bit)) ? -1 : static_cast<int>(bit);
}
}  // namespace detail

__device__ inline std::uint32_t SlabAllocatorRef::allocate(const warp_tile& tile) const {
  const std::uint32_t lane = tile.thread_rank();
  const std::uint32_t num_blocks = num_super_blocks_ << (log2_sb_ - kLog2SlabsPerMemoryBlock);
  if (num_blocks == 0) {
    if (lane == 0) atomicOr(status_, kAllocatorExhaustedBit);
    return kNullSlab;
  }
  // Fail fast once exhausted: a kernel that ran out would otherwise scan every block once per
  // request, which dominates a batch with many failed requests.
  const auto exhausted = [&] {
    std::uint32_t st = 0;
    if (lane == 0) st = load_relaxed(status_);
    return (tile.shfl(st, 0) & kAllocatorExhaustedBit) != 0;
  };
  if (exhausted()) return kNullSlab;
  // Warp-uniform hash of (warp, time): where to start, which lane and bit to try first.
  std::uint32_t salt =
      wg::mix32(global_warp_id() * 0x9E3779B9u + static_cast<std::uint32_t>(clock64()));
  salt = tile.shfl(salt, 0);
  std::uint32_t block = wg::fast_range(salt, num_blocks);
  const std::uint32_t lane_rot = (salt >> 5) & 31;
  const std::uint32_t bit_rot = salt & 31;
  // A full block sends the warp to another random block for the first kRandomProbes tries (a
  // linear walk from a random start crawls through runs of full blocks: the blocks that were
  // there before the pool grew fill up together), then to the next one, which visits every
  // block before the pool is declared exhausted.
  constexpr std::uint32_t kRandomProbes = 8;
  for (std::uint32_t visited = 0; visited < num_blocks + kRandomProbes; ++visited) {
    if ((visited & 15) == 15 && exhausted()) return kNullSlab;
    std::uint32_t* bitmap = bitmap_of_block(block);
    std::uint32_t word = load_relaxed(bitmap + lane);
    while (true) {
      const unsigned free_lanes = tile.ballot(word != 0xFFFFFFFFu);
      if (free_lanes == 0) break;
      // First lane with a free bit at or after lane_rot (cyclically).
      const unsigned rotated = __funnelshift_r(free_lanes, free_lanes, lane_rot);
      const int src = static_cast<int>((__ffs(rotated) - 1 + lane_rot) & 31);
      std::uint32_t handle = kNullSlab;
      if (static_cast<int>(lane) == src) {
        const int bit = detail::claim_free_bit(bitmap + lane, word, bit_rot);
        if (bit >= 0) handle = (block << kLog2SlabsPerMemoryBlock) | (lane << 5) | bit;
      }
      handle = tile.shfl(handle, src);
      if (handle != kNullSlab) {
        // Acquire: the previous owner's writes happened before its deallocate (release).
        fence_acquire();
        pointer(handle)->words[lane] = kEmptyKey;
        tile.sync();
        return handle;
      }
    }
    if (visited < kRandomProbes)
      block = wg::fast_range(wg::mix32(salt + 0x9E3779B9u * (visited + 1)), num_blocks);
    else
      block = block + 1 == num_blocks ? 0 : block + 1;
  }
  if (lane == 0) atomicOr(status_, kAllocatorExhaustedBit);
  return kNullSlab;
}

template <class Tile>
__device__ inline std::uint32_t SlabAllocatorRef::try_allocate(const Tile& tile) const {
  std::uint32_t handle = kNullSlab;
  const std::uint32_t num_blocks = num_super_blocks_ << (log2_sb_ - kLog2SlabsPerMemoryBlock);
  if (tile.thread_rank() == 0 && num_blocks != 0) {
    // Issued together with the first bitmap read: an exhausted pool costs no extra round trip.
    const std::uint32_t status = load_relaxed(status_);
    const std::uint32_t thread = blockIdx.x * blockDim.x + threadIdx.x;
    std::uint32_t salt = wg::mix32(thread * 0x9E3779B9u + static_cast<std::uint32_t>(clock64()));
    // Few probes: a pool whose hashed words are full this often is nearly exhausted, and the
    // warp path then scans it in order.
    constexpr int kProbes = 4;
    for (int probe = 0; probe < kProbes && !(status & kAllocatorExhaustedBit); ++probe) {
      const std::uint32_t block = wg::fast_range(salt, num_blocks);
      const std::uint32_t lane = salt & 31, bit_rot = (salt >> 5) & 31;
      std::uint32_t* word_ptr = bitmap_of_block(block) + lane;
      std::uint32_t word = load_relaxed(word_ptr);
      while (word != 0xFFFFFFFFu) {
        const int bit = detail::claim_free_bit(word_ptr, word, bit_rot);
        if (bit >= 0) {
          handle = (block << kLog2SlabsPerMemoryBlock) | (lane << 5) | bit;
          break;
        }
      }
      if (handle != kNullSlab) break;
      salt = wg::mix32(salt + 0x9E3779B9u);
    }
    // Acquire: the previous owner's writes happened before its deallocate (release).
    if (handle != kNullSlab) fence_acquire();
  }
  return tile.shfl(handle, 0);
}

__device__ inline void SlabAllocatorRef::deallocate(std::uint32_t slab) const {
  if (slab == kNullSlab) return;
  const std::uint32_t block = slab >> kLog2SlabsPerMemoryBlock;
  const std::uint32_t word = (slab >> 5) & 31;
  __threadfence();  // release: this thread's writes to the slab before it can be reused
  atomicAnd(bitmap_of_block(block) + word, ~(1u << (slab & 31)));
}

}  // namespace wg::slab
