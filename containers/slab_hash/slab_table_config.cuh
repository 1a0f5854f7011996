#pragma once
// Configuration of the host slab tables (SlabTable<V>: SlabSet, SlabMap). Every field has a
// default; the tuning fields change speed only, never results or guarantees. The library reads no
// environment variable: benchmarks and tests fill these fields from their flags.
#include <cstdint>
#include <string>

#include <warpgraph/containers/slab_hash/slab_allocator.cuh>

namespace wg::slab {

/// Tuning of the 8-lane bulk insert kernel (SlabTableConfig::tile_lanes 8). Every choice gives the
/// same results and the same guarantees; only speed differs. Unsupported values round down to a
/// compiled variant (batch 1 / 4 / 8, block_threads 128 / 256 / 512).
struct BulkInsertPolicy {
  /// Base-slab reads an 8-lane tile issues before it decides and CASes: 1 (default: one task at a
  /// time, read -> CAS -> next task), 4 or 8 (the tile's tasks read their base slabs together,
  /// then every lane CASes its own key at once; lost races and full slabs go one at a time).
  /// Batches hold more registers, so fewer warps are resident: 1 is the default for that reason.
  std::uint32_t batch = 1;
  /// Threads per block: 128, 256 (default) or 512.
  std::uint32_t block_threads = 256;
  /// Sum the operation counters per block (shared memory) before the global atomics (default),
  /// instead of per warp: every warp of the grid adds to the same few counter words, whose
  /// atomics serialise in one L2 slice.
  bool block_counters = true;

  /// Reads "batch,block_threads,0|1" (e.g. "1,256,1"), for benchmarks and tests that take the
  /// policy from a flag or the environment. Throws wg::InvalidArgument on any other text.
  static BulkInsertPolicy parse(const std::string& text);
};

struct SlabTableConfig {
  /// Number of base buckets; 0 (default) = ceil(expected_keys / (load_factor * slots per slab)),
  /// at least 1.
  std::uint32_t num_buckets = 0;
  std::uint64_t expected_keys = 0;
  /// Keys per slot of the base slabs (the thesis' lf), default 0.6: 0.55-0.8 keeps most chains
  /// one slab long.
  double load_factor = 0.6;
  /// Pool of overflow slabs (the table owns its allocator).
  SlabAllocatorConfig allocator{1u << 14, 1, 1u << 17};
  /// Bulk insert / build: when the allocator runs out, grow it (doubling the super blocks, up to
  /// allocator.max_super_blocks) and run the batch again (inserts are idempotent). When false,
  /// or when the maximum is reached, they throw wg::CapacityError (the batch is then partly
  /// applied: the keys that found room are in the table). Default true.
  bool grow_on_exhaustion = true;
  /// With tile_lanes 32: tasks a warp starts at once in the bulk kernels (1 = plain WCWS, one task
  /// at a time; 4, 8 (default) or 16: the warp issues that many base-slab reads, then that many
  /// slot CASes, together, and falls back to plain WCWS for the tasks that need more: long
  /// chains, lost races). More reads in flight per warp hide memory latency.
  std::uint32_t lookahead = 8;
  /// Lanes per task in the bulk insert and find/contains kernels: 8 (default: a warp runs four
  /// tasks at once, each lane reading 16 bytes of the slab; inserts that need a new slab finish on
  /// the 32-lane path) or 32 (warp-cooperative work sharing, with `lookahead`). Eight lanes still
  /// read a whole slab in one request, with a quarter of the instructions per task.
  std::uint32_t tile_lanes = 8;
  /// Bulk insert kernel tuning with tile_lanes 8 (see BulkInsertPolicy for each field's default
  /// and reason).
  BulkInsertPolicy bulk_insert{};
};

}  // namespace wg::slab
