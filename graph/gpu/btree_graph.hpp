#pragma once
// wg::gpu::BTreeGraph<Weighted>: a dynamic graph on the GPU whose adjacency lists are SORTED:
// every arc u -> v is the key (u << 32) | v of one GPU B-link tree (containers/btree, 64-bit
// keys; the value is the arc's 32-bit weight), so u's neighbours are one key range, read leaf
// after leaf in increasing id.
//
//   wg::gpu::BTreeGraph<false> g(num_vertices);      // undirected by default
//   g.build(edge_list);                             // bulk build (sort + bottom-up tree)
//   wg::UpdateResult r = g.insert_edges(batch);     // the same accounting as the slab graph
//   auto ref = g.ref();                             // device view: btree_graph_ref.cuh
//
// Why one tree keyed by (u, v) rather than a tree per vertex: the B-tree container is one root
// over one node pool; a forest of per-vertex trees would need a root per vertex, a per-vertex
// pool policy and a leaf per vertex even for degree 1 (most R-MAT vertices have a handful of
// neighbours: a 128-byte leaf per vertex wastes most of it, where one tree packs the neighbours
// of small vertices together, 7 per leaf). Batches are one sorted tree operation whatever the
// number of vertices they touch, a hub costs no more than its keys, and the whole adjacency is
// one ordered key space, so a CSR snapshot is one range query per vertex
// (export_device_csr) and neighbour lists are already sorted for intersections. The price is
// an O(log_7 E) descent to find a vertex's first leaf (the slab graph finds its table in O(1)).
//
// The graph is the front (graph_front.hpp) over the B-tree store (btree/btree_store.hpp):
// BTreeGraph<W> is DynamicGraph<BTreeStore<W>>. Algorithms take any wg::GpuDynamicGraph, so this
// graph runs them all (WG_GPU_GRAPHS in cmake/warpgraph_helpers.cmake instantiates each for it).
//
// Semantics (those of graph/graph_concepts.hpp and graph/update_result.hpp, as the slab graph):
//  - Phase-concurrent: each call is one phase on stream(); not thread-safe on the host.
//  - Undirected graphs store both arcs of an edge; batches are deduplicated on the device
//    (prepare_batch: the LAST entry of an edge gives its weight), self-loops are dropped,
//    entries naming a non-live or out-of-range id are `ignored` (the EdgeList overloads first
//    grow the id range to the batch's largest id + 1). Degrees are exact after every call.
//  - Erased vertices' ids join a free-id queue; insert_vertices() hands them out again (earliest
//    erased first, increasing id within one erase call).
//  - Weighted (BTreeGraph<true>): 32-bit values; inserting a present edge replaces its value.
//
// Capacity: the tree's node pool is sized ahead of each batch (a batch of m arcs is given room for
// 2m + 64 new nodes: a full leaf splits 7 into 3 + 4 on its first insert, then at most once per
// 3 more, and inner nodes split a third as often). When the pool could run short, the tree is
// rebuilt into a pool of BTreeGraphOptions::growth x the need (one range pass and one bulk
// build, which also compacts erased slots). wg::CapacityError when GPU memory or the tree's
// 2^30-node limit does not allow it; the graph then stays as before the batch (should the tree
// still run out during a batch, the batch is retried once into a pool twice as large; if that
// fails too, the batch is partly applied and the degrees and edge count are read back from the
// tree, so the graph stays consistent).
//
// Complexity: insert/erase of b entries O(b log b) (radix sorts) + O(b log_7 E) node reads; a
// rebuild O(E); has_edge O(log_7 E); degree O(1); erase_vertices O(k + their degrees) (directed
// graphs: a range pass over all arcs for the in-arcs); exports O(V + E).
#include <warpgraph/graph/gpu/btree/btree_store.hpp>
#include <warpgraph/graph/gpu/graph_front.hpp>

namespace wg::gpu {

template <bool Weighted>
using BTreeGraph = DynamicGraph<BTreeStore<Weighted>>;
using BTreeSetGraph = BTreeGraph<false>;
using BTreeMapGraph = BTreeGraph<true>;

extern template class BTreeStore<false>;
extern template class BTreeStore<true>;
extern template class DynamicGraph<BTreeStore<false>>;
extern template class DynamicGraph<BTreeStore<true>>;

}  // namespace wg::gpu
