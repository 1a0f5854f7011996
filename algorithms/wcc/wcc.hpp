#pragma once
// Connected components (weakly connected for directed graphs): the vocabulary shared by the CPU
// (cpu/wcc.hpp) and GPU (gpu/wcc.hpp) backends. component[v] is the smallest vertex id of v's
// component, the canonical labelling the reference gives, so results compare with ==. No option
// changes the labels: ComponentsOptions is empty, taken by every backend so that all algorithms
// are called alike (options, then the backend's tuning: cpu::ComponentsTuning,
// gpu::ComponentsTuning, which say how and when a dynamic result recomputes).
#include <cstdint>
#include <vector>

#include <warpgraph/containers/core/types.hpp>

namespace wg {

/// What the computation is asked (nothing yet: the labels are canonical).
struct ComponentsOptions {};

struct Components {
  std::vector<vertex_t> component;  ///< per vertex id: the smallest id of its component
  std::uint64_t count = 0;          ///< number of components
};

}  // namespace wg
