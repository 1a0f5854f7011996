// Static and dynamic PageRank on the CPU graph. See pagerank.hpp.
#include <warpgraph/algorithms/pagerank/cpu/pagerank.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include <warpgraph/algorithms/pagerank/cpu/pagerank_impl.hpp>

namespace wg::cpu {

template PageRankResult pagerank(const DynamicGraph&, const PageRankOptions&,
                                 const PageRankTuning&);

DynamicPageRank::DynamicPageRank(DynamicGraph& graph, const PageRankOptions& options,
                                 const PageRankTuning& tuning)
    : DynamicFrame(graph), options_(options), tuning_(with_graph_threads(tuning, graph)) {
  detail::check_pagerank_options(options_);
  if (!(tuning_.push_headroom > 0.0 && tuning_.push_headroom <= 1.0))
    throw InvalidArgument("cpu pagerank: push_headroom must lie in (0, 1]");
  if (!(tuning_.push_work >= 0.0)) throw InvalidArgument("cpu pagerank: push_work must be >= 0");
  recompute();
}

const PageRankResult& DynamicPageRank::recompute() {
  mark_current();
  const std::uint64_t n = graph_->num_vertices();
  result_.rank.assign(n, n ? 1.0 / static_cast<double>(n) : 0.0);
  iterate_from_current();
  return result_;
}

bool DynamicPageRank::can_push() const noexcept {
  return options_.stop == PageRankOptions::Stop::l1 && options_.damping < 1.0 &&
         result_.converged && !result_.rank.empty();
}

void DynamicPageRank::iterate_from_current() {
  const unsigned threads = resolve_threads(tuning_.threads);
  const std::uint64_t n = graph_->num_vertices();
  result_.rank.resize(n, 0.0);
  const detail::PullArcs arcs = detail::gather_in_arcs(*graph_, threads);
  const bool l1_rule = options_.stop == PageRankOptions::Stop::l1 && options_.damping < 1.0;
  PageRankOptions o = options_;
  if (l1_rule) o.tolerance *= tuning_.push_headroom;
  detail::iterate_pagerank(arcs, result_.rank, o, tuning_.parallel_grain, threads, result_);
  last_iterations_ = result_.iterations;
  residual_.clear();
  l1_ = 0;
  if (l1_rule) {
    residual_ = detail::pagerank_residual(arcs, result_.rank, options_.damping,
                                          tuning_.parallel_grain, threads);
    for (double r : residual_) l1_ += std::abs(r);
  }
  seen_.assign(n, 0);
  queued_.assign(n, 0);
}

void DynamicPageRank::add_residual(vertex_t v, double delta) {
  if (!seen_[v]) {
    seen_[v] = 1;
    touched_.push_back(v);
  }
  const double old = residual_[v];
  const double now = old + delta;
  residual_[v] = now;
  l1_ += std::abs(now) - std::abs(old);
  if (!queued_[v] && std::abs(now) >= theta_ * (graph_->degree(v) + 1.0)) {
    queued_[v] = 1;
    queue_.push_back(v);
  }
}

std::uint64_t DynamicPageRank::normalize() {
  std::vector<double>& x = result_.rank;
  const std::size_t n = x.size();
  double sx = 0, sr = 0;
  for (std::size_t v = 0; v < n; ++v) {
    sx += x[v];
    sr += residual_[v];
  }
  const double inv = 1.0 / (sx + sr / (1.0 - options_.damping));
  const double moved = options_.tolerance / static_cast<double>(n);
  std::uint64_t changed = 0;
  l1_ = 0;
  for (std::size_t v = 0; v < n; ++v) {
    x[v] *= inv;
    residual_[v] *= inv;
    l1_ += std::abs(residual_[v]);
    changed += std::abs(x[v] - before_[v]) > moved;
  }
  return changed;
}

void DynamicPageRank::grow(std::span<const std::uint64_t> arcs, bool erase) {
  // The residual is exact (no dropped uniform part) once normalised; the new ids' share needs it.
  normalize();
  std::vector<double>& x = result_.rank;
  const std::size_t n_old = x.size(), n = graph_->num_vertices();
  const double d = options_.damping;
  // The dangling rank of the graph before the batch: today's degree 0, corrected at the sources
  // of the batch's arcs (arcs sorted by source).
  double dangling = 0;
  for (std::size_t v = 0; v < n_old; ++v) dangling += graph_->degree(vertex_t(v)) ? 0.0 : x[v];
  for (std::size_t i = 0; i < arcs.size();) {
    const vertex_t u = arc_source(arcs[i]);
    std::size_t j = i;
    while (j < arcs.size() && arc_source(arcs[j]) == u) ++j;
    const std::uint64_t now = graph_->degree(u), c = j - i;
    const std::uint64_t was = erase ? now + c : now - c;
    if (u < n_old) dangling += (was == 0 ? x[u] : 0.0) - (now == 0 ? x[u] : 0.0);
    i = j;
  }
  x.resize(n, 0.0);
  residual_.resize(n, 0.0);
  seen_.resize(n, 0);
  queued_.resize(n, 0);
  const double share = ((1.0 - d) + d * dangling) / static_cast<double>(n_old);
  for (std::size_t w = n_old; w < n; ++w) add_residual(vertex_t(w), share);
}

void DynamicPageRank::spread(std::span<const std::uint64_t> arcs, bool erase) {
  const double d = options_.damping;
  const std::vector<double>& x = result_.rank;
  for (std::size_t i = 0; i < arcs.size();) {
    const vertex_t u = arc_source(arcs[i]);
    std::size_t j = i;
    while (j < arcs.size() && arc_source(arcs[j]) == u) ++j;
    const double xu = x[u];
    const std::uint64_t now = graph_->degree(u), c = j - i;
    const std::uint64_t was = erase ? now + c : now - c;
    work_ += static_cast<double>(c);
    if (xu != 0.0) {
      // Column u changes from 1/was on the old out-neighbours (uniform when was == 0) to 1/now on
      // the new ones (uniform when now == 0); uniform parts are dropped (pagerank.hpp).
      if (was && now) {
        const double common = d * xu * (1.0 / static_cast<double>(now) - 1.0 / was);
        graph_->for_each_neighbor(u, [&](vertex_t w) { add_residual(w, common); });
        work_ += static_cast<double>(now);
      }
      // The batch's arcs: inserted ones gain d xu / was beside `common` (d xu / now when u was
      // dangling), erased ones lose d xu / was.
      const double each = was ? d * xu / static_cast<double>(was) : d * xu / now;
      for (std::size_t k = i; k < j; ++k) add_residual(arc_target(arcs[k]), erase ? -each : each);
    }
    i = j;
  }
}

bool DynamicPageRank::push(double target, double budget) {
  const double d = options_.damping;
  std::vector<double>& x = result_.rank;
  theta_ = 0;
  for (vertex_t v : touched_)
    theta_ = std::max(theta_, std::abs(residual_[v]) / (graph_->degree(v) + 1.0));
  theta_ /= 8;
  bool within = true;
  while (l1_ > target && within) {
    double top = 0;  // the largest ratio left below theta_: a round with nothing to push jumps
    for (std::size_t i = 0; i < touched_.size(); ++i) {
      const vertex_t v = touched_[i];
      const double ratio = std::abs(residual_[v]) / (graph_->degree(v) + 1.0);
      if (ratio >= theta_ && ratio > 0) {
        if (!queued_[v]) {
          queued_[v] = 1;
          queue_.push_back(v);
        }
      } else {
        top = std::max(top, ratio);
      }
    }
    if (queue_.empty()) {
      if (top == 0) break;  // what is left lies outside the batch's reach
      theta_ = top;
      continue;
    }
    const double round_start_work = work_, round_start_l1 = l1_;
    std::size_t head = 0;
    for (; head < queue_.size() && l1_ > target; ++head) {
      const vertex_t v = queue_[head];
      queued_[v] = 0;
      const double rv = residual_[v];
      residual_[v] = 0;
      l1_ -= std::abs(rv);
      x[v] += rv;
      const std::uint32_t k = graph_->degree(v);
      work_ += k + 1.0;
      // A dangling vertex's share is uniform: dropped (pagerank.hpp).
      if (k) {
        const double share = d * rv / k;
        graph_->for_each_neighbor(v, [&](vertex_t w) { add_residual(w, share); });
      }
      if (work_ > budget) {
        within = false;
        ++head;
        break;
      }
    }
    for (; head < queue_.size(); ++head) queued_[queue_[head]] = 0;
    queue_.clear();
    theta_ /= 8;
    // Rounds to go at this round's rate of reduction: a push bound to pass the budget (its
    // residual has spread over the graph) falls back now rather than at the budget.
    const double round_work = work_ - round_start_work, rate = round_start_l1 / l1_;
    if (within && l1_ > target && round_work > budget / 64) {
      const double rounds = rate > 1 ? std::log(l1_ / target) / std::log(rate) : 1e300;
      within = work_ + rounds * round_work <= budget;
    }
  }
  theta_ = std::numeric_limits<double>::infinity();
  return within && l1_ <= target;
}

BatchEffect DynamicPageRank::settle() {
  open_ = false;
  BatchEffect e;
  const double d = options_.damping, target = d * options_.tolerance;
  if (!fallback_) {
    // The warm-started iteration this push replaces: its iterations to tolerance * headroom,
    // the gather and the residual pass, each over n + arcs.
    const double n = static_cast<double>(result_.rank.size());
    const double sweep = n + static_cast<double>(graph_->num_arcs());
    const double floor = options_.tolerance * tuning_.push_headroom;
    // The contraction by d bounds the iterations; graphs that mix fast take fewer: the last
    // static run's count is the other bound.
    const double iterations =
        l1_ > floor && d > 0
            ? std::min(std::log(l1_ / floor) / std::log(1.0 / d), double(last_iterations_))
            : 0.0;
    const double budget = tuning_.push_work * (iterations + 2.0) * sweep;
    // The tracked norm drifts by rounding: the exact one after normalising decides.
    for (int pass = 0; pass < 2 && !fallback_; ++pass) {
      if (!push(target, budget)) {
        fallback_ = true;
        break;
      }
      e.changed = normalize();
      if (l1_ <= target) break;
      if (pass == 1) fallback_ = true;
    }
  }
  for (vertex_t v : touched_) seen_[v] = queued_[v] = 0;
  touched_.clear();
  if (fallback_) {
    if (!residual_.empty()) {
      // Warm start from x + r / (1 - d) (the first term of x + R r), scaled to sum 1: a start
      // whose sum is off decays only by d per iteration.
      std::vector<double>& x = result_.rank;
      const double scale = 1.0 / (1.0 - d);
      double sum = 0;
      for (std::size_t v = 0; v < x.size(); ++v) sum += x[v] += residual_[v] * scale;
      for (double& xv : x) xv /= sum;
    }
    iterate_from_current();
    const double moved = options_.tolerance / static_cast<double>(result_.rank.size());
    e.changed = 0;
    for (std::size_t v = 0; v < result_.rank.size(); ++v)
      e.changed += std::abs(result_.rank[v] - before_[v]) > moved;
    e.recomputed = true;
  }
  return e;
}

BatchEffect DynamicPageRank::after_batch(std::span<const std::uint64_t> keys, bool erase) {
  const std::uint64_t n = graph_->num_vertices();
  const bool grew = n != result_.rank.size();
  if (!open_) result_.iterations = 0;
  // A batch that changed nothing leaves the ranks as they are.
  if (keys.empty() && !grew) return {};
  if (!open_) {
    open_ = true;
    before_ = result_.rank;
    work_ = 0;
    theta_ = std::numeric_limits<double>::infinity();
    fallback_ = !can_push();
  }
  before_.resize(n, 0.0);
  arcs_.clear();
  for (std::uint64_t key : keys) {
    arcs_.push_back(key);
    if (!graph_->directed()) arcs_.push_back(arc_key(arc_target(key), arc_source(key)));
  }
  if (!graph_->directed()) std::sort(arcs_.begin(), arcs_.end());
  if (!fallback_) {
    if (grew) grow(arcs_, erase);
    spread(arcs_, erase);
  }
  return in_step() ? BatchEffect{} : settle();
}

BatchEffect DynamicPageRank::on_after_insert(std::span<const std::uint64_t> added) {
  return after_batch(added, false);
}
void DynamicPageRank::on_before_erase(std::span<const std::uint64_t>) {}
BatchEffect DynamicPageRank::on_after_erase(std::span<const std::uint64_t> removed) {
  return after_batch(removed, true);
}

void DynamicPageRank::begin_step(std::uint64_t, std::uint64_t) {}

BatchEffect DynamicPageRank::end_step(const BatchEffect&, const BatchEffect&) {
  return open_ ? settle() : BatchEffect{};
}

}  // namespace wg::cpu
