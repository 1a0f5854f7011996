// The GPU PageRank (pagerank.cuh) instantiated for the slab-hash dynamic graph. Another graph
// type is instantiated the same way in its own .cu; nothing here changes.
#include <warpgraph/algorithms/pagerank/gpu/pagerank.cuh>

namespace wg::gpu {

template PageRankResult pagerank(const DynamicGraph<SlabSetAdjacency>&, const PageRankOptions&);
template PageRankResult pagerank(const DynamicGraph<SlabMapAdjacency>&, const PageRankOptions&);
template class DynamicPageRank<DynamicGraph<SlabSetAdjacency>>;
template class DynamicPageRank<DynamicGraph<SlabMapAdjacency>>;

}  // namespace wg::gpu
