#pragma once
// The chain walks of the exclusive tiled operations (slab_set_tile.cuh, slab_map_tile.cuh),
// written once over a slot layout:
//   SetSlots: 30 key slots of 32 bits (word 30 the next handle);
//   MapSlots: 15 pair slots of 64 bits, key in the low half (the low half of slot 15 the next
//             handle).
// A layout's View<Tile> is one slab as a T-lane tile reads it (each lane 128 / T bytes with
// 16-byte loads, every load issued before any is used): the same masks on every lane (bit i: slot
// i holds the key looked for / a tombstone / nothing), the next handle, and at(tile, i), slot i's
// word broadcast from the lane holding it. One-thread tiles can also read a copy of the slab in
// shared memory (read_staged; detail/slab_staging.cuh).
#include <cstdint>

#include <warpgraph/containers/slab_hash/detail/slab_memory.cuh>
#include <warpgraph/containers/slab_hash/detail/slab_staging.cuh>
#include <warpgraph/containers/slab_hash/slab_layout.cuh>

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
/// (large set batches were slower through L1 when walks took acquire fences; see erase_tiled).
/// Inserts default to cached.
template <bool kMap>
inline constexpr FirstRead kDefaultEraseRead = kMap ? FirstRead::cached : FirstRead::relaxed;

/// Whether a slab may be linked into a chain while an erase walks it. `growing`, the slab API's
/// contract (other keys of the table may be inserted concurrently): before reading a slab reached
/// through a handle, the walk takes an acquire, without which a slab linked during the phase
/// could show its memory's earlier contents, and so a stale next handle into another table.
/// `fixed`: the phase erases only, so every link the walk can reach was made by an earlier grid,
/// and the kernel boundary orders it; the walk needs no acquire.
enum class ChainLinks { growing, fixed };

namespace detail {

/// One of the set bits of `mask` (non-zero), chosen by `spread`: concurrent inserts into one
/// slab (a hub's table) aim at different free slots instead of all at the first, so fewer of
/// their CASes fail and re-read. Any free slot of a slab may take a key: lookups read the whole
/// slab, and a chain still grows only when its last slab has no free slot.
__device__ __forceinline__ unsigned pick_slot(std::uint32_t mask, std::uint32_t spread) {
  return __fns(mask, 0, static_cast<int>(spread % __popc(mask)) + 1);
}

/// The k-th (from 0) set bit of `mask`, counted cyclically from bit `from` (k < popc(mask)):
/// lanes that insert into one slab take distinct free slots by their rank k among its takers,
/// and warps that share the slab start from different bits.
__device__ __forceinline__ unsigned nth_slot_from(std::uint32_t mask, unsigned k, unsigned from) {
  return (__fns(__funnelshift_r(mask, mask, from), 0, static_cast<int>(k) + 1) + from) & 31u;
}

/// A slab of Word slots (32- or 64-bit) read by a T-lane tile; the slots of kSlotMask carry keys.
template <class Word, std::uint32_t kSlotMask, class Tile>
struct SlabView {
  static constexpr unsigned kTile = Tile::num_threads();
  static_assert(kTile == 1 || kTile == 2 || kTile == 4 || kTile == 8);
  static constexpr unsigned kWordsPerSlab = kSlabBytes / sizeof(Word);
  static constexpr unsigned kPerLane = kWordsPerSlab / kTile;
  Word w[kPerLane];
  std::uint32_t match, tombstones, empties, next;
  /// One-thread tiles of a map: the word of the first slot that matched (a key is in a chain at
  /// most once), so an erase need not keep the whole slab live for it (at() would).
  Word matched_word;

