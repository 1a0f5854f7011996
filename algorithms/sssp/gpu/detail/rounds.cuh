#pragma once
// Host side of the GPU shortest-path searches (sssp.cuh): state sizing, relaxation rounds,
// near-far, static search, downloads, the repair's subtree walk and re-seeding.
#include <cuda/atomic>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <stdexcept>
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

/// The counters, on the host: a one-thread kernel copies them to mapped pinned memory and then
/// writes the read's sequence number, which the host polls for (ShortestPathState::
/// read_spin_us), then synchronises with the stream if it has not come. Everything enqueued
/// before the call has finished when it returns (the copy runs after it on the stream).
inline void read_counters(ShortestPathState& st, unsigned long long* out, cudaStream_t stream) {
  if (st.counters_host.size() < kNumCounters + 1) {
    st.counters_host = PinnedBuffer<unsigned long long>(kNumCounters + 1, cudaHostAllocMapped);
    std::memset(st.counters_host.data(), 0, st.counters_host.bytes());
    void* d = nullptr;
    WG_CUDA_TRY(cudaHostGetDevicePointer(&d, st.counters_host.data(), 0));
    st.counters_mapped = static_cast<unsigned long long*>(d);
  }
  const unsigned long long sequence = ++st.read_sequence;
  publish_counters_kernel<<<1, 1, 0, stream>>>(st.counters.data(), st.counters_mapped, sequence);
  WG_CUDA_CHECK_LAST();
  unsigned long long* const tag = st.counters_host.data() + kNumCounters;
  const auto landed = [&] { return __atomic_load_n(tag, __ATOMIC_ACQUIRE) == sequence; };
  const std::chrono::microseconds spin{st.read_spin_us};
  const auto t0 = std::chrono::steady_clock::now();
  for (unsigned spins = 1; !landed(); ++spins) {
    if (spins % 64 == 0 && std::chrono::steady_clock::now() - t0 >= spin) {
      WG_CUDA_TRY(cudaStreamSynchronize(stream));
      if (!landed())
        throw std::logic_error("wg::gpu::sssp: the counters' copy finished without its tag (bug)");
      break;
    }
  }
  for (int k = 0; k < kNumCounters; ++k)
    out[k] = __atomic_load_n(st.counters_host.data() + k, __ATOMIC_RELAXED);
}
inline void zero_counter(ShortestPathState& st, Counter c, cudaStream_t stream) {
  WG_CUDA_TRY(cudaMemsetAsync(st.counters.data() + c, 0, sizeof(unsigned long long), stream));
}
inline void zero_counters(ShortestPathState& st, Counter first, int words, cudaStream_t stream) {
  WG_CUDA_TRY(
      cudaMemsetAsync(st.counters.data() + first, 0, words * sizeof(unsigned long long), stream));
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
  st.touch = DeviceBuffer<std::uint32_t>(cap, stream, "sssp change stamps");
  st.touch.fill_bytes(0, stream);
  st.old_dist = DeviceBuffer<std::uint32_t>(cap, stream, "sssp repair distances");
  st.round = 0;
  st.epoch = 0;
  st.n = n;
}

/// The stamp of a new queue (stamps wrapped: all forgotten).
inline std::uint32_t next_round(ShortestPathState& st, cudaStream_t stream) {
  if (++st.round == 0) {
    st.stamp.fill_bytes(0, stream);
    st.round = 1;
  }
  return st.round;
}

/// Starts a queue that seeders append to (counters[kQueue0]): the ring of queue and heavy counts
/// zeroed, a fresh stamp.
inline std::uint32_t start_queue(ShortestPathState& st, cudaStream_t stream) {
  zero_counters(st, kQueue0, 2 * kRingSlots, stream);
  return next_round(st, stream);
}

inline void check_overflow(const unsigned long long* c) {
  if (c[kOverflow])
    throw CapacityError("wg::gpu::sssp distances", kInf,
                        "a path is 2^32 - 1 or longer: distances are 32-bit");
}

