#pragma once
// Device-side bodies of SetTableRef and MapTableRef (semantics in slab_table_ref.cuh).
#include <type_traits>

namespace wg::slab::detail {

/// Follows a link: acquire (the linking CAS was a release), then the warp reads the new slab.
__device__ __forceinline__ void before_following_link(const warp_tile& tile) {
  fence_acquire();
  tile.sync();
}

/// Appends a fresh slab after the slab whose next word is `next_word` (which read kNullSlab).
/// Returns the handle now linked there (ours, or the one a faster warp linked), or kNullSlab
/// when the allocator is exhausted and nobody linked one.
__device__ inline std::uint32_t append_slab(const warp_tile& tile, std::uint32_t* next_word,
                                            const SlabAllocatorRef& alloc) {
  const std::uint32_t fresh = alloc.allocate(tile);
  if (fresh == kNullSlab) return tile.shfl(load_relaxed(next_word), 0);
  std::uint32_t prev = 0;
  if (tile.thread_rank() == 0) prev = cas_release(next_word, kNullSlab, fresh);
  prev = tile.shfl(prev, 0);
  if (prev == kNullSlab) return fresh;
  if (tile.thread_rank() == 0) alloc.deallocate(fresh);
  return prev;
}

__device__ __forceinline__ std::uint64_t* pairs_of(Slab* s) {
  return reinterpret_cast<std::uint64_t*>(s->words);
}
__device__ __forceinline__ const std::uint64_t* pairs_of(const Slab* s) {
  return reinterpret_cast<const std::uint64_t*>(s->words);
}

template <class Load>
__device__ __forceinline__ bool set_contains(const SetTableRef& t, const warp_tile& tile,
                                             std::uint32_t key) {
  if (!is_valid_key(key)) return false;
  const std::uint32_t lane = tile.thread_rank();
  const Slab* s = t.buckets() + t.hash_bucket(key);
  while (true) {
    const std::uint32_t w = Load::load(&s->words[lane]);
    if (tile.ballot(w == key) & kSetKeyLanes) return true;
    const std::uint32_t next = tile.shfl(w, kNextWord);
    if (next == kNullSlab) return false;
    if constexpr (Load::kConcurrent) before_following_link(tile);
    s = t.allocator().pointer(next);
  }
}

template <class Load>
__device__ __forceinline__ bool map_find(const MapTableRef& t, const warp_tile& tile,
                                         std::uint32_t key, std::uint32_t* value) {
  if (!is_valid_key(key)) return false;
  const std::uint32_t lane = tile.thread_rank();
  const Slab* s = t.buckets() + t.hash_bucket(key);
  while (true) {
    const std::uint64_t p = lane < 16 ? Load::load(pairs_of(s) + lane) : kEmptyPair;
    const unsigned found = tile.ballot(pair_key(p) == key) & kMapPairLanes;
    if (found) {
      const std::uint32_t v = tile.shfl(pair_value(p), __ffs(found) - 1);
      if (value) *value = v;
      return true;
    }
    const std::uint32_t next = tile.shfl(pair_key(p), kNextWord / 2);
    if (next == kNullSlab) return false;
    if constexpr (Load::kConcurrent) before_following_link(tile);
    s = t.allocator().pointer(next);
  }
}

/// Compaction of one chain (phase operation). Words are moved towards the head: a write position
/// never passes the read position, so the warp reads a whole slab into registers, then writes.
/// `kPairs`: map layout (15 x 64-bit pairs) or set layout (30 x 32-bit keys).
template <bool kPairs>
__device__ inline void compact_chain(const warp_tile& tile, Slab* base,
                                     const SlabAllocatorRef& alloc) {
  using Word = std::conditional_t<kPairs, std::uint64_t, std::uint32_t>;
  constexpr std::uint32_t kCap = kPairs ? kMapPairsPerSlab : kSetKeysPerSlab;
  const std::uint32_t lane = tile.thread_rank();
  auto words = [](Slab* s) { return reinterpret_cast<Word*>(s->words); };
  auto next_of = [&](Slab* s) { return tile.shfl(s->words[kNextWord], 0); };

  Slab* wslab = base;      // slab being written
  Slab* wprev = nullptr;   // slab whose next word links wslab
  std::uint32_t wpos = 0;  // slots used in wslab
  Slab* r = base;
  while (true) {
    Word w = ~Word{0};
    if (lane < kCap) w = words(r)[lane];
    const std::uint32_t next = next_of(r);
    const std::uint32_t k = static_cast<std::uint32_t>(w);
    const bool live = lane < kCap && is_valid_key(k);
    const unsigned m = tile.ballot(live);
    const std::uint32_t rank = __popc(m & ((1u << lane) - 1));
    const std::uint32_t cnt = __popc(m);
    Slab* wnext = nullptr;
    if (wpos + cnt > kCap) wnext = alloc.pointer(next_of(wslab));
    tile.sync();  // every lane has read r before any lane overwrites it
    if (live) {
      const std::uint32_t pos = wpos + rank;
      if (pos < kCap)
        words(wslab)[pos] = w;
      else
        words(wnext)[pos - kCap] = w;
    }
    if (wpos + cnt > kCap) {
      wprev = wslab;
      wslab = wnext;
      wpos = wpos + cnt - kCap;
    } else {
      wpos += cnt;
    }
    tile.sync();
    if (next == kNullSlab) break;
    r = alloc.pointer(next);
  }
  // Empty the rest of the last written slab; cut the chain after it (or before it when it holds
  // nothing and is not the base slab) and free the slabs cut off.
  if (lane >= wpos && lane < kCap) words(wslab)[lane] = ~Word{0};
  tile.sync();
  Slab* tail = wslab;
  if (wpos == 0 && wslab != base) tail = wprev;
  std::uint32_t cut = next_of(tail);
  tile.sync();
  if (lane == 0) tail->words[kNextWord] = kNullSlab;
  while (cut != kNullSlab) {
    Slab* s = alloc.pointer(cut);
    const std::uint32_t after = next_of(s);
    tile.sync();
    if (lane == 0) alloc.deallocate(cut);
    cut = after;
  }
  tile.sync();
}

/// Frees a chain's overflow slabs and empties its base slab (phase operation).
__device__ inline void clear_chain(const warp_tile& tile, Slab* base,
                                   const SlabAllocatorRef& alloc) {
  std::uint32_t cut = tile.shfl(base->words[kNextWord], 0);
  while (cut != kNullSlab) {
    const std::uint32_t after = tile.shfl(alloc.pointer(cut)->words[kNextWord], 0);
    tile.sync();
    if (tile.thread_rank() == 0) alloc.deallocate(cut);
    cut = after;
  }
  base->words[tile.thread_rank()] = kEmptyKey;
  tile.sync();
}

}  // namespace wg::slab::detail

