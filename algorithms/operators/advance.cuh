#pragma once
// advance: load-balanced neighbour expansion of a frontier over any DeviceGraphView
// (graph/graph_concepts.hpp). Every frontier vertex u gets one warp, which walks u's arcs and
// calls op(u, w, weight, source_value) per neighbour w; a true answer appends w to the output
// frontier. A vertex of more than `split.degree` neighbours is listed instead, and a second
// launch gives each listed vertex `split.parts` warps, one part of its arcs each (the view's
// partial walks; a view without them walks the whole list in part 0).
//
// Policies (template parameters):
//   Walk::lanes  for_each_neighbor: op runs on the lane holding the arc (weight: the arc's value,
//                1 on an unweighted view); each true answer appends with one atomic.
//   Walk::slots  for_each_neighbor_slot: the warp steps through the slots together (weight 1);
//                the true answers of a step append with one atomic per warp, and add their
//                degrees to out.arcs when set.
//   Source       what a warp loads for u before expanding: load(g, tile, u, value) (false skips
//                u) and, optionally, on_launch() run by one thread before the frontier's size
//                is read (e.g. clearing the counters of a later launch). EverySource: nothing;
//                LiveSource: skips ids that are not live (and, with kNeedArcs, those of degree 0).
//
// op may use atomics but no tile operations (Walk::lanes calls it on diverged lanes). No host
// synchronisation; both launches are ordered on `stream` and read sizes on the device where
// FrontierIn says so. Work: O(frontier + its arcs) (+ the view's empty slots).
#include <algorithm>
#include <cstdint>

#include <warpgraph/algorithms/operators/frontier.cuh>
#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/work_sharing.cuh>
#include <warpgraph/graph/gpu/launch_grid.hpp>

namespace wg::gpu::ops {

/// How a warp walks a vertex's arcs (see the header).
enum class Walk { lanes, slots };

/// No per-source value: every frontier vertex is expanded.
struct EverySource {
  struct value_type {};
  template <class View>
  __device__ bool load(const View&, const warp_tile&, vertex_t, value_type&) const {
    return true;
  }
};

/// Expands live vertices only (erased ids have no adjacency to walk); with kNeedArcs, only those
/// with at least one arc.
template <bool kNeedArcs = false>
struct LiveSource {
  struct value_type {};
  template <class View>
  __device__ bool load(const View& g, const warp_tile&, vertex_t u, value_type&) const {
    if constexpr (kNeedArcs)
      return g.is_live(u) && g.degree(u) != 0;
    else
      return g.is_live(u);
  }
};

/// The heavy-vertex split: off unless degree > 0 and parts > 1.
struct HeavySplit {
  vertex_t* list = nullptr;             ///< room for the frontier's heavy vertices
  unsigned long long* count = nullptr;  ///< appended to by the first launch (zeroed by the caller)
  std::uint32_t degree = 0;
  std::uint32_t parts = 1;

  bool on() const { return degree && parts > 1; }
};

/// Launch shapes (blocks of kBlock threads) and the split.
struct AdvanceLaunch {
  unsigned grid = 1;        ///< the per-vertex launch (a warp per vertex, striding)
  unsigned heavy_grid = 1;  ///< the heavy launch (a warp per part, striding)
  HeavySplit split;

