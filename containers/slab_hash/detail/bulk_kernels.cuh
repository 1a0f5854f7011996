#pragma once
// Bulk kernels of SlabSet / SlabMap (included by the .cu files only).
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

/// Per-lane tallies, summed per warp and added to the device counters once per warp.
struct Tally {
  unsigned success = 0, out_of_slabs = 0, invalid = 0;
  __device__ void add(InsertOutcome r) {
    success += r == InsertOutcome::inserted;
    out_of_slabs += r == InsertOutcome::out_of_slabs;
    invalid += r == InsertOutcome::invalid_key;
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

// ---- set -------------------------------------------------------------------------------------

template <int G>
__device__ __forceinline__ void set_insert_tasks(const SetTableRef& t, const warp_tile& tile,
                                                 std::uint32_t key, bool active, Tally& tally) {
  const std::uint32_t lane = tile.thread_rank();
  if constexpr (G == 1) {
    for_each_active_lane(tile, active, [&](int src) {
      const InsertOutcome r = t.insert(tile, tile.shfl(key, src));
      if (lane == 0) tally.add(r);
    });
  } else {
    unsigned queue = tile.ballot(active);
    while (queue) {
      std::uint32_t k[G], w[G];
      bool has[G];
#pragma unroll
      for (int j = 0; j < G; ++j) {
        has[j] = queue != 0;
        const int src = has[j] ? __ffs(queue) - 1 : 0;
        if (has[j]) queue &= queue - 1;
        k[j] = tile.shfl(key, src);
      }
#pragma unroll
      for (int j = 0; j < G; ++j)
        if (has[j]) w[j] = load_relaxed(&t.buckets()[t.hash_bucket(k[j])].words[lane]);
      int plan = kNone;
      std::uint32_t slot = 0, my_key = 0;
#pragma unroll
      for (int j = 0; j < G; ++j) {
        if (!has[j]) continue;
        const unsigned found = tile.ballot(w[j] == k[j]) & kSetKeyLanes;
        const unsigned empty = tile.ballot(w[j] == kEmptyKey) & kSetKeyLanes;
        const int pj = !is_valid_key(k[j]) ? kSlow : found ? kDone : empty ? kCas : kSlow;
        if (lane == static_cast<std::uint32_t>(j)) {
          plan = pj;
          slot = __ffs(empty) - 1;
          my_key = k[j];
        }
      }
      if (plan == kCas) {
        const std::uint32_t old =
            cas_relaxed(&t.buckets()[t.hash_bucket(my_key)].words[slot], kEmptyKey, my_key);
        plan = old == kEmptyKey ? kNew : (old == my_key ? kDone : kSlow);
      }
      tally.success += plan == kNew;
      for (unsigned m = tile.ballot(plan == kSlow); m; m &= m - 1) {
        const int j = __ffs(m) - 1;
        const InsertOutcome r = t.insert(tile, tile.shfl(my_key, j));
        if (lane == 0) tally.add(r);
      }
    }
  }
}

template <int G>
static __global__ void __launch_bounds__(kBlockThreads)
    set_insert_kernel(SetTableRef t, const std::uint32_t* keys, std::uint64_t n,
                      unsigned long long* counters) {
  Tally tally;
  warp_stride_loop(n, [&](const warp_tile& tile, std::uint64_t i, bool active) {
    set_insert_tasks<G>(t, tile, active ? keys[i] : 0u, active, tally);
  });
  tally.commit(this_warp(), counters, +1);
}

static __global__ void __launch_bounds__(kBlockThreads)
    set_erase_kernel(SetTableRef t, const std::uint32_t* keys, std::uint64_t n,
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

template <int G>
static __global__ void __launch_bounds__(kBlockThreads)
    set_contains_kernel(SetTableRef t, const std::uint32_t* keys, std::uint64_t n, bool* out,
                        unsigned long long* counters) {
  Tally tally;
  warp_stride_loop(n, [&](const warp_tile& tile, std::uint64_t i, bool active) {
    const std::uint32_t lane = tile.thread_rank();
    const std::uint32_t key = active ? keys[i] : 0u;
    if constexpr (G == 1) {
      bool mine = false;  // the answer to this lane's own task, written coalesced below
      for_each_active_lane(tile, active, [&](int src) {
        const bool hit = t.contains_readonly(tile, tile.shfl(key, src));
        if (lane == static_cast<std::uint32_t>(src)) mine = hit;
      });
      if (active) {
        if (out) out[i] = mine;
        tally.success += mine;
      }
    } else {
      bool mine = false;
      unsigned queue = tile.ballot(active);
      while (queue) {
        std::uint32_t k[G], w[G];
        int srcs[G];
#pragma unroll
        for (int j = 0; j < G; ++j) {
          srcs[j] = queue ? __ffs(queue) - 1 : -1;
          if (queue) queue &= queue - 1;
          k[j] = tile.shfl(key, srcs[j] < 0 ? 0 : srcs[j]);
        }
#pragma unroll
        for (int j = 0; j < G; ++j)
          if (srcs[j] >= 0) w[j] = load_readonly(&t.buckets()[t.hash_bucket(k[j])].words[lane]);
        int plan = kNone;
        std::uint32_t my_key = 0;
#pragma unroll
        for (int j = 0; j < G; ++j) {
          if (srcs[j] < 0) continue;
          const unsigned found = tile.ballot(w[j] == k[j]) & kSetKeyLanes;
          const std::uint32_t next = tile.shfl(w[j], kNextWord);
          const int pj = !is_valid_key(k[j]) ? kNone
                         : found             ? kDone
                         : next == kNullSlab ? kNone
                                             : kSlow;
          if (lane == static_cast<std::uint32_t>(j)) {
            plan = pj;
            my_key = k[j];
          }
        }
        for (unsigned m = tile.ballot(plan == kSlow); m; m &= m - 1) {
          const int j = __ffs(m) - 1;
          const bool hit = t.contains_readonly(tile, tile.shfl(my_key, j));
          if (lane == static_cast<std::uint32_t>(j)) plan = hit ? kDone : kNone;
        }
        // Lane j holds the answer of task j, which came from lane my_src: hand it back.
#pragma unroll
        for (int j = 0; j < G; ++j) {
          if (srcs[j] < 0) continue;
          const int hit = tile.shfl(static_cast<int>(plan == kDone), j);
          if (lane == static_cast<std::uint32_t>(srcs[j])) mine = hit;
        }
      }
      if (active) {
        if (out) out[i] = mine;
        tally.success += mine;
      }
    }
  });
  tally.commit(this_warp(), counters, 0);
}

// ---- map -------------------------------------------------------------------------------------

template <int G>
__device__ __forceinline__ void map_insert_tasks(const MapTableRef& t, const warp_tile& tile,
                                                 std::uint32_t key, std::uint32_t value,
                                                 bool active, Tally& tally) {
  const std::uint32_t lane = tile.thread_rank();
  if constexpr (G == 1) {
    for_each_active_lane(tile, active, [&](int src) {
      const InsertOutcome r = t.insert_or_assign(tile, tile.shfl(key, src), tile.shfl(value, src));
      if (lane == 0) tally.add(r);
    });
  } else {
    unsigned queue = tile.ballot(active);
    while (queue) {
      std::uint32_t k[G], v[G];
      std::uint64_t w[G];
      bool has[G];
#pragma unroll
      for (int j = 0; j < G; ++j) {
        has[j] = queue != 0;
        const int src = has[j] ? __ffs(queue) - 1 : 0;
        if (has[j]) queue &= queue - 1;
        k[j] = tile.shfl(key, src);
        v[j] = tile.shfl(value, src);
      }
#pragma unroll
      for (int j = 0; j < G; ++j)
        if (has[j])
          w[j] = lane < 16 ? load_relaxed(pairs_of(&t.buckets()[t.hash_bucket(k[j])]) + lane)
                           : kEmptyPair;
      int plan = kNone;
      std::uint32_t slot = 0, my_key = 0, my_value = 0;
#pragma unroll
      for (int j = 0; j < G; ++j) {
        if (!has[j]) continue;
        const unsigned found = tile.ballot(pair_key(w[j]) == k[j]) & kMapPairLanes;
        const unsigned empty = tile.ballot(pair_key(w[j]) == kEmptyKey) & kMapPairLanes;
        // A present key takes the general path (assign with a CAS loop).
        const int pj = (!is_valid_key(k[j]) || found) ? kSlow : empty ? kCas : kSlow;
        if (lane == static_cast<std::uint32_t>(j)) {
          plan = pj;
          slot = __ffs(empty) - 1;
          my_key = k[j];
          my_value = v[j];
        }
      }
      if (plan == kCas) {
        const std::uint64_t old = cas_relaxed(pairs_of(&t.buckets()[t.hash_bucket(my_key)]) + slot,
                                              kEmptyPair, make_pair(my_key, my_value));
        plan = old == kEmptyPair ? kNew : kSlow;
      }
      tally.success += plan == kNew;
      for (unsigned m = tile.ballot(plan == kSlow); m; m &= m - 1) {
        const int j = __ffs(m) - 1;
        const InsertOutcome r =
            t.insert_or_assign(tile, tile.shfl(my_key, j), tile.shfl(my_value, j));
        if (lane == 0) tally.add(r);
      }
    }
  }
}

template <int G>
static __global__ void __launch_bounds__(kBlockThreads)
    map_insert_kernel(MapTableRef t, const std::uint32_t* keys, const std::uint32_t* values,
                      std::uint64_t n, unsigned long long* counters) {
  Tally tally;
  warp_stride_loop(n, [&](const warp_tile& tile, std::uint64_t i, bool active) {
    map_insert_tasks<G>(t, tile, active ? keys[i] : 0u, active ? values[i] : 0u, active, tally);
  });
  tally.commit(this_warp(), counters, +1);
}

static __global__ void __launch_bounds__(kBlockThreads)
    map_erase_kernel(MapTableRef t, const std::uint32_t* keys, std::uint64_t n,
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

template <int G>
static __global__ void __launch_bounds__(kBlockThreads)
    map_find_kernel(MapTableRef t, const std::uint32_t* keys, std::uint64_t n,
                    std::uint32_t* out_values, bool* out_found, unsigned long long* counters) {
  Tally tally;
  warp_stride_loop(n, [&](const warp_tile& tile, std::uint64_t i, bool active) {
    const std::uint32_t lane = tile.thread_rank();
    const std::uint32_t key = active ? keys[i] : 0u;
    // The answer to this lane's own task, written coalesced at the end.
    bool mine = false;
    std::uint32_t mine_value = kNotFoundValue;
    if constexpr (G == 1) {
      for_each_active_lane(tile, active, [&](int src) {
        std::uint32_t v = kNotFoundValue;
        const bool hit = t.find_readonly(tile, tile.shfl(key, src), &v);
        if (lane == static_cast<std::uint32_t>(src)) {
          mine = hit;
          mine_value = v;
        }
      });
    } else {
      unsigned queue = tile.ballot(active);
      while (queue) {
        std::uint32_t k[G];
        std::uint64_t w[G];
        int srcs[G];
#pragma unroll
        for (int j = 0; j < G; ++j) {
          srcs[j] = queue ? __ffs(queue) - 1 : -1;
          if (queue) queue &= queue - 1;
          k[j] = tile.shfl(key, srcs[j] < 0 ? 0 : srcs[j]);
        }
#pragma unroll
        for (int j = 0; j < G; ++j)
          if (srcs[j] >= 0)
            w[j] = lane < 16 ? load_readonly(pairs_of(&t.buckets()[t.hash_bucket(k[j])]) + lane)
                             : kEmptyPair;
        int plan = kNone;
        std::uint32_t my_key = 0, my_value = kNotFoundValue;
#pragma unroll
        for (int j = 0; j < G; ++j) {
          if (srcs[j] < 0) continue;
          const unsigned found = tile.ballot(pair_key(w[j]) == k[j]) & kMapPairLanes;
          const std::uint32_t next = tile.shfl(pair_key(w[j]), kNextWord / 2);
          const std::uint32_t value = tile.shfl(pair_value(w[j]), found ? __ffs(found) - 1 : 0);
          const int pj = !is_valid_key(k[j]) ? kNone
                         : found             ? kDone
                         : next == kNullSlab ? kNone
                                             : kSlow;
          if (lane == static_cast<std::uint32_t>(j)) {
            plan = pj;
            my_key = k[j];
            my_value = value;
          }
        }
        for (unsigned m = tile.ballot(plan == kSlow); m; m &= m - 1) {
          const int j = __ffs(m) - 1;
          std::uint32_t v = kNotFoundValue;
          const bool hit = t.find_readonly(tile, tile.shfl(my_key, j), &v);
          if (lane == static_cast<std::uint32_t>(j)) {
            plan = hit ? kDone : kNone;
            my_value = v;
          }
        }
#pragma unroll
        for (int j = 0; j < G; ++j) {
          if (srcs[j] < 0) continue;
          const int hit = tile.shfl(static_cast<int>(plan == kDone), j);
          const std::uint32_t v = tile.shfl(my_value, j);
          if (lane == static_cast<std::uint32_t>(srcs[j])) {
            mine = hit;
            mine_value = v;
          }
        }
      }
    }
    if (active) {
      if (out_values) out_values[i] = mine ? mine_value : kNotFoundValue;
      if (out_found) out_found[i] = mine;
      tally.success += mine;
    }
  });
  tally.commit(this_warp(), counters, 0);
}

// ---- bulk lookups with 8-lane tiles ------------------------------------------------------------
// Read-only phase: a warp runs four lookups at once, one per 8-lane tile; each lane reads 16
// bytes of the slab (one uint4), so a tile still reads the whole 128-byte slab in one coalesced
// request, with a quarter of the instructions per lookup and four reads in flight per warp.

template <class Tile>
__device__ __forceinline__ bool set_contains_tile8(const SetTableRef& t, const Tile& tile,
                                                   std::uint32_t k) {
  if (!is_valid_key(k)) return false;
  const std::uint32_t r = tile.thread_rank();
  const Slab* s = t.buckets() + t.hash_bucket(k);
  while (true) {
    const uint4 q = __ldg(reinterpret_cast<const uint4*>(s->words) + r);
    const bool m = q.x == k || q.y == k || (r < 7 && (q.z == k || q.w == k));
    if (tile.any(m)) return true;
    const std::uint32_t next = tile.shfl(q.z, 7);
    if (next == kNullSlab) return false;
    s = t.allocator().pointer(next);
  }
}

template <class Tile>
__device__ __forceinline__ bool map_find_tile8(const MapTableRef& t, const Tile& tile,
                                               std::uint32_t k, std::uint32_t& value) {
  if (!is_valid_key(k)) return false;
  const std::uint32_t r = tile.thread_rank();
  const Slab* s = t.buckets() + t.hash_bucket(k);
  while (true) {
    const uint4 q = __ldg(reinterpret_cast<const uint4*>(s->words) + r);  // pairs 2r, 2r+1
    const bool m0 = q.x == k, m1 = r < 7 && q.z == k;
    const unsigned m = tile.ballot(m0 || m1);
    if (m) {
      value = tile.shfl(m0 ? q.y : q.w, __ffs(m) - 1);
      return true;
    }
    const std::uint32_t next = tile.shfl(q.z, 7);
    if (next == kNullSlab) return false;
    s = t.allocator().pointer(next);
  }
}

static __global__ void __launch_bounds__(kBlockThreads)
    set_contains_tile8_kernel(SetTableRef t, const std::uint32_t* keys, std::uint64_t n, bool* out,
                              unsigned long long* counters) {
  Tally tally;
  warp_stride_loop(n, [&](const warp_tile& warp, std::uint64_t i, bool active) {
    const auto tile = cooperative_groups::tiled_partition<8>(warp);
    const std::uint32_t key = active ? keys[i] : 0u;
    bool mine = false;
    for (unsigned queue = tile.ballot(active); queue; queue &= queue - 1) {
      const int src = __ffs(queue) - 1;
      const bool hit = set_contains_tile8(t, tile, tile.shfl(key, src));
      if (tile.thread_rank() == static_cast<unsigned>(src)) mine = hit;
    }
    if (active) {
      if (out) out[i] = mine;
      tally.success += mine;
    }
  });
  tally.commit(this_warp(), counters, 0);
}

static __global__ void __launch_bounds__(kBlockThreads)
    map_find_tile8_kernel(MapTableRef t, const std::uint32_t* keys, std::uint64_t n,
                          std::uint32_t* out_values, bool* out_found,
                          unsigned long long* counters) {
  Tally tally;
  warp_stride_loop(n, [&](const warp_tile& warp, std::uint64_t i, bool active) {
    const auto tile = cooperative_groups::tiled_partition<8>(warp);
    const std::uint32_t key = active ? keys[i] : 0u;
    bool mine = false;
    std::uint32_t mine_value = kNotFoundValue;
    for (unsigned queue = tile.ballot(active); queue; queue &= queue - 1) {
      const int src = __ffs(queue) - 1;
      std::uint32_t v = kNotFoundValue;
      const bool hit = map_find_tile8(t, tile, tile.shfl(key, src), v);
      if (tile.thread_rank() == static_cast<unsigned>(src)) {
        mine = hit;
        mine_value = v;
      }
    }
    if (active) {
      if (out_values) out_values[i] = mine ? mine_value : kNotFoundValue;
      if (out_found) out_found[i] = mine;
      tally.success += mine;
    }
  });
  tally.commit(this_warp(), counters, 0);
}

// ---- bulk inserts with 8-lane tiles ------------------------------------------------------------
// The same algorithm as SetTableRef::insert / MapTableRef::insert_or_assign (first empty slot of
// the chain's last slab, CAS, re-read on failure), with 8 lanes reading 16 bytes each, so a warp
// runs four inserts at once. Tasks that need the whole warp go back to the 32-lane operation
// afterwards: a new slab (allocation is warp-cooperative), a reserved key, and (map) a present key
// (assignment).

template <class Tile>
__device__ __forceinline__ int set_insert_tile8(const SetTableRef& t, const Tile& tile,
                                                std::uint32_t k) {
  if (!is_valid_key(k)) return kSlow;
  const std::uint32_t r = tile.thread_rank();
  Slab* s = t.buckets() + t.hash_bucket(k);
  while (true) {
    const uint4 q = load_relaxed_v4(s->words + 4 * r);
    const bool m = q.x == k || q.y == k || (r < 7 && (q.z == k || q.w == k));
    if (tile.any(m)) return kDone;
    const int e = q.x == kEmptyKey              ? 0
                  : q.y == kEmptyKey            ? 1
                  : (r < 7 && q.z == kEmptyKey) ? 2
                  : (r < 7 && q.w == kEmptyKey) ? 3
                                                : -1;
    const unsigned em = tile.ballot(e >= 0);
    if (em) {
      const unsigned src = __ffs(em) - 1;
      std::uint32_t old = 0;
      if (r == src) old = cas_relaxed(s->words + 4 * r + e, kEmptyKey, k);
      old = tile.shfl(old, src);
      if (old == kEmptyKey) return kNew;
      if (old == k) return kDone;
      continue;
    }
    const std::uint32_t next = tile.shfl(q.z, 7);
    if (next == kNullSlab) return kSlow;
    fence_acquire();
    tile.sync();
    s = t.allocator().pointer(next);
  }
}

template <class Tile>
__device__ __forceinline__ int map_insert_tile8(const MapTableRef& t, const Tile& tile,
                                                std::uint32_t k, std::uint32_t v) {
  if (!is_valid_key(k)) return kSlow;
  const std::uint32_t r = tile.thread_rank();
  Slab* s = t.buckets() + t.hash_bucket(k);
  while (true) {
    std::uint64_t p0, p1;  // pairs 2r and 2r + 1 (lane 7: pair 14 and the next word)
    load_relaxed_v2(pairs_of(s) + 2 * r, p0, p1);
    const bool m = pair_key(p0) == k || (r < 7 && pair_key(p1) == k);
    if (tile.any(m)) return kSlow;  // present: assignment on the 32-lane path
    const int e = pair_key(p0) == kEmptyKey ? 0 : (r < 7 && pair_key(p1) == kEmptyKey) ? 1 : -1;
    const unsigned em = tile.ballot(e >= 0);
    if (em) {
      const unsigned src = __ffs(em) - 1;
      std::uint64_t old = 0;
      if (r == src) old = cas_relaxed(pairs_of(s) + 2 * r + e, kEmptyPair, make_pair(k, v));
      old = tile.shfl(old, src);
      if (old == kEmptyPair) return kNew;
      continue;
    }
    const std::uint32_t next = tile.shfl(pair_key(p1), 7);
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
// set_insert_tile8 / map_insert_tile8 above (re-read, chain traversal). Reserved keys: 32-lane.
// Returns the lane's own outcome: kNone (inactive), kNew, kDone, kSlow.

template <int G, class Tile>
__device__ __forceinline__ int set_insert_tile8_batch(const SetTableRef& t, const Tile& tile,
                                                      std::uint32_t key, bool active) {
  const std::uint32_t r = tile.thread_rank();
  int mine = kNone;
  std::uint32_t my_slot = 0;
  for (unsigned queue = tile.ballot(active); queue;) {  // tile-uniform
    std::uint32_t k[G];
    int src[G];
    uint4 q[G];
#pragma unroll
    for (int j = 0; j < G; ++j) {
      src[j] = queue ? __ffs(queue) - 1 : -1;
      queue &= queue - 1;
      k[j] = tile.shfl(key, src[j] < 0 ? 0 : src[j]);
    }
#pragma unroll
    for (int j = 0; j < G; ++j)
      if (src[j] >= 0 && is_valid_key(k[j]))
        q[j] = load_relaxed_v4(t.buckets()[t.hash_bucket(k[j])].words + 4 * r);
#pragma unroll
    for (int j = 0; j < G; ++j) {
      if (src[j] < 0) continue;
      int plan = kSlow;
      std::uint32_t slot = 0;
      if (is_valid_key(k[j])) {
        const uint4 w = q[j];
        const bool m = w.x == k[j] || w.y == k[j] || (r < 7 && (w.z == k[j] || w.w == k[j]));
        const int e = w.x == kEmptyKey              ? 0
                      : w.y == kEmptyKey            ? 1
                      : (r < 7 && w.z == kEmptyKey) ? 2
                      : (r < 7 && w.w == kEmptyKey) ? 3
                                                    : -1;
        const bool found = tile.any(m);
        const unsigned em = tile.ballot(e >= 0);
        const int f = em ? __ffs(em) - 1 : 0;
        slot = 4 * f + tile.shfl(e, f);
        plan = found ? kDone : em ? kCas : kOneByOne;
      }
      if (r == static_cast<std::uint32_t>(src[j])) {
        mine = plan;
        my_slot = slot;
      }
    }
  }
  if (mine == kCas) {
    const std::uint32_t old =
        cas_relaxed(t.buckets()[t.hash_bucket(key)].words + my_slot, kEmptyKey, key);
    mine = old == kEmptyKey ? kNew : old == key ? kDone : kOneByOne;
  }
  for (unsigned m = tile.ballot(mine == kOneByOne); m; m &= m - 1) {
    const int src = __ffs(m) - 1;
    const int res = set_insert_tile8(t, tile, tile.shfl(key, src));
    if (r == static_cast<std::uint32_t>(src)) mine = res;
  }
  return mine;
}

template <int G, class Tile>
__device__ __forceinline__ int map_insert_tile8_batch(const MapTableRef& t, const Tile& tile,
                                                      std::uint32_t key, std::uint32_t value,
                                                      bool active) {
  const std::uint32_t r = tile.thread_rank();
  int mine = kNone;
  std::uint32_t my_slot = 0;
  for (unsigned queue = tile.ballot(active); queue;) {  // tile-uniform
    std::uint32_t k[G];
    int src[G];
    std::uint64_t p0[G], p1[G];  // pairs 2r and 2r + 1 (lane 7: pair 14 and the next word)
#pragma unroll
    for (int j = 0; j < G; ++j) {
      src[j] = queue ? __ffs(queue) - 1 : -1;
      queue &= queue - 1;
      k[j] = tile.shfl(key, src[j] < 0 ? 0 : src[j]);
    }
#pragma unroll
    for (int j = 0; j < G; ++j)
      if (src[j] >= 0 && is_valid_key(k[j]))
        load_relaxed_v2(pairs_of(&t.buckets()[t.hash_bucket(k[j])]) + 2 * r, p0[j], p1[j]);
#pragma unroll
    for (int j = 0; j < G; ++j) {
      if (src[j] < 0) continue;
      int plan = kSlow;
      std::uint32_t slot = 0;
      if (is_valid_key(k[j])) {
        const std::uint32_t a = pair_key(p0[j]), b = pair_key(p1[j]);
        const bool m = a == k[j] || (r < 7 && b == k[j]);
        const int e = a == kEmptyKey ? 0 : (r < 7 && b == kEmptyKey) ? 1 : -1;
        const bool found = tile.any(m);
        const unsigned em = tile.ballot(e >= 0);
        const int f = em ? __ffs(em) - 1 : 0;
        slot = 2 * f + tile.shfl(e, f);
        // Present: assignment on the 32-lane path.
        plan = found ? kSlow : em ? kCas : kOneByOne;
      }
      if (r == static_cast<std::uint32_t>(src[j])) {
        mine = plan;
        my_slot = slot;
      }
    }
  }
  if (mine == kCas) {
    const std::uint64_t old = cas_relaxed(pairs_of(&t.buckets()[t.hash_bucket(key)]) + my_slot,
                                          kEmptyPair, make_pair(key, value));
    mine = old == kEmptyPair ? kNew : pair_key(old) == key ? kSlow : kOneByOne;
  }
  for (unsigned m = tile.ballot(mine == kOneByOne); m; m &= m - 1) {
    const int src = __ffs(m) - 1;
    const int res = map_insert_tile8(t, tile, tile.shfl(key, src), tile.shfl(value, src));
    if (r == static_cast<std::uint32_t>(src)) mine = res;
  }
  return mine;
}

/// 8-lane bulk insert kernels: kThreads per block, batch G (1: one task at a time per tile),
/// counters summed per block (kBlockCounters) or per warp.
template <int kThreads, int G, bool kBlockCounters>
static __global__ void __launch_bounds__(kThreads)
    set_insert_tile8_kernel(SetTableRef t, const std::uint32_t* keys, std::uint64_t n,
                            unsigned long long* counters) {
  Tally tally;
  warp_stride_loop(n, [&](const warp_tile& warp, std::uint64_t i, bool active) {
    const auto tile = cooperative_groups::tiled_partition<8>(warp);
    const std::uint32_t key = active ? keys[i] : 0u;
    int mine = kNone;
    if constexpr (G == 1) {
      for (unsigned queue = tile.ballot(active); queue; queue &= queue - 1) {
        const int src = __ffs(queue) - 1;
        const int res = set_insert_tile8(t, tile, tile.shfl(key, src));
        if (tile.thread_rank() == static_cast<unsigned>(src)) mine = res;
      }
    } else {
      mine = set_insert_tile8_batch<G>(t, tile, key, active);
    }
    tally.success += mine == kNew;
    for_each_active_lane(warp, mine == kSlow, [&](int src) {
      const InsertOutcome r = t.insert(warp, warp.shfl(key, src));
      if (warp.thread_rank() == 0) tally.add(r);
    });
  });
  if constexpr (kBlockCounters)
    tally.commit_block(counters, +1);
  else
    tally.commit(this_warp(), counters, +1);
}

template <int kThreads, int G, bool kBlockCounters>
static __global__ void __launch_bounds__(kThreads)
    map_insert_tile8_kernel(MapTableRef t, const std::uint32_t* keys, const std::uint32_t* values,
                            std::uint64_t n, unsigned long long* counters) {
  Tally tally;
  warp_stride_loop(n, [&](const warp_tile& warp, std::uint64_t i, bool active) {
    const auto tile = cooperative_groups::tiled_partition<8>(warp);
    const std::uint32_t key = active ? keys[i] : 0u;
    const std::uint32_t value = active ? values[i] : 0u;
    int mine = kNone;
    if constexpr (G == 1) {
      for (unsigned queue = tile.ballot(active); queue; queue &= queue - 1) {
        const int src = __ffs(queue) - 1;
        const int res = map_insert_tile8(t, tile, tile.shfl(key, src), tile.shfl(value, src));
        if (tile.thread_rank() == static_cast<unsigned>(src)) mine = res;
      }
    } else {
      mine = map_insert_tile8_batch<G>(t, tile, key, value, active);
    }
    tally.success += mine == kNew;
    for_each_active_lane(warp, mine == kSlow, [&](int src) {
      const InsertOutcome r = t.insert_or_assign(warp, warp.shfl(key, src), warp.shfl(value, src));
      if (warp.thread_rank() == 0) tally.add(r);
    });
  });
  if constexpr (kBlockCounters)
    tally.commit_block(counters, +1);
  else
    tally.commit(this_warp(), counters, +1);
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
