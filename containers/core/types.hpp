#pragma once
// Vocabulary types shared by every warpgraph component.
#include <cstdint>

namespace wg {

/// Vertex ids are 32-bit and 0-based everywhere inside warpgraph (loaders convert 1-based
/// Matrix Market ids). The GPU containers reserve the top values (see each container).
using vertex_t = std::uint32_t;
/// Counts of edges and triangles can exceed 2^32.
using edge_count_t = std::uint64_t;

}  // namespace wg
