// Pipelined ingest (stream_ingest.hpp): the host helpers, and the ingest over the slab store.
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/gpu/stream_ingest_impl.cuh>

namespace wg::gpu {

HostEdges host_edges(const EdgeList& e) {
  check_sizes(e);
  return span_of(e);
}

template class StreamIngest<DynamicGraph<SlabSetAdjacency>>;
template class StreamIngest<DynamicGraph<SlabMapAdjacency>>;

}  // namespace wg::gpu
