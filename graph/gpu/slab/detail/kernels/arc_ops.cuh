#pragma once
// One arc into or out of one table, the way the batch kernels do it (tasks of 1-8 lanes, or the
// 32-lane fallback), and the first-slab read policy of the batch kernels (batch_first_read).
//
// Part of wg::gpu::DynamicGraph's implementation (private to graph/gpu): device helpers and
// types of wg::gpu::detail, shared by the graph's kernel headers (no kernels here).
#include <warpgraph/graph/gpu/slab/detail/kernels/kernel_common.cuh>

namespace wg::gpu::detail {

template <class Table>
__device__ __forceinline__ slab::InsertOutcome table_insert(const warp_tile& tile, const Table& t,
                                                            std::uint32_t key,
                                                            std::uint32_t value) {
  if constexpr (std::is_same_v<Table, slab::MapTableRef>)
    return t.insert_or_assign(tile, key, value);
  else
    return t.insert(tile, key);
}

enum class BatchOp { insert, erase };

/// How a batch's tiled tasks read the first slab of a chain (slab::FirstRead): through L1 (one
/// L2 request per 32-byte sector; a stale copy costs a failed CAS and a second read), except
/// map inserts of a sorted batch, whose warps share a vertex's chains (through L1 they were
/// slower). Erases read through L1 too: their walks take no acquire fences (kEraseLinks).
__host__ __device__ constexpr slab::FirstRead batch_first_read(BatchOp op, bool weighted,
                                                               bool sorted) {
  return op == BatchOp::insert && weighted && sorted ? slab::FirstRead::relaxed
                                                     : slab::FirstRead::cached;
}

/// Exclusive insert of one arc (the caller owns the key) with a tile of T <= 8 lanes:
/// slab::tiled_inserted (state bits 1 | 2), tiled_present (bit 1; a map assigned the value) or
/// tiled_needs_warp (the chain needs a new slab and the tile got none: the 32-lane insert
/// allocates). kFirst: how the chain's first slab is read (slab::FirstRead; the batch kernels'
/// choice: batch_first_read).
template <slab::FirstRead kFirst = slab::FirstRead::cached, class Ref, class Tile>
__device__ __forceinline__ int insert_arc_tiled(const Tile& tt, const Ref& g, const VertexEntry& e,
                                                std::uint32_t key, std::uint32_t value) {
  if constexpr (Ref::weighted)
    return slab::map_insert_or_assign_exclusive_tiled<kFirst>(g.table_at(e), tt, key, value);
  else
    return slab::set_insert_exclusive_tiled<kFirst>(g.table_at(e), tt, key);
}
template <class Table>
__device__ __forceinline__ std::uint32_t insert_arc(const warp_tile& tile, const Table& t,
                                                    std::uint32_t key, std::uint32_t value) {
  slab::InsertOutcome out;
  if constexpr (std::is_same_v<Table, slab::MapTableRef>)
    out = t.insert_or_assign_exclusive(tile, key, value);
  else
    out = t.insert_exclusive(tile, key);
  if (out == slab::InsertOutcome::inserted) return 3u;  // done, new
  if (out == slab::InsertOutcome::present) return 1u;   // done
  return 0u;                                            // out of slabs: retry
}
/// How the graph's erase kernels walk chains: every one of them (a batch's erases, prepared
/// erases, erase_vertices' removal of the arcs into erased vertices) runs alone on the stream and
/// links no slab, so they walk without acquires and read every slab through L1
/// (slab::ChainLinks): faster than fenced walks with relaxed reads.
constexpr slab::ChainLinks kEraseLinks = slab::ChainLinks::fixed;
/// Erase of one arc with a tile of T <= 8 lanes: true iff it was present. kFirst as above.
template <slab::FirstRead kFirst, slab::ChainLinks kLinks, class Ref, class Tile>
__device__ __forceinline__ bool erase_arc_tiled(const Tile& tt, const Ref& g, const VertexEntry& e,
                                                std::uint32_t key) {
  if constexpr (Ref::weighted)
    return slab::map_erase_tiled<kFirst, kLinks>(g.table_at(e), tt, key);
  else
    return slab::set_erase_tiled<kFirst, kLinks>(g.table_at(e), tt, key);
}

/// The arcs of one edge not yet done, inserted by a tile: `insert_arc(reverse)` inserts the
/// forward or the reverse arc and returns a TiledInsertOutcome. State bits: 1 forward arc done,
/// 2 forward arc was new, 4 reverse arc done, 8 reverse arc was new; returns the new state and
/// adds to `left` the arcs whose chains need the 32-lane insert (1 forward, 2 reverse; the
/// reverse arc waits for a forward one left there).
template <bool kWeighted, class InsertArc>
__device__ __forceinline__ std::uint32_t insert_edge_arcs_tiled(std::uint32_t st, bool both,
                                                                unsigned& left,
                                                                InsertArc&& insert_arc) {
  std::uint32_t ns = st;
  if (!(st & 1u)) {
    const int o = insert_arc(false);
    if (o < 0)
      left |= 1u;
    else
      ns |= static_cast<std::uint32_t>(o);
  }
  if (both && !(st & 4u)) {
    // Both arcs are present or absent together: a set need not look at the reverse arc of an
    // edge found present (a map must, to assign its value).
    if (!kWeighted && (ns & 3u) == 1u && !(st & 1u)) {
      ns |= 4u;
    } else if (left) {
      left |= 2u;
    } else {
      const int o = insert_arc(true);
      if (o < 0)
        left |= 2u;
      else
        ns |= static_cast<std::uint32_t>(o) << 2;
    }
  }
  return ns;
}

}  // namespace wg::gpu::detail
