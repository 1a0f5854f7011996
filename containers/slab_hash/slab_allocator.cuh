#pragma once
// SlabAllocator: a device pool of 128-byte slabs for the overflow chains of slab hash tables
// (after SlabAlloc, Ashkiani et al.), shared by any number of tables.
//
// Layout. Slabs live in super blocks of `slabs_per_super_block` slabs (a power of two, at least
// 1024) with the super block's bitmap after its slabs. A super block is made of memory blocks
// of 1024 slabs whose 32 bitmap words are one coalesced warp read (one word per lane). A slab
// handle is a 32-bit global index: super block = handle >> log2(slabs_per_super_block).
//
// Allocation (warp-cooperative, lock-free): the warp starts on a memory block chosen by hashing
// its warp id and the clock, reads the block's 32 bitmap words, picks a lane with a free bit
// (ballot; the start lane and bit are rotated by the hash to spread warps apart) and claims the
// bit with atomicOr; on a lost race it retries with the word atomicOr returned. A full block
// sends the warp to another hashed block (8 times), then to the next block in order. A warp's
// view of a block only gains bits, so each block is left after at most 1024 failed claims, and
// after every block has been visited once the allocator is exhausted: allocate() returns
// kNullSlab and sets the device-side exhausted flag (read by SlabAllocator::exhausted()); later
// calls fail at once until clear_exhausted(). Never a hang.
// The slab it returns is filled with the empty pattern (all ones) by the warp.
//
// A tile of T <= 8 lanes can try_allocate() instead: one thread claims a bit of a hashed bitmap
// word (a few words, then it gives up and the caller takes the warp path above), so a one-thread
// task that finds its chain full appends a slab without stopping its warp.
//
// Growth: SlabAllocator::grow() adds super blocks between kernels (up to max_super_blocks);
// refs taken before a grow() see only the old super blocks (take ref() again after growing).
// Deallocation: one thread clears the slab's bit (atomicAnd, release). Freeing a slab that a
// concurrent operation may still traverse is the caller's responsibility (the tables free only
// in clear/flush phases).
//
// Statistics: slabs_in_use() (popcount of the bitmaps), capacity_slabs(), memory_bytes().
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include <warpgraph/containers/core/work_sharing.cuh>
#include <warpgraph/containers/slab_hash/slab_layout.cuh>
#include <warpgraph/containers/slab_hash/slab_memory.cuh>

namespace wg::slab {

inline constexpr std::uint32_t kSlabsPerMemoryBlock = 1024;
inline constexpr std::uint32_t kLog2SlabsPerMemoryBlock = 10;
/// Bit 0 of the allocator's status word: some allocate() found no free slab.
inline constexpr std::uint32_t kAllocatorExhaustedBit = 1u;

/// Device view of a SlabAllocator. Trivially copyable; pass by value into kernels.
class SlabAllocatorRef {
 public:
  SlabAllocatorRef() = default;
  __host__ __device__ SlabAllocatorRef(Slab* const* super_blocks, std::uint32_t num_super_blocks,
                                       std::uint32_t log2_slabs_per_super_block,
                                       std::uint32_t* status)
      : super_blocks_(super_blocks),
        num_super_blocks_(num_super_blocks),
        log2_sb_(log2_slabs_per_super_block),
        status_(status) {}

  /// Warp-cooperative: all 32 lanes call it; every lane gets the same handle (or kNullSlab, with
  /// the exhausted flag set, when no slab is free). The slab is filled with all ones.
  /// Once the flag is set, every allocate() fails at once until the host clears it
  /// (clear_exhausted(), normally after grow()): exhaustion costs O(1) per request, not a scan
  /// of every block, and a slab freed concurrently meanwhile is found after the clear.
  __device__ std::uint32_t allocate(const warp_tile& tile) const;
  /// Tile-cooperative (T <= 8 lanes; lane 0 claims, every lane gets the handle): claims a free
  /// bit of one of a few hashed bitmap words, or returns kNullSlab when those words were full or
  /// the allocator is exhausted (the caller falls back to allocate(), which visits every block
  /// and sets the flag). One bitmap read and one atomicOr when the pool has room, without the
  /// other lanes of the warp. The slab is NOT filled: the caller writes all of it before it
  /// publishes the handle (detail::write_slab_holding, tiled_chain.cuh).
  template <class Tile>
  __device__ std::uint32_t try_allocate(const Tile& tile) const;
  /// Frees one slab (called by ONE thread). No-op for kNullSlab.
  __device__ void deallocate(std::uint32_t slab) const;
  /// Address of a slab handed out by allocate().
  __device__ __forceinline__ Slab* pointer(std::uint32_t slab) const {
    return super_blocks_[slab >> log2_sb_] + (slab & ((1u << log2_sb_) - 1));
  }
  __host__ __device__ std::uint32_t num_super_blocks() const { return num_super_blocks_; }
  __host__ __device__ std::uint64_t capacity_slabs() const {
    return std::uint64_t{num_super_blocks_} << log2_sb_;
  }

