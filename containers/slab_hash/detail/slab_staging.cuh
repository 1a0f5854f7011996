#pragma once
// Warp-cooperative staging of slabs into shared memory, for kernels whose lanes each work on
// their own slab (one-thread tiles, slab_set_tile.cuh) but may share slabs: a lane that reads its
// slab by itself issues eight 16-byte loads, two per 32-byte sector, each a separate L2 request,
// and lanes with the same slab read it again each. Staged, the warp copies each slab it names once
// with coalesced 16-byte asynchronous copies (cp.async; one warp instruction moves four whole
// slabs): 4 sector requests per distinct slab. The lanes then read their copies from shared
// memory (SlabView::read_staged, tiled_chain.cuh).
//
// The copies are plain (not relaxed) reads of words other warps may be changing. Exclusive
// operations tolerate that: a key they look for is theirs (no one else inserts or erases it during
// the phase), so a copy shows it exactly when it is there, and a free slot or tombstone seen in a
// stale copy only makes a CAS fail, after which the chain is read again with relaxed loads.
#include <cstdint>

#include <warpgraph/containers/slab_hash/detail/slab_memory.cuh>
#include <warpgraph/containers/slab_hash/slab_layout.cuh>

namespace wg::slab::detail {

/// Chunks of 16 bytes per staged row: a slab's 8 and one of padding, so that the 8 lanes of a
/// shared-memory phase reading chunk j of their own rows hit distinct banks.
inline constexpr unsigned kStagedRowChunks = 9;
/// One warp's staging area: a row per lane.
using StagedSlabs = uint4[32][kStagedRowChunks];

__device__ __forceinline__ void copy_async_16(uint4* smem, const std::uint32_t* gmem) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(gmem) : "memory");
#else
  *smem = load_relaxed_v4(gmem);
#endif
}
__device__ __forceinline__ void wait_async_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}

/// Whole warp: copies each lane's slab `mine` (null: none) into rows[lane]. One round trip for
/// the warp's 32 slabs. Lanes that need the same slab should let one of them name it (the others
/// pass null and read that lane's row).
__device__ __forceinline__ void stage_slabs(const Slab* mine, StagedSlabs& rows) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned chunk = lane & 7u;  // lanes 8q .. 8q + 7 copy one slab's 8 chunks
  __syncwarp();                      // the rows' previous copies have been read
#pragma unroll
  for (unsigned k = 0; k < 8; ++k) {
    const unsigned from = 4 * k + (lane >> 3);
    const auto s = reinterpret_cast<const Slab*>(__shfl_sync(
        0xFFFFFFFFu, reinterpret_cast<unsigned long long>(mine), static_cast<int>(from)));
    if (s) copy_async_16(&rows[from][chunk], s->words + 4 * chunk);
  }
  wait_async_copies();
  __syncwarp();
}

}  // namespace wg::slab::detail
