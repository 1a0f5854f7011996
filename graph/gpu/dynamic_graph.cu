// wg::gpu::DynamicGraph: kernels and host logic. Instantiated here for the set and map
// adjacency policies (users never instantiate the heavy parts).
#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/warp_primitives.cuh>
#include <warpgraph/containers/core/work_sharing.cuh>
#include <warpgraph/containers/slab_hash/slab_map_tile.cuh>
#include <warpgraph/containers/slab_hash/slab_set_tile.cuh>
#include <warpgraph/graph/gpu/detail/batch_dedup.cuh>
#include <warpgraph/graph/gpu/detail/batch_prep.hpp>
#include <warpgraph/graph/gpu/detail/host_batch.hpp>
#include <warpgraph/graph/gpu/detail/launch_grid.hpp>
#include <warpgraph/graph/gpu/detail/table_sizing.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/gpu/graph_ref.cuh>

namespace wg::gpu {
namespace {

using detail::grid_for;
using detail::kBlock;
// Kernels using warp_stride_loop deal 32 items per warp: grid_for(items). Warp-per-item
// kernels (one vertex per warp): warp_grid_for(items).
unsigned warp_grid_for(std::uint64_t items) {
  return grid_for(items * 32);
}

struct Counters {
  unsigned long long a, b, c, d;
};

__device__ __forceinline__ void warp_add(const warp_tile& tile, unsigned long long* target,
                                         unsigned value) {
  value = __reduce_add_sync(0xFFFFFFFFu, value);
  if (tile.thread_rank() == 0 && value) atomicAdd(target, static_cast<unsigned long long>(value));
}

// ---- vertex dictionary ---------------------------------------------------------------------

__global__ void init_entries_kernel(VertexEntry* entries, std::uint32_t* degrees,
                                    std::uint64_t first, std::uint64_t count, slab::Slab* pool,
                                    const std::uint64_t* offsets) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    VertexEntry e;
    if (offsets) {
      e.buckets = pool + offsets[i];
      e.num_buckets = static_cast<std::uint32_t>(offsets[i + 1] - offsets[i]);
    } else {
      e.buckets = pool + i;
      e.num_buckets = 1;
    }
    e.reserved = 0;
    entries[first + i] = e;
    degrees[first + i] = 0;
  }
}

__global__ void scatter_bytes_kernel(std::uint8_t* target, const vertex_t* ids, std::uint64_t n,
                                     std::uint8_t value) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    target[ids[i]] = value;
}

__global__ void build_degree_kernel(const std::uint64_t* keys, std::uint64_t m, unsigned bits,
                                    bool both, unsigned long long* degree) {
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint64_t k = keys[i];
    atomicAdd(&degree[k >> bits], 1ull);
    if (both) atomicAdd(&degree[k & mask], 1ull);
  }
}

// Arcs per vertex of a raw batch (self-loops and out-of-range entries skipped; duplicates
// counted, so the tables are sized for at most the batch's arcs). `zero`, if given, is set to 0:
// a counter of the next kernel, which saves a memset. `empty`, if given, gets `slabs` empty
// slabs: a small build's pool, whose stores overlap the atomics' latency here.
template <class Count>
__global__ void raw_degree_kernel(DeviceEdges e, std::uint64_t n, bool both, Count* degree,
                                  unsigned long long* zero = nullptr, slab::Slab* empty = nullptr,
                                  std::uint64_t slabs = 0) {
  if (zero && blockIdx.x == 0 && threadIdx.x == 0) *zero = 0;
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  const std::uint64_t tid = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  uint4* const words = reinterpret_cast<uint4*>(empty);
  for (std::uint64_t w = tid; w < slabs * (sizeof(slab::Slab) / sizeof(uint4)); w += stride)
    words[w] = make_uint4(~0u, ~0u, ~0u, ~0u);
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < e.size;
       i += stride) {
    const vertex_t u = e.src[i], v = e.dst[i];
    if (u == v || u >= n || v >= n) continue;
    atomicAdd(&degree[u], Count{1});
    if (both) atomicAdd(&degree[v], Count{1});
  }
}

__global__ void buckets_kernel(unsigned long long* degree_in_buckets_out, std::uint64_t n,
                               double load_factor, unsigned slab_capacity) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    degree_in_buckets_out[i] = detail::buckets_for(static_cast<double>(degree_in_buckets_out[i]),
                                                   load_factor * slab_capacity);
  }
}

/// Sizes each vertex's table for the d raw arcs counted in raw[i] (then zeroed, as the graph's
/// incoming[] is between calls), as buckets_kernel does, without a scan: one bucket is pool[i],
/// several are a run taken from pool[n..] by a bump counter (`used`, zero); raw_degree_kernel
/// filled the pool empty (with the whole grid: a hub's thread filling its own run held up
/// facebook_combined's build). Degrees are zeroed and ids 0..n-1 marked live.
__global__ void size_small_tables_kernel(VertexEntry* entries, std::uint32_t* degree,
                                         std::uint32_t* raw, std::uint8_t* live, std::uint64_t n,
                                         slab::Slab* pool, double per_bucket,
                                         unsigned long long* used) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const auto nb = detail::buckets_for<std::uint32_t>(static_cast<double>(raw[i]), per_bucket);
    raw[i] = 0;
    VertexEntry e;
    e.buckets =
        nb == 1 ? pool + i : pool + n + atomicAdd(used, static_cast<unsigned long long>(nb));
    e.num_buckets = nb;
    e.reserved = 0;
    entries[i] = e;
    degree[i] = 0;
    live[i] = 1;
  }
}

/// Adds each lane's `count` to degree[x] with one atomic per distinct x in the warp (batches
/// are sorted by source, so a warp's lanes mostly share it: hubs would serialise on atomics).
__device__ __forceinline__ void add_degrees(const warp_tile& tile, std::uint32_t* degrees,
                                            vertex_t x, bool valid, int delta) {
  const WarpPeers p = warp_peers(tile, valid && delta != 0, x);
  if (p.leader)
    atomicAdd(degrees + x, static_cast<std::uint32_t>(static_cast<int>(p.size) * delta));
}

// ---- edge batches ---------------------------------------------------------------------------

template <class Table>
__device__ __forceinline__ slab::InsertOutcome table_insert(const warp_tile& tile, const Table& t,
                                                            std::uint32_t key,
                                                            std::uint32_t value) {
  if constexpr (std::is_same_v<Table, slab::MapTableRef>)
    return t.insert_or_assign(tile, key, value);
  else
    return t.insert(tile, key);
}

enum class BatchOp { insert, erase };

/// How a batch's tiled tasks read the first slab of a chain (slab::FirstRead): through L1 (one
/// L2 request per 32-byte sector; a stale copy costs a failed CAS and a second read), except
/// where that measured slower on the H100 (builds side by side, tools/bench/RESULTS.md):
/// - map inserts of a sorted batch, whose warps share a vertex's chains (through L1: 6% and
///   10% slower at 2^21 and 2^22);
/// - set erases of 2^18 entries or more (through L1: +1-10% at 2^16-2^17, 2-5% slower at
///   2^18-2^19: more warps share each L1).
__host__ __device__ constexpr slab::FirstRead batch_first_read(BatchOp op, bool weighted,
                                                               bool sorted, std::uint64_t n) {
  if (op == BatchOp::insert)
    return weighted && sorted ? slab::FirstRead::relaxed : slab::FirstRead::cached;
  return weighted || n < (std::uint64_t{1} << 18) ? slab::FirstRead::cached
                                                  : slab::FirstRead::relaxed;
}

/// Exclusive insert of one arc (the caller owns the key) with a tile of T <= 8 lanes:
/// slab::tiled_inserted (state bits 1 | 2), tiled_present (bit 1; a map assigned the value) or
/// tiled_needs_warp (the chain needs a new slab and the tile got none: the 32-lane insert
/// allocates). kFirst: how the chain's first slab is read (slab::FirstRead; the batch kernels'
/// choice: batch_first_read).
template <slab::FirstRead kFirst = slab::FirstRead::cached, class Ref, class Tile>
__device__ __forceinline__ int insert_arc_tiled(const Tile& tt, const Ref& g, const VertexEntry& e,
                                                std::uint32_t key, std::uint32_t value) {
  if constexpr (Ref::weighted)
    return slab::map_insert_or_assign_exclusive_tiled<kFirst>(g.table_at(e), tt, key, value);
  else
    return slab::set_insert_exclusive_tiled<kFirst>(g.table_at(e), tt, key);
}
template <class Table>
__device__ __forceinline__ std::uint32_t insert_arc(const warp_tile& tile, const Table& t,
                                                    std::uint32_t key, std::uint32_t value) {
  slab::InsertOutcome out;
  if constexpr (std::is_same_v<Table, slab::MapTableRef>)
    out = t.insert_or_assign_exclusive(tile, key, value);
  else
    out = t.insert_exclusive(tile, key);
  if (out == slab::InsertOutcome::inserted) return 3u;  // done, new
  if (out == slab::InsertOutcome::present) return 1u;   // done
  return 0u;                                            // out of slabs: retry
}
/// Erase of one arc with a tile of T <= 8 lanes: true iff it was present. kFirst as above.
template <slab::FirstRead kFirst, class Ref, class Tile>
__device__ __forceinline__ bool erase_arc_tiled(const Tile& tt, const Ref& g, const VertexEntry& e,
                                                std::uint32_t key) {
  if constexpr (Ref::weighted)
    return slab::map_erase_tiled<kFirst>(g.table_at(e), tt, key);
  else
    return slab::set_erase_tiled<kFirst>(g.table_at(e), tt, key);
}

/// The arcs of one edge not yet done, inserted by a tile: `insert_arc(reverse)` inserts the
/// forward or the reverse arc and returns a TiledInsertOutcome. State bits: 1 forward arc done,
/// 2 forward arc was new, 4 reverse arc done, 8 reverse arc was new; returns the new state and
/// adds to `left` the arcs whose chains need the 32-lane insert (1 forward, 2 reverse; the
/// reverse arc waits for a forward one left there).
template <bool kWeighted, class InsertArc>
__device__ __forceinline__ std::uint32_t insert_edge_arcs_tiled(std::uint32_t st, bool both,
                                                                unsigned& left,
                                                                InsertArc&& insert_arc) {
  std::uint32_t ns = st;
  if (!(st & 1u)) {
    const int o = insert_arc(false);
    if (o < 0)
      left |= 1u;
    else
      ns |= static_cast<std::uint32_t>(o);
  }
  if (both && !(st & 4u)) {
    // Both arcs are present or absent together: a set need not look at the reverse arc of an
    // edge found present (a map must, to assign its value).
    if (!kWeighted && (ns & 3u) == 1u && !(st & 1u)) {
      ns |= 4u;
    } else if (left) {
      left |= 2u;
    } else {
      const int o = insert_arc(true);
      if (o < 0)
        left |= 2u;
      else
        ns |= static_cast<std::uint32_t>(o) << 2;
    }
  }
  return ns;
}

// ---- prepared batches (unique canonical edges in key order) ----------------------------------
// Every arc of a prepared batch is its edge's only one, so a thread inserts or erases it alone
// (one-thread exclusive operations, a batch's chain walks all in flight at once); only an
// insert whose chain needs a new slab that the thread could not get goes to the 32-lane insert.

// state bits per prepared edge: 1 forward arc done, 2 forward arc was new, 4 reverse arc done,
// 8 reverse arc was new. Re-launched after the allocator grows, for the arcs not done.
template <class Adj>
__global__ void insert_prepared_kernel(DynamicGraphRef<Adj> g, const std::uint64_t* keys,
                                       const std::uint32_t* values, std::uint64_t m, unsigned bits,
                                       bool both, std::uint8_t* state, Counters* counters) {
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  const thread_tile one{};
  unsigned added = 0, failed = 0;
  warp_stride_loop(m, [&](const warp_tile& tile, std::uint64_t i, bool active) {
    const std::uint32_t st = active ? state[i] : 0xFFu;
    const bool todo = active && (!(st & 1u) || (both && !(st & 4u)));
    const std::uint64_t key = todo ? keys[i] : 0;
    const std::uint32_t value = (todo && values) ? values[i] : 0u;
    const vertex_t u = static_cast<vertex_t>(key >> bits), v = static_cast<vertex_t>(key & mask);
    const VertexEntry eu = todo ? g.load_entry(u) : VertexEntry{};
    const VertexEntry ev = (todo && both) ? g.load_entry(v) : VertexEntry{};
    std::uint32_t ns = st;
    unsigned left = 0;  // arcs for the 32-lane loop: 1 forward, 2 reverse
    if (todo)
      ns = insert_edge_arcs_tiled<Adj::weighted>(st, both, left, [&](bool reverse) {
        constexpr slab::FirstRead kFirst =
            batch_first_read(BatchOp::insert, Adj::weighted, /*sorted=*/true, 0);
        return reverse ? insert_arc_tiled<kFirst>(one, g, ev, u, value)
                       : insert_arc_tiled<kFirst>(one, g, eu, v, value);
      });
    for_each_active_lane(tile, left != 0, [&](int src) {
      const unsigned arcs = tile.shfl(left, src);
      const std::uint32_t val = tile.shfl(value, src);
      std::uint32_t r = tile.shfl(ns, src);
      if (arcs & 1u) {
        const std::uint32_t o =
            insert_arc(tile, g.table_at(shfl_entry(tile, eu, src)), tile.shfl(v, src), val);
        failed += o == 0;
        r |= o;
      }
      if (arcs & 2u) {
        if (!Adj::weighted && (r & 3u) == 1u) {
          r |= 4u;
        } else if (r & 1u) {
          const std::uint32_t o =
              insert_arc(tile, g.table_at(shfl_entry(tile, ev, src)), tile.shfl(u, src), val);
          failed += o == 0;
          r |= o << 2;
        }
      }
      if (static_cast<int>(tile.thread_rank()) == src) ns = r;
    });
    const bool fwd_new = todo && (ns & 2u) && !(st & 2u);
    const bool rev_new = todo && (ns & 8u) && !(st & 8u);
    add_degrees(tile, g.degree_ptr(0), u, fwd_new, 1);
    add_degrees(tile, g.degree_ptr(0), v, rev_new, 1);
    if (todo) {
      state[i] = static_cast<std::uint8_t>(ns);
      if (fwd_new) ++added;
    }
  });
  const warp_tile tile = this_warp();
  warp_add(tile, &counters->a, added);
  warp_add(tile, &counters->b, failed);  // counted by all lanes: > 0 is what matters
}

// is_new[i] = the forward arc of prepared edge i was added (state bit 2).
__global__ void state_to_flags_kernel(const std::uint8_t* state, std::uint64_t n,
                                      std::uint8_t* is_new) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    is_new[i] = (state[i] & 2u) ? 1 : 0;
}

template <class Adj>
__global__ void erase_prepared_kernel(DynamicGraphRef<Adj> g, const std::uint64_t* keys,
                                      std::uint64_t m, unsigned bits, bool both,
                                      std::uint8_t* was_present, Counters* counters) {
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  const thread_tile one{};
  unsigned removed = 0;
  warp_stride_loop(m, [&](const warp_tile& tile, std::uint64_t i, bool active) {
    const std::uint64_t key = active ? keys[i] : 0;
    const vertex_t u = static_cast<vertex_t>(key >> bits), v = static_cast<vertex_t>(key & mask);
    const VertexEntry eu = active ? g.load_entry(u) : VertexEntry{};
    const VertexEntry ev = (active && both) ? g.load_entry(v) : VertexEntry{};
    constexpr slab::FirstRead kFirst = slab::kDefaultEraseRead<Adj::weighted>;
    const bool hit = active && erase_arc_tiled<kFirst>(one, g, eu, v);
    // Both arcs are present or absent together.
    const bool rev = both && hit && erase_arc_tiled<kFirst>(one, g, ev, u);
    add_degrees(tile, g.degree_ptr(0), u, hit, -1);
    add_degrees(tile, g.degree_ptr(0), v, rev, -1);
    if (active) {
      if (was_present) was_present[i] = hit;
      removed += hit;
    }
  });
  warp_add(this_warp(), &counters->a, removed);
}

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

/// Fetches the first slab of key's bucket in `table` into L2.
template <class Table>
__device__ __forceinline__ void prefetch_bucket(const Table& table, std::uint32_t key) {
  if (table.num_buckets()) slab::detail::prefetch_l2(table.buckets() + table.hash_bucket(key));
}

// ---- direct batches: dedup by hashing, one fused kernel per batch ---------------------------
// insert_edges / erase_edges on a raw batch: each entry is classified (self-loop, invalid id,
// duplicate, owner of its edge) and the owner applies the edge's arcs, all in one kernel (two
// for batches of 2^19 entries and more, whose first marks the dedup filter, and for weighted
// inserts, whose first finds each edge's last entry). Erases of 2^21 entries and more are
// sorted into edge order instead (detail::pack_edge_keys and a CUB radix sort before the
// kernel). The sorted path (prepare + *_prepared) stays for callers that need the batch in key
// order (incremental triangle counting).

