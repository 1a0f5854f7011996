#pragma once
// Triangle counting by sorted-list intersection on the B-tree graph (graph/gpu/btree_graph.hpp),
// whose neighbour lists are sorted. Declarations only (plain C++ may include this).
//
//   wg::gpu::BTreeGraph<false> g; g.build(edges);
//   std::uint64_t t = wg::gpu::count_triangles_sorted(g);
//
// Static count: the adjacency is read once in key order (one tree range query per vertex,
// BTreeGraph::export_device_csr: rows come out sorted, as the leaves are ordered), each row is
// filtered to its higher-ranked neighbours (degree order, rank = (degree, id), which keeps every
// oriented row short: at most sqrt(2E)) keeping the sorted order, and for every oriented arc
// u -> v the sorted rows N+(u) and N+(v) are intersected: the lanes of a group
// (SortedTcOptions::lanes_per_arc) take the shorter row's elements and binary-search them in the
// longer one. Each triangle is counted once, at its lowest-ranked vertex and its middle vertex.
// Work O(E + sum over oriented arcs of min(d+) log max(d+)); memory O(E) for the snapshot. The
// result is exact and does not depend on the options.
//
// Incremental counts on the B-tree graph use IncrementalTriangleCounter<BTreeGraph<W>>
// (triangle_count.hpp, instantiated for it in triangle_count_btree.cu): per new edge, the
// smaller endpoint's sorted leaves are walked and each neighbour is looked up in the other's
// (an O(log_7 E) descent per lookup); its recounts use the generic static count.
//
// Errors: wg::InvalidArgument for a directed graph or bad options; wg::CapacityError when GPU
// memory runs out.
#include <cstdint>

#include <warpgraph/graph/gpu/btree_graph.hpp>

namespace wg::gpu {

struct SortedTcOptions {
  /// Lanes that intersect one oriented arc's two rows (4, 8, 16 or 32): few lanes suit the
  /// short oriented rows of sparse graphs, more suit dense ones.
  unsigned lanes_per_arc = 8;
};

/// Static count of an undirected B-tree graph by sorted intersection.
template <bool Weighted>
std::uint64_t count_triangles_sorted(const BTreeGraph<Weighted>& graph,
                                     const SortedTcOptions& options = {});

extern template std::uint64_t count_triangles_sorted(const BTreeGraph<false>&,
                                                     const SortedTcOptions&);
extern template std::uint64_t count_triangles_sorted(const BTreeGraph<true>&,
                                                     const SortedTcOptions&);

}  // namespace wg::gpu
