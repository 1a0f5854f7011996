// Host batches on the device (host_batch.hpp).
#include <string>
#include <vector>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/graph/gpu/host_batch.hpp>
#include <warpgraph/graph/gpu/launch_grid.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::gpu {
namespace detail::upload {

/// The chunk's id range (out[0]: 1 + the largest id below kNewVertexTag) and, with weights,
/// their uint32 values (rounded half away from zero, as llround for x >= 0) or the first entry
/// whose weight is outside the uint32 range (out[1] = ~entry). On the device: a host loop took
/// longer than the upload itself.
__global__ void check_upload_kernel(const vertex_t* src, const vertex_t* dst, std::uint64_t n,
                                    const double* weights, std::uint32_t* values,
                                    unsigned long long* out) {
  unsigned range = 0;
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

}  // namespace detail::upload
using namespace detail::upload;

void check_sizes(const EdgeList& e) {
  if (e.src.size() != e.dst.size() || (e.weighted() && e.weight.size() != e.src.size()))
    throw InvalidArgument("EdgeList: src, dst and weight sizes differ");
}

HostBatchUpload upload_host_batch(const EdgeList& e, std::uint64_t off, std::uint64_t n,
                                  bool with_values, bool checked, cudaStream_t stream) {
  HostBatchUpload u{.src = DeviceBuffer<vertex_t>(n, stream, "batch upload"),
                    .dst = DeviceBuffer<vertex_t>(n, stream, "batch upload"),
                    .values = {}};
  if (n == 0) return u;
  u.src.copy_from_host(e.src.data() + off, n);
  u.dst.copy_from_host(e.dst.data() + off, n);
  const bool convert = with_values && e.weighted();
  if (!convert && !checked) return u;
  DeviceBuffer<double> weights;
  if (convert) {
    weights = DeviceBuffer<double>(n, stream, "batch upload");
    weights.copy_from_host(e.weight.data() + off, n);
    u.values = DeviceBuffer<std::uint32_t>(n, stream, "batch upload");
  }
  DeviceBuffer<unsigned long long> out(2, stream, "batch upload check");
  WG_CUDA_TRY(cudaMemsetAsync(out.data(), 0, out.bytes(), stream));
  check_upload_kernel<<<grid_for(n), kBlock, 0, stream>>>(
      u.src.data(), u.dst.data(), n, convert ? weights.data() : nullptr,
      convert ? u.values.data() : nullptr, out.data());
  WG_CUDA_CHECK_LAST();
  const std::vector<unsigned long long> o = out.to_host();
  if (o[1]) {
    const std::uint64_t i = off + ~o[1];
    throw InvalidArgument("DynamicGraph: weight " + std::to_string(e.weight[i]) + " of entry " +
                          std::to_string(i) + " is outside the uint32 value range");
  }
  u.id_range = o[0];
  return u;
}

}  // namespace wg::gpu
