// Static and dynamic core numbers on the CPU graph. See kcore.hpp.
#include <warpgraph/algorithms/kcore/cpu/kcore.hpp>

#include <algorithm>
#include <stdexcept>

#include <warpgraph/algorithms/kcore/cpu/kcore_impl.hpp>

namespace wg::cpu {

template CoreNumbers core_numbers(const DynamicGraph&);

namespace {

// mark_ states of one edge step. Insertion: kQueued: in the heap (or the first vertex);
// kCandidate: more than K neighbours present when visited; kLeaving: a former candidate whose
// removal waits in fifo_; kKept: stays at K. Deletion: kCounted: star_ holds its neighbours of
// number >= K; kFallen: falls to K - 1.
enum Mark : std::uint8_t { kNone, kQueued, kCandidate, kLeaving, kKept, kCounted = 1, kFallen = 2 };

}  // namespace

DynamicCoreNumbers::DynamicCoreNumbers(DynamicGraph& graph,
                                       const DynamicCoreNumbersOptions& options)
    : DynamicFrame(graph), options_(options) {
  if (graph.directed()) {
    throw std::invalid_argument("DynamicCoreNumbers: the graph must be undirected");
  }
  recompute();
}

const CoreNumbers& DynamicCoreNumbers::recompute() {
  mark_current();
  const DynamicGraph& g = *graph_;
  const std::uint64_t n = g.num_vertices();
  std::vector<vertex_t> removal;
  result_ = detail::peel_core_numbers(
      n, [&](vertex_t v) { return g.degree(v); },
      [&](vertex_t v, auto&& f) { g.for_each_neighbor(v, f); }, &removal);
  per_core_.assign(std::size_t{result_.max_core} + 1, 0);
  for (std::uint32_t c : result_.core) ++per_core_[c];
  // The peeling's removal order is a k-order; each core number's run of it is one list.
  order_.reset(n, std::size_t{result_.max_core} + 2);
  for (std::size_t i = 0, j = 0; i < removal.size(); i = j) {
    while (j < removal.size() && result_.core[removal[j]] == result_.core[removal[i]]) ++j;
    order_.assign(result_.core[removal[i]], std::span<const vertex_t>(removal.data() + i, j - i));
  }
  std::vector<std::uint32_t>& position = star_;  // reused; cleared below
  position.assign(n, 0);
  for (std::size_t i = 0; i < removal.size(); ++i) position[removal[i]] = std::uint32_t(i);
  plus_.assign(n, 0);
  for (std::uint64_t v = 0; v < n; ++v) {
    g.for_each_neighbor(vertex_t(v), [&](vertex_t w) { plus_[v] += position[w] > position[v]; });
  }
  star_.assign(n, 0);
  mark_.assign(n, kNone);
  in_batch_.assign(n, 0);
  touched_.assign(n, 0);
  visited_.clear();
  old_.clear();
  return result_;
}

void DynamicCoreNumbers::grow() {
  const std::uint64_t n = graph_->num_vertices();
  const std::uint64_t had = result_.core.size();
  if (n <= had) return;
  per_core_[0] += n - had;
  result_.core.resize(n, 0);
  plus_.resize(n, 0);
  star_.resize(n, 0);
  mark_.resize(n, kNone);
  in_batch_.resize(n, 0);
  touched_.resize(n, 0);
  order_.grow(n, 1);
  for (std::uint64_t v = had; v < n; ++v) order_.push_back(0, vertex_t(v));
}

bool DynamicCoreNumbers::before(vertex_t a, vertex_t b) const noexcept {
  const std::uint32_t ca = result_.core[a], cb = result_.core[b];
  return ca != cb ? ca < cb : order_.before(a, b);
}

template <class F>
void DynamicCoreNumbers::visible_neighbors(vertex_t u, F&& f) {
  const std::uint64_t degree = graph_->degree(u);
  scanned_ += degree;
  if (!in_batch_[u]) {
    graph_->for_each_neighbor(u, f);
    return;
  }
  graph_->for_each_neighbor(u, [&](vertex_t w) {
    if (in_batch_[w]) {
      const std::uint64_t key = u < w ? arc_key(u, w) : arc_key(w, u);
      const auto at = std::lower_bound(keys_.begin(), keys_.end(), key);
      if (at != keys_.end() && *at == key &&
          inserting_ == (static_cast<std::size_t>(at - keys_.begin()) > step_)) {
        return;
      }
    }
    f(w);
  });
}

void DynamicCoreNumbers::count_later(vertex_t v) {
  std::uint32_t later = 0;
  visible_neighbors(v, [&](vertex_t w) { later += before(v, w); });
  plus_[v] = later;
}

void DynamicCoreNumbers::set_core(vertex_t v, std::uint32_t c) {
  std::uint32_t& now = result_.core[v];
  if (!touched_[v]) {
    touched_[v] = 1;
    old_.emplace_back(v, now);
  }
  --per_core_[now];
  if (c >= per_core_.size()) per_core_.resize(std::size_t{c} + 1, 0);
  ++per_core_[c];
  now = c;
  result_.max_core = std::max(result_.max_core, c);
  while (result_.max_core > 0 && per_core_[result_.max_core] == 0) --result_.max_core;
}

void DynamicCoreNumbers::clear_marks() {
  for (vertex_t v : visited_) {
    mark_[v] = kNone;
    star_[v] = 0;
  }
  visited_.clear();
}

std::uint64_t DynamicCoreNumbers::end_batch() {
  std::uint64_t changed = 0;
  for (const auto& [v, was] : old_) {
    changed += result_.core[v] != was;
    touched_[v] = 0;
  }
  old_.clear();
  return changed;
}

// ---- insertion (OrderInsert) ------------------------------------------------------------------

bool DynamicCoreNumbers::insert_edge(vertex_t a, vertex_t b) {
  const vertex_t u = before(a, b) ? a : b;
  const std::uint32_t k = result_.core[u];
  if (++plus_[u] <= k) return true;  // the order stays a peeling order
  // Replays the peeling of core k from u: the vertices before u and those without a candidate
  // neighbour before them (star_ 0) keep their place; only the others are visited, in order.
  auto later = [&](vertex_t x, vertex_t y) { return order_.before(y, x); };
  cand_.clear();
  heap_.assign(1, u);
  mark_[u] = kQueued;
  visited_.push_back(u);
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const vertex_t w = heap_.back();
    heap_.pop_back();
    if (star_[w] + plus_[w] > k)
      defer(w, k);
    else
      keep(w, k);
    if (static_cast<double>(scanned_) > budget_) return false;
  }
  promote(k);
  clear_marks();
  return true;
}

