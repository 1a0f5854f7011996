// GPU core numbers (kcore.cuh) instantiated for the B-tree graph (graph/gpu/btree_graph.hpp): the
// same templates as for the slab graph, run through BTreeGraphRef (sorted leaves, descents for
// has_edge).
#include <warpgraph/algorithms/kcore/gpu/kcore.cuh>
#include <warpgraph/graph/gpu/btree_graph_ref.cuh>

namespace wg::gpu {

template CoreNumbers core_numbers(const BTreeGraph<false>&);
template CoreNumbers core_numbers(const BTreeGraph<true>&);
template class DynamicCoreNumbers<BTreeGraph<false>>;
template class DynamicCoreNumbers<BTreeGraph<true>>;

}  // namespace wg::gpu
