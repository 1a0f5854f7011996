// The GPU components (wcc.cuh) instantiated for the slab-hash dynamic graph. Another graph type
// is instantiated the same way in its own .cu; nothing here changes.
#include <warpgraph/algorithms/wcc/gpu/wcc.cuh>

namespace wg::gpu {

template Components connected_components(const DynamicGraph<SlabSetAdjacency>&);
template Components connected_components(const DynamicGraph<SlabMapAdjacency>&);
template class DynamicComponents<DynamicGraph<SlabSetAdjacency>>;
template class DynamicComponents<DynamicGraph<SlabMapAdjacency>>;

}  // namespace wg::gpu
