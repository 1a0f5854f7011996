#pragma once
// The warm-start switch of DynamicPageRank (pagerank.hpp), plain C++ so that it is tested on the
// host: a warm start whose predicted iterations exceed ratio x those of the last cold start
// restarts cold.
#include <cmath>

#include <warpgraph/algorithms/pagerank/gpu/pagerank.hpp>

namespace wg::gpu::pr_detail {

struct WarmLimit {
  int cold_iterations;  ///< C, of the last cold start
  double cold_rate;     ///< its mean change ratio per iteration, in (0, 1)
  double ratio;         ///< restart when the prediction exceeds ratio x C
};

/// Iterations a run whose first iteration changed by `first` needs to get below tol, at
/// contraction `rate` per iteration (change_k ~ first * rate^(k - 1)); 1 when first < tol.
inline double predicted_iterations(double first, double tol, double rate) {
  if (first < tol) return 1;
  if (!(rate > 0 && rate < 1) || !(tol > 0)) return 1e300;
  return 1 + std::ceil(std::log(tol / first) / std::log(rate));
}

/// The mean change ratio per iteration of a run, (last / first)^(1 / (iterations - 1)); 0 when
/// it cannot say (fewer than two iterations, a zero change).
inline double mean_rate(const PageRankRun& r) {
  if (r.iterations < 2 || !(r.first_change > 0) || !(r.last_change > 0)) return 0;
  return std::pow(r.last_change / r.first_change, 1.0 / (r.iterations - 1));
}

/// Whether a limit can be formed from the last cold start (else warm starts run unlimited).
inline bool can_predict(int cold_iterations, double cold_rate) {
  return cold_iterations > 1 && cold_rate > 0 && cold_rate < 1;
}

/// Give up the warm start after its first iteration (which changed by `first`)?
inline bool give_up_warm(const WarmLimit& l, double first, double tol) {
  return predicted_iterations(first, tol, l.cold_rate) > l.ratio * l.cold_iterations;
}

}  // namespace wg::gpu::pr_detail
