#pragma once
// The chain walks of the exclusive tiled operations (slab_table_tile.cuh), written once over a
// slot layout (SetSlots / MapSlots, slab_memory.cuh). Included by slab_table_tile.cuh, which
// declares FirstRead, ChainLinks and TiledInsertOutcome.
#include <cstdint>

#include <warpgraph/containers/slab_hash/slab_layout.cuh>
#include <warpgraph/containers/slab_hash/slab_memory.cuh>

namespace wg::slab {

namespace detail {

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
  // With FirstRead::cached the first slab is read through L1 (one L2 request per 32-byte sector,
  // not two), later reads with relaxed loads. A stale first read is harmless for an exclusive
  // insert: the key is the caller's alone in the phase, so the copy shows it exactly when it is
  // there (L1 is invalidated between dependent grids: PTX ISA, ld.ca); a stale free slot or
  // tombstone only fails the CAS, and the slab is read again. Batches whose tasks share chains
  // (sorted by vertex) retry such CASes often, so their callers read relaxed (FirstRead::relaxed).
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
    // super-block lookup overlaps the load (cheaper than a full acquire fence).
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
  // phase, so a copy never hides the key behind a stale tombstone or empty slot.
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
