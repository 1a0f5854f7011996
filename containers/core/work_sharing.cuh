#pragma once
// Warp-cooperative work sharing (WCWS, Ashkiani et al.): every lane of a warp may hold one task;
// the warp processes the active lanes' tasks one after another, all 32 lanes working on each,
// with the task broadcast by shuffles. This is the only way per-thread kernels should enter the
// tile-cooperative container operations (slab hash, ...): those need all 32 lanes, so they must
// never be called under a branch that splits the warp.
//
//   __global__ void k(SetTableRef set, const uint32_t* keys, uint64_t n) {
//     wg::warp_stride_loop(n, [&](const wg::warp_tile& tile, uint64_t i, bool active) {
//       const uint32_t key = active ? keys[i] : 0;
//       wg::for_each_active_lane(tile, active, [&](int src) {
//         const uint32_t k = tile.shfl(key, src);  // warp-uniform task
//         set.insert(tile, k);                     // all 32 lanes
//       });
//     });
//   }
#include <cooperative_groups.h>

#include <cstdint>

namespace wg {

/// A warp as a cooperative-groups tile. Every tile-cooperative operation takes one.
using warp_tile = cooperative_groups::thread_block_tile<32>;

/// The calling thread's warp (the block size must be a multiple of 32).
__device__ inline warp_tile this_warp() {
  return cooperative_groups::tiled_partition<32>(cooperative_groups::this_thread_block());
}

/// Runs f(src_lane) once per lane whose `active` is true, in lane order, with the whole warp
/// executing each call (f may use tile operations; it reads the task with tile.shfl(x, src)).
/// All 32 lanes must call this together (`active` may differ between them).
template <class F>
__device__ inline void for_each_active_lane(const warp_tile& tile, bool active, F&& f) {
  unsigned queue = tile.ballot(active);
  while (queue) {
    const int src = __ffs(queue) - 1;
    queue &= queue - 1;
    f(src);
  }
}

/// The work queue of a warp as a bit mask, for loops that take several tasks at a time.
/// pop() returns the lowest active lane (-1 when empty).
struct LaneQueue {
  unsigned mask;
  __device__ bool empty() const { return mask == 0; }
  __device__ int pop() {
    if (!mask) return -1;
    const int src = __ffs(mask) - 1;
    mask &= mask - 1;
    return src;
  }
};

/// Kernel-side entry for per-item work: every thread of the grid calls it; items [0, n) are
/// dealt out 32 at a time per warp (lane l holds item base + l) and the whole warp stays in the
/// loop until the last chunk, with `active` false on lanes past n. f(tile, i, active).
/// The block size must be a multiple of 32.
/// kItemsPerWarp (4, 8, 16 or 32) < 32 deals fewer items per warp: the warp's serial chain of
/// tasks gets shorter and more warps are in flight, for small latency-bound batches. The items
/// are spread evenly over the warp's four 8-lane quarters (kItemsPerWarp / 4 lanes each), so
/// kernels that run one task per 8-lane tile keep all four tiles busy.
template <int kItemsPerWarp = 32, class F>
__device__ inline void warp_stride_loop(std::uint64_t n, F&& f) {
  static_assert(kItemsPerWarp == 4 || kItemsPerWarp == 8 || kItemsPerWarp == 16 ||
                kItemsPerWarp == 32);
  constexpr unsigned kPerQuarter = kItemsPerWarp / 4;
  const warp_tile tile = this_warp();
  const std::uint64_t thread = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const std::uint64_t warp = thread / 32;
  const std::uint64_t num_warps = (std::uint64_t{gridDim.x} * blockDim.x) / 32;
  const unsigned lane = tile.thread_rank();
  const unsigned slot = kItemsPerWarp == 32 ? lane : (lane >> 3) * kPerQuarter + (lane & 7);
  const bool holds = kItemsPerWarp == 32 || (lane & 7) < kPerQuarter;
  for (std::uint64_t base = warp * kItemsPerWarp; base < n; base += num_warps * kItemsPerWarp) {
    const std::uint64_t i = base + slot;
    f(tile, i, holds && i < n);
  }
}

/// Global index of the calling warp (for hashing, statistics).
__device__ inline std::uint32_t global_warp_id() {
  return static_cast<std::uint32_t>((std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32);
}

}  // namespace wg

namespace wg {

/// Kernel-side entry for per-warp work: item i in [0, n) is handled by one whole warp (warp-
/// uniform i), warps striding over the items. f(tile, i). The block size must be a multiple of 32.
template <class F>
__device__ inline void for_each_warp_item(std::uint64_t n, F&& f) {
  const warp_tile tile = this_warp();
  const std::uint64_t num_warps = (std::uint64_t{gridDim.x} * blockDim.x) / 32;
  for (std::uint64_t i = global_warp_id(); i < n; i += num_warps) f(tile, i);
}

}  // namespace wg
