// Static and dynamic SSSP on the CPU graph. See sssp.hpp.
#include <warpgraph/algorithms/single_source.hpp>
#include <warpgraph/algorithms/sssp/cpu/sssp.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <queue>
#include <string>

#include <warpgraph/containers/core/error.hpp>

namespace wg::cpu {
namespace {

struct Item {
  double d;
  vertex_t v;
  bool operator>(const Item& o) const { return d > o.d; }
};
using Heap = std::priority_queue<Item, std::vector<Item>, std::greater<Item>>;

/// The shortest text that reads back as w: messages never round a weight.
std::string exact_text(float w) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, w);
  return ec == std::errc() ? std::string(buf, end) : std::string("?");
}

double arc_length(const DynamicGraph& g, bool unit, float w) {
  if (unit || !g.weighted()) return 1.0;
  if (!(w >= 0.0f))
    throw InvalidArgument("wg::cpu::sssp: an arc has length " + exact_text(w) +
                          "; shortest paths need non-negative lengths");
  return static_cast<double>(w);
}

/// Dijkstra from the heap's entries; set(v, d, parent) records each strict improvement.
template <class Set>
void dijkstra(const DynamicGraph& g, bool unit, const std::vector<double>& dist, Heap& heap,
              Set&& set) {
  while (!heap.empty()) {
    const Item top = heap.top();
    heap.pop();
    if (top.d > dist[top.v]) continue;  // stale entry
    g.for_each_weighted_neighbor(top.v, [&](vertex_t w, float x) {
      const double nd = top.d + arc_length(g, unit, x);
      if (nd < dist[w]) {
        set(w, nd, top.v);
        heap.push({nd, w});
      }
    });
  }
}

}  // namespace

SsspResult sssp(const DynamicGraph& graph, vertex_t source, const SsspOptions& options) {
  const std::uint64_t n = graph.num_vertices();
  require_source("wg::cpu::sssp", source, n);
  SsspResult r;
  if (!start_from_source(r.distance, r.parent, n, source, graph.is_live(source), kSsspUnreached,
                         kSsspNoParent))
    return r;
  Heap heap;
  heap.push({0.0, source});
  dijkstra(graph, options.unit_weights, r.distance, heap, [&](vertex_t v, double d, vertex_t p) {
    r.distance[v] = d;
    r.parent[v] = p;
  });
  for (double d : r.distance) r.reached += d != kSsspUnreached;
  return r;
}

DynamicSssp::DynamicSssp(DynamicGraph& graph, vertex_t source, const SsspOptions& options,
                         const SsspTuning& tuning)
    : DynamicFrame(graph), source_(source), options_(options), tuning_(tuning) {
  require_source("wg::cpu::DynamicSssp", source, graph.num_vertices());
  recompute();
}

const SsspResult& DynamicSssp::recompute() {
  mark_current();
  const std::uint64_t n = graph_->num_vertices();
  if (source_live_) {
    result_ = sssp(*graph_, source_, options_);
  } else {
    result_.distance.assign(n, kSsspUnreached);
    result_.parent.assign(n, kSsspNoParent);
    result_.reached = 0;
  }
  affected_.assign(n, 0);
  touched_.assign(n, 0);
  old_.assign(n, 0.0);
  affected_list_.clear();
  touched_list_.clear();
  return result_;
}

double DynamicSssp::length(float w) const {
  return arc_length(*graph_, options_.unit_weights, w);
}

void DynamicSssp::grow() {
  const std::uint64_t n = graph_->num_vertices();
  if (n <= result_.distance.size()) return;
  result_.distance.resize(n, kSsspUnreached);
  result_.parent.resize(n, kSsspNoParent);
  affected_.resize(n, 0);
  touched_.resize(n, 0);
  old_.resize(n, 0.0);
}

void DynamicSssp::set(vertex_t v, double d, vertex_t p) {
  if (!touched_[v]) {
    touched_[v] = 1;
    touched_list_.push_back(v);
    old_[v] = result_.distance[v];
  }
  result_.reached += (d != kSsspUnreached) - (result_.distance[v] != kSsspUnreached);
  result_.distance[v] = d;
  result_.parent[v] = p;
}

