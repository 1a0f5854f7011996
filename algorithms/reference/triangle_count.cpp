// Triangle counting on the Boost graph: degree ordering plus marking, O(m * sqrt(m)).
//
// Each undirected edge is oriented from the lower to the higher (degree, id) rank, so every
// vertex keeps at most sqrt(2m) out-neighbours and each triangle is found exactly once: from
// its lowest-ranked vertex u, through its middle vertex v, closing at w (an out-neighbour of
// both u and v).
#include <limits>

#include <boost/graph/graph_traits.hpp>
#include <boost/range/iterator_range.hpp>

#include <warpgraph/algorithms/reference/detail/simple_graph.hpp>
#include <warpgraph/algorithms/reference/reference.hpp>

namespace wg::reference {

TriangleCounts triangle_count(const EdgeList& edges) {
  const detail::SimpleArcs simple = detail::simple_arcs(edges, /*undirected=*/true);
  const std::uint64_t n = simple.num_vertices;
  auto ranks_below = [&](vertex_t a, vertex_t b) {
    const std::uint64_t da = simple.degree(a), db = simple.degree(b);
    return da < db || (da == db && a < b);
  };

  // The oriented graph (rows stay sorted since they are filtered in order).
  detail::SimpleArcs oriented;
  oriented.num_vertices = n;
  oriented.offsets.assign(n + 1, 0);
  oriented.targets.reserve(simple.num_arcs() / 2);
  for (std::uint64_t u = 0; u < n; ++u) {
    for (std::uint64_t k = simple.offsets[u]; k < simple.offsets[u + 1]; ++k) {
      const vertex_t v = simple.targets[k];
      if (ranks_below(static_cast<vertex_t>(u), v)) oriented.targets.push_back(v);
    }
    oriented.offsets[u + 1] = oriented.targets.size();
  }
  const detail::BoostGraph g = detail::to_boost(oriented);

  TriangleCounts result;
  result.per_vertex.assign(n, 0);
  // mark[w] == u  <=>  w is an out-neighbour of the current u (no clearing between rows).
  std::vector<std::uint64_t> mark(n, std::numeric_limits<std::uint64_t>::max());
  for (auto u : boost::make_iterator_range(vertices(g))) {
    const auto [ufirst, ulast] = adjacent_vertices(u, g);
    for (auto it = ufirst; it != ulast; ++it) mark[*it] = u;
    for (auto it = ufirst; it != ulast; ++it) {
      const vertex_t v = *it;
      for (auto w : boost::make_iterator_range(adjacent_vertices(v, g))) {
        if (mark[w] != u) continue;
        ++result.total;
        ++result.per_vertex[u];
        ++result.per_vertex[v];
        ++result.per_vertex[w];
      }
    }
  }
  return result;
}

LocalClustering local_clustering(const EdgeList& edges) {
  const TriangleCounts t = triangle_count(edges);
  const detail::SimpleArcs simple = detail::simple_arcs(edges, /*undirected=*/true);
  LocalClustering out;
  out.coefficient.assign(t.per_vertex.size(), 0.0);
  double sum = 0;
  for (std::size_t v = 0; v < t.per_vertex.size(); ++v) {
    const double d = static_cast<double>(simple.degree(static_cast<vertex_t>(v)));
    if (d >= 2) out.coefficient[v] = 2.0 * static_cast<double>(t.per_vertex[v]) / (d * (d - 1));
    sum += out.coefficient[v];
  }
  if (!out.coefficient.empty()) out.average = sum / static_cast<double>(out.coefficient.size());
  return out;
}

}  // namespace wg::reference
