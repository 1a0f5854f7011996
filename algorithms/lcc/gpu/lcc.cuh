#pragma once
// Definitions of the GPU local clustering coefficient (lcc.hpp), for .cu files: a graph type is
// instantiated by one line per template in a .cu of its own that includes this header.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <warpgraph/algorithms/gpu_dynamic_update.cuh>
#include <warpgraph/algorithms/lcc/gpu/lcc.hpp>
#include <warpgraph/algorithms/tc/gpu/triangle_count.cuh>
#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/graph/gpu/graph_ref.cuh>
#include <warpgraph/graph/gpu/launch_grid.hpp>

namespace wg::gpu {
namespace lcc_detail {

/// triangles[v] +/-= delta[v]; coefficient[v] refreshed from triangles[v] and the degree, and
/// counted in *moved when it changed. One thread per id.
template <class View>
__global__ void refresh_kernel(View g, std::uint64_t n, bool add, unsigned long long* triangles,
                               const unsigned long long* delta, double* coefficient,
                               unsigned long long* moved) {
  unsigned long long local = 0;
  for (std::uint64_t v = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; v < n;
       v += std::uint64_t{gridDim.x} * blockDim.x) {
    const unsigned long long t = add ? triangles[v] + delta[v] : triangles[v] - delta[v];
    triangles[v] = t;
    const double c = local_coefficient(t, g.degree(static_cast<vertex_t>(v)));
    local += coefficient[v] != c;
    coefficient[v] = c;
  }
  if (local) atomicAdd(moved, local);
}

template <GpuDynamicGraph Graph>
void require_undirected(const Graph& g) {
  if (g.directed()) throw InvalidArgument("local clustering coefficient needs an undirected graph");
}

}  // namespace lcc_detail

template <GpuDynamicGraph Graph>
LccResult local_clustering(const Graph& graph, const LccOptions&) {
  lcc_detail::require_undirected(graph);
  const TriangleCounts t = count_triangles_per_vertex(graph);
  const std::vector<std::uint32_t> degree = graph.degrees();
  return lcc_from_counts(std::span<const std::uint64_t>(t.per_vertex),
                         std::span<const std::uint32_t>(degree));
}

template <GpuDynamicGraph Graph>
DynamicLocalClustering<Graph>::DynamicLocalClustering(Graph& graph, const LccOptions& options)
    : Frame(graph), options_(options) {
  lcc_detail::require_undirected(graph);
  recompute();
}

template <GpuDynamicGraph Graph>
void DynamicLocalClustering<Graph>::recompute() {
  this->mark_current();
  const cudaStream_t stream = graph_->stream();
  n_ = graph_->num_vertices();
  const std::uint64_t room = std::max<std::uint64_t>(n_, 1);
  triangles_.resize_discard(room, "lcc triangles");
  delta_.resize_discard(room, "lcc batch triangles");
  coefficient_.resize_discard(room, "lcc coefficients");
  moved_.resize_discard(1, "lcc counter");
  triangles_.fill_bytes(0, stream);
  delta_.fill_bytes(0, stream);
  coefficient_.fill_bytes(0, stream);
  total_ = tc_detail::run_static<Graph, true>(*graph_, TcTuning{}, triangles_.data());
  (void)apply(true);  // delta_ is 0: the coefficients from the counts
}

template <GpuDynamicGraph Graph>
void DynamicLocalClustering<Graph>::grow() {
  const std::uint64_t n = graph_->num_vertices();
  if (n <= n_) return;
  const cudaStream_t stream = graph_->stream();
  DeviceBuffer<unsigned long long> t(n, stream, "lcc triangles");
  DeviceBuffer<double> c(n, stream, "lcc coefficients");
  t.fill_bytes(0, stream);
  c.fill_bytes(0, stream);
  if (n_) {
    WG_CUDA_TRY(cudaMemcpyAsync(t.data(), triangles_.data(), n_ * sizeof(unsigned long long),
                                cudaMemcpyDeviceToDevice, stream));
    WG_CUDA_TRY(cudaMemcpyAsync(c.data(), coefficient_.data(), n_ * sizeof(double),
                                cudaMemcpyDeviceToDevice, stream));
  }
  triangles_ = std::move(t);
  coefficient_ = std::move(c);
  delta_.resize_discard(n, "lcc batch triangles");
  n_ = n;
}

template <GpuDynamicGraph Graph>
std::uint64_t DynamicLocalClustering<Graph>::apply(bool add) {
  if (n_ == 0) return 0;
  const cudaStream_t stream = graph_->stream();
  moved_.fill_bytes(0, stream);
  lcc_detail::refresh_kernel<typename Graph::ref_type><<<grid_for(n_), kBlock, 0, stream>>>(
      graph_->ref(), n_, add, triangles_.data(), delta_.data(), coefficient_.data(), moved_.data());
  WG_CUDA_CHECK_LAST();
  return moved_.to_host(1)[0];
}

template <GpuDynamicGraph Graph>
BatchEffect DynamicLocalClustering<Graph>::on_after_insert(const ChangedEdges& added) {
  grow();
  if (added.size == 0) return {};
  delta_.fill_bytes(0, graph_->stream());
  total_ += count_triangles_touching_per_vertex(*graph_, added.keys, added.size, added.key_bits,
                                                delta_.data());
  return {.changed = apply(true), .recomputed = false};
}

template <GpuDynamicGraph Graph>
void DynamicLocalClustering<Graph>::on_before_erase(const ChangedEdges& removed) {
  grow();
  delta_.fill_bytes(0, graph_->stream());
  if (removed.size == 0) return;
  total_ -= count_triangles_touching_per_vertex(*graph_, removed.keys, removed.size,
                                                removed.key_bits, delta_.data());
}

template <GpuDynamicGraph Graph>
BatchEffect DynamicLocalClustering<Graph>::on_after_erase(const ChangedEdges& removed) {
  if (removed.size == 0) return {};
  return {.changed = apply(false), .recomputed = false};
}

template <GpuDynamicGraph Graph>
LccResult DynamicLocalClustering<Graph>::result() const {
  LccResult r;
  if (n_) r.coefficient = coefficient_.to_host(graph_->stream(), n_);
  r.average = average_coefficient(r.coefficient);
  r.triangles = total_;
  return r;
}

template <GpuDynamicGraph Graph>
std::vector<std::uint64_t> DynamicLocalClustering<Graph>::triangles_per_vertex() const {
  if (!n_) return {};
  const std::vector<unsigned long long> t = triangles_.to_host(graph_->stream(), n_);
  return {t.begin(), t.end()};
}

}  // namespace wg::gpu
