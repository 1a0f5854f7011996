// The `cpu` backend of the CLI: wg::cpu::DynamicGraph (arcs in a BS-tree; undirected, all
// cores or WG_CPU_THREADS) with the incremental triangle counter of algorithms/tc/cpu, through the
// one adapter of graph_backend.hpp.
#include <cstdlib>
#include <memory>

#include <warpgraph/algorithms/tc/cpu/triangle_count.hpp>
#include <warpgraph/graph/cpu/dynamic_graph.hpp>

#include "backend.hpp"
#include "graph_backend.hpp"

namespace wg::cli {

unsigned threads_from_environment() {
  if (const char* env = std::getenv("WG_CPU_THREADS")) {
    const long n = std::strtol(env, nullptr, 10);
    if (n > 0 && n <= 4096) return static_cast<unsigned>(n);
  }
  return 0;
}

template class DynamicGraphBackend<cpu::DynamicGraph, cpu::IncrementalTriangleCounter>;

std::unique_ptr<GraphBackend> make_cpu_backend() {
  // The CPU graph ignores ids past its range in batches: grow it first, as the reference does.
  return std::make_unique<DynamicGraphBackend<cpu::DynamicGraph, cpu::IncrementalTriangleCounter>>(
      GraphBackendOptions{.name = "cpu", .grow_id_range = true},
      [threads = threads_from_environment()] {
        return std::make_unique<cpu::DynamicGraph>(cpu::GraphOptions{.threads = threads});
      });
}

}  // namespace wg::cli
