#pragma once
// Connectivity certificates for the deletions of the dynamic GPU components (wcc.cuh). For .cu
// files.
//
// After a deletion batch is applied, each deleted edge (u, v) (u and v shared a component C
// before) is decided on the graph after the batch:
//  - isolated endpoint (undirected graphs only): an endpoint x left with degree 0 is a component
//    of its own. Its deleted edges' other endpoints (its partners) must all stay connected to
//    one another: each is paired with rep[x], the smallest partner, and that pair is certified
//    as below (the edge to rep[x] itself needs nothing). An edge whose two endpoints are both
//    left isolated is decided only when it was the only edge of each (the component {u, v});
//  - connected: u ~ v is shown by a walk of length at most 3 in the graph after the batch: from
//    the lower-degree endpoint p, its neighbours a (one shared with q: a common neighbour), then
//    a's neighbours, each tested against q's neighbourhood T (held in shared memory when q has
//    at most kTargetCap neighbours, probed with has_edge(q, .) otherwise); a neighbour a of high
//    degree is not walked but probed against T (has_edge(a, b), b in T). The walk reads at most
//    `budget` arcs and probes per pair (a hub is walked in part: for_each_neighbor_slot_part
//    where the view offers it);
//    Why a walk met from both sides and not a plain search from one endpoint: on skewed graphs
//    the second level of a one-sided search is the hubs' neighbour lists, past any budget,
//    while probing the other endpoint's neighbourhood finds the meeting point in O(1) each;
//  - small piece (undirected graphs): otherwise a bounded search from each endpoint in turn
//    (at most kPieceCap vertices, `budget` arcs) either reaches the other endpoint (connected)
//    or exhausts a closed set S: S is then a new component, and when the edge is the only
//    deleted edge touching S (ecount: deleted edges per endpoint) it is decided;
//  - otherwise the edge is undecided, and C is flagged for the restricted recomputation (or,
//    when the second tier runs, the edge is listed for its larger search: wcc_search.cuh, which
//    flags C when that fails too).
// Why this is exact: in a component C with no undecided edge, every deleted edge that joins two
// new components has an isolated endpoint or a piece S on one side (the others were shown
// connected). A piece touches no other deleted edge, so it is a leaf of the graph whose nodes
// are C's new components and whose links are the deleted edges; a deleted edge joins two
// isolated vertices only when it was their only edge (C = {u, v}; otherwise undecided), and
// each isolated vertex's partners lie in one new component.
// Since C was connected, C minus its isolated vertices and pieces is one component. Its label
// stays min(C) because a component whose smallest id left it (isolated or in a piece) is
// flagged. So the only labels that move are those of the isolated vertices (to themselves) and
// of the pieces (to min(S)); each is written by the one edge that decided it.
//
// Memory order: kernels are separated by launches on one stream; within certify_kernel the
// graph, rep and label are read-only, flag bytes are only set to 1, and each warp's shared
// region is its own, written by CAS or by distinct lanes and read after __syncwarp.
#include <cstdint>
#include <utility>

#include <cuda/atomic>

#include <warpgraph/algorithms/wcc/gpu/wcc_kernels.cuh>
#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/containers/core/work_sharing.cuh>
#include <warpgraph/graph/graph_concepts.hpp>

