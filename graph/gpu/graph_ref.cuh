#pragma once
// Device view of a wg::gpu::DynamicGraph, for kernels (include from .cu files only).
//
//   template <class G> __global__ void k(G g) {          // G = DynamicGraphRef<...>
//     ... whole warp:
//     g.for_each_neighbor(tile, u, [&](vertex_t w) { ... });   // by the lane holding w
//     bool e = g.has_edge(u, v);                               // one thread, read-only phases
//     auto table = g.table(u); table.insert(tile, v);          // tile-cooperative slab ops
//   }
//
// Phase rules (as for the slab hash): reads through for_each_* and *_thread must not run in
// the same kernel as writes to the same tables. Tile-cooperative calls need all 32 lanes
// (use wg::for_each_active_lane to get there from per-thread work).
#include <cstdint>
#include <type_traits>

#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/containers/core/work_sharing.cuh>
#include <warpgraph/containers/slab_hash/slab_allocator.cuh>
#include <warpgraph/containers/slab_hash/slab_layout.cuh>
#include <warpgraph/containers/slab_hash/slab_table_ref.cuh>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/gpu/vertex_entry.cuh>
#include <warpgraph/graph/gpu/whole_walks.cuh>
#include <warpgraph/graph/graph_concepts.hpp>

namespace wg::gpu {

template <class Adjacency>
class DynamicGraphRef : public WholeWalks<DynamicGraphRef<Adjacency>> {
 public:
  static constexpr bool weighted = Adjacency::weighted;
  using table_ref = std::conditional_t<weighted, slab::MapTableRef, slab::SetTableRef>;

  DynamicGraphRef() = default;
  __host__ __device__ DynamicGraphRef(VertexEntry* vertices, std::uint32_t* degrees,
                                      const std::uint8_t* live, std::uint32_t num_vertices,
                                      slab::SlabAllocatorRef alloc)
      : vertices_(vertices),
        degrees_(degrees),
        live_(live),
        num_vertices_(num_vertices),
        alloc_(alloc) {}

  __host__ __device__ std::uint32_t num_vertices() const { return num_vertices_; }
  __device__ bool is_live(vertex_t u) const { return u < num_vertices_ && live_[u]; }
  /// is_live for an id known to be < num_vertices() (a kernel that has loaded u's entry reads
  /// VertexEntry::live instead: the same flag, no load).
  __device__ bool live_flag(vertex_t u) const { return live_[u] != 0; }
  __device__ std::uint32_t degree(vertex_t u) const { return degrees_[u]; }
  /// For the graph's own kernels (atomic degree updates).
  __device__ std::uint32_t* degree_ptr(vertex_t u) const { return degrees_ + u; }
  __device__ VertexEntry* entry(vertex_t u) const { return vertices_ + u; }
  __device__ table_ref table(vertex_t u) const {
    const VertexEntry e = vertices_[u];
    return table_ref(e.buckets, e.num_buckets, alloc_);
  }
  __host__ __device__ const slab::SlabAllocatorRef& allocator() const { return alloc_; }
  /// The table of a handle already loaded (lanes load their tasks' handles in parallel, then
  /// the warp works on one at a time: no dependent load inside the serial loop).
  __device__ table_ref table_at(const VertexEntry& e) const {
    return table_ref(e.buckets, e.num_buckets, alloc_);
  }
  __device__ VertexEntry load_entry(vertex_t u) const { return vertices_[u]; }

  /// Walks u's table slab by slab (base buckets, each with its chain). Whole warp. For each
  /// slab, every lane calls f(key, value, slab_handle) with its lane's key (kEmptyKey /
  /// kTombstoneKey where it holds none; value 0 for sets); slab_handle is the allocator handle of
  /// an overflow slab, kNullSlab for a base slab. f runs warp-uniformly, so it may use tile ops.
  template <class F>
  __device__ void for_each_slab(const warp_tile& tile, vertex_t u, F&& f) const {
    for_each_slab_part(tile, u, 0, 1, f);
  }
  /// for_each_slab over the buckets b with b % parts == part.
  template <class F>
  __device__ void for_each_slab_part(const warp_tile& tile, vertex_t u, std::uint32_t part,
                                     std::uint32_t parts, F&& f) const {
    const VertexEntry e = vertices_[u];
    for (std::uint32_t b = part; b < e.num_buckets; b += parts) walk_chain(tile, e.buckets + b, f);
  }

  /// Walks one bucket's chain of a table given by its handle: f(key, value) per lane and slab,
  /// warp-uniformly (as for_each_slab).
  template <class F>
  __device__ void for_each_slab_in_bucket(const warp_tile& tile, const VertexEntry& e,
                                          std::uint32_t bucket, F&& f) const {
    walk_chain(tile, e.buckets + bucket,
               [&](std::uint32_t key, std::uint32_t value, std::uint32_t) { f(key, value); });
  }

