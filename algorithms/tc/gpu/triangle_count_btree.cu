// The GPU triangle counters (triangle_count.cuh) instantiated for the B-tree graph
// (graph/gpu/btree_graph.hpp): the static count walks sorted leaves and looks neighbours up by
// tree descents; IncrementalTriangleCounter keeps exact counts through its batches. The sorted
// intersection count is count_triangles_sorted (sorted_triangle_count.hpp).
#include <warpgraph/algorithms/tc/gpu/triangle_count.cuh>
#include <warpgraph/graph/gpu/btree_graph_ref.cuh>

namespace wg::gpu {

template std::uint64_t count_triangles(const BTreeGraph<false>&, const TcOptions&);
template std::uint64_t count_triangles(const BTreeGraph<true>&, const TcOptions&);
template TriangleCounts count_triangles_per_vertex(const BTreeGraph<false>&, const TcOptions&);
template TriangleCounts count_triangles_per_vertex(const BTreeGraph<true>&, const TcOptions&);
template std::uint64_t count_triangles_touching(const BTreeGraph<false>&, const std::uint64_t*,
                                                std::uint64_t, unsigned);
template std::uint64_t count_triangles_touching(const BTreeGraph<true>&, const std::uint64_t*,
                                                std::uint64_t, unsigned);
template class IncrementalTriangleCounter<BTreeGraph<false>>;
template class IncrementalTriangleCounter<BTreeGraph<true>>;

}  // namespace wg::gpu
