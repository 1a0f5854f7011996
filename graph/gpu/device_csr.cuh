#pragma once
// device_csr(graph): a DeviceCsr (device_csr.hpp) of any GPU graph's adjacency, for .cu files.
// A graph whose store exports one itself (the B-tree graph: rows sorted, values copied) gives
// that; any other graph is read through its device view (DeviceGraphView): degrees, a scan for
// the offsets, then a warp per vertex walks its slots and packs the valid ones into its row.
// Rows then come in the view's slot order (not sorted) and values are not copied (the targets
// are what row-based computations read). O(V + E) (+ the view's empty slots); one host sync.
#include <cstdint>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/work_sharing.cuh>
#include <warpgraph/graph/gpu/batch_prep.hpp>
#include <warpgraph/graph/gpu/device_csr.hpp>
#include <warpgraph/graph/gpu/launch_grid.hpp>
#include <warpgraph/graph/graph_concepts.hpp>

namespace wg::gpu {
namespace device_csr_detail {

template <class View>
__global__ void row_lengths_kernel(View g, std::uint64_t n, std::uint64_t* len) {
  for (std::uint64_t v = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; v < n;
       v += std::uint64_t{gridDim.x} * blockDim.x) {
    const auto u = static_cast<vertex_t>(v);
    len[v] = g.is_live(u) ? g.degree(u) : 0;
  }
}

template <class View>
__global__ void pack_rows_kernel(View g, std::uint64_t n, const std::uint64_t* off,
                                 vertex_t* targets) {
  const warp_tile tile = this_warp();
  const unsigned below = (1u << tile.thread_rank()) - 1;
  const std::uint64_t warps = std::uint64_t{gridDim.x} * blockDim.x / 32;
  for (std::uint64_t v = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; v < n;
       v += warps) {
    const auto u = static_cast<vertex_t>(v);
    if (off[v] == off[v + 1]) continue;  // erased or no arcs (warp-uniform)
    std::uint64_t pos = off[v];
    g.for_each_neighbor_slot(tile, u, [&](vertex_t w, bool valid) {
      const unsigned mask = tile.ballot(valid);
      if (valid) targets[pos + __popc(mask & below)] = w;
      pos += __popc(mask);
    });
  }
}

}  // namespace device_csr_detail

/// The CSR of `num_vertices` ids read through a device view (rows in slot order, no values).
template <class View>
DeviceCsr device_csr_of_view(const View& g, std::uint64_t num_vertices, cudaStream_t stream) {
  using namespace device_csr_detail;
  DeviceCsr csr;
  const std::uint64_t n = num_vertices;
  csr.num_vertices = n;
  csr.offsets = DeviceBuffer<std::uint64_t>(n + 1, stream, "CSR offsets");
  if (n == 0) {
    csr.offsets.fill_bytes(0, stream);
    return csr;
  }
  {
    DeviceBuffer<std::uint64_t> len(n, stream, "CSR row lengths");
    row_lengths_kernel<<<grid_for(n), kBlock, 0, stream>>>(g, n, len.data());
    WG_CUDA_CHECK_LAST();
    exclusive_scan(len.data(), csr.offsets.data(), n, stream);
  }
  std::uint64_t arcs = 0;
  WG_CUDA_TRY(
      cudaMemcpyAsync(&arcs, csr.offsets.data() + n, sizeof arcs, cudaMemcpyDeviceToHost, stream));
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
  csr.targets = DeviceBuffer<vertex_t>(std::max<std::uint64_t>(arcs, 1), stream, "CSR targets");
  if (arcs) {
    pack_rows_kernel<<<grid_for(n * 32, std::uint64_t{1} << 16), kBlock, 0, stream>>>(
        g, n, csr.offsets.data(), csr.targets.data());
    WG_CUDA_CHECK_LAST();
  }
  return csr;
}

/// The graph's own device export where its store has one, else the view's (see the header).
template <GpuDynamicGraph Graph>
DeviceCsr device_csr(const Graph& graph) {
  if constexpr (requires { graph.export_device_csr(); })
    return graph.export_device_csr();
  else
    return device_csr_of_view(graph.ref(), graph.num_vertices(), graph.stream());
}

}  // namespace wg::gpu