/// Outcome of one rebuild, in device memory (zeroed before it).
struct RebuildStatus {
  unsigned long long ok;            ///< 1: room claimed, tables rebuilt (unless `failed`)
  unsigned long long base;          ///< first arena slab of this rebuild
  unsigned long long failed;        ///< re-inserts that found no free slab (old tables kept)
  unsigned long long need_buckets;  ///< > 0: not done for lack of arena room
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
};
constexpr unsigned kReportCountBits = 40, kReportTagBits = 64 - kReportCountBits;
constexpr unsigned long long kReportCountMask = (1ull << kReportCountBits) - 1;
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
__device__ void report_counters(const BatchPass& p) {
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

// Weighted inserts, pass 1: the last entry of each edge is the one whose weight is applied.
// Behind a filter only the entries that must claim do (an edge's only entry is its last).
template <class Adj, int kItems>
__global__ void __launch_bounds__(kBlock) last_entry_kernel(DynamicGraphRef<Adj> g, BatchPass p) {
  unsigned self = 0, ignored = 0;         // counted in pass 2
  detail::BatchDedupRef dedup = p.dedup;  // the part of the table apply_batch_kernel claims in
  if (p.filter.active()) dedup.mask = detail::claim_mask(p.counters->claimers, p.dedup.mask);
  warp_stride_loop<kItems>(p.n, [&](const warp_tile&, std::uint64_t i, bool active) {
    if (!active) return;
    vertex_t u = p.src[i], v = p.dst[i];
    if (!classify_entry(g, p, u, v, self, ignored)) return;
    const std::uint64_t key = (std::uint64_t{u} << 32) | v;
    if (p.filter.active() && !p.filter.must_claim(key)) return;
    bool first;
    const std::uint64_t slot = dedup.claim(key, &first);
    if (first && p.filter.active()) dedup.note_claim(p.claimed, slot);
    atomicMax(dedup.last + slot, static_cast<std::uint32_t>(i + 1));
  });
}

/// Whether an arc into x's table (handle e, `degree` keys when the item was loaded) must wait
/// for the table's rebuild: the table holds max_load_factor x its base capacity already. Then the
/// arc is deferred (counted in deferred[x], which plans the new size) and x is listed for a rebuild
/// by the first such arc. Keeps chains short when a batch brings a vertex many more arcs than its
/// buckets were sized for (incremental build, a batch whose hubs are new vertices).
template <class Ref>
__device__ __forceinline__ bool defer_arc(const Ref& g, const BatchPass& p, vertex_t x,
                                          const VertexEntry& e, std::uint32_t degree) {
  (void)g;
  if (!(p.resize_keys_per_bucket > 0)) return false;
  if (degree < p.resize_keys_per_bucket * e.num_buckets) return false;
  if (atomicAdd(p.deferred + x, 1u) == 0) p.resize[atomicAdd(&p.counters->resize, 1ull)] = x;
  return true;
}

/// A build's arc into a fresh table (BatchPass::fresh_tables) of one bucket, with one thread:
/// 3 (done, new), or slab::tiled_needs_warp when the slab is full, which leaves the arc to the
/// retry pass. The table's degree (zero before the batch, and counting only the arcs placed
/// here: the tables of several buckets, which the kernel inserts into, count theirs after) is
/// the next free slot, so an arc is one atomic and one store instead of a slab read and a CAS;
/// every arc has one owner, so nothing is stored twice, and no chain walk reads these slabs
/// while the kernel runs. A table of one bucket was sized for at most load_factor x slots raw
/// arcs, so only a load factor above 1 fills the slab: the arc gives its reservation back
/// (the count never drops below the slots, so no slot is handed out twice) and the retry pass
/// inserts it into the chain after every placement.
template <class Ref>
__device__ __forceinline__ int place_fresh_arc(const Ref& g, vertex_t x, const VertexEntry& e,
                                               std::uint32_t key, std::uint32_t value) {
  const std::uint32_t slot = atomicAdd(g.degree_ptr(x), 1u);
  if (slot >= Ref::table_ref::kSlotsPerSlab) {
    atomicSub(g.degree_ptr(x), 1u);
    return slab::tiled_needs_warp;
  }
  if constexpr (Ref::weighted)
    *slab::detail::MapSlots::slot(e.buckets, slot) = slab::detail::make_pair(key, value);
  else
    *slab::detail::SetSlots::slot(e.buckets, slot) = key;
  return 3;
}

/// Whether the kFresh kernel places the arcs into the table with handle e (place_fresh_arc)
/// rather than walking its chain: the same answer for every arc of the table, so no walk reads a
/// slab that placements are filling with plain stores.
template <bool kFresh>
__device__ __forceinline__ bool placed_table(const VertexEntry& e) {
  return kFresh && e.num_buckets == 1;
}

/// insert_or_defer_arc with a tile of T <= 8 lanes (sets and maps): 3 new, 1 present, 0
/// deferred, or slab::tiled_needs_warp (-1).
template <slab::FirstRead kFirst, class Ref, class Tile>
__device__ __forceinline__ int insert_or_defer_arc_tiled(const Tile& tt, const Ref& g,
                                                         const BatchPass& p, vertex_t x,
                                                         const VertexEntry& e, std::uint32_t degree,
                                                         std::uint32_t key, std::uint32_t value) {
  bool deferred = false;
  if (tt.thread_rank() == 0) deferred = defer_arc(g, p, x, e, degree);
  if (tt.shfl(deferred, 0)) return 0;
  return insert_arc_tiled<kFirst>(tt, g, e, key, value);
}
/// insert_arc unless the arc is deferred (then 0: not done, retried after the rebuild).
template <class Ref, class Table>
__device__ __forceinline__ std::uint32_t insert_or_defer_arc(
    const warp_tile& tile, const Ref& g, const BatchPass& p, vertex_t x, const VertexEntry& e,
    std::uint32_t degree, std::uint32_t key, std::uint32_t value, unsigned& slab_failures) {
  bool deferred = false;
  if (tile.thread_rank() == 0) deferred = defer_arc(g, p, x, e, degree);
  if (tile.shfl(deferred, 0)) return 0u;
  const std::uint32_t r =
      insert_arc(tile, Table(e.buckets, e.num_buckets, g.allocator()), key, value);
  slab_failures += r == 0;
  return r;
}

// Filtered batches, pass 1: every entry that may own an edge marks the edge's filter bit.
// Latency bound (a load, then an L2 atomic that returns): each thread issues the loads of
// kFilterItems entries, then their atomics, before it waits for any.
constexpr int kFilterItems = 4;
template <class Adj>
__global__ void __launch_bounds__(kBlock) filter_batch_kernel(DynamicGraphRef<Adj> g, BatchPass p) {
  __shared__ unsigned tally_words[1];
  BlockTally<1> tally(tally_words);
  unsigned claimers = 0;
  const std::uint32_t nv = g.num_vertices();
  const std::uint64_t threads = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i0 = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i0 < p.n;
       i0 += threads * kFilterItems) {
    vertex_t u[kFilterItems], v[kFilterItems];
#pragma unroll
    for (int k = 0; k < kFilterItems; ++k) {
      const std::uint64_t i = i0 + k * threads;
      u[k] = v[k] = 0;
      if (i < p.n) {
        u[k] = p.src[i];
        v[k] = p.dst[i];
      }
    }
    std::uint64_t bit[kFilterItems];
    std::uint32_t old[kFilterItems];
#pragma unroll
    for (int k = 0; k < kFilterItems; ++k) {
      old[k] = 0;
      bit[k] = ~std::uint64_t{0};
      // As apply_batch_kernel: self-loops and ids out of range (u == v == 0 past n) never claim.
      if (u[k] == v[k] || u[k] >= nv || v[k] >= nv) continue;
      const vertex_t a = p.both ? min(u[k], v[k]) : u[k], b = p.both ? max(u[k], v[k]) : v[k];
      bit[k] = p.filter.bit_of((std::uint64_t{a} << 32) | b);
      old[k] = atomicOr(p.filter.seen + (bit[k] >> 5), 1u << (bit[k] & 31));
    }
#pragma unroll
    for (int k = 0; k < kFilterItems; ++k) {
      const std::uint32_t m = 1u << (bit[k] & 31);
      if (bit[k] == ~std::uint64_t{0} || !(old[k] & m)) continue;
      // A second (or later) entry of its bit: it claims, and so does the bit's first entry once.
      claimers += 1 + !(atomicOr(p.filter.shared + (bit[k] >> 5), m) & m);
    }
  }
  tally.add(this_warp(), 0, claimers);
  tally.flush(&p.counters->claimers);
}

// Pass 2 (the only pass unless weighted or filtered): classify, dedup, apply. State bits per owner
// as for insert_prepared_kernel: 1 forward arc done, 2 it was new, 4 reverse arc done, 8 it was
// new. Latency bound: an entry's loads (liveness, both table handles, degrees) are issued together
// with its dedup claim, before anything depends on them, so an arc costs the round trips of
// its table's slabs and CAS plus one, not a chain of five dependent loads first.
// kFresh: a build's first pass into fresh tables (BatchPass::fresh_tables), one-thread tasks:
// owners place their arcs into tables of one bucket (place_fresh_arc), insert those into tables
// of several, and leave to the retry pass, which runs the plain kernel, what the one-thread
// operations cannot do (a full slab of one bucket, a chain that needs the 32-lane insert).
// Without the 32-lane loop the set kernel needs 64 registers instead of 78, so a build of
// luxembourg_osm (468 blocks) fits one wave of the H100.
template <class Adj, BatchOp kOp, bool kLastWins, int kItems, int kTile, bool kFresh = false,
          slab::FirstRead kFirst = slab::FirstRead::cached>
__global__ void __launch_bounds__(kBlock) apply_batch_kernel(DynamicGraphRef<Adj> g, BatchPass p) {
  static_assert(!kFresh || (kOp == BatchOp::insert && kTile == 1));
  __shared__ unsigned tally_words[4];
  BlockTally<4> tally(tally_words);
  unsigned applied = 0, self = 0, dup = 0, ignored = 0, slab_failures = 0;
  const bool check_degree = kOp == BatchOp::insert && p.resize_keys_per_bucket > 0;
  // A retry pass after a table rebuild that could not be done (arena too small, slabs
  // exhausted) holds every owner back for the next pass: the host grows what was missing and
  // runs the rebuild again, so deferred arcs never land in the chains they were deferred from.
  const bool hold = p.retry_in && (p.counters->rebuild.need_buckets | p.counters->rebuild.failed);
  // A filtered batch claims in the part of its table that its claimers need (load <= 1/4), which
  // stays in L2 while the whole table (sized for a batch of duplicates) would not.
  detail::BatchDedupRef dedup = p.dedup;
  if (p.filter.active()) dedup.mask = detail::claim_mask(p.counters->claimers, p.dedup.mask);
  warp_stride_loop<kItems, kTile>(p.n, [&](const warp_tile& tile, std::uint64_t i, bool active) {
    if (active && hold) {
      p.retry_out[atomicAdd(p.retry_out_count, 1ull)] = p.retry_in[i];
      active = false;
    }
    vertex_t u = 0, v = 0;
    std::uint32_t st = 0, du = 0, dv = 0;
    std::uint64_t entry = i;
    bool owner = false;  // applies the edge's arcs (erases: every live entry, see below)
    VertexEntry eu{}, ev{};
    std::uint64_t key = 0;
    detail::BatchDedupRef::Probe probe{};
    bool claim_pending = false;
    bool listed = false;  // claimed a dedup slot of a filtered batch (`slot`)
    std::uint64_t slot = 0;
    if (active && p.retry_in) {
      const unsigned long long item = p.retry_in[i];
      entry = item >> 8;
      st = static_cast<std::uint32_t>(item & 0xFFu);
      if (p.keys) {
        sorted_entry(p, entry, u, v);
      } else {
        u = p.src[entry];
        v = p.dst[entry];
      }
      owner = classify_entry(g, p, u, v, self, ignored);  // true: it was an owner before
      if (owner) {
        eu = g.load_entry(u);
        if (p.both) ev = g.load_entry(v);
      }
    } else if (active) {
      bool edge = true;  // false: a sorted batch's key for a self-loop or an invalid entry
      if (p.keys) {
        edge = sorted_entry(p, i, u, v);
      } else {
        u = p.src[i];
        v = p.dst[i];
      }
      const std::uint32_t nv = g.num_vertices();
      if (!edge) {
        // counted by detail::pack_edge_keys
      } else if (u == v) {
        ++self;
      } else if (u >= nv || v >= nv) {
        ++ignored;
      } else {
        if (p.both && u > v) {
          const vertex_t t = u;
          u = v;
          v = t;
        }
        // Everything the arc needs, loaded at once (wasted only for duplicates). With table
        // rebuilds on, each entry reserves its arcs in the degrees (given back below unless the
        // arc turns out new): the values returned count the arcs of this batch that came first,
        // so a hub of the batch is deferred once its table is full however many of its arcs
        // are in flight (a plain load would show every one of them the degree before the batch).
        const bool live_u = g.live_flag(u), live_v = g.live_flag(v);
        eu = g.load_entry(u);
        if (p.both) ev = g.load_entry(v);
        if (check_degree) {
          du = atomicAdd(g.degree_ptr(u), 1u);
          if (p.both) dv = atomicAdd(g.degree_ptr(v), 1u);
        }
        key = (std::uint64_t{u} << 32) | v;
        bool first = false;
        if (p.keys) {
          // Equal keys are adjacent: the first entry owns the edge, or, when a weighted insert's
          // values came along, the last (the stable sort kept the batch's order).
          first = p.values ? i + 1 == p.n || p.keys[i + 1] != p.keys[i]
                           : i == 0 || p.keys[i - 1] != p.keys[i];
        } else if constexpr (kLastWins) {
          // Pass 1 claimed live edges only (slot_of must not look for another key), and behind
          // a filter only those that must claim: the others are their edges' only entries.
          if (p.filter.active() && !p.filter.must_claim(key))
            first = true;
          else if (live_u && live_v)
            first = dedup.last[dedup.slot_of(key)] == i + 1;
        } else if (p.filter.active() && !p.filter.must_claim(key)) {
          first = true;  // no other entry marked its filter bit: the edge's only entry
        } else if (kOp == BatchOp::erase && p.eager_erase) {
          // Erases need no owner: the tombstone CAS lets exactly one entry of an edge erase it.
          // Every live entry erases at once; the claim, left in flight, only tells duplicates
          // from absent edges afterwards (absent = owners - erased, on the host).
          probe = dedup.claim_begin(key);
          claim_pending = true;
          first = true;
        } else {
          // An edge with a dead end point claims its slot too: harmless, the same key is dead
          // in every entry, so it never decides ownership of a live edge. While the claim's CAS
          // is in flight, the arcs' first slabs are fetched into L2 (their address needs only
          // the handles), so a claim that must probe again overlaps the slabs' DRAM latency.
          const auto probe = dedup.claim_begin(key);
          // (Placements do not read their slab.)
          if (!placed_table<kFresh>(eu)) prefetch_bucket(g.table_at(eu), v);
          if (p.both && !placed_table<kFresh>(ev)) prefetch_bucket(g.table_at(ev), u);
          slot = dedup.claim_end(key, probe, &first);
          listed = first && p.filter.active();
          if constexpr (kOp == BatchOp::insert && Adj::weighted) {
            if (p.last_fixups && live_u && live_v) {  // see BatchPass::last_fixups
              atomicMax(dedup.last + slot, static_cast<std::uint32_t>(i + 1));
              if (!first) {
                unsigned long long* const item =
                    p.last_fixups + 2 * atomicAdd(&p.counters->fixups, 1ull);
                item[0] = (slot << 32) | i;
                item[1] = p.values[i];
              }
            }
          }
        }
        if (!(live_u && live_v)) {
          ++ignored;
          claim_pending = false;
        } else {
          owner = first;
          dup += !owner;
        }
        if (check_degree && !owner) {
          atomicSub(g.degree_ptr(u), 1u);
          if (p.both) atomicSub(g.degree_ptr(v), 1u);
        }
      }
    }
    if (listed) dedup.note_claim(p.claimed, slot);
    // An eager erase's claim, resolved after the erase: a probe past a slot of another edge's
    // key (most warps have one among their 32 claims) now overlaps the erase's slab read.
    if (claim_pending) probe = dedup.claim_advance(key, probe);
    const std::uint32_t value = (owner && p.values) ? p.values[entry] : 0u;
    std::uint32_t ns = st;
    unsigned warp_arcs = owner ? 3u : 0u;  // arcs (1 forward, 2 reverse) for the 32-lane loop
    if constexpr (kTile < 32) {
      // 32 / kTile tasks at a time per warp, one per kTile-lane tile; an arc whose chain needs a
      // new slab that the tile could not get (try_allocate) is left to the 32-lane loop below.
      const auto tt = partition_warp<kTile>(tile);
      warp_arcs = 0;
      for (unsigned q = tt.ballot(owner); q; q &= q - 1) {
        const int s = __ffs(q) - 1;
        const vertex_t a = tt.shfl(u, s), b = tt.shfl(v, s);
        const std::uint32_t s0 = tt.shfl(st, s);
        std::uint32_t r = s0;
        unsigned left = 0;
        if constexpr (kOp == BatchOp::insert) {
          const std::uint32_t val = tt.shfl(value, s);
          r = insert_edge_arcs_tiled<Adj::weighted>(s0, p.both, left, [&](bool reverse) {
            if constexpr (kFresh) {  // one-thread tasks: the lane's own entries
              const VertexEntry& e = reverse ? ev : eu;
              if (placed_table<kFresh>(e))
                return reverse ? place_fresh_arc(g, b, e, a, val)
                               : place_fresh_arc(g, a, e, b, val);
            }
            return reverse ? insert_or_defer_arc_tiled<kFirst>(tt, g, p, b, shfl_entry(tt, ev, s),
                                                               tt.shfl(dv, s), a, val)
                           : insert_or_defer_arc_tiled<kFirst>(tt, g, p, a, shfl_entry(tt, eu, s),
                                                               tt.shfl(du, s), b, val);
          });
        } else {
          const bool hit = erase_arc_tiled<kFirst>(tt, g, shfl_entry(tt, eu, s), b);
          const bool rev =
              p.both && hit && erase_arc_tiled<kFirst>(tt, g, shfl_entry(tt, ev, s), a);
          r = (hit ? 3u : 1u) | (rev ? 12u : 4u);
        }
        if (static_cast<int>(tt.thread_rank()) == s) {
          ns = r;
          warp_arcs = left;
        }
      }
    }
    if constexpr (!kFresh) {  // (kFresh: the arcs left go to the retry pass)
      for_each_active_lane(tile, warp_arcs != 0, [&](int s) {
        const vertex_t a = tile.shfl(u, s), b = tile.shfl(v, s);
        const std::uint32_t s0 = tile.shfl(ns, s), arcs = tile.shfl(warp_arcs, s);
        std::uint32_t r = s0;
        if constexpr (kOp == BatchOp::insert) {
          using Table = typename DynamicGraphRef<Adj>::table_ref;
          const std::uint32_t val = tile.shfl(value, s);
          if ((arcs & 1u) && !(s0 & 1u))
            r |= insert_or_defer_arc<DynamicGraphRef<Adj>, Table>(
                tile, g, p, a, shfl_entry(tile, eu, s), tile.shfl(du, s), b, val, slab_failures);
          if (p.both && (arcs & 2u) && !(s0 & 4u)) {
            // Both arcs are present or absent together: a set need not look at the reverse arc
            // of an edge found present (a map must, to assign its value).
            if (!Adj::weighted && (r & 3u) == 1u && !(s0 & 1u))
              r |= 4u;
            else
              r |= insert_or_defer_arc<DynamicGraphRef<Adj>, Table>(
                       tile, g, p, b, shfl_entry(tile, ev, s), tile.shfl(dv, s), a, val,
                       slab_failures)
                   << 2;
          }
        } else {
          const bool hit = g.table_at(shfl_entry(tile, eu, s)).erase(tile, b);
          const bool rev = p.both && hit && g.table_at(shfl_entry(tile, ev, s)).erase(tile, a);
          r = (hit ? 3u : 1u) | (rev ? 12u : 4u);
        }
        if (static_cast<int>(tile.thread_rank()) == s) ns = r;
      });
    }
    // Erases count the owners of live edges in `ignored`; the host subtracts the erased ones.
    if (claim_pending) {  // eager erase: the entry's claim, resolved after its erase
      bool first = false;
      dedup.claim_end(key, probe, &first);
      dup += !first;
      ignored += first;
    } else if (kOp == BatchOp::erase) {
      ignored += owner;
    }
    if (!owner) return;
    const bool fwd_new = (ns & 2u) && !(st & 2u), rev_new = (ns & 8u) && !(st & 8u);
    if constexpr (kOp == BatchOp::insert) {
      if (check_degree) {  // reserved with the loads: give back what was not added
        if (!fwd_new) atomicSub(g.degree_ptr(u), 1u);
        if (p.both && !rev_new) atomicSub(g.degree_ptr(v), 1u);
      } else {  // (a placed arc's degree counted it already)
        if (fwd_new && !placed_table<kFresh>(eu)) atomicAdd(g.degree_ptr(u), 1u);
        if (rev_new && !placed_table<kFresh>(ev)) atomicAdd(g.degree_ptr(v), 1u);
      }
      if (!(ns & 1u) || (p.both && !(ns & 4u)))
        p.retry_out[atomicAdd(p.retry_out_count, 1ull)] = (entry << 8) | ns;
      else if (!(ns & 2u))
        ++ignored;  // already present
    } else {
      if (fwd_new) atomicSub(g.degree_ptr(u), 1u);
      if (rev_new) atomicSub(g.degree_ptr(v), 1u);
    }
    applied += fwd_new;
  });
  const warp_tile tile = this_warp();
  tally.add(tile, 0, applied);  // BatchCounters: applied, self_loops, duplicates, ignored
  tally.add(tile, 1, self);
  tally.add(tile, 2, dup);
  tally.add(tile, 3, ignored);
  if (tile.thread_rank() == 0 && slab_failures)  // counted by the whole warp: > 0 matters
    atomicAdd(&p.counters->out_of_slabs, 1ull);
  tally.flush(&p.counters->applied);
  clear_previous_scratch(p);
  report_counters(p);
}

