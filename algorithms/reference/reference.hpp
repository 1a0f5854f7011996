#pragma once
// CPU reference implementations on Boost.Graph. Plain C++ (never compiled by nvcc): every GPU
// and CPU-backend result in warpgraph is checked against these.
//
// Every function first builds the *simple* graph of the edge list: self-loops and duplicate
// entries are dropped; when `edges.symmetric` is true (or `directed` is false) each entry is an
// undirected edge. All vertices 0..num_vertices-1 exist, isolated ones included.
//
// That build is O(V + m log(max degree)) time and O(V + m) memory (m = entries); the Boost
// graph is a compressed_sparse_row_graph with 32-bit vertex ids. Every function throws
// wg::InvalidArgument for a malformed EdgeList (src/dst/weight sizes differ, an id >=
// num_vertices, num_vertices >= 2^32) and for a `source` >= num_vertices.
#include <cstdint>
#include <limits>
#include <vector>

#include <warpgraph/algorithms/pagerank/pagerank.hpp>
#include <warpgraph/algorithms/tc/tc.hpp>
#include <warpgraph/algorithms/wcc/wcc.hpp>
#include <warpgraph/graph/edge_list.hpp>

namespace wg::reference {

using wg::TriangleCounts;  // algorithms/tc/tc.hpp
/// Triangles of the undirected simple graph. per_vertex[v] = triangles that contain v, so
/// sum(per_vertex) == 3 * total. Edges are oriented from lower to higher (degree, id) and each
/// triangle is found once by marking: O(m * sqrt(m)) time, O(V + m) memory.
TriangleCounts triangle_count(const EdgeList& edges);

/// Local clustering coefficients of the undirected simple graph, from triangle_count's
/// per-vertex counts T(v) and the simple degrees d(v): coefficient[v] = 2 T(v) / (d(v) (d(v) -
/// 1)), 0 when d(v) < 2; average = their mean over all num_vertices ids (networkx's
/// average_clustering). Plain arithmetic on the counts (no Boost.Graph call of its own).
struct LocalClustering {
  std::vector<double> coefficient;
  double average = 0;
};
LocalClustering local_clustering(const EdgeList& edges);

/// BFS levels from `source` (boost::breadth_first_search): level[source] = 0, unreached = -1.
/// directed: follow arcs src->dst only (ignored when edges.symmetric).
inline constexpr std::int64_t kUnreached = -1;
std::vector<std::int64_t> bfs_levels(const EdgeList& edges, vertex_t source, bool directed = false);

/// Weakly connected components (boost::connected_components on the undirected graph).
/// component[v] is the smallest vertex id of v's component (a canonical labelling, so
/// results from different implementations compare with ==).
using wg::Components;  // algorithms/wcc/wcc.hpp
Components connected_components(const EdgeList& edges);

/// PageRank, power iteration on the directed graph (undirected edges count in both directions):
///   pr'(v) = (1 - d) / n + d * ( sum_{u -> v} pr(u) / outdeg(u) + dangling / n )
/// where `dangling` is the total rank of vertices with no out-arcs (spread uniformly).
/// Starts from 1/n; stops when the change between iterations (L1, or the largest of one vertex
/// with Stop::max_change) is below `tolerance` or after max_iterations (then converged = false).
/// Ranks sum to 1. O(V + m) per iteration. Self-loops and duplicate arcs are dropped first (simple
/// graph). An empty graph gives no ranks, converged. damping outside [0, 1], tolerance < 0 or
/// max_iterations < 0 throw wg::InvalidArgument.
using wg::PageRankOptions;  // algorithms/pagerank/pagerank.hpp
using wg::PageRankResult;
PageRankResult pagerank(const EdgeList& edges, const PageRankOptions& options = {},
                        bool directed = false);

/// Single-source shortest paths (boost::dijkstra_shortest_paths). Edge weight is
/// edges.weight[i] (1 when unweighted); for duplicate entries the smallest weight counts.
/// Negative (or NaN) weights throw wg::InvalidArgument, self-loops included. Unreachable
/// vertices get +infinity. O((V + m) log V).
std::vector<double> sssp(const EdgeList& edges, vertex_t source, bool directed = false);

/// k-core numbers of the undirected simple graph (boost::core_numbers).
std::vector<std::uint32_t> core_numbers(const EdgeList& edges);

/// The columns of the thesis' Table 5.1 (and `warpgraph info`). Degrees are those of the simple
/// graph: the number of distinct neighbours when undirected, the out-degree (distinct
/// out-neighbours) when directed. duplicates_dropped counts entries repeating an edge already
/// seen: when undirected, (u, v) and (v, u) are the same edge.
struct GraphStats {
  std::uint64_t vertices = 0;
  std::uint64_t edges = 0;  ///< undirected simple edges (or arcs when directed)
  std::uint64_t self_loops_dropped = 0;
  std::uint64_t duplicates_dropped = 0;
  std::uint64_t degree_min = 0, degree_max = 0;
  double degree_avg = 0, degree_stddev = 0;  ///< population standard deviation
  std::uint64_t components = 0;              ///< weakly connected, isolated vertices included
};
GraphStats graph_stats(const EdgeList& edges, bool directed = false);

}  // namespace wg::reference