namespace wg::gpu::wcc_detail {

inline constexpr vertex_t kNone = 0xFFFFFFFFu;
inline constexpr unsigned kCertifyWarps = 4;     ///< warps per block of certify_kernel
inline constexpr unsigned kTargetCap = 128;      ///< q's neighbours held in shared memory
inline constexpr unsigned kTargetSlots = 256;    ///< their hash slots (load <= 1/2)
inline constexpr unsigned kFirstLevelCap = 128;  ///< p's neighbours kept for the second level
inline constexpr unsigned kPieceCap = 64;        ///< vertices of a piece that may split off

/// Per-edge decision codes (certify_kernel's output, for the counters).
enum : unsigned { kCertConnected = 0, kCertIsolated = 1, kCertPiece = 2, kCertUndecided = 3 };
/// Counters of a certification: [0..3] the codes' edges, then the labels moved and the
/// components added by apply_splits_kernel (and apply_search_kernel), then the undecided edges
/// listed for the second tier (wcc_search.cuh).
inline constexpr unsigned kCertMoved = 4, kCertAdded = 5, kCertListed = 6, kCertCounters = 7;

/// One undecided edge the second tier (wcc_search.cuh) may search: connect p and q; x != kNone:
/// a pair made for the isolated vertex x (connected => x splits off alone), else the edge (p, q)
/// itself.
struct SearchItem {
  std::uint64_t edge;
  vertex_t p, q, x, pad;
};

__device__ __forceinline__ bool isolated(std::uint32_t degree, bool directed) {
  return !directed && degree == 0;
}

/// For each endpoint x of a removed edge: rep[x] = its smallest partner, ecount[x] = its removed
/// edges (rep is kNone and ecount 0 on entry; reset_endpoints_kernel restores that).
__global__ inline void mark_endpoints_kernel(const std::uint64_t* keys, std::uint64_t m,
                                             unsigned bits, vertex_t* rep, std::uint32_t* ecount) {
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const auto u = static_cast<vertex_t>(keys[i] >> bits),
               v = static_cast<vertex_t>(keys[i] & mask);
    atomicMin(rep + u, v);
    atomicMin(rep + v, u);
    atomicAdd(ecount + u, 1u);
    atomicAdd(ecount + v, 1u);
  }
}

/// rep[x] = kNone, ecount[x] = 0 again for the endpoints.
__global__ inline void reset_endpoints_kernel(const std::uint64_t* keys, std::uint64_t m,
                                              unsigned bits, vertex_t* rep, std::uint32_t* ecount) {
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const vertex_t ends[2] = {static_cast<vertex_t>(keys[i] >> bits),
                              static_cast<vertex_t>(keys[i] & mask)};
    for (const vertex_t x : ends) {
      cuda::atomic_ref<vertex_t, cuda::thread_scope_device>(rep[x]).store(
          kNone, cuda::memory_order_relaxed);
      cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>(ecount[x]).store(
          0u, cuda::memory_order_relaxed);
    }
  }
}

/// Walks a's neighbours warp-uniformly (f(w, valid) as for_each_neighbor_slot), at most about
/// `limit` of them: a part of the adjacency where the view can split it, nothing otherwise.
/// Returns the arcs charged.
template <class View, class F>
__device__ std::uint32_t walk_limited(const View& g, const warp_tile& tile, vertex_t a,
                                      std::uint32_t degree, std::uint32_t limit, F&& f) {
  if (degree == 0 || limit == 0) return 0;
  if (degree <= limit) {
    g.for_each_neighbor_slot(tile, a, f);
    return degree;
  }
  if constexpr (requires(const View& v, const warp_tile& t, vertex_t x, std::uint32_t k) {
                  v.for_each_neighbor_slot_part(t, x, k, k, std::declval<F&>());
                }) {
    const std::uint32_t parts = (degree + limit - 1) / limit;
    g.for_each_neighbor_slot_part(tile, a, 0u, parts, f);
    return limit;
  } else {
    return 0;
  }
}

/// The warp's shared scratch: q's neighbours as a hash set and a list, p's neighbours as a list.
struct CertifyScratch {
  vertex_t slots[kTargetSlots];
  vertex_t targets[kTargetCap];
  vertex_t first[kFirstLevelCap];
};

__device__ __forceinline__ unsigned slot_of(vertex_t w) {
  return (w * 2654435761u) >> 24;
}

/// Inserts w into the hash set (per lane); true when it was absent.
__device__ inline bool set_insert(vertex_t* slots, vertex_t w) {
  for (unsigned s = slot_of(w);; s = (s + 1) & (kTargetSlots - 1)) {
    const vertex_t old = atomicCAS(slots + s, kNone, w);
    if (old == kNone) return true;
    if (old == w) return false;
  }
}
__device__ inline bool set_contains(const vertex_t* slots, vertex_t w) {
  for (unsigned s = slot_of(w);; s = (s + 1) & (kTargetSlots - 1)) {
    const vertex_t k = slots[s];
    if (k == w) return true;
    if (k == kNone) return false;
  }
}

