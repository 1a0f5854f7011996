#pragma once
// Breadth-first search: the vocabulary shared by the CPU (cpu/bfs.hpp) and GPU (gpu/bfs.hpp)
// backends. level[v] is the number of arcs on a shortest path source -> v (kBfsUnreached when
// none); parent[v] a vertex one level closer on such a path (parent[source] == source;
// kBfsNoParent when unreached); reached = vertices with a level.
#include <cstdint>
#include <vector>

#include <warpgraph/containers/core/types.hpp>

namespace wg {

inline constexpr std::int64_t kBfsUnreached = -1;
inline constexpr vertex_t kBfsNoParent = 0xFFFFFFFFu;

struct BfsResult {
  std::vector<std::int64_t> level;  ///< per vertex id; kBfsUnreached when not reached
  std::vector<vertex_t> parent;     ///< per vertex id; kBfsNoParent when not reached
  std::uint64_t reached = 0;        ///< vertices with a level
};

}  // namespace wg
