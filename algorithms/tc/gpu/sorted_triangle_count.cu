// The incremental counter on the B-tree graph with the sorted-merge strategy
// (sorted_triangle_count.hpp); the merge kernel is in sorted_touching.cu.
#include <warpgraph/algorithms/tc/gpu/sorted_triangle_count.hpp>
#include <warpgraph/algorithms/tc/gpu/triangle_count.cuh>
#include <warpgraph/graph/gpu/btree_graph_ref.cuh>

namespace wg::gpu {

template class IncrementalTriangleCounter<BTreeGraph<false>, SortedCounting>;
template class IncrementalTriangleCounter<BTreeGraph<true>, SortedCounting>;

}  // namespace wg::gpu
