// Static and dynamic connected components on the CPU graph. See wcc.hpp.
#include <warpgraph/algorithms/wcc/cpu/wcc.hpp>

#include <algorithm>
#include <limits>

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
  if (logging_ && !log_full_) {
    // Inside a batch: end_changes compares with the labels before it, the logged changes undone.
    before_ = result_.component;
    for (const auto& [v, old] : log_) before_[v] = old;
    log_full_ = true;
  }
  mark_current();
  const DynamicGraph& g = *graph_;
  const unsigned threads = resolve_threads(tuning_.threads);
  hooked_.resize(threads);
  for (auto& h : hooked_) h.clear();
  result_ = detail::label_components(
      g, threads, [&](vertex_t u, vertex_t v, unsigned t) { hooked_[t].push_back(arc_key(u, v)); });
  // Trees rooted at a vertex of highest degree stay shallow on power-law graphs, so that the
  // walks to a root (reconnect) and the reroots (link) are short.
  auto degree = [&](vertex_t v) {
    return std::uint64_t{g.degree(v)} + (g.directed() ? g.in_degree(v) : 0);
  };
  const std::uint64_t n = result_.component.size();
  // The forest and the member lists read the labels only: built side by side, as the labelling
  // was, so that the recompute costs about the static computation.
  parallel_chunks(2, std::min(threads, 2u), [&](std::size_t first, std::size_t last, unsigned) {
    for (std::size_t part = first; part < last; ++part) {
      if (part == 0)
        forest_.build(result_.component, hooked_,
                      [&](vertex_t a, vertex_t b) { return degree(a) > degree(b); });
      else
        rebuild_members();
    }
  });
  visit_.assign(n, 0);
  tag_ = 0;
  via_.resize(n);
  has_pending_.assign(n, 0);
  logged_.resize(n, 0);
  return result_;
}

void DynamicComponents::rebuild_members() {
  // The lists are refilled in place: a list keeps its allocation where the component's size
  // still fits it (a recompute rarely moves many vertices), and frees it where it is much larger.
  const std::vector<vertex_t>& label = result_.component;
  const std::size_t n = label.size();
  members_.resize(n);
  position_.assign(n, 0);
  for (std::size_t v = 0; v < n; ++v) ++position_[label[v]];  // sizes, at the labels
  for (std::size_t v = 0; v < n; ++v) {
    std::vector<vertex_t>& m = members_[v];
    const std::size_t size = label[v] == v ? position_[v] : 0;
    if (m.capacity() > 2 * size + 4) std::vector<vertex_t>().swap(m);
    m.clear();
    m.reserve(size);
  }
  for (std::size_t v = 0; v < n; ++v) {
    std::vector<vertex_t>& m = members_[label[v]];
    position_[v] = vertex_t(m.size());
    m.push_back(vertex_t(v));
  }
}

void DynamicComponents::grow() {
  const std::uint64_t n = graph_->num_vertices();
  for (std::uint64_t v = result_.component.size(); v < n; ++v) {
    result_.component.push_back(vertex_t(v));
    members_.push_back({vertex_t(v)});
    position_.push_back(0);
    ++result_.count;
  }
  forest_.grow(n);
  visit_.resize(n, 0);
  via_.resize(n);
  has_pending_.resize(n, 0);
  logged_.resize(n, 0);
}

// ---- the change log ----------------------------------------------------------------------

void DynamicComponents::begin_changes() {
  logging_ = true;
  log_full_ = false;
  log_.clear();
  if (++log_tag_ == 0) {
    std::fill(logged_.begin(), logged_.end(), 0);
    log_tag_ = 1;
  }
}

void DynamicComponents::set_label(vertex_t v, vertex_t label) {
  vertex_t& l = result_.component[v];
  if (logging_ && !log_full_ && logged_[v] != log_tag_) {
    logged_[v] = log_tag_;
    log_.emplace_back(v, l);
  }
  l = label;
}

std::uint64_t DynamicComponents::end_changes() {
  logging_ = false;
  const std::vector<vertex_t>& label = result_.component;
  std::uint64_t changed = 0;
  if (log_full_) {
    // Ids added since before_ was taken started as components of their own.
    for (std::size_t v = 0; v < label.size(); ++v)
      changed += label[v] != (v < before_.size() ? before_[v] : vertex_t(v));
    std::vector<vertex_t>().swap(before_);
  } else {
    for (const auto& [v, old] : log_) changed += label[v] != old;
  }
  return changed;
}

void DynamicComponents::begin_step(std::uint64_t, std::uint64_t) {
  begin_changes();
}

BatchEffect DynamicComponents::end_step(const BatchEffect& erased, const BatchEffect& inserted) {
  return {end_changes(), erased.recomputed || inserted.recomputed};
}

// ---- insertions --------------------------------------------------------------------------