namespace wg::slab {

// ---- SetTableRef ---------------------------------------------------------------------------

__device__ inline InsertOutcome SetTableRef::insert(const warp_tile& tile,
                                                    std::uint32_t key) const {
  if (!is_valid_key(key)) return InsertOutcome::invalid_key;
  const std::uint32_t lane = tile.thread_rank();
  Slab* s = buckets_ + hash_bucket(key);
  while (true) {
    const std::uint32_t w = detail::load_relaxed(&s->words[lane]);
    if (tile.ballot(w == key) & kSetKeyLanes) return InsertOutcome::present;
    const unsigned empty = tile.ballot(w == kEmptyKey) & kSetKeyLanes;
    if (empty) {
      const int src = __ffs(empty) - 1;
      std::uint32_t old = 0;
      if (static_cast<int>(lane) == src) old = detail::cas_relaxed(&s->words[lane], kEmptyKey, key);
      old = tile.shfl(old, src);
      if (old == kEmptyKey) return InsertOutcome::inserted;
      if (old == key) return InsertOutcome::present;
      continue;  // another key took the slot: read this slab again
    }
    std::uint32_t next = tile.shfl(w, kNextWord);
    if (next == kNullSlab) {
      next = detail::append_slab(tile, &s->words[kNextWord], alloc_);
      if (next == kNullSlab) return InsertOutcome::out_of_slabs;
    }
    detail::before_following_link(tile);
    s = alloc_.pointer(next);
  }
}

// Exclusive insert (no concurrent operation on `key`): the whole chain is scanned for the key
// (an empty slot marks the chain's end, as for insert()); the first tombstone seen is
// remembered and, when the key is absent, taken by CAS. Losing that CAS to another key's
// exclusive insert restarts the scan.
__device__ inline InsertOutcome SetTableRef::insert_exclusive(const warp_tile& tile,
                                                              std::uint32_t key) const {
  if (!is_valid_key(key)) return InsertOutcome::invalid_key;
  const std::uint32_t lane = tile.thread_rank();
  Slab* s = buckets_ + hash_bucket(key);
  Slab* hole = nullptr;  // slab and lane of the first tombstone (warp-uniform)
  int hole_lane = 0;
  while (true) {
    const std::uint32_t w = detail::load_relaxed(&s->words[lane]);
    if (tile.ballot(w == key) & kSetKeyLanes) return InsertOutcome::present;
    if (!hole) {
      const unsigned tomb = tile.ballot(w == kTombstoneKey) & kSetKeyLanes;
      if (tomb) {
        hole = s;
        hole_lane = __ffs(tomb) - 1;
      }
    }
    const unsigned empty = tile.ballot(w == kEmptyKey) & kSetKeyLanes;
    std::uint32_t next = tile.shfl(w, kNextWord);
    if (empty || next == kNullSlab) {  // end of the chain: the key is absent
      if (hole) {
        std::uint32_t old = 0;
        if (static_cast<int>(lane) == hole_lane)
          old = detail::cas_relaxed(&hole->words[lane], kTombstoneKey, key);
        old = tile.shfl(old, hole_lane);
        if (old == kTombstoneKey) return InsertOutcome::inserted;
        s = buckets_ + hash_bucket(key);  // another key took the tombstone: scan again
        hole = nullptr;
        continue;
      }
      if (empty) {
        const int src = __ffs(empty) - 1;
        std::uint32_t old = 0;
        if (static_cast<int>(lane) == src)
          old = detail::cas_relaxed(&s->words[lane], kEmptyKey, key);
        old = tile.shfl(old, src);
        if (old == kEmptyKey) return InsertOutcome::inserted;
        continue;  // another key took the slot: read this slab again
      }
      next = detail::append_slab(tile, &s->words[kNextWord], alloc_);
      if (next == kNullSlab) return InsertOutcome::out_of_slabs;
    }
    detail::before_following_link(tile);
    s = alloc_.pointer(next);
  }
}

__device__ inline bool SetTableRef::erase(const warp_tile& tile, std::uint32_t key) const {
  if (!is_valid_key(key)) return false;
  const std::uint32_t lane = tile.thread_rank();
  Slab* s = buckets_ + hash_bucket(key);
  while (true) {
    const std::uint32_t w = detail::load_relaxed(&s->words[lane]);
    const unsigned found = tile.ballot(w == key) & kSetKeyLanes;
    if (found) {
      const int src = __ffs(found) - 1;
      std::uint32_t old = 0;
      if (static_cast<int>(lane) == src)
        old = detail::cas_relaxed(&s->words[lane], key, kTombstoneKey);
      old = tile.shfl(old, src);
      if (old == key) return true;
      continue;  // a concurrent erase won: read again (the key may have been re-inserted later)
    }
    const std::uint32_t next = tile.shfl(w, kNextWord);
    if (next == kNullSlab) return false;
    detail::before_following_link(tile);
    s = alloc_.pointer(next);
  }
}

__device__ inline bool SetTableRef::contains(const warp_tile& tile, std::uint32_t key) const {
  return detail::set_contains<detail::RelaxedLoad>(*this, tile, key);
}
__device__ inline bool SetTableRef::contains_readonly(const warp_tile& tile,
                                                      std::uint32_t key) const {
  return detail::set_contains<detail::ReadOnlyLoad>(*this, tile, key);
}

__device__ inline bool SetTableRef::contains_thread(std::uint32_t key) const {
  if (!is_valid_key(key)) return false;
  const Slab* s = buckets_ + hash_bucket(key);
  while (true) {
    const uint4* v = reinterpret_cast<const uint4*>(s->words);
    std::uint32_t next = kNullSlab;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const uint4 q = __ldg(v + i);
      if (q.x == key || q.y == key || (i < 7 && (q.z == key || q.w == key))) return true;
      if (i == 7) next = q.z;
    }
    if (next == kNullSlab) return false;
    s = alloc_.pointer(next);
  }
}

