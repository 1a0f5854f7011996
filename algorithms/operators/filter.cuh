#pragma once
// filter: appends to `out` the vertices v of a frontier (or every id below n: all_vertices) with
// pred(v) true, a thread each, one atomic per appended vertex (order unspecified). pred runs on
// diverged threads. No host synchronisation. Work: O(frontier).
#include <cstdint>

#include <warpgraph/algorithms/operators/for_each.cuh>
#include <warpgraph/algorithms/operators/frontier.cuh>

namespace wg::gpu::ops {

/// out += { v in `in` : pred(v) }, on `grid` blocks (grid_for(in.size) by default).
template <class Pred>
void filter(const FrontierIn& in, const FrontierOut& out, const Pred& pred, cudaStream_t stream,
            unsigned grid = 0) {
  for_each(
      in,
      [=] __device__(vertex_t v) {
        if (pred(v)) out.items[atomicAdd(out.size, 1ull)] = v;
      },
      stream, grid);
}

}  // namespace wg::gpu::ops
