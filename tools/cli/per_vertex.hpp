#pragma once
// What makes the CLI's per-vertex results mean the same on every backend and in the FILE's ids:
// component labels as the smallest file id, parents and predecessors derived from levels and
// distances, and the readers' duplicate-weight rule for lists read as undirected. Each backend
// computes levels, components and distances; these turn them into the documented results, so that
// backends that agree on those agree on everything written.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <warpgraph/algorithms/registry.hpp>
#include <warpgraph/graph/edge_list.hpp>

#include "cli.hpp"
#include "output_writer.hpp"

namespace wg::cli {

/// No vertex (no parent: the source, or unreached).
inline constexpr std::int64_t kNoVertex = -1;

/// For each vertex, the member of its component with the smallest file id (`file_id` of a
/// vertex), as an internal vertex: "the component's smallest vertex id" in the file's ids
/// whatever labels a backend uses (`component[v]`: any label below component.size() shared
/// by exactly the vertices of one component). O(n).
template <class Label>
std::vector<std::int64_t> component_representatives(
    const std::vector<Label>& component, const std::function<std::uint64_t(std::size_t)>& file_id) {
  std::vector<std::int64_t> best(component.size(), kNoVertex);
  for (std::size_t v = 0; v < component.size(); ++v) {
    std::int64_t& b = best[static_cast<std::size_t>(component[v])];
    if (b == kNoVertex || file_id(v) < file_id(static_cast<std::size_t>(b)))
      b = static_cast<std::int64_t>(v);
  }
  std::vector<std::int64_t> rep(component.size());
  for (std::size_t v = 0; v < component.size(); ++v)
    rep[v] = best[static_cast<std::size_t>(component[v])];
  return rep;
}

/// A shortest-path tree consistent with `distance` (BFS levels with `unit_lengths`, else the
/// edges' weights, 1 when unweighted): parent[v] is a u with an arc u -> v and distance[u] +
/// length == distance[v], found by a breadth-first walk from `source` over such arcs (so zero
/// lengths give a tree too; among candidates the first discovered wins). parent[source] ==
/// source; kNoVertex for unreached vertices. O(n + m).
std::vector<std::int64_t> path_tree_parents(const EdgeList& edges, bool directed, vertex_t source,
                                            const std::vector<double>& distance, bool unit_lengths);

/// Reads `edges` as undirected (symmetric = true). A list the readers gave as directed (a
/// general Matrix Market file) then gets the readers' duplicate rule for undirected lists too:
/// (u, v) and (v, u) entries all carry their smallest weight (datasets/README.md, "Duplicate
/// rule"), so that every backend sees one simple graph. O(m log m) when that applies.
void read_as_undirected(EdgeList& edges);

/// Where a result's levels were measured from, for the BFS tree of PerVertex::level values.
struct SearchTree {
  const EdgeList& edges;
  bool directed = false;
  vertex_t source = 0;
};

/// The --output columns of a result's per-vertex `values` (what they are: `kind`,
/// algorithms/registry.hpp): numbers as they are, in the column `name`; component labels as the
/// component's smallest file id (`file_id` of a vertex), in the column `name`; levels as
/// "<prefix>level" and a BFS tree of them (`tree`) as "<prefix>parent"; distances as
/// "<prefix>distance" and a shortest-path tree of them as "<prefix>predecessor". Derived ids are
/// kept in `derived` (which must not move while the columns are read). O(n), O(n + m) for levels
/// and distances.
std::vector<Column> values_columns(const std::string& name, PerVertex kind,
                                   const std::vector<double>& values,
                                   const std::function<std::uint64_t(std::size_t)>& file_id,
                                   std::vector<std::int64_t>& derived,
                                   const SearchTree* tree = nullptr,
                                   const std::string& prefix = "");

/// True when some entry of `edges` names `v`.
bool on_some_entry(const EdgeList& edges, vertex_t v);

}  // namespace wg::cli
