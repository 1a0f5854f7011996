// --algo names and the reference checks of the tracked results. See tracked_algorithm.hpp.
#include "tracked_algorithm.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include <fmt/format.h>

#include <warpgraph/algorithms/reference/reference.hpp>

#include "cli.hpp"

namespace wg::cli {
namespace {

constexpr AlgorithmKind kAll[] = {AlgorithmKind::tc,    AlgorithmKind::bfs,
                                  AlgorithmKind::cc,    AlgorithmKind::pagerank,
                                  AlgorithmKind::kcore, AlgorithmKind::sssp};

/// The first vertex where two per-vertex results differ, as "vertex V: got X, reference Y".
template <class T>
std::string first_difference(const std::vector<double>& got, const std::vector<T>& want,
                             const char* what) {
  if (got.size() != want.size())
    return fmt::format("{}: {} values, the reference has {}", what, got.size(), want.size());
  for (std::size_t v = 0; v < got.size(); ++v) {
    const double w = static_cast<double>(want[v]);
    if (got[v] != w && !(std::isinf(got[v]) && std::isinf(w)))
      return fmt::format("{} of vertex {}: {}, the reference says {}", what, v, got[v], w);
  }
  return "";
}

[[noreturn]] void no_device_lists(AlgorithmKind kind) {
  throw Error(std::string("--algo ") + algorithm_name(kind) +
              ": this result follows a host graph, not device edge lists");
}

}  // namespace

BatchEffect TrackedAlgorithm::after_insert_device(const gpu::ChangedEdges&) {
  no_device_lists(kind());
}
void TrackedAlgorithm::before_erase_device(const gpu::ChangedEdges&) {
  no_device_lists(kind());
}
BatchEffect TrackedAlgorithm::after_erase_device(const gpu::ChangedEdges&) {
  no_device_lists(kind());
}

const char* algorithm_name(AlgorithmKind kind) {
  switch (kind) {
    case AlgorithmKind::tc:
      return "tc";
    case AlgorithmKind::bfs:
      return "bfs";
    case AlgorithmKind::cc:
      return "cc";
    case AlgorithmKind::pagerank:
      return "pagerank";
    case AlgorithmKind::kcore:
      return "kcore";
    case AlgorithmKind::sssp:
      return "sssp";
  }
  return "?";
}

std::vector<AlgorithmSpec> parse_algorithms(const std::string& list, vertex_t source) {
  std::vector<AlgorithmSpec> specs;
  std::stringstream in(list);
  std::string name;
  while (std::getline(in, name, ',')) {
    bool known = false;
    for (AlgorithmKind k : kAll) {
      if (name != algorithm_name(k)) continue;
      known = true;
      for (const AlgorithmSpec& s : specs)
        if (s.kind == k) throw UsageError("--algo: " + name + " is named twice");
      specs.push_back({.kind = k, .source = source});
    }
    if (!known)
      throw UsageError("--algo: unknown algorithm '" + name +
                       "' (known: tc, bfs, cc, pagerank, kcore, sssp)");
  }
  if (specs.empty()) throw UsageError("--algo: no algorithm named");
  return specs;
}

std::string check_against_reference(const AlgorithmSpec& spec, const EdgeList& graph,
                                    const std::vector<double>& values, double tc_total) {
  const bool directed = !graph.symmetric;
  switch (spec.kind) {
    case AlgorithmKind::tc: {
      const std::uint64_t want = reference::triangle_count(graph).total;
      if (static_cast<std::uint64_t>(tc_total) == want) return "";
      return fmt::format("tc: {} triangles, the reference counts {}", tc_total, want);
    }
    case AlgorithmKind::bfs:
      return first_difference(values, reference::bfs_levels(graph, spec.source, directed),
                              "bfs level");
    case AlgorithmKind::cc:
      return first_difference(values, reference::connected_components(graph).component,
                              "cc component");
    case AlgorithmKind::kcore:
      return first_difference(values, reference::core_numbers(graph), "kcore core number");
    case AlgorithmKind::sssp:
      return first_difference(values, reference::sssp(graph, spec.source, directed),
                              "sssp distance");
    case AlgorithmKind::pagerank: {
      const auto want =
          reference::pagerank(
              graph, {.damping = kTrackedPageRankDamping, .tolerance = kTrackedPageRankTolerance},
              directed)
              .rank;
      if (values.size() != want.size())
        return fmt::format("pagerank: {} ranks, the reference has {}", values.size(), want.size());
      double l1 = 0;
      for (std::size_t v = 0; v < want.size(); ++v) l1 += std::abs(values[v] - want[v]);
      if (l1 <= kTrackedPageRankL1Bound) return "";
      return fmt::format("pagerank: L1 distance {:.3g} from the reference's ranks (bound {:.0e})",
                         l1, kTrackedPageRankL1Bound);
    }
  }
  return "";
}

}  // namespace wg::cli
