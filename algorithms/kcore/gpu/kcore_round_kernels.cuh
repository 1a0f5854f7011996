#pragma once
// The kernels of the dynamic core numbers' rounds (kcore.cuh, DynamicCoreNumbers), over any
// DeviceGraphView: the batch's edge set, round selection, the insertion traversal / counting /
// peeling, the deletion's local peeling, and the device-side level ranges and phase gates that
// let the host enqueue a round whole. Memory order: see kcore_kernels.cuh. For .cu files.
#include <cuda/atomic>

#include <cstdint>

#include <warpgraph/algorithms/kcore/gpu/kcore_kernels.cuh>
#include <warpgraph/containers/core/hash.cuh>
#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/containers/core/work_sharing.cuh>

namespace wg::gpu::kcore_detail {

// ---- dynamic rounds ---------------------------------------------------------------------------

/// The batch's edges as the round sees them: an edge of the batch is visible while its state
/// equals visible_state (insertion: processed rounds are in the graph; deletion: unprocessed
/// ones still are). Other edges are always visible.
struct BatchEdgeView {
  const unsigned long long* slots;
  const std::uint32_t* slot_edge;
  const std::uint8_t* state;
  const std::uint8_t* in_batch;
  std::uint64_t mask;
  unsigned bits;
  std::uint8_t visible_state;

