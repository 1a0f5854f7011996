// The GPU runs of the registered algorithms for the CLI (gpu_global.hpp).
#include "gpu_global.hpp"

#include <chrono>
#include <type_traits>
#include <utility>

#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#include "gpu_preload.cuh"
#define WG_REGISTERED_WITH_GPU 1
#include "registered_algorithms.hpp"

namespace wg::cli::gpu_global {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// The input as a GPU graph: `Graph` is gpu::WeightedGraph (the weights as uint32) for an entry
/// that reads_weights on a weighted file, else gpu::Graph (weights dropped).
template <class Graph>
Graph build(const EdgeList& edges, bool directed, Times& times) {
  const auto t0 = Clock::now();
  Graph g(0, gpu::GraphOptions{.directed = directed});
  if constexpr (std::is_same_v<Graph, gpu::WeightedGraph>) {
    drop_gpu_upload();  // it holds no weights
    g.build(edges);
  } else if (edges.weighted()) {
    EdgeList plain = edges;
    plain.weight.clear();
    build_gpu_graph(g, plain);
  } else {
    build_gpu_graph(g, edges);  // from the file's upload when there is one (gpu_preload.cuh)
  }
  // The whole id range, isolated ids included (as the reference numbers them).
  g.grow_vertices(edges.num_vertices);
  (void)g.degrees();  // waits for the build
  times.build_seconds = since(t0);
  return g;
}

/// The entry's run on the input built as a `Graph`.
template <class Entry, class Graph>
typename Entry::Result run_on(const EdgeList& edges, const typename Entry::Options& options,
                              Times& times) {
  bool directed = false;
  if constexpr (Entry::reads_direction) directed = options.directed;
  const Graph g = build<Graph>(edges, directed, times);
  const auto t0 = Clock::now();
  typename Entry::Result r = Entry::run(g, options);
  times.run_seconds = since(t0);
  return r;
}

}  // namespace

template <class Entry>
typename Entry::Result registered(const EdgeList& edges, const typename Entry::Options& options,
                                  Times& times) {
  if constexpr (Entry::reads_weights)
    if (edges.weighted() && !options.unit_weights)
      return run_on<Entry, gpu::WeightedGraph>(edges, options, times);
  return run_on<Entry, gpu::Graph>(edges, options, times);
}

#define WG_CLI_INSTANTIATE(Entry)                                    \
  template typename Entry::Result registered<Entry>(const EdgeList&, \
                                                    const typename Entry::Options&, Times&);
WG_REGISTERED_GPU(WG_CLI_INSTANTIATE)
#undef WG_CLI_INSTANTIATE

}  // namespace wg::cli::gpu_global