template <class F>
__device__ void SetTableRef::for_each_in_bucket(const warp_tile& tile, std::uint32_t bucket,
                                                F&& f) const {
  const std::uint32_t lane = tile.thread_rank();
  const Slab* s = buckets_ + bucket;
  while (true) {
    const std::uint32_t w = detail::load_relaxed(&s->words[lane]);
    if (lane < kSetKeysPerSlab && is_valid_key(w)) f(w);
    const std::uint32_t next = tile.shfl(w, kNextWord);
    if (next == kNullSlab) return;
    detail::before_following_link(tile);
    s = alloc_.pointer(next);
  }
}

template <class F>
__device__ void SetTableRef::for_each(const warp_tile& tile, F&& f) const {
  for (std::uint32_t b = 0; b < num_buckets_; ++b) for_each_in_bucket(tile, b, f);
}

__device__ inline std::uint32_t SetTableRef::count(const warp_tile& tile) const {
  std::uint32_t n = 0;
  for (std::uint32_t b = 0; b < num_buckets_; ++b) {
    const Slab* s = buckets_ + b;
    while (true) {
      const std::uint32_t w = detail::load_relaxed(&s->words[tile.thread_rank()]);
      n += __popc(tile.ballot(is_valid_key(w)) & kSetKeyLanes);
      const std::uint32_t next = tile.shfl(w, kNextWord);
      if (next == kNullSlab) break;
      detail::before_following_link(tile);
      s = alloc_.pointer(next);
    }
  }
  return n;
}