  __device__ bool visible(vertex_t u, vertex_t w) const {
    if (!in_batch[u] || !in_batch[w]) return true;
    const std::uint64_t key =
        u < w ? (std::uint64_t{u} << bits) | w : (std::uint64_t{w} << bits) | u;
    for (std::uint64_t i = mix64(key) & mask;; i = (i + 1) & mask) {
      const unsigned long long s = slots[i];
      if (s == key) return state[slot_edge[i]] == visible_state;
      if (s == kEmptySlot) return true;
    }
  }
};

/// Inserts the batch's keys into the hash set, marks their endpoints, state 0 (unprocessed).
__global__ inline void batch_set_kernel(const std::uint64_t* keys, std::uint64_t m, unsigned bits,
                                        unsigned long long* slots, std::uint32_t* slot_edge,
                                        std::uint64_t mask, std::uint8_t* state,
                                        std::uint8_t* in_batch, std::uint32_t* remaining) {
  const std::uint64_t lo = (std::uint64_t{1} << bits) - 1;
  for (std::uint64_t e = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; e < m;
       e += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint64_t key = keys[e];
    for (std::uint64_t i = mix64(key) & mask;; i = (i + 1) & mask) {
      // Keys are unique: a free slot is ours once the CAS succeeds.
      if (atomicCAS(slots + i, kEmptySlot, static_cast<unsigned long long>(key)) == kEmptySlot) {
        slot_edge[i] = static_cast<std::uint32_t>(e);
        break;
      }
    }
    state[e] = 0;
    in_batch[key >> bits] = 1;
    in_batch[key & lo] = 1;
    remaining[e] = static_cast<std::uint32_t>(e);
  }
}

__global__ inline void unmark_batch_kernel(const std::uint64_t* keys, std::uint64_t m,
                                           unsigned bits, std::uint8_t* in_batch) {
  const std::uint64_t lo = (std::uint64_t{1} << bits) - 1;
  for (std::uint64_t e = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; e < m;
       e += std::uint64_t{gridDim.x} * blockDim.x) {
    in_batch[keys[e] >> bits] = 0;
    in_batch[keys[e] & lo] = 0;
  }
}

/// count[x] = how many of the batch's edges end at x (zeroed first by the same kernel with
/// `zero`); counters[7] = the largest such count: no round plan needs fewer rounds.
__global__ inline void multiplicity_kernel(const std::uint64_t* keys, std::uint64_t m,
                                           unsigned bits, std::int32_t* count, bool zero,
                                           unsigned long long* counters) {
  const std::uint64_t lo = (std::uint64_t{1} << bits) - 1;
  for (std::uint64_t e = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; e < m;
       e += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint64_t ends[2] = {keys[e] >> bits, keys[e] & lo};
    for (const std::uint64_t x : ends) {
      if (zero) {
        count[x] = 0;
      } else {
        const int c = atomicAdd(count + x, 1) + 1;
        atomicMax(counters + 7, static_cast<unsigned long long>(c));
      }
    }
  }
}

/// Each endpoint of a remaining edge is claimed by its smallest remaining edge (set: claim true)
/// or released (claim false, after the selection).
__global__ inline void claim_kernel(const std::uint64_t* keys, unsigned bits,
                                    const std::uint32_t* remaining, std::uint64_t r,
                                    std::uint32_t* claim, bool set) {
  const std::uint64_t lo = (std::uint64_t{1} << bits) - 1;
  for (std::uint64_t j = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; j < r;
       j += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint32_t e = remaining[j];
    const std::uint64_t u = keys[e] >> bits, v = keys[e] & lo;
    if (set) {
      atomicMin(claim + u, e);
      atomicMin(claim + v, e);
    } else {
      claim[u] = kUnset;
      claim[v] = kUnset;
    }
  }
}

/// Edges that won both endpoints form the round (state 1: processed from now on); the rest
/// stay for later rounds. counters[4]: round size, counters[5]: remaining.
__global__ inline void select_round_kernel(const std::uint64_t* keys, unsigned bits,
                                           const std::uint32_t* remaining, std::uint64_t r,
                                           const std::uint32_t* claim, std::uint8_t* state,
                                           std::uint32_t* round, std::uint32_t* next_remaining,
                                           unsigned long long* counters) {
  const std::uint64_t lo = (std::uint64_t{1} << bits) - 1;
  for (std::uint64_t j = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; j < r;
       j += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint32_t e = remaining[j];
    const std::uint64_t u = keys[e] >> bits, v = keys[e] & lo;
    if (claim[u] == e && claim[v] == e) {
      state[e] = 1;
      round[atomicAdd(counters + 4, 1ull)] = e;
    } else {
      next_remaining[atomicAdd(counters + 5, 1ull)] = e;
    }
  }
}

// Round counters (counters[i]): [0] candidate (insertion) or touched (deletion) list size,
// [1] peeling / falling queue size, [2] arcs scanned by the batch, [3] changed-vertex records,
// [4] round size, [5] remaining edges, [6] changed numbers, [7] largest multiplicity, [8] summed
// degrees of the vertices appended to list [0] this round, [9] the same for the queue (deletion)
// or for the candidates that passed (insertion). [8] and [9] let the host price the next level
// before launching it.
// [10, 11] the list's level being processed, [12] the summed degrees of the list up to it;
// [13, 14] and [15] the same for the queue; [16] set when a level was not launched (budget).
inline constexpr int kCounters = 18;
// Host-side prices: a launch enqueued behind others costs about this fraction of a host
// synchronisation; a round's selection and roots take kSelectLaunches launches and copies.
inline constexpr double kLaunchSyncs = 0.25;
inline constexpr double kSelectLaunches = 7;

inline constexpr int kListRange = 10, kQueueRange = 13, kCutFlag = 16, kPhase = 17;

// A round's phases (counters[kPhase]), moved on by gate_kernel so that the host can enqueue a
// whole round and synchronise once: kernels of a later phase do nothing until it is reached.
// Insertion: examining -> counting -> peeling -> applying -> done; deletion: examining (the
// alternating count / fall levels) -> applying -> done.
inline constexpr unsigned long long kExamining = 0, kCounting = 1, kPeeling = 2, kApplying = 3,
                                    kDone = 4;

/// One thread. Gate `step`:
///   0 (insertion): examining -> counting once the list stopped growing (the last level was
///     empty), unless cut; counting and peeling are priced first (two scans of the passed
///     vertices' arcs, counters[9]) and cut when past `budget`.
///   1: counting -> peeling.
///   2 (insertion): peeling -> applying once the queue stopped growing.
///   3: applying -> done.
///   4 (deletion): examining -> applying once neither the list nor the queue grows, unless cut.
__global__ inline void gate_kernel(unsigned long long* c, int step, unsigned long long budget) {
  unsigned long long& phase = c[kPhase];
  const bool list_done = c[0] == c[kListRange + 1], queue_done = c[1] == c[kQueueRange + 1];
  switch (step) {
    case 0:
      if (phase == kExamining && !c[kCutFlag] && list_done) {
        if (c[2] + 2 * c[9] > budget)
          c[kCutFlag] = 1;
        else
          phase = kCounting;
      }
      break;
    case 1:
      if (phase == kCounting) phase = kPeeling;
      break;
    case 2:
      if (phase == kPeeling && queue_done) phase = kApplying;
      break;
    case 3:
      if (phase == kApplying) phase = kDone;
      break;
    default:
      if (phase == kExamining && !c[kCutFlag] && list_done && queue_done) phase = kApplying;
      break;
  }
}

/// One thread: the next level of list `which` (0: list, counters[0]; 1: queue, counters[1]) is
/// what was appended since the last level; it is priced at `factor` times its summed degrees and
/// not launched (range left empty, cut flag set) when the arcs scanned so far plus that price
/// pass `budget`. Level kernels read their range from counters[range]: the host enqueues several
/// levels per synchronisation.
__global__ inline void advance_kernel(unsigned long long* c, int which, unsigned long long factor,
                                      unsigned long long budget) {
  unsigned long long* r = c + (which ? kQueueRange : kListRange);
  const unsigned long long lo = r[1], next = c[which];
  r[0] = lo;
  if (c[kCutFlag] || next == lo) return;  // r[1] stays lo: an empty level
  const unsigned long long price = factor * (c[8 + which] - r[2]);
  if (c[2] + price > budget) {
    c[kCutFlag] = 1;
    return;
  }
  r[1] = next;
  r[2] = c[8 + which];
}

template <class View>
__device__ __forceinline__ void append_priced(const View& g, vertex_t* list,
                                              unsigned long long* size,
                                              unsigned long long* degree_sum, vertex_t v) {
  append(list, size, v);
  atomicAdd(degree_sum, static_cast<unsigned long long>(g.degree(v)));
}

/// The round's roots: the endpoints of number min(core[u], core[v]) join the list
/// (counters[0], degrees in counters[8]).
/// The round's size is read on the device (*round_size, written by an earlier launch).
template <class View>
__global__ void roots_kernel(View g, const std::uint64_t* keys, unsigned bits,
                             const std::uint32_t* round, const unsigned long long* round_size,
                             const std::uint32_t* core, std::uint32_t* stamp, std::uint32_t epoch,
                             vertex_t* cand, unsigned long long* counters) {
  const std::uint64_t lo = (std::uint64_t{1} << bits) - 1;
  const std::uint64_t size = *round_size;
  for (std::uint64_t j = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; j < size;
       j += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint64_t key = keys[round[j]];
    const auto u = static_cast<vertex_t>(key >> bits), v = static_cast<vertex_t>(key & lo);
    const std::uint32_t k = min(core[u], core[v]);
    if (core[u] == k && atomicExch(stamp + u, epoch) != epoch)
      append_priced(g, cand, counters, counters + 8, u);
    if (core[v] == k && atomicExch(stamp + v, epoch) != epoch)
      append_priced(g, cand, counters, counters + 8, v);
  }
}

// ---- insertion round --------------------------------------------------------------------------

/// One warp per examined vertex u of cand[lo, hi), number c: mcd(u) = its visible neighbours of
/// number >= c. mcd <= c: u cannot rise (count 0, not passed). Otherwise u passes (pass[u] =
/// epoch, degree in counters[9]) and its visible neighbours of number c not yet examined join
/// the list (counters[0], degrees in counters[8]). counters[2] adds the arcs scanned.
template <class View>
__global__ void examine_kernel(View g, BatchEdgeView batch, vertex_t* cand,
                               const unsigned long long* range, const std::uint32_t* core,
                               std::uint32_t* stamp, std::uint32_t* pass, std::uint32_t epoch,
                               std::int32_t* count, unsigned long long* counters) {
  const std::uint64_t lo = range[0], hi = range[1];  // set by advance_kernel
  for_each_warp_item(hi - lo, [&](const warp_tile& tile, std::uint64_t i) {
    const vertex_t u = cand[lo + i];
    const std::uint32_t c = core[u];
    const auto deg = static_cast<unsigned long long>(g.degree(u));
    unsigned mine = 0;
    g.for_each_neighbor(tile, u, [&](vertex_t w, auto...) {
      if (core[w] >= c && batch.visible(u, w)) ++mine;
    });
    const unsigned mcd = __reduce_add_sync(kFull, mine);
    if (mcd <= c) {  // warp-uniform
      if (tile.thread_rank() == 0) {
        count[u] = 0;
        atomicAdd(counters + 2, deg);
      }
      return;
    }
    if (tile.thread_rank() == 0) {
      pass[u] = epoch;
      count[u] = 0;
      atomicAdd(counters + 2, 2 * deg);
      atomicAdd(counters + 9, deg);
    }
    g.for_each_neighbor(tile, u, [&](vertex_t w, auto...) {
      if (core[w] != c || !batch.visible(u, w)) return;
      if (relaxed_load(stamp + w) != epoch && atomicExch(stamp + w, epoch) != epoch)
        append_priced(g, cand, counters, counters + 8, w);
    });
  });
}

/// One warp per examined vertex that passed, number c: count[u] = its visible neighbours of
/// number > c or of number c that passed (the vertices that may hold it in the (c + 1)-core);
/// count <= c starts the peeling (queue, counters[1]).
template <class View>
__global__ void count_kernel(View g, BatchEdgeView batch, const vertex_t* cand,
                             const std::uint32_t* core, const std::uint32_t* pass,
                             std::uint32_t epoch, std::int32_t* count, vertex_t* queue,
                             unsigned long long* counters) {
  // Runs in the counting phase only; the list no longer grows then.
  if (counters[kPhase] != kCounting) return;
  const std::uint64_t size = counters[0];
  for_each_warp_item(size, [&](const warp_tile& tile, std::uint64_t i) {
    const vertex_t u = cand[i];
    if (pass[u] != epoch) return;  // warp-uniform
    const std::uint32_t c = core[u];
    unsigned mine = 0;
    g.for_each_neighbor(tile, u, [&](vertex_t w, auto...) {
      const std::uint32_t cw = core[w];
      if ((cw > c || (cw == c && pass[w] == epoch)) && batch.visible(u, w)) ++mine;
    });
    const auto total = static_cast<std::int32_t>(__reduce_add_sync(kFull, mine));
    if (tile.thread_rank() == 0) {
      count[u] = total;
      if (total <= static_cast<std::int32_t>(c)) append(queue, counters + 1, u);
    }
  });
}

/// One warp per peeled candidate of queue[lo, hi), number c: its passed neighbours of number c
/// lose one count; the decrement that takes one from c + 1 to c queues it.
template <class View>
__global__ void round_peel_kernel(View g, BatchEdgeView batch, vertex_t* queue,
                                  const unsigned long long* range, const std::uint32_t* core,
                                  const std::uint32_t* pass, std::uint32_t epoch,
                                  std::int32_t* count, unsigned long long* counters) {
  const std::uint64_t lo = range[0], hi = range[1];  // set by advance_kernel
  for_each_warp_item(hi - lo, [&](const warp_tile& tile, std::uint64_t i) {
    const vertex_t u = queue[lo + i];
    const std::uint32_t c = core[u];
    g.for_each_neighbor(tile, u, [&](vertex_t w, auto...) {
      if (core[w] != c || pass[w] != epoch || !batch.visible(u, w)) return;
      if (atomicSub(count + w, 1) == static_cast<std::int32_t>(c) + 1)
        append(queue, counters + 1, w);
    });
  });
}

/// Records u's number before its first change in the batch (touched, counters[3]).
__device__ __forceinline__ void record_change(vertex_t u, std::uint32_t c, std::uint32_t* mark,
                                              std::uint32_t batch_epoch, std::uint32_t* old_core,
                                              vertex_t* touched, unsigned long long* counters) {
  if (mark[u] != batch_epoch) {
    mark[u] = batch_epoch;
    old_core[u] = c;
    append(touched, counters + 3, u);
  }
}

/// One thread per examined vertex (counters[0] of them), in the applying phase: those that
/// passed and kept a count above their number rise.
__global__ inline void rise_kernel(const vertex_t* cand, std::uint32_t* core,
                                   const std::uint32_t* pass, std::uint32_t epoch,
                                   const std::int32_t* count, std::uint32_t* mark,
                                   std::uint32_t batch_epoch, std::uint32_t* old_core,
                                   vertex_t* touched, unsigned long long* counters) {
  if (counters[kPhase] != kApplying) return;
  const std::uint64_t size = counters[0];
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < size;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const vertex_t u = cand[i];
    const std::uint32_t c = core[u];
    if (pass[u] != epoch || count[u] <= static_cast<std::int32_t>(c)) continue;
    record_change(u, c, mark, batch_epoch, old_core, touched, counters);
    core[u] = c + 1;
  }
}

