// GPU local clustering coefficient (lcc.cuh) instantiated for the slab-hash dynamic graph.
// Another graph type is instantiated the same way in its own .cu; nothing here changes.
#include <warpgraph/algorithms/lcc/gpu/lcc.cuh>

namespace wg::gpu {

template LccResult local_clustering(const DynamicGraph<SlabSetAdjacency>&, const LccOptions&);
template LccResult local_clustering(const DynamicGraph<SlabMapAdjacency>&, const LccOptions&);
template class DynamicLocalClustering<DynamicGraph<SlabSetAdjacency>>;
template class DynamicLocalClustering<DynamicGraph<SlabMapAdjacency>>;

}  // namespace wg::gpu
