#pragma once
// The kernels of the GPU shortest-path searches (sssp.cuh): packed (distance, parent) keys,
// the relaxation rounds' op and source for ops::advance (algorithms/operators: split hubs) with
// near-far, the deletion repair's subtree walk and pulls. Only
// through the DeviceGraphView (graph/graph_concepts.hpp). Included by sssp.cuh.
//
// Memory order: keys are read and changed with relaxed device-scope atomics (one 64-bit CAS per
// improvement); no thread reads a value that another writes non-atomically in the same kernel.
// Kernels are ordered by the stream, which makes one kernel's writes visible to the next.
#include <cuda/atomic>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <warpgraph/algorithms/operators/advance.cuh>
#include <warpgraph/algorithms/sssp/gpu/shortest_path_state.hpp>
#include <warpgraph/containers/core/work_sharing.cuh>

namespace wg::gpu::sp {

inline constexpr std::uint64_t kNoKey = ~std::uint64_t{0};
inline constexpr std::uint32_t kInf = 0xFFFFFFFFu;
/// Words of ShortestPathState::counters. The queue counts of the relaxation rounds are a ring
/// of three: round i (counted from the seeding) reads its count from slot i % 3, appends to slot
/// (i + 1) % 3 and zeroes slot (i + 2) % 3 (the one round i + 1 appends to), so rounds follow
/// each other on the stream with no host step between them. The heavy-vertex counts are a ring
/// of three the same way (round i lists into slot i % 3 and zeroes slot (i + 1) % 3).
enum Counter : int {
  kQueue0 = 0,           ///< kQueue0 .. kQueue0 + 2: queue counts (the seeders append to kQueue0)
  kHeavy0 = 3,           ///< kHeavy0 .. kHeavy0 + 2: heavy vertices listed by a round
  kChanged = 6,          ///< vertices whose distance a batch lowered (ChangeTrack)
  kOverflow = 7,         ///< a distance reached 2^32 - 1
  kAffected = 8,         ///< vertices a deletion repair resets
  kAffectedChanged = 9,  ///< of those, the ones whose distance differs after the repair
  kFar = 10,
  kFarNext = 11,
  kFarMin = 12,
  kExpBegin = 13,  ///< the subtree walk's current level: affected[kExpBegin .. kExpEnd)
  kExpEnd = 14,
  kNumCounters = 15
};
inline constexpr int kRingSlots = 3;

__host__ __device__ constexpr std::uint64_t make_key(std::uint32_t d, vertex_t p) {
  return (std::uint64_t{d} << 32) | p;
}
__host__ __device__ constexpr std::uint32_t dist_of(std::uint64_t k) {
  return static_cast<std::uint32_t>(k >> 32);
}
__host__ __device__ constexpr vertex_t parent_of(std::uint64_t k) {
  return static_cast<vertex_t>(k & 0xFFFFFFFFu);
}

__device__ inline std::uint64_t load_key(std::uint64_t* keys, vertex_t v) {
  return cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device>(keys[v]).load(
      cuda::memory_order_relaxed);
}

/// Lowers v's key to (d, parent) if d is strictly below its distance; true when it did. Strict:
/// ties never move a parent, which keeps the parents a tree even with zero-length arcs.
__device__ inline bool improve(std::uint64_t* keys, vertex_t v, std::uint32_t d, vertex_t parent) {
  cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device> ref(keys[v]);
  std::uint64_t old = ref.load(cuda::memory_order_relaxed);
  const std::uint64_t want = make_key(d, parent);
  while (dist_of(old) > d) {
    if (ref.compare_exchange_weak(old, want, cuda::memory_order_relaxed)) return true;
  }
  return false;
}

/// Queues v for the round `round` unless it already is (*count: the queue's length).
__device__ inline void push(vertex_t v, std::uint32_t* stamp, std::uint32_t round, vertex_t* queue,
                            unsigned long long* count) {
  if (atomicExch(stamp + v, round) != round) queue[atomicAdd(count, 1ull)] = v;
}

/// Which vertices a dynamic batch changed, counted as it goes instead of by an O(n) comparison:
/// the first improvement of a vertex in a batch (epoch) adds one to counters[kChanged]. Exact
/// because an improvement only lowers a distance, and the vertices a repair resets (whose
/// distance may come back to its old value) are stamped by the pull and counted apart
/// (count_affected_kernel). Ids from `limit` on (added by the batch) are not counted.
/// touch == nullptr: nothing counted (static searches).
struct ChangeTrack {
  std::uint32_t* touch = nullptr;
  std::uint32_t epoch = 0;
  std::uint64_t limit = 0;
};

/// One thread: copies the counters to host-mapped memory, then (after a system-scope fence, so
/// the host that sees the tag sees the words) the read's sequence number after them.
__global__ inline void publish_counters_kernel(const unsigned long long* counters,
                                               unsigned long long* host,
                                               unsigned long long sequence) {
  volatile unsigned long long* const to = host;
  for (int k = 0; k < kNumCounters; ++k) to[k] = counters[k];
  __threadfence_system();
  to[kNumCounters] = sequence;
}

__device__ inline void note_change(const ChangeTrack& ct, vertex_t v,
                                   unsigned long long* counters) {
  if (ct.touch && v < ct.limit && atomicExch(ct.touch + v, ct.epoch) != ct.epoch)
    atomicAdd(counters + kChanged, 1ull);
}

/// Near-far: improved vertices at or past `threshold` go to the far pile (kInf: none do).
struct NearFar {
  vertex_t* far = nullptr;
  std::uint32_t* in_far = nullptr;
  std::uint32_t threshold = kInf;
};

/// f(w, length) per arc u -> w, by the lane holding it (length 1 when unit or unweighted).
template <class View, class F>
__device__ void for_each_arc(const View& g, const warp_tile& tile, vertex_t u, bool unit, F&& f) {
  if constexpr (View::weighted)
    g.for_each_neighbor(tile, u, [&](vertex_t w, std::uint32_t value) { f(w, unit ? 1u : value); });
  else
    g.for_each_neighbor(tile, u, [&](vertex_t w) { f(w, 1u); });
}

/// Candidate distance through an arc, or kInf with the overflow counter set.
__device__ inline std::uint32_t extend(std::uint32_t d, std::uint32_t len,
                                       unsigned long long* counters) {
  const std::uint64_t nd = std::uint64_t{d} + len;
  if (nd >= kInf) {
    atomicOr(counters + kOverflow, 1ull);
    return kInf;
  }
  return static_cast<std::uint32_t>(nd);
}

__device__ inline std::uint64_t warp_min(const warp_tile& tile, std::uint64_t x) {
  for (int o = 16; o > 0; o /= 2) {
    const std::uint64_t y = tile.shfl_xor(x, o);
    x = y < x ? y : x;
  }
  return x;
}

/// What a relaxation round's warp loads for a queued vertex u (ops::advance's Source): u's
/// distance, u skipped when unreached. Before the round reads its queue's length (ring index
/// `slot`, see Counter), one thread clears the two counters no kernel of the round touches.
struct RoundSource {
  using value_type = std::uint32_t;
  std::uint64_t* keys;
  unsigned long long* counters;
  int slot;

