#pragma once
// wg::slab::SlabTableRef<V>: the device ref of one slab hash table, in the shape of cuCollections'
// static_map_ref. V = void is a set of 32-bit keys (SetTableRef: 30 keys per slab); V =
// std::uint32_t a map from 32-bit keys to 32-bit values (MapTableRef: 15 pairs per slab, each
// pair one 64-bit word). A table is an array of base-bucket slabs (contiguous, owned by whoever
// made it, initialised to all ones) plus a SlabAllocatorRef for overflow slabs; a ref is three
// words, trivially copyable, and cheap to build inside any kernel (the graph keeps one small table
// per vertex). SlabTable<V> (slab_table.cuh) owns one and hands out its ref.
//
// Calling convention: tile-cooperative. All 32 lanes of a warp call each operation together
// with the same (warp-uniform) arguments and get the same result. Never call one under a branch
// that splits the warp: reach them from per-thread work through wg::for_each_active_lane
// (containers/core/work_sharing.cuh). The *_thread functions are the exception: one thread walks
// the chain alone, for read-only phases. slab_table_tile.cuh has the exclusive insert and the
// erase for tiles of 1-8 lanes.
//
// Semantics (fully concurrent for insert / erase / lookup):
//   - keys are unique; insert (set) / insert_or_assign (map) of a present key reports `present`
//     (the map replaces the value: last writer wins);
//   - erase marks the key's slot with a tombstone and reports whether the key was present;
//     tombstones are not reused by inserts (so every chain keeps its empty slots at its end,
//     which is what makes concurrent inserts of one key agree), flush()/compact_bucket() remove
//     them; the *_exclusive inserts do reuse them, for callers that guarantee no concurrent
//     operation on the same key (the dynamic graph dedups each batch first);
//   - insert, erase, contains/find on any mix of keys may run concurrently, from any number of
//     warps and kernels; each is linearizable per key (a lookup concurrent with an insert or erase
//     of the same key may see either state; a map lookup never returns a value that was not
//     stored with that key, because a pair is written and read as one 64-bit word);
//   - for_each/count concurrent with updates see some subset of the keys present at some point
//     during the call (exact when nothing else runs);
//   - *_readonly, *_thread, compact_bucket/flush and clear are phase operations: no concurrent
//     update of the same table (the readonly ones use the non-coherent cache).
// Errors: a reserved key (kEmptyKey, kTombstoneKey) is answered InsertOutcome::invalid_key or
// false; an exhausted allocator InsertOutcome::out_of_slabs (table unchanged, allocator flag set).
// Complexity: O(chain length / slab capacity) slab reads per operation; a chain grows one slab
// (30 keys or 15 pairs) at a time.
// Memory order: slots are published by one CAS (relaxed: the key/pair is the datum itself); a new
// slab is filled with empties, then linked by a release CAS; a traversal takes an acquire fence
// before reading a slab it reached through a link.
#include <cstdint>
#include <type_traits>

#include <warpgraph/containers/core/hash.cuh>
#include <warpgraph/containers/core/work_sharing.cuh>
#include <warpgraph/containers/slab_hash/slab_allocator.cuh>
#include <warpgraph/containers/slab_hash/slab_layout.cuh>
#include <warpgraph/containers/slab_hash/slab_memory.cuh>

namespace wg::slab {

/// One slab hash table: a set (V = void) or a map to 32-bit values (V = std::uint32_t).
template <class V>
class SlabTableRef {
  static_assert(std::is_void_v<V> || std::is_same_v<V, std::uint32_t>,
                "SlabTableRef<V>: V is void (a set) or std::uint32_t (a map)");

 public:
  using key_type = std::uint32_t;
  using mapped_type = V;
  static constexpr bool kIsMap = !std::is_void_v<V>;
  /// The slot layout: SetSlots (32-bit keys) or MapSlots (64-bit pairs), slab_memory.cuh.
  using Slots = SlotsFor<V>;
  static constexpr std::uint32_t kSlotsPerSlab = Slots::kSlots;

  SlabTableRef() = default;
  __host__ __device__ SlabTableRef(Slab* buckets, std::uint32_t num_buckets, SlabAllocatorRef alloc)
      : buckets_(buckets), num_buckets_(num_buckets), alloc_(alloc) {}

  // ---- updates ----
  /// Set: inserts `key`: inserted (new), present, out_of_slabs or invalid_key.
  __device__ InsertOutcome insert(const warp_tile& tile, std::uint32_t key) const
      requires(!kIsMap) {
    return insert_word(tile, key, 0);
  }
  /// Set: insert() for callers that own `key` for the phase: no other operation on the same key
  /// runs concurrently (other keys may be inserted or erased meanwhile). Reuses the first
  /// tombstone of the key's chain, so a table under a stream of inserts and erases keeps its
  /// length.
  __device__ InsertOutcome insert_exclusive(const warp_tile& tile, std::uint32_t key) const
      requires(!kIsMap) {
    return insert_exclusive_word(tile, key, 0);
  }
  /// Map: inserts (key, value) or replaces the value of a present key: inserted / present /
  /// out_of_slabs / invalid_key as for insert.
  __device__ InsertOutcome insert_or_assign(const warp_tile& tile, std::uint32_t key,
                                            std::uint32_t value) const requires(kIsMap) {
    return insert_word(tile, key, value);
  }
  /// Map: insert_or_assign() under insert_exclusive()'s contract (reuses tombstones).
  __device__ InsertOutcome insert_or_assign_exclusive(const warp_tile& tile, std::uint32_t key,
                                                      std::uint32_t value) const requires(kIsMap) {
    return insert_exclusive_word(tile, key, value);
  }
  /// Erases `key` (tombstone; a map's keeps the value); true iff it was present.
  __device__ bool erase(const warp_tile& tile, std::uint32_t key) const;

