#pragma once
// What the parts of wg::gpu::DynamicGraph share (private to graph/gpu): the options, the stream,
// the statistics, the edge count and the small counter words that kernels report through; and
// the launch shapes that depend on the GPU. Each part (VertexDictionary, SlabPools,
// RebuildPlanner, BatchEngine) holds a reference to the graph's one GraphContext.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/gpu/launch_grid.hpp>
#include <warpgraph/graph/gpu/slab/detail/kernels/kernel_common.cuh>

namespace wg::gpu::detail {

/// Options, stream, statistics and counters of one graph.
struct GraphContext {
  explicit GraphContext(const GraphOptions& o)
      : opt(o), stream(o.stream), counters(1, o.stream, "graph counters") {}

  GraphOptions opt;
  cudaStream_t stream = 0;
  GraphStats counts;                // stats()
  std::uint64_t edges = 0;          // num_edges()
  DeviceBuffer<Counters> counters;  // what the graph's small kernels count

  void zero_counters() {
    WG_CUDA_TRY(cudaMemsetAsync(counters.data(), 0, sizeof(Counters), stream));
  }
  Counters read_counters() { return counters.to_host()[0]; }
};

/// A batch size threshold 2^k (SlabBatchTuning's *_log2 fields); k >= SlabBatchTuning::kNever means
/// no batch (all ones), k < 0 counts as 0.
inline std::uint64_t log2_threshold(int k) {
  return k >= SlabBatchTuning::kNever ? ~std::uint64_t{0} : std::uint64_t{1} << std::max(k, 0);
}

/// An attribute of the current device, 0 when it cannot be read (the callers then fall back:
/// a minimal grid, no L2-resident graphs).
inline std::uint64_t device_attribute(cudaDeviceAttr what) {
  int dev = 0, value = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&value, what, dev) != cudaSuccess)
    value = 0;
  (void)cudaGetLastError();
  return static_cast<std::uint64_t>(std::max(value, 0));
}

/// The GPU's resident threads (multiprocessors x threads per multiprocessor).
inline std::uint64_t resident_threads() {
  static const std::uint64_t t =
      std::max<std::uint64_t>(32, device_attribute(cudaDevAttrMultiProcessorCount) *
                                      device_attribute(cudaDevAttrMaxThreadsPerMultiProcessor));
  return t;
}

/// Grid of a batch kernel for `threads` threads of work: at most twice the GPU's thread
/// capacity, the warps striding over the rest. A block lives as long as its slowest warp, so
/// warps that stride over several rounds of entries wait less for their block's barrier than
/// warps of one round each.
inline unsigned striding_grid(std::uint64_t threads) {
  return grid_for(std::min<std::uint64_t>(threads, 2 * resident_threads()));
}
/// striding_grid for work whose size only the device knows: the whole cap.
inline unsigned full_striding_grid() {
  return grid_for(2 * resident_threads());
}

}  // namespace wg::gpu::detail