__device__ inline void SetTableRef::compact_bucket(const warp_tile& tile,
                                                   std::uint32_t bucket) const {
  detail::compact_chain<false>(tile, buckets_ + bucket, alloc_);
}
__device__ inline void SetTableRef::flush(const warp_tile& tile) const {
  for (std::uint32_t b = 0; b < num_buckets_; ++b) compact_bucket(tile, b);
}
__device__ inline void SetTableRef::clear_bucket(const warp_tile& tile,
                                                 std::uint32_t bucket) const {
  detail::clear_chain(tile, buckets_ + bucket, alloc_);
}
__device__ inline void SetTableRef::clear(const warp_tile& tile) const {
  for (std::uint32_t b = 0; b < num_buckets_; ++b) clear_bucket(tile, b);
}

// ---- MapTableRef ---------------------------------------------------------------------------

__device__ inline InsertOutcome MapTableRef::insert_or_assign(const warp_tile& tile,
                                                              std::uint32_t key,
                                                              std::uint32_t value) const {
  if (!is_valid_key(key)) return InsertOutcome::invalid_key;
  const std::uint32_t lane = tile.thread_rank();
  const std::uint64_t desired = detail::make_pair(key, value);
  Slab* s = buckets_ + hash_bucket(key);
  while (true) {
    std::uint64_t* pairs = detail::pairs_of(s);
    const std::uint64_t p = lane < 16 ? detail::load_relaxed(pairs + lane) : kEmptyPair;
    const unsigned found = tile.ballot(detail::pair_key(p) == key) & kMapPairLanes;
    if (found) {
      const int src = __ffs(found) - 1;
      int assigned = 0;
      if (static_cast<int>(lane) == src) {
        // Replace the pair only while it still holds this key (an erase may turn it into a
        // tombstone meanwhile; then the key must be inserted afresh further on).
        std::uint64_t cur = p;
        while (true) {
          const std::uint64_t old = detail::cas_relaxed(pairs + lane, cur, desired);
          if (old == cur) {
            assigned = 1;
            break;
          }
          if (detail::pair_key(old) != key) break;
          cur = old;
        }
      }
      if (tile.shfl(assigned, src)) return InsertOutcome::present;
      continue;
    }
    const unsigned empty = tile.ballot(detail::pair_key(p) == kEmptyKey) & kMapPairLanes;
    if (empty) {
      const int src = __ffs(empty) - 1;
      std::uint64_t old = 0;
      if (static_cast<int>(lane) == src)
        old = detail::cas_relaxed(pairs + lane, kEmptyPair, desired);
      old = tile.shfl(old, src);
      if (old == kEmptyPair) return InsertOutcome::inserted;
      continue;  // the slot was taken (maybe by this key: the next read assigns)
    }
    std::uint32_t next = tile.shfl(detail::pair_key(p), kNextWord / 2);
    if (next == kNullSlab) {
      next = detail::append_slab(tile, &s->words[kNextWord], alloc_);
      if (next == kNullSlab) return InsertOutcome::out_of_slabs;
    }
    detail::before_following_link(tile);
    s = alloc_.pointer(next);
  }
}

