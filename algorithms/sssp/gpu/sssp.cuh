#pragma once
// Definitions of GPU SSSP (sssp.hpp), for .cu files, and the shortest-path machinery that the
// dynamic BFS shares (namespace wg::gpu::sp): packed (distance, parent) keys, relaxation rounds,
// the tree walk that finds a deletion's affected subtrees, and the pull that re-seeds them.
// Kernels use only the DeviceGraphView (graph/graph_concepts.hpp), so they run on the dynamic
// graph and on CsrGraph alike; the dynamic classes also use the graph's prepared-batch calls.
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

#include <warpgraph/algorithms/sssp/gpu/sssp.hpp>
#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/containers/core/work_sharing.cuh>
#include <warpgraph/graph/gpu/batch_chunks.hpp>
#include <warpgraph/graph/gpu/csr_graph.cuh>
#include <warpgraph/graph/gpu/graph_ref.cuh>
#include <warpgraph/graph/gpu/host_batch.hpp>
#include <warpgraph/graph/gpu/launch_grid.hpp>

namespace wg::gpu::sp {

inline constexpr std::uint64_t kNoKey = ~std::uint64_t{0};
inline constexpr std::uint32_t kInf = 0xFFFFFFFFu;
enum Counter : int {
  kQueued = 0,
  kOverflow = 1,
  kChanged = 2,
  kAffected = 3,
  kHeavy = 4,
  kFar = 5,
  kFarNext = 6,
  kFarMin = 7,
  kNumCounters = 8
};

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

/// Queues v for the round `round` unless it already is.
__device__ inline void push(vertex_t v, std::uint32_t* stamp, std::uint32_t round, vertex_t* queue,
                            unsigned long long* counters) {
  if (atomicExch(stamp + v, round) != round) queue[atomicAdd(counters + kQueued, 1ull)] = v;
}

/// Near-far: improved vertices at or past `threshold` go to the far pile (kInf: none do).
struct NearFar {
  vertex_t* far = nullptr;
  std::uint32_t* in_far = nullptr;
  std::uint32_t threshold = kInf;
};

/// Queues an improved vertex w (distance d) for the next round, or in the far pile (once).
__device__ inline void queue_improved(vertex_t w, std::uint32_t d, const NearFar& nf,
                                      std::uint32_t* stamp, std::uint32_t round, vertex_t* next,
                                      unsigned long long* counters) {
  if (d < nf.threshold)
    push(w, stamp, round, next, counters);
  else if (atomicExch(nf.in_far + w, 1u) == 0u)
    nf.far[atomicAdd(counters + kFar, 1ull)] = w;
}

/// f(w, length) per arc u -> w, by the lane holding it (length 1 when unit or unweighted).
template <class View, class F>
__device__ void for_each_arc(const View& g, const warp_tile& tile, vertex_t u, bool unit, F&& f) {
  if constexpr (View::weighted)
    g.for_each_neighbor(tile, u, [&](vertex_t w, std::uint32_t value) { f(w, unit ? 1u : value); });
  else
    g.for_each_neighbor(tile, u, [&](vertex_t w) { f(w, 1u); });
}

/// for_each_arc over part `part` of `parts` of u's arcs (the whole list for part 0 on a view
/// without partial walks).
template <class View, class F>
__device__ void for_each_arc_part(const View& g, const warp_tile& tile, vertex_t u,
                                  std::uint32_t part, std::uint32_t parts, bool unit, F&& f) {
  if constexpr (requires { g.for_each_neighbor_part(tile, u, part, parts, f); }) {
    if constexpr (View::weighted)
      g.for_each_neighbor_part(tile, u, part, parts,
                               [&](vertex_t w, std::uint32_t value) { f(w, unit ? 1u : value); });
    else
      g.for_each_neighbor_part(tile, u, part, parts, [&](vertex_t w) { f(w, 1u); });
  } else {
    if (part == 0) for_each_arc(g, tile, u, unit, f);
  }
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

/// One relaxation round: a warp per queued vertex u relaxes u's arcs; improved vertices are
/// queued for the next round.
/// A queued vertex of more than split_degree neighbours (split_degree > 0) is listed in `heavy`
/// for relax_heavy_kernel instead.
template <class View>
__global__ void relax_kernel(View g, const vertex_t* queue, std::uint64_t count,
                             std::uint64_t* keys, vertex_t* next, unsigned long long* counters,
                             std::uint32_t* stamp, std::uint32_t round, bool unit, vertex_t* heavy,
                             std::uint32_t split_degree, NearFar nf) {
  const warp_tile tile = this_warp();
  const std::uint64_t warps = (std::uint64_t{gridDim.x} * blockDim.x) / 32;
  for (std::uint64_t i = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; i < count;
       i += warps) {
    const vertex_t u = queue[i];
    std::uint64_t ku = 0;
    if (tile.thread_rank() == 0) ku = load_key(keys, u);
    const std::uint32_t du = dist_of(tile.shfl(ku, 0));
    if (du == kInf) continue;
    if (split_degree && g.degree(u) > split_degree) {
      if (tile.thread_rank() == 0) heavy[atomicAdd(counters + kHeavy, 1ull)] = u;
      continue;
    }
    for_each_arc(g, tile, u, unit, [&](vertex_t w, std::uint32_t len) {
      const std::uint32_t nd = extend(du, len, counters);
      if (nd != kInf && improve(keys, w, nd, u))
        queue_improved(w, nd, nf, stamp, round, next, counters);
    });
  }
}

/// The heavy vertices relax_kernel listed (count in counters[kHeavy], written by that kernel),
/// `parts` warps each, one part of the arcs per warp.
template <class View>
__global__ void relax_heavy_kernel(View g, const vertex_t* heavy, std::uint32_t parts,
                                   std::uint64_t* keys, vertex_t* next,
                                   unsigned long long* counters, std::uint32_t* stamp,
                                   std::uint32_t round, bool unit, NearFar nf) {
  const warp_tile tile = this_warp();
  const std::uint64_t items = counters[kHeavy] * parts;
  const std::uint64_t warps = (std::uint64_t{gridDim.x} * blockDim.x) / 32;
  for (std::uint64_t i = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; i < items;
       i += warps) {
    const vertex_t u = heavy[i / parts];
    const auto part = static_cast<std::uint32_t>(i % parts);
    std::uint64_t ku = 0;
    if (tile.thread_rank() == 0) ku = load_key(keys, u);
    const std::uint32_t du = dist_of(tile.shfl(ku, 0));
    if (du == kInf) continue;
    for_each_arc_part(g, tile, u, part, parts, unit, [&](vertex_t w, std::uint32_t len) {
      const std::uint32_t nd = extend(du, len, counters);
      if (nd != kInf && improve(keys, w, nd, u))
        queue_improved(w, nd, nf, stamp, round, next, counters);
    });
  }
}

/// Sets every key to kNoKey but the source's (0, source) when it is live, and queues it.
template <class View>
__global__ void seed_source_kernel(View g, vertex_t source, std::uint64_t* keys, vertex_t* queue,
                                   unsigned long long* counters, std::uint32_t* stamp,
                                   std::uint32_t round) {
  if (blockIdx.x == 0 && threadIdx.x == 0 && g.is_live(source)) {
    keys[source] = make_key(0, source);
    stamp[source] = round;
    queue[0] = source;
    counters[kQueued] = 1;
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

/// Relaxes the arcs of a prepared batch (canonical keys, one thread per edge): u -> v, and
/// v -> u when undirected; improved vertices are queued.
__global__ inline void seed_arcs_kernel(const std::uint64_t* edge_keys, const std::uint32_t* values,
                                        std::uint64_t m, unsigned key_bits, std::uint64_t n,
                                        bool directed, bool unit, std::uint64_t* keys,
                                        vertex_t* queue, unsigned long long* counters,
                                        std::uint32_t* stamp, std::uint32_t round) {
  const std::uint64_t mask = (std::uint64_t{1} << key_bits) - 1;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const vertex_t a = static_cast<vertex_t>(edge_keys[i] >> key_bits);
    const vertex_t b = static_cast<vertex_t>(edge_keys[i] & mask);
    if (a >= n || b >= n || a == b) continue;
    const std::uint32_t len = (unit || !values) ? 1u : values[i];
    if (len == kInf) continue;  // an edge the graph did not take
    for (int dir = 0; dir < (directed ? 1 : 2); ++dir) {
      const vertex_t from = dir ? b : a, to = dir ? a : b;
      const std::uint32_t d = dist_of(load_key(keys, from));
      if (d == kInf) continue;
      const std::uint32_t nd = extend(d, len, counters);
      if (nd != kInf && improve(keys, to, nd, from)) push(to, stamp, round, queue, counters);
    }
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

/// One level of the subtree walk: a warp per affected vertex u in [begin, end) marks u's tree
/// children (neighbours w with parent[w] == u).
template <class View>
__global__ void expand_subtree_kernel(View g, std::uint64_t begin, std::uint64_t end,
                                      const std::uint64_t* keys, std::uint32_t* mark,
                                      vertex_t* affected, unsigned long long* counters) {
  const warp_tile tile = this_warp();
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

__global__ inline void reset_kernel(const vertex_t* affected, std::uint64_t count,
                                    std::uint64_t* keys) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    keys[affected[i]] = kNoKey;
}

__global__ inline void clear_marks_kernel(const vertex_t* affected, std::uint64_t count,
                                          std::uint32_t* mark) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    mark[affected[i]] = 0;
}

/// A warp per affected (reset) live vertex v: v takes its best arc from an unaffected
/// neighbour (undirected graphs: the arc w -> v has the length of v -> w) and is queued if any.
/// Only affected keys are written, only unaffected ones read.
template <class View>
__global__ void pull_kernel(View g, const vertex_t* affected, std::uint64_t count,
                            std::uint64_t* keys, const std::uint32_t* mark, vertex_t* queue,
                            unsigned long long* counters, std::uint32_t* stamp, std::uint32_t round,
                            bool unit) {
  const warp_tile tile = this_warp();
  const std::uint64_t warps = (std::uint64_t{gridDim.x} * blockDim.x) / 32;
  for (std::uint64_t i = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; i < count;
       i += warps) {
    const vertex_t v = affected[i];
    if (!g.is_live(v)) continue;
    std::uint64_t best = kNoKey;
    for_each_arc(g, tile, v, unit, [&](vertex_t w, std::uint32_t len) {
      if (mark[w]) return;
      const std::uint32_t dw = dist_of(keys[w]);
      if (dw == kInf) return;
      const std::uint32_t nd = extend(dw, len, counters);
      if (nd != kInf && make_key(nd, w) < best) best = make_key(nd, w);
    });
    best = warp_min(tile, best);
    if (tile.thread_rank() == 0 && best != kNoKey) {
      keys[v] = best;
      push(v, stamp, round, queue, counters);
    }
  }
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
      push(v, stamp, round, queue, counters);
    } else {
      far_next[atomicAdd(counters + kFarNext, 1ull)] = v;
    }
  }
}

// ---- host side ------------------------------------------------------------------------------

inline void read_counters(const ShortestPathState& st, unsigned long long* out,
                          cudaStream_t stream) {
  WG_CUDA_TRY(cudaMemcpyAsync(out, st.counters.data(), kNumCounters * sizeof(unsigned long long),
                              cudaMemcpyDeviceToHost, stream));
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
}
inline void zero_counter(ShortestPathState& st, Counter c, cudaStream_t stream) {
  WG_CUDA_TRY(cudaMemsetAsync(st.counters.data() + c, 0, sizeof(unsigned long long), stream));
}

/// Sizes the state for n ids: keys of new ids unreached, the scratch re-made (all marks 0).
inline void ensure_size(ShortestPathState& st, std::uint64_t n, cudaStream_t stream) {
  if (st.counters.empty()) {
    st.counters = DeviceBuffer<unsigned long long>(kNumCounters, stream, "sssp counters");
    st.counters.fill_bytes(0, stream);
  }
  if (n <= st.n && !st.keys.empty()) return;
  const std::uint64_t cap = std::max<std::uint64_t>(n, 1);
  DeviceBuffer<std::uint64_t> keys(cap, stream, "sssp keys");
  if (st.n)
    WG_CUDA_TRY(cudaMemcpyAsync(keys.data(), st.keys.data(), st.n * sizeof(std::uint64_t),
                                cudaMemcpyDeviceToDevice, stream));
  fill_keys_kernel<<<grid_for(cap - st.n), kBlock, 0, stream>>>(keys.data(), st.n, cap);
  WG_CUDA_CHECK_LAST();
  st.keys = std::move(keys);
  st.queue = DeviceBuffer<vertex_t>(cap, stream, "sssp queue");
  st.next = DeviceBuffer<vertex_t>(cap, stream, "sssp queue");
  st.affected = DeviceBuffer<vertex_t>(cap, stream, "sssp affected");
  st.heavy = DeviceBuffer<vertex_t>(cap, stream, "sssp heavy");
  st.far = DeviceBuffer<vertex_t>(cap, stream, "sssp far pile");
  st.far_next = DeviceBuffer<vertex_t>(cap, stream, "sssp far pile");
  st.in_far = DeviceBuffer<std::uint32_t>(cap, stream, "sssp far flags");
  st.in_far.fill_bytes(0, stream);
  st.stamp = DeviceBuffer<std::uint32_t>(cap, stream, "sssp stamps");
  st.stamp.fill_bytes(0, stream);
  st.mark = DeviceBuffer<std::uint32_t>(cap, stream, "sssp marks");
  st.mark.fill_bytes(0, stream);
  st.snapshot = DeviceBuffer<std::uint32_t>(cap, stream, "sssp snapshot");
  st.round = 0;
  st.n = n;
}

/// Starts a queueing round: a fresh stamp, the queue count 0.
inline std::uint32_t begin_round(ShortestPathState& st, cudaStream_t stream) {
  if (++st.round == 0) {  // stamps wrapped: forget them all
    st.stamp.fill_bytes(0, stream);
    st.round = 1;
  }
  zero_counter(st, kQueued, stream);
  return st.round;
}

inline void check_overflow(const unsigned long long* c) {
  if (c[kOverflow])
    throw CapacityError("wg::gpu::sssp distances", kInf,
                        "a path is 2^32 - 1 or longer: distances are 32-bit");
}

/// Runs relaxation rounds from the `count` vertices in st.queue until no distance improves.
template <class View>
void relax_rounds(const View& g, ShortestPathState& st, std::uint64_t count, bool unit,
                  cudaStream_t stream, const NearFar& nf = {}) {
  unsigned long long c[kNumCounters];
  while (count) {
    const std::uint32_t round = begin_round(st, stream);
    zero_counter(st, kHeavy, stream);
    relax_kernel<<<grid_for(count * 32), kBlock, 0, stream>>>(
        g, st.queue.data(), count, st.keys.data(), st.next.data(), st.counters.data(),
        st.stamp.data(), round, unit, st.heavy.data(), st.split_parts > 1 ? st.split_degree : 0,
        nf);
    WG_CUDA_CHECK_LAST();
    if (st.split_parts > 1 && st.split_degree) {
      // Sized without a round trip: the kernel strides over however many vertices were listed.
      const std::uint64_t most = std::min<std::uint64_t>(count, 256) * st.split_parts;
      relax_heavy_kernel<<<grid_for(most * 32), kBlock, 0, stream>>>(
          g, st.heavy.data(), st.split_parts, st.keys.data(), st.next.data(), st.counters.data(),
          st.stamp.data(), round, unit, nf);
      WG_CUDA_CHECK_LAST();
    }
    read_counters(st, c, stream);
    check_overflow(c);
    count = c[kQueued];
    std::swap(st.queue, st.next);
  }
}

/// Static SSSP into st (sized for n): every key recomputed from the source.
template <class View>
void static_sssp(const View& g, std::uint64_t n, vertex_t source, ShortestPathState& st, bool unit,
                 cudaStream_t stream) {
  ensure_size(st, n, stream);
  fill_keys_kernel<<<grid_for(n), kBlock, 0, stream>>>(st.keys.data(), 0, n);
  WG_CUDA_CHECK_LAST();
  zero_counter(st, kOverflow, stream);
  const std::uint32_t round = begin_round(st, stream);
  seed_source_kernel<<<1, 32, 0, stream>>>(g, source, st.keys.data(), st.queue.data(),
                                           st.counters.data(), st.stamp.data(), round);
  WG_CUDA_CHECK_LAST();
  unsigned long long c[kNumCounters];
  read_counters(st, c, stream);
  if (unit || !st.near_far_delta) {
    relax_rounds(g, st, c[kQueued], unit, stream);
    return;
  }
  // Near-far: the rounds expand vertices below the threshold; the rest wait in the far pile
  // until the near rounds run dry, then the threshold passes the nearest of them.
  zero_counter(st, kFar, stream);
  st.in_far.fill_bytes(0, stream);  // (a search stopped by an error may have left flags set)
  NearFar nf{st.far.data(), st.in_far.data(), st.near_far_delta};
  std::uint64_t count = c[kQueued];
  while (true) {
    relax_rounds(g, st, count, unit, stream, nf);
    read_counters(st, c, stream);
    const std::uint64_t far_count = c[kFar];
    if (!far_count) break;
    WG_CUDA_TRY(
        cudaMemsetAsync(st.counters.data() + kFarMin, 0xFF, sizeof(unsigned long long), stream));
    far_min_kernel<<<grid_for(far_count), kBlock, 0, stream>>>(st.keys.data(), st.far.data(),
                                                               far_count, st.counters.data());
    WG_CUDA_CHECK_LAST();
    read_counters(st, c, stream);
    const std::uint64_t next_threshold =
        std::max<std::uint64_t>(nf.threshold, c[kFarMin]) + st.near_far_delta;
    nf.threshold = static_cast<std::uint32_t>(std::min<std::uint64_t>(next_threshold, kInf));
    const std::uint32_t round = begin_round(st, stream);
    zero_counter(st, kFarNext, stream);
    far_filter_kernel<<<grid_for(far_count), kBlock, 0, stream>>>(
        st.keys.data(), st.far.data(), far_count, st.far_next.data(), st.in_far.data(),
        nf.threshold, st.stamp.data(), round, st.queue.data(), st.counters.data());
    WG_CUDA_CHECK_LAST();
    read_counters(st, c, stream);
    count = c[kQueued];
    std::swap(st.far, st.far_next);
    nf.far = st.far.data();
    WG_CUDA_TRY(cudaMemcpyAsync(st.counters.data() + kFar, st.counters.data() + kFarNext,
                                sizeof(unsigned long long), cudaMemcpyDeviceToDevice, stream));
  }
}

/// Downloads keys into (distance, parent, reached).
inline SsspResult download(const ShortestPathState& st, std::uint64_t n, cudaStream_t stream) {
  SsspResult r;
  std::vector<std::uint64_t> keys(n);
  if (n) st.keys.copy_to_host(keys.data(), n, stream);
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
  r.distance.resize(n);
  r.parent.resize(n);
  for (std::uint64_t v = 0; v < n; ++v) {
    r.distance[v] = dist_of(keys[v]);
    r.parent[v] = keys[v] == kNoKey ? kSsspNoParent : parent_of(keys[v]);
    r.reached += keys[v] != kNoKey;
  }
  return r;
}

/// Distances of ids below n, before a batch (for the changed count).
inline void take_snapshot(ShortestPathState& st, std::uint64_t n, cudaStream_t stream) {
  zero_counter(st, kOverflow, stream);
  if (!n) return;
  snapshot_kernel<<<grid_for(n), kBlock, 0, stream>>>(st.keys.data(), n, st.snapshot.data());
  WG_CUDA_CHECK_LAST();
}
inline std::uint64_t count_changed_since_snapshot(ShortestPathState& st, std::uint64_t n,
                                                  cudaStream_t stream) {
  if (!n) return 0;
  zero_counter(st, kChanged, stream);
  count_changed_kernel<<<grid_for(n, 4096), kBlock, 0, stream>>>(st.keys.data(), st.snapshot.data(),
                                                                 n, st.counters.data());
  WG_CUDA_CHECK_LAST();
  unsigned long long c[kNumCounters];
  read_counters(st, c, stream);
  return c[kChanged];
}

/// Walks the affected subtrees down from the st.affected entries listed so far (count in
/// counters[kAffected]). Returns the affected count, or UINT64_MAX when it passed `budget`
/// (the marks are then all cleared).
template <class View>
std::uint64_t expand_affected(const View& g, ShortestPathState& st, std::uint64_t budget,
                              cudaStream_t stream) {
  unsigned long long c[kNumCounters];
  read_counters(st, c, stream);
  std::uint64_t begin = 0, end = c[kAffected];
  while (begin < end && end <= budget) {
    expand_subtree_kernel<<<grid_for((end - begin) * 32), kBlock, 0, stream>>>(
        g, begin, end, st.keys.data(), st.mark.data(), st.affected.data(), st.counters.data());
    WG_CUDA_CHECK_LAST();
    read_counters(st, c, stream);
    begin = end;
    end = c[kAffected];
  }
  if (end > budget) {
    st.mark.fill_bytes(0, stream);
    zero_counter(st, kAffected, stream);
    return ~std::uint64_t{0};
  }
  return end;
}

/// Resets the `count` affected vertices, pulls each from its unaffected neighbours, clears the
/// marks and runs the rounds (also from `extra` vertices already queued in this round: none
/// here). Undirected graphs only.
template <class View>
void repair_affected(const View& g, ShortestPathState& st, std::uint64_t count, bool unit,
                     cudaStream_t stream) {
  if (count) {
    reset_kernel<<<grid_for(count), kBlock, 0, stream>>>(st.affected.data(), count, st.keys.data());
    WG_CUDA_CHECK_LAST();
    const std::uint32_t round = begin_round(st, stream);
    pull_kernel<<<grid_for(count * 32), kBlock, 0, stream>>>(
        g, st.affected.data(), count, st.keys.data(), st.mark.data(), st.queue.data(),
        st.counters.data(), st.stamp.data(), round, unit);
    WG_CUDA_CHECK_LAST();
    clear_marks_kernel<<<grid_for(count), kBlock, 0, stream>>>(st.affected.data(), count,
                                                               st.mark.data());
    WG_CUDA_CHECK_LAST();
    zero_counter(st, kAffected, stream);
    unsigned long long c[kNumCounters];
    read_counters(st, c, stream);
    check_overflow(c);
    relax_rounds(g, st, c[kQueued], unit, stream);
  }
}

/// The dynamic core shared by DynamicSssp and DynamicBfs: applies batches through `graph` and
/// keeps st exact. `recompute()` refills st from scratch (static SSSP or BFS).
template <class Graph>
struct DynamicCore {
  Graph& graph;
  ShortestPathState& st;
  vertex_t source;
  bool& source_live;
  bool unit;
  double recompute_fraction;
  double recompute_batch_fraction;

  cudaStream_t stream() const { return graph.stream(); }
  std::uint64_t budget() const {
    return static_cast<std::uint64_t>(recompute_fraction * static_cast<double>(st.n));
  }

  template <class Recompute>
  DynamicUpdate<UpdateResult> insert(DeviceEdges batch, Recompute&& recompute) {
    DynamicUpdate<UpdateResult> out;
    const std::uint64_t n0 = graph.num_vertices();
    ensure_size(st, n0, stream());
    take_snapshot(st, n0, stream());
    bool redo = false;
    for_each_chunk(batch, graph.batch_chunk(batch.size), true, [&](DeviceEdges part) {
      const PreparedBatch p = graph.prepare(part);
      const bool big = static_cast<double>(p.size) >
                       recompute_batch_fraction *
                           static_cast<double>(std::max<std::uint64_t>(graph.num_edges(), 1));
      redo = redo || big || !source_live;
      // Weighted lengths: which edges got longer (their tree arcs must be repaired).
      // The lengths are read back from the graph (before and after), so whatever value rule it
      // applies (the last entry, none for a valueless batch) is the one the search uses.
      const bool lengths = Graph::ref_type::weighted && !unit && !redo && p.size;
      BatchLengths len;
      if (lengths) lengths_before(p, len);
      out.update += graph.insert_prepared(p);
      if (redo || p.size == 0) return;
      const auto g = graph.ref();
      ensure_size(st, graph.num_vertices(), stream());
      if (lengths) {
        lengths_after(p, len);
        zero_counter(st, kAffected, stream());
        seed_tree_arcs_kernel<<<grid_for(p.size), kBlock, 0, stream()>>>(
            p.keys.data(), len.longer.data(), p.size, p.key_bits, st.n, graph.directed(),
            st.keys.data(), st.mark.data(), st.affected.data(), st.counters.data());
        WG_CUDA_CHECK_LAST();
        const std::uint64_t affected =
            graph.directed() ? affected_count() : expand_affected(g, st, budget(), stream());
        if (affected == ~std::uint64_t{0} || (graph.directed() && affected)) {
          if (graph.directed()) {
            st.mark.fill_bytes(0, stream());
            zero_counter(st, kAffected, stream());
          }
          redo = true;
          return;
        }
        repair_affected(g, st, affected, unit, stream());
      }
      const std::uint32_t round = begin_round(st, stream());
      zero_counter(st, kOverflow, stream());
      seed_arcs_kernel<<<grid_for(p.size), kBlock, 0, stream()>>>(
          p.keys.data(), lengths ? len.now.data() : nullptr, p.size, p.key_bits, st.n,
          graph.directed(), !lengths, st.keys.data(), st.queue.data(), st.counters.data(),
          st.stamp.data(), round);
      WG_CUDA_CHECK_LAST();
      unsigned long long c[kNumCounters];
      read_counters(st, c, stream());
      check_overflow(c);
      relax_rounds(g, st, c[kQueued], unit, stream());
    });
    if (redo) recompute();
    out.recomputed = redo;
    out.changed = count_changed_since_snapshot(st, n0, stream());
    return out;
  }

  template <class Recompute>
  DynamicUpdate<UpdateResult> erase(DeviceEdges batch, Recompute&& recompute) {
    DynamicUpdate<UpdateResult> out;
    const std::uint64_t n0 = graph.num_vertices();
    ensure_size(st, n0, stream());
    take_snapshot(st, n0, stream());
    bool redo = false;
    for_each_chunk(batch, graph.batch_chunk(batch.size), false, [&](DeviceEdges part) {
      const PreparedBatch p = graph.prepare(part);
      if (p.size == 0) {
        out.update += p.dropped;
        return;
      }
      if (redo || !source_live) {
        out.update += graph.erase_prepared(p);
        return;
      }
      zero_counter(st, kAffected, stream());
      seed_tree_arcs_kernel<<<grid_for(p.size), kBlock, 0, stream()>>>(
          p.keys.data(), nullptr, p.size, p.key_bits, st.n, graph.directed(), st.keys.data(),
          st.mark.data(), st.affected.data(), st.counters.data());
      WG_CUDA_CHECK_LAST();
      out.update += graph.erase_prepared(p);
      const auto g = graph.ref();
      const std::uint64_t affected =
          graph.directed() ? affected_count() : expand_affected(g, st, budget(), stream());
      if (affected == ~std::uint64_t{0} || (graph.directed() && affected)) {
        if (graph.directed()) {
          st.mark.fill_bytes(0, stream());
          zero_counter(st, kAffected, stream());
        }
        redo = true;
        return;
      }
      repair_affected(g, st, affected, unit, stream());
    });
    if (redo) recompute();
    out.recomputed = redo;
    out.changed = count_changed_since_snapshot(st, n0, stream());
    return out;
  }

  template <class Recompute>
  DynamicUpdate<VertexEraseResult> erase_vertices(std::span<const vertex_t> ids,
                                                  Recompute&& recompute) {
    DynamicUpdate<VertexEraseResult> out;
    const std::uint64_t n0 = graph.num_vertices();
    ensure_size(st, n0, stream());
    take_snapshot(st, n0, stream());
    const std::vector<vertex_t> list(ids.begin(), ids.end());
    const bool source_erased =
        source_live && std::find(list.begin(), list.end(), source) != list.end();
    std::uint64_t affected = 0;
    bool redo = false;
    if (source_live && !source_erased && !list.empty()) {
      DeviceBuffer<vertex_t> d = DeviceBuffer<vertex_t>::from_host(list, stream());
      zero_counter(st, kAffected, stream());
      seed_vertices_kernel<<<grid_for(list.size()), kBlock, 0, stream()>>>(
          d.data(), list.size(), st.n, st.keys.data(), st.mark.data(), st.affected.data(),
          st.counters.data());
      WG_CUDA_CHECK_LAST();
      // The subtrees are walked before the erasure: the erased vertices' arcs are still there.
      affected = expand_affected(graph.ref(), st, budget(), stream());
      redo = affected == ~std::uint64_t{0};
    }
    out.update = graph.erase_vertices(list);
    if (source_erased) {
      source_live = false;
      fill_keys_kernel<<<grid_for(st.n), kBlock, 0, stream()>>>(st.keys.data(), 0, st.n);
      WG_CUDA_CHECK_LAST();
    } else if (redo || (graph.directed() && affected)) {
      if (graph.directed() && !redo) {
        st.mark.fill_bytes(0, stream());
        zero_counter(st, kAffected, stream());
      }
      recompute();
      out.recomputed = true;
    } else if (affected) {
      repair_affected(graph.ref(), st, affected, unit, stream());
    }
    out.changed = count_changed_since_snapshot(st, n0, stream());
    return out;
  }

  std::uint64_t affected_count() {
    unsigned long long c[kNumCounters];
    read_counters(st, c, stream());
    return c[kAffected];
  }

  /// A weighted batch's arc lengths before and after it is applied.
  struct BatchLengths {
    DeviceBuffer<vertex_t> src, dst;
    DeviceBuffer<std::uint32_t> old, now;
    DeviceBuffer<std::uint8_t> found, found_now;
    DeviceBuffer<std::uint8_t> longer;  ///< 1 where a present edge got a larger length
  };
  void lengths_before(const PreparedBatch& p, BatchLengths& b);
  void lengths_after(const PreparedBatch& p, BatchLengths& b);
};

__global__ inline void decode_keys_kernel(const std::uint64_t* keys, std::uint64_t m,
                                          unsigned key_bits, vertex_t* src, vertex_t* dst) {
  const std::uint64_t mask = (std::uint64_t{1} << key_bits) - 1;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    src[i] = static_cast<vertex_t>(keys[i] >> key_bits);
    dst[i] = static_cast<vertex_t>(keys[i] & mask);
  }
}
/// out[i] = 1 where edge i was present before and is now longer. An edge the graph does not hold
/// (found_now 0) gets length kInf, which seed_arcs_kernel skips.
__global__ inline void increased_kernel(const std::uint32_t* old_values, const std::uint8_t* found,
                                        std::uint32_t* now, const std::uint8_t* found_now,
                                        std::uint64_t m, std::uint8_t* out) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    out[i] = found[i] && found_now[i] && now[i] > old_values[i];
    if (!found_now[i]) now[i] = kInf;
  }
}

