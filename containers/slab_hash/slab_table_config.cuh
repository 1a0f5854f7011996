#pragma once
// Configuration of the host slab hash objects (SlabSet, SlabMap).
#include <cstdint>

#include <warpgraph/containers/slab_hash/slab_allocator.cuh>

namespace wg::slab {

/// Tuning of the 8-lane bulk insert kernel (tile_lanes 8). Every choice gives the same results and
/// the same guarantees; only speed differs. Unsupported values round down to a compiled one.
/// The default is the fastest on an H100 (tools/bench/slab_hash/RESULTS.md, insert tuning).
/// The environment variable WG_SLAB_BULK_INSERT="batch,block_threads,block_counters" (e.g.
/// "1,256,1") overrides it for every table built afterwards (a tuning / testing hook).
struct BulkInsertPolicy {
  /// Base-slab reads an 8-lane tile issues before it decides and CASes: 1 (one task at a time:
  /// read -> CAS -> next task), 4 or 8 (the tile's tasks read their base slabs together, then
  /// every lane CASes its own key at once; lost races and full slabs go one at a time). Batches
  /// cost registers (occupancy) and measured slower on the H100.
  std::uint32_t batch = 1;
  /// Threads per block: 128, 256 or 512.
  std::uint32_t block_threads = 256;
  /// Sum the operation counters per block (shared memory) before the global atomics, instead of
  /// per warp: every warp of the grid adds to the same few counter words, and those atomics
  /// serialise in one L2 slice (the main cost of the per-warp form at 2^22 keys).
  bool block_counters = true;
};

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
  /// Bulk insert kernel tuning with tile_lanes 8.
  BulkInsertPolicy bulk_insert{};
};

}  // namespace wg::slab