/// A grid that fills the GPU once (multiprocessors x resident threads): rounds whose queue
/// length only the device knows stride over it.
inline unsigned resident_grid() {
  static const unsigned grid = [] {
    int dev = 0, sms = 0, threads = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor, dev) !=
            cudaSuccess)
      sms = threads = 0;
    (void)cudaGetLastError();
    return grid_for(
        std::max<std::uint64_t>(std::uint64_t(sms) * std::uint64_t(threads), 32 * 1024));
  }();
  return grid;
}

struct NoHostStep {
  void operator()() const noexcept {}
};

/// Runs relaxation rounds from the queue in st.queue (its length in counters[kQueue0], at most
/// `bound`; the rest of the ring zero: start_queue) until no distance improves. Rounds are
/// launched st.rounds_per_check at a time, each reading its queue's length on the device; then
/// before_check() may enqueue more work and the host reads the counters into c (one
/// synchronisation). An empty queue's round costs a launch whose warps find nothing to do.
/// On return c holds the counters as the last round left them.
template <class View, class BeforeCheck = NoHostStep>
void relax_rounds(const View& g, ShortestPathState& st, std::uint64_t bound, bool unit,
                  cudaStream_t stream, unsigned long long* c, const NearFar& nf = {},
                  const ChangeTrack& ct = {}, BeforeCheck&& before_check = {}) {
  const unsigned per_check = std::max<std::uint32_t>(st.rounds_per_check, 1);
  std::uint64_t known = bound;  // an upper bound of the next round's queue length
  for (unsigned i = 0;;) {
    for (unsigned k = 0; k < per_check && known; ++k, ++i) {
      const unsigned full = resident_grid();
      const int slot = static_cast<int>(i % kRingSlots);
      unsigned long long* const counters = st.counters.data();
      const RelaxOp op{
          st.keys.data(), counters, st.stamp.data(), next_round(st, stream), unit, nf, ct};
      const ops::HeavySplit split{st.heavy.data(), counters + kHeavy0 + slot, st.split_degree,
                                  st.split_parts};
      // The first round after a check is sized by what the host knows; later ones fill the GPU.
      const ops::AdvanceLaunch launch = k == 0 ? ops::AdvanceLaunch::sized(known, split, full)
                                               : ops::AdvanceLaunch{full, full, split};
      ops::advance<ops::Walk::lanes>(
          g, ops::FrontierIn{st.queue.data(), 0, counters + kQueue0 + slot},
          ops::FrontierOut{st.next.data(), counters + kQueue0 + (slot + 1) % kRingSlots}, op,
          launch, stream, RoundSource{st.keys.data(), counters, slot});
      std::swap(st.queue, st.next);
    }
    before_check();
    read_counters(st, c, stream);
    check_overflow(c);
    if (!known) return;
    known = c[kQueue0 + i % kRingSlots];
    if (!known) return;
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
  const std::uint32_t round = start_queue(st, stream);
  seed_source_kernel<<<1, 32, 0, stream>>>(g, source, st.keys.data(), st.queue.data(),
                                           st.counters.data(), st.stamp.data(), round);
  WG_CUDA_CHECK_LAST();
  unsigned long long c[kNumCounters];
  if (unit || !st.near_far_delta) {
    relax_rounds(g, st, 1, unit, stream, c);
    return;
  }
  // Near-far: the rounds expand vertices below the threshold; the rest wait in the far pile
  // until the near rounds run dry, then the threshold passes the nearest of them.
  zero_counter(st, kFar, stream);
  st.in_far.fill_bytes(0, stream);  // (a search stopped by an error may have left flags set)
  NearFar nf{st.far.data(), st.in_far.data(), st.near_far_delta};
  std::uint64_t count = 1;
  while (true) {
    relax_rounds(g, st, count, unit, stream, c, nf);  // c: the counters after the last round
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
    const std::uint32_t round = start_queue(st, stream);
    zero_counter(st, kFarNext, stream);
    far_filter_kernel<<<grid_for(far_count), kBlock, 0, stream>>>(
        st.keys.data(), st.far.data(), far_count, st.far_next.data(), st.in_far.data(),
        nf.threshold, st.stamp.data(), round, st.queue.data(), st.counters.data());
    WG_CUDA_CHECK_LAST();
    read_counters(st, c, stream);
    count = c[kQueue0];
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
/// (the marks are then all cleared). One synchronisation for the count, then one per
/// st.rounds_per_check levels (each level's window is set on the device).
template <class View>
std::uint64_t expand_affected(const View& g, ShortestPathState& st, std::uint64_t budget,
                              cudaStream_t stream) {
  unsigned long long c[kNumCounters];
  read_counters(st, c, stream);
  std::uint64_t known = c[kAffected];  // the next level's size
  if (known && known <= budget) {
    const unsigned per_check = std::max<std::uint32_t>(st.rounds_per_check, 1);
    expand_window_kernel<<<1, 32, 0, stream>>>(st.counters.data(), true);
    WG_CUDA_CHECK_LAST();
    while (true) {
      for (unsigned k = 0; k < per_check; ++k) {
        const unsigned full = resident_grid();
        expand_subtree_kernel<<<k == 0 ? std::min(grid_for(known * 32), full) : full, kBlock, 0,
                                stream>>>(g, budget, st.keys.data(), st.mark.data(),
                                          st.affected.data(), st.counters.data());
        expand_window_kernel<<<1, 32, 0, stream>>>(st.counters.data(), false);
        WG_CUDA_CHECK_LAST();
      }
      read_counters(st, c, stream);
      if (c[kAffected] > budget || c[kExpBegin] == c[kExpEnd]) break;
      known = c[kExpEnd] - c[kExpBegin];
    }
  }
  if (c[kAffected] > budget) {
    st.mark.fill_bytes(0, stream);
    zero_counter(st, kAffected, stream);
    return ~std::uint64_t{0};
  }
  return c[kAffected];
}

/// Repairs the `count` affected vertices listed by expand_affected (undirected graphs): each
/// takes its best arc from an unaffected neighbour (pull_kernel, which also resets it), then the
/// rounds run from them and from whatever `seed(round)` queues on the same stamp (the arcs of an
/// insertion batch), and the affected vertices whose distance moved are counted (their marks
/// cleared). Returns the vertices whose distance moved (ct). Called once per batch, after
/// DynamicCore::begin_batch.
template <class View, class Seed>
std::uint64_t repair_and_relax(const View& g, ShortestPathState& st, std::uint64_t count,
                               std::uint64_t seed_bound, bool unit, const ChangeTrack& ct,
                               cudaStream_t stream, Seed&& seed) {
  // The ring of queue counts is zero: the batch began with every counter zero (begin_batch).
  const std::uint32_t round = next_round(st, stream);
  if (count) {
    pull_kernel<<<grid_for(count * 32), kBlock, 0, stream>>>(
        g, st.affected.data(), count, st.keys.data(), st.mark.data(), st.old_dist.data(), ct,
        st.queue.data(), st.counters.data(), st.stamp.data(), round, unit);
    WG_CUDA_CHECK_LAST();
  }
  seed(round);
  unsigned long long c[kNumCounters];
  // The affected count is taken after every group of rounds (O(affected), on the stream before
  // the read): the one after the last group is the answer, with no synchronisation of its own.
  relax_rounds(g, st, count + seed_bound, unit, stream, c, NearFar{}, ct, [&] {
    if (!count) return;
    zero_counter(st, kAffectedChanged, stream);
    count_affected_kernel<<<grid_for(count), kBlock, 0, stream>>>(
        st.affected.data(), count, st.old_dist.data(), st.keys.data(), ct.limit, st.mark.data(),
        st.counters.data());
    WG_CUDA_CHECK_LAST();
  });
  if (count) zero_counter(st, kAffected, stream);
  return c[kChanged] + (count ? c[kAffectedChanged] : 0);
}

}  // namespace wg::gpu::sp
