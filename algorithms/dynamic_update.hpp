#pragma once
// What a dynamic algorithm returns for each batch it applies: the one result shape of every
// dynamic class in algorithms/ (DynamicBfs, DynamicComponents, ...), so a caller that keeps
// several results up to date (the CLI's stream) reads them alike.
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg {

/// `update` is what the batch did to the graph (UpdateResult for edge batches, VertexEraseResult
/// for vertex deletions); `changed` counts the vertices whose value (level, label, ...) moved;
/// `recomputed` says the algorithm answered by its static computation instead of an update
/// (each class documents when it switches).
template <class Update>
struct DynamicUpdate {
  Update update;
  std::uint64_t changed = 0;
  bool recomputed = false;
};

/// How many entries of `before` differ from those of `after` (the vertices whose value moved
/// when a result is recomputed; ids `after` adds are not counted).
template <class T>
std::uint64_t count_changed(const std::vector<T>& before, const std::vector<T>& after) {
  std::uint64_t changed = 0;
  for (std::size_t v = 0; v < before.size(); ++v) changed += before[v] != after[v];
  return changed;
}

/// Applies an insertion batch through a CPU graph's canonical layer (canonicalize, then
/// insert_canonical): returns the update with `changed` still 0, and leaves in `added` the
/// canonical keys of exactly the edges that were absent and are now present, sorted.
template <class Graph>
DynamicUpdate<UpdateResult> insert_listing_added(Graph& graph, const EdgeList& batch,
                                                 std::vector<std::uint64_t>& added) {
  auto canonical = graph.canonicalize(batch);
  DynamicUpdate<UpdateResult> r;
  r.update = graph.insert_canonical(canonical);
  added = std::move(canonical.keys);
  return r;
}

/// Applies a deletion batch through a CPU graph's canonical layer (canonicalize, retain_present,
/// erase_canonical): before_erase(keys) sees the canonical keys of exactly the edges that are
/// present and will be removed (sorted) while they are still in the graph. Returns the update
/// (absent edges counted as ignored) with `changed` still 0; `removed` holds those keys.
template <class Graph, class BeforeErase>
DynamicUpdate<UpdateResult> erase_listing_removed(Graph& graph, const EdgeList& batch,
                                                  std::vector<std::uint64_t>& removed,
                                                  BeforeErase&& before_erase) {
  auto canonical = graph.canonicalize(batch);
  const std::uint64_t absent = graph.retain_present(canonical);
  before_erase(std::span<const std::uint64_t>(canonical.keys));
  DynamicUpdate<UpdateResult> r;
  r.update = graph.erase_canonical(canonical);
  r.update.ignored += absent;
  removed = std::move(canonical.keys);
  return r;
}

}  // namespace wg
