#pragma once
// Definitions of GPU SSSP (sssp.hpp), for .cu files, and the shortest-path machinery that the
// dynamic BFS shares (namespace wg::gpu::sp): packed (distance, parent) keys, relaxation rounds,
// the tree walk that finds a deletion's affected subtrees, and the pull that re-seeds them.
// Kernels use only the DeviceGraphView (graph/graph_concepts.hpp), so they run on the dynamic
// graph and on CsrGraph alike; the dynamic classes also use the graph's prepared-batch calls.
//
// Memory order: keys are read and changed with relaxed device-scope atomics (one 64-bit CAS per
// improvement); no thread reads a value that another writes non-atomically in the same kernel.
// Kernels are ordered by the stream, which makes one kernel's writes visible to the next.
#include <cstdint>
#include <span>
#include <string>

#include <warpgraph/algorithms/single_source.hpp>
#include <warpgraph/algorithms/sssp/gpu/detail/dynamic_core.cuh>
#include <warpgraph/algorithms/sssp/gpu/detail/dynamic_search.cuh>
#include <warpgraph/algorithms/sssp/gpu/detail/kernels.cuh>
#include <warpgraph/algorithms/sssp/gpu/detail/rounds.cuh>
#include <warpgraph/algorithms/sssp/gpu/sssp.hpp>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/graph/gpu/batch_chunks.hpp>
#include <warpgraph/graph/gpu/csr_graph.cuh>
#include <warpgraph/graph/gpu/graph_ref.cuh>
#include <warpgraph/graph/gpu/host_batch.hpp>

namespace wg::gpu {

/// Static SSSP on any DeviceGraphView of `num_vertices` ids (directed or not: the view's arcs are
/// followed), ordered on `stream`. InvalidArgument when source >= num_vertices.
template <class View>
SsspResult sssp(const View& g, std::uint64_t num_vertices, vertex_t source, cudaStream_t stream,
                const SsspOptions& options = {}, const SsspTuning& tuning = {}) {
  require_source("wg::gpu::sssp", source, num_vertices);
  ShortestPathState st;
  configure(st, tuning);
  sp::static_sssp(g, num_vertices, source, st, options.unit_weights, stream);
  return sp::download(st, num_vertices, stream);
}

/// Static SSSP on a CsrGraph.
template <bool Weighted>
SsspResult sssp(const CsrGraph<Weighted>& g, vertex_t source, const SsspOptions& options = {},
                const SsspTuning& tuning = {}) {
  return sssp(g.ref(), g.num_vertices(), source, g.stream(), options, tuning);
}

template <GpuDynamicGraph Graph>
SsspResult sssp(const Graph& graph, vertex_t source, const SsspOptions& options,
                const SsspTuning& tuning) {
  return sssp(graph.ref(), graph.num_vertices(), source, graph.stream(), options, tuning);
}

template <GpuDynamicGraph Graph>
DynamicSssp<Graph>::DynamicSssp(Graph& graph, vertex_t source, const SsspOptions& options,
                                const SsspTuning& tuning)
    : Search(graph, source, tuning, options.unit_weights, "wg::gpu::DynamicSssp"),
      options_(options) {
  this->recompute();
}

template <GpuDynamicGraph Graph>
void DynamicSssp<Graph>::search_into_keys(cudaStream_t s) {
  sp::static_sssp(this->graph_->ref(), this->state_.n, this->source(), this->state_,
                  options_.unit_weights, s);
}

template <GpuDynamicGraph Graph>
SsspResult DynamicSssp<Graph>::result() const {
  return sp::download(this->state_, this->graph_->num_vertices(), this->graph_->stream());
}

}  // namespace wg::gpu