template <class Graph>
void DynamicCore<Graph>::lengths_before(const PreparedBatch& p, BatchLengths& b) {
  const cudaStream_t s = stream();
  b.src = DeviceBuffer<vertex_t>(p.size, s, "sssp batch");
  b.dst = DeviceBuffer<vertex_t>(p.size, s, "sssp batch");
  b.old = DeviceBuffer<std::uint32_t>(p.size, s, "sssp lengths");
  b.now = DeviceBuffer<std::uint32_t>(p.size, s, "sssp lengths");
  b.found = DeviceBuffer<std::uint8_t>(p.size, s, "sssp found");
  b.found_now = DeviceBuffer<std::uint8_t>(p.size, s, "sssp found");
  b.longer = DeviceBuffer<std::uint8_t>(p.size, s, "sssp longer");
  decode_keys_kernel<<<grid_for(p.size), kBlock, 0, s>>>(p.keys.data(), p.size, p.key_bits,
                                                         b.src.data(), b.dst.data());
  WG_CUDA_CHECK_LAST();
  graph.find_values(DeviceEdges{.src = b.src.data(), .dst = b.dst.data(), .size = p.size},
                    b.old.data(), b.found.data());
}

template <class Graph>
void DynamicCore<Graph>::lengths_after(const PreparedBatch& p, BatchLengths& b) {
  const cudaStream_t s = stream();
  graph.find_values(DeviceEdges{.src = b.src.data(), .dst = b.dst.data(), .size = p.size},
                    b.now.data(), b.found_now.data());
  increased_kernel<<<grid_for(p.size), kBlock, 0, s>>>(b.old.data(), b.found.data(), b.now.data(),
                                                       b.found_now.data(), p.size, b.longer.data());
  WG_CUDA_CHECK_LAST();
}

}  // namespace wg::gpu::sp

