#pragma once
// What a batch update did to a dynamic graph. Shared by every backend (wg::gpu::DynamicGraph on
// slab hash, wg::cpu::DynamicGraph on the BS-tree) so the CLI and the tests compare them with ==.
//
// Every entry of a batch is accounted for exactly once:
//   entries == applied + self_loops + duplicates + ignored
// where, for an undirected graph, an entry (u, v) stands for the edge {u, v} (both arcs stored,
// counted once here), and for a directed graph for the arc u -> v.
#include <cstdint>
#include <vector>

#include <warpgraph/containers/core/types.hpp>

namespace wg {

struct UpdateResult {
  /// Edges (or arcs) actually added (insert) or removed (erase).
  std::uint64_t applied = 0;
  /// Entries with u == v: dropped.
  std::uint64_t self_loops = 0;
  /// Entries equal to an earlier entry of the same batch ({u,v} == {v,u} when undirected): dropped
  /// (for weighted graphs the LAST entry's weight is the one applied).
  std::uint64_t duplicates = 0;
  /// Unique entries with no effect: insert of an edge already present (its weight is still
  /// updated on a weighted graph), erase of an absent edge, or either touching a vertex id that
  /// is not live (erased and waiting in the free-id queue).
  std::uint64_t ignored = 0;

  std::uint64_t entries() const noexcept { return applied + self_loops + duplicates + ignored; }
  UpdateResult& operator+=(const UpdateResult& o) noexcept {
    applied += o.applied;
    self_loops += o.self_loops;
    duplicates += o.duplicates;
    ignored += o.ignored;
    return *this;
  }
  friend bool operator==(const UpdateResult&, const UpdateResult&) = default;
};

/// Vertex insertion ("insert_vertices(count, edges)") in every backend:
///  - `count` new vertices get ids: first from the free-id queue (ids of erased vertices, the
///    earliest erased first), then fresh ids num_vertices(), num_vertices()+1, ... (the vertex
///    dictionary grows; adjacency is not copied);
///  - the new vertices' edges are given as an EdgeList whose endpoints are either ids of live
///    vertices or new_vertex(i), standing for the i-th new vertex of this call (i < count);
///  - returns the ids given out and the UpdateResult of inserting those edges.
inline constexpr vertex_t kNewVertexTag = 0x80000000u;
constexpr vertex_t new_vertex(vertex_t i) noexcept { return kNewVertexTag | i; }

struct VertexInsertResult {
  std::vector<vertex_t> ids;  ///< ids[i] is the id of new_vertex(i)
  UpdateResult edges;
};

/// Vertex erasure ("erase_vertices(ids)"): every incident edge is removed (both arcs of an
/// undirected edge; in- and out-arcs of a directed graph), overflow storage is freed, and the
/// ids join the free-id queue. `vertices` counts live vertices erased; ids that were not live
/// (or repeated) are counted in `ignored_ids`.
struct VertexEraseResult {
  std::uint64_t vertices = 0;
  std::uint64_t ignored_ids = 0;
  std::uint64_t edges_removed = 0;  ///< edges (undirected) or arcs (directed) removed
};

}  // namespace wg
