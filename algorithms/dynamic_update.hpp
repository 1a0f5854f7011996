#pragma once
// What a dynamic algorithm returns for each batch it applies: the one result shape of every
// dynamic class in algorithms/ (DynamicBfs, DynamicComponents, ...), so a caller that keeps
// several results up to date (the CLI's stream) reads them alike.
#include <cstdint>
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

}  // namespace wg
