#pragma once
// The kernels of erase_vertices.
//
// Part of wg::gpu::DynamicGraph's implementation (private to graph/gpu): the kernels live in
// wg::gpu::detail::vertex_erase and are launched and instantiated by one translation unit.
#include <warpgraph/graph/gpu/slab/detail/kernels/kernel_common.cuh>

namespace wg::gpu::detail::vertex_erase {

// Bucket counts of the erased vertices (the prefix sum numbers their buckets). The vertices stop
// being live here, both copies of the flag (VertexEntry), not in erase_vertex_buckets_kernel, whose
// warps read these entries while it runs; the kernels after this one tell them by erasing[].
template <class Adj>
__global__ void gather_buckets_kernel(DynamicGraphRef<Adj> g, const vertex_t* ids, std::uint64_t k,
                                      std::uint8_t* live, std::uint64_t* out) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < k;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const vertex_t x = ids[i];
    VertexEntry* const e = g.entry(x);
    out[i] = e->num_buckets;
    e->live = 0;
    live[x] = 0;
  }
}

/// Buckets of erased vertices a warp takes at a time (one binary search per bucket, by its lane).
constexpr unsigned kEraseBucketsPerWarp = 8;

// Erases vertices bucket by bucket: all warps share all of the erased vertices' buckets, so a
// hub's buckets spread over the GPU instead of being walked by one warp. Bucket t (0 ..
// offsets[k]) is bucket t - offsets[i] of vertex ids[i], offsets being the exclusive prefix sum of
// their bucket counts. For an undirected graph each lane holding a neighbour y that is not erased
// removes the arc y -> x with a one-thread erase (the pair (x, y) is this bucket's alone), and
// each edge is counted once (counters->a); then the warp empties the bucket and frees its
// overflow slabs. The vertex's bucket 0 zeroes its degree (counters->b += the
// out-degrees, a directed graph's edges out of the erased vertices).
template <class Adj>
__global__ void erase_vertex_buckets_kernel(DynamicGraphRef<Adj> g, const vertex_t* ids,
                                            std::uint64_t k, const std::uint64_t* offsets,
                                            const std::uint32_t* erasing, bool both,
                                            Counters* counters) {
  const warp_tile tile = this_warp();
  const thread_tile one{};
  const unsigned lane = tile.thread_rank();
  const std::uint64_t buckets = offsets[k];
  const std::uint64_t step = std::uint64_t{gridDim.x} * blockDim.x / 32 * kEraseBucketsPerWarp;
  unsigned removed = 0;
  unsigned long long out_degrees = 0;
  for (std::uint64_t first = std::uint64_t{global_warp_id()} * kEraseBucketsPerWarp;
       first < buckets; first += step) {
    const std::uint64_t t = first + lane;
    const bool mine = lane < kEraseBucketsPerWarp && t < buckets;
    vertex_t x = 0;
    std::uint32_t bucket = 0;
    VertexEntry e{};
    if (mine) {
      const std::uint64_t item = item_of_bucket(offsets, k, t);
      x = ids[item];
      bucket = static_cast<std::uint32_t>(t - offsets[item]);
      e = g.load_entry(x);
      if (bucket == 0) {
        out_degrees += g.degree(x);
        *g.degree_ptr(x) = 0;
      }
    }
    const unsigned count =
        static_cast<unsigned>(std::min<std::uint64_t>(kEraseBucketsPerWarp, buckets - first));
    for (unsigned j = 0; j < count; ++j) {
      const vertex_t xj = tile.shfl(x, j);
      const VertexEntry ej = shfl_entry(tile, e, j);
      const std::uint32_t bj = tile.shfl(bucket, j);
      if (both) {
        g.for_each_slab_in_bucket(tile, ej, bj, [&](std::uint32_t y, std::uint32_t) {
          if (!slab::is_valid_key(y)) return;
          if (erasing[y]) {
            removed += xj < y;  // both ends erased: counted by the smaller
          } else {
            ++removed;
            if (erase_arc_tiled<batch_first_read(BatchOp::erase, Adj::weighted, false),
                                kEraseLinks>(one, g, g.load_entry(y), xj))
              atomicSub(g.degree_ptr(y), 1u);
          }
        });
      }
      g.table_at(ej).clear_bucket(tile, bj);
    }
  }
  warp_add(tile, &counters->a, removed);
  if (out_degrees) atomicAdd(&counters->b, out_degrees);
}

// Directed: removes the in-arcs y -> x (x erased) from every other live vertex's table.
template <class Adj>
__global__ void erase_in_arcs_kernel(DynamicGraphRef<Adj> g, const std::uint32_t* erasing,
                                     Counters* counters) {
  const warp_tile tile = this_warp();
  const std::uint64_t warps = (std::uint64_t{gridDim.x} * blockDim.x) / 32;
  unsigned removed = 0;
  for (std::uint64_t y64 = global_warp_id(); y64 < g.num_vertices(); y64 += warps) {
    const vertex_t y = static_cast<vertex_t>(y64);
    if (!g.is_live(y) || erasing[y] || g.degree(y) == 0) continue;  // warp-uniform
    g.for_each_slab(tile, y, [&](std::uint32_t x, std::uint32_t, std::uint32_t) {
      const bool hit = slab::is_valid_key(x) && erasing[x];
      for_each_active_lane(tile, hit, [&](int src) {
        const vertex_t w = tile.shfl(x, src);
        if (g.table(y).erase(tile, w) && tile.thread_rank() == 0) {
          atomicSub(g.degree_ptr(y), 1u);
          ++removed;
        }
      });
    });
  }
  warp_add(tile, &counters->a, removed);
}

}  // namespace wg::gpu::detail::vertex_erase
