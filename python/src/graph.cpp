#include "graph.hpp"

#include <algorithm>
#include <chrono>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/limits.hpp>

namespace wg::python {

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

Graph::Graph(bool directed, bool weighted, unsigned threads)
    : graph_(cpu::GraphOptions{.directed = directed, .weighted = weighted, .threads = threads}) {}

void Graph::check_id_range(std::uint64_t bound) const {
  if (bound <= graph_.num_vertices()) return;
  const std::uint64_t budget = datasets::memory_budget_bytes();
  if (bound > budget / kBytesPerId)
    throw CapacityError("wg.Graph vertex ids", budget / kBytesPerId,
                        "the id range would hold " + std::to_string(bound) + " ids: about " +
                            datasets::format_bytes(bound * kBytesPerId) + ", more than the " +
                            datasets::format_bytes(budget) + " of memory this process may use");
}

void Graph::ensure_vertices(std::uint64_t bound) {
  check_id_range(bound);
  graph_.ensure_vertices(bound);
}

UpdateResult Graph::build(const EdgeList& edges) {
  if (!tracked_.empty())
    throw InvalidArgument(
        "wg.Graph: cannot rebuild a graph that dynamic results follow (wg.Dynamic): insert and "
        "erase edges instead, or make the results again after the rebuild");
  check_id_range(edges.num_vertices);
  return graph_.build(edges);
}

template <class Update>
void Graph::record(const char* kind, std::uint64_t applied, const DynamicResultsUpdate<Update>& r,
                   double seconds) {
  ++batches_;
  for (std::size_t i = 0; i < tracked_.size(); ++i) {
    Tracked& t = *tracked_[i]->t;
    t.history.push_back({.batch = batches_,
                         .kind = kind,
                         .applied = applied,
                         .changed = r.effects[i].changed,
                         .recomputed = r.effects[i].recomputed,
                         .summary = t.summary(),
                         .seconds = seconds});
  }
}

UpdateResult Graph::insert_edges(const EdgeList& batch) {
  ensure_vertices(batch.num_vertices);
  const auto t0 = std::chrono::steady_clock::now();
  auto r = results_.insert_edges(batch);
  record("insert", r.update.applied, r, seconds_since(t0));
  return r.update;
}

UpdateResult Graph::erase_edges(const EdgeList& batch) {
  const auto t0 = std::chrono::steady_clock::now();
  auto r = results_.erase_edges(batch);
  record("erase", r.update.applied, r, seconds_since(t0));
  return r.update;
}

std::vector<vertex_t> Graph::insert_vertices(std::uint64_t count) {
  const std::uint64_t fresh = count > graph_.num_free_ids() ? count - graph_.num_free_ids() : 0;
  check_id_range(graph_.num_vertices() + fresh);
  return graph_.insert_vertices(count);
}

VertexEraseResult Graph::erase_vertices(std::span<const vertex_t> ids) {
  const auto t0 = std::chrono::steady_clock::now();
  auto r = results_.erase_vertices(ids);
  record("erase_vertices", r.update.vertices, r, seconds_since(t0));
  return r.update;
}

Tracked& Graph::track(std::unique_ptr<Tracked> result) {
  Follower& f = results_.track<Follower>(std::move(result));
  tracked_.push_back(&f);
  return *f.t;
}

void Graph::untrack(const Tracked& result) {
  auto it = std::find_if(tracked_.begin(), tracked_.end(),
                         [&](const Follower* f) { return f->t.get() == &result; });
  if (it == tracked_.end()) return;
  const Follower* f = *it;
  tracked_.erase(it);
  results_.untrack(*f);
}

}  // namespace wg::python
