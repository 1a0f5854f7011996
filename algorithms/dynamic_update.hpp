#pragma once
// What a dynamic algorithm returns for each batch it applies: the one result shape of every
// dynamic class in algorithms/ (DynamicBfs, DynamicComponents, ...), so a caller that keeps
// several results up to date (the CLI's stream) reads them alike.
#include <concepts>
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

/// What a mixed step (a dynamic class's update(erase, insert): erase one batch, then insert
/// another, answered once) did to the graph: the erasure's and the insertion's results.
struct MixedUpdate {
  UpdateResult erased, inserted;
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

/// What following one batch did to an algorithm's result: the `changed` and `recomputed` of a
/// DynamicUpdate, without the graph's part (one graph update may be followed by several
/// algorithms).
struct BatchEffect {
  std::uint64_t changed = 0;
  bool recomputed = false;
};

/// Adds one part's effect to a batch's (a chunk, or one part of a step): changes add up, one
/// recomputation marks the batch.
inline void accumulate(BatchEffect& total, const BatchEffect& part) {
  total.changed += part.changed;
  total.recomputed = total.recomputed || part.recomputed;
}

/// A batch's answer (changed, recomputed) taken from one algorithm's effect.
template <class Update>
void set_effect(DynamicUpdate<Update>& r, const BatchEffect& e) {
  r.changed = e.changed;
  r.recomputed = e.recomputed;
}

/// A dynamic result that follows batches someone else applies to its graph, so that one update
/// of the graph can serve several algorithms (the CLI's `stream --algo`). The keys are the
/// canonical keys (the graph's canonical layer) of exactly the edges the batch changes:
///  - after_insert(added): the edges were absent and are now in the graph;
///  - before_erase(removed): the edges are present and about to go (the graph is unchanged);
///  - after_erase(removed): the same edges, now gone.
/// Every erase is bracketed by before_erase and after_erase with the same keys, and nothing else
/// changes the graph in between. Each dynamic class's own insert_edges / erase_edges are these
/// calls around the graph's update (insert_observed, erase_observed below).
template <class A>
concept EdgeBatchObserver = requires(A& a, std::span<const std::uint64_t> keys) {
  a.before_erase(keys);
  { a.after_erase(keys) } -> std::same_as<BatchEffect>;
  { a.after_insert(keys) } -> std::same_as<BatchEffect>;
};

/// Applies an insertion batch to a CPU graph and lets `algorithm` follow it.
template <class Graph, EdgeBatchObserver A>
DynamicUpdate<UpdateResult> insert_observed(Graph& graph, const EdgeList& batch, A& algorithm) {
  std::vector<std::uint64_t> added;
  DynamicUpdate<UpdateResult> r = insert_listing_added(graph, batch, added);
  set_effect(r, algorithm.after_insert(added));
  return r;
}

/// Applies a deletion batch to a CPU graph and lets `algorithm` follow it.
template <class Graph, EdgeBatchObserver A>
DynamicUpdate<UpdateResult> erase_observed(Graph& graph, const EdgeList& batch, A& algorithm) {
  std::vector<std::uint64_t> removed;
  DynamicUpdate<UpdateResult> r = erase_listing_removed(
      graph, batch, removed,
      [&](std::span<const std::uint64_t> keys) { algorithm.before_erase(keys); });
  set_effect(r, algorithm.after_erase(removed));
  return r;
}

/// Erases vertices (and so their edges) from a CPU graph and lets `algorithm` follow it as an
/// erase of their incident edges.
template <class Graph, EdgeBatchObserver A>
DynamicUpdate<VertexEraseResult> erase_vertices_observed(Graph& graph,
                                                         std::span<const vertex_t> ids,
                                                         A& algorithm) {
  const std::vector<std::uint64_t> incident = graph.incident_edges(ids);
  algorithm.before_erase(incident);
  DynamicUpdate<VertexEraseResult> r;
  r.update = graph.erase_vertices(ids);
  set_effect(r, algorithm.after_erase(incident));
  return r;
}

}  // namespace wg
