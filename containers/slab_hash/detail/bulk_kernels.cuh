#pragma once
// Bulk kernels of SlabTable<V> (included by the .cu files that instantiate it), written once for
// sets (V = void) and maps (V = std::uint32_t): `if constexpr (kMap)` marks where a map differs
// (it carries values, assigns present keys on the 32-lane path, and returns values).
//
// Every kernel deals keys 32 per warp (wg::warp_stride_loop) and runs the tasks warp-
// cooperatively (WCWS). With lookahead G > 1 a warp takes G tasks at once: it issues the G base-
// slab reads back to back, decides each task from its slab (found / free slot / needs more),
// then the lanes 0..G-1 issue the G slot CASes together. Tasks that need more (chain longer than
// one slab, lost CAS, reserved key) go through the plain tile operation, which is the reference
// algorithm. This keeps G independent memory operations in flight per warp instead of one.
// Correctness of the fast insert: a CAS on the first empty slot of the base slab succeeds only if
// no insert reached this chain since the read (inserts fill the first empty slot), so the key is
// still absent; a failed CAS falls back to the full algorithm.
#include <type_traits>

#include <warpgraph/containers/core/work_sharing.cuh>
#include <warpgraph/containers/slab_hash/detail/table_core.cuh>
#include <warpgraph/containers/slab_hash/slab_table_ref.cuh>

