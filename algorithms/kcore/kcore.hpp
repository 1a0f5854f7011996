#pragma once
// k-core decomposition: the vocabulary shared by the CPU (cpu/kcore.hpp) and GPU (gpu/kcore.hpp)
// backends. A vertex's core number is the largest k such that it lies in a subgraph where every
// vertex has degree >= k (undirected simple graph).
#include <cstdint>
#include <vector>

namespace wg {

struct CoreNumbers {
  std::vector<std::uint32_t> core;  ///< per vertex id: its core number
  std::uint32_t max_core = 0;       ///< the largest core number (degeneracy)
};

}  // namespace wg
