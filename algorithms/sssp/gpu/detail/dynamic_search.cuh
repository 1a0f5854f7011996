#pragma once
// Definitions of sp::DynamicSearch (sssp/gpu/dynamic_search.hpp): each hook builds the repair
// machinery over the object's state (DynamicCore, dynamic_core.cuh) and runs it, with the
// derived class's static search as the fallback.
#include <string>

#include <warpgraph/algorithms/single_source.hpp>
#include <warpgraph/algorithms/sssp/gpu/detail/dynamic_core.cuh>
#include <warpgraph/algorithms/sssp/gpu/detail/kernels.cuh>
#include <warpgraph/algorithms/sssp/gpu/dynamic_search.hpp>
#include <warpgraph/containers/core/error.hpp>

namespace wg::gpu::sp {

template <class Search, GpuDynamicGraph Graph>
DynamicSearch<Search, Graph>::DynamicSearch(Graph& graph, vertex_t source,
                                            const SearchTuning& tuning, bool unit_lengths,
                                            const char* who)
    : Frame(graph),
      source_(source),
      switches_{.unit_lengths = unit_lengths,
                .recompute_fraction = tuning.recompute_fraction,
                .recompute_batch_fraction = tuning.recompute_batch_fraction} {
  configure(state_, tuning);
  require_source(who, source, graph.num_vertices());
}

template <class Search, GpuDynamicGraph Graph>
DynamicCore<Graph> DynamicSearch<Search, Graph>::dynamic_core() {
  return {*graph_,
          state_,
          source_,
          source_live_,
          switches_.unit_lengths,
          switches_.recompute_fraction,
          switches_.recompute_batch_fraction};
}

template <class Search, GpuDynamicGraph Graph>
void DynamicSearch<Search, Graph>::recompute() {
  this->mark_current();
  const cudaStream_t s = graph_->stream();
  ensure_size(state_, graph_->num_vertices(), s);
  if (!source_live_) {
    fill_keys_kernel<<<grid_for(state_.n), kBlock, 0, s>>>(state_.keys.data(), 0, state_.n);
    WG_CUDA_CHECK_LAST();
    return;
  }
  static_cast<Search&>(*this).search_into_keys(s);
}

template <class Search, GpuDynamicGraph Graph>
DynamicUpdate<UpdateResult> DynamicSearch<Search, Graph>::insert_through(DeviceEdges batch) {
  return dynamic_core().insert(batch, [&] { recompute(); });
}

template <class Search, GpuDynamicGraph Graph>
DynamicUpdate<UpdateResult> DynamicSearch<Search, Graph>::erase_through(DeviceEdges batch) {
  return dynamic_core().erase(batch, [&] { recompute(); });
}

template <class Search, GpuDynamicGraph Graph>
BatchEffect DynamicSearch<Search, Graph>::on_after_insert(const ChangedEdges& added) {
  return dynamic_core().after_insert(added, [&] { recompute(); });
}

template <class Search, GpuDynamicGraph Graph>
void DynamicSearch<Search, Graph>::on_before_erase(const ChangedEdges& removed) {
  dynamic_core().before_erase(removed, erase_n0_, erase_seeded_);
}

template <class Search, GpuDynamicGraph Graph>
BatchEffect DynamicSearch<Search, Graph>::on_after_erase(const ChangedEdges&) {
  const BatchEffect e = dynamic_core().after_erase(erase_n0_, erase_seeded_, [&] { recompute(); });
  erase_seeded_ = false;
  return e;
}

template <class Search, GpuDynamicGraph Graph>
DynamicUpdate<VertexEraseResult> DynamicSearch<Search, Graph>::erase_vertices_through(
    std::span<const vertex_t> ids) {
  return dynamic_core().erase_vertices(ids, [&] { recompute(); });
}

/// Host batches: uploaded chunk by chunk as the graph's EdgeList overloads upload them (ids past
/// the range grow it, weights become values), each chunk followed as a device batch.
template <class Search, GpuDynamicGraph Graph>
DynamicUpdate<UpdateResult> DynamicSearch<Search, Graph>::insert_through(const EdgeList& batch) {
  return insert_host_batch(*graph_, batch, [&](DeviceEdges part) { return insert_through(part); });
}

template <class Search, GpuDynamicGraph Graph>
DynamicUpdate<UpdateResult> DynamicSearch<Search, Graph>::erase_through(const EdgeList& batch) {
  return erase_host_batch(*graph_, batch, [&](DeviceEdges part) { return erase_through(part); });
}

}  // namespace wg::gpu::sp
