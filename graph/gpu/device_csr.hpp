#pragma once
// wg::gpu::DeviceCsr: a CSR snapshot of a GPU graph's adjacency left in device memory, for
// computations that want flat rows (the sorted triangle count, exports). Plain C++ may include
// this; graph/gpu/device_csr.cuh makes one from any graph.
#include <cstdint>

#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/core/types.hpp>

namespace wg::gpu {

/// Row v is targets[offsets[v], offsets[v + 1]); values (weighted graphs) beside the targets when
/// the maker copies them (it says whether it does, and whether rows come sorted).
struct DeviceCsr {
  std::uint64_t num_vertices = 0;
  DeviceBuffer<std::uint64_t> offsets;  ///< num_vertices + 1
  DeviceBuffer<vertex_t> targets;
  DeviceBuffer<std::uint32_t> values;  ///< weighted graphs only, where the maker copies them
};

}  // namespace wg::gpu