void DynamicComponents::merge(vertex_t a, vertex_t b) {
  const vertex_t lo = std::min(a, b), hi = std::max(a, b);
  // The component labelled hi joins lo's: its members are the vertices whose label changes.
  std::vector<vertex_t>& from = members_[hi];
  std::vector<vertex_t>& to = members_[lo];
  for (vertex_t m : from) set_label(m, lo);
  if (from.size() > to.size()) from.swap(to);  // append the shorter list
  for (vertex_t m : from) {
    position_[m] = vertex_t(to.size());
    to.push_back(m);
  }
  std::vector<vertex_t>().swap(from);
  --result_.count;
}

BatchEffect DynamicComponents::on_after_insert(std::span<const std::uint64_t> added) {
  grow();
  if (!in_step()) begin_changes();
  const std::vector<vertex_t>& label = result_.component;
  std::uint64_t work = 0;
  for (std::uint64_t k : added) {
    const vertex_t u = arc_source(k), v = arc_target(k);
    const vertex_t a = label[u], b = label[v];
    if (a == b) continue;
    // The new forest edge: the smaller component's tree is rerooted at its end.
    if (members_[a].size() < members_[b].size())
      forest_.link(u, v, work);
    else
      forest_.link(v, u, work);
    merge(a, b);
  }
  return {in_step() ? 0 : end_changes(), false};
}

// ---- deletions ---------------------------------------------------------------------------

void DynamicComponents::on_before_erase(std::span<const std::uint64_t>) {
  grow();
}

BatchEffect DynamicComponents::on_after_erase(std::span<const std::uint64_t> removed) {
  if (!in_step()) begin_changes();
  BatchEffect e;
  if (!delete_edges(removed)) {
    recompute();
    e.recomputed = true;
  }
  e.changed = in_step() ? 0 : end_changes();
  return e;
}

bool DynamicComponents::delete_edges(std::span<const std::uint64_t> keys) {
  if (keys.empty()) return true;
  // A batch about the size of ones whose searches recently spent the budget is not tried.
  if (backoff_.skip(keys.size())) {
    ++deletion_stats_.skipped_batches;
    return false;
  }
  const double pass = static_cast<double>(graph_->num_vertices() + graph_->num_arcs());
  budget_ = std::max(tuning_.search_min_work,
                     static_cast<std::uint64_t>(tuning_.search_work_fraction * pass));
  spent_ = 0;
  index_pending(keys);
  bool within = true;
  for (std::size_t i = 0; i < keys.size() && within; ++i)
    within = delete_edge(arc_source(keys[i]), arc_target(keys[i]), i);
  clear_pending();
  deletion_stats_.work += spent_;
  backoff_.tried(keys.size(), within);
  return within;
}

bool DynamicComponents::delete_edge(vertex_t a, vertex_t b, std::size_t i) {
  const vertex_t c = forest_.child_of(a, b);
  // A directed graph keeps the edge while the reverse arc is there.
  if (c == detail::SpanningForest::kNoChild || (graph_->directed() && arc_remains(b, a, i))) {
    ++deletion_stats_.unaffected;
    return true;
  }
  const vertex_t p = forest_.parent(c);
  forest_.cut(c);
  switch (search(c, p, i)) {
    case Search::met:
      reconnect(c, p);
      ++deletion_stats_.replaced;
      return true;
    case Search::a_exhausted:
      split_off(queue_a_, tag_);
      ++deletion_stats_.split;
      return true;
    case Search::b_exhausted:
      split_off(queue_b_, tag_ + 1);
      ++deletion_stats_.split;
      return true;
    case Search::over_budget:
      break;
  }
  ++deletion_stats_.abandoned;
  return false;
}

template <class F>
std::uint64_t DynamicComponents::scan(vertex_t x, std::size_t i, F&& f) const {
  std::uint64_t read = 0;
  bool go = true;
  auto each = [&](vertex_t w) {
    ++read;
    go = f(w);
    return go;
  };
  graph_->for_each_neighbor(x, each);
  if (go && graph_->directed()) graph_->for_each_in_neighbor(x, each);
  if (go && has_pending_[x]) {
    for (const Pending& e : pending_at(x)) {
      if (e.index > i && !each(e.other)) break;
    }
  }
  return read;
}

