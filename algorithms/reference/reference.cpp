// BFS, components, PageRank, SSSP, core numbers and graph statistics on Boost.Graph.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/core_numbers.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/range/iterator_range.hpp>

#include <warpgraph/algorithms/reference/detail/simple_graph.hpp>
#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/containers/core/error.hpp>

namespace wg::reference {
namespace {

// Records level(target) = level(source) + 1 on every BFS tree edge.
class LevelRecorder : public boost::default_bfs_visitor {
 public:
  explicit LevelRecorder(std::int64_t* level) : level_(level) {}
  template <class Edge, class Graph>
  void tree_edge(Edge e, const Graph& g) const {
    level_[target(e, g)] = level_[source(e, g)] + 1;
  }

 private:
  std::int64_t* level_;
};

// Components of a graph stored with both arcs of every edge. Boost's connected_components
// statically requires an undirected graph type only in its named-parameter overload; the plain
// overload runs a DFS, which on a symmetric arc set visits exactly each weak component.
Components components_of(const detail::SimpleArcs& symmetric) {
  const detail::BoostGraph g = detail::to_boost(symmetric);
  Components result;
  const std::uint64_t n = symmetric.num_vertices;
  result.component.assign(n, 0);
  if (n == 0) return result;
  result.count = boost::connected_components(g, result.component.data());
  // Canonical labels: the smallest vertex id of each component.
  std::vector<vertex_t> smallest(result.count, std::numeric_limits<vertex_t>::max());
  for (std::uint64_t v = 0; v < n; ++v) {
    vertex_t& s = smallest[result.component[v]];
    s = std::min<vertex_t>(s, static_cast<vertex_t>(v));
  }
  for (auto& c : result.component) c = smallest[c];
  return result;
}

}  // namespace

std::vector<std::int64_t> bfs_levels(const EdgeList& edges, vertex_t source, bool directed) {
  detail::check_source(edges, source, "bfs_levels");
  const detail::BoostGraph g =
      detail::to_boost(detail::simple_arcs(edges, detail::treat_as_undirected(edges, directed)));
  std::vector<std::int64_t> level(edges.num_vertices, kUnreached);
  level[source] = 0;
  boost::breadth_first_search(g, source, boost::visitor(LevelRecorder(level.data())));
  return level;
}

Components connected_components(const EdgeList& edges) {
  return components_of(detail::simple_arcs(edges, /*undirected=*/true));
}

PageRankResult pagerank(const EdgeList& edges, const PageRankOptions& options, bool directed) {
  if (!(options.damping >= 0.0 && options.damping <= 1.0))
    throw InvalidArgument("reference pagerank: damping must lie in [0, 1], got " +
                          std::to_string(options.damping));
  if (!(options.tolerance >= 0.0))
    throw InvalidArgument("reference pagerank: tolerance must be >= 0");
  if (options.max_iterations < 0)
    throw InvalidArgument("reference pagerank: max_iterations must be >= 0");

  const detail::BoostGraph g =
      detail::to_boost(detail::simple_arcs(edges, detail::treat_as_undirected(edges, directed)));
  const std::uint64_t n = edges.num_vertices;
  PageRankResult result;
  if (n == 0) {
    result.converged = true;
    return result;
  }
  const double d = options.damping;
  const double inv_n = 1.0 / static_cast<double>(n);
  const bool max_rule = options.stop == PageRankOptions::Stop::max_change;
  std::vector<double> rank(n, inv_n), next(n);
  while (result.iterations < options.max_iterations) {
    // Push each vertex's share along its out-arcs; dangling vertices spread theirs uniformly.
    double dangling = 0.0;
    std::fill(next.begin(), next.end(), 0.0);
    for (auto u : boost::make_iterator_range(vertices(g))) {
      const auto deg = out_degree(u, g);
      if (deg == 0) {
        dangling += rank[u];
        continue;
      }
      const double share = rank[u] / static_cast<double>(deg);
      for (auto v : boost::make_iterator_range(adjacent_vertices(u, g))) next[v] += share;
    }
    const double base = (1.0 - d) * inv_n + d * dangling * inv_n;
    double change = 0.0;
    for (std::uint64_t v = 0; v < n; ++v) {
      next[v] = base + d * next[v];
      const double delta = std::abs(next[v] - rank[v]);
      change = max_rule ? std::max(change, delta) : change + delta;
    }
    rank.swap(next);
    ++result.iterations;
    if (change < options.tolerance) {
      result.converged = true;
      break;
    }
  }
  result.rank = std::move(rank);
  return result;
}

std::vector<double> sssp(const EdgeList& edges, vertex_t source, bool directed) {
  detail::check_source(edges, source, "sssp");
  for (std::size_t i = 0; i < edges.weight.size(); ++i) {
    // !(w >= 0) also rejects NaN.
    if (!(edges.weight[i] >= 0.0))
      throw InvalidArgument("reference sssp: entry " + std::to_string(i) + " (" +
                            std::to_string(edges.src[i]) + ", " + std::to_string(edges.dst[i]) +
                            ") has weight " + std::to_string(edges.weight[i]) +
                            "; Dijkstra needs non-negative weights");
  }
  const detail::WeightedBoostGraph g = detail::to_boost_weighted(detail::simple_arcs(
      edges, detail::treat_as_undirected(edges, directed), /*with_weights=*/true));
  constexpr double inf = std::numeric_limits<double>::infinity();
  std::vector<double> distance(edges.num_vertices, inf);
  boost::dijkstra_shortest_paths(g, source,
                                 boost::weight_map(boost::get(&detail::ArcWeight::weight, g))
                                     .distance_map(distance.data())
                                     .distance_inf(inf)
                                     .distance_zero(0.0));
  return distance;
}

std::vector<std::uint32_t> core_numbers(const EdgeList& edges) {
  detail::BoostGraph g = detail::to_boost(detail::simple_arcs(edges, /*undirected=*/true));
  std::vector<std::uint32_t> core(edges.num_vertices, 0);
  if (!core.empty()) boost::core_numbers(g, core.data());
  return core;
}

GraphStats graph_stats(const EdgeList& edges, bool directed) {
  const bool undirected = detail::treat_as_undirected(edges, directed);
  const detail::SimpleArcs arcs = detail::simple_arcs(edges, undirected);
  GraphStats stats;
  const std::uint64_t n = arcs.num_vertices;
  stats.vertices = n;
  stats.edges = arcs.num_edges();
  stats.self_loops_dropped = arcs.self_loops_dropped;
  stats.duplicates_dropped = arcs.duplicates_dropped;
  if (n > 0) {
    stats.degree_min = std::numeric_limits<std::uint64_t>::max();
    double sum = 0.0;
    for (std::uint64_t v = 0; v < n; ++v) {
      const std::uint64_t deg = arcs.degree(static_cast<vertex_t>(v));
      stats.degree_min = std::min(stats.degree_min, deg);
      stats.degree_max = std::max(stats.degree_max, deg);
      sum += static_cast<double>(deg);
    }
    stats.degree_avg = sum / static_cast<double>(n);
    double squares = 0.0;  // second pass: no cancellation from sum-of-squares formulas
    for (std::uint64_t v = 0; v < n; ++v) {
      const double dev =
          static_cast<double>(arcs.degree(static_cast<vertex_t>(v))) - stats.degree_avg;
      squares += dev * dev;
    }
    stats.degree_stddev = std::sqrt(squares / static_cast<double>(n));
  }
  stats.components = undirected ? components_of(arcs).count
                                : components_of(detail::simple_arcs(edges, true)).count;
  return stats;
}

}  // namespace wg::reference
