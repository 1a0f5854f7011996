#pragma once
// PageRank: the vocabulary shared by the reference (algorithms/reference/reference.hpp), the CPU
// (cpu/pagerank.hpp) and the GPU (gpu/pagerank.hpp) backends: the options every backend reads
// the same way, and the result. A backend's tuning (threads, hub splitting, ...) is its own
// struct (cpu::PageRankTuning, gpu::PageRankTuning), passed beside the options.
#include <vector>

namespace wg {

/// What the power iteration computes and when it stops; every backend validates these alike
/// (wg::InvalidArgument when damping lies outside [0, 1], tolerance < 0 or max_iterations < 0).
struct PageRankOptions {
  /// How the change of one iteration is measured against the tolerance.
  enum class Stop {
    l1,          ///< sum of |change| (the reference's rule)
    max_change,  ///< largest |change| of one vertex (Gunrock's rule)
  };
  /// Damping factor d, in [0, 1].
  double damping = 0.85;
  /// Stop when the change of one iteration is below this (>= 0).
  double tolerance = 1e-10;
  /// Stop after this many iterations even when not converged (>= 0).
  int max_iterations = 1000;
  Stop stop = Stop::l1;
};

struct PageRankResult {
  std::vector<double> rank;  ///< per vertex id
  int iterations = 0;        ///< iterations of the last run
  bool converged = false;    ///< the last run stopped on the tolerance
};

}  // namespace wg
