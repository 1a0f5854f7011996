#pragma once
// What every kernel of the dynamic graph shares: launch grids, counter words, warp-wide sums.
//
// Part of wg::gpu::DynamicGraph's implementation (private to graph/gpu): device helpers and
// types of wg::gpu::detail, shared by the graph's kernel headers (no kernels here).
#include <cstdint>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/warp_primitives.cuh>
#include <warpgraph/containers/core/work_sharing.cuh>
#include <warpgraph/containers/slab_hash/slab_table_tile.cuh>
#include <warpgraph/containers/slab_hash/slab_table_tile.cuh>
#include <warpgraph/graph/gpu/slab/detail/table_sizing.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/gpu/graph_ref.cuh>
#include <warpgraph/graph/gpu/launch_grid.hpp>

namespace wg::gpu::detail {

// Kernels using warp_stride_loop deal 32 items per warp: grid_for(items). Warp-per-item
// kernels (one vertex per warp): warp_grid_for(items).
inline unsigned warp_grid_for(std::uint64_t items) {
  return grid_for(items * 32);
}

struct Counters {
  unsigned long long a, b, c, d;
};

__device__ __forceinline__ void warp_add(const warp_tile& tile, unsigned long long* target,
                                         unsigned value) {
  value = __reduce_add_sync(0xFFFFFFFFu, value);
  if (tile.thread_rank() == 0 && value) atomicAdd(target, static_cast<unsigned long long>(value));
}

/// Adds each lane's `count` to degree[x] with one atomic per distinct x in the warp (batches
/// are sorted by source, so a warp's lanes mostly share it: hubs would serialise on atomics).
__device__ __forceinline__ void add_degrees(const warp_tile& tile, std::uint32_t* degrees,
                                            vertex_t x, bool valid, int delta) {
  const WarpPeers p = warp_peers(tile, valid && delta != 0, x);
  if (p.leader)
    atomicAdd(degrees + x, static_cast<std::uint32_t>(static_cast<int>(p.size) * delta));
}

/// Kernels that share the buckets of m items (vertices) over all warps number them through
/// `offsets`, the exclusive prefix sum of the items' bucket counts: bucket b belongs to the last
/// item i < m with offsets[i] <= b (items with no buckets have empty ranges). Binary search.
__device__ __forceinline__ std::uint64_t item_of_bucket(const std::uint64_t* offsets,
                                                        std::uint64_t m, std::uint64_t b) {
  std::uint64_t lo = 0, hi = m;
  while (hi - lo > 1) {
    const std::uint64_t mid = (lo + hi) / 2;
    if (offsets[mid] <= b)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

}  // namespace wg::gpu::detail
