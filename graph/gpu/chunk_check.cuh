#pragma once
// The device check of an uploaded host chunk, shared by the graph's EdgeList overloads
// (host_batch.cu) and the pipelined ingest (stream_ingest_impl.cuh): one pass over the entries
// on the device (a host loop took longer than the upload itself).
#include <cstdint>

#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::gpu::detail {

/// The chunk's id range (out[0]: 1 + its largest id below kNewVertexTag) and, with weights, their
/// uint32 values (rounded half away from zero, as llround for x >= 0) or the first entry whose
/// weight is outside the uint32 range (out[1] = ~entry, the largest ~i). out zeroed before.
__global__ inline void check_chunk_kernel(const vertex_t* src, const vertex_t* dst, std::uint64_t n,
                                          const double* weights, std::uint32_t* values,
                                          unsigned long long* out) {
  unsigned range = 0;
  // Every lane of a warp reaches the reduction below (the loop has no early exit).
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const vertex_t u = src[i], v = dst[i];
    if (u < kNewVertexTag) range = max(range, u + 1);
    if (v < kNewVertexTag) range = max(range, v + 1);
    if (weights) {
      const double x = weights[i];
      if (!(x >= 0 && x <= 4294967295.0)) {
        atomicMax(out + 1, ~static_cast<unsigned long long>(i));
      } else {
        // x - floor(x) is exact, unlike x + 0.5 (which rounds 0.49999999999999994 up).
        const double whole = floor(x);
        values[i] = static_cast<std::uint32_t>(whole) + (x - whole >= 0.5 ? 1u : 0u);
      }
    }
  }
  range = __reduce_max_sync(0xFFFFFFFFu, range);
  if ((threadIdx.x & 31u) == 0 && range) atomicMax(out, static_cast<unsigned long long>(range));
}

}  // namespace wg::gpu::detail
