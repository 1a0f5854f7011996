// Static and dynamic core numbers on the CPU graph. See kcore.hpp.
#include <warpgraph/algorithms/kcore/cpu/kcore.hpp>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <warpgraph/algorithms/kcore/cpu/kcore_impl.hpp>

namespace wg::cpu {

template CoreNumbers core_numbers(const DynamicGraph&);

namespace {

// mark_ states within one level of an insertion batch: kQueued: in the heap; kCandidate: more than
// K neighbours present when visited; kLeaving: a former candidate whose removal waits in fifo_;
// kKept: stays at K. Within a deletion batch: kFallen: waits to fall one level; kKept: fell.
enum Mark : std::uint8_t { kNone, kQueued, kCandidate, kLeaving, kKept, kFallen = kCandidate };
constexpr std::uint32_t kNoRank = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint32_t kNoLink = std::numeric_limits<std::uint32_t>::max();

}  // namespace

DynamicCoreNumbers::DynamicCoreNumbers(DynamicGraph& graph,
                                       const DynamicCoreNumbersOptions& options,
                                       const DynamicCoreNumbersTuning& tuning)
    : DynamicFrame(graph), options_(options), tuning_(tuning) {
  if (graph.directed()) {
    throw std::invalid_argument("DynamicCoreNumbers: the graph must be undirected");
  }
  recompute();
}

const CoreNumbers& DynamicCoreNumbers::recompute() {
  mark_current();
  const DynamicGraph& g = *graph_;
  const std::uint64_t n = g.num_vertices();
  detail::PeelOrder k_order;
  result_ = detail::peel_core_numbers(
      n, [&](vertex_t v) { return g.degree(v); },
      [&](vertex_t v, auto&& f) { g.for_each_neighbor(v, f); }, &k_order);
  const std::vector<std::uint32_t>& core = result_.core;
  per_core_.assign(std::size_t{result_.max_core} + 1, 0);
  for (std::uint32_t c : core) ++per_core_[c];
  // The peeling's removal order is a k-order; each core number's run of it is one list.
  const std::vector<vertex_t>& removal = k_order.removal;
  order_.reset(n, std::size_t{result_.max_core} + 2);
  for (std::size_t i = 0, j = 0; i < removal.size(); i = j) {
    while (j < removal.size() && core[removal[j]] == core[removal[i]]) ++j;
    order_.assign(core[removal[i]], std::span<const vertex_t>(removal.data() + i, j - i));
  }
  plus_ = std::move(k_order.later);
  mcd_ = std::move(k_order.mcd);
  star_.assign(n, 0);
  first_link_.assign(n, kNoLink);
  mark_.assign(n, kNone);
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
  mcd_.resize(n, 0);
  star_.resize(n, 0);
  first_link_.resize(n, kNoLink);
  mark_.resize(n, kNone);
  touched_.resize(n, 0);
  order_.grow(n, 1);
  for (std::uint64_t v = had; v < n; ++v) order_.push_back(0, vertex_t(v));
}

bool DynamicCoreNumbers::before(vertex_t a, vertex_t b) const noexcept {
  const std::uint32_t ca = result_.core[a], cb = result_.core[b];
  return ca != cb ? ca < cb : order_.before(a, b);
}

template <class F>
void DynamicCoreNumbers::neighbors(vertex_t u, F&& f) {
  scanned_ += graph_->degree(u);
  graph_->for_each_neighbor(u, f);
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
  ++counters_.moved;
  result_.max_core = std::max(result_.max_core, c);
  while (result_.max_core > 0 && per_core_[result_.max_core] == 0) --result_.max_core;
}

void DynamicCoreNumbers::clear_marks() {
  for (vertex_t v : visited_) {
    mark_[v] = kNone;
    star_[v] = 0;
    first_link_[v] = kNoLink;
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

// ---- insertion (OrderInsert, all of a batch's edges at once) ---------------------------------

bool DynamicCoreNumbers::insert_batch(std::span<const std::uint64_t> keys) {
  auto& core = result_.core;
  // Every new edge joins the deg+ of its endpoint first in the order; the endpoints whose deg+
  // passes their core number start the replay of their level.
  seeds_.clear();
  for (std::uint64_t key : keys) {
    const vertex_t a = arc_source(key), b = arc_target(key);
    mcd_[a] += core[b] >= core[a];
    mcd_[b] += core[a] >= core[b];
    const vertex_t u = before(a, b) ? a : b;
    if (++plus_[u] > core[u]) seeds_.push_back(u);
  }
  std::sort(seeds_.begin(), seeds_.end(), [&](vertex_t x, vertex_t y) { return before(x, y); });
  seeds_.erase(std::unique(seeds_.begin(), seeds_.end()), seeds_.end());
  if (!affordable(seeds_)) return false;
  // Levels in increasing order: the risers of one level open the next and may start its replay.
  std::size_t next = 0;
  rise_.clear();
  while (next < seeds_.size() || !rise_.empty()) {
    const std::uint32_t k = rise_.empty() ? core[seeds_[next]] : core[rise_.front()];
    heap_.clear();
    for (vertex_t v : rise_) enqueue(v);
    rise_.clear();
    for (; next < seeds_.size() && core[seeds_[next]] == k; ++next) enqueue(seeds_[next]);
    if (!replay_level(k)) return false;
  }
  return true;
}

void DynamicCoreNumbers::enqueue(vertex_t v) {
  if (mark_[v] != kNone) return;
  mark_[v] = kQueued;
  visited_.push_back(v);
  heap_.push_back(v);
  std::push_heap(heap_.begin(), heap_.end(),
                 [&](vertex_t x, vertex_t y) { return order_.before(y, x); });
}

bool DynamicCoreNumbers::replay_level(std::uint32_t k) {
  ++counters_.searches;
  // Replays the peeling of level k: vertices not in the heap (no candidate neighbour before them,
  // deg+ <= k) keep their place; the others are visited in order.
  cand_.clear();
  cand_info_.clear();
  adj_.clear();
  links_.clear();
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(),
                  [&](vertex_t x, vertex_t y) { return order_.before(y, x); });
    const vertex_t w = heap_.back();
    heap_.pop_back();
    ++counters_.visited;
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
  // From now on star_[w] counts its neighbours still present, and plus_[w] holds its rank among
  // the candidates (deg+ is set again when it leaves or rises).
  cand_.push_back(w);
  cand_info_.push_back({.near = adj_.size(), .up = 0, .end = 0, .before = star_[w]});
  star_[w] += plus_[w];
  plus_[w] = std::uint32_t(cand_.size() - 1);
  mark_[w] = kCandidate;
  // Its neighbours of level k after it gain a candidate before them. Those that may still change
  // (queued or candidates) and those of level k + 1 are kept for its later steps (adj_).
  std::size_t ups = up_.size();
  neighbors(w, [&](vertex_t x) {
    const std::uint32_t c = result_.core[x];
    if (c == k + 1) {
      up_.push_back(x);
    } else if (c == k) {
      const std::uint8_t m = mark_[x];
      if (m == kNone && order_.before(w, x)) enqueue(x);
      if (mark_[x] == kQueued) {
        ++star_[x];
        links_.push_back({.rank = plus_[w], .next = first_link_[x]});
        first_link_[x] = std::uint32_t(links_.size() - 1);
      }
      if (mark_[x] == kQueued || m == kCandidate) adj_.push_back(x);
    }
  });
  CandidateInfo& info = cand_info_.back();
  info.up = adj_.size();
  adj_.insert(adj_.end(), up_.begin() + static_cast<std::ptrdiff_t>(ups), up_.end());
  up_.resize(ups);
  info.end = adj_.size();
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
  // y leaves (rank: its candidate rank, or none for w): x is one of its neighbours.
  auto lower = [&](vertex_t x, std::uint32_t rank) {
    const std::uint8_t m = mark_[x];
    if (m == kCandidate) {
      if (rank < plus_[x]) --cand_info_[plus_[x]].before;
      if (--star_[x] <= k) {
        mark_[x] = kLeaving;
        order_.insert_after(k, cursor, x);
        cursor = x;
        fifo_.push_back(x);
      }
    } else if (m == kLeaving || (m == kQueued && rank != kNoRank)) {
      --star_[x];
    }
  };
  // Its candidate neighbours are the candidates (all before it) that counted in its star_.
  for (std::uint32_t l = first_link_[w]; l != kNoLink; l = links_[l].next) {
    ++scanned_;
    lower(cand_[links_[l].rank], kNoRank);
  }
  for (std::size_t i = 0; i < fifo_.size(); ++i) {
    const vertex_t y = fifo_[i];
    const std::uint32_t rank = plus_[y];
    mark_[y] = kKept;
    plus_[y] = star_[y];
    const CandidateInfo& info = cand_info_[rank];
    scanned_ += info.up - info.near;
    for (std::size_t j = info.near; j < info.up; ++j) lower(adj_[j], rank);
  }
}

void DynamicCoreNumbers::promote(std::uint32_t k) {
  order_.grow(result_.core.size(), std::size_t{k} + 2);
  vertex_t at = detail::OrderLists::kNone;
  for (std::size_t i = 0; i < cand_.size(); ++i) {
    const vertex_t c = cand_[i];
    if (mark_[c] != kCandidate) continue;
    set_core(c, k + 1);
    order_.insert_after(k + 1, at, c);
    at = c;
    // Its neighbours present are those of number > k and the other risers; those before it
    // are the risers ranked before it. Its neighbours of k + 1 count it in their mcd now.
    const CandidateInfo& info = cand_info_[i];
    mcd_[c] = star_[c];
    plus_[c] = star_[c] - info.before;
    scanned_ += info.end - info.up;
    for (std::size_t j = info.up; j < info.end; ++j) ++mcd_[adj_[j]];
    if (plus_[c] > k + 1) rise_.push_back(c);  // starts the replay of level k + 1
  }
}

// ---- deletion (a whole batch at once, after the graph lost it) ------------------------------

bool DynamicCoreNumbers::erase_batch(std::span<const std::uint64_t> keys) {
  auto& core = result_.core;
  // Each removed edge leaves the deg+ of its endpoint first in the order and the mcd of the
  // endpoints it counted in.
  for (std::uint64_t key : keys) {
    const vertex_t a = arc_source(key), b = arc_target(key);
    --plus_[before(a, b) ? a : b];
    mcd_[a] -= core[b] >= core[a];
    mcd_[b] -= core[a] >= core[b];
  }
  // A vertex whose mcd is below its number k falls to k - 1 (fifo_, kFallen while waiting; a
  // waiting vertex's mcd and deg+ are recounted when it comes out, so nothing lowers them).
  auto fall = [&](vertex_t x) {
    if (mark_[x] == kNone) visited_.push_back(x);
    mark_[x] = kFallen;
    fifo_.push_back(x);
  };
  fifo_.clear();
  for (std::uint64_t key : keys) {
    for (vertex_t r : {arc_source(key), arc_target(key)})
      if (mark_[r] == kNone && mcd_[r] < core[r]) fall(r);
  }
  if (fifo_.empty()) return true;
  if (!affordable(fifo_)) return false;
  ++counters_.searches;
  for (std::size_t i = 0; i < fifo_.size(); ++i) {
    const vertex_t y = fifo_[i];
    const std::uint32_t k = core[y];
    mark_[y] = kKept;
    ++counters_.visited;
    set_core(y, k - 1);
    // y moves from level k to the end of level k - 1: after it come its neighbours of number
    // >= k; those at k that had it after them lose it from deg+, and from mcd. Its neighbours at
    // k - 1 are before it and keep it after them (a later fall from k - 1 adjusts them in turn).
    std::uint32_t later = 0, m = 0;
    neighbors(y, [&](vertex_t x) {
      const std::uint32_t c = core[x];
      m += c + 1 >= k;
      if (c < k) return;
      ++later;
      if (c > k) return;
      plus_[x] -= order_.before(x, y);
      if (mark_[x] != kFallen && --mcd_[x] < k) fall(x);
    });
    order_.erase(k, y);
    order_.push_back(k - 1, y);
    plus_[y] = later;
    mcd_[y] = m;
    if (m + 1 < k) fall(y);  // falls again
    if (static_cast<double>(scanned_) > budget_) return false;
  }
  clear_marks();
  return true;
}

bool DynamicCoreNumbers::affordable(std::span<const vertex_t> first) const {
  double arcs = static_cast<double>(scanned_);
  for (vertex_t v : first) arcs += static_cast<double>(graph_->degree(v));
  return arcs <= budget_;
}

// ---- batches ----------------------------------------------------------------------------------

bool DynamicCoreNumbers::update_batch(std::span<const std::uint64_t> keys, bool insert) {
  // A batch about the size of one whose search recently spent its budget is not tried.
  SearchBackoff& backoff = backoff_[insert];
  if (backoff.skip(keys.size())) {
    ++counters_.skipped;
    return false;
  }
  scanned_ = 0;
  budget_ =
      options_.recompute_work * tuning_.work_scale * 2.0 * static_cast<double>(graph_->num_edges());
  const bool finished = insert ? insert_batch(keys) : erase_batch(keys);
  backoff.tried(keys.size(), finished);
  if (!finished) clear_marks();
  return finished;
}

void DynamicCoreNumbers::undo() {
  // The order is rebuilt by the recompute that follows; the numbers go back so that it counts
  // the changes against the state before the batch (or mixed step).
  for (const auto& [v, was] : old_) {
    result_.core[v] = was;
    touched_[v] = 0;
  }
  old_.clear();
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

BatchEffect DynamicCoreNumbers::answer(bool fallback) {
  if (!in_step()) {
    if (fallback) undo();
    return {fallback ? recompute_counting() : end_batch(), fallback};
  }
  // In a mixed step the changes are counted, and a fallback recomputes, once at its end.
  if (fallback) {
    undo();
    step_recomputes_ = true;
  }
  return {0, fallback};
}

void DynamicCoreNumbers::begin_step(std::uint64_t, std::uint64_t) {
  step_recomputes_ = false;
}

BatchEffect DynamicCoreNumbers::end_step(const BatchEffect&, const BatchEffect&) {
  if (step_recomputes_) return {recompute_counting(), true};
  return {end_batch(), false};
}

BatchEffect DynamicCoreNumbers::on_after_insert(std::span<const std::uint64_t> added) {
  grow();
  if (in_step() && step_recomputes_) return {0, true};  // the step's end recomputes
  return answer(too_many(added.size()) || !update_batch(added, true));
}

void DynamicCoreNumbers::on_before_erase(std::span<const std::uint64_t> removed) {
  grow();
  erase_recomputes_ = too_many(removed.size());
}

BatchEffect DynamicCoreNumbers::on_after_erase(std::span<const std::uint64_t> removed) {
  grow();
  // Processed once the edges are gone (the order and numbers still those from before).
  return answer(erase_recomputes_ || !update_batch(removed, false));
}

}  // namespace wg::cpu
