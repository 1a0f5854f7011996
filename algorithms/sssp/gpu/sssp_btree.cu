// GPU SSSP (sssp.cuh) instantiated for the B-tree graph (graph/gpu/btree_graph.hpp): the same
// templates as for the slab graph, run through BTreeGraphRef (sorted leaves, descents for
// has_edge).
#include <warpgraph/algorithms/sssp/gpu/sssp.cuh>
#include <warpgraph/graph/gpu/btree_graph_ref.cuh>

namespace wg::gpu {

template SsspResult sssp(const BTreeGraph<false>&, vertex_t, const SsspOptions&);
template SsspResult sssp(const BTreeGraph<true>&, vertex_t, const SsspOptions&);
template class DynamicSssp<BTreeGraph<false>>;
template class DynamicSssp<BTreeGraph<true>>;

}  // namespace wg::gpu
