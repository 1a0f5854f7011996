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

/// A tile of ONE thread with the tile interface (thread_rank, shfl, shfl_xor, ballot, any,
/// sync) and no warp-synchronous instruction behind it, so tile-generic code runs per thread
/// at full speed. cooperative_groups' thread_block_tile<1> issues each of those as a warp
/// instruction with a one-lane mask, which makes a diverged warp run its lanes one after
/// another.
struct thread_tile {
  static constexpr unsigned num_threads() { return 1; }
  __device__ unsigned thread_rank() const { return 0; }
  template <class T>
  __device__ T shfl(T v, int) const {
    return v;
  }
  template <class T>
  __device__ T shfl_xor(T v, unsigned) const {
    return v;
  }
  __device__ unsigned ballot(bool p) const { return p ? 1u : 0u; }
  __device__ bool any(bool p) const { return p; }
  __device__ bool all(bool p) const { return p; }
  __device__ void sync() const {}
};

/// The calling lane's kTile-lane tile of `warp` (kTile = 1, 2, 4, 8, 16 or 32): a
/// cooperative_groups tile, or thread_tile for kTile == 1.
template <int kTile>
__device__ inline auto partition_warp(const warp_tile& warp) {
  if constexpr (kTile == 1)
    return thread_tile{};
  else if constexpr (kTile == 32)
    return warp;
  else
    return cooperative_groups::tiled_partition<kTile>(warp);
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
/// are spread evenly over the warp's kTile-lane tiles (kItemsPerWarp * kTile / 32 lanes of each
/// hold one), so kernels that run one task per kTile-lane tile keep all their tiles busy.
template <int kItemsPerWarp = 32, int kTile = 8, class F>
__device__ inline void warp_stride_loop(std::uint64_t n, F&& f) {
  static_assert(kItemsPerWarp == 4 || kItemsPerWarp == 8 || kItemsPerWarp == 16 ||
                kItemsPerWarp == 32);
  static_assert(kTile == 1 || kTile == 2 || kTile == 4 || kTile == 8 || kTile == 16 || kTile == 32);
  constexpr unsigned kPerTile = kItemsPerWarp * kTile / 32;
  static_assert(kPerTile >= 1, "fewer items than tiles per warp");
  const warp_tile tile = this_warp();
  const std::uint64_t thread = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const std::uint64_t warp = thread / 32;
  const std::uint64_t num_warps = (std::uint64_t{gridDim.x} * blockDim.x) / 32;
  const unsigned lane = tile.thread_rank();
  const unsigned slot = kItemsPerWarp == 32 ? lane : (lane / kTile) * kPerTile + (lane % kTile);
  const bool holds = kItemsPerWarp == 32 || (lane % kTile) < kPerTile;
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
