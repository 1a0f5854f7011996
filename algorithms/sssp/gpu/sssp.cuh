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

#include <warpgraph/algorithms/sssp/gpu/detail/dynamic_core.cuh>
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
                const SsspOptions& options = {}) {
  if (source >= num_vertices)
    throw InvalidArgument("wg::gpu::sssp: source " + std::to_string(source) +
                          " is not below the id bound " + std::to_string(num_vertices));
  ShortestPathState st;
  st.split_degree = options.split_degree;
  st.split_parts = options.split_parts;
  st.near_far_delta = options.near_far_delta;
  st.rounds_per_check = options.rounds_per_check;
  sp::static_sssp(g, num_vertices, source, st, options.unit_weights, stream);
  return sp::download(st, num_vertices, stream);
}

/// Static SSSP on a CsrGraph.
template <bool Weighted>
SsspResult sssp(const CsrGraph<Weighted>& g, vertex_t source, const SsspOptions& options = {}) {
  return sssp(g.ref(), g.num_vertices(), source, g.stream(), options);
}

template <GpuDynamicGraph Graph>
SsspResult sssp(const Graph& graph, vertex_t source, const SsspOptions& options) {
  return sssp(graph.ref(), graph.num_vertices(), source, graph.stream(), options);
}

template <GpuDynamicGraph Graph>
DynamicSssp<Graph>::DynamicSssp(Graph& graph, vertex_t source, const DynamicSsspOptions& options)
    : Frame(graph), source_(source), options_(options) {
  state_.split_degree = options.sssp.split_degree;
  state_.split_parts = options.sssp.split_parts;
  state_.rounds_per_check = options.sssp.rounds_per_check;
  state_.near_far_delta = options.sssp.near_far_delta;
  if (source >= graph.num_vertices())
    throw InvalidArgument("wg::gpu::DynamicSssp: source " + std::to_string(source) +
                          " is not below the id bound " + std::to_string(graph.num_vertices()));
  recompute();
}

template <GpuDynamicGraph Graph>
sp::DynamicCore<Graph> DynamicSssp<Graph>::dynamic_core() {
  return {*graph_,
          state_,
          source_,
          source_live_,
          options_.sssp.unit_weights,
          options_.recompute_fraction,
          options_.recompute_batch_fraction};
}

template <GpuDynamicGraph Graph>
void DynamicSssp<Graph>::recompute() {
  this->mark_current();
  const cudaStream_t s = graph_->stream();
  sp::ensure_size(state_, graph_->num_vertices(), s);
  if (!source_live_) {
    sp::fill_keys_kernel<<<grid_for(state_.n), kBlock, 0, s>>>(state_.keys.data(), 0, state_.n);
    WG_CUDA_CHECK_LAST();
    return;
  }
  sp::static_sssp(graph_->ref(), state_.n, source_, state_, options_.sssp.unit_weights, s);
}

template <GpuDynamicGraph Graph>
DynamicUpdate<UpdateResult> DynamicSssp<Graph>::insert_through(DeviceEdges batch) {
  sp::DynamicCore<Graph> core = dynamic_core();
  return core.insert(batch, [&] { recompute(); });
}

template <GpuDynamicGraph Graph>
DynamicUpdate<UpdateResult> DynamicSssp<Graph>::erase_through(DeviceEdges batch) {
  sp::DynamicCore<Graph> core = dynamic_core();
  return core.erase(batch, [&] { recompute(); });
}

template <GpuDynamicGraph Graph>
BatchEffect DynamicSssp<Graph>::on_after_insert(const ChangedEdges& added) {
  sp::DynamicCore<Graph> core = dynamic_core();
  return core.after_insert(added, [&] { recompute(); });
}

template <GpuDynamicGraph Graph>
void DynamicSssp<Graph>::on_before_erase(const ChangedEdges& removed) {
  sp::DynamicCore<Graph> core = dynamic_core();
  core.before_erase(removed, erase_n0_, erase_seeded_);
}

template <GpuDynamicGraph Graph>
BatchEffect DynamicSssp<Graph>::on_after_erase(const ChangedEdges&) {
  sp::DynamicCore<Graph> core = dynamic_core();
  const BatchEffect e = core.after_erase(erase_n0_, erase_seeded_, [&] { recompute(); });
  erase_seeded_ = false;
  return e;
}

template <GpuDynamicGraph Graph>
DynamicUpdate<VertexEraseResult> DynamicSssp<Graph>::erase_vertices_through(
    std::span<const vertex_t> ids) {
  sp::DynamicCore<Graph> core = dynamic_core();
  return core.erase_vertices(ids, [&] { recompute(); });
}

/// Host batches: uploaded as the graph's EdgeList overloads upload them (ids past the range
/// grow it, weights become values), then applied as device batches.
template <GpuDynamicGraph Graph>
DynamicUpdate<UpdateResult> DynamicSssp<Graph>::insert_through(const EdgeList& batch) {
  return sp::insert_host_batch(*graph_, batch,
                               [&](DeviceEdges part) { return insert_through(part); });
}

template <GpuDynamicGraph Graph>
DynamicUpdate<UpdateResult> DynamicSssp<Graph>::erase_through(const EdgeList& batch) {
  return sp::erase_host_batch(*graph_, batch,
                              [&](DeviceEdges part) { return erase_through(part); });
}

template <GpuDynamicGraph Graph>
SsspResult DynamicSssp<Graph>::result() const {
  return sp::download(state_, graph_->num_vertices(), graph_->stream());
}

}  // namespace wg::gpu