void DynamicCoreNumbers::defer(vertex_t w, std::uint32_t k) {
  auto later = [&](vertex_t x, vertex_t y) { return order_.before(y, x); };
  mark_[w] = kCandidate;
  star_[w] += plus_[w];  // from now on: its neighbours still present
  cand_.push_back(w);
  // Its neighbours of core k after it gain a candidate before them.
  visible_neighbors(w, [&](vertex_t x) {
    if (result_.core[x] != k) return;
    if (mark_[x] == kQueued) {
      ++star_[x];
    } else if (mark_[x] == kNone && order_.before(w, x)) {
      ++star_[x];
      mark_[x] = kQueued;
      visited_.push_back(x);
      heap_.push_back(x);
      std::push_heap(heap_.begin(), heap_.end(), later);
    }
  });
  order_.erase(k, w);
}

void DynamicCoreNumbers::keep(vertex_t w, std::uint32_t k) {
  mark_[w] = kKept;
  if (star_[w] == 0) return;  // no candidate neighbour: nothing follows
  plus_[w] += star_[w];       // its candidate neighbours end after it
  // w leaves: its candidate neighbours lose one neighbour present; those left with at most k
  // leave right after it (in the order they leave), lowering their own neighbours in turn.
  // fifo_ order is the new order, so each leaver's deg+ is its count when it comes out.
  vertex_t cursor = w;
  fifo_.clear();
  auto leave_neighbors = [&](vertex_t y, bool was_candidate) {
    visible_neighbors(y, [&](vertex_t x) {
      const std::uint8_t m = mark_[x];
      if (m == kCandidate) {
        if (--star_[x] <= k) {
          mark_[x] = kLeaving;
          order_.insert_after(k, cursor, x);
          cursor = x;
          fifo_.push_back(x);
        }
      } else if (m == kLeaving || (m == kQueued && was_candidate)) {
        --star_[x];
      }
    });
  };
  leave_neighbors(w, false);
  for (std::size_t i = 0; i < fifo_.size(); ++i) {
    const vertex_t y = fifo_[i];
    mark_[y] = kKept;
    plus_[y] = star_[y];
    leave_neighbors(y, true);
  }
}

void DynamicCoreNumbers::promote(std::uint32_t k) {
  order_.grow(result_.core.size(), std::size_t{k} + 2);
  vertex_t at = detail::OrderLists::kNone;
  std::size_t kept = 0;
  for (vertex_t c : cand_) {
    if (mark_[c] != kCandidate) continue;
    set_core(c, k + 1);
    order_.insert_after(k + 1, at, c);
    at = c;
    cand_[kept++] = c;
  }
  cand_.resize(kept);
  for (vertex_t c : cand_) count_later(c);
}

