#pragma once
// The second deletion tier of the dynamic GPU components (wcc.cuh): a larger bounded search for
// the few edges the certificates (wcc_certify.cuh) leave undecided. For .cu files.
//
// certify_kernel, when told to defer, lists each undecided edge it could search (a SearchItem:
// the pair to connect, and for a pair made for an isolated vertex x, x) instead of flagging its
// component. search_kernel then runs one bidirectional search per listed edge, one block each, on
// the graph after the batch (undirected only): level-synchronous, always expanding the side with
// the cheaper frontier (its arcs, charged before it is expanded). When the next level would pass
// `budget` arcs, the side whose vertices below hub_degree cost the least expands those alone (a
// partial level: its hubs stay in its set, to be met, but it can no longer be a piece); when
// even that would pass the budget, the search stops. It decides:
//  - the sides meet: the pair is connected (certified; for a pair of an isolated x's partners,
//    x is split off by the edge to its smallest partner, as in the first tier);
//  - one side's frontier empties: that side S is a component of its own. For an edge (u, v) it
//    splits off when, as in the first tier, no other deleted edge touches S (ecount is 1 at the
//    side's endpoint, 0 elsewhere) and S does not hold the component's label; such a side being
//    ruled out, the other side goes on alone. A pair for an isolated vertex takes no piece;
//  - otherwise the edge stays undecided and its component is flagged (the restricted path).
// So the first tier's exactness argument (wcc_certify.cuh) holds unchanged: a piece of either
// tier is a leaf whose labels move to its smallest id, written by the one edge that decided it.
// When more edges are listed than the kernel may search (`limit`), it flags them all.
//
// Visited marks: a per-search open-addressing table in global scratch of 64-bit keys
// (generation << 33 | vertex << 1 | side); a slot whose generation is not the launch's is empty,
// so the table is never cleared between launches. A side's visited vertices are its list, its
// frontier the list's last level. The table has at least twice as many slots as the budget
// admits keys, and the probes are bounded, so a search can neither overflow nor hang.
// Hubs: a frontier vertex of degree >= hub_degree is walked by every warp of the block in part
// (for_each_neighbor_slot_part where the view offers it).
//
// Memory order: one block per search; its table and lists are its own. Shared flags and counters
// are changed by atomics between barriers and read plainly only after one. Within a level only the
// expanded side's keys are inserted (atomicCAS), while the other side's keys, written in earlier
// levels, are only read; levels are separated by __syncthreads, which orders the block's global
// and shared accesses. Table reads are relaxed atomic loads (inserts of the same level race with
// them harmlessly: an empty slot read stays a miss for the other side's key).
#include <cstdint>
#include <utility>

#include <cuda/atomic>

#include <warpgraph/algorithms/wcc/gpu/wcc_certify.cuh>

