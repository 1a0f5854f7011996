#pragma once
// The kernels of insert_edges / erase_edges on a raw batch (one pass each: batch_pass.cuh): the
// filter pass, the last-entry pass of weighted inserts, the fused classify-dedup-apply kernel,
// the value fix-ups of weighted duplicates, and sorted directed inserts.
//
// Each entry is classified (self-loop, invalid id, duplicate, owner of its edge) and the owner
// applies the edge's arcs, all in one kernel (two for large batches, whose first marks the
// dedup filter, and for filtered weighted inserts, whose first finds each edge's last entry).
// Large batches may be sorted into edge order instead (pack_edge_keys and a CUB radix sort
// before the kernel; SlabBatchTuning::sort_from_log2 says which). The sorted path (prepare +
// *_prepared, prepared_kernels.cuh) stays for callers that need the batch in key order
// (incremental triangle counting).
//
// Part of wg::gpu::DynamicGraph's implementation (private to graph/gpu): the kernels live in
// wg::gpu::detail::batch and are launched and instantiated by one translation unit.
#include <warpgraph/graph/gpu/slab/detail/kernels/arc_ops.cuh>
#include <warpgraph/graph/gpu/slab/detail/kernels/batch_pass.cuh>

namespace wg::gpu::detail::batch {

/// Fetches the first slab of key's bucket in `table` into L2.
template <class Table>
__device__ __forceinline__ void prefetch_bucket(const Table& table, std::uint32_t key) {
  if (table.num_buckets()) slab::prefetch_l2(table.buckets() + table.hash_bucket(key));
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
  if (atomicAdd(p.deferred + x, 1u) == 0) {
    const unsigned long long at = atomicAdd(&p.counters->resize, 1ull);
    p.resize[at] = x;
    // The batch's first listing tells the host at once (BatchReport::listed).
    if (at == 0)
      *reinterpret_cast<volatile unsigned long long*>(&p.report->listed) = report_tag(p.sequence);
  }
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
    *slab::MapSlots::slot(e.buckets, slot) = slab::make_pair(key, value);
  else
    *slab::SetSlots::slot(e.buckets, slot) = key;
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

/// One entry's state through apply_batch_kernel's steps (in registers: the steps are inlined).
struct EntryState {
  vertex_t u = 0, v = 0;
  std::uint32_t st = 0, du = 0, dv = 0;
  std::uint64_t entry = 0;
  bool owner = false;  // applies the edge's arcs (erases: every live entry, see below)
  VertexEntry eu{}, ev{};
  std::uint64_t key = 0;
  detail::BatchDedupRef::Probe probe{};
  bool claim_pending = false;
  bool listed = false;  // claimed a dedup slot of a filtered batch (`slot`)
  std::uint64_t slot = 0;
};

/// What a thread of apply_batch_kernel counts: BatchCounters' words, and slab failures.
struct EntryCounts {
  unsigned applied = 0, self = 0, dup = 0, ignored = 0, slab_failures = 0;
};

/// apply_batch_kernel, a new entry i (not a retry): classify it, load what its arcs need with
/// its dedup claim, and decide whether it owns its edge.
template <class Adj, BatchOp kOp, bool kLastWins, bool kFresh>
__device__ __forceinline__ void classify_new_entry(const DynamicGraphRef<Adj>& g,
                                                   const BatchPass& p, detail::BatchDedupRef& dedup,
                                                   std::uint64_t i, bool check_degree,
                                                   EntryState& es, EntryCounts& cn) {
  auto& [u, v, st, du, dv, entry, owner, eu, ev, key, probe, claim_pending, listed, slot] = es;
  auto& [applied, self, dup, ignored, slab_failures] = cn;
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
    // (Liveness comes with the handles: VertexEntry::live.)
    eu = g.load_entry(u);
    if (p.both) ev = g.load_entry(v);
    const bool live_u = eu.live != 0, live_v = p.both ? ev.live != 0 : g.live_flag(v);
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

/// apply_batch_kernel, tiled tasks (kTile < 32): 32 / kTile owners at a time per warp, one per
/// kTile-lane tile; ns and warp_arcs (the arcs left to the 32-lane loop) come back per lane.
template <class Adj, BatchOp kOp, int kTile, bool kFresh, slab::FirstRead kFirst>
__device__ __forceinline__ void apply_tiled(const warp_tile& tile, const DynamicGraphRef<Adj>& g,
                                            const BatchPass& p, EntryState& es, std::uint32_t value,
                                            std::uint32_t& ns, unsigned& warp_arcs) {
  auto& [u, v, st, du, dv, entry, owner, eu, ev, key, probe, claim_pending, listed, slot] = es;
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
            return reverse ? place_fresh_arc(g, b, e, a, val) : place_fresh_arc(g, a, e, b, val);
        }
        return reverse ? insert_or_defer_arc_tiled<kFirst>(tt, g, p, b, shfl_entry(tt, ev, s),
                                                           tt.shfl(dv, s), a, val)
                       : insert_or_defer_arc_tiled<kFirst>(tt, g, p, a, shfl_entry(tt, eu, s),
                                                           tt.shfl(du, s), b, val);
      });
    } else {
      const bool hit = erase_arc_tiled<kFirst, kEraseLinks>(tt, g, shfl_entry(tt, eu, s), b);
      const bool rev =
          p.both && hit && erase_arc_tiled<kFirst, kEraseLinks>(tt, g, shfl_entry(tt, ev, s), a);
      r = (hit ? 3u : 1u) | (rev ? 12u : 4u);
    }
    if (static_cast<int>(tt.thread_rank()) == s) {
      ns = r;
      warp_arcs = left;
    }
  }
}