// After a weighted batch deduplicated in the table (BatchPass::last_fixups): each listed duplicate
// that is its edge's last entry assigns its value to the edge's arcs, which the owner inserted
// with its own. One such entry per edge, so the assignments are exclusive. Reads only the
// batch's scratch (the edge from its dedup slot, the value from the list), not the caller's
// batch: insert_edges returns before this kernel runs, and the caller may reuse its buffers.
template <class Adj>
__global__ void assign_last_values_kernel(DynamicGraphRef<Adj> g, BatchPass p, std::uint64_t m) {
  const thread_tile one{};
  for (std::uint64_t k = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; k < m;
       k += std::uint64_t{gridDim.x} * blockDim.x) {
    const unsigned long long item = p.last_fixups[2 * k];
    const std::uint64_t slot = item >> 32, entry = item & 0xFFFFFFFFull;
    if (p.dedup.last[slot] != entry + 1) continue;      // a later entry has the last word
    const std::uint64_t edge = p.dedup.keys[slot] - 1;  // canonical: (u << 32) | v
    const vertex_t u = static_cast<vertex_t>(edge >> 32), v = static_cast<vertex_t>(edge);
    const std::uint32_t value = static_cast<std::uint32_t>(p.last_fixups[2 * k + 1]);
    insert_arc_tiled(one, g, g.load_entry(u), v, value);  // present: assigns
    if (p.both) insert_arc_tiled(one, g, g.load_entry(v), u, value);
  }
}

// Inserts of a sorted batch into a directed set graph (first pass). A warp's 32 entries are
// consecutive in edge order, so equal edges are neighbours (an edge's first entry owns it) and a
// vertex's arcs form one run of lanes. The run shares what belongs to the vertex: its handle
// (loaded once), its degree (one atomic for the run's reservations and one for what is given
// back) and its slabs: each distinct first slab is copied into shared memory once, with
// coalesced copies (slab_staging.cuh), and the lanes of one slab take distinct free slots (the
// k-th inserting lane the k-th free slot), so they do not fail each other's CAS. What the fast
// path cannot finish (a chain of several slabs, a CAS lost to another warp, a full slab) goes
// the ordinary ways: the one-thread chain walk, then the 32-lane insert, then the retry pass.
// Same results and counters as apply_batch_kernel on the same batch.
template <class Adj>
__global__ void __launch_bounds__(kBlock)
    insert_sorted_kernel(DynamicGraphRef<Adj> g, BatchPass p) {
  static_assert(!Adj::weighted, "sets only: a map's run would share values too");
  using Table = typename DynamicGraphRef<Adj>::table_ref;
  using View = slab::detail::SetSlots::View<thread_tile>;
  __shared__ unsigned tally_words[4];
  BlockTally<4> tally(tally_words);
  __shared__ slab::detail::StagedSlabs stage_rows[kBlock / 32];
  unsigned applied = 0, dup = 0, ignored = 0, slab_failures = 0;
  const bool check_degree = p.resize_keys_per_bucket > 0;
  const warp_tile tile = this_warp();
  const thread_tile one{};
  const unsigned lane = tile.thread_rank();
  const std::uint32_t below = (1u << lane) - 1u;
  const std::uint64_t warps = (std::uint64_t{gridDim.x} * blockDim.x) / 32;
  slab::detail::StagedSlabs& rows = stage_rows[threadIdx.x / 32];
  for (std::uint64_t base = std::uint64_t{global_warp_id()} * 32; base < p.n; base += warps * 32) {
    const std::uint64_t i = base + lane;
    const bool in = i < p.n;
    vertex_t u = 0, v = 0;
    const std::uint64_t key = in ? p.keys[i] : 0;
    const bool edge = in && decode_sorted_key(p, key, u, v);  // sentinels: counted by packing
    std::uint64_t prev = tile.shfl_up(key, 1);
    if (lane == 0 && in && i > 0) prev = p.keys[i - 1];
    const bool owner = edge && (i == 0 || prev != key);
    dup += edge && !owner;

    // The run of owners with this source vertex; its lowest lane speaks for it.
    const std::uint32_t run = __match_any_sync(0xFFFFFFFFu, owner ? u : 0xFFFFFFFFu);
    const int leader = __ffs(run) - 1;
    VertexEntry e{};
    std::uint32_t reserved = 0;
    if (owner && lane == static_cast<unsigned>(leader)) {
      e = g.load_entry(u);
      if (check_degree) reserved = atomicAdd(g.degree_ptr(u), __popc(run));
    }
    e = shfl_entry(tile, e, leader);
    const std::uint32_t du = tile.shfl(reserved, leader) + __popc(run & below);

    bool deferred = false;
    const slab::Slab* first = nullptr;
    if (owner) {
      deferred = defer_arc(g, p, u, e, du);
      if (!deferred && e.num_buckets) {
        const Table t = g.table_at(e);
        first = t.buckets() + t.hash_bucket(v);
      }
    }
    // Copy each distinct first slab once (by the lowest lane that needs it).
    const std::uint32_t same =
        __match_any_sync(0xFFFFFFFFu, reinterpret_cast<std::uint64_t>(first));
    const int copier = __ffs(same) - 1;
    slab::detail::stage_slabs(lane == static_cast<unsigned>(copier) ? first : nullptr, rows);

    std::uint32_t ns = 0;            // 1: done, 2: new
    bool walk = owner && !deferred;  // still to do by the one-thread chain walk
    bool fast = false;
    View view;
    if (first) {
      view.read_staged(one, rows[copier], v);
      if (view.match) {
        ns = 1u;
        walk = false;
      } else {
        fast = view.next == slab::kNullSlab;  // a one-slab chain: the key is absent
      }
    }
    const std::uint32_t takers = __ballot_sync(0xFFFFFFFFu, fast) & same;
    if (fast) {
      // The k-th taker of the slab takes its k-th free slot, counted from a point that differs
      // between warps: other warps may be filling the same slab (a hub's run spans many warps).
      const std::uint32_t free = view.tombstones | view.empties;
      const int k = __popc(takers & below);
      if (k < __popc(free)) {
        const unsigned turn = slab::detail::mix32(static_cast<std::uint32_t>(base >> 5)) & 31u;
        const unsigned slot = slab::detail::nth_slot_from(free, static_cast<unsigned>(k), turn);
        const std::uint32_t expected =
            ((view.tombstones >> slot) & 1u) ? slab::kTombstoneKey : slab::kEmptyKey;
        auto* word = const_cast<std::uint32_t*>(first->words + slot);
        if (slab::detail::cas_relaxed(word, expected, v) == expected) {
          ns = 3u;
          walk = false;
        }
      }
    }
    bool warp_insert = false;
    if (walk) {
      const int o = insert_arc_tiled(one, g, e, v, 0u);
      if (o < 0)
        warp_insert = true;
      else
        ns = static_cast<std::uint32_t>(o);
    }
    for_each_active_lane(tile, warp_insert, [&](int src) {
      const std::uint32_t r =
          insert_arc(tile, g.table_at(shfl_entry(tile, e, src)), tile.shfl(v, src), 0u);
      slab_failures += r == 0;
      if (static_cast<int>(lane) == src) ns = r;
    });

    const bool fresh = owner && (ns & 2u);
    const std::uint32_t fresh_in_run = __popc(__ballot_sync(0xFFFFFFFFu, fresh) & run);
    if (owner && lane == static_cast<unsigned>(leader)) {
      if (check_degree) {  // reserved for the run: give back what was not added
        if (__popc(run) > fresh_in_run) atomicSub(g.degree_ptr(u), __popc(run) - fresh_in_run);
      } else if (fresh_in_run) {
        atomicAdd(g.degree_ptr(u), fresh_in_run);
      }
    }
    if (owner && !(ns & 1u))
      p.retry_out[atomicAdd(p.retry_out_count, 1ull)] = (i << 8) | ns;
    else if (owner && !(ns & 2u))
      ++ignored;  // already present
    applied += fresh;
  }
  tally.add(tile, 0, applied);  // BatchCounters: applied, self_loops, duplicates, ignored
  tally.add(tile, 2, dup);
  tally.add(tile, 3, ignored);
  if (lane == 0 && slab_failures)  // counted by the whole warp: > 0 matters
    atomicAdd(&p.counters->out_of_slabs, 1ull);
  tally.flush(&p.counters->applied);
  clear_previous_scratch(p);
  report_counters(p);
}

// Lookups run in phases of their own (no update of the graph in the same kernel), so each
// thread walks its query's chain alone through the read-only cache (has_edge_thread): a warp's
// 32 queries are all in flight at once. (32-lane lookups, one query after another per warp,
// took 32 round trips per warp.)
template <class Adj>
__global__ void contains_prepared_kernel(DynamicGraphRef<Adj> g, const std::uint64_t* keys,
                                         std::uint64_t m, unsigned bits, std::uint8_t* out) {
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint64_t k = keys[i];
    out[i] = g.has_edge_thread(static_cast<vertex_t>(k >> bits), static_cast<vertex_t>(k & mask));
  }
}

template <class Adj>
__global__ void has_edges_kernel(DynamicGraphRef<Adj> g, const vertex_t* src, const vertex_t* dst,
                                 std::uint64_t n, std::uint8_t* out, std::uint32_t* values_out) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const vertex_t u = src[i], v = dst[i];
    bool hit = false;
    std::uint32_t value = 0;
    if (u != v && g.is_live(u) && g.is_live(v)) {
      if constexpr (Adj::weighted)
        hit = g.table(u).find_thread(v, &value);
      else
        hit = g.table(u).contains_thread(v);
    }
    out[i] = hit;
    if (values_out) values_out[i] = hit ? value : 0u;
  }
}

// ---- export ---------------------------------------------------------------------------------

template <class Adj>
__global__ void export_kernel(DynamicGraphRef<Adj> g, const std::uint64_t* offsets,
                              vertex_t* targets, std::uint32_t* values, Counters* counters) {
  const warp_tile tile = this_warp();
  const std::uint64_t warps = (std::uint64_t{gridDim.x} * blockDim.x) / 32;
  const unsigned lane = tile.thread_rank();
  for (std::uint64_t u = global_warp_id(); u < g.num_vertices(); u += warps) {
    const std::uint64_t base = offsets[u], degree = offsets[u + 1] - offsets[u];
    std::uint64_t cursor = 0;
    g.for_each_slab(tile, static_cast<vertex_t>(u),
                    [&](std::uint32_t key, std::uint32_t value, std::uint32_t) {
                      const bool valid = slab::is_valid_key(key);
                      const WarpSlot slot = warp_slot(tile, valid);
                      const std::uint64_t pos = cursor + slot.rank;
                      if (valid && pos < degree) {
                        targets[base + pos] = key;
                        if (values) values[base + pos] = value;
                      }
                      cursor += slot.count;
                    });
    if (lane == 0 && cursor != degree) atomicAdd(&counters->a, 1ull);  // degree mismatch
  }
}

/// Kernels that share the buckets of m items (vertices) over all warps number them through
/// `offsets`, the exclusive prefix sum of the items' bucket counts: bucket b belongs to the last
/// item i < m with offsets[i] <= b (items with no buckets have empty ranges). Binary search.
__device__ __forceinline__ std::uint64_t item_of_bucket(const std::uint64_t* offsets,
                                                        std::uint64_t m, std::uint64_t b) {
  std::uint64_t lo = 0, hi = m;
  while (hi - lo > 1) {
    const std::uint64_t mid = (lo + hi) / 2;
    if (offsets[mid] <= b)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// ---- vertex erasure -------------------------------------------------------------------------

// erasing[x] = 1 for every live vertex x that an entry names (repeats store the same 1).
__global__ void mark_vertices_kernel(const vertex_t* ids, std::uint64_t m, const std::uint8_t* live,
                                     std::uint32_t nv, std::uint32_t* erasing) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const vertex_t x = ids[i];
    if (x < nv && live[x]) erasing[x] = 1;
  }
}

// Bucket counts of the erased vertices (the prefix sum numbers their buckets).
template <class Adj>
__global__ void gather_buckets_kernel(DynamicGraphRef<Adj> g, const vertex_t* ids, std::uint64_t k,
                                      std::uint64_t* out) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < k;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    out[i] = g.load_entry(ids[i]).num_buckets;
}

/// Buckets of erased vertices a warp takes at a time (one binary search per bucket, by its lane).
constexpr unsigned kEraseBucketsPerWarp = 8;

// Erases vertices bucket by bucket: all warps share all of the erased vertices' buckets, so a
// hub's buckets spread over the GPU instead of being walked by one warp. Bucket t (0 ..
// offsets[k]) is bucket t - offsets[i] of vertex ids[i], offsets being the exclusive prefix sum of
// their bucket counts. For an undirected graph each lane holding a neighbour y that is not erased
// removes the arc y -> x with a one-thread erase (the pair (x, y) is this bucket's alone), and
// each edge is counted once (counters->a); then the warp empties the bucket and frees its
// overflow slabs. The vertex's bucket 0 zeroes its degree and liveness (counters->b += the
// out-degrees, a directed graph's edges out of the erased vertices).
template <class Adj>
__global__ void erase_vertex_buckets_kernel(DynamicGraphRef<Adj> g, const vertex_t* ids,
                                            std::uint64_t k, const std::uint64_t* offsets,
                                            const std::uint32_t* erasing, bool both,
                                            std::uint8_t* live, Counters* counters) {
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
        live[x] = 0;
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
            if (erase_arc_tiled<slab::kDefaultEraseRead<Adj::weighted>>(one, g, g.load_entry(y),
                                                                        xj))
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

// ---- table rebuilds, planned on the device -------------------------------------------------
// A table whose keys plus the arcs waiting for it pass max_load_factor x its buckets is rebuilt
// with buckets for rebuild_growth x them at load_factor. Everything runs on the device,
// stream-ordered, with no host round trip: plan sizes per listed vertex, prefix sums (CUB), claim
// room in the bucket arena, insert the old keys into the new tables (one warp per OLD bucket: a
// hub's buckets spread over the GPU), then switch the handles and free the old overflow slabs
// (again one warp per old bucket). When the arena lacks room the tables stay as they are (arcs go
// into the old chains) and the status says how much was needed, so the host grows it for the next
// time.

// incoming[x] += arcs of the batch into x's table; the first to touch x lists it.
__global__ void incoming_kernel(const std::uint64_t* keys, std::uint64_t m, unsigned bits,
                                bool both, std::uint32_t* incoming, vertex_t* touched,
                                unsigned long long* num_touched) {
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  warp_stride_loop(m, [&](const warp_tile& tile, std::uint64_t i, bool active) {
    const std::uint64_t k = active ? keys[i] : 0;
    const vertex_t u = static_cast<vertex_t>(k >> bits), v = static_cast<vertex_t>(k & mask);
    // Sources are sorted: one atomic per distinct source in the warp.
    const WarpPeers p = warp_peers(tile, active, u);
    if (p.leader && atomicAdd(incoming + u, p.size) == 0) touched[atomicAdd(num_touched, 1ull)] = u;
    if (active && both) {
      if (atomicAdd(incoming + v, 1u) == 0) touched[atomicAdd(num_touched, 1ull)] = v;
    }
  });
}

/// The rebuild plan of one listed vertex: its new and old bucket counts (both 0 when its table
/// stays: it has room, or it would be rebuilt at the same size).
struct RebuildPlan {
  std::uint64_t new_buckets, old_buckets;
  __device__ RebuildPlan operator+(const RebuildPlan& o) const {
    return {new_buckets + o.new_buckets, old_buckets + o.old_buckets};
  }
};
/// The table is rebuilt when its keys would pass `limit` per bucket (resize_keys_per_bucket()),
/// with a bucket per `fill` keys (rebuilt_keys_per_bucket(): at most limit / 2, so it grows).
__device__ __forceinline__ RebuildPlan plan_rebuild(vertex_t x, const std::uint32_t* incoming,
                                                    const std::uint32_t* degrees,
                                                    const VertexEntry* vertices, double limit,
                                                    double fill) {
  const double need = static_cast<double>(degrees[x]) + incoming[x];
  const std::uint32_t cur = vertices[x].num_buckets;
  if (!(need > limit * cur)) return {0, 0};
  const double want = ceil(need / fill);
  return {want < 1 ? 1 : static_cast<std::uint64_t>(want), cur};
}

// Per listed vertex i < m (zeros from *num_listed up to m inclusive, for the exclusive scans):
// new and old bucket counts of the tables to rebuild (0 for the others).
__global__ void plan_rebuild_kernel(const vertex_t* listed, const unsigned long long* num_listed,
                                    std::uint64_t m, const std::uint32_t* incoming,
                                    const std::uint32_t* degrees, const VertexEntry* vertices,
                                    double limit, double fill, std::uint64_t* new_buckets,
                                    std::uint64_t* old_buckets) {
  const std::uint64_t t = *num_listed;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i <= m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const RebuildPlan r = i < t ? plan_rebuild(listed[i], incoming, degrees, vertices, limit, fill)
                                : RebuildPlan{0, 0};
    new_buckets[i] = r.new_buckets;
    old_buckets[i] = r.old_buckets;
  }
}

