// Static and dynamic connected components on the CPU graph. See wcc.hpp.
#include <warpgraph/algorithms/wcc/cpu/wcc.hpp>

#include <algorithm>
#include <unordered_set>

#include <warpgraph/algorithms/wcc/cpu/wcc_impl.hpp>

namespace wg::cpu {

template Components connected_components(const DynamicGraph&, const ComponentsOptions&,
                                         const ComponentsTuning&);

DynamicComponents::DynamicComponents(DynamicGraph& graph, const ComponentsOptions& options,
                                     const ComponentsTuning& tuning)
    : DynamicFrame(graph), options_(options), tuning_(with_graph_threads(tuning, graph)) {
  recompute();
}

const Components& DynamicComponents::recompute() {
  mark_current();
  result_ = connected_components(*graph_, options_, tuning_);
  rebuild_members();
  return result_;
}

void DynamicComponents::rebuild_members() {
  const std::size_t n = result_.component.size();
  seen_.assign(n, 0);
  stamp_ = 0;
  members_.assign(n, {});
  for (std::size_t v = 0; v < n; ++v) members_[result_.component[v]].push_back(vertex_t(v));
}

void DynamicComponents::grow() {
  const std::uint64_t n = graph_->num_vertices();
  for (std::uint64_t v = result_.component.size(); v < n; ++v) {
    result_.component.push_back(vertex_t(v));
    members_.push_back({vertex_t(v)});
    seen_.push_back(0);
    ++result_.count;
  }
}

std::uint64_t DynamicComponents::recompute_counting() {
  const std::vector<vertex_t> old = std::move(result_.component);
  recompute();
  return count_changed(old, result_.component);
}

std::uint64_t DynamicComponents::split(const std::vector<vertex_t>& labels) {
  auto& label = result_.component;
  const detail::MinUnionFind uf(label);
  const bool directed = graph_->directed();
  std::uint64_t changed = 0;
  for (vertex_t c : labels) {
    // Arcs now inside the old component join only its members: union-find over them alone.
    std::vector<vertex_t> old = std::move(members_[c]);
    members_[c].clear();
    for (vertex_t m : old) label[m] = m;
    for (vertex_t m : old) {
      graph_->for_each_neighbor(m, [&](vertex_t w) {
        if (directed || w < m) uf.unite(m, w);
      });
    }
    for (vertex_t m : old) {
      label[m] = uf.find(m);
      members_[label[m]].push_back(m);
      changed += label[m] != c;
      result_.count += label[m] == m && m != c;
    }
  }
  return changed;
}

BatchEffect DynamicComponents::on_after_insert(std::span<const std::uint64_t> added) {
  grow();
  auto& label = result_.component;
  std::vector<vertex_t> moved;
  for (std::uint64_t k : added) {
    vertex_t lo = label[arc_source(k)], hi = label[arc_target(k)];
    if (lo == hi) continue;
    if (hi < lo) std::swap(lo, hi);
    // The component labelled hi joins lo's: its members are the vertices whose label changes.
    std::vector<vertex_t>& from = members_[hi];
    std::vector<vertex_t>& to = members_[lo];
    for (vertex_t m : from) label[m] = lo;
    moved.insert(moved.end(), from.begin(), from.end());
    if (from.size() > to.size()) from.swap(to);
    to.insert(to.end(), from.begin(), from.end());
    std::vector<vertex_t>().swap(from);
    --result_.count;
  }
  // A vertex moved twice in one batch changed its label once.
  std::sort(moved.begin(), moved.end());
  return {static_cast<std::uint64_t>(std::unique(moved.begin(), moved.end()) - moved.begin()),
          false};
}

bool DynamicComponents::still_connected(vertex_t u, vertex_t v) {
  // Breadth-first from the endpoint of lower degree, over arcs in both directions, until the
  // other endpoint or the budget of scanned arcs.
  if (graph_->degree(v) < graph_->degree(u)) std::swap(u, v);
  if (++stamp_ == 0) {
    std::fill(seen_.begin(), seen_.end(), 0);
    stamp_ = 1;
  }
  queue_.clear();
  queue_.push_back(u);
  seen_[u] = stamp_;
  std::uint64_t scanned = 0;
  bool found = false;
  auto visit = [&](vertex_t w) {
    if (w == v) found = true;
    if (found || ++scanned > tuning_.reconnect_budget) return false;
    if (seen_[w] != stamp_) {
      seen_[w] = stamp_;
      queue_.push_back(w);
    }
    return true;
  };
  for (std::size_t i = 0; i < queue_.size() && !found && scanned <= tuning_.reconnect_budget; ++i) {
    graph_->for_each_neighbor(queue_[i], visit);
    if (graph_->directed() && !found) graph_->for_each_in_neighbor(queue_[i], visit);
  }
  return found;
}

std::uint64_t DynamicComponents::after_deletion(std::span<const std::uint64_t> keys,
                                                const std::vector<vertex_t>& old_labels,
                                                bool& recomputed) {
  // A deleted edge whose endpoints are still connected cannot split its component (every
  // path through it can detour): only the components with an unconfirmed edge are recomputed.
  // Edges of a component already to be recomputed need no search; once the recompute covers
  // more than recompute_fraction of the ids, none does.
  const double limit = tuning_.recompute_fraction * static_cast<double>(result_.component.size());
  std::unordered_set<vertex_t> slated;
  std::uint64_t size = 0;
  for (std::size_t i = 0; i < keys.size() && static_cast<double>(size) <= limit; ++i) {
    if (slated.count(old_labels[i])) continue;
    if (still_connected(arc_source(keys[i]), arc_target(keys[i]))) continue;
    slated.insert(old_labels[i]);
    size += members_[old_labels[i]].size();
  }
  std::vector<vertex_t> labels(slated.begin(), slated.end());
  std::sort(labels.begin(), labels.end());
  recomputed = static_cast<double>(size) > limit;
  return recomputed ? recompute_counting() : split(labels);
}

void DynamicComponents::on_before_erase(std::span<const std::uint64_t> removed) {
  grow();
  erase_labels_.resize(removed.size());
  for (std::size_t i = 0; i < removed.size(); ++i)
    erase_labels_[i] = result_.component[arc_source(removed[i])];
}

BatchEffect DynamicComponents::on_after_erase(std::span<const std::uint64_t> removed) {
  BatchEffect e;
  e.changed = after_deletion(removed, erase_labels_, e.recomputed);
  return e;
}

}  // namespace wg::cpu
