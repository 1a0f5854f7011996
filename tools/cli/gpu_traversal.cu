// The CLI's GPU traversals (gpu_traversal.hpp).
#include "gpu_traversal.hpp"

#include <chrono>
#include <limits>

#include <warpgraph/algorithms/sssp/gpu/sssp.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#include "gpu_preload.cuh"

namespace wg::cli {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// The input built into a graph: from the file's upload when there is one (gpu_preload.cuh).
void build_input(gpu::Graph& g, const EdgeList& edges) {
  build_gpu_graph(g, edges);
}
void build_input(gpu::WeightedGraph& g, const EdgeList& edges) {
  drop_gpu_upload();  // it holds no weights
  g.build(edges);
}

}  // namespace

std::vector<double> gpu_sssp_distances(const EdgeList& edges, bool directed, vertex_t source,
                                       GpuTraversalTimes& times) {
  auto run = [&](auto& g) {
    const auto t0 = Clock::now();
    build_input(g, edges);
    times.build_seconds = since(t0);
    const auto t1 = Clock::now();
    const gpu::SsspResult r = gpu::sssp(g, source);
    std::vector<double> dist(r.distance.size());
    for (std::size_t v = 0; v < dist.size(); ++v)
      dist[v] = r.distance[v] == gpu::kSsspUnreached ? std::numeric_limits<double>::infinity()
                                                     : static_cast<double>(r.distance[v]);
    times.search_seconds = since(t1);
    return dist;
  };
  if (edges.weighted()) {
    gpu::WeightedGraph g(0, {.directed = directed});
    return run(g);
  }
  gpu::Graph g(0, {.directed = directed});
  return run(g);
}

}  // namespace wg::cli
