#pragma once
// PageRank: the vocabulary shared by the CPU (cpu/pagerank.hpp) and GPU (gpu/pagerank.hpp)
// backends. Each backend's PageRankOptions adds its tuning to the same three semantic fields
// (damping, tolerance, max_iterations; the reference's defaults).
#include <vector>

namespace wg {

struct PageRankResult {
  std::vector<double> rank;  ///< per vertex id
  int iterations = 0;        ///< iterations of the last run
  bool converged = false;    ///< the last run stopped on the tolerance
};

}  // namespace wg