/// Claims the rebuild's nb buckets in the arena when they fit (one thread).
__device__ void claim_rebuild(std::uint64_t nb, unsigned long long* arena_used,
                              std::uint64_t arena_capacity, RebuildStatus* st) {
  if (nb == 0) {  // nothing to rebuild: done (the commit still clears incoming[])
    st->ok = 1;
    return;
  }
  if (*arena_used + nb <= arena_capacity) {
    st->base = *arena_used;
    st->buckets = nb;
    *arena_used += nb;
    st->ok = 1;
  } else {
    st->need_buckets = nb;
  }
}

// One thread: claim_rebuild after the device-wide scans.
__global__ void claim_rebuild_kernel(const std::uint64_t* new_off, std::uint64_t m,
                                     unsigned long long* arena_used, std::uint64_t arena_capacity,
                                     RebuildStatus* st) {
  claim_rebuild(new_off[m], arena_used, arena_capacity, st);
}

// A rebuild of few tables (m <= kPlanBlockItems): plan, the two exclusive scans and the claim in
// one block, instead of a plan kernel, two device-wide scans (two kernels each) and a claim
// kernel: one launch instead of six, for the common case of a batch that fills a few tables.
// Like plan_rebuild_kernel it leaves each table's old bucket count in old_buckets[i] (for the
// commit). The scan works warp by warp (BLOCK_SCAN_WARP_SCANS): CUB's default raking scan kept
// 32 partial plans per raking thread, which spilled 1 KiB of stack per thread.
constexpr int kPlanBlock = 1024;
constexpr std::uint64_t kPlanBlockItems = 8 * kPlanBlock;
__global__ void __launch_bounds__(kPlanBlock)
    plan_scan_claim_kernel(const vertex_t* listed, const unsigned long long* num_listed,
                           std::uint64_t m, const std::uint32_t* incoming,
                           const std::uint32_t* degrees, const VertexEntry* vertices, double limit,
                           double fill, std::uint64_t* old_buckets, std::uint64_t* new_off,
                           std::uint64_t* old_off, unsigned long long* arena_used,
                           std::uint64_t arena_capacity, RebuildStatus* st) {
  using Scan = cub::BlockScan<RebuildPlan, kPlanBlock, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ typename Scan::TempStorage temp;
  const std::uint64_t t = *num_listed;
  RebuildPlan carry{0, 0};
  for (std::uint64_t base = 0; base <= m; base += kPlanBlock) {
    const std::uint64_t i = base + threadIdx.x;
    const RebuildPlan r = i < t && i < m
                              ? plan_rebuild(listed[i], incoming, degrees, vertices, limit, fill)
                              : RebuildPlan{0, 0};
    RebuildPlan before, chunk;
    Scan(temp).ExclusiveScan(r, before, RebuildPlan{0, 0}, cuda::std::plus<>{}, chunk);
    if (i <= m) {
      old_buckets[i] = r.old_buckets;
      new_off[i] = carry.new_buckets + before.new_buckets;
      old_off[i] = carry.old_buckets + before.old_buckets;
    }
    carry = carry + chunk;
    __syncthreads();  // temp is reused
  }
  if (threadIdx.x == 0) claim_rebuild(carry.new_buckets, arena_used, arena_capacity, st);
}

/// The new (not yet visible) table of listed item i, in the arena the rebuild fills.
__device__ __forceinline__ VertexEntry rebuilt_entry(slab::Slab* arena, const RebuildStatus* st,
                                                     const std::uint64_t* new_off,
                                                     std::uint64_t i) {
  VertexEntry e{};
  e.buckets = arena + st->base + new_off[i];
  e.num_buckets = static_cast<std::uint32_t>(new_off[i + 1] - new_off[i]);
  return e;
}

// Inserts the keys of the tables being rebuilt into their new tables: one warp per OLD bucket (a
// hub's buckets spread over the GPU; the work is known on the device only, so warps stride), each
// lane inserting the key its slab word holds with the one-thread insert (the new tables are
// private to the rebuild and each key is in one old slab, so the exclusive insert applies); a
// lane whose chain needs a slab it could not get falls back to the 32-lane insert. (Before, one
// kernel listed the keys in scratch and another inserted them: one launch and 12 bytes of scratch
// per key more.)
// The old chains are read through g and the new tables filled through `into`: the same graph
// for a rebuild; for compact(), the same vertices with a fresh allocator.
template <class Adj>
__global__ void reinsert_rebuild_kernel(DynamicGraphRef<Adj> g, DynamicGraphRef<Adj> into,
                                        slab::Slab* arena, const vertex_t* listed,
                                        const unsigned long long* num_listed,
                                        const std::uint64_t* new_off, const std::uint64_t* old_off,
                                        RebuildStatus* st) {
  if (!st->ok) return;
  const warp_tile tile = this_warp();
  const std::uint64_t warps = (std::uint64_t{gridDim.x} * blockDim.x) / 32;
  const std::uint64_t t = *num_listed;
  const std::uint64_t buckets = old_off[t];
  unsigned failed = 0;
  for (std::uint64_t b = global_warp_id(); b < buckets; b += warps) {
    const std::uint64_t item = item_of_bucket(old_off, t, b);
    const VertexEntry old = g.load_entry(listed[item]);
    const VertexEntry fresh = rebuilt_entry(arena, st, new_off, item);
    g.for_each_slab_in_bucket(
        tile, old, static_cast<std::uint32_t>(b - old_off[item]),
        [&](std::uint32_t key, std::uint32_t value) {
          const bool warp_insert =
              slab::is_valid_key(key) &&
              insert_arc_tiled(thread_tile{}, into, fresh, key, value) == slab::tiled_needs_warp;
          for_each_active_lane(tile, warp_insert, [&](int src) {
            const auto out = table_insert(tile, into.table_at(fresh), tile.shfl(key, src),
                                          tile.shfl(value, src));
            if (out == slab::InsertOutcome::out_of_slabs) ++failed;
          });
        });
  }
  failed = __reduce_add_sync(0xFFFFFFFFu, failed);
  if (tile.thread_rank() == 0 && failed) atomicAdd(&st->failed, 1ull);
}

// Switches the handles to the new tables and frees the old tables' overflow slabs, all warps
// sharing the old buckets: a hub's table has thousands, which one warp per table walked one after
// another (ncu, R-MAT s22 incremental build: one commit of 152 tables took 2.4 ms, and the commits
// more time than the re-inserts). The warp that clears a table's last bucket switches its handle
// (remaining[i], the table's old bucket count, counted down), so no warp reads a handle that is
// already switched. After a failed re-insert, frees the new tables' overflow slabs instead (the
// warps sharing the new buckets) and keeps the old tables. Leaves incoming[] zero for the listed
// vertices (unless keep_incoming and the rebuild was not done: the caller grows the arena and
// tries again).
template <class Adj>
__global__ void commit_rebuild_kernel(DynamicGraphRef<Adj> g, slab::Slab* arena,
                                      const vertex_t* listed, const unsigned long long* num_listed,
                                      const std::uint64_t* new_off, const std::uint64_t* old_off,
                                      std::uint64_t* remaining, RebuildStatus* st,
                                      std::uint32_t* incoming, bool keep_incoming) {
  const warp_tile tile = this_warp();
  const std::uint64_t threads = std::uint64_t{gridDim.x} * blockDim.x;
  const std::uint64_t t = *num_listed;
  const bool ok = st->ok != 0, failed = st->failed != 0;
  if (!keep_incoming || (ok && !failed)) {
    for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < t;
         i += threads)
      incoming[listed[i]] = 0;
  }
  if (!ok) return;
  const std::uint64_t* const off = failed ? new_off : old_off;
  const std::uint64_t buckets = off[t];
  for (std::uint64_t b = global_warp_id(); b < buckets; b += threads / 32) {
    const std::uint64_t i = item_of_bucket(off, t, b);
    const auto bucket = static_cast<std::uint32_t>(b - off[i]);
    if (failed) {
      g.table_at(rebuilt_entry(arena, st, new_off, i)).clear_bucket(tile, bucket);
      continue;
    }
    const vertex_t x = listed[i];
    g.table(x).clear_bucket(tile, bucket);
    if (tile.thread_rank() == 0) {
      __threadfence();  // this warp's read of the handle comes before its count
      if (atomicAdd(reinterpret_cast<unsigned long long*>(remaining + i), ~0ull) == 1) {
        __threadfence();  // every other warp of the table is done with the old handle
        const VertexEntry fresh = rebuilt_entry(arena, st, new_off, i);
        VertexEntry* e = g.entry(x);
        e->buckets = fresh.buckets;
        e->num_buckets = fresh.num_buckets;
      }
    }
  }
}

// Compaction (DynamicGraph::compact): lists every id i < n, with buckets for its degree at
// `per_bucket` keys each, as a bulk build sizes tables (detail::buckets_for), and its old bucket
// count; zeros at i = n for the exclusive scans. reinsert_rebuild_kernel then copies every table.
__global__ void plan_compaction_kernel(std::uint64_t n, const std::uint32_t* degrees,
                                       const VertexEntry* vertices, double per_bucket,
                                       vertex_t* listed, unsigned long long* num_listed,
                                       std::uint64_t* new_buckets, std::uint64_t* old_buckets) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i <= n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    if (i == n) {
      *num_listed = n;
      new_buckets[i] = old_buckets[i] = 0;
      continue;
    }
    listed[i] = static_cast<vertex_t>(i);
    new_buckets[i] = detail::buckets_for(static_cast<double>(degrees[i]), per_bucket);
    old_buckets[i] = vertices[i].num_buckets;
  }
}

/// compact(): every handle i < n switched to its new table in `pool` (the old tables, all of
/// their chains in the old allocator, are dropped whole).
__global__ void compaction_handles_kernel(VertexEntry* vertices, slab::Slab* pool,
                                          const std::uint64_t* new_off, std::uint64_t n) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    VertexEntry e = vertices[i];
    e.buckets = pool + new_off[i];
    e.num_buckets = static_cast<std::uint32_t>(new_off[i + 1] - new_off[i]);
    vertices[i] = e;
  }
}
}  // namespace

// ---- host side ------------------------------------------------------------------------------

template <class Adj>
struct DynamicGraph<Adj>::Impl {
  GraphOptions opt;
  cudaStream_t stream = 0;
  GraphStats counts;  // stats()
  slab::SlabAllocator alloc;
  DeviceArray<VertexEntry> vertices;
  DeviceArray<std::uint32_t> degrees;
  DeviceArray<std::uint32_t> incoming;  // all zero between calls (resize planning)
  DeviceArray<std::uint8_t> live;
  std::vector<DeviceArray<slab::Slab>> pools;
  std::uint64_t pool_bytes = 0;
  std::uint64_t nv = 0, capacity = 0, edges = 0, live_count = 0;
  // The free-id queue (erased ids, earliest first), on the device: positions free_head ..
  // free_tail - 1, modulo free_queue.size(). An id is in it at most once, so it never needs more
  // than nv slots.
  DeviceArray<vertex_t> free_queue;
  std::uint64_t free_head = 0, free_tail = 0;
  DeviceArray<Counters> counters;

  static slab::SlabAllocatorConfig allocator_config(const GraphOptions& o) {
    slab::SlabAllocatorConfig c;
    c.slabs_per_super_block = o.slabs_per_super_block;  // grows by doubling
    const std::uint32_t unit = std::max<std::uint32_t>(c.slabs_per_super_block, 1);
    // At most 2^31 slabs, and 2^16 super blocks (the allocator keeps a table of them).
    c.max_super_blocks = static_cast<std::uint32_t>(
        std::clamp<std::uint64_t>((std::uint64_t{1} << 31) / unit, 1, std::uint64_t{1} << 16));
    const std::uint64_t want = o.initial_slabs ? (o.initial_slabs + unit - 1) / unit : 1;
    c.initial_super_blocks = static_cast<std::uint32_t>(
        std::clamp<std::uint64_t>(want, 1, std::min<std::uint32_t>(4096, c.max_super_blocks)));
    return c;
  }

  explicit Impl(const GraphOptions& o)
      : opt(o),
        stream(o.stream),
        alloc(allocator_config(o), o.stream,
              Adj::weighted ? "graph slab map allocator" : "graph slab set allocator"),
        counters(1, o.stream, "graph counters") {
    if (!(opt.load_factor > 0)) throw InvalidArgument("DynamicGraph: load_factor must be > 0");
    if (!(opt.rebuild_growth >= 1))
      throw InvalidArgument("DynamicGraph: rebuild_growth must be >= 1");
    keep_pool_memory();
  }

  /// Batches allocate their scratch stream-ordered; by default the driver's pool returns freed
  /// memory to the device at every synchronisation, which makes each batch pay for fresh
  /// allocations. Keep it cached (gpu_memory_info() trims it when memory gets tight).
  static void keep_pool_memory() {
    int dev = 0;
    cudaMemPool_t pool;
    if (cudaGetDevice(&dev) == cudaSuccess &&
        cudaDeviceGetDefaultMemPool(&pool, dev) == cudaSuccess) {
      std::uint64_t threshold = ~std::uint64_t{0};
      (void)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
    }
    (void)cudaGetLastError();
  }

  DynamicGraphRef<Adj> ref() const {
    return DynamicGraphRef<Adj>(const_cast<VertexEntry*>(vertices.data()),
                                const_cast<std::uint32_t*>(degrees.data()), live.data(),
                                static_cast<std::uint32_t>(nv), alloc.ref());
  }

  void zero_counters() {
    WG_CUDA_TRY(cudaMemsetAsync(counters.data(), 0, sizeof(Counters), stream));
  }
  Counters read_counters() { return counters.to_host()[0]; }

  /// Dictionary with room for n ids: copies the handles (not the tables) when it must grow.
  void reserve(std::uint64_t n) {
    if (n <= capacity) return;
    if (n > (std::uint64_t{1} << 31))
      throw InvalidArgument("DynamicGraph: more than 2^31 vertex ids are not supported");
    const std::uint64_t cap = std::max({n, opt.vertex_capacity, 2 * capacity});
    DeviceArray<VertexEntry> v2(cap, stream, "vertex dictionary");
    DeviceArray<std::uint8_t> l2(cap, stream, "vertex dictionary");
    DeviceArray<std::uint32_t> d2(cap, stream, "vertex degrees");
    if (nv) {
      WG_CUDA_TRY(cudaMemcpyAsync(d2.data(), degrees.data(), nv * sizeof(std::uint32_t),
                                  cudaMemcpyDeviceToDevice, stream));
      WG_CUDA_TRY(cudaMemcpyAsync(v2.data(), vertices.data(), nv * sizeof(VertexEntry),
                                  cudaMemcpyDeviceToDevice, stream));
      WG_CUDA_TRY(cudaMemcpyAsync(l2.data(), live.data(), nv, cudaMemcpyDeviceToDevice, stream));
    }
    WG_CUDA_TRY(cudaMemsetAsync(l2.data() + nv, 0, cap - nv, stream));
    vertices = std::move(v2);
    live = std::move(l2);
    degrees = std::move(d2);
    incoming = DeviceArray<std::uint32_t>(cap, stream, "vertex dictionary");
    WG_CUDA_TRY(cudaMemsetAsync(incoming.data(), 0, cap * sizeof(std::uint32_t), stream));
    capacity = cap;
  }

  /// The pool of a build's tables (the tables before it are dropped): the largest pool they
  /// held when it has room for `slabs`, else a new one (a device allocation and a free less per
  /// build of a graph of about the same size). Empty unless `fill` is false (its user fills it).
  slab::Slab* build_pool(std::uint64_t slabs, bool fill) {
    const auto largest =
        std::max_element(pools.begin(), pools.end(),
                         [](const auto& a, const auto& b) { return a.size() < b.size(); });
    if (largest == pools.end() || largest->size() < slabs) {
      release_pools();
      return new_pool(slabs, fill);
    }
    DeviceArray<slab::Slab> keep = std::move(*largest);
    pools.clear();
    pool_bytes = keep.size() * sizeof(slab::Slab);
    if (fill) WG_CUDA_TRY(cudaMemsetAsync(keep.data(), 0xFF, slabs * sizeof(slab::Slab), stream));
    pools.push_back(std::move(keep));
    return pools.back().data();
  }

  /// Frees every table's base buckets (their vertices' handles must be reset before use).
  void release_pools() {
    pools.clear();
    pool_bytes = 0;
  }

  /// A new pool of base buckets, empty unless `fill` is false (its user fills it).
  slab::Slab* new_pool(std::uint64_t slabs, bool fill = true) {
    DeviceArray<slab::Slab> pool(slabs, stream, "graph base buckets");
    if (fill) WG_CUDA_TRY(cudaMemsetAsync(pool.data(), 0xFF, slabs * sizeof(slab::Slab), stream));
    slab::Slab* p = pool.data();
    pool_bytes += slabs * sizeof(slab::Slab);
    pools.push_back(std::move(pool));
    return p;
  }

  /// New live ids nv .. n-1, one bucket each.
  void grow(std::uint64_t n) {
    if (n <= nv) return;
    reserve(n);
    const std::uint64_t count = n - nv;
    slab::Slab* pool = new_pool(count);
    init_entries_kernel<<<grid_for(count), kBlock, 0, stream>>>(vertices.data(), degrees.data(), nv,
                                                                count, pool, nullptr);
    WG_CUDA_CHECK_LAST();
    WG_CUDA_TRY(cudaMemsetAsync(live.data() + nv, 1, count, stream));
    live_count += count;
    nv = n;
  }

  std::uint64_t free_count() const { return free_tail - free_head; }

