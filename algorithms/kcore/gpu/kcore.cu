// The GPU core numbers (kcore.cuh) instantiated for the slab-hash dynamic graph. Another graph
// type is instantiated the same way in its own .cu; nothing here changes.
#include <warpgraph/algorithms/kcore/gpu/kcore.cuh>

namespace wg::gpu {

template CoreNumbers core_numbers(const DynamicGraph<SlabSetAdjacency>&);
template CoreNumbers core_numbers(const DynamicGraph<SlabMapAdjacency>&);
template class DynamicCoreNumbers<DynamicGraph<SlabSetAdjacency>>;
template class DynamicCoreNumbers<DynamicGraph<SlabMapAdjacency>>;

}  // namespace wg::gpu
