// GPU local clustering coefficient (lcc.cuh) instantiated for the B-tree graph
// (graph/gpu/btree_graph.hpp), through BTreeGraphRef.
#include <warpgraph/algorithms/lcc/gpu/lcc.cuh>
#include <warpgraph/graph/gpu/btree_graph_ref.cuh>

namespace wg::gpu {

template LccResult local_clustering(const BTreeGraph<false>&, const LccOptions&);
template LccResult local_clustering(const BTreeGraph<true>&, const LccOptions&);
template class DynamicLocalClustering<BTreeGraph<false>>;
template class DynamicLocalClustering<BTreeGraph<true>>;

}  // namespace wg::gpu