  __device__ void on_launch() const {
    counters[kQueue0 + (slot + 2) % kRingSlots] = 0;
    counters[kHeavy0 + (slot + 1) % kRingSlots] = 0;
  }
  template <class View>
  __device__ bool load(const View&, const warp_tile& tile, vertex_t u, std::uint32_t& du) const {
    std::uint64_t ku = 0;
    if (tile.thread_rank() == 0) ku = load_key(keys, u);
    du = dist_of(tile.shfl(ku, 0));
    return du != kInf;
  }
};

/// A relaxation round's op (ops::advance): the arc u -> w (length `value`, 1 when unit) lowers
/// w's key from u's distance du; an improved w joins the next queue once per round (stamp)
/// when below the near-far threshold, else the far pile (once).
struct RelaxOp {
  std::uint64_t* keys;
  unsigned long long* counters;
  std::uint32_t* stamp;
  std::uint32_t round;  ///< the stamp of the next queue
  bool unit;
  NearFar nf;
  ChangeTrack ct;

  __device__ bool operator()(vertex_t u, vertex_t w, std::uint32_t value, std::uint32_t du) const {
    const std::uint32_t nd = extend(du, unit ? 1u : value, counters);
    if (nd == kInf || !improve(keys, w, nd, u)) return false;
    note_change(ct, w, counters);
    if (nd < nf.threshold) return atomicExch(stamp + w, round) != round;
    if (atomicExch(nf.in_far + w, 1u) == 0u) nf.far[atomicAdd(counters + kFar, 1ull)] = w;
    return false;
  }
};

/// Sets every key to kNoKey but the source's (0, source) when it is live, and queues it.
template <class View>
__global__ void seed_source_kernel(View g, vertex_t source, std::uint64_t* keys, vertex_t* queue,
                                   unsigned long long* counters, std::uint32_t* stamp,
                                   std::uint32_t round) {
  if (blockIdx.x == 0 && threadIdx.x == 0 && g.is_live(source)) {
    keys[source] = make_key(0, source);
    stamp[source] = round;
    queue[0] = source;
    counters[kQueue0] = 1;
  }
}

__global__ inline void snapshot_kernel(const std::uint64_t* keys, std::uint64_t n,
                                       std::uint32_t* out) {
  for (std::uint64_t v = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; v < n;
       v += std::uint64_t{gridDim.x} * blockDim.x)
    out[v] = dist_of(keys[v]);
}

__global__ inline void count_changed_kernel(const std::uint64_t* keys, const std::uint32_t* before,
                                            std::uint64_t n, unsigned long long* counters) {
  unsigned long long c = 0;
  for (std::uint64_t v = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; v < n;
       v += std::uint64_t{gridDim.x} * blockDim.x)
    c += dist_of(keys[v]) != before[v];
  const warp_tile tile = this_warp();
  for (int o = 16; o > 0; o /= 2) c += tile.shfl_xor(c, o);
  if (tile.thread_rank() == 0 && c) atomicAdd(counters + kChanged, c);
}

/// Relaxes the arc a -> b (and b -> a when undirected) of length len: each head it improves is
/// counted as changed and queued for the next round. The seeding kernels' step per batch entry.
__device__ __forceinline__ void relax_edge(vertex_t a, vertex_t b, std::uint32_t len, bool directed,
                                           std::uint64_t* keys, vertex_t* queue,
                                           unsigned long long* counters, std::uint32_t* stamp,
                                           std::uint32_t round, const ChangeTrack& ct) {
  for (int dir = 0; dir < (directed ? 1 : 2); ++dir) {
    const vertex_t from = dir ? b : a, to = dir ? a : b;
    const std::uint32_t d = dist_of(load_key(keys, from));
    if (d == kInf) continue;
    const std::uint32_t nd = extend(d, len, counters);
    if (nd != kInf && improve(keys, to, nd, from)) {
      note_change(ct, to, counters);
      push(to, stamp, round, queue, counters + kQueue0);
    }
  }
}

/// Relaxes the arcs of a prepared batch (canonical keys, one thread per edge): u -> v, and
/// v -> u when undirected; improved vertices are queued.
__global__ inline void seed_arcs_kernel(const std::uint64_t* edge_keys, const std::uint32_t* values,
                                        std::uint64_t m, unsigned key_bits, std::uint64_t n,
                                        bool directed, bool unit, std::uint64_t* keys,
                                        vertex_t* queue, unsigned long long* counters,
                                        std::uint32_t* stamp, std::uint32_t round, ChangeTrack ct) {
  const std::uint64_t mask = (std::uint64_t{1} << key_bits) - 1;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const vertex_t a = static_cast<vertex_t>(edge_keys[i] >> key_bits);
    const vertex_t b = static_cast<vertex_t>(edge_keys[i] & mask);
    if (a >= n || b >= n || a == b) continue;
    const std::uint32_t len = (unit || !values) ? 1u : values[i];
    if (len == kInf) continue;  // an edge the graph did not take
    relax_edge(a, b, len, directed, keys, queue, counters, stamp, round, ct);
  }
}