  /// The queue slots of positions from .. from + n - 1: one or two runs (the second when they
  /// wrap around the end), as {first slot, length}.
  struct QueueRuns {
    vertex_t* at[2];
    std::uint64_t len[2];
  };
  QueueRuns free_runs(std::uint64_t from, std::uint64_t n) {
    if (n == 0) return {{nullptr, nullptr}, {0, 0}};
    const std::uint64_t cap = free_queue.size(), at = from % cap, first = std::min(n, cap - at);
    return {{free_queue.data() + at, free_queue.data()}, {first, n - first}};
  }

  /// Appends k device ids to the free-id queue (stream-ordered).
  void push_free_ids(const vertex_t* ids, std::uint64_t k) {
    const std::uint64_t need = free_count() + k;
    if (need > free_queue.size()) {  // re-lay the queue from position 0, in order
      DeviceArray<vertex_t> q(std::max<std::uint64_t>({need, 2 * free_queue.size(), 1024}), stream,
                              "free-id queue");
      copy_free_ids(free_head, free_count(), q.data(), cudaMemcpyDeviceToDevice);
      free_tail = free_count();
      free_head = 0;
      free_queue = std::move(q);
    }
    const QueueRuns r = free_runs(free_tail, k);
    for (int j = 0; j < 2; ++j)
      if (r.len[j])
        WG_CUDA_TRY(cudaMemcpyAsync(r.at[j], ids + (j ? r.len[0] : 0), r.len[j] * sizeof(vertex_t),
                                    cudaMemcpyDeviceToDevice, stream));
    free_tail += k;
  }

  /// Takes the n earliest free ids: marks them live on the device and returns them.
  std::vector<vertex_t> take_free_ids(std::uint64_t n) {
    std::vector<vertex_t> out(n);
    if (n == 0) return out;
    copy_free_ids(free_head, n, out.data(), cudaMemcpyDeviceToHost);
    const QueueRuns r = free_runs(free_head, n);
    for (int j = 0; j < 2; ++j) {
      if (!r.len[j]) continue;
      scatter_bytes_kernel<<<grid_for(r.len[j]), kBlock, 0, stream>>>(live.data(), r.at[j],
                                                                      r.len[j], 1);
      WG_CUDA_CHECK_LAST();
    }
    WG_CUDA_TRY(cudaStreamSynchronize(stream));
    free_head += n;
    return out;
  }

  /// Copies n queued ids from queue position `from` to `to`.
  void copy_free_ids(std::uint64_t from, std::uint64_t n, vertex_t* to, cudaMemcpyKind kind) {
    const QueueRuns r = free_runs(from, n);
    for (int j = 0; j < 2; ++j)
      if (r.len[j])
        WG_CUDA_TRY(cudaMemcpyAsync(to + (j ? r.len[0] : 0), r.at[j], r.len[j] * sizeof(vertex_t),
                                    kind, stream));
  }

  /// Doubles the allocator `a` (the graph's by default), or throws CapacityError when it is at
  /// its maximum or GPU memory is short.
  void grow_allocator() { grow_allocator(alloc); }
  void grow_allocator(slab::SlabAllocator& a) {
    const std::uint32_t current = a.num_super_blocks();
    const std::uint32_t room = a.config().max_super_blocks - current;
    if (room == 0)
      throw CapacityError(a.name(), a.capacity_slabs(),
                          "the slab allocator is at its maximum size");
    const std::uint32_t add = std::min(std::max<std::uint32_t>(current, 1), room);
    try {
      a.grow(add, stream);
      ++counts.allocator_growths;
    } catch (const CapacityError&) {
      throw;
    } catch (const Error& e) {
      std::size_t free_b = 0, total_b = 0;
      (void)cudaGetLastError();
      (void)cudaMemGetInfo(&free_b, &total_b);
      throw CapacityError("GPU memory", total_b,
                          "the graph needs more overflow slabs than fit in GPU memory (" +
                              std::to_string(free_b >> 20) + " MiB free): " + e.what());
    }
    a.clear_exhausted(stream);
  }

  // ---- table rebuilds (device-planned, see RebuildStatus) -----------------------------------
  bool plan_rebuilds = true;      // false while build() inserts into tables sized for the batch:
                                  // no resize planning, no deferred arcs
  DeviceArray<slab::Slab> arena;  // base buckets of rebuilt tables, handed out by arena_used
  std::uint64_t arena_capacity = 0;
  DeviceArray<unsigned long long> arena_used;  // device word

  /// A fresh arena of at least `slabs` empty slabs (the old one stays: tables point into it).
  void new_arena(std::uint64_t slabs) {
    if (arena_capacity) {
      pools.push_back(std::move(arena));
    }
    const std::uint64_t cap = std::max<std::uint64_t>({slabs, 2 * arena_capacity, 1});
    arena = DeviceArray<slab::Slab>(cap, stream, "graph rebuilt buckets");
    WG_CUDA_TRY(cudaMemsetAsync(arena.data(), 0xFF, cap * sizeof(slab::Slab), stream));
    pool_bytes += cap * sizeof(slab::Slab);
    arena_capacity = cap;
    ++counts.arenas;
    if (arena_used.size() == 0) arena_used = DeviceArray<unsigned long long>(1, stream, "arena");
    WG_CUDA_TRY(cudaMemsetAsync(arena_used.data(), 0, sizeof(unsigned long long), stream));
  }