 private:
  __device__ __forceinline__ std::uint32_t* bitmap_of_block(std::uint32_t block) const {
    const std::uint32_t blocks_per_sb_log2 = log2_sb_ - kLog2SlabsPerMemoryBlock;
    const std::uint32_t sb = block >> blocks_per_sb_log2;
    const std::uint32_t in_sb = block & ((1u << blocks_per_sb_log2) - 1);
    std::uint32_t* bitmap = reinterpret_cast<std::uint32_t*>(super_blocks_[sb] + (1u << log2_sb_));
    return bitmap + in_sb * 32;
  }

  Slab* const* super_blocks_ = nullptr;  // device array [max_super_blocks]
  std::uint32_t num_super_blocks_ = 0;
  std::uint32_t log2_sb_ = kLog2SlabsPerMemoryBlock;
  std::uint32_t* status_ = nullptr;  // device word: kAllocatorExhaustedBit
};

struct SlabAllocatorConfig {
  std::uint32_t slabs_per_super_block = 1u << 18;  ///< power of two >= 1024 (2^18 = 32 MiB)
  std::uint32_t initial_super_blocks = 1;
  std::uint32_t max_super_blocks = 256;  ///< slabs_per_super_block * max < 2^32
};

/// Owning host object: the super blocks, their bitmaps and the status word. Move-only.
class SlabAllocator {
 public:
  /// `name` appears in CapacityError messages (e.g. "SlabSet allocator").
  explicit SlabAllocator(SlabAllocatorConfig config = {}, cudaStream_t stream = 0,
                         std::string name = "SlabAllocator");
  ~SlabAllocator();
  SlabAllocator(const SlabAllocator&) = delete;
  SlabAllocator& operator=(const SlabAllocator&) = delete;
  SlabAllocator(SlabAllocator&&) noexcept;
  SlabAllocator& operator=(SlabAllocator&&) noexcept;

  /// Device view of the current super blocks (take it again after grow()).
  SlabAllocatorRef ref() const;
  /// Adds `super_blocks` super blocks (between kernels: synchronises `stream`), in one device
  /// allocation (a doubling from 256 super blocks is one cudaMalloc, not 256). Throws
  /// wg::CapacityError naming the allocator when max_super_blocks would be exceeded.
  void grow(std::uint32_t super_blocks, cudaStream_t stream);
  /// Marks every slab free (whatever tables still point to them) and clears the exhausted flag;
  /// one kernel, stream-ordered.
  void reset(cudaStream_t stream);

  /// Whether an allocate() has failed since the last clear_exhausted() (synchronises `stream`).
  bool exhausted(cudaStream_t stream) const;
  void clear_exhausted(cudaStream_t stream);
  /// Slabs currently handed out (counts the bitmaps; synchronises `stream`).
  std::uint64_t slabs_in_use(cudaStream_t stream) const;
  std::uint64_t capacity_slabs() const;
  std::uint32_t num_super_blocks() const { return num_super_blocks_; }
  const SlabAllocatorConfig& config() const { return config_; }
  /// Device bytes held (slabs + bitmaps + tables).
  std::size_t memory_bytes() const;
  const std::string& name() const { return name_; }

 private:
  void destroy() noexcept;
  SlabAllocatorConfig config_{};
  std::string name_;
  std::uint32_t log2_sb_ = 0;
  std::uint32_t num_super_blocks_ = 0;
  Slab** d_super_blocks_ = nullptr;  // device table
  Slab** h_super_blocks_ = nullptr;  // host copy of the table
  std::vector<void*> allocations_;   // device allocations holding the super blocks
  std::uint32_t* d_status_ = nullptr;
};

}  // namespace wg::slab

#include <warpgraph/containers/slab_hash/detail/slab_allocator_impl.cuh>
