#pragma once
// SlabPools: the memory of a graph's adjacency tables (private to graph/gpu).
//
// Contract
//  - Base buckets live in pools (DeviceBuffer<Slab>): one per bulk build or growth of the id
//    range, plus the arena that rebuilt tables take their buckets from. A pool is freed whole,
//    never slab by slab: when a build replaces every table (build_pool) or compaction moves
//    them all (RebuildPlanner::compact).
//  - Overflow slabs come from one slab allocator, shared by all tables, which grows by doubling
//    its super blocks when a pass finds it exhausted (make_room), up to
//    GraphOptions::max_overflow_slabs; past that, CapacityError.
//  - Every call is stream-ordered on the graph's stream; none synchronises unless it says so.
#include <cstdint>
#include <vector>

#include <warpgraph/containers/slab_hash/slab_allocator.cuh>
#include <warpgraph/containers/slab_hash/slab_layout.cuh>
#include <warpgraph/graph/gpu/slab/detail/graph_context.cuh>
#include <warpgraph/containers/core/device_buffer.cuh>

namespace wg::gpu::detail {

class SlabPools {
 public:
  SlabPools(GraphContext& ctx, const char* allocator_name);

  /// The allocator's configuration for the graph's options.
  static slab::SlabAllocatorConfig allocator_config(const GraphOptions& o);

  /// The pool of a build's tables (the tables before it are dropped): the largest pool they
  /// held when it has room for `slabs`, else a new one. Empty unless `fill` is false (its user
  /// fills it).
  slab::Slab* build_pool(std::uint64_t slabs, bool fill);
  /// Frees every table's base buckets (their vertices' handles must be reset before use).
  void release_pools();
  /// A new pool of base buckets, empty unless `fill` is false (its user fills it).
  slab::Slab* new_pool(std::uint64_t slabs, bool fill = true);
  /// Keeps `pool` as the only pool of base buckets (compaction moved every table there), and
  /// frees the arena.
  void replace_pools(DeviceBuffer<slab::Slab>&& pool);

  /// A fresh arena of at least `slabs` empty slabs (the old one stays: tables point into it).
  void new_arena(std::uint64_t slabs);
  /// Drops the arena (a build replaces every table).
  void drop_arena();

  /// Doubles the allocator `a` (the graph's by default), or throws CapacityError when it is at
  /// its maximum or GPU memory is short.
  void grow_allocator() { grow_allocator(alloc); }
  void grow_allocator(slab::SlabAllocator& a);
  /// For a pass that found the allocator exhausted: grows it. At its maximum size, the pass may
  /// have failed for the slabs that racing appends to one chain hold for a moment (each gives its
  /// slab back when another links first): while passes make progress (`progressed`), the next
  /// one runs on the same slabs; when one did not, throws CapacityError.
  void make_room(bool progressed);
  bool allocator_at_max() const;

  /// Device memory of the pools, the arena and the allocator.
  std::uint64_t memory_bytes() const { return pool_bytes_ + alloc.memory_bytes(); }

  slab::SlabAllocator alloc;
  DeviceBuffer<slab::Slab> arena;  // base buckets of rebuilt tables, handed out by arena_used
  std::uint64_t arena_capacity = 0;
  DeviceBuffer<unsigned long long> arena_used;  // device word

 private:
  GraphContext& ctx_;
  std::vector<DeviceBuffer<slab::Slab>> pools_;
  std::uint64_t pool_bytes_ = 0;
};

}  // namespace wg::gpu::detail