  /// The plan of a rebuild (or a compaction) of m listed tables, in one allocation: per table
  /// its new and old bucket counts (zeros at m, for the exclusive scans), then their sums.
  struct RebuildPlanArrays {
    DeviceArray<std::uint64_t> words;
    std::uint64_t *new_b, *old_b, *new_off, *old_off;
  };
  RebuildPlanArrays plan_arrays(std::uint64_t m, const char* what) {
    RebuildPlanArrays p{DeviceArray<std::uint64_t>(4 * (m + 1), stream, what), {}, {}, {}, {}};
    p.new_b = p.words.data();
    p.old_b = p.new_b + (m + 1);
    p.new_off = p.old_b + (m + 1);
    p.old_off = p.new_off + (m + 1);
    return p;
  }
  /// new_b -> new_off and old_b -> old_off: exclusive sums (CUB), stream-ordered.
  void scan_plan(const RebuildPlanArrays& p, std::uint64_t m, const char* what) {
    std::size_t temp_bytes = 0;
    WG_CUDA_TRY(
        cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, p.new_b, p.new_off, m + 1, stream));
    DeviceArray<unsigned char> temp(std::max<std::size_t>(temp_bytes, 1), stream, what);
    for (int k = 0; k < 2; ++k)
      WG_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, p.new_b + k * (m + 1),
                                                p.new_off + k * (m + 1), m + 1, stream));
  }
  /// Grid of the re-insert and commit kernels for m listed tables. Their work (old buckets) is
  /// known on the device only: at least enough warps to fill the GPU (a few hubs can hold most
  /// of the buckets), striding; idle warps leave at once.
  unsigned rebuild_grid(std::uint64_t m) const {
    return grid_for(
        std::min<std::uint64_t>(std::max(m * 32 * 32, resident_threads()), std::uint64_t{1} << 21));
  }

  /// Rebuilds, stream-ordered and without synchronising, the listed tables (listed[0 ..
  /// *num_listed), *num_listed <= m, on the device) whose keys plus incoming[] pass the max load
  /// factor. `st` (zeroed by the caller) says afterwards what happened; after_rebuild(*st) grows
  /// what was too small.
  void rebuild_tables(const vertex_t* listed, const unsigned long long* num_listed, std::uint64_t m,
                      RebuildStatus* st, bool keep_incoming) {
    if (!(opt.max_load_factor > 0) || m == 0) return;
    if (arena_capacity == 0)
      new_arena(opt.rebuild_arena_slabs ? opt.rebuild_arena_slabs
                                        : std::max<std::uint64_t>(nv / 16, 1u << 16));
    // The commit counts each table's old buckets (old_b) down.
    const RebuildPlanArrays plan = plan_arrays(m, "graph rebuild plan");
    if (m <= kPlanBlockItems) {
      plan_scan_claim_kernel<<<1, kPlanBlock, 0, stream>>>(
          listed, num_listed, m, incoming.data(), degrees.data(), vertices.data(),
          resize_keys_per_bucket(), rebuilt_keys_per_bucket(), plan.old_b, plan.new_off,
          plan.old_off, arena_used.data(), arena_capacity, st);
      WG_CUDA_CHECK_LAST();
    } else {
      plan_rebuild_kernel<<<grid_for(m + 1), kBlock, 0, stream>>>(
          listed, num_listed, m, incoming.data(), degrees.data(), vertices.data(),
          resize_keys_per_bucket(), rebuilt_keys_per_bucket(), plan.new_b, plan.old_b);
      WG_CUDA_CHECK_LAST();
      scan_plan(plan, m, "graph rebuild");
      claim_rebuild_kernel<<<1, 1, 0, stream>>>(plan.new_off, m, arena_used.data(), arena_capacity,
                                                st);
      WG_CUDA_CHECK_LAST();
    }
    const unsigned grid = rebuild_grid(m);
    reinsert_rebuild_kernel<Adj><<<grid, kBlock, 0, stream>>>(
        ref(), ref(), arena.data(), listed, num_listed, plan.new_off, plan.old_off, st);
    WG_CUDA_CHECK_LAST();
    commit_rebuild_kernel<Adj><<<grid, kBlock, 0, stream>>>(ref(), arena.data(), listed, num_listed,
                                                            plan.new_off, plan.old_off, plan.old_b,
                                                            st, incoming.data(), keep_incoming);
    WG_CUDA_CHECK_LAST();
  }

  /// Counts a finished rebuild round (stats()) and grows what it found too small, for the next.
  void after_rebuild(const RebuildStatus& st) {
    if (st.need_buckets) {
      ++counts.rounds_without_arena_room;
      new_arena(2 * st.need_buckets);
    } else if (st.failed) {
      ++counts.rounds_out_of_slabs;
      grow_allocator();
    } else if (st.buckets) {
      ++counts.rebuild_rounds;
      counts.rebuilt_buckets += st.buckets;
    }
  }

  /// Rebuilds, with more buckets, the tables this (sorted) batch would fill beyond
  /// max_load_factor, before it is inserted.
  void resize_for(const PreparedBatch& batch) {
    if (!(opt.max_load_factor > 0) || batch.size == 0) return;
    const bool both = !opt.directed;
    const std::uint64_t max_touched = batch.size * (both ? 2 : 1);
    DeviceArray<vertex_t> touched(max_touched, stream, "resize planning");
    DeviceArray<unsigned long long> count(1, stream, "resize planning");
    WG_CUDA_TRY(cudaMemsetAsync(count.data(), 0, sizeof(unsigned long long), stream));
    incoming_kernel<<<grid_for(batch.size), kBlock, 0, stream>>>(
        batch.keys.data(), batch.size, batch.key_bits, both, incoming.data(), touched.data(),
        count.data());
    WG_CUDA_CHECK_LAST();
    // The plan is sized by the vertices listed (one synchronisation), not by the batch.
    const std::uint64_t listed = count.to_host()[0];
    DeviceArray<RebuildStatus> st(1, stream, "resize planning");
    for (int attempt = 0;; ++attempt) {
      WG_CUDA_TRY(cudaMemsetAsync(st.data(), 0, sizeof(RebuildStatus), stream));
      const bool last = attempt == 2;  // then leave the tables as they are (still correct)
      rebuild_tables(touched.data(), count.data(), listed, st.data(), !last);
      const RebuildStatus h = st.to_host()[0];
      after_rebuild(h);
      if (last || (h.need_buckets == 0 && h.failed == 0)) return;
    }
  }

  /// DynamicGraph::compact: every table copied, re-sized for its degree at load_factor, into
  /// one new pool of base buckets and a fresh allocator (reinsert_rebuild_kernel reads the old
  /// chains and fills the new tables, which stay private until the handles switch); then the old
  /// allocator, every older pool and the arena are released whole. The fresh allocator starts
  /// with room for the slots the new tables' base buckets lack plus an eighth of their buckets
  /// (uneven buckets), at least its configured size; a round that runs out of slabs empties it,
  /// doubles it and runs again.
  void compact() {
    if (nv == 0) return;
    const std::uint64_t m = nv;
    DeviceArray<vertex_t> listed(m, stream, "graph compaction");
    DeviceArray<unsigned long long> num_listed(1, stream, "graph compaction");
    const RebuildPlanArrays plan = plan_arrays(m, "graph compaction");
    plan_compaction_kernel<<<grid_for(m + 1), kBlock, 0, stream>>>(
        m, degrees.data(), vertices.data(), opt.load_factor * Adj::slab_capacity, listed.data(),
        num_listed.data(), plan.new_b, plan.old_b);
    WG_CUDA_CHECK_LAST();
    scan_plan(plan, m, "graph compaction");
    std::uint64_t total = 0;
    WG_CUDA_TRY(
        cudaMemcpyAsync(&total, plan.new_off + m, sizeof total, cudaMemcpyDeviceToHost, stream));
    WG_CUDA_TRY(cudaStreamSynchronize(stream));
    DeviceArray<slab::Slab> pool(total, stream, "graph base buckets");
    WG_CUDA_TRY(cudaMemsetAsync(pool.data(), 0xFF, total * sizeof(slab::Slab), stream));
    slab::SlabAllocatorConfig config = allocator_config(opt);
    const double arcs = static_cast<double>(edges) * (opt.directed ? 1 : 2);
    const double want = std::max(0.0, arcs / Adj::slab_capacity - static_cast<double>(total)) +
                        static_cast<double>(total) / 8 + 1;
    config.initial_super_blocks = static_cast<std::uint32_t>(
        std::clamp<double>(std::ceil(want / config.slabs_per_super_block),
                           config.initial_super_blocks, config.max_super_blocks));
    slab::SlabAllocator fresh(config, stream, alloc.name());
    // The whole pool is this round's: base 0, every bucket claimed.
    RebuildStatus claimed{};
    claimed.ok = 1;
    claimed.buckets = total;
    DeviceArray<RebuildStatus> st(1, stream, "graph compaction");
    const unsigned grid = rebuild_grid(m);
    while (true) {
      st.copy_from_host(&claimed, 1);
      const DynamicGraphRef<Adj> into(vertices.data(), degrees.data(), live.data(),
                                      static_cast<std::uint32_t>(nv), fresh.ref());
      reinsert_rebuild_kernel<Adj>
          <<<grid, kBlock, 0, stream>>>(ref(), into, pool.data(), listed.data(), num_listed.data(),
                                        plan.new_off, plan.old_off, st.data());
      WG_CUDA_CHECK_LAST();
      if (!st.to_host()[0].failed) break;
      // Every new chain is in `fresh`: empty it and the pool, double it, and copy again.
      ++counts.rounds_out_of_slabs;
      fresh.reset(stream);
      WG_CUDA_TRY(cudaMemsetAsync(pool.data(), 0xFF, total * sizeof(slab::Slab), stream));
      grow_allocator(fresh);
    }
    compaction_handles_kernel<<<grid_for(m), kBlock, 0, stream>>>(vertices.data(), pool.data(),
                                                                  plan.new_off, m);
    WG_CUDA_CHECK_LAST();
    // Every table now lives in `pool` and `fresh`: what the old ones held goes whole.
    alloc = std::move(fresh);
    release_pools();
    arena = DeviceArray<slab::Slab>();
    arena_capacity = 0;
    pool_bytes = total * sizeof(slab::Slab);
    pools.push_back(std::move(pool));
    ++counts.compactions;
  }

  /// Max keys per base bucket before a table is rebuilt (0: never).
  double resize_keys_per_bucket() const {
    if (!(opt.max_load_factor > 0)) return 0;
    return std::max(opt.max_load_factor, 2 * opt.load_factor) * Adj::slab_capacity;
  }
  /// Keys per bucket of a rebuilt table: rebuild_growth x fewer than load_factor's.
  double rebuilt_keys_per_bucket() const {
    return opt.load_factor * Adj::slab_capacity / opt.rebuild_growth;
  }

  // ---- direct batches (apply_batch_kernel) ---------------------------------------------------
  // Scratch of a batch: two halves, each
  //   [counters | filter bitmaps and claimed-slot bitmap (large batches) | dedup keys |
  //    dedup last (weighted)],
  // used by alternate batches; each batch's kernel zeroes the half of the batch before it, so in
  // steady state a batch needs no memset. A filtered batch leaves its dedup table non-zero only
  // at the slots of its claimed-slot bitmap, so those are cleared instead of the whole table.
  // The retry and resize lists (written before read) are shared.
  DeviceArray<unsigned char> batch_scratch;  // grow-only
  std::uint64_t half_bytes = 0;              // bytes of one half (each 256-aligned)
  std::uint64_t half_dirty[2] = {0, 0};      // prefix of each half that may be non-zero
  struct ClaimedSlots {  // a filtered batch's dedup table, non-zero at the bits of `bitmap`
    unsigned long long* keys = nullptr;
    std::uint32_t* bitmap = nullptr;
    std::uint64_t words = 0;
    std::uint32_t* last = nullptr;  // and its last-entry array (weighted inserts)
  };
  ClaimedSlots half_claimed[2];
  unsigned batch_parity = 0;  // half of the next batch
  struct PinnedFree {
    void operator()(BatchReport* p) const { (void)cudaFreeHost(p); }
  };
  // The counters as the last block of a pass left them (host memory mapped into the device).
  std::unique_ptr<BatchReport, PinnedFree> batch_result = [] {
    void* p = nullptr;
    WG_CUDA_TRY(cudaHostAlloc(&p, sizeof(BatchReport), cudaHostAllocMapped));
    std::memset(p, 0, sizeof(BatchReport));
    return std::unique_ptr<BatchReport, PinnedFree>(static_cast<BatchReport*>(p));
  }();
  BatchReport* batch_report = [this] {
    void* d = nullptr;
    WG_CUDA_TRY(cudaHostGetDevicePointer(&d, batch_result.get(), 0));
    return static_cast<BatchReport*>(d);
  }();
  unsigned long long report_sequence = 0;  // of the last pass launched

  struct BatchScratch {
    BatchCounters* counters;
    detail::BatchDedupRef dedup;
    detail::BatchFilterRef filter;  // seen == null: not filtered
    std::uint32_t* claimed;
    unsigned long long* retry[2];
    unsigned long long* fixups;  // BatchPass::last_fixups
    vertex_t* resize;
    uint4* clear;  // the other half's dirty prefix, for the kernel to zero
    std::uint64_t clear_words;
    ClaimedSlots clear_claimed;  // and its claimed slots
  };

  static std::uint64_t align256(std::uint64_t b) { return (b + 255) & ~std::uint64_t{255}; }

  /// How a batch tells an edge's first entry from its duplicates: claims in a hash table, the
  /// same behind a filter, or the batch sorted into edge order (equal keys adjacent).
  enum class BatchDedup { table, filtered, sorted };
  // Sorted batches: the packed keys (unsorted, then sorted), weighted inserts' values (likewise)
  // and CUB's scratch (grow-only).
  DeviceArray<std::uint64_t> sort_keys;
  DeviceArray<std::uint32_t> sort_values;
  DeviceArray<char> sort_temp;

  /// Scratch for a batch of n entries: its half's counters, filter and dedup table are zero when
  /// the batch's kernels run (a memset only when the half was not cleaned: first use, growth).
  /// `filtered`: with the filter bitmaps and the claimed-slot bitmap; sorted: no dedup table.
  BatchScratch scratch_for(std::uint64_t n, bool last_wins, BatchDedup mode) {
    const bool filtered = mode == BatchDedup::filtered;
    const std::uint64_t cap = mode == BatchDedup::sorted ? 0 : detail::dedup_capacity(n);
    const std::uint64_t filter_bytes = filtered ? detail::filter_bits(n) / 8 : 0;
    const std::uint64_t claimed_bytes = filtered ? align256(cap / 8) : 0;
    const std::uint64_t o_seen = align256(sizeof(BatchCounters));
    const std::uint64_t o_shared = o_seen + align256(filter_bytes);
    const std::uint64_t o_claimed = o_shared + align256(filter_bytes);
    const std::uint64_t o_dedup = o_claimed + claimed_bytes;
    const std::uint64_t o_last = o_dedup + cap * sizeof(unsigned long long);
    const std::uint64_t zeroed = align256(o_last + (last_wins ? cap * sizeof(std::uint32_t) : 0));
    // Weighted batches deduplicated in the table list their duplicates (BatchPass::last_fixups).
    const std::uint64_t fixup_bytes =
        last_wins && mode == BatchDedup::table ? align256(2 * n * sizeof(unsigned long long)) : 0;
    // After the two halves: the retry lists (one per pass parity), the resize list, the fix-ups.
    const std::uint64_t retry_bytes = align256(n * sizeof(unsigned long long));
    const std::uint64_t resize_bytes = align256(2 * n * sizeof(vertex_t));
    const std::uint64_t lists = 2 * retry_bytes + resize_bytes + fixup_bytes;
    if (half_bytes < zeroed || batch_scratch.size() < 2 * half_bytes + lists) {
      half_bytes = std::max(half_bytes, zeroed);
      const std::uint64_t total =
          std::max<std::uint64_t>(2 * half_bytes + lists, batch_scratch.size());
      batch_scratch = DeviceArray<unsigned char>();
      batch_scratch = DeviceArray<unsigned char>(total, stream, "batch scratch");
      half_dirty[0] = half_dirty[1] = half_bytes;  // fresh memory: zeroed on first use
      half_claimed[0] = half_claimed[1] = ClaimedSlots{};
    }
    const unsigned h = batch_parity;
    batch_parity ^= 1u;
    unsigned char* base = batch_scratch.data();
    unsigned char* b = base + h * half_bytes;
    if (half_dirty[h]) WG_CUDA_TRY(cudaMemsetAsync(b, 0, half_dirty[h], stream));
    BatchScratch sc;
    sc.counters = reinterpret_cast<BatchCounters*>(b);
    sc.dedup.keys = reinterpret_cast<unsigned long long*>(b + o_dedup);
    sc.dedup.last = last_wins ? reinterpret_cast<std::uint32_t*>(b + o_last) : nullptr;
    sc.dedup.mask = cap - 1;
    sc.claimed = nullptr;
    if (filtered) {
      sc.filter.seen = reinterpret_cast<std::uint32_t*>(b + o_seen);
      sc.filter.shared = reinterpret_cast<std::uint32_t*>(b + o_shared);
      sc.filter.shift = 64 - static_cast<unsigned>(std::countr_zero(detail::filter_bits(n)));
      sc.claimed = reinterpret_cast<std::uint32_t*>(b + o_claimed);
    }
    unsigned char* l = base + 2 * half_bytes;
    sc.retry[0] = reinterpret_cast<unsigned long long*>(l);
    sc.retry[1] = reinterpret_cast<unsigned long long*>(l + retry_bytes);
    sc.resize = reinterpret_cast<vertex_t*>(l + 2 * retry_bytes);
    sc.fixups = fixup_bytes
                    ? reinterpret_cast<unsigned long long*>(l + 2 * retry_bytes + resize_bytes)
                    : nullptr;
    sc.clear = reinterpret_cast<uint4*>(base + (h ^ 1u) * half_bytes);
    sc.clear_words = half_dirty[h ^ 1u] / sizeof(uint4);  // 256-aligned: whole words
    sc.clear_claimed = half_claimed[h ^ 1u];
    // A filtered batch dirties its prefix up to the claimed-slot bitmap, and the slots that
    // bitmap lists (the next batch clears those and the bitmap).
    half_dirty[h] = filtered ? o_claimed : zeroed;
    half_claimed[h] = filtered ? ClaimedSlots{sc.dedup.keys, sc.claimed, cap / 32, sc.dedup.last}
                               : ClaimedSlots{};
    half_dirty[h ^ 1u] = 0;  // the batch's first kernel zeroes it
    half_claimed[h ^ 1u] = ClaimedSlots{};
    return sc;
  }

  /// A batch size threshold 2^k: k from the environment variable `name` if set, else
  /// `default_log2`; k >= 40 means no batch (all ones).
  static std::uint64_t size_threshold(const char* name, int default_log2) {
    const char* e = std::getenv(name);
    const int k = e ? std::atoi(e) : default_log2;
    return k >= 40 ? ~std::uint64_t{0} : std::uint64_t{1} << std::max(k, 0);
  }

  /// Erase batches smaller than this do not wait for their dedup claims (one round trip less
  /// per entry: on the H100, uniform 2^16 and 2^17 erases +5-10%); larger ones, where the
  /// throughput counts, wait and let only owners erase (eager erasing measured ~9% slower at
  /// 2^19..2^22, before those batches were filtered). Since filtered batches (filter_from) never
  /// erase eagerly, the default 2^19 makes every unfiltered erase eager: at 2^18 that measured
  /// +7.4% to +12.7% on the undirected and ids-permuted rows and +2% to +7% on the directed ones
  /// (H100, against 2^18). WG_GRAPH_EAGER_ERASE_BELOW=k overrides with 2^k.
  static std::uint64_t eager_erase_below() {
    static const std::uint64_t below = size_threshold("WG_GRAPH_EAGER_ERASE_BELOW", 19);
    return below;
  }

  /// Batches of at least this many entries are filtered before their dedup claims
  /// (detail::BatchFilterRef): one more kernel, but about 94% of the entries skip the claim.
  /// Measured on the H100 (uniform and R-MAT batches into 16.8M arcs): about even at 2^18-2^19,
  /// inserts +10-20% and erases +20-25% at 2^21-2^22. Weighted inserts (`last_wins`) skip the
  /// claim in both of their passes, so they gain from 2^18: uniform weighted inserts +10% at
  /// 2^18, +18-22% at 2^19 and +32-42% at 2^20 (three rounds in one call).
  /// WG_GRAPH_FILTER_FROM=k overrides with 2^k for both (k >= 40: never).
  static std::uint64_t filter_from(bool last_wins) {
    static const std::uint64_t from = size_threshold("WG_GRAPH_FILTER_FROM", 19);
    static const std::uint64_t from_last_wins = size_threshold("WG_GRAPH_FILTER_FROM", 18);
    return last_wins ? from_last_wins : from;
  }

  /// Unsorted bulk builds of fewer entries size their tables without a scan or a wait (pool
  /// from an upper bound of the bucket count, size_small_tables_kernel). H100, same call:
  /// luxembourg_osm 0.076-0.079 ms against 0.110-0.127 with the scan and the wait,
  /// delaunay_n16 0.082-0.089 against 0.118-0.132, facebook_combined 0.094-0.099 against
  /// 0.122-0.136.
  static constexpr std::uint64_t kSmallBuildBelow = std::uint64_t{1} << 19;

  /// Bulk builds of at least this many entries dedup by sorting (prepare(), then each table is
  /// sized for its exact degree); smaller ones size the tables from the raw entries' arcs and
  /// insert them as a batch (hash dedup: no sort, two synchronisations fewer).
  /// WG_GRAPH_BUILD_SORT_FROM=k overrides with 2^k.
  static std::uint64_t build_sort_from() {
    static const std::uint64_t from = size_threshold("WG_GRAPH_BUILD_SORT_FROM", 19);
    return from;
  }

  /// Whether a batch of n entries is sorted into edge order first (detail::pack_edge_keys, then
  /// a CUB radix sort on 2 x key_bits bits): duplicates become neighbours (no dedup table at all)
  /// and so do a vertex's arcs, whose handle, degree and slabs a warp then shares. The sort of a
  /// 2^22 batch takes about 0.3 ms on the H100, so only large batches gain:
  /// - erases from 2^21: uniform +20% at 2^21 and +58% at 2^22, undirected R-MAT s22 +8-23%,
  ///   R-MAT s20 about even (16.8M-arc graphs);
  /// - inserts into sets from 2^21 while the batches are not skewed: directed ones through
  ///   insert_sorted_kernel, uniform +20% at 2^21 and +44% at 2^22; undirected ones through the
  ///   general kernel on the sorted keys (the forward arcs grouped, the reverse ones not), uniform
  ///   incremental build +12% at 2^21 and +29% at 2^22 (two runs, one call). R-MAT batches are
  ///   slower sorted (directed 0-17%, undirected s22 inserts 15-24%, undirected incremental build
  ///   8-9%: a hub's arcs arrive together). The last large insert batch decides: sorted when
  ///   fewer than 1 in 4096 of its entries were duplicates. Uniform batches have far fewer
  ///   (2^22 entries: 7 directed, 2 undirected), skewed ones far more (directed R-MAT s20
  ///   0.8-1.5%; undirected R-MAT s22 ef8 2^21 batches 1 in 331, which 1 in 256 let through).
  /// - inserts into maps by the same rule, their values sorted along (the last entry of an edge
  ///   stays last, which also saves the unsorted path's last-entry pass): uniform +39% at 2^21
  ///   and +60% at 2^22 (weighted 16.8M-arc graph, three rounds in one call); sorted from 2^19
  ///   they lost 15-25% at 2^19 and were about even at 2^20.
  /// WG_GRAPH_SORT_FROM=k sorts both kinds from 2^k, WG_GRAPH_SORT_INSERTS_FROM=k inserts from
  /// 2^k, whatever the batches before (k >= 40: never).
  bool sort_batch(BatchOp op, std::uint64_t n) const {
    static const int forced = [] {
      const char* e = std::getenv("WG_GRAPH_SORT_FROM");
      return e ? std::max(std::atoi(e), 0) : -1;
    }();
    static const int forced_inserts = [] {
      const char* e = std::getenv("WG_GRAPH_SORT_INSERTS_FROM");
      return e ? std::max(std::atoi(e), 0) : -1;
    }();
    const auto from = [n](int k) { return k < 40 && n >= (std::uint64_t{1} << k); };
    if (nv > (std::uint64_t{1} << 31)) return false;  // keys hold two ids of <= 31 bits
    if (forced >= 0) return from(forced);
    if (op == BatchOp::erase) return from(21);
    if (forced_inserts >= 0) return from(forced_inserts);
    return from(21) && last_insert_skewed == 0;
  }
  /// The last insert batch of 2^19 entries or more: 1 if 1 in 4096 of its entries or more were
  /// duplicates, 0 if fewer, -1 before the first.
  int last_insert_skewed = -1;

  /// How long the host waits for a pass's report by polling it before it synchronises with the
  /// stream (which also reports a failed kernel, whose last block never reports). Polling
  /// returns as soon as the last block has written the counters, about 2 us before a stream
  /// synchronisation would (H100: uniform 2^16 inserts +2-7%, erases +9-10%, in the same
  /// runs). WG_GRAPH_REPORT_SPIN_US overrides (0: always synchronise).
  static std::chrono::microseconds report_spin() {
    static const std::chrono::microseconds us{[] {
      const char* e = std::getenv("WG_GRAPH_REPORT_SPIN_US");
      return e ? std::max(std::atoi(e), 0) : 2000;
    }()};
    return us;
  }
  /// The counters of the pass just launched with sequence number `sequence`: its last block
  /// wrote them to batch_result, each word tagged (report_tag). Every block of the pass has
  /// finished its updates by then, and what runs next on the stream sees the batch applied. (The
  /// words need no system-scope fence before a flag: each is read whole, and all carry the tag
  /// only once the last one is written. Measured on the H100 against the flag: about 1 us less
  /// per pass, a 2^16 erase 24.4-24.8 us against 25.8-26.1.)
  BatchCounters read_batch_counters(unsigned long long sequence) {
    constexpr unsigned kWords = sizeof(BatchCounters) / sizeof(unsigned long long);
    unsigned long long* const words =
        reinterpret_cast<unsigned long long*>(&batch_result->counters);
    const unsigned long long tag = report_tag(sequence);
    unsigned long long w[kWords];
    const auto seen = [&] {
      for (unsigned k = 0; k < kWords; ++k) {
        w[k] = __atomic_load_n(words + k, __ATOMIC_ACQUIRE);
        if ((w[k] & ~kReportCountMask) != tag) return false;
      }
      return true;
    };
    const auto t0 = std::chrono::steady_clock::now();
    for (unsigned spins = 1; !seen(); ++spins) {
      if (spins % 64 == 0 && std::chrono::steady_clock::now() - t0 >= report_spin()) {
        WG_CUDA_TRY(cudaStreamSynchronize(stream));
        if (!seen())
          throw std::logic_error("warpgraph: a batch pass finished without reporting its counters");
        break;
      }
    }
    for (unsigned long long& x : w) x &= kReportCountMask;
    BatchCounters c;
    std::memcpy(&c, w, sizeof(c));
    return c;
  }

  /// The GPU's resident threads (multiprocessors x threads per multiprocessor).
  static std::uint64_t resident_threads() {
    static const std::uint64_t t = [] {
      int dev = 0, sms = 0, threads = 0;
      (void)cudaGetDevice(&dev);
      (void)cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
      (void)cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor, dev);
      return std::max<std::uint64_t>(32, std::uint64_t(sms) * threads);
    }();
    return t;
  }

  /// Grid of a batch kernel for `threads` threads of work: at most twice the GPU's thread
  /// capacity, the warps striding over the rest. A block lives as long as its slowest warp, and
  /// with one round of 32 entries per warp a third of the warps' time went to waiting for their
  /// block's barrier (ncu, sorted inserts). Measured on the H100 against one round per warp:
  /// sorted inserts 6.9 against 5.7 G/s and sorted erases 8.1-8.3 against 7.6 G/s (uniform
  /// 2^22), R-MAT inserts +2-10% at 2^20-2^22, the rest unchanged; 1x and 4x the capacity about
  /// the same as 2x.
  static unsigned striding_grid(std::uint64_t threads) {
    return grid_for(std::min<std::uint64_t>(threads, 2 * resident_threads()));
  }
  /// striding_grid for work whose size only the device knows: the whole cap.
  static unsigned full_striding_grid() { return grid_for(2 * resident_threads()); }

  /// Entries per warp for the 8-lane-task kernels (WG_GRAPH_TILE=8).
  /// A warp issues the loads of all its entries at once and then works through them, so more
  /// entries per warp hide more latency; only batches too small to fill the GPU with 32 per warp
  /// use 8 (measured on the H100, 8-lane set tasks, uniform and R-MAT batches 2^16..2^22: 32 per
  /// warp beat 8 by 1.3-1.5x from 2^17 up, 8 won at 2^16). WG_GRAPH_ITEMS_PER_WARP=8|32
  /// overrides. One-thread tasks always deal 32 (one per lane).
  int items_per_warp(std::uint64_t n) const {
    if (tile_lanes() == 1) return 32;
    static const int forced = [] {
      const char* e = std::getenv("WG_GRAPH_ITEMS_PER_WARP");
      return e ? std::atoi(e) : 0;
    }();
    if (forced == 8 || forced == 32) return forced;
    const std::uint64_t resident_warps = resident_threads() / 32;
    // 32 per warp once the batch has 8 entries per resident warp (H100: from 2^17 on).
    return n >= 8 * resident_warps ? 32 : 8;
  }

  /// WG_GRAPH_TRACE=1: one line per direct batch on stderr (counts, retries, resizes, time).
  static bool trace_batches() {
    static const bool on = std::getenv("WG_GRAPH_TRACE") != nullptr;
    return on;
  }

  /// WG_GRAPH_TRACE=1 for build and erase_vertices: the wall time of each phase (the stream is
  /// synchronised at every mark, only when tracing), one line on stderr at the end of the call.
  class PhaseTrace {
   public:
    PhaseTrace(cudaStream_t stream, const char* call) : stream_(stream), line_(call) {}
    ~PhaseTrace() {
      if (trace_batches()) std::fprintf(stderr, "[%s ]\n", line_.c_str());
    }
    void mark(const char* phase) {
      if (!trace_batches()) return;
      (void)cudaStreamSynchronize(stream_);
      const auto now = std::chrono::steady_clock::now();
      char buf[64];
      std::snprintf(buf, sizeof buf, " %s %.3f ms", phase,
                    std::chrono::duration<double, std::milli>(now - last_).count());
      line_ += buf;
      last_ = now;
    }

   private:
    cudaStream_t stream_;
    std::string line_;
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
  };

  /// Lanes per task in apply_batch_kernel: 1 (one thread walks each arc's chain; measured on
  /// the H100 for sets against 2, 4 and 8 lanes: fastest at every batch size, 2^16..2^22,
  /// uniform and R-MAT). WG_GRAPH_TILE=8 selects 8-lane tasks for comparison.
  int tile_lanes() const {
    static const int forced = [] {
      const char* e = std::getenv("WG_GRAPH_TILE");
      return e ? std::atoi(e) : 0;
    }();
    return forced == 8 ? 8 : 1;
  }

  template <BatchOp kOp, bool kLast, int kItems, int kTile, bool kFresh = false,
            slab::FirstRead kFirst = slab::FirstRead::cached>
  void launch_batch(const BatchPass& p) {
    const unsigned grid = striding_grid((p.n + kItems - 1) / kItems * 32);
    if (p.filter.seen) {
      filter_batch_kernel<Adj>
          <<<grid_for((p.n + kFilterItems - 1) / kFilterItems), kBlock, 0, stream>>>(ref(), p);
      WG_CUDA_CHECK_LAST();
    }
    if constexpr (kLast) {
      last_entry_kernel<Adj, kItems><<<grid, kBlock, 0, stream>>>(ref(), p);
      WG_CUDA_CHECK_LAST();
    }
    apply_batch_kernel<Adj, kOp, kLast, kItems, kTile, kFresh, kFirst>
        <<<grid, kBlock, 0, stream>>>(ref(), p);
    WG_CUDA_CHECK_LAST();
  }
  /// Runs the batch kernel with one-thread tasks (32 entries per warp; a build's fresh tables
  /// with the kernel that places arcs), or, for comparison (WG_GRAPH_TILE=8), 8-lane tasks with
  /// `items` entries per warp.
  template <BatchOp kOp, bool kLast>
  void launch_batch(const BatchPass& p, int items, int tile) {
    if constexpr (kOp == BatchOp::insert) {
      if (p.fresh_tables) {
        launch_batch<kOp, kLast, 32, 1, true>(p);
        return;
      }
    }
    // Set inserts and map erases always read through L1; map inserts and set erases choose.
    constexpr bool kChooses = (kOp == BatchOp::insert) == Adj::weighted;
    constexpr slab::FirstRead kUsual =  // the slab API's default (8-lane comparison mode)
        kOp == BatchOp::erase ? slab::kDefaultEraseRead<Adj::weighted> : slab::FirstRead::cached;
    if (tile == 1) {
      if constexpr (kChooses) {
        if (batch_first_read(kOp, Adj::weighted, p.keys != nullptr, p.n) ==
            slab::FirstRead::relaxed) {
          launch_batch<kOp, kLast, 32, 1, false, slab::FirstRead::relaxed>(p);
          return;
        }
      }
      launch_batch<kOp, kLast, 32, 1, false, slab::FirstRead::cached>(p);
    } else if (items == 8) {
      launch_batch<kOp, kLast, 8, 8, false, kUsual>(p);
    } else {
      launch_batch<kOp, kLast, 32, 8, false, kUsual>(p);
    }
  }

  /// One chunk of insert_edges / erase_edges: one kernel (a filter or a pack and sort before it
  /// for large batches, a last-entry pass for weighted inserts) and one synchronisation, after
  /// which the counters are in mapped host memory; out-of-slabs owners are retried after the
  /// allocator grows, and tables the batch took past max_load_factor are rebuilt afterwards.
  /// fresh_tables: a small build's insert into the tables it has just sized for the batch's raw
  /// arcs, with zero degrees (BatchPass::fresh_tables).
  template <BatchOp kOp>
  UpdateResult apply_batch(DeviceEdges b, bool fresh_tables = false) {
    UpdateResult r;
    if (b.size == 0) return r;
    // Weighted inserts: the last entry of an edge sets its value. A sorted batch has it at the
    // end of the edge's run (the sort is stable); a filtered one finds it in a first pass
    // (kLastWins); one deduplicated in the table fixes the values of its duplicated edges
    // afterwards, if it has any (BatchPass::last_fixups): a batch without duplicates, the
    // common case, takes one kernel, not two (uniform 2^16 / 2^17 weighted inserts +13-17% on
    // an H200 and +6-16% on an H100 against the last-entry pass, tools/bench/RESULTS.md).
    const bool with_values = kOp == BatchOp::insert && Adj::weighted && b.values;
    const auto t0 = trace_batches() ? std::chrono::steady_clock::now()
                                    : std::chrono::steady_clock::time_point{};
    const BatchDedup mode = sort_batch(kOp, b.size)              ? BatchDedup::sorted
                            : b.size >= filter_from(with_values) ? BatchDedup::filtered
                                                                 : BatchDedup::table;
    const bool filtered = mode == BatchDedup::filtered;
    const bool last = with_values && filtered;
    const bool fix_last = with_values && mode == BatchDedup::table;
    const BatchScratch sc = scratch_for(b.size, last || fix_last, mode);
    // A build's first chunk goes into tables sized for it: no deferral, so no degree
    // reservations either (an atomic with return per arc, hubs' serialised).
    const double resize_limit =
        kOp == BatchOp::insert && plan_rebuilds ? resize_keys_per_bucket() : 0.0;
    // Placement needs the degrees to count placed arcs only: no reservations (resize_limit 0).
    const bool fresh =
        kOp == BatchOp::insert && fresh_tables && resize_limit == 0.0 && tile_lanes() == 1;
    BatchPass p{b.src,
                b.dst,
                with_values ? b.values : nullptr,
                b.size,
                nullptr,
                sc.retry[0],
                &sc.counters->retry[0],
                sc.resize,
                incoming.data(),
                sc.counters,
                sc.dedup,
                resize_limit,
                !opt.directed,
                batch_report,
                sc.clear,
                sc.clear_words,
                kOp == BatchOp::erase && b.size < eager_erase_below() && !filtered,
                sc.filter,
                sc.claimed,
                sc.clear_claimed.keys,
                sc.clear_claimed.bitmap,
                sc.clear_claimed.words,
                sc.clear_claimed.last,
                nullptr,
                0,
                ++report_sequence,
                fresh,
                fix_last ? sc.fixups : nullptr};
    const int items = items_per_warp(b.size), tile = tile_lanes();
    if (mode == BatchDedup::sorted) {
      // Equal edges end up adjacent, and so do a vertex's arcs, whose slabs and handles a warp
      // then reads once for several lanes.
      if (sort_keys.size() < 2 * b.size) {
        sort_keys = DeviceArray<std::uint64_t>();
        sort_keys = DeviceArray<std::uint64_t>(2 * b.size, stream, "batch sort keys");
      }
      if (with_values && sort_values.size() < 2 * b.size) {
        sort_values = DeviceArray<std::uint32_t>();
        sort_values = DeviceArray<std::uint32_t>(2 * b.size, stream, "batch sort values");
      }
      std::uint32_t* const values = with_values ? sort_values.data() : nullptr;
      p.key_bits = detail::key_bits_for(nv);
      // Entries with a dead end point become `ignored` keys too, counted as the kernel would.
      detail::pack_edge_keys(b, live.data(), nv, p.key_bits, !opt.directed, sort_keys.data(),
                             values, &sc.counters->self_loops, &sc.counters->ignored, stream);
      detail::sort_keys(sort_keys.data(), sort_keys.data() + b.size, b.size,
                        static_cast<int>(2 * p.key_bits), sort_temp, stream, values,
                        values ? values + b.size : nullptr);
      p.keys = sort_keys.data() + b.size;
      if (values) p.values = values + b.size;  // entry i's value: the kernel reads values[i]
    }
    if constexpr (kOp == BatchOp::insert && Adj::weighted) {
      if (last) {
        launch_batch<kOp, true>(p, items, tile);
      } else {
        launch_batch<kOp, false>(p, items, tile);
      }
    } else if constexpr (kOp == BatchOp::insert) {
      if (mode == BatchDedup::sorted && opt.directed && tile == 1) {
        insert_sorted_kernel<Adj><<<striding_grid(b.size), kBlock, 0, stream>>>(ref(), p);
        WG_CUDA_CHECK_LAST();
      } else {
        launch_batch<kOp, false>(p, items, tile);
      }
    } else {
      launch_batch<kOp, false>(p, items, tile);
    }
    BatchCounters c = read_batch_counters(p.sequence);
    const double first_ms =
        trace_batches()
            ? std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                  .count()
            : 0.0;
    int pass = 0;
    bool resized = false;
    double resize_ms = 0, grow_ms = 0;  // traced only
    int rebuild_retries = 0;
    unsigned long long slab_failures = 0;
    for (; c.retry[pass & 1]; ++pass) {
      // Owners left with arcs to do: deferred ones wait for their tables' rebuild, the others
      // for more slabs.
      if (c.out_of_slabs > slab_failures) {
        const auto g0 = trace_batches() ? std::chrono::steady_clock::now()
                                        : std::chrono::steady_clock::time_point{};
        grow_allocator();
        if (trace_batches()) {
          WG_CUDA_TRY(cudaStreamSynchronize(stream));
          grow_ms +=
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - g0)
                  .count();
        }
      }
      // The rebuild: once, and again while it could not be done (the retry pass held the
      // owners back; incoming[] kept the counts). after_rebuild grew what was missing.
      if (c.resize && (!resized || c.rebuild.need_buckets || c.rebuild.failed)) {
        const auto r0 = trace_batches() ? std::chrono::steady_clock::now()
                                        : std::chrono::steady_clock::time_point{};
        if (resized) {
          after_rebuild(c.rebuild);
          ++rebuild_retries;
          WG_CUDA_TRY(cudaMemsetAsync(&sc.counters->rebuild, 0, sizeof(RebuildStatus), stream));
        }
        rebuild_tables(sc.resize, &sc.counters->resize, c.resize, &sc.counters->rebuild, true);
        resized = true;
        if (trace_batches()) {
          WG_CUDA_TRY(cudaStreamSynchronize(stream));
          resize_ms =
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - r0)
                  .count();
        }
      }
      slab_failures = c.out_of_slabs;
      BatchPass q = p;
      q.resize_keys_per_bucket = 0;  // nothing is deferred twice
      q.clear_words = 0;             // the first pass cleaned the other half
      q.clear_claimed_words = 0;
      q.filter = detail::BatchFilterRef{};  // retry items are owners: no claims
      q.fresh_tables = false;               // arcs left go into their chains, placements done
      q.retry_in = sc.retry[pass & 1];
      q.n = c.retry[pass & 1];
      q.retry_out = sc.retry[(pass + 1) & 1];
      q.retry_out_count = &sc.counters->retry[(pass + 1) & 1];
      q.sequence = ++report_sequence;
      WG_CUDA_TRY(cudaMemsetAsync(q.retry_out_count, 0, sizeof(unsigned long long), stream));
      launch_batch<kOp, false>(q, items_per_warp(q.n), tile_lanes());
      c = read_batch_counters(q.sequence);
    }
    if (resized) after_rebuild(c.rebuild);  // the last round, done (counted)
    // Every owner's arcs are in: the last entries that were duplicates assign their values (no
    // wait: what runs next on the stream sees them; the counters do not change).
    if (c.fixups) {
      assign_last_values_kernel<Adj><<<grid_for(c.fixups), kBlock, 0, stream>>>(ref(), p, c.fixups);
      WG_CUDA_CHECK_LAST();
    }
    if (trace_batches()) {
      WG_CUDA_TRY(cudaStreamSynchronize(stream));
      std::fprintf(
          stderr,
          "[batch %s n=%llu items/warp=%d tile=%d dedup %s] first %.3f slabs %llu applied %llu "
          "dup %llu ignored %llu claimers %llu fixups %llu | "
          "retry passes %d | listed %llu, rebuild (%.3f ms, %d again) | slab failures %llu "
          "(grow %.3f ms, %u super "
          "blocks) | %.3f ms\n",
          kOp == BatchOp::insert ? "insert" : "erase", (unsigned long long)b.size, items, tile,
          mode == BatchDedup::table ? "table"
          : filtered                ? "filtered"
                                    : "sorted",
          first_ms, (unsigned long long)alloc.slabs_in_use(stream), c.applied, c.duplicates,
          c.ignored, filtered ? c.claimers : 0ull, c.fixups, pass, c.resize, resize_ms,
          rebuild_retries, c.out_of_slabs, grow_ms, alloc.num_super_blocks(),
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    r.applied = c.applied;
    r.self_loops = c.self_loops;
    r.duplicates = c.duplicates;
    if (kOp == BatchOp::insert && b.size >= (std::uint64_t{1} << 19))
      last_insert_skewed = c.duplicates * 4096 >= b.size ? 1 : 0;
    // Erase kernels count the owners of live edges in `ignored`; those not erased were absent.
    r.ignored = kOp == BatchOp::erase ? c.ignored - c.applied : c.ignored;
    if (kOp == BatchOp::insert)
      edges += c.applied;
    else
      edges -= c.applied;
    return r;
  }

  /// Largest batch processed in one piece.
  std::uint64_t chunk_for(std::uint64_t n) const {
    if (opt.max_chunk) return std::max<std::uint64_t>(opt.max_chunk, 1);
    constexpr std::uint64_t kBytesPerEntry = 64;  // keys x2, values x2, flags, state, CUB temp
    if (n * kBytesPerEntry < (std::uint64_t{1} << 30)) return n;
    const std::uint64_t free_b = gpu_memory_info().first;
    const std::uint64_t fit = free_b / 2 / kBytesPerEntry;
    if (fit < (1u << 16))
      throw CapacityError("GPU memory", free_b,
                          "not enough free GPU memory to process even a batch of 65536 edges");
    return std::min(n, fit);
  }
};