/// Whole warp: is p ~ q shown by a walk of length <= 3 within about `budget` arcs and probes?
template <class View>
__device__ bool certify_pair(const View& g, const warp_tile& tile, CertifyScratch& sc, vertex_t p,
                             vertex_t q, std::uint32_t budget) {
  if (p == q) return true;
  std::uint32_t dp = g.degree(p), dq = g.degree(q);
  if (dp > dq) {
    std::swap(p, q);
    std::swap(dp, dq);
  }
  if (dq == 0) return false;
  // A directed graph's endpoint without out-arcs: walk from the other one (T is then empty).
  if (dp == 0) {
    std::swap(p, q);
    std::swap(dp, dq);
  }
  const unsigned lane = tile.thread_rank();
  // The direct edge (a pair made for an isolated vertex's partners may be adjacent).
  if (tile.shfl(lane == 0 ? static_cast<unsigned>(g.has_edge(p, q)) : 0u, 0)) return true;

  // T: q's neighbours, in shared memory when few; else membership is has_edge(q, w).
  const bool big = dq > kTargetCap;
  unsigned num_targets = 0;
  tile.sync();  // the previous pair's reads of the scratch are done
  for (unsigned s = lane; s < kTargetSlots; s += 32) sc.slots[s] = kNone;
  tile.sync();
  if (!big) {
    g.for_each_neighbor_slot(tile, q, [&](vertex_t w, bool valid) {
      const bool fresh = valid && num_targets < kTargetCap && set_insert(sc.slots, w);
      const unsigned mask = tile.ballot(fresh);
      if (fresh) sc.targets[num_targets + __popc(mask & ((1u << lane) - 1))] = w;
      num_targets += __popc(mask);
    });
    tile.sync();
  }
  auto in_targets = [&](vertex_t w) {
    return w == q || (big ? g.has_edge(q, w) : set_contains(sc.slots, w));
  };
  std::int64_t left = budget;
  bool found = false;

  // Level 1: p's neighbours (a common neighbour certifies); kept for level 2.
  unsigned num_first = 0;
  const std::uint32_t walked =
      walk_limited(g, tile, p, dp, static_cast<std::uint32_t>(left), [&](vertex_t a, bool valid) {
        if (found) return;
        const bool hit = valid && in_targets(a);
        found = tile.ballot(hit) != 0;
        const bool keep = valid && a != q && num_first < kFirstLevelCap;
        const unsigned mask = tile.ballot(keep);
        const unsigned pos = num_first + __popc(mask & ((1u << lane) - 1));
        if (keep && pos < kFirstLevelCap) sc.first[pos] = a;
        num_first = min(num_first + __popc(mask), kFirstLevelCap);
      });
  left -= big ? 2 * std::int64_t{walked} : walked;  // big: a probe per arc
  tile.sync();
  if (found) return true;

  // Level 2: a's neighbours against T, or a's adjacency probed for each of T.
  for (unsigned j = 0; j < num_first && left > 0 && !found; ++j) {
    const vertex_t a = sc.first[j];
    const std::uint32_t da = g.degree(a);
    if (!big && num_targets > 0 && da > num_targets) {
      bool hit = false;
      for (unsigned k = lane; k < num_targets; k += 32) hit = hit || g.has_edge(a, sc.targets[k]);
      found = tile.ballot(hit) != 0;
      left -= num_targets;
    } else {
      const std::uint32_t limit =
          left < 0xFFFFFFFFll ? static_cast<std::uint32_t>(left) : 0xFFFFFFFFu;
      const std::uint32_t used = walk_limited(g, tile, a, da, limit, [&](vertex_t w, bool valid) {
        if (found) return;
        found = tile.ballot(valid && in_targets(w)) != 0;
      });
      left -= used ? used : 1;
      if (big) left -= used;
    }
  }
  return found;
}

