#pragma once
// Device-side bodies of SlabTableRef<V> (semantics in slab_table_ref.cuh), written once for sets
// and maps over the slot layout (SetSlots / MapSlots); `if constexpr (kIsMap)` marks where a map
// differs (a present key is assigned, a tombstone keeps the value, a hit returns the value).
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

/// Lane src of the tile CASes its own slot of slab s (slot `lane`) from `expected` to `desired`;
/// every lane gets the word that was there.
template <class Slots>
__device__ __forceinline__ typename Slots::Word cas_on_lane(const warp_tile& tile,
                                                            std::uint32_t lane, int src, Slab* s,
                                                            typename Slots::Word expected,
                                                            typename Slots::Word desired) {
  typename Slots::Word old = 0;
  if (static_cast<int>(lane) == src) old = cas_relaxed(Slots::slot(s, lane), expected, desired);
  return tile.shfl(old, src);
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

template <class V>
__device__ inline InsertOutcome SlabTableRef<V>::insert_word(const warp_tile& tile,
                                                             std::uint32_t key,
                                                             std::uint32_t value) const {
  if (!is_valid_key(key)) return InsertOutcome::invalid_key;
  const std::uint32_t lane = tile.thread_rank();
  const Word desired = Slots::make(key, value);
  Slab* s = buckets_ + hash_bucket(key);
  while (true) {
    const Word w = Slots::template load_lane<RelaxedLoad>(s, lane);
    const unsigned found = tile.ballot(Slots::key_of(w) == key) & Slots::kSlotMask;
    if (found) {
      if constexpr (!kIsMap) {
        return InsertOutcome::present;
      } else {
        const int src = __ffs(found) - 1;
        int assigned = 0;
        if (static_cast<int>(lane) == src) {
          // Replace the pair only while it still holds this key (an erase may turn it into a
          // tombstone meanwhile; then the key must be inserted afresh further on).
          Word cur = w;
          while (true) {
            const Word old = cas_relaxed(Slots::slot(s, lane), cur, desired);
            if (old == cur) {
              assigned = 1;
              break;
            }
            if (Slots::key_of(old) != key) break;
            cur = old;
          }
        }
        if (tile.shfl(assigned, src)) return InsertOutcome::present;
        continue;
      }
    }
    const unsigned empty = tile.ballot(Slots::key_of(w) == kEmptyKey) & Slots::kSlotMask;
    if (empty) {
      const int src = __ffs(empty) - 1;
      const Word old = detail::cas_on_lane<Slots>(tile, lane, src, s, Slots::kEmpty, desired);
      if (old == Slots::kEmpty) return InsertOutcome::inserted;
      if constexpr (!kIsMap) {
        if (old == key) return InsertOutcome::present;
      }
      continue;  // another key took the slot (a map: maybe this key; the next read assigns)
    }
    std::uint32_t next = tile.shfl(Slots::key_of(w), Slots::kNextLane);
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
template <class V>
__device__ inline InsertOutcome SlabTableRef<V>::insert_exclusive_word(const warp_tile& tile,
                                                                       std::uint32_t key,
                                                                       std::uint32_t value) const {
  if (!is_valid_key(key)) return InsertOutcome::invalid_key;
  const std::uint32_t lane = tile.thread_rank();
  const Word desired = Slots::make(key, value);
  Slab* s = buckets_ + hash_bucket(key);
  Slab* hole = nullptr;  // slab, lane and (map) contents of the first tombstone (warp-uniform)
  int hole_lane = 0;
  Word hole_word = 0;
  while (true) {
    const Word w = Slots::template load_lane<RelaxedLoad>(s, lane);
    const unsigned found = tile.ballot(Slots::key_of(w) == key) & Slots::kSlotMask;
    if (found) {
      if constexpr (kIsMap) {  // nobody else touches this key: a plain swap replaces the value
        const int src = __ffs(found) - 1;
        if (static_cast<int>(lane) == src) Slots::assign(Slots::slot(s, lane), desired);
      }
      return InsertOutcome::present;
    }
    if (!hole) {
      const unsigned tomb = tile.ballot(Slots::key_of(w) == kTombstoneKey) & Slots::kSlotMask;
      if (tomb) {
        hole = s;
        hole_lane = __ffs(tomb) - 1;
        if constexpr (kIsMap) hole_word = tile.shfl(w, hole_lane);
      }
    }
    const unsigned empty = tile.ballot(Slots::key_of(w) == kEmptyKey) & Slots::kSlotMask;
    std::uint32_t next = tile.shfl(Slots::key_of(w), Slots::kNextLane);
    if (empty || next == kNullSlab) {  // end of the chain: the key is absent
      if (hole) {
        Word expected;
        if constexpr (kIsMap)
          expected = hole_word;
        else
          expected = kTombstoneKey;
        const Word old = detail::cas_on_lane<Slots>(tile, lane, hole_lane, hole, expected, desired);
        if (old == expected) return InsertOutcome::inserted;
        s = buckets_ + hash_bucket(key);  // another key took the tombstone: scan again
        hole = nullptr;
        continue;
      }
      if (empty) {
        const int src = __ffs(empty) - 1;
        const Word old = detail::cas_on_lane<Slots>(tile, lane, src, s, Slots::kEmpty, desired);
        if (old == Slots::kEmpty) return InsertOutcome::inserted;
        continue;  // another key took the slot: read this slab again
      }
      next = detail::append_slab(tile, &s->words[kNextWord], alloc_);
      if (next == kNullSlab) return InsertOutcome::out_of_slabs;
    }
    detail::before_following_link(tile);
    s = alloc_.pointer(next);
  }
}

template <class V>
__device__ inline bool SlabTableRef<V>::erase(const warp_tile& tile, std::uint32_t key) const {
  if (!is_valid_key(key)) return false;
  const std::uint32_t lane = tile.thread_rank();
  Slab* s = buckets_ + hash_bucket(key);
  while (true) {
    const Word w = Slots::template load_lane<RelaxedLoad>(s, lane);
    const unsigned found = tile.ballot(Slots::key_of(w) == key) & Slots::kSlotMask;
    if (found) {
      const int src = __ffs(found) - 1;
      if constexpr (!kIsMap) {
        std::uint32_t old = 0;
        if (static_cast<int>(lane) == src) old = cas_relaxed(&s->words[lane], key, kTombstoneKey);
        old = tile.shfl(old, src);
        if (old == key) return true;
      } else {
        int erased = 0;
        if (static_cast<int>(lane) == src) {
          // One 64-bit CAS (key -> tombstone, value kept) so that pair accesses never mix sizes.
          Word cur = w;
          while (true) {
            const Word old =
                cas_relaxed(Slots::slot(s, lane), cur, make_pair(kTombstoneKey, pair_value(cur)));
            if (old == cur) {
              erased = 1;
              break;
            }
            if (pair_key(old) != key) break;  // a concurrent erase won
            cur = old;                        // a concurrent assign changed the value
          }
        }
        if (tile.shfl(erased, src)) return true;
      }
      continue;  // a concurrent erase won: read again (the key may have been re-inserted later)
    }
    const std::uint32_t next = tile.shfl(Slots::key_of(w), Slots::kNextLane);
    if (next == kNullSlab) return false;
    detail::before_following_link(tile);
    s = alloc_.pointer(next);
  }
}

template <class V>
template <class Load>
__device__ __forceinline__ bool SlabTableRef<V>::lookup(const warp_tile& tile, std::uint32_t key,
                                                        std::uint32_t* value) const {
  if (!is_valid_key(key)) return false;
  const std::uint32_t lane = tile.thread_rank();
  const Slab* s = buckets_ + hash_bucket(key);
  while (true) {
    const Word w = Slots::template load_lane<Load>(s, lane);
    const unsigned found = tile.ballot(Slots::key_of(w) == key) & Slots::kSlotMask;
    if (found) {
      if constexpr (kIsMap) {
        const std::uint32_t v = tile.shfl(pair_value(w), __ffs(found) - 1);
        if (value) *value = v;
      }
      return true;
    }
    const std::uint32_t next = tile.shfl(Slots::key_of(w), Slots::kNextLane);
    if (next == kNullSlab) return false;
    if constexpr (Load::kConcurrent) detail::before_following_link(tile);
    s = alloc_.pointer(next);
  }
}

template <class V>
__device__ inline bool SlabTableRef<V>::lookup_thread(std::uint32_t key,
                                                      std::uint32_t* value) const {
  if (!is_valid_key(key)) return false;
  const Slab* s = buckets_ + hash_bucket(key);
  while (true) {
    const uint4* v = reinterpret_cast<const uint4*>(s->words);
    std::uint32_t next = kNullSlab;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const uint4 q = __ldg(v + i);
      if constexpr (!kIsMap) {
        if (q.x == key || q.y == key || (i < 7 && (q.z == key || q.w == key))) return true;
      } else {  // pairs (x, y) and (z, w)
        if (q.x == key) {
          if (value) *value = q.y;
          return true;
        }
        if (i < 7 && q.z == key) {
          if (value) *value = q.w;
          return true;
        }
      }
      if (i == 7) next = q.z;
    }
    if (next == kNullSlab) return false;
    s = alloc_.pointer(next);
  }
}

template <class V>
template <class F>
__device__ void SlabTableRef<V>::for_each_in_bucket(const warp_tile& tile, std::uint32_t bucket,
                                                    F&& f) const {
  const std::uint32_t lane = tile.thread_rank();
  const Slab* s = buckets_ + bucket;
  while (true) {
    const Word w = Slots::template load_lane<RelaxedLoad>(s, lane);
    if (lane < Slots::kSlots && is_valid_key(Slots::key_of(w))) {
      if constexpr (kIsMap)
        f(pair_key(w), pair_value(w));
      else
        f(w);
    }
    const std::uint32_t next = tile.shfl(Slots::key_of(w), Slots::kNextLane);
    if (next == kNullSlab) return;
    detail::before_following_link(tile);
    s = alloc_.pointer(next);
  }
}

template <class V>
__device__ inline std::uint32_t SlabTableRef<V>::count(const warp_tile& tile) const {
  std::uint32_t n = 0;
  const std::uint32_t lane = tile.thread_rank();
  for (std::uint32_t b = 0; b < num_buckets_; ++b) {
    const Slab* s = buckets_ + b;
    while (true) {
      const Word w = Slots::template load_lane<RelaxedLoad>(s, lane);
      n += __popc(tile.ballot(is_valid_key(Slots::key_of(w))) & Slots::kSlotMask);
      const std::uint32_t next = tile.shfl(Slots::key_of(w), Slots::kNextLane);
      if (next == kNullSlab) break;
      detail::before_following_link(tile);
      s = alloc_.pointer(next);
    }
  }
  return n;
}

template <class V>
__device__ inline void SlabTableRef<V>::compact_bucket(const warp_tile& tile,
                                                       std::uint32_t bucket) const {
  detail::compact_chain<kIsMap>(tile, buckets_ + bucket, alloc_);
}
template <class V>
__device__ inline void SlabTableRef<V>::clear_bucket(const warp_tile& tile,
                                                     std::uint32_t bucket) const {
  detail::clear_chain(tile, buckets_ + bucket, alloc_);
}

}  // namespace wg::slab
