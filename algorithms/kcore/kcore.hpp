#pragma once
// k-core decomposition: the vocabulary shared by the CPU (cpu/kcore.hpp) and GPU (gpu/kcore.hpp)
// backends. A vertex's core number is the largest k such that it lies in a subgraph where every
// vertex has degree >= k (undirected simple graph).
#include <cstdint>
#include <vector>

namespace wg {

/// When a dynamic backend answers a batch by the static peeling instead of its incremental
/// search (results do not depend on them; each backend's search is its own, see cpu/ and gpu/).
/// A backend's further tuning is its own struct (gpu::DynamicCoreNumbersTuning).
struct DynamicCoreNumbersOptions {
  /// Batches whose new (insertions) or removed (deletions) edges number more than this fraction
  /// of the graph's edges are answered by the static peeling without trying the incremental
  /// search, which then costs more (each edge's search may revisit a large shell).
  double recompute_fraction = 0.05;
  /// The incremental search of one batch may scan at most this fraction of the graph's arcs (the
  /// static peeling scans each arc about once); a batch that would pass it stops, its changes
  /// are undone, and the static peeling answers. This bounds the work a falling-back batch
  /// wastes.
  double recompute_work = 0.1;
};

struct CoreNumbers {
  std::vector<std::uint32_t> core;  ///< per vertex id: its core number
  std::uint32_t max_core = 0;       ///< the largest core number (degeneracy)
};

}  // namespace wg
