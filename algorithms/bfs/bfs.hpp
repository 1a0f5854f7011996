#pragma once
// Breadth-first search: the vocabulary shared by the CPU (cpu/bfs.hpp) and GPU (gpu/bfs.hpp)
// backends. level[v] is the number of arcs on a shortest path source -> v (kBfsUnreached when
// none); parent[v] a vertex one level closer on such a path (parent[source] == source;
// kBfsNoParent when unreached); reached = vertices with a level. BfsOptions are read alike by
// every backend; a backend's further tuning (threads, hub splitting, when a dynamic BFS
// recomputes) is its own struct (cpu::BfsTuning, gpu::BfsTuning), passed beside them. Neither
// changes the levels.
#include <cstdint>
#include <vector>

#include <warpgraph/containers/core/types.hpp>

namespace wg {

inline constexpr std::int64_t kBfsUnreached = -1;
inline constexpr vertex_t kBfsNoParent = 0xFFFFFFFFu;

/// The direction-optimising switch (Beamer et al.) of the static search.
struct BfsOptions {
  /// Go bottom-up when the frontier grows and frontier arcs * top_down_alpha > unvisited
  /// vertices' arcs (Beamer's alpha; 14 is the paper's value). 0: top-down only.
  unsigned top_down_alpha = 14;
  /// Go back top-down when frontier size * bottom_up_beta < vertices (Beamer's beta, 24).
  unsigned bottom_up_beta = 24;
};

struct BfsResult {
  std::vector<std::int64_t> level;  ///< per vertex id; kBfsUnreached when not reached
  std::vector<vertex_t> parent;     ///< per vertex id; kBfsNoParent when not reached
  std::uint64_t reached = 0;        ///< vertices with a level
};

}  // namespace wg