template <class Adj>
DynamicGraph<Adj>::DynamicGraph(std::uint64_t num_vertices, const GraphOptions& options)
    : impl_(std::make_unique<Impl>(options)) {
  impl_->reserve(std::max<std::uint64_t>(num_vertices, 1));
  impl_->grow(num_vertices);
}
template <class Adj>
DynamicGraph<Adj>::~DynamicGraph() = default;
template <class Adj>
DynamicGraph<Adj>::DynamicGraph(DynamicGraph&&) noexcept = default;
template <class Adj>
DynamicGraph<Adj>& DynamicGraph<Adj>::operator=(DynamicGraph&&) noexcept = default;

template <class Adj>
typename DynamicGraph<Adj>::ref_type DynamicGraph<Adj>::ref() const {
  return impl_->ref();
}

template <class Adj>
PreparedBatch DynamicGraph<Adj>::prepare(DeviceEdges batch) const {
  PreparedBatch out;
  detail::prepare_batch(batch, impl_->live.data(), impl_->nv, !impl_->opt.directed, weighted,
                        impl_->stream, out);
  return out;
}

template <class Adj>
UpdateResult DynamicGraph<Adj>::insert_prepared(const PreparedBatch& batch,
                                                std::uint8_t* is_new_device) {
  Impl& im = *impl_;
  UpdateResult r = batch.dropped;
  if (batch.size == 0) return r;
  if (im.plan_rebuilds) im.resize_for(batch);
  DeviceArray<std::uint8_t> state(batch.size, im.stream, "batch state");
  WG_CUDA_TRY(cudaMemsetAsync(state.data(), 0, batch.size, im.stream));
  const bool both = !im.opt.directed;
  std::uint64_t added = 0;
  for (int attempt = 0;; ++attempt) {
    im.zero_counters();
    insert_prepared_kernel<Adj><<<grid_for(batch.size), kBlock, 0, im.stream>>>(
        im.ref(), batch.keys.data(), weighted ? batch.values.data() : nullptr, batch.size,
        batch.key_bits, both, state.data(), im.counters.data());
    WG_CUDA_CHECK_LAST();
    const Counters c = im.read_counters();
    added += c.a;
    if (c.b == 0) break;
    im.grow_allocator();  // then resume the arcs not done
  }
  if (is_new_device) {
    state_to_flags_kernel<<<grid_for(batch.size), kBlock, 0, im.stream>>>(state.data(), batch.size,
                                                                          is_new_device);
    WG_CUDA_CHECK_LAST();
  }
  r.applied = added;
  r.ignored += batch.size - added;
  im.edges += added;
  return r;
}

template <class Adj>
UpdateResult DynamicGraph<Adj>::erase_prepared(const PreparedBatch& batch,
                                               std::uint8_t* was_present_device) {
  Impl& im = *impl_;
  UpdateResult r = batch.dropped;
  if (batch.size == 0) return r;
  im.zero_counters();
  erase_prepared_kernel<Adj><<<grid_for(batch.size), kBlock, 0, im.stream>>>(
      im.ref(), batch.keys.data(), batch.size, batch.key_bits, !im.opt.directed, was_present_device,
      im.counters.data());
  WG_CUDA_CHECK_LAST();
  const Counters c = im.read_counters();
  r.applied = c.a;
  r.ignored += batch.size - c.a;
  im.edges -= c.a;
  return r;
}

template <class Adj>
void DynamicGraph<Adj>::contains_prepared(const PreparedBatch& batch, std::uint8_t* out) const {
  if (batch.size == 0) return;
  contains_prepared_kernel<Adj><<<grid_for(batch.size), kBlock, 0, impl_->stream>>>(
      impl_->ref(), batch.keys.data(), batch.size, batch.key_bits, out);
  WG_CUDA_CHECK_LAST();
}

template <class Adj>
UpdateResult DynamicGraph<Adj>::insert_edges(DeviceEdges batch) {
  UpdateResult total;
  const std::uint64_t chunk = impl_->chunk_for(batch.size);
  for (std::uint64_t off = 0; off < batch.size || (off == 0 && batch.size == 0); off += chunk) {
    if (batch.size == 0) break;
    DeviceEdges part{batch.src + off, batch.dst + off, batch.values ? batch.values + off : nullptr,
                     std::min(chunk, batch.size - off)};
    total += impl_->template apply_batch<BatchOp::insert>(part);
  }
  return total;
}

template <class Adj>
UpdateResult DynamicGraph<Adj>::erase_edges(DeviceEdges batch) {
  UpdateResult total;
  const std::uint64_t chunk = impl_->chunk_for(batch.size);
  for (std::uint64_t off = 0; off < batch.size; off += chunk) {
    DeviceEdges part{batch.src + off, batch.dst + off, nullptr, std::min(chunk, batch.size - off)};
    total += impl_->template apply_batch<BatchOp::erase>(part);
  }
  return total;
}

template <class Adj>
UpdateResult DynamicGraph<Adj>::insert_edges(const EdgeList& batch) {
  detail::check_sizes(batch);
  impl_->grow(batch.num_vertices);
  UpdateResult total;
  const std::uint64_t n = batch.size();
  const std::uint64_t chunk = impl_->chunk_for(n);
  for (std::uint64_t off = 0; off < n; off += chunk) {
    const std::uint64_t len = std::min(chunk, n - off);
    detail::HostBatchUpload up =
        detail::upload_host_batch(batch, off, len, weighted, true, impl_->stream);
    impl_->grow(up.id_range);
    total += insert_edges(up.view(len));
  }
  return total;
}

