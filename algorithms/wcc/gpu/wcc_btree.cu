// GPU connected components (wcc.cuh) instantiated for the B-tree graph (graph/gpu/btree_graph.hpp):
// the same templates as for the slab graph, run through BTreeGraphRef (sorted leaves, descents for
// has_edge).
#include <warpgraph/algorithms/wcc/gpu/wcc.cuh>
#include <warpgraph/graph/gpu/btree_graph_ref.cuh>

namespace wg::gpu {

template Components connected_components(const BTreeGraph<false>&);
template Components connected_components(const BTreeGraph<true>&);
template class DynamicComponents<BTreeGraph<false>>;
template class DynamicComponents<BTreeGraph<true>>;

}  // namespace wg::gpu
