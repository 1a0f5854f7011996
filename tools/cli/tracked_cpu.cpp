// The cpu backend's tracked algorithms (stream --algo): the dynamic classes of
// algorithms/*/cpu on the backend's wg::cpu::DynamicGraph.
#include <algorithm>
#include <memory>

#include "cli.hpp"
#include "tracked_algorithm.hpp"
#define WG_REGISTERED_WITH_CPU 1
#include "registered_algorithms.hpp"

namespace wg::cli {

std::unique_ptr<TrackedAlgorithm> make_cpu_tracked(const AlgorithmSpec& spec,
                                                   cpu::DynamicGraph& graph) {
  return track_registered<void WG_REGISTERED_CPU(WG_CLI_ENTRY_ARG)>(
      spec, graph, [](auto&&... a) { return make_tracked(std::move(a)...); },
      "not available on the cpu backend");
}

}  // namespace wg::cli
