// GPU PageRank (pagerank.cuh) instantiated for the B-tree graph (graph/gpu/btree_graph.hpp): the
// same templates as for the slab graph, run through BTreeGraphRef (sorted leaves, descents for
// has_edge).
#include <warpgraph/algorithms/pagerank/gpu/pagerank.cuh>
#include <warpgraph/graph/gpu/btree_graph_ref.cuh>

namespace wg::gpu {

template PageRankResult pagerank(const BTreeGraph<false>&, const PageRankOptions&);
template PageRankResult pagerank(const BTreeGraph<true>&, const PageRankOptions&);
template class DynamicPageRank<BTreeGraph<false>>;
template class DynamicPageRank<BTreeGraph<true>>;

}  // namespace wg::gpu
