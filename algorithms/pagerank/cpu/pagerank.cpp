// Static and dynamic PageRank on the CPU graph. See pagerank.hpp.
#include <warpgraph/algorithms/pagerank/cpu/pagerank.hpp>

#include <cmath>

#include <warpgraph/algorithms/pagerank/cpu/pagerank_impl.hpp>

namespace wg::cpu {

template PageRankResult pagerank(const DynamicGraph&, const PageRankOptions&,
                                 const PageRankTuning&);

DynamicPageRank::DynamicPageRank(DynamicGraph& graph, const PageRankOptions& options,
                                 const PageRankTuning& tuning)
    : DynamicFrame(graph), options_(options), tuning_(with_graph_threads(tuning, graph)) {
  recompute();
}

const PageRankResult& DynamicPageRank::recompute() {
  mark_current();
  result_ = pagerank(*graph_, options_, tuning_);
  return result_;
}

std::uint64_t DynamicPageRank::warm_start() {
  const unsigned threads = resolve_threads(tuning_.threads);
  const std::uint64_t n = graph_->num_vertices();
  std::vector<double> old = result_.rank;
  // Ids the graph added since start at 0: the ranks still sum to 1.
  result_.rank.resize(n, 0.0);
  old.resize(n, 0.0);
  detail::iterate_pagerank(detail::gather_in_arcs(*graph_, threads), result_.rank, options_,
                           tuning_.parallel_grain, threads, result_);
  const double moved = n ? options_.tolerance / static_cast<double>(n) : 0.0;
  std::uint64_t changed = 0;
  for (std::uint64_t v = 0; v < n; ++v) changed += std::abs(result_.rank[v] - old[v]) > moved;
  return changed;
}

BatchEffect DynamicPageRank::after_batch(std::span<const std::uint64_t> keys) {
  BatchEffect e;
  result_.iterations = 0;
  // A batch that changed nothing leaves the ranks converged as they are.
  if (!keys.empty() || graph_->num_vertices() != result_.rank.size()) e.changed = warm_start();
  return e;
}

}  // namespace wg::cpu