bool DynamicSssp::collect_affected(std::vector<vertex_t> roots) {
  const auto budget = static_cast<std::uint64_t>(tuning_.recompute_fraction *
                                                 static_cast<double>(result_.distance.size()));
  for (vertex_t v : roots) {
    if (v < affected_.size() && !affected_[v] && result_.distance[v] != kSsspUnreached) {
      affected_[v] = 1;
      affected_list_.push_back(v);
    }
  }
  for (std::size_t i = 0; i < affected_list_.size(); ++i) {
    if (affected_list_.size() > budget) break;
    const vertex_t u = affected_list_[i];
    graph_->for_each_neighbor(u, [&](vertex_t w) {
      if (!affected_[w] && w != u && result_.parent[w] == u &&
          result_.distance[w] != kSsspUnreached) {
        affected_[w] = 1;
        affected_list_.push_back(w);
      }
    });
  }
  if (affected_list_.size() > budget) {
    for (vertex_t v : affected_list_) affected_[v] = 0;
    affected_list_.clear();
    return false;
  }
  return true;
}

void DynamicSssp::repair_and_propagate() {
  Heap heap;
  for (vertex_t v : affected_list_) set(v, kSsspUnreached, kSsspNoParent);
  // Each affected vertex takes its best arc from an unaffected in-neighbour.
  for (vertex_t v : affected_list_) {
    if (!graph_->is_live(v)) continue;
    double best = kSsspUnreached;
    vertex_t best_parent = kSsspNoParent;
    auto consider = [&](vertex_t u, double len) {
      if (affected_[u] || result_.distance[u] == kSsspUnreached) return;
      const double d = result_.distance[u] + len;
      if (d < best) {
        best = d;
        best_parent = u;
      }
    };
    if (graph_->directed()) {
      graph_->for_each_in_neighbor(
          v, [&](vertex_t u) { consider(u, length(graph_->edge_weight(u, v).value_or(1.0f))); });
    } else {
      graph_->for_each_weighted_neighbor(v, [&](vertex_t u, float w) { consider(u, length(w)); });
    }
    if (best != kSsspUnreached) {
      set(v, best, best_parent);
      heap.push({best, v});
    }
  }
  for (vertex_t v : affected_list_) affected_[v] = 0;
  affected_list_.clear();
  // Arcs the batch added or shortened.
  for (std::size_t i = 0; i < seed_keys_.size(); ++i) {
    const vertex_t a = arc_source(seed_keys_[i]), b = arc_target(seed_keys_[i]);
    const double len = length(seed_weights_.empty() ? 1.0f : seed_weights_[i]);
    for (int dir = 0; dir < (graph_->directed() ? 1 : 2); ++dir) {
      const vertex_t from = dir ? b : a, to = dir ? a : b;
      if (from >= result_.distance.size() || to >= result_.distance.size()) continue;
      if (result_.distance[from] == kSsspUnreached) continue;
      const double d = result_.distance[from] + len;
      if (d < result_.distance[to]) {
        set(to, d, from);
        heap.push({d, to});
      }
    }
  }
  seed_keys_.clear();
  seed_weights_.clear();
  dijkstra(*graph_, options_.unit_weights, result_.distance, heap,
           [&](vertex_t v, double d, vertex_t p) { set(v, d, p); });
}

std::uint64_t DynamicSssp::finish(bool) {
  std::uint64_t changed = 0;
  for (vertex_t v : touched_list_) {
    if (v < batch_bound_) changed += old_[v] != result_.distance[v];
    touched_[v] = 0;
  }
  touched_list_.clear();
  return changed;
}

/// Recomputes and counts the ids below the batch's bound whose distance moved.
static std::uint64_t changed_between(const std::vector<double>& before,
                                     const std::vector<double>& after, std::uint64_t bound) {
  std::uint64_t c = 0;
  for (std::uint64_t v = 0; v < bound && v < before.size(); ++v) c += before[v] != after[v];
  return c;
}

BatchEffect DynamicSssp::recompute_counting() {
  const std::vector<double> before = result_.distance;
  recompute();
  return {.changed = changed_between(before, result_.distance, batch_bound_), .recomputed = true};
}

BatchEffect DynamicSssp::repair(bool within_budget) {
  if (!within_budget) return recompute_counting();
  repair_and_propagate();
  return {.changed = finish(false), .recomputed = false};
}