/// apply_batch_kernel, the 32-lane loop: the arcs warp_arcs lists, one lane's at a time over
/// the whole warp.
template <class Adj, BatchOp kOp>
__device__ __forceinline__ void apply_warp(const warp_tile& tile, const DynamicGraphRef<Adj>& g,
                                           const BatchPass& p, EntryState& es, std::uint32_t value,
                                           std::uint32_t& ns, unsigned warp_arcs, EntryCounts& cn) {
  auto& [u, v, st, du, dv, entry, owner, eu, ev, key, probe, claim_pending, listed, slot] = es;
  auto& [applied, self, dup, ignored, slab_failures] = cn;
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
                   tile, g, p, b, shfl_entry(tile, ev, s), tile.shfl(dv, s), a, val, slab_failures)
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

/// apply_batch_kernel, last step of an entry: resolves an eager erase's claim, and for an owner
/// settles the degrees, queues what is left for the retry pass and counts the result.
template <class Adj, BatchOp kOp, bool kFresh>
__device__ __forceinline__ void finish_entry(const DynamicGraphRef<Adj>& g, const BatchPass& p,
                                             detail::BatchDedupRef& dedup, bool check_degree,
                                             EntryState& es, std::uint32_t ns, EntryCounts& cn) {
  auto& [u, v, st, du, dv, entry, owner, eu, ev, key, probe, claim_pending, listed, slot] = es;
  auto& [applied, self, dup, ignored, slab_failures] = cn;
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
}

// Pass 2 (the only pass unless weighted or filtered): classify, dedup, apply. State bits per owner
// as for insert_prepared_kernel: 1 forward arc done, 2 it was new, 4 reverse arc done, 8 it was
// new. Latency bound: an entry's loads (both table handles, with liveness, and degrees) are issued
// together with its dedup claim, before anything depends on them, so an arc costs the round trips
// of its table's slabs and CAS plus one, not a chain of five dependent loads first.
// kFresh: a build's first pass into fresh tables (BatchPass::fresh_tables), one-thread tasks:
// owners place their arcs into tables of one bucket (place_fresh_arc), insert those into tables
// of several, and leave to the retry pass, which runs the plain kernel, what the one-thread
// operations cannot do (a full slab of one bucket, a chain that needs the 32-lane insert).
// Without the 32-lane loop the set kernel needs fewer registers, so a small build fits one
// wave of the GPU.
// kCountOnDevice: a retry pass queued before the pass it follows ended (a chained rebuild
// round): it reads its item count from BatchPass::n_from. Its own instantiation, so the other
// passes keep their code (compiled into every pass, this check and its load slowed inserts).
template <class Adj, BatchOp kOp, bool kLastWins, int kItems, int kTile, bool kFresh = false,
          slab::FirstRead kFirst = slab::FirstRead::cached, bool kCountOnDevice = false>
