#pragma once
// Exclusive insert and erase of one slab table (SlabTableRef<V>: set or map) for tiles of 1, 2, 4
// or 8 lanes, for kernels that run 32 / T independent tasks per warp: each lane of a T-lane tile
// reads 128 / T bytes of a slab (16-byte loads), so the tile still reads the whole slab in one
// round trip, and a warp has 32 / T slab reads in flight instead of one. With T = 1
// (wg::thread_tile, from wg::partition_warp<1>) every thread walks its own chain.
//
// Semantics: those of SlabTableRef::insert_exclusive / insert_or_assign_exclusive / erase
// (slab_table_ref.cuh). The caller owns the key for the phase (no concurrent insert of the same
// key); other keys of the table may be inserted or erased concurrently; erases of one key may race
// each other, and exactly one of them returns true. A map pair is read and written as one 64-bit
// word; an erased map pair keeps its value in the tombstone, as the 32-lane erase writes it. A
// chain that needs a new slab gets one holding the key from SlabAllocatorRef::try_allocate; only
// when that finds none (or the key is reserved) is the insert left to the 32-lane operation,
// which allocates or reports the pool exhausted: the result says so (tiled_needs_warp).
//
//   auto t4 = cooperative_groups::tiled_partition<4>(warp);
//   switch (wg::slab::insert_exclusive_tiled(table, t4, key)) { ... }
//
// Cost: one slab read per slab of the chain (as the 32-lane operations) plus, per slab,
// 3 x 32 / T compares and 3 log2(T) shuffles per lane. All lanes of the tile call with the same
// arguments and get the same result.
#include <cstdint>
#include <type_traits>

#include <warpgraph/containers/slab_hash/slab_table_ref.cuh>

namespace wg::slab {

/// What a tiled insert did: tiled_inserted, tiled_present (a map assigned the value), or
/// tiled_needs_warp (the chain is full and the tile's try_allocate found no slab, or the key is
/// reserved: call the 32-lane insert_exclusive / insert_or_assign_exclusive).
enum TiledInsertOutcome : int { tiled_needs_warp = -1, tiled_present = 1, tiled_inserted = 3 };

/// How a tiled insert or erase reads the first slab of its chain: through L1 (one L2 request per
/// 32-byte sector; a stale copy costs a failed CAS and a second read), or with relaxed loads
/// (always fresh: better when many tasks of a warp insert into the same chains, as in a batch
/// sorted by vertex).
enum class FirstRead { cached, relaxed };
/// An erase's first read when the caller does not choose: through L1 for maps, relaxed for sets
/// (large set batches ran slower with a cached first read while their walks take acquire
/// fences). Inserts default to cached.
template <bool kMap>
inline constexpr FirstRead kDefaultEraseRead = kMap ? FirstRead::cached : FirstRead::relaxed;

/// Whether a slab may be linked into a chain while an erase walks it. `growing`, the slab API's
/// contract (other keys of the table may be inserted concurrently): before reading a slab reached
/// through a handle, the walk takes an acquire, without which a slab linked during the phase
/// could show its memory's earlier contents, and so a stale next handle into another table.
/// `fixed`: the phase erases only, so every link the walk can reach was made by an earlier grid,
/// and the kernel boundary orders it; the walk needs no acquire.
enum class ChainLinks { growing, fixed };

}  // namespace wg::slab

#include <warpgraph/containers/slab_hash/detail/tiled_chain.cuh>

namespace wg::slab {

/// Exclusive insert (set) / insert_or_assign (map: `value`; a set ignores it) with a tile of
/// T <= 8 lanes: tiled_inserted, tiled_present (a map replaced the value) or tiled_needs_warp.
/// kFirst: how the chain's first slab is read.
template <FirstRead kFirst = FirstRead::cached, class V, class Tile>
__device__ inline int insert_exclusive_tiled(const SlabTableRef<V>& t, const Tile& tile,
                                             std::uint32_t key, std::uint32_t value = 0) {
  using Slots = SlotsFor<V>;
  return detail::insert_exclusive_tiled<Slots, kFirst>(t, tile, key, Slots::make(key, value));
}

/// Erase with a tile of T <= 8 lanes: true iff the key was present (now a tombstone). kFirst: how
/// the chain's first slab is read; kLinks: ChainLinks::fixed when the phase only erases (no
/// acquires, every slab read through L1), growing (the default) when other keys may be inserted
/// concurrently.
template <FirstRead kFirst, ChainLinks kLinks = ChainLinks::growing, class V, class Tile>
__device__ inline bool erase_tiled(const SlabTableRef<V>& t, const Tile& tile, std::uint32_t key) {
  return detail::erase_tiled<SlotsFor<V>, kFirst, kLinks>(t, tile, key);
}
/// erase_tiled with the table's default first read (kDefaultEraseRead).
template <class V, class Tile>
__device__ inline bool erase_tiled(const SlabTableRef<V>& t, const Tile& tile, std::uint32_t key) {
  return erase_tiled<kDefaultEraseRead<!std::is_void_v<V>>>(t, tile, key);
}

// The names of the set and map forms before the table was one template.
template <FirstRead kFirst = FirstRead::cached, class Tile>
__device__ inline int set_insert_exclusive_tiled(const SetTableRef& t, const Tile& tile,
                                                 std::uint32_t key) {
  return insert_exclusive_tiled<kFirst>(t, tile, key);
}
template <FirstRead kFirst = kDefaultEraseRead<false>, ChainLinks kLinks = ChainLinks::growing,
          class Tile>
__device__ inline bool set_erase_tiled(const SetTableRef& t, const Tile& tile, std::uint32_t key) {
  return erase_tiled<kFirst, kLinks>(t, tile, key);
}
template <FirstRead kFirst = FirstRead::cached, class Tile>
__device__ inline int map_insert_or_assign_exclusive_tiled(const MapTableRef& t, const Tile& tile,
                                                           std::uint32_t key, std::uint32_t value) {
  return insert_exclusive_tiled<kFirst>(t, tile, key, value);
}
template <FirstRead kFirst = kDefaultEraseRead<true>, ChainLinks kLinks = ChainLinks::growing,
          class Tile>
__device__ inline bool map_erase_tiled(const MapTableRef& t, const Tile& tile, std::uint32_t key) {
  return erase_tiled<kFirst, kLinks>(t, tile, key);
}

}  // namespace wg::slab