void DynamicSssp::add_tree_heads(vertex_t a, vertex_t b, std::vector<vertex_t>& heads) const {
  if (result_.parent[b] == a && result_.distance[b] != kSsspUnreached) heads.push_back(b);
  if (!graph_->directed() && result_.parent[a] == b && result_.distance[a] != kSsspUnreached)
    heads.push_back(a);
}

DynamicUpdate<UpdateResult> DynamicSssp::insert_through(const EdgeList& batch) {
  batch_bound_ = graph_->num_vertices();
  CanonicalBatch canonical = graph_->canonicalize(batch);
  // Tree arcs that get longer: their heads and subtrees are repaired.
  std::vector<vertex_t> roots;
  if (graph_->weighted() && !options_.unit_weights && source_live_) {
    for (std::size_t i = 0; i < canonical.keys.size(); ++i) {
      const vertex_t a = arc_source(canonical.keys[i]), b = arc_target(canonical.keys[i]);
      const auto old = graph_->edge_weight(a, b);
      if (old && canonical.weights[i] > *old) add_tree_heads(a, b, roots);
    }
  }
  seed_keys_ = canonical.keys;
  seed_weights_ = canonical.weights;
  DynamicUpdate<UpdateResult> r;
  r.update = graph_->insert_canonical(canonical);
  grow();
  if (!source_live_) {
    seed_keys_.clear();
    seed_weights_.clear();
    return r;
  }
  const bool within = roots.empty() || collect_affected(roots);
  if (!within) {
    seed_keys_.clear();
    seed_weights_.clear();
  }
  const BatchEffect e = repair(within);
  r.changed = e.changed;
  r.recomputed = e.recomputed;
  return r;
}

BatchEffect DynamicSssp::on_after_insert(std::span<const std::uint64_t> added) {
  batch_bound_ = result_.distance.size();  // the ids before the batch (it may have grown them)
  grow();
  BatchEffect e;
  if (!source_live_ || added.empty()) return e;
  seed_keys_.assign(added.begin(), added.end());
  seed_weights_.clear();
  if (graph_->weighted() && !options_.unit_weights) {
    seed_weights_.reserve(added.size());
    for (std::uint64_t k : added)
      seed_weights_.push_back(graph_->edge_weight(arc_source(k), arc_target(k)).value_or(1.0f));
  }
  repair_and_propagate();
  e.changed = finish(false);
  return e;
}

void DynamicSssp::on_before_erase(std::span<const std::uint64_t> removed) {
  batch_bound_ = graph_->num_vertices();
  grow();
  erase_roots_.clear();
  for (std::uint64_t k : removed) add_tree_heads(arc_source(k), arc_target(k), erase_roots_);
}

BatchEffect DynamicSssp::on_after_erase(std::span<const std::uint64_t>) {
  BatchEffect e;
  std::vector<vertex_t> roots = std::move(erase_roots_);
  erase_roots_.clear();
  if (!source_live_ || roots.empty()) return e;
  return repair(collect_affected(std::move(roots)));
}

DynamicUpdate<VertexEraseResult> DynamicSssp::erase_vertices_through(
    std::span<const vertex_t> ids) {
  batch_bound_ = graph_->num_vertices();
  DynamicUpdate<VertexEraseResult> r;
  const bool source_erased =
      source_live_ && std::find(ids.begin(), ids.end(), source_) != ids.end();
  if (source_erased || !source_live_) {
    const std::vector<double> before = result_.distance;
    r.update = graph_->erase_vertices(ids);
    if (source_erased) {
      source_live_ = false;
      recompute();
    }
    r.changed = changed_between(before, result_.distance, batch_bound_);
    return r;
  }
  std::vector<vertex_t> roots;
  for (vertex_t v : ids)
    if (v < result_.distance.size()) roots.push_back(v);
  // The subtrees are walked before the erasure, while the erased vertices' arcs are there.
  const bool within = collect_affected(roots);
  r.update = graph_->erase_vertices(ids);
  const BatchEffect e = repair(within);
  r.changed = e.changed;
  r.recomputed = e.recomputed;
  return r;
}

}  // namespace wg::cpu
