#pragma once
// CPU reference implementations on Boost.Graph. Plain C++ (never compiled by nvcc): every GPU
// and CPU-backend result in warpgraph is checked against these.
//
// Every function first builds the *simple* graph of the edge list: self-loops and duplicate
// entries are dropped; when `edges.symmetric` is true (or `directed` is false) each entry is an
// undirected edge. All vertices 0..num_vertices-1 exist, isolated ones included.
#include <cstdint>
#include <limits>
#include <vector>

#include <warpgraph/graph/edge_list.hpp>

namespace wg::reference {

/// Triangles of the undirected simple graph. per_vertex[v] = triangles that contain v, so
/// sum(per_vertex) == 3 * total. O(sum over edges of min degree) with degree ordering.
struct TriangleCounts {
  std::uint64_t total = 0;
  std::vector<std::uint64_t> per_vertex;
};
TriangleCounts triangle_count(const EdgeList& edges);

/// BFS levels from `source` (boost::breadth_first_search): level[source] = 0, unreached = -1.
/// directed: follow arcs src->dst only (ignored when edges.symmetric).
inline constexpr std::int64_t kUnreached = -1;
std::vector<std::int64_t> bfs_levels(const EdgeList& edges, vertex_t source, bool directed = false);

/// Weakly connected components (boost::connected_components on the undirected graph).
/// component[v] is the smallest vertex id of v's component (a canonical labelling, so
/// results from different implementations compare with ==).
struct Components {
  std::vector<vertex_t> component;
  std::uint64_t count = 0;
};
Components connected_components(const EdgeList& edges);

/// PageRank, power iteration on the directed graph (undirected edges count in both directions):
///   pr'(v) = (1 - d) / n + d * ( sum_{u -> v} pr(u) / outdeg(u) + dangling / n )
/// where `dangling` is the total rank of vertices with no out-arcs (spread uniformly).
/// Starts from 1/n; stops when the L1 change between iterations is below `tolerance` or after
/// max_iterations. Ranks sum to 1.
struct PageRankOptions {
  double damping = 0.85;
  double tolerance = 1e-10;
  int max_iterations = 1000;
};
struct PageRankResult {
  std::vector<double> rank;
  int iterations = 0;
  bool converged = false;
};
PageRankResult pagerank(const EdgeList& edges, const PageRankOptions& options = {},
                        bool directed = false);

/// Single-source shortest paths (boost::dijkstra_shortest_paths). Edge weight is
/// edges.weight[i] (1 when unweighted); for duplicate entries the smallest weight counts.
/// Negative weights throw wg::InvalidArgument. Unreachable vertices get +infinity.
std::vector<double> sssp(const EdgeList& edges, vertex_t source, bool directed = false);

/// k-core numbers of the undirected simple graph (boost::core_numbers).
std::vector<std::uint32_t> core_numbers(const EdgeList& edges);

/// The columns of the thesis' Table 5.1 (and `warpgraph info`).
struct GraphStats {
  std::uint64_t vertices = 0;
  std::uint64_t edges = 0;  ///< undirected simple edges (or arcs when directed)
  std::uint64_t self_loops_dropped = 0;
  std::uint64_t duplicates_dropped = 0;
  std::uint64_t degree_min = 0, degree_max = 0;
  double degree_avg = 0, degree_stddev = 0;  ///< population standard deviation
  std::uint64_t components = 0;             ///< weakly connected, isolated vertices included
};
GraphStats graph_stats(const EdgeList& edges, bool directed = false);

}  // namespace wg::reference