template <class Adj>
UpdateResult DynamicGraph<Adj>::erase_edges(const EdgeList& batch) {
  detail::check_sizes(batch);
  UpdateResult total;
  const std::uint64_t n = batch.size();
  const std::uint64_t chunk = impl_->chunk_for(n);
  for (std::uint64_t off = 0; off < n; off += chunk) {
    const std::uint64_t len = std::min(chunk, n - off);
    detail::HostBatchUpload up =
        detail::upload_host_batch(batch, off, len, false, false, impl_->stream);
    total += erase_edges(up.view(len));
  }
  return total;
}

template <class Adj>
UpdateResult DynamicGraph<Adj>::build(DeviceEdges edges, std::uint64_t num_vertices) {
  Impl& im = *impl_;
  typename Impl::PhaseTrace trace(im.stream, "build");
  // Start over: drop every table, keep the allocator's memory. A large input frees the old
  // tables' pools first (chunk_for looks at the free memory); a small build may take the largest
  // of them again (build_pool).
  if (edges.size >= Impl::kSmallBuildBelow) im.release_pools();
  im.arena = DeviceArray<slab::Slab>();
  im.arena_capacity = 0;
  im.alloc.reset(im.stream);  // and its exhausted flag
  im.nv = 0;
  im.edges = 0;
  im.live_count = 0;
  im.free_head = im.free_tail = 0;
  im.reserve(std::max<std::uint64_t>(num_vertices, 1));
  const std::uint64_t n = num_vertices;
  if (n == 0) {
    im.release_pools();
    return insert_edges(edges);  // every entry is invalid
  }
  im.live_count = n;
  im.nv = n;
  // Large builds dedup first (to know the degrees), then size the buckets, then insert; small
  // ones size the buckets for the raw arcs and insert the batch as it is.
  const std::uint64_t chunk = im.chunk_for(edges.size);
  DeviceEdges first{edges.src, edges.dst, edges.values, std::min(chunk, edges.size)};
  const bool sorted = first.size >= Impl::build_sort_from();
  // Small builds (by default all unsorted ones) do not wait for the tables' bucket count.
  const bool small = !sorted && first.size < Impl::kSmallBuildBelow;
  // A small build's sizing kernel marks the ids live; the others need them before prepare().
  if (!small) WG_CUDA_TRY(cudaMemsetAsync(im.live.data(), 1, n, im.stream));
  trace.mark("reset");
  PreparedBatch p;
  if (sorted) p = prepare(first);
  trace.mark("prepare");
  if (small) {
    // Two kernels, no memset, no scan and no wait: the raw arc counts go into incoming[], zero
    // between calls (size_small_tables_kernel zeroes it again, zeroes the degrees and marks the
    // ids live; raw_degree_kernel zeroes its bump counter and fills the pool empty), and the pool
    // takes an upper bound of the bucket count (detail/table_sizing.hpp; arcs < 2^20: at most 100K
    // buckets spare for a set, 200K for a map).
    const double c = im.opt.load_factor * Adj::slab_capacity;
    const std::uint64_t spare =
        detail::small_build_spare_buckets(first.size * (im.opt.directed ? 1 : 2), c);
    unsigned long long* const used = &im.counters.data()->a;
    slab::Slab* const pool = im.build_pool(n + spare, false);
    const std::uint64_t fill_words = (n + spare) * (sizeof(slab::Slab) / sizeof(uint4));
    raw_degree_kernel<<<im.striding_grid(std::max(first.size, fill_words)), kBlock, 0, im.stream>>>(
        first, n, !im.opt.directed, im.incoming.data(), used, pool, n + spare);
    size_small_tables_kernel<<<grid_for(n), kBlock, 0, im.stream>>>(
        im.vertices.data(), im.degrees.data(), im.incoming.data(), im.live.data(), n, pool, c,
        used);
    WG_CUDA_CHECK_LAST();
  } else {
    DeviceArray<unsigned long long> buckets(n, im.stream, "bulk build degrees");
    WG_CUDA_TRY(cudaMemsetAsync(buckets.data(), 0, n * sizeof(unsigned long long), im.stream));
    if (!sorted && first.size)
      raw_degree_kernel<<<grid_for(first.size), kBlock, 0, im.stream>>>(first, n, !im.opt.directed,
                                                                        buckets.data());
    else if (p.size)
      build_degree_kernel<<<grid_for(p.size), kBlock, 0, im.stream>>>(
          p.keys.data(), p.size, p.key_bits, !im.opt.directed, buckets.data());
    buckets_kernel<<<grid_for(n), kBlock, 0, im.stream>>>(buckets.data(), n, im.opt.load_factor,
                                                          Adj::slab_capacity);
    WG_CUDA_CHECK_LAST();
    DeviceArray<std::uint64_t> offsets(n + 1, im.stream, "bulk build offsets");
    detail::exclusive_scan(reinterpret_cast<const std::uint64_t*>(buckets.data()), offsets.data(),
                           n, im.stream);
    std::uint64_t total_buckets = 0;
    WG_CUDA_TRY(cudaMemcpyAsync(&total_buckets, offsets.data() + n, sizeof total_buckets,
                                cudaMemcpyDeviceToHost, im.stream));
    WG_CUDA_TRY(cudaStreamSynchronize(im.stream));
    slab::Slab* pool = im.build_pool(total_buckets, true);
    init_entries_kernel<<<grid_for(n), kBlock, 0, im.stream>>>(
        im.vertices.data(), im.degrees.data(), 0, n, pool, offsets.data());
    WG_CUDA_CHECK_LAST();
  }
  trace.mark("size tables");
  UpdateResult r;
  {
    // The tables were just sized for these degrees: nothing to rebuild, no planning.
    struct Restore {
      Impl& im;
      ~Restore() { im.plan_rebuilds = true; }
    } restore{im};
    im.plan_rebuilds = false;
    // (first fits one chunk.) A small build's arcs are placed into its fresh tables.
    r = sorted ? insert_prepared(p)
               : im.template apply_batch<BatchOp::insert>(first, /*fresh_tables=*/small);
  }
  trace.mark("insert");
  if (first.size < edges.size) {
    DeviceEdges rest{edges.src + first.size, edges.dst + first.size,
                     edges.values ? edges.values + first.size : nullptr, edges.size - first.size};
    r += insert_edges(rest);
  }
  return r;
}

template <class Adj>
UpdateResult DynamicGraph<Adj>::build(const EdgeList& edges) {
  detail::check_sizes(edges);
  detail::HostBatchUpload up =
      detail::upload_host_batch(edges, 0, edges.size(), weighted, true, impl_->stream);
  return build(up.view(edges.size()), std::max<std::uint64_t>(edges.num_vertices, up.id_range));
}

template <class Adj>
std::uint64_t DynamicGraph<Adj>::batch_chunk(std::uint64_t n) const {
  return impl_->chunk_for(n);
}

template <class Adj>
void DynamicGraph<Adj>::grow_vertices(std::uint64_t n) {
  impl_->grow(n);
}

template <class Adj>
VertexInsertResult DynamicGraph<Adj>::insert_vertices(std::uint64_t count, const EdgeList& edges) {
  Impl& im = *impl_;
  detail::check_sizes(edges);
  VertexInsertResult out;
  out.ids.reserve(count);
  const std::uint64_t reused = std::min(count, im.free_count());
  out.ids = im.take_free_ids(reused);
  im.live_count += reused;
  const std::uint64_t fresh = count - out.ids.size();
  const std::uint64_t first = im.nv;
  im.grow(im.nv + fresh);
  for (std::uint64_t i = 0; i < fresh; ++i) out.ids.push_back(static_cast<vertex_t>(first + i));
  if (!edges.empty()) {
    EdgeList mapped = edges;
    auto map_id = [&](vertex_t x) -> vertex_t {
      if (!(x & kNewVertexTag)) return x;
      const vertex_t i = x & ~kNewVertexTag;
      if (i >= count)
        throw InvalidArgument("insert_vertices: new_vertex(" + std::to_string(i) + ") but only " +
                              std::to_string(count) + " new vertices");
      return out.ids[i];
    };
    for (std::size_t i = 0; i < mapped.size(); ++i) {
      mapped.src[i] = map_id(mapped.src[i]);
      mapped.dst[i] = map_id(mapped.dst[i]);
    }
    mapped.num_vertices = im.nv;
    out.edges = insert_edges(mapped);
  }
  return out;
}

template <class Adj>
std::vector<vertex_t> DynamicGraph<Adj>::insert_vertices(std::uint64_t count) {
  return insert_vertices(count, EdgeList{}).ids;
}

template <class Adj>
VertexEraseResult DynamicGraph<Adj>::erase_vertices(const std::vector<vertex_t>& ids) {
  if (ids.empty()) return {};
  const DeviceArray<vertex_t> d = DeviceArray<vertex_t>::from_host(ids, impl_->stream);
  return erase_vertices(d.data(), ids.size());
}

template <class Adj>
VertexEraseResult DynamicGraph<Adj>::erase_vertices(const vertex_t* ids, std::uint64_t m) {
  Impl& im = *impl_;
  VertexEraseResult r;
  typename Impl::PhaseTrace trace(im.stream, "erase_vertices");
  if (m == 0) return r;
  if (im.nv == 0) {
    r.ignored_ids = m;
    return r;
  }
  // The erased vertices, on the device: marked, then listed in increasing id order (the order in
  // which insert_vertices hands them out again, as the CPU graph does).
  DeviceArray<std::uint32_t> marks(im.nv, im.stream, "vertex erase flags");
  WG_CUDA_TRY(cudaMemsetAsync(marks.data(), 0, im.nv * sizeof(std::uint32_t), im.stream));
  mark_vertices_kernel<<<grid_for(m), kBlock, 0, im.stream>>>(
      ids, m, im.live.data(), static_cast<std::uint32_t>(im.nv), marks.data());
  WG_CUDA_CHECK_LAST();
  DeviceArray<vertex_t> d_ids(std::min<std::uint64_t>(m, im.nv), im.stream, "erased vertices");
  const std::uint64_t k = detail::flagged_ids(marks.data(), im.nv, d_ids.data(), im.stream);
  r.ignored_ids = m - k;
  trace.mark("mark");
  if (k == 0) return r;
  const std::uint32_t* erasing = marks.data();
  im.zero_counters();
  if (im.opt.directed)
    erase_in_arcs_kernel<Adj>
        <<<warp_grid_for(im.nv), kBlock, 0, im.stream>>>(im.ref(), erasing, im.counters.data());
  WG_CUDA_CHECK_LAST();
  // Every warp of the GPU shares the erased vertices' buckets (their number stays on the device).
  DeviceArray<std::uint64_t> buckets(k, im.stream, "vertex erase buckets");
  DeviceArray<std::uint64_t> offsets(k + 1, im.stream, "vertex erase offsets");
  gather_buckets_kernel<Adj>
      <<<grid_for(k), kBlock, 0, im.stream>>>(im.ref(), d_ids.data(), k, buckets.data());
  WG_CUDA_CHECK_LAST();
  detail::exclusive_scan(buckets.data(), offsets.data(), k, im.stream);
  erase_vertex_buckets_kernel<Adj><<<Impl::full_striding_grid(), kBlock, 0, im.stream>>>(
      im.ref(), d_ids.data(), k, offsets.data(), erasing, !im.opt.directed, im.live.data(),
      im.counters.data());
  WG_CUDA_CHECK_LAST();
  trace.mark("erase");
  const Counters c = im.read_counters();
  r.vertices = k;
  r.edges_removed = im.opt.directed ? c.a + c.b : c.a;
  im.edges -= r.edges_removed;
  im.live_count -= k;
  im.push_free_ids(d_ids.data(), k);
  trace.mark("free ids");
  return r;
}

template <class Adj>
void DynamicGraph<Adj>::has_edges(DeviceEdges q, std::uint8_t* out) const {
  if (q.size == 0) return;
  has_edges_kernel<Adj><<<grid_for(q.size), kBlock, 0, impl_->stream>>>(impl_->ref(), q.src, q.dst,
                                                                        q.size, out, nullptr);
  WG_CUDA_CHECK_LAST();
}

template <class Adj>
void DynamicGraph<Adj>::find_values(DeviceEdges q, std::uint32_t* values_out,
                                    std::uint8_t* found_out) const {
  if (q.size == 0) return;
  has_edges_kernel<Adj><<<grid_for(q.size), kBlock, 0, impl_->stream>>>(
      impl_->ref(), q.src, q.dst, q.size, found_out, values_out);
  WG_CUDA_CHECK_LAST();
}

template <class Adj>
std::vector<std::uint8_t> DynamicGraph<Adj>::has_edges(const EdgeList& q) const {
  detail::check_sizes(q);
  const std::uint64_t n = q.size();
  const detail::HostBatchUpload up =
      detail::upload_host_batch(q, 0, n, false, false, impl_->stream);
  DeviceArray<std::uint8_t> out(n, impl_->stream, "has_edges output");
  has_edges(up.view(n), out.data());
  return out.to_host();
}

template <class Adj>
void DynamicGraph<Adj>::degrees(std::uint32_t* out) const {
  if (impl_->nv == 0) return;
  WG_CUDA_TRY(cudaMemcpyAsync(out, impl_->degrees.data(), impl_->nv * sizeof(std::uint32_t),
                              cudaMemcpyDeviceToDevice, impl_->stream));
}

template <class Adj>
std::vector<std::uint32_t> DynamicGraph<Adj>::degrees() const {
  DeviceArray<std::uint32_t> d(impl_->nv, impl_->stream, "degrees");
  degrees(d.data());
  return d.to_host();
}

template <class Adj>
std::uint64_t DynamicGraph<Adj>::max_degree() const {
  const auto d = degrees();
  return d.empty() ? 0 : *std::max_element(d.begin(), d.end());
}

template <class Adj>
Csr DynamicGraph<Adj>::export_csr() const {
  Impl& im = *impl_;
  Csr csr;
  csr.num_vertices = im.nv;
  const auto deg = degrees();
  csr.offsets.assign(im.nv + 1, 0);
  for (std::uint64_t i = 0; i < im.nv; ++i) csr.offsets[i + 1] = csr.offsets[i] + deg[i];
  const std::uint64_t arcs = csr.offsets[im.nv];
  if (arcs == 0) return csr;
  DeviceArray<std::uint64_t> d_off = DeviceArray<std::uint64_t>::from_host(csr.offsets, im.stream);
  DeviceArray<vertex_t> d_targets(arcs, im.stream, "CSR export");
  DeviceArray<std::uint32_t> d_values;
  if (weighted) d_values = DeviceArray<std::uint32_t>(arcs, im.stream, "CSR export");
  im.zero_counters();
  export_kernel<Adj><<<warp_grid_for(im.nv), kBlock, 0, im.stream>>>(
      im.ref(), d_off.data(), d_targets.data(), weighted ? d_values.data() : nullptr,
      im.counters.data());
  WG_CUDA_CHECK_LAST();
  if (im.read_counters().a != 0)
    throw Error("DynamicGraph::export_csr: a vertex's degree disagrees with its table (bug)");
  csr.targets = d_targets.to_host();
  if (weighted) csr.values = d_values.to_host();
  // Sort each row (tables are unordered).
  std::vector<std::pair<vertex_t, std::uint32_t>> row;
  for (std::uint64_t u = 0; u < im.nv; ++u) {
    const std::uint64_t b = csr.offsets[u], e = csr.offsets[u + 1];
    if (e - b < 2) continue;
    if (!weighted) {
      std::sort(csr.targets.begin() + b, csr.targets.begin() + e);
    } else {
      row.clear();
      for (std::uint64_t i = b; i < e; ++i) row.emplace_back(csr.targets[i], csr.values[i]);
      std::sort(row.begin(), row.end());
      for (std::uint64_t i = b; i < e; ++i) {
        csr.targets[i] = row[i - b].first;
        csr.values[i] = row[i - b].second;
      }
    }
  }
  return csr;
}

template <class Adj>
EdgeList DynamicGraph<Adj>::export_coo() const {
  const Csr csr = export_csr();
  EdgeList e;
  e.num_vertices = csr.num_vertices;
  e.symmetric = !impl_->opt.directed;
  e.reserve(impl_->edges, weighted);
  for (std::uint64_t u = 0; u < csr.num_vertices; ++u) {
    for (std::uint64_t i = csr.offsets[u]; i < csr.offsets[u + 1]; ++i) {
      const vertex_t v = csr.targets[i];
      if (e.symmetric && v < u) continue;
      e.src.push_back(static_cast<vertex_t>(u));
      e.dst.push_back(v);
      if (weighted) e.weight.push_back(csr.values[i]);
    }
  }
  return e;
}

template <class Adj>
std::uint64_t DynamicGraph<Adj>::num_vertices() const noexcept {
  return impl_->nv;
}
template <class Adj>
std::uint64_t DynamicGraph<Adj>::num_live_vertices() const noexcept {
  return impl_->live_count;
}
template <class Adj>
std::uint64_t DynamicGraph<Adj>::num_free_ids() const noexcept {
  return impl_->free_count();
}
template <class Adj>
std::uint64_t DynamicGraph<Adj>::num_edges() const noexcept {
  return impl_->edges;
}
template <class Adj>
bool DynamicGraph<Adj>::directed() const noexcept {
  return impl_->opt.directed;
}
template <class Adj>
const GraphOptions& DynamicGraph<Adj>::options() const noexcept {
  return impl_->opt;
}
template <class Adj>
cudaStream_t DynamicGraph<Adj>::stream() const noexcept {
  return impl_->stream;
}
template <class Adj>
std::uint64_t DynamicGraph<Adj>::memory_bytes() const {
  return impl_->vertices.bytes() + impl_->degrees.bytes() + impl_->incoming.bytes() +
         impl_->live.bytes() + impl_->pool_bytes + impl_->alloc.memory_bytes() +
         impl_->batch_scratch.bytes() + impl_->sort_keys.bytes() + impl_->sort_values.bytes() +
         impl_->sort_temp.bytes();
}
template <class Adj>
std::uint64_t DynamicGraph<Adj>::overflow_slabs_in_use() const {
  return impl_->alloc.slabs_in_use(impl_->stream);
}
template <class Adj>
std::uint64_t DynamicGraph<Adj>::overflow_slab_capacity() const noexcept {
  return impl_->alloc.capacity_slabs();
}
template <class Adj>
void DynamicGraph<Adj>::compact() {
  impl_->compact();
}

template <class Adj>
GraphStats DynamicGraph<Adj>::stats() const noexcept {
  return impl_->counts;
}

template class DynamicGraph<SlabSetAdjacency>;
template class DynamicGraph<SlabMapAdjacency>;

}  // namespace wg::gpu