  // ---- lookups ----
  /// Lookup, safe concurrently with updates.
  __device__ bool contains(const warp_tile& tile, std::uint32_t key) const {
    return lookup<RelaxedLoad>(tile, key, nullptr);
  }
  /// Map: lookup, safe concurrently with updates; *value is written (by every lane) when found.
  __device__ bool find(const warp_tile& tile, std::uint32_t key, std::uint32_t* value) const
      requires(kIsMap) {
    return lookup<RelaxedLoad>(tile, key, value);
  }
  /// Lookups through the read-only cache: only when no update of this table runs concurrently.
  __device__ bool contains_readonly(const warp_tile& tile, std::uint32_t key) const {
    return lookup<ReadOnlyLoad>(tile, key, nullptr);
  }
  __device__ bool find_readonly(const warp_tile& tile, std::uint32_t key,
                                std::uint32_t* value) const requires(kIsMap) {
    return lookup<ReadOnlyLoad>(tile, key, value);
  }
  /// ONE thread walks the chain (read-only phases, e.g. intersections).
  __device__ bool contains_thread(std::uint32_t key) const requires(!kIsMap) {
    return lookup_thread(key, nullptr);
  }
  __device__ bool find_thread(std::uint32_t key, std::uint32_t* value) const requires(kIsMap) {
    return lookup_thread(key, value);
  }

  // ---- iteration ----
  /// f(key) (set) or f(key, value) (map) once per live entry, called by the lane holding it
  /// (lanes diverge inside: f must not use tile operations). The whole warp calls for_each.
  template <class F>
  __device__ void for_each(const warp_tile& tile, F&& f) const {
    for (std::uint32_t b = 0; b < num_buckets_; ++b) for_each_in_bucket(tile, b, f);
  }
  template <class F>
  __device__ void for_each_in_bucket(const warp_tile& tile, std::uint32_t bucket, F&& f) const;
  /// Number of live keys (warp-uniform).
  __device__ std::uint32_t count(const warp_tile& tile) const;

  // ---- phase operations (no concurrent access to this table) ----
  /// Rewrites a bucket's chain without tombstones and frees the slabs that end up empty.
  __device__ void compact_bucket(const warp_tile& tile, std::uint32_t bucket) const;
  /// compact_bucket for every bucket.
  __device__ void flush(const warp_tile& tile) const {
    for (std::uint32_t b = 0; b < num_buckets_; ++b) compact_bucket(tile, b);
  }
  /// Frees a bucket's overflow slabs and empties its base slab.
  __device__ void clear_bucket(const warp_tile& tile, std::uint32_t bucket) const;
  /// clear_bucket for every bucket.
  __device__ void clear(const warp_tile& tile) const {
    for (std::uint32_t b = 0; b < num_buckets_; ++b) clear_bucket(tile, b);
  }

  __host__ __device__ __forceinline__ std::uint32_t hash_bucket(std::uint32_t key) const {
    return wg::fast_range(wg::mix32(key), num_buckets_);
  }
  __host__ __device__ Slab* buckets() const { return buckets_; }
  __host__ __device__ std::uint32_t num_buckets() const { return num_buckets_; }
  __host__ __device__ const SlabAllocatorRef& allocator() const { return alloc_; }

 private:
  using Word = typename Slots::Word;
  /// The bodies shared by set and map (a set ignores `value`).
  __device__ InsertOutcome insert_word(const warp_tile& tile, std::uint32_t key,
                                       std::uint32_t value) const;
  __device__ InsertOutcome insert_exclusive_word(const warp_tile& tile, std::uint32_t key,
                                                 std::uint32_t value) const;
  template <class Load>
  __device__ bool lookup(const warp_tile& tile, std::uint32_t key, std::uint32_t* value) const;
  __device__ bool lookup_thread(std::uint32_t key, std::uint32_t* value) const;

  Slab* buckets_ = nullptr;
  std::uint32_t num_buckets_ = 0;
  SlabAllocatorRef alloc_{};
};

/// A slab hash set of 32-bit keys.
using SetTableRef = SlabTableRef<void>;
/// A slab hash map from 32-bit keys to 32-bit values.
using MapTableRef = SlabTableRef<std::uint32_t>;

}  // namespace wg::slab

#include <warpgraph/containers/slab_hash/detail/slab_table_impl.cuh>