// ---- deletion round ---------------------------------------------------------------------------
// A local peeling per level c: support(u) = count[u] - dec[u], count[u] = u's visible neighbours
// of number >= c when u was first counted, dec[u] = its neighbours that fell since it was first
// reached. dec is zero outside rounds (reset over the touched list at the round's end).

/// One warp per touched vertex of list[lo, hi), number c: count[u] as above, counted (pass[u] =
/// epoch); support < c: u falls (queue, counters[1], degrees in counters[9]).
template <class View>
__global__ void erase_count_kernel(View g, BatchEdgeView batch, const vertex_t* list,
                                   const unsigned long long* range, const std::uint32_t* core,
                                   std::uint32_t* pass, std::uint32_t epoch, std::int32_t* count,
                                   const std::int32_t* dec, vertex_t* queue,
                                   unsigned long long* counters) {
  const std::uint64_t lo = range[0], hi = range[1];  // set by advance_kernel
  for_each_warp_item(hi - lo, [&](const warp_tile& tile, std::uint64_t i) {
    const vertex_t u = list[lo + i];
    const std::uint32_t c = core[u];
    unsigned mine = 0;
    g.for_each_neighbor(tile, u, [&](vertex_t w, auto...) {
      if (core[w] >= c && batch.visible(u, w)) ++mine;
    });
    const auto total = static_cast<std::int32_t>(__reduce_add_sync(kFull, mine));
    if (tile.thread_rank() == 0) {
      count[u] = total;
      pass[u] = epoch;
      atomicAdd(counters + 2, static_cast<unsigned long long>(g.degree(u)));
      if (total - dec[u] < static_cast<std::int32_t>(c))
        append_priced(g, queue, counters + 1, counters + 9, u);
    }
  });
}

