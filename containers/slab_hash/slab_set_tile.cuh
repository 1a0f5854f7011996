#pragma once
// SetTableRef's exclusive insert and erase for tiles of 1, 2, 4 or 8 lanes, for kernels that run
// 32 / T independent tasks per warp: each lane of a T-lane tile reads 128 / T bytes of a slab
// (16-byte loads), so the tile still reads the whole slab in one round trip, and a warp has
// 32 / T slab reads in flight instead of one. With T = 1 (wg::thread_tile, from
// wg::partition_warp<1>) every thread walks its own chain: a batch's tasks all run at once and a
// small, latency-bound batch costs about one task's chain of round trips.
//
// Same semantics as SetTableRef::insert_exclusive / erase (slab_table_ref.cuh): the caller owns
// the key for the phase (no concurrent operation on the same key); other keys of the same table
// may be inserted or erased concurrently. A chain that needs a new slab gets one holding the key
// from SlabAllocatorRef::try_allocate; only when that finds none is the insert left to the
// 32-lane insert_exclusive (whose allocation visits every block): the result says so.
//
//   auto t4 = cooperative_groups::tiled_partition<4>(warp);
//   switch (wg::slab::set_insert_exclusive_tiled(table, t4, key)) { ... }
//
// Cost: one slab read per slab of the chain (as the 32-lane operations) plus, per slab,
// 3 x 32 / T compares and 3 log2(T) shuffles per lane. The chain walks: detail/tiled_chain.cuh.
#include <cstdint>

#include <warpgraph/containers/slab_hash/detail/tiled_chain.cuh>
#include <warpgraph/containers/slab_hash/slab_table_ref.cuh>

namespace wg::slab {

/// SetTableRef::insert_exclusive with a tile of T <= 8 lanes (all T lanes call it with the same
/// key and get the same result): tiled_inserted, tiled_present or tiled_needs_warp. kFirst: how
/// the chain's first slab is read (FirstRead, detail/tiled_chain.cuh).
template <FirstRead kFirst = FirstRead::cached, class Tile>
__device__ inline int set_insert_exclusive_tiled(const SetTableRef& t, const Tile& tile,
                                                 std::uint32_t key) {
  return detail::insert_exclusive_tiled<detail::SetSlots, kFirst>(t, tile, key, key);
}

/// SetTableRef::erase with a tile of T <= 8 lanes: true iff the key was present (now a
/// tombstone). kFirst as above; relaxed by default (with growing links: through L1, large graph
/// batches were slower while every walk took acquire fences; the graph's erase-only batches read
/// through L1 with fixed links).
/// kLinks: ChainLinks::fixed when the phase only erases (no acquires, every slab read through
/// L1); growing, the default, allows concurrent inserts of other keys. Erases of one key may
/// race each other (not an insert of it): exactly one of them returns true.
template <FirstRead kFirst = kDefaultEraseRead<false>, ChainLinks kLinks = ChainLinks::growing,
          class Tile>
__device__ inline bool set_erase_tiled(const SetTableRef& t, const Tile& tile, std::uint32_t key) {
  return detail::erase_tiled<detail::SetSlots, kFirst, kLinks>(t, tile, key);
}

}  // namespace wg::slab
