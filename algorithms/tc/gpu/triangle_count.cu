// The GPU triangle counters (triangle_count.cuh) instantiated for the slab-hash dynamic graph,
// and the incremental counter's batch members, which use the graph's batch engine.
#include <algorithm>

#include <warpgraph/algorithms/tc/gpu/triangle_count.cuh>
#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/work_sharing.cuh>
#include <warpgraph/graph/gpu/batch_chunks.hpp>
#include <warpgraph/graph/gpu/batch_prep.hpp>
#include <warpgraph/graph/gpu/graph_ref.cuh>
#include <warpgraph/graph/gpu/host_batch.hpp>
#include <warpgraph/graph/gpu/launch_grid.hpp>

namespace wg::gpu {

namespace tc_detail {
__global__ void key_set_insert_kernel(EdgeKeySet set, const std::uint64_t* keys, std::uint64_t n) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    set.insert(keys[i]);
}
}  // namespace tc_detail

// ---- incremental ----------------------------------------------------------------------------

template <GpuDynamicGraph Graph>
typename IncrementalTriangleCounter<Graph>::BatchResult
IncrementalTriangleCounter<Graph>::insert_edges(DeviceEdges batch) {
  BatchResult out;
  Graph& g = *graph_;
  const cudaStream_t stream = g.stream();
  for_each_chunk(batch, g.batch_chunk(batch.size), true, [&](DeviceEdges part) {
    const PreparedBatch p = g.prepare(part);
    DeviceBuffer<std::uint8_t> is_new(std::max<std::uint64_t>(p.size, 1), stream, "new-edge flags");
    out.update += g.insert_prepared(p, is_new.data());
    if (p.size == 0) return;
    DeviceBuffer<std::uint64_t> added(p.size, stream, "new edges");
    const std::uint64_t m = select_flagged(p.keys.data(), nullptr, is_new.data(), p.size,
                                           added.data(), nullptr, stream);
    const std::uint64_t created = count_triangles_touching(g, added.data(), m, p.key_bits);
    out.triangles += created;
    total_ += created;
  });
  out.total = total_;
  return out;
}

template <GpuDynamicGraph Graph>
typename IncrementalTriangleCounter<Graph>::BatchResult
IncrementalTriangleCounter<Graph>::erase_edges(DeviceEdges batch) {
  BatchResult out;
  Graph& g = *graph_;
  const cudaStream_t stream = g.stream();
  for_each_chunk(batch, g.batch_chunk(batch.size), false, [&](DeviceEdges part) {
    const PreparedBatch p = g.prepare(part);
    if (p.size == 0) {
      out.update += p.dropped;
      return;
    }
    DeviceBuffer<std::uint8_t> present(p.size, stream, "present flags");
    g.contains_prepared(p, present.data());
    PreparedBatch d;
    d.keys = DeviceBuffer<std::uint64_t>(p.size, stream, "edges to remove");
    d.size = select_flagged(p.keys.data(), nullptr, present.data(), p.size, d.keys.data(), nullptr,
                            stream);
    d.key_bits = p.key_bits;
    d.entries = p.entries;
    d.dropped = p.dropped;
    // Count on the graph before removal.
    const std::uint64_t destroyed = count_triangles_touching(g, d.keys.data(), d.size, d.key_bits);
    UpdateResult r = g.erase_prepared(d);
    r.ignored += p.size - d.size;  // absent edges
    out.update += r;
    out.triangles += destroyed;
    total_ -= destroyed;
  });
  out.total = total_;
  return out;
}

template <GpuDynamicGraph Graph>
typename IncrementalTriangleCounter<Graph>::BatchResult
IncrementalTriangleCounter<Graph>::insert_edges(const EdgeList& batch) {
  check_sizes(batch);
  // Ids past the current range grow it, weights become values, as in
  // DynamicGraph::insert_edges(EdgeList) (the same upload).
  graph_->grow_vertices(batch.num_vertices);
  BatchResult out;
  for_each_host_chunk(batch, graph_->batch_chunk(batch.size()), Graph::ref_type::weighted, true,
                      graph_->stream(), [&](const HostBatchUpload& up, DeviceEdges part) {
                        graph_->grow_vertices(up.id_range);
                        const BatchResult r = insert_edges(part);
                        out.update += r.update;
                        out.triangles += r.triangles;
                      });
  out.total = total_;
  return out;
}

template <GpuDynamicGraph Graph>
typename IncrementalTriangleCounter<Graph>::BatchResult
IncrementalTriangleCounter<Graph>::erase_edges(const EdgeList& batch) {
  check_sizes(batch);
  BatchResult out;
  for_each_host_chunk(batch, graph_->batch_chunk(batch.size()), false, false, graph_->stream(),
                      [&](const HostBatchUpload&, DeviceEdges part) {
                        const BatchResult r = erase_edges(part);
                        out.update += r.update;
                        out.triangles += r.triangles;
                      });
  out.total = total_;
  return out;
}

template std::uint64_t count_triangles(const DynamicGraph<SlabSetAdjacency>&, const TcOptions&);
template std::uint64_t count_triangles(const DynamicGraph<SlabMapAdjacency>&, const TcOptions&);
template TriangleCounts count_triangles_per_vertex(const DynamicGraph<SlabSetAdjacency>&,
                                                   const TcOptions&);
template TriangleCounts count_triangles_per_vertex(const DynamicGraph<SlabMapAdjacency>&,
                                                   const TcOptions&);
template std::uint64_t count_triangles_touching(const DynamicGraph<SlabSetAdjacency>&,
                                                const std::uint64_t*, std::uint64_t, unsigned);
template std::uint64_t count_triangles_touching(const DynamicGraph<SlabMapAdjacency>&,
                                                const std::uint64_t*, std::uint64_t, unsigned);
template class IncrementalTriangleCounter<DynamicGraph<SlabSetAdjacency>>;
template class IncrementalTriangleCounter<DynamicGraph<SlabMapAdjacency>>;

}  // namespace wg::gpu
