#pragma once
// Configuration of the host slab hash objects (SlabSet, SlabMap).
#include <cstdint>

#include <warpgraph/containers/slab_hash/slab_allocator.cuh>

namespace wg::slab {

struct SlabTableConfig {
  /// Number of base buckets; 0 = ceil(expected_keys / (load_factor * slots per slab)), >= 1.
  std::uint32_t num_buckets = 0;
  std::uint64_t expected_keys = 0;
  /// Keys per slot of the base slabs (the thesis' lf): 0.55-0.8 keeps most chains one slab long.
  double load_factor = 0.6;
  /// Pool of overflow slabs (the table owns its allocator).
  SlabAllocatorConfig allocator{1u << 14, 1, 1u << 17};
  /// Bulk insert / build: when the allocator runs out, grow it (doubling the super blocks, up to
  /// allocator.max_super_blocks) and run the batch again (inserts are idempotent). When false,
  /// or when the maximum is reached, they throw wg::CapacityError (the batch is then partly
  /// applied: the keys that found room are in the table).
  bool grow_on_exhaustion = true;
  /// With tile_lanes 32: tasks a warp starts at once in the bulk kernels (1 = plain WCWS, one task
  /// at a time; 4, 8 or 16: the warp issues that many base-slab reads, then that many slot CASes,
  /// together, and falls back to plain WCWS for the tasks that need more: long chains, lost races).
  std::uint32_t lookahead = 8;
  /// Lanes per task in the bulk insert and find/contains kernels: 8 (a warp runs four tasks at
  /// once, each lane reading 16 bytes of the slab; inserts that need a new slab finish on the
  /// 32-lane path) or 32 (warp-cooperative work sharing, with `lookahead`).
  std::uint32_t tile_lanes = 8;
};

}  // namespace wg::slab