/// seed_arcs_kernel for a raw batch (entries as given: repeats, self-loops, ids out of range or
/// not live), after the graph applied it: entry i's arc src -> dst (and dst -> src when
/// undirected) is relaxed with length lengths[i] (kInf: skipped), or 1 when lengths is null.
/// Each valid entry's edge is in the graph then, so every relaxation is of a real arc.
template <class View>
__global__ void seed_raw_kernel(View g, const vertex_t* src, const vertex_t* dst,
                                const std::uint32_t* lengths, std::uint64_t m, bool directed,
                                std::uint64_t* keys, vertex_t* queue, unsigned long long* counters,
                                std::uint32_t* stamp, std::uint32_t round, ChangeTrack ct) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const vertex_t a = src[i], b = dst[i];
    if (a == b || !g.is_live(a) || !g.is_live(b)) continue;
    const std::uint32_t len = lengths ? lengths[i] : 1u;
    if (len == kInf) continue;  // an edge the graph does not hold
    relax_edge(a, b, len, directed, keys, queue, counters, stamp, round, ct);
  }
}

/// Marks v affected (once) and lists it.
__device__ inline void mark_affected(vertex_t v, std::uint32_t* mark, vertex_t* affected,
                                     unsigned long long* counters) {
  if (atomicExch(mark + v, 1u) == 0u) affected[atomicAdd(counters + kAffected, 1ull)] = v;
}