namespace wg::slab::detail {

/// Lane `lane`'s word of the first slab of k's bucket in t, read through Load (a map's pairs on
/// lanes 0..15, kEmptyPair on the others): the lookahead's base-slab read of one task.
template <bool kMap, class Load, class Table>
__device__ __forceinline__ auto base_slab_word(const Table& t, std::uint32_t k, unsigned lane) {
  if constexpr (kMap)
    return lane < 16 ? Load::load(pairs_of(&t.buckets()[t.hash_bucket(k)]) + lane) : kEmptyPair;
  else
    return Load::load(&t.buckets()[t.hash_bucket(k)].words[lane]);
}

/// Per-lane tallies, summed per warp and added to the device counters once per warp.
struct Tally {
  unsigned success = 0, out_of_slabs = 0, invalid = 0;
  __device__ void add(InsertOutcome r) {
    success += r == InsertOutcome::inserted;
    out_of_slabs += r == InsertOutcome::out_of_slabs;
    invalid += r == InsertOutcome::invalid_key;
  }
  /// A lookup's answer to task i, written by the lane that owns it (so the warp's writes are
  /// coalesced): found or not, and (maps) the value or kNotFoundValue.
  template <class V>
  __device__ __forceinline__ void answer(std::uint64_t i, bool found, std::uint32_t value,
                                         std::uint32_t* out_values, bool* out_found) {
    if constexpr (!std::is_void_v<V>) {
      if (out_values) out_values[i] = found ? value : kNotFoundValue;
    }
    if (out_found) out_found[i] = found;
    success += found;
  }
  /// live_sign: +1 (insert), -1 (erase), 0 (lookups).
  __device__ void commit(const warp_tile& tile, unsigned long long* counters, int live_sign) const {
    const unsigned s = __reduce_add_sync(0xFFFFFFFFu, success);
    const unsigned o = __reduce_add_sync(0xFFFFFFFFu, out_of_slabs);
    const unsigned v = __reduce_add_sync(0xFFFFFFFFu, invalid);
    if (tile.thread_rank() == 0) {
      if (s) atomicAdd(counters + kSuccess, s);
      if (s && live_sign > 0) atomicAdd(counters + kLive, static_cast<unsigned long long>(s));
      if (s && live_sign < 0) atomicAdd(counters + kLive, 0ull - s);
      if (o) atomicAdd(counters + kOutOfSlabs, o);
      if (v) atomicAdd(counters + kInvalid, v);
    }
  }
  /// The same, summed over the block in shared memory first: one global atomic per counter per
  /// block instead of per warp (every warp of the grid adds to the same few words, which
  /// serialise in one L2 slice). All threads of the block must call it.
  __device__ void commit_block(unsigned long long* counters, int live_sign) const {
    __shared__ unsigned sums[3];
    if (threadIdx.x < 3) sums[threadIdx.x] = 0;
    __syncthreads();
    const unsigned s = __reduce_add_sync(0xFFFFFFFFu, success);
    const unsigned o = __reduce_add_sync(0xFFFFFFFFu, out_of_slabs);
    const unsigned v = __reduce_add_sync(0xFFFFFFFFu, invalid);
    if (threadIdx.x % 32 == 0) {
      if (s) atomicAdd(&sums[0], s);
      if (o) atomicAdd(&sums[1], o);
      if (v) atomicAdd(&sums[2], v);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      const unsigned bs = sums[0], bo = sums[1], bv = sums[2];
      if (bs) atomicAdd(counters + kSuccess, bs);
      if (bs && live_sign > 0) atomicAdd(counters + kLive, static_cast<unsigned long long>(bs));
      if (bs && live_sign < 0) atomicAdd(counters + kLive, 0ull - bs);
      if (bo) atomicAdd(counters + kOutOfSlabs, bo);
      if (bv) atomicAdd(counters + kInvalid, bv);
    }
  }
};

/// kSlow: finish on the 32-lane path; kOneByOne: finish on the 8-lane one-task-at-a-time path.
enum Plan : int { kNone = 0, kDone = 1, kNew = 2, kCas = 3, kSlow = 4, kOneByOne = 5 };

// ---- helpers ---------------------------------------------------------------------------------

/// A key's insert as the table's 32-lane operation: insert (set) or insert_or_assign (map).
template <class V>
__device__ __forceinline__ InsertOutcome insert_one(const SlabTableRef<V>& t, const warp_tile& tile,
                                                    std::uint32_t key, std::uint32_t value) {
  if constexpr (std::is_void_v<V>)
    return t.insert(tile, key);
  else
    return t.insert_or_assign(tile, key, value);
}

/// `value` from lane src (a map's); a set has none and issues no shuffle.
template <class V, class Tile>
__device__ __forceinline__ std::uint32_t shfl_value(const Tile& tile, std::uint32_t value,
                                                    int src) {
  if constexpr (std::is_void_v<V>)
    return 0u;
  else
    return tile.shfl(value, src);
}

// ---- 32-lane bulk kernels (tile_lanes 32, lookahead G) ----------------------------------------

template <class V, int G>
__device__ __forceinline__ void insert_tasks(const SlabTableRef<V>& t, const warp_tile& tile,
                                             std::uint32_t key, std::uint32_t value, bool active,
                                             Tally& tally) {
  using Slots = SlotsFor<V>;
  using Word = typename Slots::Word;
  constexpr bool kMap = !std::is_void_v<V>;
  const std::uint32_t lane = tile.thread_rank();
  if constexpr (G == 1) {
    for_each_active_lane(tile, active, [&](int src) {
      const InsertOutcome r =
          insert_one(t, tile, tile.shfl(key, src), shfl_value<V>(tile, value, src));
      if (lane == 0) tally.add(r);
    });
  } else {
    unsigned queue = tile.ballot(active);
    while (queue) {
      std::uint32_t k[G], v[G];
      Word w[G];
      bool has[G];
#pragma unroll
      for (int j = 0; j < G; ++j) {
        has[j] = queue != 0;
        const int src = has[j] ? __ffs(queue) - 1 : 0;
        if (has[j]) queue &= queue - 1;
        k[j] = tile.shfl(key, src);
        if constexpr (kMap) v[j] = tile.shfl(value, src);
      }
#pragma unroll
      for (int j = 0; j < G; ++j)
        if (has[j]) w[j] = base_slab_word<kMap, RelaxedLoad>(t, k[j], lane);
      int plan = kNone;
      std::uint32_t slot = 0, my_key = 0, my_value = 0;
#pragma unroll
      for (int j = 0; j < G; ++j) {
        if (!has[j]) continue;
        const unsigned found = tile.ballot(Slots::key_of(w[j]) == k[j]) & Slots::kSlotMask;
        const unsigned empty = tile.ballot(Slots::key_of(w[j]) == kEmptyKey) & Slots::kSlotMask;
        int pj;
        if constexpr (kMap)  // a present key takes the general path (assign with a CAS loop)
          pj = (!is_valid_key(k[j]) || found) ? kSlow : empty ? kCas : kSlow;
        else
          pj = !is_valid_key(k[j]) ? kSlow : found ? kDone : empty ? kCas : kSlow;
        if (lane == static_cast<std::uint32_t>(j)) {
          plan = pj;
          slot = __ffs(empty) - 1;
          my_key = k[j];
          if constexpr (kMap) my_value = v[j];
        }
      }
      if (plan == kCas) {
        const Word old = cas_relaxed(Slots::slot(&t.buckets()[t.hash_bucket(my_key)], slot),
                                     Slots::kEmpty, Slots::make(my_key, my_value));
        if constexpr (kMap)
          plan = old == kEmptyPair ? kNew : kSlow;
        else
          plan = old == kEmptyKey ? kNew : (old == my_key ? kDone : kSlow);
      }
      tally.success += plan == kNew;
      for (unsigned m = tile.ballot(plan == kSlow); m; m &= m - 1) {
        const int j = __ffs(m) - 1;
        const InsertOutcome r =
            insert_one(t, tile, tile.shfl(my_key, j), shfl_value<V>(tile, my_value, j));
        if (lane == 0) tally.add(r);
      }
    }
  }
}

/// values: one per key (maps; ignored for sets, may be null).
template <class V, int G>
static __global__ void __launch_bounds__(kBlockThreads)
    insert_kernel(SlabTableRef<V> t, const std::uint32_t* keys, const std::uint32_t* values,
                  std::uint64_t n, unsigned long long* counters) {
  Tally tally;
  warp_stride_loop(n, [&](const warp_tile& tile, std::uint64_t i, bool active) {
    std::uint32_t value = 0;
    if constexpr (!std::is_void_v<V>) value = active ? values[i] : 0u;
    insert_tasks<V, G>(t, tile, active ? keys[i] : 0u, value, active, tally);
  });
  tally.commit(this_warp(), counters, +1);
}

template <class V>
static __global__ void __launch_bounds__(kBlockThreads)
    erase_kernel(SlabTableRef<V> t, const std::uint32_t* keys, std::uint64_t n,
                 unsigned long long* counters) {
  Tally tally;
  warp_stride_loop(n, [&](const warp_tile& tile, std::uint64_t i, bool active) {
    const std::uint32_t key = active ? keys[i] : 0u;
    for_each_active_lane(tile, active, [&](int src) {
      const std::uint32_t k = tile.shfl(key, src);
      const bool erased = t.erase(tile, k);
      if (tile.thread_rank() == 0) {
        tally.success += erased;
        tally.invalid += !is_valid_key(k);
      }
    });
  });
  tally.commit(this_warp(), counters, -1);
}

/// Lookups: out_found[i] = keys[i] present; out_values[i] (maps) its value or kNotFoundValue.
/// Either output may be null; a set ignores out_values.
template <class V, int G>
static __global__ void __launch_bounds__(kBlockThreads)
    find_kernel(SlabTableRef<V> t, const std::uint32_t* keys, std::uint64_t n,
                std::uint32_t* out_values, bool* out_found, unsigned long long* counters) {
  using Slots = SlotsFor<V>;
  using Word = typename Slots::Word;
  constexpr bool kMap = !std::is_void_v<V>;
  Tally tally;
  warp_stride_loop(n, [&](const warp_tile& tile, std::uint64_t i, bool active) {
    const std::uint32_t lane = tile.thread_rank();
    const std::uint32_t key = active ? keys[i] : 0u;
    // The answer to this lane's own task, written coalesced at the end.
    bool mine = false;
    std::uint32_t mine_value = kNotFoundValue;
    if constexpr (G == 1) {
      for_each_active_lane(tile, active, [&](int src) {
        if constexpr (kMap) {
          std::uint32_t v = kNotFoundValue;
          const bool hit = t.find_readonly(tile, tile.shfl(key, src), &v);
          if (lane == static_cast<std::uint32_t>(src)) {
            mine = hit;
            mine_value = v;
          }
        } else {
          const bool hit = t.contains_readonly(tile, tile.shfl(key, src));
          if (lane == static_cast<std::uint32_t>(src)) mine = hit;
        }
      });
    } else {
      unsigned queue = tile.ballot(active);
      while (queue) {
        std::uint32_t k[G];
        Word w[G];
        int srcs[G];
#pragma unroll
        for (int j = 0; j < G; ++j) {
          srcs[j] = queue ? __ffs(queue) - 1 : -1;
          if (queue) queue &= queue - 1;
          k[j] = tile.shfl(key, srcs[j] < 0 ? 0 : srcs[j]);
        }
#pragma unroll
        for (int j = 0; j < G; ++j)
          if (srcs[j] >= 0) w[j] = base_slab_word<kMap, ReadOnlyLoad>(t, k[j], lane);
        int plan = kNone;
        std::uint32_t my_key = 0, my_value = kNotFoundValue;
#pragma unroll
        for (int j = 0; j < G; ++j) {
          if (srcs[j] < 0) continue;
          const unsigned found = tile.ballot(Slots::key_of(w[j]) == k[j]) & Slots::kSlotMask;
          const std::uint32_t next = tile.shfl(Slots::key_of(w[j]), Slots::kNextLane);
          std::uint32_t value = kNotFoundValue;
          if constexpr (kMap) value = tile.shfl(pair_value(w[j]), found ? __ffs(found) - 1 : 0);
          const int pj = !is_valid_key(k[j]) ? kNone
                         : found             ? kDone
                         : next == kNullSlab ? kNone
                                             : kSlow;
          if (lane == static_cast<std::uint32_t>(j)) {
            plan = pj;
            my_key = k[j];
            if constexpr (kMap) my_value = value;
          }
        }
        for (unsigned m = tile.ballot(plan == kSlow); m; m &= m - 1) {
          const int j = __ffs(m) - 1;
          if constexpr (kMap) {
            std::uint32_t v = kNotFoundValue;
            const bool hit = t.find_readonly(tile, tile.shfl(my_key, j), &v);
            if (lane == static_cast<std::uint32_t>(j)) {
              plan = hit ? kDone : kNone;
              my_value = v;
            }
          } else {
            const bool hit = t.contains_readonly(tile, tile.shfl(my_key, j));
            if (lane == static_cast<std::uint32_t>(j)) plan = hit ? kDone : kNone;
          }
        }
        // Lane j holds the answer of task j, which came from lane srcs[j]: hand it back.
#pragma unroll
        for (int j = 0; j < G; ++j) {
          if (srcs[j] < 0) continue;
          const int hit = tile.shfl(static_cast<int>(plan == kDone), j);
          std::uint32_t v = kNotFoundValue;
          if constexpr (kMap) v = tile.shfl(my_value, j);
          if (lane == static_cast<std::uint32_t>(srcs[j])) {
            mine = hit;
            if constexpr (kMap) mine_value = v;
          }
        }
      }
    }
    if (active) tally.answer<V>(i, mine, mine_value, out_values, out_found);
  });
  tally.commit(this_warp(), counters, 0);
}

// ---- bulk lookups with 8-lane tiles ------------------------------------------------------------
// Read-only phase: a warp runs four lookups at once, one per 8-lane tile; each lane reads 16
// bytes of the slab (one uint4), so a tile still reads the whole 128-byte slab in one coalesced
// request, with a quarter of the instructions per lookup and four reads in flight per warp.

/// value: written when found (maps).
template <class V, class Tile>
__device__ __forceinline__ bool find_tile8(const SlabTableRef<V>& t, const Tile& tile,
                                           std::uint32_t k, std::uint32_t& value) {
  if (!is_valid_key(k)) return false;
  const std::uint32_t r = tile.thread_rank();
  const Slab* s = t.buckets() + t.hash_bucket(k);
  while (true) {
    // A set lane reads keys 4r..4r+3; a map lane pairs 2r, 2r+1 (lane 7: pair 14 and the next).
    const uint4 q = __ldg(reinterpret_cast<const uint4*>(s->words) + r);
    if constexpr (std::is_void_v<V>) {
      const bool m = q.x == k || q.y == k || (r < 7 && (q.z == k || q.w == k));
      if (tile.any(m)) return true;
    } else {
      const bool m0 = q.x == k, m1 = r < 7 && q.z == k;
      const unsigned m = tile.ballot(m0 || m1);
      if (m) {
        value = tile.shfl(m0 ? q.y : q.w, __ffs(m) - 1);
        return true;
      }
    }
    const std::uint32_t next = tile.shfl(q.z, 7);
    if (next == kNullSlab) return false;
    s = t.allocator().pointer(next);
  }
}

template <class V>
static __global__ void __launch_bounds__(kBlockThreads)
    find_tile8_kernel(SlabTableRef<V> t, const std::uint32_t* keys, std::uint64_t n,
                      std::uint32_t* out_values, bool* out_found, unsigned long long* counters) {
  Tally tally;
  warp_stride_loop(n, [&](const warp_tile& warp, std::uint64_t i, bool active) {
    const auto tile = cooperative_groups::tiled_partition<8>(warp);
    const std::uint32_t key = active ? keys[i] : 0u;
    bool mine = false;
    std::uint32_t mine_value = kNotFoundValue;
    for (unsigned queue = tile.ballot(active); queue; queue &= queue - 1) {
      const int src = __ffs(queue) - 1;
      std::uint32_t v = kNotFoundValue;
      const bool hit = find_tile8(t, tile, tile.shfl(key, src), v);
      if (tile.thread_rank() == static_cast<unsigned>(src)) {
        mine = hit;
        if constexpr (!std::is_void_v<V>) mine_value = v;
      }
    }
    if (active) tally.answer<V>(i, mine, mine_value, out_values, out_found);
  });
  tally.commit(this_warp(), counters, 0);
}

// ---- bulk inserts with 8-lane tiles ------------------------------------------------------------
// The same algorithm as SlabTableRef::insert / insert_or_assign (first empty slot of the chain's
// last slab, CAS, re-read on failure), with 8 lanes reading 16 bytes each, so a warp runs four
// inserts at once. Tasks that need the whole warp go back to the 32-lane operation afterwards: a
// new slab (allocation is warp-cooperative), a reserved key, and (map) a present key
// (assignment).

template <class V, class Tile>
__device__ __forceinline__ int insert_tile8(const SlabTableRef<V>& t, const Tile& tile,
                                            std::uint32_t k, std::uint32_t v) {
  using Slots = SlotsFor<V>;
  using Word = typename Slots::Word;
  constexpr bool kMap = !std::is_void_v<V>;
  constexpr std::uint32_t kPerLane = kMap ? 2 : 4;  // slots a lane reads
  if (!is_valid_key(k)) return kSlow;
  const std::uint32_t r = tile.thread_rank();
  Slab* s = t.buckets() + t.hash_bucket(k);
  while (true) {
    // A set lane reads keys 4r..4r+3; a map lane pairs 2r and 2r + 1 (lane 7: pair 14 and the
    // next word). Lane 7 skips the next handle.
    [[maybe_unused]] uint4 q;
    [[maybe_unused]] std::uint64_t p0, p1;
    bool m;
    if constexpr (kMap) {
      load_relaxed_v2(pairs_of(s) + 2 * r, p0, p1);
      m = pair_key(p0) == k || (r < 7 && pair_key(p1) == k);
    } else {
      q = load_relaxed_v4(s->words + 4 * r);
      m = q.x == k || q.y == k || (r < 7 && (q.z == k || q.w == k));
    }
    if (tile.any(m)) return kMap ? kSlow : kDone;  // map: assignment on the 32-lane path
    int e;
    if constexpr (kMap)
      e = pair_key(p0) == kEmptyKey ? 0 : (r < 7 && pair_key(p1) == kEmptyKey) ? 1 : -1;
    else
      e = q.x == kEmptyKey              ? 0
          : q.y == kEmptyKey            ? 1
          : (r < 7 && q.z == kEmptyKey) ? 2
          : (r < 7 && q.w == kEmptyKey) ? 3
                                        : -1;
    const unsigned em = tile.ballot(e >= 0);
    if (em) {
      const unsigned src = __ffs(em) - 1;
      Word old = 0;
      if (r == src)
        old = cas_relaxed(Slots::slot(s, kPerLane * r) + e, Slots::kEmpty, Slots::make(k, v));
      old = tile.shfl(old, src);
      if (old == Slots::kEmpty) return kNew;
      if constexpr (!kMap) {
        if (old == k) return kDone;
      }
      continue;
    }
    std::uint32_t next;
    if constexpr (kMap)
      next = tile.shfl(pair_key(p1), 7);
    else
      next = tile.shfl(q.z, 7);
    if (next == kNullSlab) return kSlow;
    fence_acquire();
    tile.sync();
    s = t.allocator().pointer(next);
  }
}

// Batched form (BulkInsertPolicy::batch G > 1): the tile's tasks (one per lane) read their base
// slabs G at a time, all reads in flight together; each task's owner lane learns from its read
// whether the key is there (set: done; map: present, assignment on the 32-lane path) or which
// slot is the first empty one; then every owner lane CASes its own key into its slot at once.
// A read is a valid snapshot for the CAS whatever happened since (slots only go empty -> key ->
// tombstone, and inserts take the first empty slot of the chain): a successful CAS on the first
// empty slot of the read proves the key absent; a failed one (another insert got there, e.g. a
// task of the same tile hashing to the same bucket) and a full base slab go one at a time through
// insert_tile8 above (re-read, chain traversal). Reserved keys: 32-lane.
// Returns the lane's own outcome: kNone (inactive), kNew, kDone, kSlow.

template <class V, int G, class Tile>
__device__ __forceinline__ int insert_tile8_batch(const SlabTableRef<V>& t, const Tile& tile,
                                                  std::uint32_t key, std::uint32_t value,
                                                  bool active) {
  using Slots = SlotsFor<V>;
  using Word = typename Slots::Word;
  constexpr bool kMap = !std::is_void_v<V>;
  constexpr std::uint32_t kPerLane = kMap ? 2 : 4;
  const std::uint32_t r = tile.thread_rank();
  int mine = kNone;
  std::uint32_t my_slot = 0;
  for (unsigned queue = tile.ballot(active); queue;) {  // tile-uniform
    std::uint32_t k[G];
    int src[G];
    [[maybe_unused]] uint4 q[G];                  // set
    [[maybe_unused]] std::uint64_t p0[G], p1[G];  // map: pairs 2r and 2r + 1
#pragma unroll
    for (int j = 0; j < G; ++j) {
      src[j] = queue ? __ffs(queue) - 1 : -1;
      queue &= queue - 1;
      k[j] = tile.shfl(key, src[j] < 0 ? 0 : src[j]);
    }
#pragma unroll
    for (int j = 0; j < G; ++j)
      if (src[j] >= 0 && is_valid_key(k[j])) {
        if constexpr (kMap)
          load_relaxed_v2(pairs_of(&t.buckets()[t.hash_bucket(k[j])]) + 2 * r, p0[j], p1[j]);
        else
          q[j] = load_relaxed_v4(t.buckets()[t.hash_bucket(k[j])].words + 4 * r);
      }
#pragma unroll
    for (int j = 0; j < G; ++j) {
      if (src[j] < 0) continue;
      int plan = kSlow;
      std::uint32_t slot = 0;
      if (is_valid_key(k[j])) {
        bool m;
        int e;
        if constexpr (kMap) {
          const std::uint32_t a = pair_key(p0[j]), b = pair_key(p1[j]);
          m = a == k[j] || (r < 7 && b == k[j]);
          e = a == kEmptyKey ? 0 : (r < 7 && b == kEmptyKey) ? 1 : -1;
        } else {
          const uint4 w = q[j];
          m = w.x == k[j] || w.y == k[j] || (r < 7 && (w.z == k[j] || w.w == k[j]));
          e = w.x == kEmptyKey              ? 0
              : w.y == kEmptyKey            ? 1
              : (r < 7 && w.z == kEmptyKey) ? 2
              : (r < 7 && w.w == kEmptyKey) ? 3
                                            : -1;
        }
        const bool found = tile.any(m);
        const unsigned em = tile.ballot(e >= 0);
        const int f = em ? __ffs(em) - 1 : 0;
        slot = kPerLane * f + tile.shfl(e, f);
        // Map: a present key is assigned on the 32-lane path.
        plan = found ? (kMap ? kSlow : kDone) : em ? kCas : kOneByOne;
      }
      if (r == static_cast<std::uint32_t>(src[j])) {
        mine = plan;
        my_slot = slot;
      }
    }
  }
  if (mine == kCas) {
    const Word old = cas_relaxed(Slots::slot(&t.buckets()[t.hash_bucket(key)], my_slot),
                                 Slots::kEmpty, Slots::make(key, value));
    if constexpr (kMap)
      mine = old == kEmptyPair ? kNew : pair_key(old) == key ? kSlow : kOneByOne;
    else
      mine = old == kEmptyKey ? kNew : old == key ? kDone : kOneByOne;
  }
  for (unsigned m = tile.ballot(mine == kOneByOne); m; m &= m - 1) {
    const int src = __ffs(m) - 1;
    const int res = insert_tile8(t, tile, tile.shfl(key, src), shfl_value<V>(tile, value, src));
    if (r == static_cast<std::uint32_t>(src)) mine = res;
  }
  return mine;
}

/// 8-lane bulk insert kernels: kThreads per block, batch G (1: one task at a time per tile),
/// counters summed per block (kBlockCounters) or per warp. values as for insert_kernel.
template <class V, int kThreads, int G, bool kBlockCounters>
static __global__ void __launch_bounds__(kThreads)
    insert_tile8_kernel(SlabTableRef<V> t, const std::uint32_t* keys, const std::uint32_t* values,
                        std::uint64_t n, unsigned long long* counters) {
  Tally tally;
  warp_stride_loop(n, [&](const warp_tile& warp, std::uint64_t i, bool active) {
    const auto tile = cooperative_groups::tiled_partition<8>(warp);
    const std::uint32_t key = active ? keys[i] : 0u;
    std::uint32_t value = 0;
    if constexpr (!std::is_void_v<V>) value = active ? values[i] : 0u;
    int mine = kNone;
    if constexpr (G == 1) {
      for (unsigned queue = tile.ballot(active); queue; queue &= queue - 1) {
        const int src = __ffs(queue) - 1;
        const int res = insert_tile8(t, tile, tile.shfl(key, src), shfl_value<V>(tile, value, src));
        if (tile.thread_rank() == static_cast<unsigned>(src)) mine = res;
      }
    } else {
      mine = insert_tile8_batch<V, G>(t, tile, key, value, active);
    }
    tally.success += mine == kNew;
    for_each_active_lane(warp, mine == kSlow, [&](int src) {
      const InsertOutcome r =
          insert_one(t, warp, warp.shfl(key, src), shfl_value<V>(warp, value, src));
      if (warp.thread_rank() == 0) tally.add(r);
    });
  });
  if constexpr (kBlockCounters)
    tally.commit_block(counters, +1);
  else
    tally.commit(this_warp(), counters, +1);
}

/// Writes the live keys (and a map's values; a set ignores `values`) to keys[0..cap), counting
/// all of them in *n.
template <class V>
__global__ void retrieve_kernel(SlabTableRef<V> t, std::uint32_t* keys, std::uint32_t* values,
                                std::uint64_t cap, unsigned long long* n) {
  for_each_warp_item(t.num_buckets(), [&](const warp_tile& tile, std::uint64_t b) {
    if constexpr (std::is_void_v<V>) {
      t.for_each_in_bucket(tile, static_cast<std::uint32_t>(b), [&](std::uint32_t k) {
        const unsigned long long at = atomicAdd(n, 1ull);
        if (at < cap) keys[at] = k;
      });
    } else {
      t.for_each_in_bucket(tile, static_cast<std::uint32_t>(b),
                           [&](std::uint32_t k, std::uint32_t v) {
                             const unsigned long long at = atomicAdd(n, 1ull);
                             if (at < cap) {
                               keys[at] = k;
                               values[at] = v;
                             }
                           });
    }
  });
}

/// Calls f(threads, batch, block_counters) with std::integral_constant arguments for the compiled
/// variant nearest below `p` (threads 128 / 256 / 512, batch 1 / 4 / 8).
template <class F>
void with_bulk_insert_policy(const BulkInsertPolicy& p, F&& f) {
  using std::integral_constant;
  auto by_batch = [&](auto threads, auto block) {
    if (p.batch >= 8)
      f(threads, integral_constant<int, 8>{}, block);
    else if (p.batch >= 4)
      f(threads, integral_constant<int, 4>{}, block);
    else
      f(threads, integral_constant<int, 1>{}, block);
  };
  auto by_block = [&](auto threads) {
    if (p.block_counters)
      by_batch(threads, std::true_type{});
    else
      by_batch(threads, std::false_type{});
  };
  if (p.block_threads >= 512)
    by_block(integral_constant<int, 512>{});
  else if (p.block_threads >= 256)
    by_block(integral_constant<int, 256>{});
  else
    by_block(integral_constant<int, 128>{});
}

/// The compiled lookahead variants: 1, 4, 8, 16 (others round down to one of these).
inline int lookahead_variant(std::uint32_t g) {
  return g >= 16 ? 16 : g >= 8 ? 8 : g >= 4 ? 4 : 1;
}

template <class Ref>
__global__ void count_kernel(Ref ref, unsigned long long* total) {
  unsigned local = 0;
  for_each_warp_item(ref.num_buckets(), [&](const warp_tile& tile, std::uint64_t b) {
    ref.for_each_in_bucket(tile, static_cast<std::uint32_t>(b), [&](auto...) { ++local; });
  });
  const unsigned s = __reduce_add_sync(0xFFFFFFFFu, local);
  if (threadIdx.x % 32 == 0 && s) atomicAdd(total, s);
}

template <class Ref>
__global__ void flush_kernel(Ref ref) {
  for_each_warp_item(ref.num_buckets(), [&](const warp_tile& tile, std::uint64_t b) {
    ref.compact_bucket(tile, static_cast<std::uint32_t>(b));
  });
}

}  // namespace wg::slab::detail