// ---- deletion ---------------------------------------------------------------------------------

bool DynamicCoreNumbers::erase_edge(vertex_t a, vertex_t b) {
  auto& core = result_.core;
  --plus_[before(a, b) ? a : b];
  const std::uint32_t k = std::min(core[a], core[b]);
  // Vertices of core k with fewer than k neighbours of number >= k fall; a fallen vertex lowers
  // its counted neighbours' counts when it comes out of fifo_ (and only then takes k - 1, so a
  // count taken later does not see it twice).
  auto count = [&](vertex_t x) {
    mark_[x] = kCounted;
    visited_.push_back(x);
    std::uint32_t c = 0;
    visible_neighbors(x, [&](vertex_t w) { c += core[w] >= k; });
    star_[x] = c;
  };
  auto fall_if_short = [&](vertex_t x) {
    if (star_[x] >= k) return;
    mark_[x] = kFallen;
    fifo_.push_back(x);
  };
  fifo_.clear();
  for (vertex_t r : {a, b}) {
    if (core[r] != k || mark_[r] != kNone) continue;
    count(r);
    fall_if_short(r);
  }
  for (std::size_t i = 0; i < fifo_.size(); ++i) {
    const vertex_t y = fifo_[i];
    set_core(y, k - 1);
    visible_neighbors(y, [&](vertex_t x) {
      if (core[x] != k || mark_[x] == kFallen) return;
      if (mark_[x] == kNone)
        count(x);
      else
        --star_[x];
      fall_if_short(x);
    });
    if (static_cast<double>(scanned_) > budget_) return false;
  }
  demote(k);
  clear_marks();
  return true;
}

void DynamicCoreNumbers::demote(std::uint32_t k) {
  if (fifo_.empty()) return;
  // Neighbours staying at k that had a fallen vertex after them now have it before them.
  for (vertex_t y : fifo_) {
    visible_neighbors(y,
                      [&](vertex_t x) { plus_[x] -= result_.core[x] == k && order_.before(x, y); });
  }
  for (vertex_t y : fifo_) {
    order_.erase(k, y);
    order_.push_back(k - 1, y);
  }
  for (vertex_t y : fifo_) count_later(y);
}

// ---- batches ----------------------------------------------------------------------------------

bool DynamicCoreNumbers::update_batch(std::span<const std::uint64_t> keys, bool insert) {
  scanned_ = 0;
  budget_ = options_.recompute_work * 2.0 * static_cast<double>(graph_->num_edges());
  keys_ = keys;
  inserting_ = insert;
  for (std::uint64_t key : keys) in_batch_[arc_source(key)] = in_batch_[arc_target(key)] = 1;
  bool within = true;
  for (step_ = 0; step_ < keys.size() && within; ++step_) {
    const vertex_t a = arc_source(keys[step_]), b = arc_target(keys[step_]);
    within = insert ? insert_edge(a, b) : erase_edge(a, b);
  }
  for (std::uint64_t key : keys) in_batch_[arc_source(key)] = in_batch_[arc_target(key)] = 0;
  keys_ = {};
  if (within) return true;
  // Over budget: the order is rebuilt by the recompute that follows; restore the numbers so
  // that it counts the batch's changes against the state before it.
  for (const auto& [v, was] : old_) {
    result_.core[v] = was;
    touched_[v] = 0;
  }
  old_.clear();
  clear_marks();
  return false;
}

std::uint64_t DynamicCoreNumbers::recompute_counting() {
  const std::vector<std::uint32_t> old = std::move(result_.core);
  recompute();
  return count_changed(old, result_.core);
}

bool DynamicCoreNumbers::too_many(std::size_t batch_edges) const {
  const auto others = static_cast<double>(graph_->num_edges() - batch_edges);
  return static_cast<double>(batch_edges) > options_.recompute_fraction * others;
}

BatchEffect DynamicCoreNumbers::on_after_insert(std::span<const std::uint64_t> added) {
  grow();
  const bool recompute = too_many(added.size()) || !update_batch(added, true);
  return {recompute ? recompute_counting() : end_batch(), recompute};
}

void DynamicCoreNumbers::on_before_erase(std::span<const std::uint64_t> removed) {
  grow();
  // Processed before the edges go, so that each step sees the batch's edges up to its own as
  // removed and the later ones still present.
  erase_recomputes_ = too_many(removed.size()) || !update_batch(removed, false);
}

BatchEffect DynamicCoreNumbers::on_after_erase(std::span<const std::uint64_t>) {
  grow();
  return {erase_recomputes_ ? recompute_counting() : end_batch(), erase_recomputes_};
}

}  // namespace wg::cpu