/// Tree arcs among a batch's edges (one thread per edge): the head of an arc u -> v with
/// parent[v] == u is affected. only_flagged: only edges with flags[i] set (weight increases).
__global__ inline void seed_tree_arcs_kernel(const std::uint64_t* edge_keys,
                                             const std::uint8_t* flags, std::uint64_t m,
                                             unsigned key_bits, std::uint64_t n, bool directed,
                                             std::uint64_t* keys, std::uint32_t* mark,
                                             vertex_t* affected, unsigned long long* counters) {
  const std::uint64_t mask = (std::uint64_t{1} << key_bits) - 1;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    if (flags && !flags[i]) continue;
    const vertex_t a = static_cast<vertex_t>(edge_keys[i] >> key_bits);
    const vertex_t b = static_cast<vertex_t>(edge_keys[i] & mask);
    if (a >= n || b >= n || a == b) continue;
    const std::uint64_t kb = keys[b], ka = keys[a];  // no kernel writes keys meanwhile
    if (kb != kNoKey && parent_of(kb) == a) mark_affected(b, mark, affected, counters);
    if (!directed && ka != kNoKey && parent_of(ka) == b) mark_affected(a, mark, affected, counters);
  }
}

/// seed_tree_arcs_kernel for a raw batch (src[i], dst[i]; repeats, self-loops and ids out of
/// range are harmless): an arc u -> v with parent[v] == u is in the graph (the parents are a
/// tree of its arcs), so no presence test is needed.
__global__ inline void seed_tree_arcs_raw_kernel(const vertex_t* src, const vertex_t* dst,
                                                 const std::uint8_t* flags, std::uint64_t m,
                                                 std::uint64_t n, bool directed,
                                                 const std::uint64_t* keys, std::uint32_t* mark,
                                                 vertex_t* affected, unsigned long long* counters) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    if (flags && !flags[i]) continue;
    const vertex_t a = src[i], b = dst[i];
    if (a >= n || b >= n || a == b) continue;
    const std::uint64_t kb = keys[b], ka = keys[a];  // no kernel writes keys meanwhile
    if (kb != kNoKey && parent_of(kb) == a) mark_affected(b, mark, affected, counters);
    if (!directed && ka != kNoKey && parent_of(ka) == b) mark_affected(a, mark, affected, counters);
  }
}

/// Reached vertices among `ids` (vertex deletions) are affected.
__global__ inline void seed_vertices_kernel(const vertex_t* ids, std::uint64_t m, std::uint64_t n,
                                            std::uint64_t* keys, std::uint32_t* mark,
                                            vertex_t* affected, unsigned long long* counters) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const vertex_t v = ids[i];
    if (v < n && keys[v] != kNoKey) mark_affected(v, mark, affected, counters);
  }
}

/// One level of the subtree walk: a warp per affected vertex u of the level (affected[begin ..
/// end), the window in counters[kExpBegin], [kExpEnd]) marks u's tree children (neighbours w
/// with parent[w] == u), appending them to the list. Nothing once the list passed `budget`.
template <class View>
__global__ void expand_subtree_kernel(View g, std::uint64_t budget, const std::uint64_t* keys,
                                      std::uint32_t* mark, vertex_t* affected,
                                      unsigned long long* counters) {
  const warp_tile tile = this_warp();
  const std::uint64_t begin = counters[kExpBegin], end = counters[kExpEnd];
  if (end > budget) return;
  const std::uint64_t warps = (std::uint64_t{gridDim.x} * blockDim.x) / 32;
  for (std::uint64_t i = begin + (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32;
       i < end; i += warps) {
    const vertex_t u = affected[i];
    if (!g.is_live(u)) continue;
    for_each_arc(g, tile, u, true, [&](vertex_t w, std::uint32_t) {
      const std::uint64_t kw = keys[w];
      if (kw != kNoKey && parent_of(kw) == u && w != u) mark_affected(w, mark, affected, counters);
    });
  }
}

/// One thread: the subtree walk's next level is what the last one appended (first: the whole
/// list so far), so levels follow each other on the stream with no host step between them.
__global__ inline void expand_window_kernel(unsigned long long* counters, bool first) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    counters[kExpBegin] = first ? 0 : counters[kExpEnd];
    counters[kExpEnd] = counters[kAffected];
  }
}