DynamicComponents::Search DynamicComponents::search(vertex_t c, vertex_t p, std::size_t i) {
  if (tag_ >= std::numeric_limits<std::uint32_t>::max() - 2) {
    std::fill(visit_.begin(), visit_.end(), 0);
    tag_ = 0;
  }
  tag_ += 2;
  const std::uint32_t tag_a = tag_, tag_b = tag_ + 1;
  queue_a_.assign(1, c);
  queue_b_.assign(1, p);
  visit_[c] = tag_a;
  via_[c] = c;
  visit_[p] = tag_b;
  via_[p] = p;
  const DynamicGraph& g = *graph_;
  auto cost = [&](vertex_t x) {
    return std::uint64_t{1} + g.degree(x) + (g.directed() ? g.in_degree(x) : 0);
  };
  std::size_t head_a = 0, head_b = 0;
  std::uint64_t work_a = 0, work_b = 0;
  for (;;) {
    if (head_a == queue_a_.size()) return Search::a_exhausted;
    if (head_b == queue_b_.size()) return Search::b_exhausted;
    // The side whose work, its next vertex taken, stays the smaller steps: the search costs
    // about twice the smaller side's, and a hub is scanned only when the other side is as dear.
    const bool on_a = work_a + cost(queue_a_[head_a]) <= work_b + cost(queue_b_[head_b]);
    std::vector<vertex_t>& queue = on_a ? queue_a_ : queue_b_;
    const vertex_t x = queue[on_a ? head_a++ : head_b++];
    const std::uint32_t own = on_a ? tag_a : tag_b, other = on_a ? tag_b : tag_a;
    bool met = false;
    const std::uint64_t read = scan(x, i, [&](vertex_t w) {
      if (visit_[w] == own) return true;
      if (visit_[w] == other) {
        meet_a_ = on_a ? x : w;
        meet_b_ = on_a ? w : x;
        met = true;
        return false;
      }
      visit_[w] = own;
      via_[w] = x;
      queue.push_back(w);
      return true;
    });
    (on_a ? work_a : work_b) += read + 1;
    spent_ += read + 1;
    if (met) return Search::met;
    if (spent_ > budget_) return Search::over_budget;
  }
}

void DynamicComponents::reconnect(vertex_t c, vertex_t p) {
  // The path c .. meet_a_, meet_b_ .. p, by the arcs the sides were reached by.
  path_.clear();
  for (vertex_t v = meet_a_;; v = via_[v]) {
    path_.push_back(v);
    if (v == c) break;
  }
  std::reverse(path_.begin(), path_.end());
  for (vertex_t v = meet_b_;; v = via_[v]) {
    path_.push_back(v);
    if (v == p) break;
  }
  // Its first vertex is in c's tree (rooted at c since the cut), its last in p's: a binary search
  // finds two neighbours on it in either tree, the replacement edge.
  std::size_t lo = 0, hi = path_.size() - 1;
  std::uint64_t work = 0;
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    (forest_.root(path_[mid], work) == c ? lo : hi) = mid;
  }
  forest_.link(path_[lo], path_[hi], work);
  spent_ += work;
}

void DynamicComponents::split_off(const std::vector<vertex_t>& side, std::uint32_t tag) {
  const vertex_t old = result_.component[side.front()];
  const vertex_t low = *std::min_element(side.begin(), side.end());
  std::vector<vertex_t>& all = members_[old];
  std::vector<vertex_t> moved;  // the vertices whose label changes
  if (low != old) {
    // The side leaves: its vertices are taken out of the old list.
    for (vertex_t v : side) {
      const vertex_t last = all.back(), at = position_[v];
      all[at] = last;
      position_[last] = at;
      all.pop_back();
    }
    moved.assign(side.begin(), side.end());
  } else {
    // The side holds the component's smallest id and keeps its label: the rest leaves.
    moved.reserve(all.size() - side.size());
    for (vertex_t v : all)
      if (visit_[v] != tag) moved.push_back(v);
    all.assign(side.begin(), side.end());
    for (std::size_t k = 0; k < all.size(); ++k) position_[all[k]] = vertex_t(k);
  }
  // A new component, labelled by its smallest id (a member of old's component, so no label yet).
  const vertex_t label = *std::min_element(moved.begin(), moved.end());
  for (std::size_t k = 0; k < moved.size(); ++k) {
    position_[moved[k]] = vertex_t(k);
    set_label(moved[k], label);
  }
  members_[label] = std::move(moved);
  ++result_.count;
}

std::span<const DynamicComponents::Pending> DynamicComponents::pending_at(vertex_t x) const {
  const auto by_end = [](const Pending& e, vertex_t v) { return e.end < v; };
  const auto first = std::lower_bound(pending_.begin(), pending_.end(), x, by_end);
  auto last = first;
  while (last != pending_.end() && last->end == x) ++last;
  return {first, last};
}

bool DynamicComponents::arc_remains(vertex_t s, vertex_t t, std::size_t i) const {
  if (graph_->has_edge(s, t)) return true;
  if (!has_pending_[s]) return false;
  for (const Pending& e : pending_at(s)) {
    if (e.other == t && e.source && e.index > i) return true;
  }
  return false;
}

void DynamicComponents::index_pending(std::span<const std::uint64_t> keys) {
  pending_.clear();
  pending_.reserve(2 * keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const vertex_t a = arc_source(keys[i]), b = arc_target(keys[i]);
    pending_.push_back(Pending{.end = a, .other = b, .index = i, .source = 1});
    pending_.push_back(Pending{.end = b, .other = a, .index = i, .source = 0});
    has_pending_[a] = has_pending_[b] = 1;
  }
  std::sort(pending_.begin(), pending_.end(),
            [](const Pending& x, const Pending& y) { return x.end < y.end; });
}

void DynamicComponents::clear_pending() {
  for (const Pending& e : pending_) has_pending_[e.end] = 0;
  pending_.clear();
}

}  // namespace wg::cpu
