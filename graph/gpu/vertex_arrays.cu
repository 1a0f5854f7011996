// VertexArrays (vertex_arrays.hpp).
#include <algorithm>
#include <string>
#include <utility>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/graph/gpu/launch_grid.hpp>
#include <warpgraph/graph/gpu/vertex_arrays.hpp>

namespace wg::gpu {
namespace {

/// Sets live[ids[i]] = value and zeroes the degree.
__global__ void set_live_kernel(const vertex_t* ids, std::uint64_t n, std::uint8_t* live,
                                std::uint32_t* degrees, std::uint8_t value) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    live[ids[i]] = value;
    degrees[ids[i]] = 0;
  }
}

}  // namespace

void VertexArrays::grow(std::uint64_t n) {
  if (n <= nv) return;
  if (n > kVertexIdLimit)
    throw InvalidArgument("vertex id range of " + std::to_string(n) +
                          " is past the id limit of 2^31");
  const cudaStream_t stream = array_stream;
  if (n > degrees.size()) {
    const std::uint64_t cap = std::max<std::uint64_t>(n, 2 * degrees.size());
    DeviceBuffer<std::uint32_t> d(cap, stream, "vertex degrees");
    DeviceBuffer<std::uint8_t> l(cap, stream, "vertex live flags");
    if (nv) {
      WG_CUDA_TRY(
          cudaMemcpyAsync(d.data(), degrees.data(), nv * 4, cudaMemcpyDeviceToDevice, stream));
      WG_CUDA_TRY(cudaMemcpyAsync(l.data(), live.data(), nv, cudaMemcpyDeviceToDevice, stream));
    }
    degrees = std::move(d);
    live = std::move(l);
  }
  WG_CUDA_TRY(cudaMemsetAsync(degrees.data() + nv, 0, (n - nv) * 4, stream));
  WG_CUDA_TRY(cudaMemsetAsync(live.data() + nv, 1, n - nv, stream));
  nv = n;
}

void VertexArrays::revive(const vertex_t* ids, std::uint64_t k) {
  if (k == 0) return;
  set_live_kernel<<<grid_for(k), kBlock, 0, array_stream>>>(ids, k, live.data(), degrees.data(), 1);
  WG_CUDA_CHECK_LAST();
}

void VertexArrays::retire(const vertex_t* ids, std::uint64_t k) {
  if (k == 0) return;
  set_live_kernel<<<grid_for(k), kBlock, 0, array_stream>>>(ids, k, live.data(), degrees.data(), 0);
  WG_CUDA_CHECK_LAST();
}

void VertexArrays::reset(std::uint64_t n) {
  nv = 0;
  edges = 0;
  grow(n);
  if (nv == 0) return;
  WG_CUDA_TRY(cudaMemsetAsync(degrees.data(), 0, nv * 4, array_stream));
  WG_CUDA_TRY(cudaMemsetAsync(live.data(), 1, nv, array_stream));
}

}  // namespace wg::gpu
