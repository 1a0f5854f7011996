#pragma once
// Table rebuilds planned on the device, and compaction (DynamicGraph::compact), which reuses
// their re-insert kernel.
//
// Part of wg::gpu::DynamicGraph's implementation (private to graph/gpu): the kernels live in
// wg::gpu::detail::rebuild and are launched and instantiated by one translation unit.
#include <cub/block/block_scan.cuh>

#include <warpgraph/graph/gpu/slab/detail/kernels/arc_ops.cuh>
#include <warpgraph/graph/gpu/slab/detail/kernels/batch_pass.cuh>

namespace wg::gpu::detail::rebuild {

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

// A rebuild of few tables (*num_listed <= m <= kPlanBlockItems): plan, the two exclusive scans and
// the claim in one block, instead of a plan kernel, two device-wide scans (two kernels each) and a
// claim kernel: one launch instead of six, for the common case of a batch that fills a few
// tables. A chained round, queued before the host knew the count, passes m = kPlanBlockItems;
// when more were listed it does nothing but say so (kRoundNotPlanned).
// Like plan_rebuild_kernel it leaves each table's old bucket count in old_buckets[i] (for the
// commit). The scan works warp by warp (BLOCK_SCAN_WARP_SCANS): CUB's default raking scan kept
// 32 partial plans per raking thread, which spilled 1 KiB of stack per thread.
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
  if (t > m) {  // a chained round (m: a bound) that listed more: the host plans it
    if (threadIdx.x == 0) st->need_buckets = kRoundNotPlanned;
    return;
  }
  RebuildPlan carry{0, 0};
  for (std::uint64_t base = 0; base <= t; base += kPlanBlock) {
    const std::uint64_t i = base + threadIdx.x;
    const RebuildPlan r = i < t ? plan_rebuild(listed[i], incoming, degrees, vertices, limit, fill)
                                : RebuildPlan{0, 0};
    RebuildPlan before, chunk;
    Scan(temp).ExclusiveScan(r, before, RebuildPlan{0, 0}, cuda::std::plus<>{}, chunk);
    if (i <= t) {
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

/// counts[x] = 0 for the n vertices x in `listed`: the per-vertex arc counts that plan a rebuild
/// (incoming[], zero between calls), where no commit cleared them (a rebuild given up, a batch
/// that stopped first).
__global__ void zero_listed_kernel(const vertex_t* listed, std::uint64_t n, std::uint32_t* counts) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    counts[listed[i]] = 0;
}

// Switches the handles to the new tables and frees the old tables' overflow slabs, all warps
// sharing the old buckets: a hub's table has thousands, which one warp per table would walk one
// after another. The warp that clears a table's last bucket switches its handle
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

}  // namespace wg::gpu::detail::rebuild
