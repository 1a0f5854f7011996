#pragma once
// Vocabulary types shared by every warpgraph component.
#include <cstdint>

namespace wg {

/// Vertex ids are 32-bit and 0-based everywhere inside warpgraph (loaders convert 1-based
/// Matrix Market ids). The GPU containers reserve the top values (see each container).
using vertex_t = std::uint32_t;
/// The one vertex id limit of warpgraph: every reader, graph backend and tool accepts ids
/// 0 .. kVertexIdLimit-1 (2^31 ids). The top bit of a vertex_t is the graphs' new-vertex tag
/// (graph/update_result.hpp) and packed arc keys hold two ids of 31 bits.
inline constexpr std::uint64_t kVertexIdLimit = std::uint64_t{1} << 31;
/// Counts of edges and triangles can exceed 2^32.
using edge_count_t = std::uint64_t;

}  // namespace wg