__device__ inline InsertOutcome MapTableRef::insert_or_assign_exclusive(const warp_tile& tile,
                                                                        std::uint32_t key,
                                                                        std::uint32_t value) const {
  if (!is_valid_key(key)) return InsertOutcome::invalid_key;
  const std::uint32_t lane = tile.thread_rank();
  const std::uint64_t desired = detail::make_pair(key, value);
  Slab* s = buckets_ + hash_bucket(key);
  Slab* hole = nullptr;  // slab, lane and contents of the first tombstone (warp-uniform)
  int hole_lane = 0;
  std::uint64_t hole_pair = 0;
  while (true) {
    std::uint64_t* pairs = detail::pairs_of(s);
    const std::uint64_t p = lane < 16 ? detail::load_relaxed(pairs + lane) : kEmptyPair;
    const unsigned found = tile.ballot(detail::pair_key(p) == key) & kMapPairLanes;
    if (found) {  // nobody else touches this key: a plain store replaces the value
      const int src = __ffs(found) - 1;
      if (static_cast<int>(lane) == src)
        atomicExch(reinterpret_cast<unsigned long long*>(pairs + lane), desired);
      return InsertOutcome::present;
    }
    if (!hole) {
      const unsigned tomb = tile.ballot(detail::pair_key(p) == kTombstoneKey) & kMapPairLanes;
      if (tomb) {
        hole = s;
        hole_lane = __ffs(tomb) - 1;
        hole_pair = tile.shfl(p, hole_lane);
      }
    }
    const unsigned empty = tile.ballot(detail::pair_key(p) == kEmptyKey) & kMapPairLanes;
    std::uint32_t next = tile.shfl(detail::pair_key(p), kNextWord / 2);
    if (empty || next == kNullSlab) {  // end of the chain: the key is absent
      if (hole) {
        std::uint64_t old = 0;
        if (static_cast<int>(lane) == hole_lane)
          old = detail::cas_relaxed(detail::pairs_of(hole) + lane, hole_pair, desired);
        old = tile.shfl(old, hole_lane);
        if (old == hole_pair) return InsertOutcome::inserted;
        s = buckets_ + hash_bucket(key);
        hole = nullptr;
        continue;
      }
      if (empty) {
        const int src = __ffs(empty) - 1;
        std::uint64_t old = 0;
        if (static_cast<int>(lane) == src)
          old = detail::cas_relaxed(pairs + lane, kEmptyPair, desired);
        old = tile.shfl(old, src);
        if (old == kEmptyPair) return InsertOutcome::inserted;
        continue;
      }
      next = detail::append_slab(tile, &s->words[kNextWord], alloc_);
      if (next == kNullSlab) return InsertOutcome::out_of_slabs;
    }
    detail::before_following_link(tile);
    s = alloc_.pointer(next);
  }
}

__device__ inline bool MapTableRef::erase(const warp_tile& tile, std::uint32_t key) const {
  if (!is_valid_key(key)) return false;
  const std::uint32_t lane = tile.thread_rank();
  Slab* s = buckets_ + hash_bucket(key);
  while (true) {
    const std::uint64_t p =
        lane < 16 ? detail::load_relaxed(detail::pairs_of(s) + lane) : kEmptyPair;
    const unsigned found = tile.ballot(detail::pair_key(p) == key) & kMapPairLanes;
    if (found) {
      const int src = __ffs(found) - 1;
      int erased = 0;
      if (static_cast<int>(lane) == src) {
        // One 64-bit CAS (key -> tombstone, value kept) so that pair accesses never mix sizes.
        std::uint64_t cur = p;
        while (true) {
          const std::uint64_t old =
              detail::cas_relaxed(detail::pairs_of(s) + lane, cur,
                                  detail::make_pair(kTombstoneKey, detail::pair_value(cur)));
          if (old == cur) {
            erased = 1;
            break;
          }
          if (detail::pair_key(old) != key) break;  // a concurrent erase won
          cur = old;                                // a concurrent assign changed the value
        }
      }
      if (tile.shfl(erased, src)) return true;
      continue;
    }
    const std::uint32_t next = tile.shfl(detail::pair_key(p), kNextWord / 2);
    if (next == kNullSlab) return false;
    detail::before_following_link(tile);
    s = alloc_.pointer(next);
  }
}

