// Pipelined ingest (stream_ingest.hpp) over the B-tree store.
#include <warpgraph/graph/gpu/btree_graph.hpp>
#include <warpgraph/graph/gpu/stream_ingest_impl.cuh>

namespace wg::gpu {

template class StreamIngest<BTreeGraph<false>>;
template class StreamIngest<BTreeGraph<true>>;

}  // namespace wg::gpu
