// Static and dynamic BFS on the CPU graph. See bfs.hpp.
#include <warpgraph/algorithms/bfs/cpu/bfs.hpp>

#include <algorithm>
#include <string>

#include <warpgraph/algorithms/bfs/cpu/bfs_impl.hpp>
#include <warpgraph/containers/core/error.hpp>

namespace wg::cpu {

template BfsResult bfs(const DynamicGraph&, vertex_t, const BfsOptions&, const BfsTuning&);
template BfsResult bfs(const CsrView&, vertex_t, const BfsOptions&, const BfsTuning&);

namespace {

/// Vertices by level, popped in increasing level (levels only grow while a pass runs).
class BucketQueue {
 public:
  void push(std::int64_t level, vertex_t v) {
    const auto l = static_cast<std::size_t>(level);
    if (l >= buckets_.size()) buckets_.resize(l + 1);
    buckets_[l].push_back(v);
    if (l < current_) current_ = l;
  }
  /// The next (level, vertex); false when empty.
  bool pop(std::int64_t& level, vertex_t& v) {
    while (current_ < buckets_.size() && buckets_[current_].empty()) ++current_;
    if (current_ >= buckets_.size()) return false;
    level = static_cast<std::int64_t>(current_);
    v = buckets_[current_].back();
    buckets_[current_].pop_back();
    return true;
  }