  /// Grids for a frontier of at most `bound` vertices, each capped at `cap` blocks. The heavy
  /// launch is sized for min(bound, 256) listed vertices (the host does not know how many were
  /// listed; it strides over more).
  static AdvanceLaunch sized(std::uint64_t bound, const HeavySplit& split, unsigned cap = ~0u) {
    const unsigned grid = grid_for(bound * 32);
    const unsigned heavy = grid_for(std::min<std::uint64_t>(bound, 256) * split.parts * 32);
    return {grid < cap ? grid : cap, heavy < cap ? heavy : cap, split};
  }
};

namespace detail {

/// Whole warp: op over the arcs that walk(f) gives, appending the accepted heads to out.
template <Walk W, class View, class Op, class Value, class WalkFn>
__device__ void expand(const View& g, const warp_tile& tile, vertex_t u, const Value& s,
                       const FrontierOut& out, Op& op, WalkFn&& walk) {
  if constexpr (W == Walk::lanes) {
    walk([&](vertex_t w, std::uint32_t weight) {
      if (op(u, w, weight, s)) out.items[atomicAdd(out.size, 1ull)] = w;
    });
  } else {
    const unsigned lane = tile.thread_rank();
    walk([&](vertex_t w, bool valid) {
      const bool take = valid && op(u, w, 1u, s);
      const unsigned mask = tile.ballot(take);
      if (!mask) return;
      unsigned long long arcs = 0;
      if (out.arcs) {  // uniform
        arcs = take ? g.degree(w) : 0u;
        for (int o = 16; o > 0; o /= 2) arcs += tile.shfl_xor(arcs, o);
      }
      unsigned long long base = 0;
      if (lane == 0) {
        base = atomicAdd(out.size, static_cast<unsigned long long>(__popc(mask)));
        if (out.arcs) atomicAdd(out.arcs, arcs);
      }
      base = tile.shfl(base, 0);
      if (take) out.items[base + __popc(mask & ((1u << lane) - 1u))] = w;
    });
  }
}

/// The walk of policy W over all of u's arcs: f(w, weight) or f(w, valid).
template <Walk W, class View, class F>
__device__ void walk_all(const View& g, const warp_tile& tile, vertex_t u, F&& f) {
  if constexpr (W == Walk::slots)
    g.for_each_neighbor_slot(tile, u, f);
  else if constexpr (View::weighted)
    g.for_each_neighbor(tile, u, f);
  else
    g.for_each_neighbor(tile, u, [&](vertex_t w) { f(w, 1u); });
}

/// Part `part` of `parts` of the walk (all of it in part 0 on a view without partial walks).
template <Walk W, class View, class F>
__device__ void walk_part(const View& g, const warp_tile& tile, vertex_t u, std::uint32_t part,
                          std::uint32_t parts, F&& f) {
  if constexpr (W == Walk::slots) {
    if constexpr (requires { g.for_each_neighbor_slot_part(tile, u, part, parts, f); })
      g.for_each_neighbor_slot_part(tile, u, part, parts, f);
    else if (part == 0)
      g.for_each_neighbor_slot(tile, u, f);
  } else if constexpr (requires { g.for_each_neighbor_part(tile, u, part, parts, f); }) {
    if constexpr (View::weighted)
      g.for_each_neighbor_part(tile, u, part, parts, f);
    else
      g.for_each_neighbor_part(tile, u, part, parts, [&](vertex_t w) { f(w, 1u); });
  } else if (part == 0) {
    walk_all<W>(g, tile, u, f);
  }
}

/// A warp per frontier vertex; heavy ones (split.degree > 0) are listed for heavy_kernel.
template <Walk W, class View, class Op, class Source>
__global__ void advance_kernel(View g, FrontierIn in, FrontierOut out, HeavySplit split, Op op,
                               Source source) {
  const warp_tile tile = this_warp();
  if constexpr (requires { source.on_launch(); })
    if (blockIdx.x == 0 && threadIdx.x == 0) source.on_launch();
  const std::uint64_t count = in.count();
  const std::uint64_t warps = (std::uint64_t{gridDim.x} * blockDim.x) / 32;
  for (std::uint64_t i = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; i < count;
       i += warps) {
    const vertex_t u = in.items ? in.items[i] : static_cast<vertex_t>(i);
    typename Source::value_type s;
    if (!source.load(g, tile, u, s)) continue;
    if (split.degree && g.degree(u) > split.degree) {
      if (tile.thread_rank() == 0) split.list[atomicAdd(split.count, 1ull)] = u;
      continue;
    }
    expand<W>(g, tile, u, s, out, op, [&](auto&& f) { walk_all<W>(g, tile, u, f); });
  }
}

/// The listed heavy vertices (*split.count, written by advance_kernel), split.parts warps each.
template <Walk W, class View, class Op, class Source>
__global__ void heavy_kernel(View g, FrontierOut out, HeavySplit split, Op op, Source source) {
  const warp_tile tile = this_warp();
  const std::uint64_t items = *split.count * split.parts;
  const std::uint64_t warps = (std::uint64_t{gridDim.x} * blockDim.x) / 32;
  for (std::uint64_t i = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; i < items;
       i += warps) {
    const vertex_t u = split.list[i / split.parts];
    const auto part = static_cast<std::uint32_t>(i % split.parts);
    typename Source::value_type s;
    if (!source.load(g, tile, u, s)) continue;
    expand<W>(g, tile, u, s, out, op,
              [&](auto&& f) { walk_part<W>(g, tile, u, part, split.parts, f); });
  }
}

}  // namespace detail

/// Expands `in` into `out` (see the header): one launch, two when launch.split is on.
template <Walk W, class View, class Op, class Source = EverySource>
void advance(const View& g, const FrontierIn& in, const FrontierOut& out, const Op& op,
             const AdvanceLaunch& launch, cudaStream_t stream, const Source& source = {}) {
  const bool split = launch.split.on();
  HeavySplit s = launch.split;
  if (!split) s.degree = 0;
  detail::advance_kernel<W><<<launch.grid, kBlock, 0, stream>>>(g, in, out, s, op, source);
  WG_CUDA_CHECK_LAST();
  if (split) {
    // Sized without a round trip: the kernel strides over however many were listed.
    detail::heavy_kernel<W><<<launch.heavy_grid, kBlock, 0, stream>>>(g, out, s, op, source);
    WG_CUDA_CHECK_LAST();
  }
}

}  // namespace wg::gpu::ops
