// Per-vertex results in the file's terms. See per_vertex.hpp.
#include "per_vertex.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include <warpgraph/datasets/detail/weights.hpp>
#include <warpgraph/datasets/read_graph.hpp>

namespace wg::cli {

std::vector<std::int64_t> path_tree_parents(const EdgeList& edges, bool directed, vertex_t source,
                                            const std::vector<double>& distance,
                                            bool unit_lengths) {
  const std::size_t n = distance.size();
  std::vector<std::int64_t> parent(n, kNoVertex);
  if (source >= n || !std::isfinite(distance[source])) return parent;
  // Out-arcs in CSR form (both directions of an undirected entry).
  std::vector<std::uint64_t> offset(n + 1, 0);
  const auto each_arc = [&](auto&& f) {
    for (std::size_t i = 0; i < edges.size(); ++i) {
      const vertex_t u = edges.src[i], v = edges.dst[i];
      if (u >= n || v >= n || u == v) continue;
      const double w = unit_lengths || !edges.weighted() ? 1.0 : edges.weight[i];
      f(u, v, w);
      if (!directed) f(v, u, w);
    }
  };
  each_arc([&](vertex_t u, vertex_t, double) { ++offset[u + 1]; });
  std::partial_sum(offset.begin(), offset.end(), offset.begin());
  std::vector<vertex_t> head(offset[n]);
  std::vector<double> length(offset[n]);
  std::vector<std::uint64_t> fill(offset.begin(), offset.end() - 1);
  each_arc([&](vertex_t u, vertex_t v, double w) {
    head[fill[u]] = v;
    length[fill[u]++] = w;
  });
  // Breadth-first over tight arcs: each vertex gets the first tight in-arc that reaches it.
  std::vector<vertex_t> queue{source};
  parent[source] = source;
  for (std::size_t q = 0; q < queue.size(); ++q) {
    const vertex_t u = queue[q];
    for (std::uint64_t a = offset[u]; a < offset[u + 1]; ++a) {
      const vertex_t v = head[a];
      if (parent[v] != kNoVertex || distance[u] + length[a] != distance[v]) continue;
      parent[v] = u;
      queue.push_back(v);
    }
  }
  return parent;
}

void read_as_undirected(EdgeList& edges) {
  if (edges.symmetric) return;
  edges.symmetric = true;
  (void)datasets::detail::apply_min_weight_rule(edges);
}

bool on_some_entry(const EdgeList& edges, vertex_t v) {
  for (std::size_t i = 0; i < edges.size(); ++i)
    if (edges.src[i] == v || edges.dst[i] == v) return true;
  return false;
}

std::vector<Column> values_columns(const std::string& name, PerVertex kind,
                                   const std::vector<double>& values,
                                   const std::function<std::uint64_t(std::size_t)>& file_id,
                                   std::vector<std::int64_t>& derived, const SearchTree* tree,
                                   const std::string& prefix) {
  if (kind == PerVertex::number) return {number_column(name, values)};
  if (kind == PerVertex::component) {
    derived = component_representatives(values, file_id);
    return {vertex_column(name, derived, file_id)};
  }
  // Parents (predecessors): a tree of these levels (distances), the same on every backend.
  const bool levels = kind == PerVertex::level;
  derived = path_tree_parents(tree->edges, tree->directed, tree->source, values, levels);
  Column column = levels ? level_column(values) : distance_column(values);
  column.name = prefix + column.name;
  return {std::move(column),
          vertex_column(prefix + (levels ? "parent" : "predecessor"), derived, file_id)};
}

}  // namespace wg::cli
