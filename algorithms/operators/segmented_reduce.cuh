#pragma once
// segmented_sum: for every vertex v below n, the sum of value(w) over v's neighbours w (a segment
// per vertex), handed to finish(v, sum) on one thread. for_each_segment: the same walk without
// the reduction (each warp gets a vertex, or one part of a hub, to walk as it likes). Called inside
// a kernel by every thread of the grid (a device-level operator, so that the caller may fuse its
// own end of pass after it).
//
// Schedule: a warp per vertex walks its adjacency (for_each_neighbor) and sums with shuffles;
// with a split plan (kSplit), a vertex whose plan gives it k > 0 parts (a hub) is walked by k
// warps instead, each a share of its buckets or row (for_each_neighbor_part); each part adds its
// warp sum to acc[first part] with a relaxed atomic and takes a ticket, and the part that draws
// the last ticket reads the total, zeroes acc and the ticket for the next pass, and finishes the
// vertex. Hub parts come first in the item order (items [0, hubs)), then the vertices.
// Work: O(n + m) per pass, about deg(v) / 32 steps per warp; one atomic and one ticket per hub
// part. Dead vertices and vertices without arcs finish with sum 0.
//
// The split plan: parts[v] from segment_parts_kernel, exclusively scanned into offsets (n + 1
// entries: offsets[v] the first part of v, offsets[n] the number of parts); acc and tickets hold
// offsets[n] zeroed entries before the first pass.
//
// Memory order: each part's atomicAdd is followed by a __threadfence and an acq_rel ticket, so the
// last part sees every part's sum (release sequence of the ticket's RMWs).
#include <cuda/atomic>

#include <cstdint>

#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/containers/core/work_sharing.cuh>

namespace wg::gpu::ops {

__device__ __forceinline__ double warp_sum(double x) {
  for (int o = 16; o > 0; o /= 2) x += __shfl_down_sync(0xFFFFFFFFu, x, o);
  return x;
}

/// The vertex that owns part j: the v with offsets[v] <= j < offsets[v + 1] (offsets the
/// exclusive scan of the parts, n + 1 entries, offsets[n] > j). A 31-way search by the whole warp
/// (about four rounds for a million ids); warp-uniform result.
__device__ inline vertex_t part_owner(const warp_tile& tile, const std::uint32_t* offsets,
                                      std::uint64_t n, std::uint32_t j) {
  // First i in [lo, hi] with offsets[i] > j; offsets[hi] > j throughout.
  std::uint64_t lo = 0, hi = n;
  const unsigned lane = tile.thread_rank();
  while (lo < hi) {
    const std::uint64_t step = (hi - lo + 30) / 31;
    const std::uint64_t probe = lo + lane * step < hi ? lo + lane * step : hi;
    const unsigned above = tile.ballot(offsets[probe] > j);  // lane 31 probes hi: set
    const int f = __ffs(above) - 1;
    if (f == 0) {
      hi = lo;
    } else {
      const std::uint64_t prev = lo + static_cast<std::uint64_t>(f - 1) * step;
      const std::uint64_t at = lo + static_cast<std::uint64_t>(f) * step < hi
                                   ? lo + static_cast<std::uint64_t>(f) * step
                                   : hi;
      lo = prev + 1;
      hi = at;
    }
  }
  return static_cast<vertex_t>(lo - 1);
}

/// The split plan: parts[v] = the warps v's neighbours are split over (0: one warp, the plain
/// path) for a live v of more than split_degree neighbours, ceil(degree / arcs_per_part) clamped
/// to [1, max_parts]; parts[n] = 0, so that the exclusive scan's last entry is the part count.
template <class View>
__global__ void segment_parts_kernel(View g, std::uint64_t n, std::uint32_t split_degree,
                                     std::uint32_t arcs_per_part, std::uint32_t max_parts,
                                     std::uint32_t* parts) {
  for (std::uint64_t v = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; v <= n;
       v += std::uint64_t{gridDim.x} * blockDim.x) {
    std::uint32_t k = 0;
    if (v < n && g.is_live(static_cast<vertex_t>(v))) {
      const std::uint32_t deg = g.degree(static_cast<vertex_t>(v));
      if (deg > split_degree) {
        k = (deg + arcs_per_part - 1) / arcs_per_part;
        k = k < 1 ? 1 : (k > max_parts ? max_parts : k);
      }
    }
    parts[v] = k;
  }
}

/// The walk both segmented passes share: every item of hubs + n, a warp each (hub parts first,
/// then the vertices), as on_part(tile, v, part, parts, first) for a hub's part (first: the
/// index of its first part) and on_vertex(tile, v) for a vertex walked whole (hubs skipped: their
/// parts walk them). offsets is read only when kSplit.
template <bool kSplit, class OnPart, class OnVertex>
__device__ __forceinline__ void for_each_segment(std::uint64_t n, const std::uint32_t* offsets,
                                                 OnPart&& on_part, OnVertex&& on_vertex) {
  const std::uint32_t hubs = kSplit ? offsets[n] : 0;
  for_each_warp_item(hubs + n, [&](const warp_tile& t, std::uint64_t i) {
    if constexpr (kSplit) {
      if (i < hubs) {
        const auto j = static_cast<std::uint32_t>(i);
        const vertex_t v = part_owner(t, offsets, n, j);
        const std::uint32_t first = offsets[v], parts = offsets[v + 1] - first;
        on_part(t, v, j - first, parts, first);
        return;
      }
    }
    const auto v = static_cast<vertex_t>(i - hubs);
    if (kSplit && offsets[v + 1] != offsets[v]) return;  // a hub: done by its parts (uniform)
    on_vertex(t, v);
  });
}

/// The pass (see the header comment): value(w) -> double per neighbour, finish(v, sum) on lane 0
/// of the warp that completes v. offsets, acc and tickets are read only when kSplit.
template <bool kSplit, class View, class Value, class Finish>
__device__ __forceinline__ void segmented_sum(const View& g, std::uint64_t n,
                                              const std::uint32_t* offsets, double* acc,
                                              unsigned* tickets, Value&& value, Finish&& finish) {
  const auto on_part = [&](const warp_tile& t, vertex_t v, std::uint32_t part, std::uint32_t parts,
                           std::uint32_t first) {
    double sum = 0;
    g.for_each_neighbor_part(t, v, part, parts, [&](vertex_t w, auto...) { sum += value(w); });
    sum = warp_sum(sum);
    if (t.thread_rank() == 0) {
      atomicAdd(acc + first, sum);
      __threadfence();
      const unsigned k = cuda::atomic_ref<unsigned, cuda::thread_scope_device>(tickets[first])
                             .fetch_add(1u, cuda::memory_order_acq_rel);
      if (k + 1 == parts) {
        __threadfence();
        const double total = *static_cast<volatile double*>(acc + first);
        acc[first] = 0;
        tickets[first] = 0;
        finish(v, total);
      }
    }
  };
  const auto on_vertex = [&](const warp_tile& t, vertex_t v) {
    double sum = 0;
    if (g.is_live(v) && g.degree(v) > 0)  // warp-uniform
      g.for_each_neighbor(t, v, [&](vertex_t w, auto...) { sum += value(w); });
    sum = warp_sum(sum);
    if (t.thread_rank() == 0) finish(v, sum);
  };
  for_each_segment<kSplit>(n, offsets, on_part, on_vertex);
}

}  // namespace wg::gpu::ops
