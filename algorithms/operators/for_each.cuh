#pragma once
// for_each: f(v) once per vertex of a frontier (or every id below n: all_vertices), a thread
// each, grid-striding, so a grid of any size covers a frontier whose size only the device knows.
// f runs on diverged threads (no tile operations). No host synchronisation. Work: O(frontier).
#include <cstdint>

#include <warpgraph/algorithms/operators/frontier.cuh>
#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/graph/gpu/launch_grid.hpp>

namespace wg::gpu::ops {
namespace detail {

template <class F>
__global__ void for_each_kernel(FrontierIn in, F f) {
  const std::uint64_t count = in.count();
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    f(in.items ? in.items[i] : static_cast<vertex_t>(i));
}

}  // namespace detail

/// f(v) for each v of `in`, on `grid` blocks of kBlock threads (grid_for(in.size) by default).
template <class F>
void for_each(const FrontierIn& in, const F& f, cudaStream_t stream, unsigned grid = 0) {
  detail::for_each_kernel<<<grid ? grid : grid_for(in.size), kBlock, 0, stream>>>(in, f);
  WG_CUDA_CHECK_LAST();
}

}  // namespace wg::gpu::ops
