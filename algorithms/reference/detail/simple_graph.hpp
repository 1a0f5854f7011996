#pragma once
// Internal to wg_reference (includes Boost; not part of the public API).
//
// Every reference function starts from the *simple* graph of an EdgeList: self-loops and
// duplicate entries dropped, each undirected edge stored as two arcs. SimpleArcs holds it as a
// sorted, deduplicated adjacency (CSR); to_boost() turns it into a Boost.Graph
// compressed_sparse_row_graph on which the BGL algorithms run.
#include <cstdint>
#include <vector>

#include <boost/graph/compressed_sparse_row_graph.hpp>

#include <warpgraph/graph/edge_list.hpp>

namespace wg::reference::detail {

/// Sorted, deduplicated arcs of the simple graph. Row u is targets[offsets[u] .. offsets[u+1]),
/// ascending. When built undirected, every edge {u, v} appears as u->v and v->u.
struct SimpleArcs {
  std::uint64_t num_vertices = 0;
  std::vector<std::uint64_t> offsets;  ///< num_vertices + 1
  std::vector<vertex_t> targets;
  std::vector<double>
      weights;  ///< parallel to targets when built with weights (min over duplicates)
  bool undirected = false;
  std::uint64_t self_loops_dropped = 0;  ///< entries with src == dst
  /// Entries that repeat an edge already present (undirected: {u,v} and {v,u} are the same edge).
  std::uint64_t duplicates_dropped = 0;

  std::uint64_t num_arcs() const noexcept { return targets.size(); }
  /// Undirected simple edges when undirected, else arcs.
  std::uint64_t num_edges() const noexcept {
    return undirected ? targets.size() / 2 : targets.size();
  }
  std::uint64_t degree(vertex_t u) const noexcept { return offsets[u + 1] - offsets[u]; }
};

/// True when the reference treats `edges` as undirected (see reference.hpp).
inline bool treat_as_undirected(const EdgeList& edges, bool directed) noexcept {
  return edges.symmetric || !directed;
}

/// Validates `edges` (equal array sizes, ids < num_vertices, num_vertices fits vertex_t) and
/// builds its simple graph in O(V + m log(max degree)). Throws wg::InvalidArgument.
/// with_weights: keep edge weights (1 when the list is unweighted); duplicates keep the minimum.
SimpleArcs simple_arcs(const EdgeList& edges, bool undirected, bool with_weights = false);

/// Throws wg::InvalidArgument unless source < num_vertices. `what` names the caller.
void check_source(const EdgeList& edges, vertex_t source, const char* what);

struct ArcWeight {
  double weight = 1.0;
};

/// Boost CSR graphs with 32-bit vertex ids and 64-bit edge indices (graphs with > 4G arcs work).
using BoostGraph =
    boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, boost::no_property,
                                       boost::no_property, vertex_t, std::uint64_t>;
using WeightedBoostGraph =
    boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, ArcWeight,
                                       boost::no_property, vertex_t, std::uint64_t>;

BoostGraph to_boost(const SimpleArcs& arcs);
WeightedBoostGraph to_boost_weighted(const SimpleArcs& arcs);  ///< needs arcs.weights

}  // namespace wg::reference::detail