/// Whole warp: a search from p in the graph without the edge (p, q), of at most kPieceCap
/// vertices and about `budget` arcs. Returns 1 when it reaches q, 2 when it exhausts a closed set
/// S (left in sc.first[0..size)) touched by no removed edge but (p, q) (ecount), 0 otherwise.
template <class View>
__device__ unsigned search_piece(const View& g, const warp_tile& tile, CertifyScratch& sc,
                                 vertex_t p, vertex_t q, std::uint32_t budget,
                                 const std::uint32_t* ecount, unsigned& size) {
  const unsigned lane = tile.thread_rank();
  tile.sync();  // earlier reads of the scratch are done
  for (unsigned s = lane; s < kTargetSlots; s += 32) sc.slots[s] = kNone;
  tile.sync();
  if (lane == 0) {
    sc.slots[slot_of(p)] = p;
    sc.first[0] = p;
  }
  tile.sync();
  unsigned head = 0, tail = 1;
  std::int64_t left = budget;
  bool eligible = ecount[p] == 1, reached = false, overflow = false;
  while (head < tail && !reached && !overflow) {
    const vertex_t x = sc.first[head++];
    left -= g.degree(x);
    if (left < 0) {
      overflow = true;
      break;
    }
    g.for_each_neighbor_slot(tile, x, [&](vertex_t w, bool valid) {
      if (reached || overflow) return;
      reached = tile.ballot(valid && w == q) != 0;
      if (reached) return;
      const bool fresh = valid && set_insert(sc.slots, w);
      const unsigned mask = tile.ballot(fresh);
      if (tail + __popc(mask) > kPieceCap) {
        overflow = true;
        return;
      }
      if (fresh) sc.first[tail + __popc(mask & ((1u << lane) - 1))] = w;
      tail += __popc(mask);
      if (tile.ballot(fresh && ecount[w] != 0)) eligible = false;
    });
    tile.sync();  // the queue's new entries are visible to every lane
  }
  size = tail;
  if (reached) return 1;
  return !overflow && eligible ? 2 : 0;
}