__global__ void __launch_bounds__(kBlock) apply_batch_kernel(DynamicGraphRef<Adj> g, BatchPass p) {
  static_assert(!kFresh || (kOp == BatchOp::insert && kTile == 1));
  __shared__ unsigned tally_words[4];
  BlockTally<4> tally(tally_words);
  EntryCounts cn;
  auto& [applied, self, dup, ignored, slab_failures] = cn;
  const bool check_degree = kOp == BatchOp::insert && p.resize_keys_per_bucket > 0;
  // A retry pass after a table rebuild that could not be done (arena too small, slabs
  // exhausted, too many tables for a chained round) holds every owner back for the next pass:
  // the host grows what was missing and runs the rebuild again, so deferred arcs never land in
  // the chains they were deferred from.
  const bool hold = p.retry_in && (p.counters->rebuild.need_buckets | p.counters->rebuild.failed);
  // kCountOnDevice: a chained retry pass, whose item count is on the device (p.n bounds it).
  [[maybe_unused]] const std::uint64_t n_items = kCountOnDevice ? *p.n_from : p.n;
  // A filtered batch claims in the part of its table that its claimers need (load <= 1/4), which
  // stays in L2 while the whole table (sized for a batch of duplicates) would not.
  detail::BatchDedupRef dedup = p.dedup;
  if (p.filter.active()) dedup.mask = detail::claim_mask(p.counters->claimers, p.dedup.mask);
  warp_stride_loop<kItems, kTile>(p.n, [&](const warp_tile& tile, std::uint64_t i, bool active) {
    if constexpr (kCountOnDevice) active = active && i < n_items;
    if (active && hold) {
      p.retry_out[atomicAdd(p.retry_out_count, 1ull)] = p.retry_in[i];
      active = false;
    }
    EntryState es;
    es.entry = i;
    auto& [u, v, st, du, dv, entry, owner, eu, ev, key, probe, claim_pending, listed, slot] = es;
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
      classify_new_entry<Adj, kOp, kLastWins, kFresh>(g, p, dedup, i, check_degree, es, cn);
    }
    if (listed) dedup.note_claim(p.claimed, slot);
    // An eager erase's claim, resolved after the erase: a probe past a slot of another edge's
    // key (most warps have one among their 32 claims) now overlaps the erase's slab read.
    if (claim_pending) probe = dedup.claim_advance(key, probe);
    const std::uint32_t value = (owner && p.values) ? p.values[entry] : 0u;
    std::uint32_t ns = st;
    unsigned warp_arcs = owner ? 3u : 0u;  // arcs (1 forward, 2 reverse) for the 32-lane loop
    if constexpr (kTile < 32) {
      apply_tiled<Adj, kOp, kTile, kFresh, kFirst>(tile, g, p, es, value, ns, warp_arcs);
    }
    if constexpr (!kFresh) {  // (kFresh: the arcs left go to the retry pass)
      apply_warp<Adj, kOp>(tile, g, p, es, value, ns, warp_arcs, cn);
    }
    finish_entry<Adj, kOp, kFresh>(g, p, dedup, check_degree, es, ns, cn);
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
// coalesced copies (stage_slabs, containers/slab_hash/slab_memory.cuh), and the lanes of one slab
// take distinct free slots (the k-th inserting lane the k-th free slot), so they do not fail each
// other's CAS. What the fast path cannot finish (a chain of several slabs, a CAS lost to another
// warp, a full slab) goes the ordinary ways: the one-thread chain walk, then the 32-lane insert,
// then the retry pass. Same results and counters as apply_batch_kernel on the same batch.
template <class Adj>
__global__ void __launch_bounds__(kBlock)
    insert_sorted_kernel(DynamicGraphRef<Adj> g, BatchPass p) {
  static_assert(!Adj::weighted, "sets only: a map's run would share values too");
  using Table = typename DynamicGraphRef<Adj>::table_ref;
  using View = slab::SetSlots::View<thread_tile>;
  __shared__ unsigned tally_words[4];
  BlockTally<4> tally(tally_words);
  __shared__ slab::StagedSlabs stage_rows[kBlock / 32];
  unsigned applied = 0, dup = 0, ignored = 0, slab_failures = 0;
  const bool check_degree = p.resize_keys_per_bucket > 0;
  const warp_tile tile = this_warp();
  const thread_tile one{};
  const unsigned lane = tile.thread_rank();
  const std::uint32_t below = (1u << lane) - 1u;
  const std::uint64_t warps = (std::uint64_t{gridDim.x} * blockDim.x) / 32;
  slab::StagedSlabs& rows = stage_rows[threadIdx.x / 32];
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
    slab::stage_slabs(lane == static_cast<unsigned>(copier) ? first : nullptr, rows);

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
        const unsigned turn = wg::mix32(static_cast<std::uint32_t>(base >> 5)) & 31u;
        const unsigned slot = slab::nth_slot_from(free, static_cast<unsigned>(k), turn);
        const std::uint32_t expected =
            ((view.tombstones >> slot) & 1u) ? slab::kTombstoneKey : slab::kEmptyKey;
        auto* word = const_cast<std::uint32_t*>(first->words + slot);
        if (slab::cas_relaxed(word, expected, v) == expected) {
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

}  // namespace wg::gpu::detail::batch
