#pragma once
// The vertex dictionary's kernels: handles and degrees of new ids, and liveness of reused ones.
//
// Part of wg::gpu::DynamicGraph's implementation (private to graph/gpu): the kernels live in
// wg::gpu::detail::dictionary and are launched and instantiated by one translation unit.
#include <warpgraph/graph/gpu/slab/detail/kernels/kernel_common.cuh>

namespace wg::gpu::detail::dictionary {

__global__ void init_entries_kernel(VertexEntry* entries, std::uint32_t* degrees,
                                    std::uint64_t first, std::uint64_t count, slab::Slab* pool,
                                    const std::uint64_t* offsets) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    VertexEntry e;
    if (offsets) {
      e.buckets = pool + offsets[i];
      e.num_buckets = static_cast<std::uint32_t>(offsets[i + 1] - offsets[i]);
    } else {
      e.buckets = pool + i;
      e.num_buckets = 1;
    }
    e.live = 1;  // the caller marks the byte flags
    entries[first + i] = e;
    degrees[first + i] = 0;
  }
}

/// Makes the n (distinct) vertices of `ids` live again (ids taken from the free-id queue): both
/// copies of the flag (VertexEntry).
__global__ void mark_live_kernel(VertexEntry* entries, std::uint8_t* live, const vertex_t* ids,
                                 std::uint64_t n) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const vertex_t x = ids[i];
    entries[x].live = 1;
    live[x] = 1;
  }
}

}  // namespace wg::gpu::detail::dictionary
