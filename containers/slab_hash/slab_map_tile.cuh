#pragma once
// MapTableRef's exclusive insert_or_assign and erase for tiles of 1, 2, 4 or 8 lanes (the map
// counterpart of slab_set_tile.cuh): each lane of a T-lane tile reads 16 / T of a slab's 64-bit
// words with 16-byte loads, so the tile reads the whole slab in one round trip and a warp runs
// 32 / T tasks at once.
//
// Same semantics as MapTableRef::insert_or_assign_exclusive / erase (slab_table_ref.cuh): the
// caller owns the key for the phase; other keys of the table may change concurrently. A pair is
// read and written as one 64-bit word. A chain that needs a new slab is left to the 32-lane
// insert_or_assign_exclusive (the result says so).
//
// Cost: one slab read per slab of the chain, 3 x 16 / T compares and 3 log2(T) shuffles per
// lane and slab.
#include <cstdint>

#include <warpgraph/containers/slab_hash/slab_set_tile.cuh>  // TiledInsertOutcome, pick_slot
#include <warpgraph/containers/slab_hash/slab_table_ref.cuh>

namespace wg::slab {

namespace detail {

/// One map slab as a tile sees it, the same on every lane: bit i (i < 15) of a mask says that
/// pair slot i holds the key looked for / a tombstone / nothing; pair[i] comes from the lane
/// holding slot i (valid where a bit of `match` or `tombstones` is set, on that lane only).
template <class Tile>
struct MapSlabView {
  static constexpr unsigned kPairs = 16 / Tile::num_threads();  // per lane
  std::uint64_t pair[kPairs];
  std::uint32_t match, tombstones, empties, next;

  __device__ __forceinline__ void read(const Tile& tile, const Slab* s, std::uint32_t key) {
    constexpr unsigned kTile = Tile::num_threads();
    const unsigned rank = tile.thread_rank();
    const std::uint64_t* p = pairs_of(s) + rank * kPairs;
#pragma unroll
    for (unsigned j = 0; j < kPairs / 2; ++j)
      load_relaxed_v2(p + 2 * j, pair[2 * j], pair[2 * j + 1]);
    match = tombstones = empties = 0;
#pragma unroll
    for (unsigned i = 0; i < kPairs; ++i) {
      const std::uint32_t k = pair_key(pair[i]);
      match |= static_cast<std::uint32_t>(k == key) << i;
      tombstones |= static_cast<std::uint32_t>(k == kTombstoneKey) << i;
      empties |= static_cast<std::uint32_t>(k == kEmptyKey) << i;
    }
    if constexpr (kTile > 1) {
      const unsigned shift = rank * kPairs;
      match <<= shift;
      tombstones <<= shift;
      empties <<= shift;
#pragma unroll
      for (unsigned o = 1; o < kTile; o <<= 1) {
        match |= tile.shfl_xor(match, o);
        tombstones |= tile.shfl_xor(tombstones, o);
        empties |= tile.shfl_xor(empties, o);
      }
    }
    match &= kMapPairLanes;
    tombstones &= kMapPairLanes;
    empties &= kMapPairLanes;
    // Word 30 (the next handle) is the low half of pair slot 15, on the tile's last lane.
    next = tile.shfl(pair_key(pair[kPairs - 1]), static_cast<int>(kTile - 1));
  }
  /// The pair in slot i, broadcast from the lane holding it.
  __device__ __forceinline__ std::uint64_t pair_at(const Tile& tile, unsigned i) const {
    const unsigned local = i % kPairs;
    std::uint64_t mine = 0;
#pragma unroll
    for (unsigned j = 0; j < kPairs; ++j)
      if (j == local) mine = pair[j];
    return tile.shfl(mine, static_cast<int>(i / kPairs));
  }
};

}  // namespace detail

/// MapTableRef::insert_or_assign_exclusive with a tile of T <= 8 lanes (all T lanes call it with
/// the same key and value): tiled_inserted, tiled_present (the value was replaced) or
/// tiled_needs_warp.
template <class Tile>
__device__ inline int map_insert_or_assign_exclusive_tiled(const MapTableRef& t, const Tile& tile,
                                                           std::uint32_t key, std::uint32_t value) {
  if (!is_valid_key(key)) return tiled_needs_warp;
  const std::uint64_t desired = detail::make_pair(key, value);
  Slab* const bucket = t.buckets() + t.hash_bucket(key);
  Slab* s = bucket;
  std::uint64_t* hole = nullptr;  // a tombstone of the chain and its contents (tile-uniform)
  std::uint64_t hole_pair = 0;
  const std::uint32_t spread = detail::mix32(key ^ 0x9e3779b9u);
  while (true) {
    detail::MapSlabView<Tile> v;
    v.read(tile, s, key);
    if (v.match) {  // the caller owns the key: replace the pair whole
      if (tile.thread_rank() == 0)
        atomicExch(
            reinterpret_cast<unsigned long long*>(detail::pairs_of(s) + (__ffs(v.match) - 1)),
            desired);
      return tiled_present;
    }
    if (!hole && v.tombstones) {
      const unsigned slot = detail::pick_slot(v.tombstones, spread);
      hole = detail::pairs_of(s) + slot;
      hole_pair = v.pair_at(tile, slot);
    }
    if (v.empties || v.next == kNullSlab) {  // end of the chain: the key is absent
      if (!hole && !v.empties) return tiled_needs_warp;
      const std::uint64_t expected = hole ? hole_pair : kEmptyPair;
      std::uint64_t* slot =
          hole ? hole : detail::pairs_of(s) + detail::pick_slot(v.empties, spread);
      std::uint64_t old = 0;
      if (tile.thread_rank() == 0) old = detail::cas_relaxed(slot, expected, desired);
      if (tile.shfl(old, 0) == expected) return tiled_inserted;
      if (hole) {  // another key took the tombstone: scan the chain again
        s = bucket;
        hole = nullptr;
      }
      continue;  // (an empty slot lost: read this slab again)
    }
    detail::fence_acquire();
    tile.sync();
    s = t.allocator().pointer(v.next);
  }
}

/// MapTableRef::erase with a tile of T <= 8 lanes: true iff the key was present (its pair now a
/// tombstone that keeps the value, as the 32-lane erase writes it).
template <class Tile>
__device__ inline bool map_erase_tiled(const MapTableRef& t, const Tile& tile, std::uint32_t key) {
  if (!is_valid_key(key)) return false;
  Slab* s = t.buckets() + t.hash_bucket(key);
  while (true) {
    detail::MapSlabView<Tile> v;
    v.read(tile, s, key);
    if (v.match) {
      const unsigned slot = __ffs(v.match) - 1;
      const std::uint64_t cur = v.pair_at(tile, slot);
      std::uint64_t old = 0;
      if (tile.thread_rank() == 0)
        old = detail::cas_relaxed(detail::pairs_of(s) + slot, cur,
                                  detail::make_pair(kTombstoneKey, detail::pair_value(cur)));
      if (tile.shfl(old, 0) == cur) return true;
      continue;  // a concurrent erase or assign changed the pair: read again
    }
    // A chain grows only once its last slab has no empty slot: the key is not beyond this one.
    if (v.empties || v.next == kNullSlab) return false;
    detail::fence_acquire();
    tile.sync();
    s = t.allocator().pointer(v.next);
  }
}

}  // namespace wg::slab