  __device__ __forceinline__ static std::uint32_t key_of(Word x) {
    return static_cast<std::uint32_t>(x);  // a set key, or a pair's low half
  }
  /// Reads slab s with relaxed loads, or with `cached` weak loads through L1 (fewer L2
  /// requests; words may be stale, and a map's pair torn, so only for a caller that tolerates
  /// both: insert_exclusive_tiled's first read).
  __device__ __forceinline__ void read(const Tile& tile, const Slab* s, std::uint32_t key,
                                       bool cached = false) {
    const unsigned rank = tile.thread_rank();
    const std::uint32_t* words = s->words + rank * (kSlabWords / kTile);
#pragma unroll
    for (unsigned j = 0; j < kSlabWords / kTile / 4; ++j) {
      if constexpr (sizeof(Word) == 4) {
        const uint4 q = cached ? load_cached_v4(words + 4 * j) : load_relaxed_v4(words + 4 * j);
        w[4 * j] = q.x;
        w[4 * j + 1] = q.y;
        w[4 * j + 2] = q.z;
        w[4 * j + 3] = q.w;
      } else if (cached) {
        load_cached_v2(reinterpret_cast<const std::uint64_t*>(words + 4 * j), w[2 * j],
                       w[2 * j + 1]);
      } else {  // two 64-bit elements: each pair single-copy atomic, never torn
        load_relaxed_v2(reinterpret_cast<const std::uint64_t*>(words + 4 * j), w[2 * j],
                        w[2 * j + 1]);
      }
    }
    classify(tile, key);
  }
  /// read() from a copy of the slab in shared memory (stage_slabs; one-thread tiles).
  __device__ __forceinline__ void read_staged(const Tile& tile, const uint4* row,
                                              std::uint32_t key) {
    static_assert(kTile == 1, "a staged row is one lane's whole slab");
#pragma unroll
    for (unsigned j = 0; j < kSlabWords / 4; ++j) {
      const uint4 q = row[j];
      if constexpr (sizeof(Word) == 4) {
        w[4 * j] = q.x;
        w[4 * j + 1] = q.y;
        w[4 * j + 2] = q.z;
        w[4 * j + 3] = q.w;
      } else {
        w[2 * j] = (std::uint64_t{q.y} << 32) | q.x;
        w[2 * j + 1] = (std::uint64_t{q.w} << 32) | q.z;
      }
    }
    classify(tile, key);
  }
  /// The masks and the next handle from the words read.
  __device__ __forceinline__ void classify(const Tile& tile, std::uint32_t key) {
    const unsigned rank = tile.thread_rank();
    std::uint32_t m = 0, t = 0, e = 0;
    matched_word = 0;
#pragma unroll
    for (unsigned i = 0; i < kPerLane; ++i) {
      const std::uint32_t k = key_of(w[i]);
      if constexpr (kTile == 1 && sizeof(Word) == 8) {
        if (k == key && m == 0) matched_word = w[i];
      }
      m |= static_cast<std::uint32_t>(k == key) << i;
      t |= static_cast<std::uint32_t>(k == kTombstoneKey) << i;
      e |= static_cast<std::uint32_t>(k == kEmptyKey) << i;
    }
    if constexpr (kTile > 1) {
      const unsigned shift = rank * kPerLane;
      m <<= shift;
      t <<= shift;
      e <<= shift;
#pragma unroll
      for (unsigned o = 1; o < kTile; o <<= 1) {
        m |= tile.shfl_xor(m, o);
        t |= tile.shfl_xor(t, o);
        e |= tile.shfl_xor(e, o);
      }
    }
    match = m & kSlotMask;
    tombstones = t & kSlotMask;
    empties = e & kSlotMask;
    constexpr unsigned kNextSlot = kNextWord * 4 / sizeof(Word);  // word 30 is its low half
    next = key_of(tile.shfl(w[kNextSlot % kPerLane], static_cast<int>(kNextSlot / kPerLane)));
  }
  /// Slot i's word, broadcast from the lane holding it.
  __device__ __forceinline__ Word at(const Tile& tile, unsigned i) const {
    const unsigned local = i % kPerLane;
    Word mine = 0;
#pragma unroll
    for (unsigned j = 0; j < kPerLane; ++j)
      if (j == local) mine = w[j];
    return tile.shfl(mine, static_cast<int>(i / kPerLane));
  }
};

// A layout also says what a matching or tombstone slot holds (a set knows without looking, so
// its words need not stay live; a map fetches the pair from the lane holding it).
struct SetSlots {
  using Word = std::uint32_t;
  template <class Tile>
  using View = SlabView<Word, kSetKeyLanes, Tile>;
  static constexpr Word kEmpty = kEmptyKey;
  __device__ static Word* slot(Slab* s, unsigned i) { return s->words + i; }
  template <class V, class Tile>
  __device__ static Word matched(const V&, const Tile&, unsigned, std::uint32_t key) {
    return key;
  }
  template <class V, class Tile>
  __device__ static Word tombstone(const V&, const Tile&, unsigned) {
    return kTombstoneKey;
  }
  __device__ static Word tombstone_of(Word) { return kTombstoneKey; }
  __device__ static void assign(Word*, Word) {}  // a present key stays as it is
};

struct MapSlots {
  using Word = std::uint64_t;
  template <class Tile>
  using View = SlabView<Word, kMapPairLanes, Tile>;
  static constexpr Word kEmpty = kEmptyPair;
  __device__ static Word* slot(Slab* s, unsigned i) {
    return reinterpret_cast<Word*>(s->words) + i;
  }
  template <class V, class Tile>
  __device__ static Word matched(const V& v, const Tile& tile, unsigned i, std::uint32_t) {
    if constexpr (V::kTile == 1)
      return v.matched_word;  // slot i is the first match
    else
      return v.at(tile, i);
  }
  template <class V, class Tile>
  __device__ static Word tombstone(const V& v, const Tile& tile, unsigned i) {
    return v.at(tile, i);
  }
  /// The 32-lane erase keeps the value in the tombstone; so does this one.
  __device__ static Word tombstone_of(Word cur) {
    return (cur & 0xFFFFFFFF00000000ull) | kTombstoneKey;
  }
  /// The caller owns the key: the new pair replaces the old one whole.
  __device__ static void assign(Word* p, Word desired) {
    atomicExch(reinterpret_cast<unsigned long long*>(p), desired);
  }
};

/// Writes a whole slab that holds `first` in slot 0 and nothing else (every other word, the next
/// handle included, the empty pattern), each lane of the tile its 128 / T bytes; the tile is
/// synchronised after, so lane 0 may publish it.
template <class Word, class Tile>
__device__ __forceinline__ void write_slab_holding(const Tile& tile, Slab* s, Word first) {
  constexpr unsigned kWordsPerLane = kSlabWords / Tile::num_threads();
  const unsigned rank = tile.thread_rank();
  uint4* const to = reinterpret_cast<uint4*>(s->words + rank * kWordsPerLane);
#pragma unroll
  for (unsigned j = 0; j < kWordsPerLane / 4; ++j) {
    uint4 q = make_uint4(kEmptyKey, kEmptyKey, kEmptyKey, kEmptyKey);
    if (rank == 0 && j == 0) {
      q.x = static_cast<std::uint32_t>(first);
      if constexpr (sizeof(Word) == 8) q.y = static_cast<std::uint32_t>(first >> 32);
    }
    to[j] = q;
  }
  tile.sync();
}

/// Exclusive insert (set) / insert_or_assign (map) of `key` as the word `desired`: takes a
/// tombstone of the chain, else a free slot of its last slab, else appends a slab holding it
/// (try_allocate); reports tiled_needs_warp when no slab could be had that way (the 32-lane
/// insert then allocates, or reports the pool exhausted) or the key is reserved.
template <class Slots, FirstRead kFirst, class Tile, class Table>
__device__ inline int insert_exclusive_tiled(const Table& t, const Tile& tile, std::uint32_t key,
                                             typename Slots::Word desired) {
  using Word = typename Slots::Word;
  if (!is_valid_key(key)) return tiled_needs_warp;
  Slab* const bucket = t.buckets() + t.hash_bucket(key);
  Slab* s = bucket;
  Word* hole = nullptr;  // a tombstone of the chain and its word (tile-uniform)
  Word hole_word = 0;
  const std::uint32_t spread = mix32(key ^ 0x9e3779b9u);
  // The first slab is read through L1 (load_cached_v4: one L2 request per 32-byte sector, not
  // two), later reads with relaxed loads. A stale first read is harmless for an exclusive insert:
  // the key is the caller's alone in the phase, so the copy shows it exactly when it is there (L1
  // is invalidated between dependent grids: PTX ISA, ld.ca); a stale free slot or tombstone only
  // fails the CAS, and the slab is read again. H100, one-thread tiles, sets: uniform and R-MAT
  // inserts +5-20% at 2^18-2^21, +4-8% at 2^22; maps: weighted inserts +9% / +19% / +4% / +3% /
  // +3% at 2^16-2^20 (both builds in one call, three rounds). Read so, the sorted batches of
  // 2^21 and 2^22 (a warp's tasks share chains; stale copies cost CAS retries) were 6% and 10%
  // slower: the graph reads their first slabs relaxed (FirstRead), and they stay as they were.
  bool cached = kFirst == FirstRead::cached;
  while (true) {
    typename Slots::template View<Tile> v;
    v.read(tile, s, key, cached);
    cached = false;
    if (v.match) {
      if (tile.thread_rank() == 0) Slots::assign(Slots::slot(s, __ffs(v.match) - 1), desired);
      return tiled_present;
    }
    if (!hole && v.tombstones) {
      const unsigned i = pick_slot(v.tombstones, spread);
      hole = Slots::slot(s, i);
      hole_word = Slots::tombstone(v, tile, i);
    }
    if (v.empties || v.next == kNullSlab) {  // end of the chain: the key is absent
      if (!hole && !v.empties) {
        // The chain is full: append a slab that already holds the key. One lane claims it, the
        // tile writes it whole, and a release CAS links it, so the warp's other tasks go on
        // (only when try_allocate finds nothing does the 32-lane insert take over).
        const std::uint32_t fresh = t.allocator().try_allocate(tile);
        if (fresh == kNullSlab) return tiled_needs_warp;
        write_slab_holding<Word>(tile, t.allocator().pointer(fresh), desired);
        std::uint32_t prev = 0;
        if (tile.thread_rank() == 0) prev = cas_release(s->words + kNextWord, kNullSlab, fresh);
        prev = tile.shfl(prev, 0);
        if (prev == kNullSlab) return tiled_inserted;
        // Another key's slab was linked first: ours was never seen, so it is freed, and the
        // walk goes on into theirs.
        if (tile.thread_rank() == 0) t.allocator().deallocate(fresh);
        Slab* const theirs = t.allocator().pointer(prev);  // (see the erase's walk below)
        fence_acquire();  // our CAS read their release CAS's handle, but was not an acquire
        tile.sync();
        s = theirs;
        continue;
      }
      const Word expected = hole ? hole_word : Slots::kEmpty;
      Word* slot = hole ? hole : Slots::slot(s, pick_slot(v.empties, spread));
      Word old = 0;
      if (tile.thread_rank() == 0) old = cas_relaxed(slot, expected, desired);
      if (tile.shfl(old, 0) == expected) return tiled_inserted;
      if (hole) {  // another key took the tombstone: scan the chain again
        s = bucket;
        hole = nullptr;
      }
      continue;  // (a free slot lost: read this slab again)
    }
    // On to the next slab: an acquire load of its handle, which reads the release CAS that linked
    // it, orders the reads of its contents after the link (the handle is the one already read: a
    // chain's links never change during a phase). Its address comes from that copy, so the
    // super-block lookup overlaps the load. H100, graph batches, against the acquire fence that
    // walks used before (tools/bench/RESULTS.md): inserts into facebook_combined +7-18%,
    // luxembourg_osm +12-13% at 2^20-2^21, delaunay_n16 +11-17% at 2^19-2^20, R-MAT +0-5%.
    Slab* const next = t.allocator().pointer(v.next);
    (void)load_acquire(s->words + kNextWord);
    tile.sync();
    s = next;
  }
}

/// Erase of `key`: true iff it was present (its slot now a tombstone).
template <class Slots, FirstRead kFirst, ChainLinks kLinks, class Tile, class Table>
__device__ inline bool erase_tiled(const Table& t, const Tile& tile, std::uint32_t key) {
  using Word = typename Slots::Word;
  if (!is_valid_key(key)) return false;
  Slab* s = t.buckets() + t.hash_bucket(key);
  // Read through L1 (FirstRead::cached), as insert_exclusive_tiled may: the caller owns the key
  // for the phase, so a copy made during the phase shows it where it was when the phase began (L1
  // is invalidated between dependent grids); if a racing erase of the same key (the graph's eager
  // erases) took it since, the CAS fails and the slab is read again, relaxed. With fixed links
  // (an erase-only phase) the later slabs are read through L1 too: no slot is filled during the
  // phase, so a copy never hides the key behind a stale tombstone or empty slot. H100, graph
  // batches, fixed links against the fenced walk with relaxed reads from 2^18 (RESULTS.md):
  // R-MAT s22 deletes +19-24% at 2^18-2^20, facebook_combined +7-11%, uniform -6% to +1%, the
  // rest -1% to +10%.
  bool cached = kFirst == FirstRead::cached;
  while (true) {
    typename Slots::template View<Tile> v;
    v.read(tile, s, key, cached);
    cached = kLinks == ChainLinks::fixed;
    if (v.match) {
      const unsigned i = __ffs(v.match) - 1;
      const Word cur = Slots::matched(v, tile, i, key);
      Word old = 0;
      if (tile.thread_rank() == 0)
        old = cas_relaxed(Slots::slot(s, i), cur, Slots::tombstone_of(cur));
      if (tile.shfl(old, 0) == cur) return true;
      cached = false;
      continue;  // a concurrent erase won: read again
    }
    // A chain grows only once its last slab has no free slot, and nothing empties a slot outside
    // phase operations, so the key cannot lie beyond a slab with a free slot.
    if (v.empties || v.next == kNullSlab) return false;
    // On to the next slab: its address first (the allocator's super-block table is not written
    // during phases), so the lookup overlaps the acquire fence, where the links may grow
    // (ChainLinks), instead of following it and its L1 invalidation (CCTL.IVALL).
    Slab* const next = t.allocator().pointer(v.next);
    if constexpr (kLinks == ChainLinks::growing) fence_acquire();
    tile.sync();
    s = next;
  }
}

}  // namespace detail
}  // namespace wg::slab