__device__ inline bool MapTableRef::find(const warp_tile& tile, std::uint32_t key,
                                         std::uint32_t* value) const {
  return detail::map_find<detail::RelaxedLoad>(*this, tile, key, value);
}
__device__ inline bool MapTableRef::contains(const warp_tile& tile, std::uint32_t key) const {
  return detail::map_find<detail::RelaxedLoad>(*this, tile, key, nullptr);
}
__device__ inline bool MapTableRef::find_readonly(const warp_tile& tile, std::uint32_t key,
                                                  std::uint32_t* value) const {
  return detail::map_find<detail::ReadOnlyLoad>(*this, tile, key, value);
}

__device__ inline bool MapTableRef::find_thread(std::uint32_t key, std::uint32_t* value) const {
  if (!is_valid_key(key)) return false;
  const Slab* s = buckets_ + hash_bucket(key);
  while (true) {
    const uint4* v = reinterpret_cast<const uint4*>(s->words);
    std::uint32_t next = kNullSlab;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const uint4 q = __ldg(v + i);
      if (q.x == key) {
        if (value) *value = q.y;
        return true;
      }
      if (i < 7 && q.z == key) {
        if (value) *value = q.w;
        return true;
      }
      if (i == 7) next = q.z;
    }
    if (next == kNullSlab) return false;
    s = alloc_.pointer(next);
  }
}

template <class F>
__device__ void MapTableRef::for_each_in_bucket(const warp_tile& tile, std::uint32_t bucket,
                                                F&& f) const {
  const std::uint32_t lane = tile.thread_rank();
  const Slab* s = buckets_ + bucket;
  while (true) {
    const std::uint64_t p =
        lane < 16 ? detail::load_relaxed(detail::pairs_of(s) + lane) : kEmptyPair;
    if (lane < kMapPairsPerSlab && is_valid_key(detail::pair_key(p)))
      f(detail::pair_key(p), detail::pair_value(p));
    const std::uint32_t next = tile.shfl(detail::pair_key(p), kNextWord / 2);
    if (next == kNullSlab) return;
    detail::before_following_link(tile);
    s = alloc_.pointer(next);
  }
}

template <class F>
__device__ void MapTableRef::for_each(const warp_tile& tile, F&& f) const {
  for (std::uint32_t b = 0; b < num_buckets_; ++b) for_each_in_bucket(tile, b, f);
}

__device__ inline std::uint32_t MapTableRef::count(const warp_tile& tile) const {
  std::uint32_t n = 0;
  const std::uint32_t lane = tile.thread_rank();
  for (std::uint32_t b = 0; b < num_buckets_; ++b) {
    const Slab* s = buckets_ + b;
    while (true) {
      const std::uint64_t p =
          lane < 16 ? detail::load_relaxed(detail::pairs_of(s) + lane) : kEmptyPair;
      n += __popc(tile.ballot(is_valid_key(detail::pair_key(p))) & kMapPairLanes);
      const std::uint32_t next = tile.shfl(detail::pair_key(p), kNextWord / 2);
      if (next == kNullSlab) break;
      detail::before_following_link(tile);
      s = alloc_.pointer(next);
    }
  }
  return n;
}

__device__ inline void MapTableRef::compact_bucket(const warp_tile& tile,
                                                   std::uint32_t bucket) const {
  detail::compact_chain<true>(tile, buckets_ + bucket, alloc_);
}
__device__ inline void MapTableRef::flush(const warp_tile& tile) const {
  for (std::uint32_t b = 0; b < num_buckets_; ++b) compact_bucket(tile, b);
}
__device__ inline void MapTableRef::clear_bucket(const warp_tile& tile,
                                                 std::uint32_t bucket) const {
  detail::clear_chain(tile, buckets_ + bucket, alloc_);
}
__device__ inline void MapTableRef::clear(const warp_tile& tile) const {
  for (std::uint32_t b = 0; b < num_buckets_; ++b) clear_bucket(tile, b);
}

}  // namespace wg::slab
