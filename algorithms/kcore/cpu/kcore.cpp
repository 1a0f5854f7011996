// Static and dynamic core numbers on the CPU graph. See kcore.hpp.
#include <warpgraph/algorithms/kcore/cpu/kcore.hpp>

#include <algorithm>
#include <stdexcept>

#include <warpgraph/algorithms/kcore/cpu/kcore_impl.hpp>

namespace wg::cpu {

template CoreNumbers core_numbers(const DynamicGraph&);

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
  result_ = core_numbers(*graph_);
  const std::size_t n = result_.core.size();
  per_core_.assign(std::size_t{result_.max_core} + 1, 0);
  for (std::uint32_t c : result_.core) ++per_core_[c];
  stamp_.assign(n, 0);
  epoch_ = 0;
  count_.assign(n, 0);
  touched_.assign(n, 0);
  old_.clear();
  return result_;
}

void DynamicCoreNumbers::grow() {
  const std::uint64_t n = graph_->num_vertices();
  if (n <= result_.core.size()) return;
  per_core_[0] += n - result_.core.size();
  result_.core.resize(n, 0);
  stamp_.resize(n, 0);
  count_.resize(n, 0);
  touched_.resize(n, 0);
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

std::uint64_t DynamicCoreNumbers::end_batch() {
  std::uint64_t changed = 0;
  for (const auto& [v, was] : old_) {
    changed += result_.core[v] != was;
    touched_[v] = 0;
  }
  old_.clear();
  return changed;
}

bool DynamicCoreNumbers::update_edge(std::span<const std::uint64_t> keys, std::size_t i,
                                     bool insert) {
  auto& core = result_.core;
  const vertex_t a = arc_source(keys[i]), b = arc_target(keys[i]);
  const std::uint32_t k = std::min(core[a], core[b]);
  // The graph holds the whole batch while it is processed, one edge at a time: the batch's edges
  // after keys[i] (insertion) or up to it (deletion) are hidden from this step's graph.
  auto for_each_edge = [&](vertex_t u, auto&& f) {
    graph_->for_each_neighbor(u, [&](vertex_t w) {
      ++scanned_;
      const std::uint64_t key = u < w ? arc_key(u, w) : arc_key(w, u);
      const auto at = std::lower_bound(keys.begin(), keys.end(), key);
      if (at != keys.end() && *at == key &&
          insert == (static_cast<std::size_t>(at - keys.begin()) > i)) {
        return;
      }
      f(w);
    });
  };
  if (epoch_ >= 0xfffffffd) {
    std::fill(stamp_.begin(), stamp_.end(), 0);
    epoch_ = 0;
  }
  epoch_ += 2;
  const std::uint32_t member = epoch_, peeled = epoch_ + 1;
  // The subcore: vertices of number k connected to an endpoint of number k through such vertices.
  subcore_.clear();
  for (vertex_t root : {a, b}) {
    if (core[root] == k && stamp_[root] != member) {
      stamp_[root] = member;
      subcore_.push_back(root);
    }
  }
  const double budget = options_.recompute_work * 2.0 * static_cast<double>(graph_->num_edges());
  for (std::size_t s = 0; s < subcore_.size(); ++s) {
    if (static_cast<double>(scanned_) > budget) return false;
    const vertex_t u = subcore_[s];
    std::uint32_t count = 0;
    for_each_edge(u, [&](vertex_t w) {
      if (core[w] < k) return;
      ++count;
      if (core[w] == k && stamp_[w] != member) {
        stamp_[w] = member;
        subcore_.push_back(w);
      }
    });
    count_[u] = count;
  }
  // Peel: on insertion members with at most k such neighbours cannot rise; on deletion members
  // with fewer than k cannot stay. Each peeled member lowers its unpeeled neighbours' counts.
  auto must_peel = [&](std::uint32_t count) { return insert ? count <= k : count < k; };
  stack_.clear();
  for (vertex_t u : subcore_) {
    if (must_peel(count_[u])) {
      stamp_[u] = peeled;
      stack_.push_back(u);
    }
  }
  while (!stack_.empty()) {
    const vertex_t u = stack_.back();
    stack_.pop_back();
    for_each_edge(u, [&](vertex_t w) {
      if (stamp_[w] != member) return;
      if (must_peel(--count_[w])) {
        stamp_[w] = peeled;
        stack_.push_back(w);
      }
    });
  }
  for (vertex_t u : subcore_) {
    if (insert && stamp_[u] == member) set_core(u, k + 1);
    if (!insert && stamp_[u] == peeled) set_core(u, k - 1);
  }
  return true;
}

bool DynamicCoreNumbers::update_batch(std::span<const std::uint64_t> keys, bool insert) {
  scanned_ = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (update_edge(keys, i, insert)) continue;
    for (const auto& [v, was] : old_) {
      result_.core[v] = was;
      touched_[v] = 0;
    }
    old_.clear();
    return false;
  }
  return true;
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
