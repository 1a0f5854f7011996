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
// oriented row short: at most sqrt(2E)), then the vertices are renamed in rank order and the
// oriented rows rewritten in the new ids, sorted (two radix sorts). For every oriented arc
// u -> v, the tail of N+(u) after v and the row N+(v) are intersected: the lanes of a group
// (SortedTcTuning::lanes_per_arc) take the shorter list's elements and binary-search them in the
// longer one. Each triangle is counted once, at its lowest-ranked vertex and its middle vertex.
// Work O(E log E + sum over oriented arcs of min(tail, d+) log max); memory O(E) for the snapshot
// and the sort keys. The result is exact and does not depend on the tuning.
//
// Incremental counts: SortedTriangleCounter<W> below (static counts by sorted intersection;
// batches as IncrementalTriangleCounter's: deduplicated, and for every edge added (or, before
// removal, erased) the triangles through it are counted once, at its smallest batch edge, by
// count_triangles_touching_sorted: the endpoints' leaf chains merged leaf by leaf with warp-wide
// compares, O((deg u + deg v) / 7) leaf reads per edge). IncrementalTriangleCounter<BTreeGraph<W>>
// (triangle_count.hpp, instantiated for it by gpu/CMakeLists.txt) is the same with the generic
// static count.
//
// Errors: wg::InvalidArgument for a directed graph or bad options; wg::CapacityError when GPU
// memory runs out.
#include <cstdint>

#include <warpgraph/algorithms/tc/gpu/triangle_count.hpp>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/btree_graph.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::gpu {

struct SortedTcTuning {
  /// Lanes that intersect one oriented arc's two rows (4, 8, 16 or 32): few lanes suit the
  /// short oriented rows of sparse graphs, more suit dense ones.
  unsigned lanes_per_arc = 8;
  /// Incremental counts (count_triangles_touching_sorted): an edge whose endpoints' degrees
  /// differ by at most this factor merges their leaf chains (each leaf read once); a more
  /// lopsided one looks the smaller list's neighbours up in the larger by tree descents. 0:
  /// descents always.
  unsigned merge_ratio = 8;
};

/// Static count of an undirected B-tree graph by sorted intersection.
template <bool Weighted>
std::uint64_t count_triangles_sorted(const BTreeGraph<Weighted>& graph,
                                     const SortedTcTuning& options = {});

/// Triangles of `graph` containing at least one of the given undirected edges (canonical keys
/// (u << key_bits) | v with u < v, as PreparedEdges; all present in the graph), each counted
/// once: per edge, the endpoints' sorted leaf chains are merged (or, past merge_ratio, the
/// smaller one's neighbours are looked up in the larger). One warp per edge.
template <bool Weighted>
std::uint64_t count_triangles_touching_sorted(const BTreeGraph<Weighted>& graph,
                                              const std::uint64_t* edge_keys,
                                              std::uint64_t num_edges, unsigned key_bits,
                                              const SortedTcTuning& options = {});

/// The counting strategy of IncrementalTriangleCounter on the B-tree graph by sorted
/// intersection (see ProbeCounting in triangle_count.hpp for the contract).
struct SortedCounting {
  using options_type = SortedTcTuning;
  template <bool Weighted>
  static std::uint64_t count(const BTreeGraph<Weighted>& graph, const SortedTcTuning& options) {
    return count_triangles_sorted(graph, options);
  }
  template <bool Weighted>
  static std::uint64_t touching(const BTreeGraph<Weighted>& graph, const ChangedEdges& edges,
                                const SortedTcTuning& options) {
    return count_triangles_touching_sorted(graph, edges.keys, edges.size, edges.key_bits, options);
  }
};

/// Keeps the exact triangle count of a B-tree graph through insertion and deletion batches: the
/// one incremental counter with the sorted-intersection strategy. The graph must outlive the
/// counter and must not be changed except through it.
template <bool Weighted>
using SortedTriangleCounter = IncrementalTriangleCounter<BTreeGraph<Weighted>, SortedCounting>;

extern template std::uint64_t count_triangles_touching_sorted(const BTreeGraph<false>&,
                                                              const std::uint64_t*, std::uint64_t,
                                                              unsigned, const SortedTcTuning&);
extern template std::uint64_t count_triangles_touching_sorted(const BTreeGraph<true>&,
                                                              const std::uint64_t*, std::uint64_t,
                                                              unsigned, const SortedTcTuning&);
extern template class IncrementalTriangleCounter<BTreeGraph<false>, SortedCounting>;
extern template class IncrementalTriangleCounter<BTreeGraph<true>, SortedCounting>;
extern template std::uint64_t count_triangles_sorted(const BTreeGraph<false>&,
                                                     const SortedTcTuning&);
extern template std::uint64_t count_triangles_sorted(const BTreeGraph<true>&,
                                                     const SortedTcTuning&);

}  // namespace wg::gpu