__global__ inline void clear_marks_kernel(const vertex_t* affected, std::uint64_t count,
                                          std::uint32_t* mark) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    mark[affected[i]] = 0;
}

/// A warp per affected vertex v (the reset and the pull in one): v takes its best arc from an
/// unaffected neighbour (undirected graphs: the arc w -> v has the length of v -> w), or no
/// key when it has none or is not live, and is queued if reached. old_dist[i] keeps v's distance
/// before (count_affected_kernel compares), and v is stamped in ct so that later improvements
/// of it are not counted twice. Only affected keys are written, only unaffected ones read.
template <class View>
__global__ void pull_kernel(View g, const vertex_t* affected, std::uint64_t count,
                            std::uint64_t* keys, const std::uint32_t* mark, std::uint32_t* old_dist,
                            ChangeTrack ct, vertex_t* queue, unsigned long long* counters,
                            std::uint32_t* stamp, std::uint32_t round, bool unit) {
  const warp_tile tile = this_warp();
  const std::uint64_t warps = (std::uint64_t{gridDim.x} * blockDim.x) / 32;
  for (std::uint64_t i = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; i < count;
       i += warps) {
    const vertex_t v = affected[i];
    std::uint64_t best = kNoKey;
    if (g.is_live(v)) {  // warp-uniform
      for_each_arc(g, tile, v, unit, [&](vertex_t w, std::uint32_t len) {
        if (mark[w]) return;
        const std::uint32_t dw = dist_of(keys[w]);
        if (dw == kInf) return;
        const std::uint32_t nd = extend(dw, len, counters);
        if (nd != kInf && make_key(nd, w) < best) best = make_key(nd, w);
      });
    }
    best = warp_min(tile, best);
    if (tile.thread_rank() == 0) {
      old_dist[i] = dist_of(keys[v]);
      if (ct.touch && v < ct.limit) ct.touch[v] = ct.epoch;
      keys[v] = best;
      if (best != kNoKey) push(v, stamp, round, queue, counters + kQueue0);
    }
  }
}

/// After a repair: the affected vertices whose distance differs from old_dist (ids below
/// `limit`) into counters[kAffectedChanged]; their marks cleared (the pull was their last
/// reader).
__global__ inline void count_affected_kernel(const vertex_t* affected, std::uint64_t count,
                                             const std::uint32_t* old_dist,
                                             const std::uint64_t* keys, std::uint64_t limit,
                                             std::uint32_t* mark, unsigned long long* counters) {
  unsigned long long c = 0;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const vertex_t v = affected[i];
    c += v < limit && dist_of(keys[v]) != old_dist[i];
    mark[v] = 0;
  }
  const warp_tile tile = this_warp();
  for (int o = 16; o > 0; o /= 2) c += tile.shfl_xor(c, o);
  if (tile.thread_rank() == 0 && c) atomicAdd(counters + kAffectedChanged, c);
}

__global__ inline void fill_keys_kernel(std::uint64_t* keys, std::uint64_t begin,
                                        std::uint64_t end) {
  for (std::uint64_t v = begin + std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; v < end;
       v += std::uint64_t{gridDim.x} * blockDim.x)
    keys[v] = kNoKey;
}

/// The smallest distance in the far pile (into counters[kFarMin], set to all ones first).
__global__ inline void far_min_kernel(std::uint64_t* keys, const vertex_t* far, std::uint64_t m,
                                      unsigned long long* counters) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    atomicMin(counters + kFarMin, static_cast<unsigned long long>(dist_of(keys[far[i]])));
}

/// Moves the far vertices now below `threshold` to the queue (clearing their flag) and keeps
/// the others in far_next.
__global__ inline void far_filter_kernel(std::uint64_t* keys, const vertex_t* far, std::uint64_t m,
                                         vertex_t* far_next, std::uint32_t* in_far,
                                         std::uint32_t threshold, std::uint32_t* stamp,
                                         std::uint32_t round, vertex_t* queue,
                                         unsigned long long* counters) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const vertex_t v = far[i];
    if (dist_of(keys[v]) < threshold) {
      in_far[v] = 0;
      push(v, stamp, round, queue, counters + kQueue0);
    } else {
      far_next[atomicAdd(counters + kFarNext, 1ull)] = v;
    }
  }
}

}  // namespace wg::gpu::sp
