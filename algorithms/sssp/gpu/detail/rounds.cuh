#pragma once
// Host side of the GPU shortest-path searches (sssp.cuh): state sizing, relaxation rounds,
// near-far, static search, downloads, the repair's subtree walk and re-seeding.
#include <cuda/atomic>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <warpgraph/algorithms/sssp/gpu/detail/kernels.cuh>
#include <warpgraph/algorithms/sssp/gpu/sssp.hpp>
#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/graph/gpu/launch_grid.hpp>

namespace wg::gpu::sp {

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

}  // namespace wg::gpu::sp