  /// Part `part` of `parts` of u's neighbours (the buckets b with b % parts == part): the whole
  /// walks (WholeWalks: for_each_neighbor, and for_each_neighbor_slot, one slot of u's table per
  /// lane per step) split over several warps, for hubs. Whole warp; f as for those.
  template <class F>
  __device__ void for_each_neighbor_part(const warp_tile& tile, vertex_t u, std::uint32_t part,
                                         std::uint32_t parts, F&& f) const {
    for_each_slab_part(tile, u, part, parts,
                       [&](std::uint32_t key, std::uint32_t value, std::uint32_t) {
                         if (slab::is_valid_key(key)) {
                           if constexpr (weighted)
                             f(key, value);
                           else
                             f(key);
                         }
                       });
  }
  template <class F>
  __device__ void for_each_neighbor_slot_part(const warp_tile& tile, vertex_t u, std::uint32_t part,
                                              std::uint32_t parts, F&& f) const {
    for_each_slab_part(tile, u, part, parts, [&](std::uint32_t key, std::uint32_t, std::uint32_t) {
      f(key, slab::is_valid_key(key));
    });
  }

  /// The first neighbour w of u with pred(w) true, warp-uniform (lowest lane of the first slab
  /// that has one), or 0xFFFFFFFF when none: the early-exit walk (bottom-up BFS). pred runs per
  /// lane on valid keys only and must not use tile operations. Whole warp.
  template <class P>
  __device__ vertex_t find_neighbor(const warp_tile& tile, vertex_t u, P&& pred) const {
    const VertexEntry e = vertices_[u];
    const unsigned lane = tile.thread_rank();
    for (std::uint32_t b = 0; b < e.num_buckets; ++b) {
      const slab::Slab* s = e.buckets + b;
      while (true) {
        const std::uint32_t word = s->words[lane];
        bool key_lane;
        if constexpr (weighted)
          key_lane = lane < 2 * slab::kMapPairsPerSlab && (lane & 1) == 0;
        else
          key_lane = lane < slab::kSetKeysPerSlab;
        const bool hit = key_lane && slab::is_valid_key(word) && pred(vertex_t{word});
        const unsigned hits = tile.ballot(hit);
        if (hits) return tile.shfl(word, __ffs(hits) - 1);
        const std::uint32_t next = tile.shfl(word, slab::kNextWord);
        if (next == slab::kNullSlab) break;
        s = alloc_.pointer(next);
      }
    }
    return 0xFFFFFFFFu;
  }

  /// One thread: is v a neighbour of u? (read-only phases; u must be live, as for degree(u))
  __device__ bool has_edge(vertex_t u, vertex_t v) const {
    if constexpr (weighted) {
      std::uint32_t value;
      return table(u).find_thread(v, &value);
    } else {
      return table(u).contains_thread(v);
    }
  }
  /// has_edge, by its former name.
  __device__ bool has_edge_thread(vertex_t u, vertex_t v) const { return has_edge(u, v); }

 private:
  /// One chain from its base slab: f(key, value, slab_handle) per lane and slab (as for_each_slab).
  template <class F>
  __device__ void walk_chain(const warp_tile& tile, const slab::Slab* s, F&& f) const {
    const unsigned lane = tile.thread_rank();
    std::uint32_t handle = slab::kNullSlab;
    while (true) {
      const std::uint32_t word = s->words[lane];
      std::uint32_t key = slab::kEmptyKey, value = 0;
      if constexpr (weighted) {
        const std::uint32_t next_word = tile.shfl_down(word, 1);
        if (lane < 2 * slab::kMapPairsPerSlab && (lane & 1) == 0) {
          key = word;
          value = next_word;
        }
      } else {
        if (lane < slab::kSetKeysPerSlab) key = word;
      }
      const std::uint32_t next = tile.shfl(word, slab::kNextWord);
      f(key, value, handle);
      if (next == slab::kNullSlab) break;
      handle = next;
      s = alloc_.pointer(next);
    }
  }

  VertexEntry* vertices_ = nullptr;
  std::uint32_t* degrees_ = nullptr;
  const std::uint8_t* live_ = nullptr;
  std::uint32_t num_vertices_ = 0;
  slab::SlabAllocatorRef alloc_{};
};

// Both adjacencies model the graph concepts (graph/graph_concepts.hpp): the host object and its
// device view.
static_assert(wg::GpuDynamicGraph<DynamicGraph<SlabSetAdjacency>>);
static_assert(wg::GpuDynamicGraph<DynamicGraph<SlabMapAdjacency>>);
static_assert(wg::DeviceGraphView<DynamicGraphRef<SlabSetAdjacency>>);
static_assert(wg::DeviceGraphView<DynamicGraphRef<SlabMapAdjacency>>);

}  // namespace wg::gpu