namespace wg::gpu::wcc_detail {

inline constexpr unsigned kSearchWarps = 8;  ///< warps per block of search_kernel
inline constexpr unsigned kHubCap = 64;      ///< hubs of one level walked by the whole block

/// Counters of the second tier, after the first tier's (kCertCounters).
inline constexpr unsigned kSearchListed = kCertListed, kSearchConnected = kCertCounters,
                          kSearchPieces = kCertCounters + 1, kSearchCounters = kCertCounters + 2;

/// Per search: the slots of its table (a power of two) and the length of each side's list.
struct SearchLayout {
  std::uint64_t table_slots;
  std::uint64_t list_len;
  std::uint32_t budget;
  std::uint32_t hub_degree;
};

__device__ __forceinline__ std::uint64_t search_key(std::uint32_t gen, vertex_t w, unsigned side) {
  return (std::uint64_t{gen} << 33) | (std::uint64_t{w} << 1) | side;
}
__device__ __forceinline__ std::uint64_t search_slot(std::uint64_t key, std::uint64_t slots) {
  return ((key & 0x1FFFFFFFFull) * 0x9E3779B97F4A7C15ull >> 20) & (slots - 1);
}

/// Inserts key (generation gen); 1 fresh, 0 present, 2 table full (cannot happen within the
/// budget; a guard against a hang).
__device__ inline unsigned search_insert(std::uint64_t* table, std::uint64_t slots,
                                         std::uint32_t gen, std::uint64_t key) {
  std::uint64_t s = search_slot(key, slots);
  for (std::uint64_t probes = 0; probes < slots; ++probes, s = (s + 1) & (slots - 1)) {
    cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device> ref(table[s]);
    std::uint64_t cur = ref.load(cuda::memory_order_relaxed);
    while (true) {
      if (cur == key) return 0;
      if (static_cast<std::uint32_t>(cur >> 33) == gen) break;  // another key: probe on
      if (ref.compare_exchange_strong(cur, key, cuda::memory_order_relaxed)) return 1;
      // cur now holds what another thread wrote: re-check this slot.
    }
  }
  return 2;
}

__device__ inline bool search_contains(const std::uint64_t* table, std::uint64_t slots,
                                       std::uint32_t gen, std::uint64_t key) {
  std::uint64_t s = search_slot(key, slots);
  for (std::uint64_t probes = 0; probes < slots; ++probes, s = (s + 1) & (slots - 1)) {
    const std::uint64_t cur =
        cuda::atomic_ref<const std::uint64_t, cuda::thread_scope_device>(table[s]).load(
            cuda::memory_order_relaxed);
    if (cur == key) return true;
    if (static_cast<std::uint32_t>(cur >> 33) != gen) return false;
  }
  return false;
}

/// The block's shared state of one search.
struct SearchShared {
  unsigned long long level[2];  ///< each side's frontier arcs (summed when not known)
  unsigned long long light[2];  ///< of those, the arcs of its vertices below hub_degree
  unsigned head[2], tail[2];    ///< each side's list: [head, tail) is its frontier
  int met, bad[2], overflow;
  unsigned num_hubs;
  vertex_t hubs[kHubCap];
  vertex_t root;
};

/// Outcome of one search (block-uniform).
enum : unsigned { kSearchUndecided = 0, kSearchMet = 1, kSearchPiece0 = 2, kSearchPiece1 = 3 };

/// search_kernel's start (thread 0): each side's list and table hold its endpoint; a side is bad
/// (never a piece) from the start when the item is a pair only, its endpoint has other removed
/// edges, or is the component's label.
__device__ __forceinline__ void search_start(SearchShared& sh, const SearchItem& it, vertex_t l,
                                             bool pair_only, const std::uint32_t* ecount,
                                             std::uint64_t* tab, std::uint64_t slots,
                                             std::uint32_t gen, vertex_t* const* list) {
  search_insert(tab, slots, gen, search_key(gen, it.p, 0));
  search_insert(tab, slots, gen, search_key(gen, it.q, 1));
  list[0][0] = it.p;
  list[1][0] = it.q;
  sh.head[0] = sh.head[1] = 0;
  sh.tail[0] = sh.tail[1] = 1;
  sh.met = sh.overflow = 0;
  sh.bad[0] = pair_only || ecount[it.p] != 1 || it.p == l;
  sh.bad[1] = pair_only || ecount[it.q] != 1 || it.q == l;
  sh.num_hubs = 0;
  sh.level[0] = sh.level[1] = 0;
  sh.light[0] = sh.light[1] = 0;
  sh.root = kNone;
}

/// One level of search_kernel on `side` (every thread): its hubs listed, then every vertex of
/// its frontier [begin, end) in `own` expanded (a warp each; hubs by every warp a part, none in a
/// partial level), new vertices appended, meetings and overflows flagged; the side's head moved
/// past the level. false: more hubs than kHubCap (the search stops undecided).
template <class View>
__device__ __forceinline__ bool search_expand(const View& g, SearchShared& sh, unsigned side,
                                              bool partial, unsigned begin, unsigned end,
                                              vertex_t* own, std::uint64_t* tab,
                                              std::uint64_t slots, std::uint32_t gen,
                                              const SearchLayout& layout,
                                              const std::uint32_t* ecount, vertex_t l,
                                              const warp_tile& tile, unsigned warp) {
  // The level's hubs, walked by every warp in part (none in a partial level).
  for (unsigned k = begin + threadIdx.x; k < end && !partial; k += blockDim.x) {
    if (g.degree(own[k]) >= layout.hub_degree) {
      const unsigned pos = atomicAdd(&sh.num_hubs, 1u);
      if (pos < kHubCap) sh.hubs[pos] = own[k];
    }
  }
  __syncthreads();
  const unsigned num_hubs = sh.num_hubs;
  if (num_hubs > kHubCap) return false;  // cannot be within the budget (hub_degree); a guard

  const std::uint64_t other_side = side ^ 1u;
  auto visit = [&](vertex_t w, bool valid) {
    // No early exit on a meeting within the level: the rest of the level costs at most its
    // charged arcs, and the flag is then read only after the barrier (no shared-memory race).
    if (!valid) return;
    if (search_contains(tab, slots, gen, search_key(gen, w, other_side))) {
      atomicOr(&sh.met, 1);
      return;
    }
    const unsigned fresh = search_insert(tab, slots, gen, search_key(gen, w, side));
    if (fresh == 2) {
      atomicOr(&sh.overflow, 1);
      return;
    }
    if (fresh == 0) return;
    const unsigned pos = atomicAdd(&sh.tail[side], 1u);
    if (pos < layout.list_len)
      own[pos] = w;
    else
      atomicOr(&sh.overflow, 1);
    if (ecount[w] != 0 || w == l) atomicOr(&sh.bad[side], 1);
  };
  constexpr bool parts = requires(const View& v, const warp_tile& t, vertex_t x, std::uint32_t k) {
    v.for_each_neighbor_slot_part(t, x, k, k, std::declval<decltype(visit)&>());
  };
  // Ordinary vertices: a warp each; hubs: every warp a part (warp-uniform branches).
  for (unsigned k = begin + warp; k < end; k += kSearchWarps) {
    const vertex_t x = own[k];
    if ((parts || partial) && g.degree(x) >= layout.hub_degree) continue;
    g.for_each_neighbor_slot(tile, x, visit);
  }
  if constexpr (parts)
    for (unsigned h = 0; h < num_hubs; ++h)
      g.for_each_neighbor_slot_part(tile, sh.hubs[h], warp, kSearchWarps, visit);
  __syncthreads();
  if (threadIdx.x == 0) {
    if (side)
      sh.head[1] = end;
    else
      sh.head[0] = end;
    sh.num_hubs = 0;
    sh.level[side] = 0;
    sh.light[side] = 0;
  }
  return true;
}

/// search_kernel's end (every thread; result is block-uniform): a piece's smallest id found,
/// then the item's outcome written and counted, its component flagged when undecided.
__device__ __forceinline__ void search_finish(SearchShared& sh, unsigned result,
                                              vertex_t* const* list, vertex_t l,
                                              std::uint32_t* piece_len, std::uint8_t* piece_side,
                                              vertex_t* piece_root, std::uint8_t* flag,
                                              unsigned long long* counters) {
  // result is block-uniform. A piece: its smallest id.
  if (result == kSearchPiece0 || result == kSearchPiece1) {
    const unsigned side = result - kSearchPiece0;
    const unsigned size = sh.tail[side];
    vertex_t least = kNone;
    for (unsigned k = threadIdx.x; k < size; k += blockDim.x) least = min(least, list[side][k]);
    least = __reduce_min_sync(kFull, least);
    if ((threadIdx.x & 31) == 0) atomicMin(&sh.root, least);
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    const bool piece = result == kSearchPiece0 || result == kSearchPiece1;
    *piece_len = piece ? sh.tail[result - kSearchPiece0] : 0;
    *piece_side = piece ? static_cast<std::uint8_t>(result - kSearchPiece0) : 0;
    *piece_root = piece ? sh.root : kNone;
    if (piece) {
      atomicAdd(counters + kSearchPieces, 1ull);
    } else if (result == kSearchMet) {
      atomicAdd(counters + kSearchConnected, 1ull);
    } else {
      flag[l] = 1;
    }
  }
}

/// One block (kSearchWarps warps) per listed item j < counters[kSearchListed] (when at most
/// `limit`; otherwise every listed item's component is flagged). Writes piece_len[j] (the size of
/// the piece it splits off: side piece_side[j]'s list, or 0), piece_root[j] (its smallest id);
/// flags the components of items left undecided; counts the decisions. Scratch per block j: table
/// (layout.table_slots keys) and lists (2 * layout.list_len ids).
template <class View>
__global__ void __launch_bounds__(kSearchWarps * 32)
    search_kernel(View g, const SearchItem* items, std::uint64_t limit, const std::uint32_t* ecount,
                  const vertex_t* old_label, std::uint8_t* flag, std::uint64_t* table,
                  vertex_t* lists, SearchLayout layout, std::uint32_t gen, std::uint32_t* piece_len,
                  std::uint8_t* piece_side, vertex_t* piece_root, unsigned long long* counters) {
  __shared__ SearchShared sh;
  const std::uint64_t listed =
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(counters[kSearchListed])
          .load(cuda::memory_order_relaxed);
  if (listed > limit) {
    // Too many to search: every listed edge's component takes the restricted path.
    for (std::uint64_t j = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; j < listed;
         j += std::uint64_t{gridDim.x} * blockDim.x)
      flag[old_label[items[j].edge]] = 1;
    return;
  }
  const std::uint64_t j = blockIdx.x;
  if (j >= listed) return;
  const SearchItem it = items[j];
  const vertex_t l = old_label[it.edge];
  const bool pair_only = it.x != kNone;
  std::uint64_t* tab = table + j * layout.table_slots;
  vertex_t* list[2] = {lists + j * 2 * layout.list_len, lists + (j * 2 + 1) * layout.list_len};
  const std::uint64_t slots = layout.table_slots;
  const warp_tile tile = this_warp();
  const unsigned warp = threadIdx.x / 32;

  if (threadIdx.x == 0) search_start(sh, it, l, pair_only, ecount, tab, slots, gen, list);
  __syncthreads();
  std::uint64_t used = 0;
  bool known[2] = {false, false};
  unsigned long long cost[2] = {0, 0}, light[2] = {0, 0};
  unsigned result = kSearchUndecided;
  while (true) {
    // Every thread reads the same shared state (the last writes were before a barrier).
    const unsigned h0 = sh.head[0], t0 = sh.tail[0], h1 = sh.head[1], t1 = sh.tail[1];
    if (sh.met) {
      result = kSearchMet;
      break;
    }
    if (sh.overflow) break;
    const bool empty0 = h0 == t0, empty1 = h1 == t1;
    if (empty0 && !sh.bad[0]) {
      result = kSearchPiece0;
      break;
    }
    if (empty1 && !sh.bad[1]) {
      result = kSearchPiece1;
      break;
    }
    if (empty0 && empty1) break;
    // Each side's next level costs its frontier's arcs; a side's cost is summed once per level
    // (known[] is block-uniform). The cheaper side is expanded: a small piece or a side away
    // from the hubs goes first.
    for (unsigned sd = 0; sd < 2; ++sd) {
      const unsigned b = sd ? h1 : h0, e = sd ? t1 : t0;
      if (known[sd]) continue;
      unsigned long long mine = 0, mine_light = 0;
      for (unsigned k = b + threadIdx.x; k < e; k += blockDim.x) {
        const std::uint32_t d = g.degree(list[sd][k]);
        mine += d;
        if (d < layout.hub_degree) mine_light += d;
      }
      if (mine) atomicAdd(&sh.level[sd], mine);
      if (mine_light) atomicAdd(&sh.light[sd], mine_light);
    }
    __syncthreads();
    for (unsigned sd = 0; sd < 2; ++sd)
      if (!known[sd]) {
        cost[sd] = sh.level[sd];
        light[sd] = sh.light[sd];
        known[sd] = true;
      }
    unsigned side = empty0 ? 1u : empty1 ? 0u : (cost[0] <= cost[1] ? 0u : 1u);
    // A level past the budget: where the hubs cost too much, the side's other vertices are
    // expanded alone (a partial level). It can still meet the other side (the hubs stay in its
    // set), but no longer exhaust a closed set: it is marked bad (never a piece).
    bool partial = false;
    if (used + cost[side] > layout.budget) {
      if (!empty0 && !empty1 && light[side ^ 1u] < light[side]) side ^= 1u;
      if (light[side] == 0 || used + light[side] > layout.budget) break;  // uniform
      partial = true;
    }
    const unsigned begin = side ? h1 : h0, end = side ? t1 : t0;
    vertex_t* own = list[side];
    used += partial ? light[side] : cost[side];
    if (partial && threadIdx.x == 0) atomicOr(&sh.bad[side], 1);
    if (!search_expand(g, sh, side, partial, begin, end, own, tab, slots, gen, layout, ecount, l,
                       tile, warp))
      break;
    known[side] = false;
    __syncthreads();
  }
  search_finish(sh, result, list, l, piece_len + j, piece_side + j, piece_root + j, flag, counters);
}

/// One block per listed item: a piece whose component was left unflagged becomes a component
/// of its own (labels and parents: its smallest id); counters[kCertMoved] += its size,
/// counters[kCertAdded] += 1.
__global__ inline void apply_search_kernel(const SearchItem* items, std::uint64_t limit,
                                           const vertex_t* old_label, const std::uint8_t* flag,
                                           const vertex_t* lists, SearchLayout layout,
                                           const std::uint32_t* piece_len,
                                           const std::uint8_t* piece_side,
                                           const vertex_t* piece_root, vertex_t* label,
                                           vertex_t* parent, unsigned long long* counters) {
  const std::uint64_t listed = counters[kSearchListed];
  const std::uint64_t j = blockIdx.x;
  if (listed > limit || j >= listed) return;
  const std::uint32_t size = piece_len[j];
  if (size == 0 || flag[old_label[items[j].edge]]) return;
  const vertex_t* s = lists + (j * 2 + piece_side[j]) * layout.list_len;
  const vertex_t root = piece_root[j];
  for (std::uint32_t k = threadIdx.x; k < size; k += blockDim.x) {
    label[s[k]] = root;
    store_parent(parent, s[k], root);
  }
  if (threadIdx.x == 0) {
    atomicAdd(counters + kCertMoved, static_cast<unsigned long long>(size));
    atomicAdd(counters + kCertAdded, 1ull);
  }
}

}  // namespace wg::gpu::wcc_detail
