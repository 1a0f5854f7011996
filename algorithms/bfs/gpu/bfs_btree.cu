// GPU BFS (bfs.cuh) instantiated for the B-tree graph (graph/gpu/btree_graph.hpp): the same
// templates as for the slab graph, run through BTreeGraphRef (sorted leaves, descents for
// has_edge).
#include <warpgraph/algorithms/bfs/gpu/bfs.cuh>
#include <warpgraph/graph/gpu/btree_graph_ref.cuh>

namespace wg::gpu {

template BfsResult bfs(const BTreeGraph<false>&, vertex_t, const BfsOptions&);
template BfsResult bfs(const BTreeGraph<true>&, vertex_t, const BfsOptions&);
template class DynamicBfs<BTreeGraph<false>>;
template class DynamicBfs<BTreeGraph<true>>;

}  // namespace wg::gpu
