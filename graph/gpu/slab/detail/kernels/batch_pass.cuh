#pragma once
// One pass of a batch kernel: what it is given (BatchPass), what it counts (BatchCounters, per
// block through BlockTally) and how the last block reports to the host (report_counters), with
// the scratch each pass clears for the next batch.
//
// Part of wg::gpu::DynamicGraph's implementation (private to graph/gpu): device helpers and
// types of wg::gpu::detail, shared by the graph's kernel headers (no kernels here).
#include <warpgraph/graph/gpu/slab/detail/batch_dedup.cuh>
#include <warpgraph/graph/gpu/slab/detail/kernels/kernel_common.cuh>

namespace wg::gpu::detail {

/// Per-block sums of a kernel's counters: one global atomic per block and counter instead of
/// one per warp (every warp adds to the same few addresses, which serialise in L2).
/// Counters k = 0 .. kCounters-1 go to consecutive 64-bit words target[k].
template <int kCounters>
struct BlockTally {
  unsigned* shared;  // kCounters words of shared memory
  __device__ explicit BlockTally(unsigned* s) : shared(s) {
    if (threadIdx.x < kCounters) shared[threadIdx.x] = 0;
    __syncthreads();
  }
  /// Warp-wide: adds the lanes' values to counter k.
  __device__ void add(const warp_tile& tile, int k, unsigned value) {
    const unsigned sum = __reduce_add_sync(0xFFFFFFFFu, value);
    if (tile.thread_rank() == 0 && sum) atomicAdd(shared + k, sum);
  }
  /// Block-wide (every thread): adds counter k to target[k].
  __device__ void flush(unsigned long long* target) {
    __syncthreads();
    if (threadIdx.x < kCounters && shared[threadIdx.x])
      atomicAdd(target + threadIdx.x, static_cast<unsigned long long>(shared[threadIdx.x]));
  }
};

/// Outcome of one rebuild, in device memory (zeroed before it; BatchCounters holds a batch's).
struct RebuildStatus {
  unsigned long long ok;            ///< 1: room claimed, tables rebuilt (unless `failed`)
  unsigned long long base;          ///< first arena slab of this rebuild
  unsigned long long failed;        ///< re-inserts that found no free slab (old tables kept)
  unsigned long long need_buckets;  ///< > 0: not done for lack of arena room (kRoundNotPlanned:
                                    ///< too many tables for a chained round's one-block plan)
  unsigned long long buckets;       ///< base buckets claimed for the new tables (0: none needed)
};

struct BatchCounters {
  unsigned long long applied, self_loops, duplicates, ignored;  // in this order (BlockTally)
  unsigned long long resize;        ///< vertices listed for a rebuild (tables at their limit)
  unsigned long long retry[2];      ///< owners with arcs left to do, per retry pass parity
  unsigned long long out_of_slabs;  ///< arcs that found the allocator exhausted
  RebuildStatus rebuild;            ///< the batch's table rebuild, if any
  unsigned long long claimers;      ///< filtered batches: entries that claim (pass 1 counts)
  unsigned long long fixups;        ///< entries listed in BatchPass::last_fixups
  unsigned long long blocks_done;   ///< blocks of the running pass that have finished
};

/// What the last block of a pass leaves in host-mapped memory: each counter word tagged with the
/// pass's sequence number in its top kReportTagBits bits. Each word is one 8-byte store, so the
/// host takes the report once every word carries the pass's tag: no flag written after a
/// system-scope fence, which the host would wait for too. Counts stay below 2^kReportCountBits
/// (entries of one batch, slabs of one GPU).
struct BatchReport {
  BatchCounters counters;
  /// The tag of a first pass that has listed a table for a rebuild, written by the first listing
  /// while the pass runs: the host, which waits for the pass anyway, queues the rebuild round
  /// behind it at once (DynamicGraph's chained rounds).
  unsigned long long listed;
};
constexpr unsigned kReportCountBits = 40, kReportTagBits = 64 - kReportCountBits;
constexpr unsigned long long kReportCountMask = (1ull << kReportCountBits) - 1;
/// RebuildStatus::need_buckets of a chained round that listed more tables than its one-block
/// plan takes: not done (the retry pass holds the owners back, as for a lack of arena room), and
/// the host plans the round itself. A count the report carries (below 2^kReportCountBits) that no
/// arena reaches.
constexpr unsigned long long kRoundNotPlanned = kReportCountMask;
/// Threads of the one-block rebuild plan (rebuild_kernels.cuh, plan_scan_claim_kernel) and the
/// most tables it plans: a chained round lists at most kPlanBlockItems tables.
constexpr int kPlanBlock = 1024;
constexpr std::uint64_t kPlanBlockItems = 8 * kPlanBlock;
__host__ __device__ constexpr unsigned long long report_tag(unsigned long long sequence) {
  return (sequence & ((1ull << kReportTagBits) - 1)) << kReportCountBits;
}

struct BatchPass {
  const vertex_t* src;
  const vertex_t* dst;
  const std::uint32_t* values;          ///< weighted inserts (null: 0)
  std::uint64_t n;                      ///< entries (or retry items)
  const unsigned long long* retry_in;   ///< non-null: a retry pass over (entry << 8 | state)
  unsigned long long* retry_out;        ///< owners to retry after the allocator grows
  unsigned long long* retry_out_count;  ///< their count
  vertex_t* resize;                     ///< vertices whose tables need more buckets
  std::uint32_t* deferred;              ///< per vertex: arcs deferred until its rebuild
  BatchCounters* counters;
  detail::BatchDedupRef dedup;
  double resize_keys_per_bucket;      ///< max keys per base bucket before a rebuild (0: never)
  bool both;                          ///< undirected: both arcs, canonical u < v
  BatchReport* report;                ///< host-mapped: the last block copies *counters there
  uint4* clear;                       ///< scratch of the previous batch, zeroed by this kernel
  std::uint64_t clear_words;          ///< its length in 16-byte words
  bool eager_erase;                   ///< erases: every live entry erases, not only owners
  detail::BatchFilterRef filter;      ///< large batches: only entries it flags claim in `dedup`
  std::uint32_t* claimed;             ///< filtered batches: bitmap of the dedup slots claimed
  unsigned long long* clear_keys;     ///< previous batch's dedup table, if it was filtered,
  std::uint32_t* clear_claimed;       ///< the bitmap of its claimed slots (both zeroed by this
  std::uint64_t clear_claimed_words;  ///< kernel) and the bitmap's length in words
  std::uint32_t* clear_last;          ///< and its last-entry array (weighted inserts) or null
  const std::uint64_t* keys;    ///< sorted batches: the entries as sorted edge keys (else null)
  unsigned key_bits;            ///< their layout: (u << key_bits) | v; all ones: no edge
  unsigned long long sequence;  ///< tags the report's words (report_tag)
  /// A build's first batch, into tables just sized for its raw arcs, with zero degrees: an arc
  /// into a table of one bucket takes the slot its degree's increment returns (place_fresh_arc).
  bool fresh_tables = false;
  /// Weighted inserts deduplicated in the table (no last-entry pass): every entry records its
  /// index + 1 in dedup.last[slot] (atomicMax), owners insert their own values, and each
  /// duplicate lists two words here, (slot << 32 | entry) and its value; after the batch,
  /// assign_last_values_kernel gives each listed edge whose last entry was a duplicate that
  /// entry's value. Null otherwise.
  unsigned long long* last_fixups = nullptr;
  /// A retry pass queued before the pass it follows ended: its item count, on the device (`n`
  /// then bounds it and sizes the grid). Null: `n` is the count.
  const unsigned long long* n_from = nullptr;
};

/// A sorted batch's key k as its edge, or false for a key that stands for no edge.
__device__ __forceinline__ bool decode_sorted_key(const BatchPass& p, std::uint64_t k, vertex_t& u,
                                                  vertex_t& v) {
  const std::uint64_t mask = (std::uint64_t{1} << p.key_bits) - 1;
  u = static_cast<vertex_t>(k >> p.key_bits);
  v = static_cast<vertex_t>(k & mask);
  return k != ((mask << p.key_bits) | mask);
}
/// A sorted batch's entry i: its edge, or false for a key that stands for no edge.
__device__ __forceinline__ bool sorted_entry(const BatchPass& p, std::uint64_t i, vertex_t& u,
                                             vertex_t& v) {
  return decode_sorted_key(p, p.keys[i], u, v);
}

/// The pass's last block to finish copies the counters to the host-mapped report, each word
/// tagged with the pass's sequence number (so the host needs neither a copy of its own nor, for
/// short passes, a stream synchronisation: it waits for the tags), and re-arms blocks_done for
/// the next pass. Every thread of the block calls it after its last update of the counters.
// (static: one copy per translation unit that launches a pass, as the kernels that call it.)
static __device__ void report_counters(const BatchPass& p) {
  BatchCounters* const counters = p.counters;
  __shared__ bool last;
  __syncthreads();  // the block's counter updates happen before thread 0's release and ticket
  if (threadIdx.x == 0) {
    __threadfence();
    last = atomicAdd(&counters->blocks_done, 1ull) == gridDim.x - 1ull;
  }
  __syncthreads();
  if (!last || threadIdx.x >= 32) return;
  // The first warp of the last block copies a word per lane: the copy is on the critical path
  // of every batch (the host waits for it), and one thread's volatile loads and stores would
  // run one after another.
  constexpr unsigned kWords = sizeof(BatchCounters) / sizeof(unsigned long long);
  static_assert(kWords <= 32);
  __threadfence();  // every block's updates (behind their tickets) before the reads
  const volatile unsigned long long* from =
      reinterpret_cast<const volatile unsigned long long*>(counters);
  volatile unsigned long long* to =
      reinterpret_cast<volatile unsigned long long*>(&p.report->counters);
  const unsigned long long tag = report_tag(p.sequence);
  constexpr unsigned kBlocksDone =
      offsetof(BatchCounters, blocks_done) / sizeof(unsigned long long);
  if (threadIdx.x < kWords) {
    const unsigned long long word = from[threadIdx.x];
    if (threadIdx.x == kBlocksDone) counters->blocks_done = 0;  // after its own read
    to[threadIdx.x] = (word & kReportCountMask) | tag;
  }
}

/// Zeroes `words` 16-byte words at p with the whole grid.
__device__ __forceinline__ void grid_zero(uint4* p, std::uint64_t words) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < words;
       i += stride)
    p[i] = make_uint4(0, 0, 0, 0);
}

