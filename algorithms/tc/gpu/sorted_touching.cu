// Triangles through a batch's edges on the B-tree graph by leaf-by-leaf merges of the two
// endpoints' sorted neighbour lists (sorted_triangle_count.hpp: count_triangles_touching_sorted).
//
// One warp per edge (u, v): s = the endpoint of smaller degree, l = the other. The warp walks s's
// leaves in key order (lanes 0..6 hold one leaf's unordered keys); for each, it moves l's leaf
// cursor past the leaves whose keys all lie below the s leaf's least key, then compares the s
// leaf's keys with each l leaf that can hold one of them (7 shuffles per l leaf), keeping the l
// leaf that reaches past the s leaf for the next step. Leaves are read once each:
// O((deg s + deg l) / 7) leaf reads. When deg l > merge_ratio x deg s, each lane looks its s key
// up in l by one descent instead (O(deg s log_7 E) reads). A triangle with several batch edges
// counts at its smallest one (the batch's edge keys in a hash set), as in
// IncrementalTriangleCounter.
#include <cstdint>

#include <warpgraph/algorithms/tc/gpu/sorted_triangle_count.hpp>
#include <warpgraph/algorithms/tc/gpu/triangle_count.cuh>
#include <warpgraph/graph/gpu/btree_graph_ref.cuh>

namespace wg::gpu {
namespace sorted_touching {

using Key = std::uint64_t;
inline constexpr unsigned kFull = 0xFFFFFFFFu;

template <bool W>
__global__ void touching_merge_kernel(BTreeGraphRef<W> g, const std::uint64_t* keys,
                                      std::uint64_t m, unsigned bits, tc_detail::EdgeKeySet set,
                                      unsigned merge_ratio, unsigned long long* total) {
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  using View = BTreeGraphRef<W>;
  using Leaf = typename View::leaf_type;
  constexpr Key kNo = View::kNoKey;
  constexpr unsigned kSlots = View::kStepSlots;
  const warp_tile tile = this_warp();
  const auto t8 = cooperative_groups::tiled_partition<View::kNodeLanes>(tile);
  const unsigned lane = tile.thread_rank();
  const bool slot_lane = lane < kSlots;
  const auto& tree = g.tree();
  unsigned long long local = 0;
  const std::uint64_t warps = std::uint64_t{gridDim.x} * blockDim.x / 32;
  for (std::uint64_t i = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; i < m;
       i += warps) {
    const std::uint64_t k = keys[i];
    const vertex_t u = static_cast<vertex_t>(k >> bits), v = static_cast<vertex_t>(k & mask);
    const std::uint32_t du = g.degree(u), dv = g.degree(v);
    const vertex_t s = du <= dv ? u : v, l = du <= dv ? v : u;
    const std::uint32_t ds = du <= dv ? du : dv, dl = du <= dv ? dv : du;
    if (ds == 0) continue;
    const bool merge = merge_ratio != 0 && std::uint64_t{dl} <= std::uint64_t{merge_ratio} * ds;
    const Key s_lo = btree_arc_key(s, 0), s_hi = btree_arc_key(s, 0xFFFFFFFFu);
    const Key l_lo = btree_arc_key(l, 0), l_hi = btree_arc_key(l, 0xFFFFFFFFu);
    Leaf S = tree.template leaf_for<btree::Access::kReadOnly>(t8, s_lo);
    Leaf Lf = S;
    if (merge) Lf = tree.template leaf_for<btree::Access::kReadOnly>(t8, l_lo);
    bool l_done = false;  // l's leaves are used up
    unsigned count = 0;
    for (;;) {
      const bool sv = slot_lane && S.key != kNo && S.key >= s_lo && S.key <= s_hi && S.key < S.high;
      const vertex_t w = static_cast<vertex_t>(S.key);
      bool hit = false;
      if (merge) {
        const unsigned smin = __reduce_min_sync(kFull, sv ? w : 0xFFFFFFFFu);
        const unsigned smax = __reduce_max_sync(kFull, sv ? w : 0u);
        const bool any = tile.ballot(sv) != 0;
        while (any && !l_done) {
          // This l leaf holds keys below its high key only: drop it when they all lie below
          // the s leaf's least key.
          if (Lf.high <= btree_arc_key(l, smin)) {
            if (Lf.high == kNo || Lf.high > l_hi) {
              l_done = true;
              break;
            }
            Lf = tree.template next_leaf<btree::Access::kReadOnly>(t8, Lf);
            continue;
          }
          const bool lv = Lf.key != kNo && Lf.key >= l_lo && Lf.key <= l_hi && Lf.key < Lf.high &&
                          (lane & (View::kNodeLanes - 1)) < kSlots;
          for (unsigned j = 0; j < kSlots; ++j) {
            const Key lk = tile.shfl(Lf.key, j);
            const bool lvj = tile.shfl(lv, j);
            hit = hit || (sv && lvj && static_cast<vertex_t>(lk) == w);
          }
          // Keep this l leaf if it reaches past the s leaf (the next s leaf starts above smax).
          if (Lf.high > btree_arc_key(l, smax)) break;
          if (Lf.high == kNo || Lf.high > l_hi) {
            l_done = true;
            break;
          }
          Lf = tree.template next_leaf<btree::Access::kReadOnly>(t8, Lf);
        }
      } else {
        hit = sv && g.has_edge(l, w);
      }
      if (hit && w != u && w != v) {
        const std::uint64_t k1 = tc_detail::edge_key(u, w, bits),
                            k2 = tc_detail::edge_key(v, w, bits);
        if ((k < k1 || !set.contains(k1)) && (k < k2 || !set.contains(k2))) ++count;
      }
      if (S.high == kNo || S.high > s_hi) break;
      if (merge && l_done) break;  // no l key is left to meet
      S = tree.template next_leaf<btree::Access::kReadOnly>(t8, S);
    }
    count = __reduce_add_sync(kFull, count);
    if (lane == 0) local += count;
  }
  if (lane == 0 && local) atomicAdd(total, local);
}

}  // namespace sorted_touching

template <bool W>
std::uint64_t count_triangles_touching_sorted(const BTreeGraph<W>& graph,
                                              const std::uint64_t* edge_keys, std::uint64_t m,
                                              unsigned key_bits, const TcTuning& options) {
  tc_detail::require_undirected(graph);
  if (m == 0) return 0;
  const cudaStream_t stream = graph.stream();
  tc_detail::TouchingBatch batch = tc_detail::touching_batch(edge_keys, m, stream);
  sorted_touching::touching_merge_kernel<W>
      <<<grid_for(m * 32, std::uint64_t{1} << 16), kBlock, 0, stream>>>(
          graph.ref(), edge_keys, m, key_bits, batch.set, options.merge_ratio, batch.total.data());
  WG_CUDA_CHECK_LAST();
  return batch.total.to_host(stream)[0];
}

template std::uint64_t count_triangles_touching_sorted(const BTreeGraph<false>&,
                                                       const std::uint64_t*, std::uint64_t,
                                                       unsigned, const TcTuning&);
template std::uint64_t count_triangles_touching_sorted(const BTreeGraph<true>&,
                                                       const std::uint64_t*, std::uint64_t,
                                                       unsigned, const TcTuning&);

}  // namespace wg::gpu