 private:
  std::vector<std::vector<vertex_t>> buckets_;
  std::size_t current_ = 0;
};

// mark_ states of the repairs.
constexpr std::uint8_t kQueued = 1;    // waiting to be checked (deletion) / lowered (insertion)
constexpr std::uint8_t kKept = 2;      // keeps its level (found another parent)
constexpr std::uint8_t kAffected = 3;  // lost every shortest path: re-levelled

}  // namespace

DynamicBfs::DynamicBfs(DynamicGraph& graph, vertex_t source, const BfsOptions& options,
                       const BfsTuning& tuning)
    : DynamicFrame(graph),
      source_(source),
      options_(options),
      tuning_(with_graph_threads(tuning, graph)) {
  recompute();
}

const BfsResult& DynamicBfs::recompute() {
  mark_current();
  result_ = bfs(*graph_, source_, options_, tuning_);
  mark_.assign(result_.level.size(), 0);
  touched_.clear();
  return result_;
}

void DynamicBfs::grow() {
  const std::uint64_t n = graph_->num_vertices();
  if (result_.level.size() >= n) return;
  result_.level.resize(n, kBfsUnreached);
  result_.parent.resize(n, kNoParent);
  mark_.resize(n, 0);
}

std::uint64_t DynamicBfs::budget() const {
  return static_cast<std::uint64_t>(tuning_.recompute_fraction *
                                    static_cast<double>(result_.level.size()));
}

std::uint64_t DynamicBfs::recompute_counting() {
  const std::vector<std::int64_t> old = std::move(result_.level);
  recompute();
  return count_changed(old, result_.level);
}

bool DynamicBfs::propagate_insertions(std::span<const std::uint64_t> keys, std::uint64_t& changed) {
  auto& level = result_.level;
  auto& parent = result_.parent;
  BucketQueue queue;
  std::uint64_t newly_reached = 0;
  std::vector<std::int64_t> old;  // levels of touched_ before the batch, to undo a give-up
  auto relax = [&](vertex_t u, vertex_t v) {
    if (level[u] == kBfsUnreached) return;
    if (level[v] != kBfsUnreached && level[v] <= level[u] + 1) return;
    if (!mark_[v]) {
      mark_[v] = kQueued;
      touched_.push_back(v);
      old.push_back(level[v]);
      newly_reached += level[v] == kBfsUnreached;
    }
    level[v] = level[u] + 1;
    parent[v] = u;
    queue.push(level[v], v);
  };
  const bool directed = graph_->directed();
  for (std::uint64_t k : keys) {
    relax(arc_source(k), arc_target(k));
    if (!directed) relax(arc_target(k), arc_source(k));
  }
  const std::uint64_t limit = budget();
  std::int64_t l;
  vertex_t v;
  bool ok = true;
  while (queue.pop(l, v)) {
    if (level[v] != l) continue;  // lowered again after it was queued
    if (touched_.size() > limit) {
      // Over budget: put the levels back so the recompute counts changes against the batch's
      // start (parents are rewritten by the recompute).
      for (std::size_t i = 0; i < touched_.size(); ++i) level[touched_[i]] = old[i];
      newly_reached = 0;
      ok = false;
      break;
    }
    graph_->for_each_neighbor(v, [&](vertex_t w) { relax(v, w); });
  }
  changed = touched_.size();
  result_.reached += newly_reached;
  for (vertex_t t : touched_) mark_[t] = 0;
  touched_.clear();
  return ok;
}

bool DynamicBfs::repair_deletions(std::span<const std::uint64_t> keys, std::uint64_t& changed) {
  auto& level = result_.level;
  auto& parent = result_.parent;
  const bool directed = graph_->directed();
  auto for_each_in = [&](vertex_t v, auto&& f) {
    if (directed) {
      graph_->for_each_in_neighbor(v, f);
    } else {
      graph_->for_each_neighbor(v, f);
    }
  };
  auto mark = [&](vertex_t v, std::uint8_t state) {
    if (!mark_[v]) touched_.push_back(v);
    mark_[v] = state;
  };
  auto reset = [&] {
    for (vertex_t t : touched_) mark_[t] = 0;
    touched_.clear();
  };

  // Phase 1, in level order: a vertex whose tree arc went keeps its level if an unaffected
  // in-neighbour sits one level up (its state is final: lower levels are done); else it is
  // affected and its tree children are checked next.
  BucketQueue queue;
  auto orphan = [&](vertex_t u, vertex_t v) {
    if (parent[v] != u || v == source_ || mark_[v]) return;
    mark(v, kQueued);
    queue.push(level[v], v);
  };
  for (std::uint64_t k : keys) {
    orphan(arc_source(k), arc_target(k));
    if (!directed) orphan(arc_target(k), arc_source(k));
  }
  const std::uint64_t limit = budget();
  std::vector<vertex_t> affected;
  std::int64_t l;
  vertex_t v;
  while (queue.pop(l, v)) {
    if (touched_.size() > limit) {
      reset();
      return false;
    }
    vertex_t found = kNoParent;
    for_each_in(v, [&](vertex_t w) {
      if (level[w] != l - 1 || mark_[w] == kAffected) return true;
      found = w;
      return false;
    });
    if (found != kNoParent) {
      parent[v] = found;
      mark_[v] = kKept;
      continue;
    }
    mark_[v] = kAffected;
    affected.push_back(v);
    graph_->for_each_neighbor(v, [&](vertex_t c) {
      if (parent[c] == v && !mark_[c]) {
        mark(c, kQueued);
        queue.push(l + 1, c);
      }
    });
  }

  // Phase 2: affected vertices restart from their unaffected in-neighbours, then lower each
  // other in level order (Dijkstra with unit weights over the affected region).
  std::vector<std::int64_t> old(affected.size());
  for (std::size_t i = 0; i < affected.size(); ++i) {
    old[i] = level[affected[i]];
    level[affected[i]] = kBfsUnreached;
    parent[affected[i]] = kNoParent;
  }
  for (vertex_t a : affected) {
    for_each_in(a, [&](vertex_t w) {
      if (level[w] == kBfsUnreached) return;
      if (level[a] == kBfsUnreached || level[w] + 1 < level[a]) {
        level[a] = level[w] + 1;
        parent[a] = w;
      }
    });
    if (level[a] != kBfsUnreached) queue.push(level[a], a);
  }
  while (queue.pop(l, v)) {
    if (level[v] != l) continue;
    graph_->for_each_neighbor(v, [&](vertex_t w) {
      if (level[w] != kBfsUnreached && level[w] <= l + 1) return;
      level[w] = l + 1;
      parent[w] = v;
      queue.push(l + 1, w);
    });
  }
  changed = 0;
  for (std::size_t i = 0; i < affected.size(); ++i) {
    changed += level[affected[i]] != old[i];
    result_.reached -= level[affected[i]] == kBfsUnreached;
  }
  reset();
  return true;
}

BatchEffect DynamicBfs::on_after_insert(std::span<const std::uint64_t> added) {
  grow();
  BatchEffect e;
  if (!propagate_insertions(added, e.changed)) e = {recompute_counting(), true};
  return e;
}

BatchEffect DynamicBfs::on_after_erase(std::span<const std::uint64_t> removed) {
  grow();
  BatchEffect e;
  // An erased source (vertex deletion) leaves every vertex unreached: the static BFS says so.
  const bool source_gone = !graph_->is_live(source_) && result_.reached;
  if (source_gone || !repair_deletions(removed, e.changed)) e = {recompute_counting(), true};
  return e;
}

}  // namespace wg::cpu