/// Clears the previous batch's scratch (see BatchPass::clear*) with the whole grid: its prefix,
/// and for a filtered batch each claimed dedup slot, then the bitmap word that listed it (one
/// thread per word, so no word is zeroed before its slots are).
__device__ __forceinline__ void clear_previous_scratch(const BatchPass& p) {
  grid_zero(p.clear, p.clear_words);
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t w = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
       w < p.clear_claimed_words; w += stride) {
    std::uint32_t bits = p.clear_claimed[w];
    if (!bits) continue;
    for (; bits; bits &= bits - 1) {
      const std::uint64_t slot = w * 32 + __ffs(bits) - 1;
      p.clear_keys[slot] = 0;
      if (p.clear_last) p.clear_last[slot] = 0;
    }
    p.clear_claimed[w] = 0;
  }
}

/// Canonical edge of entry (u, v), or false for a self-loop / invalid id (counted).
template <class Ref>
__device__ __forceinline__ bool classify_entry(const Ref& g, const BatchPass& p, vertex_t& u,
                                               vertex_t& v, unsigned& self, unsigned& ignored) {
  if (u == v) {
    ++self;
    return false;
  }
  if (!g.is_live(u) || !g.is_live(v)) {
    ++ignored;
    return false;
  }
  if (p.both && u > v) {
    const vertex_t t = u;
    u = v;
    v = t;
  }
  return true;
}

}  // namespace wg::gpu::detail
