#pragma once
// MapTableRef's exclusive insert_or_assign and erase for tiles of 1, 2, 4 or 8 lanes (the map
// counterpart of slab_set_tile.cuh): each lane of a T-lane tile reads 16 / T of a slab's 64-bit
// pair slots with 16-byte loads, so the tile reads the whole slab in one round trip and a warp
// runs 32 / T tasks at once.
//
// Same semantics as MapTableRef::insert_or_assign_exclusive / erase (slab_table_ref.cuh): the
// caller owns the key for the phase; other keys of the table may change concurrently. A pair is
// read and written as one 64-bit word. A chain that needs a new slab gets one holding the pair
// (SlabAllocatorRef::try_allocate), or, when that finds none, is left to the 32-lane
// insert_or_assign_exclusive (the result says so). The chain walks: detail/tiled_chain.cuh.
#include <cstdint>

#include <warpgraph/containers/slab_hash/detail/tiled_chain.cuh>
#include <warpgraph/containers/slab_hash/slab_table_ref.cuh>

namespace wg::slab {

/// MapTableRef::insert_or_assign_exclusive with a tile of T <= 8 lanes (all T lanes call it with
/// the same key and value): tiled_inserted, tiled_present (the value was replaced) or
/// tiled_needs_warp. kFirst: how the chain's first slab is read (FirstRead, tiled_chain.cuh).
template <FirstRead kFirst = FirstRead::cached, class Tile>
__device__ inline int map_insert_or_assign_exclusive_tiled(const MapTableRef& t, const Tile& tile,
                                                           std::uint32_t key, std::uint32_t value) {
  return detail::insert_exclusive_tiled<detail::MapSlots, kFirst>(t, tile, key,
                                                                  detail::make_pair(key, value));
}

/// MapTableRef::erase with a tile of T <= 8 lanes: true iff the key was present (its pair now a
/// tombstone that keeps the value, as the 32-lane erase writes it). kFirst: how the chain's first
/// slab is read (FirstRead). kLinks: ChainLinks::fixed when the phase only erases (no acquires,
/// every slab read through L1); growing, the default, allows concurrent inserts of other keys.
/// Erases of one key may race each other (not an insert of it): exactly one of them returns true.
template <FirstRead kFirst = kDefaultEraseRead<true>, ChainLinks kLinks = ChainLinks::growing,
          class Tile>
__device__ inline bool map_erase_tiled(const MapTableRef& t, const Tile& tile, std::uint32_t key) {
  return detail::erase_tiled<detail::MapSlots, kFirst, kLinks>(t, tile, key);
}

}  // namespace wg::slab
