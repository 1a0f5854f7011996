#pragma once
// Batch triangle counts on the B-tree graph (graph/gpu/btree_graph.hpp) by merging its sorted
// neighbour lists. Declarations only (plain C++ may include this). The static count on every
// graph, this one included, is count_triangles_sorted (triangle_count.hpp).
//
//   wg::gpu::BTreeGraph<false> g; g.build(edges);
//   wg::gpu::SortedTriangleCounter<false> tc(g);  // counts once
//   tc.insert_edges(batch);                       // tc.total() exact again
//
// SortedTriangleCounter<W>: batches as IncrementalTriangleCounter's (deduplicated; for every
// edge added, or before removal erased, the triangles through it are counted once, at its
// smallest batch edge) by count_triangles_touching_sorted: the endpoints' leaf chains merged
// leaf by leaf with warp-wide compares, O((deg u + deg v) / 7) leaf reads per edge, or, past
// TcTuning::merge_ratio, the smaller list's neighbours looked up in the larger by tree descents.
// IncrementalTriangleCounter<BTreeGraph<W>> (probes by descents) is the same with
// ProbeCounting.
//
// Errors: wg::InvalidArgument for a directed graph or bad options; wg::CapacityError when GPU
// memory runs out.
#include <cstdint>

#include <warpgraph/algorithms/tc/gpu/triangle_count.hpp>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/btree_graph.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::gpu {

/// Triangles of `graph` containing at least one of the given undirected edges (canonical keys
/// (u << key_bits) | v with u < v, as PreparedEdges; all present in the graph), each counted
/// once: per edge, the endpoints' sorted leaf chains are merged (or, past merge_ratio, the
/// smaller one's neighbours are looked up in the larger). One warp per edge.
template <bool Weighted>
std::uint64_t count_triangles_touching_sorted(const BTreeGraph<Weighted>& graph,
                                              const std::uint64_t* edge_keys,
                                              std::uint64_t num_edges, unsigned key_bits,
                                              const TcTuning& options = {});

/// The counting strategy of IncrementalTriangleCounter on the B-tree graph: the static count of
/// every graph, batch counts by merging sorted leaves (see ProbeCounting in triangle_count.hpp
/// for the contract).
struct SortedCounting {
  template <bool Weighted>
  static std::uint64_t count(const BTreeGraph<Weighted>& graph, const TcTuning& options) {
    return count_triangles_sorted(graph, options);
  }
  template <bool Weighted>
  static std::uint64_t touching(const BTreeGraph<Weighted>& graph, const ChangedEdges& edges,
                                const TcTuning& options) {
    return count_triangles_touching_sorted(graph, edges.keys, edges.size, edges.key_bits, options);
  }
};

/// Keeps the exact triangle count of a B-tree graph through insertion and deletion batches: the
/// one incremental counter with the sorted-merge strategy. The graph must outlive the counter
/// and must not be changed except through it.
template <bool Weighted>
using SortedTriangleCounter = IncrementalTriangleCounter<BTreeGraph<Weighted>, SortedCounting>;

extern template std::uint64_t count_triangles_touching_sorted(const BTreeGraph<false>&,
                                                              const std::uint64_t*, std::uint64_t,
                                                              unsigned, const TcTuning&);
extern template std::uint64_t count_triangles_touching_sorted(const BTreeGraph<true>&,
                                                              const std::uint64_t*, std::uint64_t,
                                                              unsigned, const TcTuning&);
extern template class IncrementalTriangleCounter<BTreeGraph<false>, SortedCounting>;
extern template class IncrementalTriangleCounter<BTreeGraph<true>, SortedCounting>;
extern template std::uint64_t count_triangles_sorted(const BTreeGraph<false>&, const TcTuning&);
extern template std::uint64_t count_triangles_sorted(const BTreeGraph<true>&, const TcTuning&);
extern template TriangleCounts count_triangles_sorted_per_vertex(const BTreeGraph<false>&,
                                                                 const TcTuning&);
extern template TriangleCounts count_triangles_sorted_per_vertex(const BTreeGraph<true>&,
                                                                 const TcTuning&);

}  // namespace wg::gpu
