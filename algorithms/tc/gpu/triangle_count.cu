// The GPU triangle counters (triangle_count.cuh) instantiated for the slab-hash dynamic graph.
// Another graph type is instantiated the same way in its own .cu; nothing here changes.
#include <warpgraph/algorithms/tc/gpu/triangle_count.cuh>

namespace wg::gpu {

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
