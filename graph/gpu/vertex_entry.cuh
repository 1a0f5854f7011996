#pragma once
// One entry of wg::gpu::DynamicGraph's vertex dictionary: the handle of the vertex's adjacency
// table, and a copy of the vertex's live flag (include from .cu files only).
#include <cstdint>

#include <warpgraph/containers/slab_hash/slab_layout.cuh>

namespace wg::gpu {

/// A vertex's table handle (growing the dictionary copies these, never the tables) and its
/// liveness.
///
/// The dictionary keeps liveness twice, written together by the kernels that make ids live or
/// erase them (dictionary_kernels.cuh, vertex_erase_kernels.cuh):
///  - a byte per id, the compact copy for checks that load nothing else of the vertex (an arc's
///    head in a directed batch, batch sorting, has_edges): 16 times denser than the entries, it
///    stays in L2 where they do not;
///  - `live` here, for the batch kernels, which load both ends' entries of an undirected edge
///    anyway: two random sectors less per edge.
/// Degrees stay in their own array: atomics on the handles' lines would slow every pass that
/// reads handles.
struct VertexEntry {
  slab::Slab* buckets;  ///< base buckets (contiguous)
  std::uint32_t num_buckets;
  std::uint32_t live;  ///< 1 live, 0 erased or not yet made live (as the byte flag)
};
static_assert(sizeof(VertexEntry) == 16);

/// Broadcasts lane `src`'s handle to the tile (a warp or a smaller tile); the copy's `live` is
/// 0 (a task that takes a handle this way has checked liveness already).
template <class Tile>
__device__ __forceinline__ VertexEntry shfl_entry(const Tile& tile, const VertexEntry& e, int src) {
  VertexEntry r;
  r.buckets = reinterpret_cast<slab::Slab*>(
      tile.shfl(reinterpret_cast<unsigned long long>(e.buckets), src));
  r.num_buckets = tile.shfl(e.num_buckets, src);
  r.live = 0;
  return r;
}

}  // namespace wg::gpu
