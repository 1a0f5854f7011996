#pragma once
// Host batches (EdgeList) on the device: the upload that DynamicGraph's and
// IncrementalTriangleCounter's EdgeList overloads share, chunk by chunk. The id range a chunk
// needs and its weights' conversion are found on the device (a host loop took longer than the
// copy itself).
#include <cuda_runtime_api.h>

#include <cstdint>

#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/graph/gpu/edge_batch.hpp>

namespace wg::gpu {

/// One chunk of a host batch on the device, with its weights as uint32 values.
struct HostBatchUpload {
  DeviceBuffer<vertex_t> src, dst;
  DeviceBuffer<std::uint32_t> values;  ///< empty unless weights were asked for and present
  std::uint64_t id_range = 0;         ///< 1 + the largest id below kNewVertexTag (when checked)
  DeviceEdges view(std::uint64_t n) const {
    return {.src = src.data(),
            .dst = dst.data(),
            .values = values.empty() ? nullptr : values.data(),
            .size = n};
  }
};

/// Throws InvalidArgument unless e's src, dst (and weight, if any) have one size.
void check_sizes(const EdgeList& e);

/// Uploads entries off .. off + n - 1 of `e`. With `checked` it also finds their id range, and
/// with `with_values` (and a weighted `e`) it converts their weights to uint32, rounded half away
/// from zero. Either costs one kernel and one synchronisation; with neither, the upload is two
/// copies. A weight outside the uint32 range throws InvalidArgument naming its entry.
HostBatchUpload upload_host_batch(const EdgeList& e, std::uint64_t off, std::uint64_t n,
                                  bool with_values, bool checked, cudaStream_t stream);

}  // namespace wg::gpu
