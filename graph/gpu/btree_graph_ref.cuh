#pragma once
// Device view of a wg::gpu::BTreeGraph (graph/gpu/btree_graph.hpp), for kernels (include from
// .cu files only). Models wg::DeviceGraphView, with the extras the slab view offers to BFS/SSSP:
// find_neighbor and the partial walks for_each_neighbor_part / for_each_neighbor_slot_part.
//
// Layout it reads: one B-link tree of 64-bit keys (u << 32) | v (value: the arc's weight), so
// u's neighbours are the keys of [u << 32, (u << 32) | 0xFFFFFFFF], in increasing v from leaf to
// leaf (leaves are ordered and linked; the 7 pairs inside one leaf are NOT sorted).
//
// Phase rule (as for every graph view): the walks and has_edge read the tree with plain cached
// loads, so they must not share a kernel with updates of the same graph.
//
// Costs: has_edge one thread, O(log_7 E) node reads; a walk of u: one descent (O(log_7 E)) by
// the warp, then one 128-byte leaf read per step (up to 7 neighbours per step, on lanes 0..6).
#include <cooperative_groups.h>

#include <cstdint>
#include <type_traits>

#include <warpgraph/containers/btree/btree_ref.cuh>
#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/containers/core/work_sharing.cuh>
#include <warpgraph/graph/gpu/btree/btree_graph_sizing.hpp>
#include <warpgraph/graph/gpu/btree_graph.hpp>
#include <warpgraph/graph/graph_concepts.hpp>

namespace wg::gpu {

/// The tree key of arc u -> v.
__host__ __device__ constexpr std::uint64_t btree_arc_key(vertex_t u, vertex_t v) {
  return (std::uint64_t{u} << 32) | v;
}

template <bool Weighted>
class BTreeGraphRef {
  using Key = std::uint64_t;

 public:
  static constexpr bool weighted = Weighted;
  using tree_ref = btree::BTreeRef<Key>;
  using leaf_type = typename tree_ref::leaf_type;
  /// Lanes of the tiles that read one node (8 for 64-bit keys), and the neighbour slots a walk
  /// step offers (lanes 0 .. kStepSlots-1 of the warp).
  static constexpr unsigned kNodeLanes = tree_ref::kTileLanes;
  static constexpr unsigned kStepSlots = kNodeLanes - 1;
  static constexpr Key kNoKey = tree_ref::kEmptyKey;

  BTreeGraphRef() = default;
  __host__ __device__ BTreeGraphRef(tree_ref tree, const std::uint32_t* degrees,
                                    const std::uint8_t* live, std::uint32_t num_vertices)
      : tree_(tree), degrees_(degrees), live_(live), num_vertices_(num_vertices) {}

  __host__ __device__ std::uint32_t num_vertices() const { return num_vertices_; }
  __device__ bool is_live(vertex_t u) const { return u < num_vertices_ && live_[u]; }
  __device__ std::uint32_t degree(vertex_t u) const { return degrees_[u]; }
  __host__ __device__ const tree_ref& tree() const { return tree_; }

  /// One thread: is v a neighbour of u?
  __device__ bool has_edge(vertex_t u, vertex_t v) const {
    Key value;
    return tree_.find_thread(btree_arc_key(u, v), &value);
  }
  /// One thread: the value (weight) of arc u -> v, if present.
  __device__ bool find_value(vertex_t u, vertex_t v, std::uint32_t* value) const {
    Key x = 0;
    const bool found = tree_.find_thread(btree_arc_key(u, v), &x);
    if (found) *value = static_cast<std::uint32_t>(x);
    return found;
  }

  /// Walks the keys of [lo, hi] leaf by leaf: f(key, value, valid) is called by all 32 lanes
  /// together once per leaf, valid on lanes (< kStepSlots) holding a key of the range; keys of
  /// one leaf are unordered, leaves come in key order. f returns false to stop. Whole warp; f may
  /// use tile operations.
  template <class F>
  __device__ void walk_leaves(const warp_tile& tile, Key lo, Key hi, F&& f) const {
    if (lo > hi) return;
    const auto t8 = cooperative_groups::tiled_partition<kNodeLanes>(tile);
    leaf_type s = tree_.template leaf_for<btree::Access::kReadOnly>(t8, lo);
    const bool slot_lane = tile.thread_rank() < kStepSlots;
    for (;;) {
      const bool valid =
          slot_lane && s.key != kNoKey && s.key >= lo && s.key <= hi && s.key < s.high;
      if (!f(s.key, s.value, valid)) return;
      if (s.high == kNoKey || s.high > hi) return;
      s = tree_.template next_leaf<btree::Access::kReadOnly>(t8, s);
    }
  }

