// GPU SSSP (sssp.cuh) instantiated for the slab-hash dynamic graph. Another graph type is
// instantiated the same way in its own .cu; nothing here changes.
#include <warpgraph/algorithms/sssp/gpu/sssp.cuh>

namespace wg::gpu {

template SsspResult sssp(const DynamicGraph<SlabSetAdjacency>&, vertex_t, const SsspOptions&);
template SsspResult sssp(const DynamicGraph<SlabMapAdjacency>&, vertex_t, const SsspOptions&);
template class DynamicSssp<DynamicGraph<SlabSetAdjacency>>;
template class DynamicSssp<DynamicGraph<SlabMapAdjacency>>;

}  // namespace wg::gpu
