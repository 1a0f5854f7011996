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
  /// (SsspOptions / BfsOptions::rounds_per_check).
  std::uint32_t rounds_per_check = 4;
  /// Queued vertices of more than split_degree neighbours are relaxed by split_parts warps each
  /// (SsspOptions / BfsOptions fields of the same names; 0: never split).
  std::uint32_t split_degree = 4096;
  std::uint32_t split_parts = 64;
  /// Static weighted searches: the near-far threshold step (SsspOptions::near_far_delta).
  std::uint32_t near_far_delta = 0;
  std::uint64_t n = 0;
};

namespace sp {
/// The repair machinery both dynamic searches run on (sssp/gpu/detail/dynamic_core.cuh).
template <class Graph>
struct DynamicCore;
}  // namespace sp

}  // namespace wg::gpu
