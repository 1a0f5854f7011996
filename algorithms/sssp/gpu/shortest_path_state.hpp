#pragma once
// Device state shared by the GPU dynamic shortest-path searches (DynamicSssp, DynamicBfs): one
// packed key per vertex and the scratch of the relaxation rounds. Plain C++ (no kernels here);
// the functions that use it are in algorithms/sssp/gpu/sssp.cuh.
#include <cstdint>

#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/core/pinned_buffer.hpp>
#include <warpgraph/containers/core/types.hpp>

namespace wg::gpu {

/// keys[v] = (distance << 32) | parent, all ones for an unreached vertex: one 64-bit word, so a
/// distance and the parent that gave it change together (one compare-and-swap).
struct ShortestPathState {
  DeviceBuffer<std::uint64_t> keys;
  DeviceBuffer<vertex_t> queue, next;    ///< frontiers of the relaxation rounds (n entries each)
  DeviceBuffer<vertex_t> affected;       ///< vertices a deletion repair resets (n entries)
  DeviceBuffer<vertex_t> heavy;          ///< queued vertices relaxed by several warps (n)
  DeviceBuffer<vertex_t> far, far_next;  ///< near-far: vertices past the threshold (n each)
  DeviceBuffer<std::uint32_t> in_far;    ///< 1 while a vertex is in the far pile
  DeviceBuffer<std::uint32_t> stamp;     ///< round in which a vertex was last queued
  DeviceBuffer<std::uint32_t> mark;      ///< 1 for affected vertices during a repair, else 0
  DeviceBuffer<std::uint32_t> snapshot;  ///< distances before a recomputed batch (changed counts)
  DeviceBuffer<std::uint32_t> touch;     ///< batch (epoch) that last changed a vertex (n)
  DeviceBuffer<std::uint32_t> old_dist;  ///< a repair's affected vertices' distances before (n)
  /// Scratch of weighted insertion batches, kept between batches (grown to the largest).
  DeviceBuffer<std::uint32_t> len_old, len_now;
  DeviceBuffer<std::uint8_t> found_old, found_now, longer;
  DeviceBuffer<unsigned long long> counters;  ///< see sp::Counter (sssp/gpu/detail/kernels.cuh)
  /// Where the host reads them: mapped pinned memory that a one-thread kernel copies the
  /// counters to, then a sequence number (the last word) once they are all written.
  PinnedBuffer<unsigned long long> counters_host;
  unsigned long long* counters_mapped = nullptr;  ///< counters_host as the device sees it
  unsigned long long read_sequence = 0;
  /// How long the host polls counters_host for a read's sequence number before it synchronises
  /// with the stream (which also reports a failed kernel): polling returns as soon as the copy
  /// lands, sooner than a synchronisation.
  std::uint32_t read_spin_us = 2000;
  std::uint32_t round = 0;
  std::uint32_t epoch = 0;  ///< the current batch's stamp in `touch`
  /// Relaxation rounds launched one after another before the host reads the queue's length
  /// (SearchTuning::rounds_per_check).
  std::uint32_t rounds_per_check = 4;
  /// Queued vertices of more than split_degree neighbours are relaxed by split_parts warps each
  /// (SearchTuning fields of the same names; 0: never split).
  std::uint32_t split_degree = 4096;
  std::uint32_t split_parts = 64;
  /// Static weighted searches: the near-far threshold step (SearchTuning::near_far_delta).
  std::uint32_t near_far_delta = 0;
  std::uint64_t n = 0;
};

/// The GPU tuning of the shortest-path searches, BFS and SSSP alike (gpu::BfsTuning and
/// gpu::SsspTuning are this type): how a level or round spreads over the GPU, and when a dynamic
/// search answers by its static computation. The answer never depends on it.
struct SearchTuning {
  /// A queued (frontier) vertex of more than split_degree neighbours is expanded by split_parts
  /// warps (each a share of its buckets or row) in a second kernel of the round, so that a hub
  /// does not hold one warp for its whole list while the rest of the GPU idles. 0 (either):
  /// never split.
  std::uint32_t split_degree = 4096;
  std::uint32_t split_parts = 64;
  /// Static SSSP on lengths other than unit: near-far (Davidson et al.). Rounds only expand
  /// vertices below a threshold; improved vertices at or past it wait in a far pile, and when the
  /// near rounds run dry the threshold moves to the nearest waiting vertex + near_far_delta. A
  /// vertex is then mostly expanded once its distance is final instead of at every improvement.
  /// A few times a typical arc length suits; 0: plain rounds. Unit lengths (BFS) ignore it.
  std::uint32_t near_far_delta = 64;
  /// Relaxation rounds launched one after another (each reads its queue's length on the
  /// device) before the host reads whether the queue ran dry: one synchronisation per this many
  /// rounds instead of one per round, at the price of up to this many - 1 launches that find an
  /// empty queue. At least 1. The static BFS checks every level (it chooses the direction from
  /// the frontier's size).
  std::uint32_t rounds_per_check = 4;
  /// Dynamic: a repair that resets more than this fraction of the ids recomputes instead: past it
  /// the reset region is a large part of the graph and the static search costs about the same
  /// while skipping the subtree walk and the pulls.
  double recompute_fraction = 0.1;
  /// Dynamic: an insertion batch whose new or changed edges exceed this fraction of the graph's
  /// edges is answered by the static search (big batches touch most of the graph).
  double recompute_batch_fraction = 0.05;
};

/// Copies the tuning's round fields (split, near-far step, rounds per check) into the state.
inline void configure(ShortestPathState& st, const SearchTuning& tuning) {
  st.split_degree = tuning.split_degree;
  st.split_parts = tuning.split_parts;
  st.near_far_delta = tuning.near_far_delta;
  st.rounds_per_check = tuning.rounds_per_check;
}

namespace sp {
/// The repair machinery both dynamic searches run on (sssp/gpu/detail/dynamic_core.cuh).
template <class Graph>
struct DynamicCore;
}  // namespace sp

}  // namespace wg::gpu
