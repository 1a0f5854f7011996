#pragma once
// The CLI's GPU sssp as a plain C++ function: the graph file's edges built into
// the GPU graph and searched there. Compiled only when CUDA is (WG_CLI_HAVE_GPU_TRAVERSAL).
#include <cstdint>
#include <vector>

#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/graph/edge_list.hpp>

namespace wg::cli {

struct GpuTraversalTimes {
  double build_seconds = 0;   ///< upload + bulk build of the GPU graph
  double search_seconds = 0;  ///< the search and the result's download
};

/// SSSP distances (+infinity when unreached) on the GPU graph of `edges`: the weighted (slab map)
/// graph when the file has weights, rounded to uint32 as the graph stores them (the last entry of
/// a repeated edge counts), else unit lengths.
std::vector<double> gpu_sssp_distances(const EdgeList& edges, bool directed, vertex_t source,
                                       GpuTraversalTimes& times);

}  // namespace wg::cli