/// One warp per deleted edge: decides it (see the header), flags the old label of an undecided
/// edge's component (or, with search_items, lists it there for the second tier when it can be
/// searched: counters[kCertListed] items), and records per edge its old label, the isolated vertex
/// it claims (the edge to that vertex's smallest partner; kNone otherwise) and the piece it splits
/// off (piece[i * kPieceCap ..], piece_size[i], 0 when none). counters[code] += 1 per edge. Blocks
/// of kCertifyWarps warps.
template <class View>
__global__ void __launch_bounds__(kCertifyWarps * 32)
    certify_kernel(View g, const std::uint64_t* keys, std::uint64_t m, unsigned bits, bool directed,
                   const vertex_t* rep, const std::uint32_t* ecount, const vertex_t* label,
                   std::uint8_t* flag, vertex_t* claim, vertex_t* old_label, vertex_t* piece,
                   std::uint32_t* piece_size, std::uint32_t budget, unsigned long long* counters,
                   SearchItem* search_items) {
  __shared__ CertifyScratch scratch[kCertifyWarps];
  const warp_tile tile = this_warp();
  CertifyScratch& sc = scratch[threadIdx.x / 32];
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  const unsigned lane = tile.thread_rank();
  unsigned tally[4] = {0, 0, 0, 0};
  for_each_warp_item(m, [&](const warp_tile&, std::uint64_t i) {
    const auto u = static_cast<vertex_t>(keys[i] >> bits),
               v = static_cast<vertex_t>(keys[i] & mask);
    const vertex_t l = label[u];
    const bool iu = isolated(g.degree(u), directed), iv = isolated(g.degree(v), directed);
    unsigned code = kCertUndecided;
    vertex_t claimed = kNone;
    unsigned size = 0;
    SearchItem item{.edge = i, .p = kNone, .q = kNone, .x = kNone, .pad = 0};  // p: searchable
    if (iu && iv) {
      // Each had this edge only: the component was {u, v} (u < v, its label u); v leaves it.
      if (ecount[u] == 1 && ecount[v] == 1) {
        code = kCertIsolated;
        claimed = v;
      }
    } else if (iu || iv) {
      const vertex_t x = iu ? u : v, y = iu ? v : u;
      const vertex_t r = rep[x];
      if (x == l) {
        code = kCertUndecided;  // the component's smallest id leaves it: its new label is unknown
      } else if (r == y) {
        code = kCertIsolated;
        claimed = x;
      } else if (isolated(g.degree(r), directed)) {
        code = kCertUndecided;  // x's smallest partner is isolated too (an edge of two isolated)
      } else {
        code = certify_pair(g, tile, sc, y, r, budget) ? kCertConnected : kCertUndecided;
        if (code == kCertUndecided) item = {.edge = i, .p = y, .q = r, .x = x, .pad = 0};
      }
    } else if (certify_pair(g, tile, sc, u, v, budget)) {
      code = kCertConnected;
    } else if (!directed) {
      // A piece may not hold the component's label (the rest's new label would be unknown):
      // then the other side is tried.
      auto holds_label = [&] {
        bool holds = false;
        for (unsigned k = lane; k < size; k += 32) holds = holds || sc.first[k] == l;
        return tile.ballot(holds) != 0;
      };
      unsigned found = search_piece(g, tile, sc, u, v, budget, ecount, size);
      if (found == 2 && holds_label()) found = 0;
      if (found == 0) {
        found = search_piece(g, tile, sc, v, u, budget, ecount, size);
        if (found == 2 && holds_label()) found = 0;
      }
      if (found == 1) {
        code = kCertConnected;
      } else if (found == 2) {
        code = kCertPiece;
        for (unsigned k = lane; k < size; k += 32) piece[i * kPieceCap + k] = sc.first[k];
      } else {
        item = {.edge = i, .p = u, .q = v, .x = kNone, .pad = 0};
      }
    }
    if (lane == 0) {
      if (code == kCertUndecided) {
        if (search_items && item.p != kNone)
          search_items[atomicAdd(counters + kCertListed, 1ull)] = item;  // the second tier's
        else
          flag[l] = 1;
      }
      claim[i] = claimed;
      old_label[i] = l;
      piece_size[i] = code == kCertPiece ? size : 0;
    }
    ++tally[code];
  });
  // tally is warp-uniform: lane 0 adds it.
  if (lane == 0)
    for (unsigned c = 0; c < 4; ++c)
      if (tally[c]) atomicAdd(counters + c, static_cast<unsigned long long>(tally[c]));
}

/// The claimed isolated vertices and the pieces of components left unflagged become components
/// of their own (label and parent: the vertex itself, the piece's smallest id);
/// counters[kCertMoved] += the labels moved, counters[kCertAdded] += the components added.
__global__ inline void apply_splits_kernel(const vertex_t* claim, const vertex_t* old_label,
                                           const vertex_t* piece, const std::uint32_t* piece_size,
                                           std::uint64_t m, const std::uint8_t* flag,
                                           vertex_t* label, vertex_t* parent,
                                           unsigned long long* counters) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t base = std::uint64_t{blockIdx.x} * blockDim.x; base < m; base += stride) {
    const std::uint64_t i = base + threadIdx.x;
    unsigned moved = 0, added = 0;
    if (i < m && !flag[old_label[i]]) {
      const vertex_t x = claim[i];
      if (x != kNone) {
        label[x] = x;
        store_parent(parent, x, x);
        moved = added = 1;
      }
      const std::uint32_t size = piece_size[i];
      if (size) {
        const vertex_t* s = piece + i * kPieceCap;
        vertex_t root = s[0];
        for (std::uint32_t k = 1; k < size; ++k) root = min(root, s[k]);
        for (std::uint32_t k = 0; k < size; ++k) {
          label[s[k]] = root;
          store_parent(parent, s[k], root);
        }
        moved = size;
        added = 1;
      }
    }
    warp_add(counters + kCertMoved, moved);
    warp_add(counters + kCertAdded, added);
  }
}

}  // namespace wg::gpu::wcc_detail
