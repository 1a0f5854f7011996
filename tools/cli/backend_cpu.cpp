// The `cpu` backend of the CLI: wg::cpu::DynamicGraph (arcs in a BS-tree; undirected, all
// cores or --threads) with the incremental triangle counter of algorithms/tc/cpu (tc's entry's,
// BackendCounter), through the one adapter of graph_backend.hpp.
#include <memory>

#include <warpgraph/algorithms/tc/cpu/tc.hpp>
#include <warpgraph/graph/cpu/dynamic_graph.hpp>

#include "backend.hpp"
#include "graph_backend.hpp"

namespace wg::cli {

#ifdef WG_CLI_HAVE_CPU_ALGORITHMS
// tracked_cpu.cpp: the CPU graph's dynamic algorithms for stream --algo.
std::unique_ptr<TrackedAlgorithm> make_cpu_tracked(const AlgorithmSpec& spec,
                                                   cpu::DynamicGraph& graph);
#endif

using CpuBackend = DynamicGraphBackend<cpu::DynamicGraph, BackendCounter<cpu::DynamicGraph>>;
template class DynamicGraphBackend<cpu::DynamicGraph, BackendCounter<cpu::DynamicGraph>>;

std::unique_ptr<GraphBackend> make_cpu_backend(unsigned threads) {
  // The CPU graph ignores ids past its range in batches: grow it first, as the reference does.
  auto backend = std::make_unique<CpuBackend>(
      GraphBackendOptions{.name = "cpu", .grow_id_range = true},
      [threads] {
        return std::make_unique<cpu::DynamicGraph>(cpu::GraphOptions{.threads = threads});
      },
      nullptr,
#ifdef WG_CLI_HAVE_CPU_ALGORITHMS
      make_cpu_tracked
#else
      nullptr
#endif
  );
  // Weighted streams (stream --algo sssp on a weighted file) keep their weights as floats.
  backend->set_weighted_graph([threads] {
    return std::make_unique<cpu::DynamicGraph>(
        cpu::GraphOptions{.weighted = true, .threads = threads});
  });
  return backend;
}

}  // namespace wg::cli