/// One warp per fallen vertex of queue[lo, hi), number c: each visible neighbour w of number c
/// loses one support (dec[w] += 1). A counted w whose support goes from c to c - 1 falls
/// (queue); an uncounted one joins the touched list (counters[0]) to be counted next.
template <class View>
__global__ void fall_kernel(View g, BatchEdgeView batch, vertex_t* queue,
                            const unsigned long long* range, const std::uint32_t* core,
                            std::uint32_t* stamp, const std::uint32_t* pass, std::uint32_t epoch,
                            const std::int32_t* count, std::int32_t* dec, vertex_t* list,
                            unsigned long long* counters) {
  const std::uint64_t lo = range[0], hi = range[1];  // set by advance_kernel
  for_each_warp_item(hi - lo, [&](const warp_tile& tile, std::uint64_t i) {
    const vertex_t u = queue[lo + i];
    const std::uint32_t c = core[u];
    if (tile.thread_rank() == 0)
      atomicAdd(counters + 2, static_cast<unsigned long long>(g.degree(u)));
    g.for_each_neighbor(tile, u, [&](vertex_t w, auto...) {
      if (core[w] != c || !batch.visible(u, w)) return;
      // pass[] is written only by erase_count_kernel (an earlier launch): stable here.
      if (pass[w] == epoch) {
        const std::int32_t before = atomicAdd(dec + w, 1);
        if (count[w] - before == static_cast<std::int32_t>(c))
          append_priced(g, queue, counters + 1, counters + 9, w);
      } else {
        if (relaxed_load(stamp + w) != epoch && atomicExch(stamp + w, epoch) != epoch)
          append_priced(g, list, counters, counters + 8, w);
        atomicAdd(dec + w, 1);
      }
    });
  });
}

/// One thread per touched vertex (counters[0] of them): the fallen ones (support below their
/// number) lose one; dec goes back to zero. Runs in the applying phase; with apply false (a
/// round cut by the budget), only the reset, whatever the phase.
__global__ inline void fall_apply_kernel(const vertex_t* list, bool apply, std::uint32_t* core,
                                         const std::int32_t* count, std::int32_t* dec,
                                         std::uint32_t* mark, std::uint32_t batch_epoch,
                                         std::uint32_t* old_core, vertex_t* touched,
                                         unsigned long long* counters) {
  if (apply && counters[kPhase] != kApplying) return;
  const std::uint64_t size = counters[0];
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < size;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const vertex_t u = list[i];
    const std::uint32_t c = core[u];
    if (apply && count[u] - dec[u] < static_cast<std::int32_t>(c)) {
      record_change(u, c, mark, batch_epoch, old_core, touched, counters);
      core[u] = c - 1;
    }
    dec[u] = 0;
  }
}

}  // namespace wg::gpu::kcore_detail