  /// f(w) (f(w, value) when weighted) once per neighbour of u, by the lane holding it. Whole
  /// warp; f must not use tile operations.
  template <class F>
  __device__ void for_each_neighbor(const warp_tile& tile, vertex_t u, F&& f) const {
    walk_vertex(tile, u, 0, 0xFFFFFFFFu, each_neighbor(f));
  }

  /// The warp-uniform walk: all lanes call f(w, valid) together, one leaf per step (its slots on
  /// lanes 0..6, the other lanes invalid). f may use tile operations. Whole warp.
  template <class F>
  __device__ void for_each_neighbor_slot(const warp_tile& tile, vertex_t u, F&& f) const {
    walk_vertex(tile, u, 0, 0xFFFFFFFFu, each_slot(f));
  }

  /// Part `part` of `parts` of u's neighbours: those with ids in the part-th of parts equal
  /// slices of [0, num_vertices()) (each part descends to its own first leaf, so parts run in
  /// parallel). Whole warp; f as for for_each_neighbor / for_each_neighbor_slot.
  template <class F>
  __device__ void for_each_neighbor_part(const warp_tile& tile, vertex_t u, std::uint32_t part,
                                         std::uint32_t parts, F&& f) const {
    vertex_t lo, hi;
    if (slice(part, parts, &lo, &hi)) walk_vertex(tile, u, lo, hi, each_neighbor(f));
  }
  template <class F>
  __device__ void for_each_neighbor_slot_part(const warp_tile& tile, vertex_t u, std::uint32_t part,
                                              std::uint32_t parts, F&& f) const {
    vertex_t lo, hi;
    if (slice(part, parts, &lo, &hi)) walk_vertex(tile, u, lo, hi, each_slot(f));
  }

  /// The first neighbour w of u (in leaf order; lowest lane within a leaf) with pred(w) true,
  /// warp-uniform, or 0xFFFFFFFF. pred runs per lane on valid neighbours. Whole warp.
  template <class P>
  __device__ vertex_t find_neighbor(const warp_tile& tile, vertex_t u, P&& pred) const {
    vertex_t found = 0xFFFFFFFFu;
    walk_vertex(tile, u, 0, 0xFFFFFFFFu, [&](Key k, Key, bool valid) {
      const vertex_t w = static_cast<vertex_t>(k);
      const unsigned hits = tile.ballot(valid && pred(w));
      if (!hits) return true;
      found = tile.shfl(w, __ffs(hits) - 1);
      return false;
    });
    return found;
  }

 private:
  template <class F>
  __device__ static void call(F& f, Key k, Key value) {
    if constexpr (Weighted)
      f(static_cast<vertex_t>(k), static_cast<std::uint32_t>(value));
    else
      f(static_cast<vertex_t>(k));
  }

  /// walk_leaves visitors of the neighbour walks: f once per valid neighbour (call), and
  /// f(w, valid) on every lane; neither stops the walk.
  template <class F>
  __device__ static auto each_neighbor(F& f) {
    return [&f](Key k, Key value, bool valid) {
      if (valid) call(f, k, value);
      return true;
    };
  }
  template <class F>
  __device__ static auto each_slot(F& f) {
    return [&f](Key k, Key, bool valid) {
      f(static_cast<vertex_t>(k), valid);
      return true;
    };
  }

  /// Keys of u's neighbours with ids in [lo, hi].
  template <class F>
  __device__ void walk_vertex(const warp_tile& tile, vertex_t u, vertex_t lo, vertex_t hi,
                              F&& f) const {
    walk_leaves(tile, btree_arc_key(u, lo), btree_arc_key(u, hi), f);
  }

  __device__ bool slice(std::uint32_t part, std::uint32_t parts, vertex_t* lo, vertex_t* hi) const {
    return detail::btree_graph::walk_part(part, parts, num_vertices_, lo, hi);
  }

  tree_ref tree_{};
  const std::uint32_t* degrees_ = nullptr;
  const std::uint8_t* live_ = nullptr;
  std::uint32_t num_vertices_ = 0;
};

static_assert(wg::GpuDynamicGraph<BTreeGraph<false>>);
static_assert(wg::GpuDynamicGraph<BTreeGraph<true>>);
static_assert(wg::DeviceGraphView<BTreeGraphRef<false>>);
static_assert(wg::DeviceGraphView<BTreeGraphRef<true>>);

}  // namespace wg::gpu