namespace wg::gpu {

/// Static SSSP on any DeviceGraphView of `num_vertices` ids (directed or not: the view's arcs are
/// followed), ordered on `stream`. InvalidArgument when source >= num_vertices.
template <class View>
SsspResult sssp(const View& g, std::uint64_t num_vertices, vertex_t source, cudaStream_t stream,
                const SsspOptions& options = {}) {
  if (source >= num_vertices)
    throw InvalidArgument("wg::gpu::sssp: source " + std::to_string(source) +
                          " is not below the id bound " + std::to_string(num_vertices));
  ShortestPathState st;
  st.split_degree = options.split_degree;
  st.split_parts = options.split_parts;
  st.near_far_delta = options.near_far_delta;
  sp::static_sssp(g, num_vertices, source, st, options.unit_weights, stream);
  return sp::download(st, num_vertices, stream);
}

/// Static SSSP on a CsrGraph.
template <bool Weighted>
SsspResult sssp(const CsrGraph<Weighted>& g, vertex_t source, const SsspOptions& options = {}) {
  return sssp(g.ref(), g.num_vertices(), source, g.stream(), options);
}

template <GpuDynamicGraph Graph>
SsspResult sssp(const Graph& graph, vertex_t source, const SsspOptions& options) {
  return sssp(graph.ref(), graph.num_vertices(), source, graph.stream(), options);
}

template <GpuDynamicGraph Graph>
DynamicSssp<Graph>::DynamicSssp(Graph& graph, vertex_t source, const DynamicSsspOptions& options)
    : graph_(&graph), source_(source), options_(options) {
  state_.split_degree = options.sssp.split_degree;
  state_.split_parts = options.sssp.split_parts;
  state_.near_far_delta = options.sssp.near_far_delta;
  if (source >= graph.num_vertices())
    throw InvalidArgument("wg::gpu::DynamicSssp: source " + std::to_string(source) +
                          " is not below the id bound " + std::to_string(graph.num_vertices()));
  recompute();
}

template <GpuDynamicGraph Graph>
void DynamicSssp<Graph>::recompute() {
  const cudaStream_t s = graph_->stream();
  sp::ensure_size(state_, graph_->num_vertices(), s);
  if (!source_live_) {
    sp::fill_keys_kernel<<<grid_for(state_.n), kBlock, 0, s>>>(state_.keys.data(), 0, state_.n);
    WG_CUDA_CHECK_LAST();
    return;
  }
  sp::static_sssp(graph_->ref(), state_.n, source_, state_, options_.sssp.unit_weights, s);
}

template <GpuDynamicGraph Graph>
DynamicUpdate<UpdateResult> DynamicSssp<Graph>::insert_edges(DeviceEdges batch) {
  sp::DynamicCore<Graph> core{*graph_,
                              state_,
                              source_,
                              source_live_,
                              options_.sssp.unit_weights,
                              options_.recompute_fraction,
                              options_.recompute_batch_fraction};
  return core.insert(batch, [&] { recompute(); });
}

template <GpuDynamicGraph Graph>
DynamicUpdate<UpdateResult> DynamicSssp<Graph>::erase_edges(DeviceEdges batch) {
  sp::DynamicCore<Graph> core{*graph_,
                              state_,
                              source_,
                              source_live_,
                              options_.sssp.unit_weights,
                              options_.recompute_fraction,
                              options_.recompute_batch_fraction};
  return core.erase(batch, [&] { recompute(); });
}

template <GpuDynamicGraph Graph>
DynamicUpdate<VertexEraseResult> DynamicSssp<Graph>::erase_vertices(std::span<const vertex_t> ids) {
  sp::DynamicCore<Graph> core{*graph_,
                              state_,
                              source_,
                              source_live_,
                              options_.sssp.unit_weights,
                              options_.recompute_fraction,
                              options_.recompute_batch_fraction};
  return core.erase_vertices(ids, [&] { recompute(); });
}

/// Host batches: uploaded as the graph's EdgeList overloads upload them (ids past the range
/// grow it, weights become values), then applied as device batches.
template <GpuDynamicGraph Graph>
DynamicUpdate<UpdateResult> DynamicSssp<Graph>::insert_edges(const EdgeList& batch) {
  check_sizes(batch);
  graph_->grow_vertices(batch.num_vertices);
  DynamicUpdate<UpdateResult> out;
  for_each_host_chunk(batch, graph_->batch_chunk(batch.size()), Graph::ref_type::weighted, true,
                      graph_->stream(), [&](const HostBatchUpload& up, DeviceEdges part) {
                        graph_->grow_vertices(up.id_range);
                        const auto r = insert_edges(part);
                        out.update += r.update;
                        out.changed += r.changed;
                        out.recomputed = out.recomputed || r.recomputed;
                      });
  return out;
}

template <GpuDynamicGraph Graph>
DynamicUpdate<UpdateResult> DynamicSssp<Graph>::erase_edges(const EdgeList& batch) {
  check_sizes(batch);
  DynamicUpdate<UpdateResult> out;
  for_each_host_chunk(batch, graph_->batch_chunk(batch.size()), false, false, graph_->stream(),
                      [&](const HostBatchUpload&, DeviceEdges part) {
                        const auto r = erase_edges(part);
                        out.update += r.update;
                        out.changed += r.changed;
                        out.recomputed = out.recomputed || r.recomputed;
                      });
  return out;
}

template <GpuDynamicGraph Graph>
SsspResult DynamicSssp<Graph>::result() const {
  return sp::download(state_, graph_->num_vertices(), graph_->stream());
}

}  // namespace wg::gpu
