#pragma once
// Connected components (weakly connected for directed graphs): the vocabulary shared by the CPU
// (cpu/wcc.hpp) and GPU (gpu/wcc.hpp) backends. component[v] is the smallest vertex id of v's
// component, the canonical labelling the reference gives, so results compare with ==.
#include <cstdint>
#include <vector>

#include <warpgraph/containers/core/types.hpp>

namespace wg {

struct Components {
  std::vector<vertex_t> component;  ///< per vertex id: the smallest id of its component
  std::uint64_t count = 0;          ///< number of components
};

}  // namespace wg
