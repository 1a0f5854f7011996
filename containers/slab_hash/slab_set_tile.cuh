#pragma once
// SetTableRef's exclusive insert and erase for tiles of 1, 2, 4 or 8 lanes, for kernels that run
// 32 / T independent tasks per warp: each lane of a T-lane tile reads 128 / T bytes of a slab
// (16-byte loads), so the tile still reads the whole slab in one round trip, and a warp has
// 32 / T slab reads in flight instead of one. With T = 1 every thread walks its own chain: a
// batch's tasks all run at once and a small, latency-bound batch costs about one task's chain
// of round trips.
//
// Same semantics as SetTableRef::insert_exclusive / erase (slab_table_ref.cuh): the caller owns
// the key for the phase (no concurrent operation on the same key); other keys of the same table
// may be inserted or erased concurrently. A chain that needs a new slab is left to the 32-lane
// insert_exclusive (allocation is warp-cooperative): the result says so.
//
//   auto t4 = cooperative_groups::tiled_partition<4>(warp);
//   switch (wg::slab::set_insert_exclusive_tiled(table, t4, key)) { ... }
//
// Cost: one slab read per slab of the chain (as the 32-lane operations) plus, per slab,
// 3 x 32 / T compares and 3 log2(T) shuffles per lane.
#include <cooperative_groups.h>

#include <cstdint>

#include <warpgraph/containers/slab_hash/slab_table_ref.cuh>

namespace wg::slab {

/// What a tiled insert did: tiled_inserted, tiled_present, or tiled_needs_warp (the chain is
/// full, or the key is reserved: call the 32-lane insert_exclusive, which appends a slab).
enum TiledInsertOutcome : int { tiled_needs_warp = -1, tiled_present = 1, tiled_inserted = 3 };

namespace detail {

/// One set slab as a tile sees it, the same on every lane: bit w (w < 30) of a mask says that key
/// slot w holds the key looked for / a tombstone / nothing; next is the next-slab handle.
struct SetSlabScan {
  std::uint32_t match, tombstones, empties, next;
};

/// Reads slab `s` with the tile (each lane 32 / T words) and combines what the lanes saw.
template <class Tile>
__device__ __forceinline__ SetSlabScan scan_set_slab(const Tile& tile, const Slab* s,
                                                     std::uint32_t key) {
  constexpr unsigned kTile = Tile::num_threads();
  static_assert(kTile == 1 || kTile == 2 || kTile == 4 || kTile == 8);
  constexpr unsigned kWords = kSlabWords / kTile;  // per lane
  constexpr unsigned kVecs = kWords / 4;
  const unsigned rank = tile.thread_rank();
  const std::uint32_t* words = s->words + rank * kWords;
  std::uint32_t w[kWords];
#pragma unroll
  for (unsigned j = 0; j < kVecs; ++j) {  // all loads first: one round trip
    const uint4 q = load_relaxed_v4(words + 4 * j);
    w[4 * j] = q.x;
    w[4 * j + 1] = q.y;
    w[4 * j + 2] = q.z;
    w[4 * j + 3] = q.w;
  }
  std::uint32_t match = 0, tombstones = 0, empties = 0;
#pragma unroll
  for (unsigned i = 0; i < kWords; ++i) {
    match |= static_cast<std::uint32_t>(w[i] == key) << i;
    tombstones |= static_cast<std::uint32_t>(w[i] == kTombstoneKey) << i;
    empties |= static_cast<std::uint32_t>(w[i] == kEmptyKey) << i;
  }
  if constexpr (kTile > 1) {
    const unsigned shift = rank * kWords;
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
  SetSlabScan r;
  r.match = match & kSetKeyLanes;
  r.tombstones = tombstones & kSetKeyLanes;
  r.empties = empties & kSetKeyLanes;
  r.next =
      kTile == 1 ? w[kNextWord % kWords] : tile.shfl(w[kNextWord % kWords], kNextWord / kWords);
  return r;
}

}  // namespace detail

namespace detail {
/// One of the set bits of `mask` (non-zero), chosen by `spread`: concurrent inserts into one
/// slab (a hub's table) aim at different free slots instead of all at the first, so fewer of
/// their CASes fail and re-read. Any free slot of a slab may take a key: lookups read the whole
/// slab, and a chain still grows only when its last slab has no free slot.
__device__ __forceinline__ unsigned pick_slot(std::uint32_t mask, std::uint32_t spread) {
  return __fns(mask, 0, static_cast<int>(spread % __popc(mask)) + 1);
}
}  // namespace detail

/// SetTableRef::insert_exclusive with a tile of T <= 8 lanes (all T lanes call it with the same
/// key and get the same result).
template <class Tile>
__device__ inline int set_insert_exclusive_tiled(const SetTableRef& t, const Tile& tile,
                                                 std::uint32_t key) {
  if (!is_valid_key(key)) return tiled_needs_warp;
  Slab* const bucket = t.buckets() + t.hash_bucket(key);
  Slab* s = bucket;
  std::uint32_t* hole = nullptr;  // a tombstone of the chain (tile-uniform)
  const std::uint32_t spread = detail::mix32(key ^ 0x9e3779b9u);
  while (true) {
    const detail::SetSlabScan v = detail::scan_set_slab(tile, s, key);
    if (v.match) return tiled_present;
    if (!hole && v.tombstones) hole = s->words + detail::pick_slot(v.tombstones, spread);
    if (v.empties || v.next == kNullSlab) {  // end of the chain: the key is absent
      if (!hole && !v.empties) return tiled_needs_warp;
      const std::uint32_t expected = hole ? kTombstoneKey : kEmptyKey;
      std::uint32_t* slot = hole ? hole : s->words + detail::pick_slot(v.empties, spread);
      std::uint32_t old = 0;
      if (tile.thread_rank() == 0) old = detail::cas_relaxed(slot, expected, key);
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

/// SetTableRef::erase with a tile of T <= 8 lanes: true iff the key was present (now a
/// tombstone).
template <class Tile>
__device__ inline bool set_erase_tiled(const SetTableRef& t, const Tile& tile, std::uint32_t key) {
  if (!is_valid_key(key)) return false;
  Slab* s = t.buckets() + t.hash_bucket(key);
  while (true) {
    const detail::SetSlabScan v = detail::scan_set_slab(tile, s, key);
    if (v.match) {
      std::uint32_t old = 0;
      if (tile.thread_rank() == 0)
        old = detail::cas_relaxed(s->words + (__ffs(v.match) - 1), key, kTombstoneKey);
      if (tile.shfl(old, 0) == key) return true;
      continue;  // a concurrent erase won: read again
    }
    // A chain grows only once its last slab has no empty slot, and nothing empties a slot
    // outside phase operations, so the key cannot lie beyond a slab with an empty slot.
    if (v.empties || v.next == kNullSlab) return false;
    detail::fence_acquire();
    tile.sync();
    s = t.allocator().pointer(v.next);
  }
}

}  // namespace wg::slab
