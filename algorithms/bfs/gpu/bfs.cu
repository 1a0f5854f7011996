// GPU BFS (bfs.cuh) instantiated for the slab-hash dynamic graph. Another graph type is
// instantiated the same way in its own .cu; nothing here changes.
#include <warpgraph/algorithms/bfs/gpu/bfs.cuh>

namespace wg::gpu {

template BfsResult bfs(const DynamicGraph<SlabSetAdjacency>&, vertex_t, const BfsOptions&);
template BfsResult bfs(const DynamicGraph<SlabMapAdjacency>&, vertex_t, const BfsOptions&);
template class DynamicBfs<DynamicGraph<SlabSetAdjacency>>;
template class DynamicBfs<DynamicGraph<SlabMapAdjacency>>;

}  // namespace wg::gpu
