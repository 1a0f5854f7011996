#pragma once
// 8-lane tile versions of SetTableRef's exclusive insert and erase, for kernels that run four
// independent tasks per warp (one per 8-lane tile): each lane reads 16 bytes of a slab, so a
// tile still reads the whole 128-byte slab in one request, and a warp has four reads in flight
// instead of one. Same semantics as SetTableRef::insert_exclusive / erase, except that a chain
// that needs a new slab (allocation is warp-cooperative) is left to the 32-lane operation.
//
//   auto t8 = cooperative_groups::tiled_partition<8>(warp);
//   switch (wg::slab::set_insert_exclusive_tile8(table, t8, key)) { ... }
#include <cooperative_groups.h>

#include <cstdint>

#include <warpgraph/containers/slab_hash/slab_table_ref.cuh>

namespace wg::slab {

/// What an 8-lane insert did: tile8_new (inserted), tile8_present, or tile8_needs_warp (the
/// chain is full: call the 32-lane insert, which appends a slab).
enum Tile8Outcome : int { tile8_needs_warp = -1, tile8_present = 1, tile8_new = 3 };

namespace detail {
/// Index (0..3) of the first of this lane's four slab words equal to `x` (lane 7 holds keys
/// only in its first two words), or -1.
__device__ __forceinline__ int find_word8(const uint4& q, std::uint32_t lane, std::uint32_t x) {
  return q.x == x ? 0 : q.y == x ? 1 : (lane < 7 && q.z == x) ? 2 : (lane < 7 && q.w == x) ? 3 : -1;
}
}  // namespace detail

/// SetTableRef::insert_exclusive with an 8-lane tile (all 8 lanes call it with the same key).
template <class Tile>
__device__ inline int set_insert_exclusive_tile8(const SetTableRef& t, const Tile& tile,
                                                 std::uint32_t key) {
  if (!is_valid_key(key)) return tile8_needs_warp;
  const std::uint32_t r = tile.thread_rank();
  Slab* s = t.buckets() + t.hash_bucket(key);
  std::uint32_t* hole = nullptr;  // first tombstone of the chain (tile-uniform)
  while (true) {
    const uint4 q = detail::load_relaxed_v4(s->words + 4 * r);
    if (tile.any(detail::find_word8(q, r, key) >= 0)) return tile8_present;
    if (!hole) {
      const int tw = detail::find_word8(q, r, kTombstoneKey);
      const unsigned tm = tile.ballot(tw >= 0);
      if (tm) {
        const int src = __ffs(tm) - 1;
        hole = s->words + 4 * src + tile.shfl(tw, src);
      }
    }
    const int ew = detail::find_word8(q, r, kEmptyKey);
    const unsigned em = tile.ballot(ew >= 0);
    const std::uint32_t next = tile.shfl(q.z, 7);
    if (em || next == kNullSlab) {  // end of the chain: the key is absent
      if (hole) {
        std::uint32_t old = 0;
        if (r == 0) old = detail::cas_relaxed(hole, kTombstoneKey, key);
        if (tile.shfl(old, 0) == kTombstoneKey) return tile8_new;
        s = t.buckets() + t.hash_bucket(key);  // another key took it: scan again
        hole = nullptr;
        continue;
      }
      if (!em) return tile8_needs_warp;
      const unsigned src = __ffs(em) - 1;
      std::uint32_t old = 0;
      if (r == src) old = detail::cas_relaxed(s->words + 4 * r + ew, kEmptyKey, key);
      if (tile.shfl(old, src) == kEmptyKey) return tile8_new;
      continue;  // another key took the slot: read this slab again
    }
    detail::fence_acquire();
    tile.sync();
    s = t.allocator().pointer(next);
  }
}

/// SetTableRef::erase with an 8-lane tile: true iff the key was present (now a tombstone).
template <class Tile>
__device__ inline bool set_erase_tile8(const SetTableRef& t, const Tile& tile, std::uint32_t key) {
  if (!is_valid_key(key)) return false;
  const std::uint32_t r = tile.thread_rank();
  Slab* s = t.buckets() + t.hash_bucket(key);
  while (true) {
    const uint4 q = detail::load_relaxed_v4(s->words + 4 * r);
    const int w = detail::find_word8(q, r, key);
    const unsigned fm = tile.ballot(w >= 0);
    if (fm) {
      const unsigned src = __ffs(fm) - 1;
      std::uint32_t old = 0;
      if (r == src) old = detail::cas_relaxed(s->words + 4 * r + w, key, kTombstoneKey);
      if (tile.shfl(old, src) == key) return true;
      continue;  // a concurrent erase won: read again
    }
    const std::uint32_t next = tile.shfl(q.z, 7);
    if (next == kNullSlab) return false;
    detail::fence_acquire();
    tile.sync();
    s = t.allocator().pointer(next);
  }
}

}  // namespace wg::slab
