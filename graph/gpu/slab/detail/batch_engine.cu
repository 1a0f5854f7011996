// BatchEngine (batch_engine.cuh): the passes of insert_edges / erase_edges on a raw batch.
// Instantiated here for the set and map adjacency policies.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include <warpgraph/graph/gpu/batch_prep.hpp>
#include <warpgraph/graph/gpu/slab/detail/batch_engine.cuh>
#include <warpgraph/graph/gpu/slab/detail/kernels/batch_kernels.cuh>
#include <warpgraph/graph/gpu/slab/detail/kernels/settle_kernels.cuh>

namespace wg::gpu::detail {

using namespace batch;
using settle::settle_batch_kernel;

template <class Adj>
void BatchEngine<Adj>::PinnedFree::operator()(BatchReport* p) const {
  (void)cudaFreeHost(p);
}

template <class Adj>
BatchEngine<Adj>::BatchEngine(GraphContext& ctx, VertexDictionary& dict, SlabPools& pools,
                              RebuildPlanner<Adj>& planner)
    : ctx_(ctx), dict_(dict), pools_(pools), planner_(planner), scratch_(ctx.stream) {
  void* p = nullptr;
  WG_CUDA_TRY(cudaHostAlloc(&p, sizeof(BatchReport), cudaHostAllocMapped));
  std::memset(p, 0, sizeof(BatchReport));
  batch_result_.reset(static_cast<BatchReport*>(p));
  void* d = nullptr;
  WG_CUDA_TRY(cudaHostGetDevicePointer(&d, batch_result_.get(), 0));
  batch_report_ = static_cast<BatchReport*>(d);
}

template <class Adj>
std::uint64_t BatchEngine<Adj>::memory_bytes() const {
  return scratch_.memory_bytes() + sort_keys_.bytes() + sort_values_.bytes() + sort_temp_.bytes();
}

// ---- which path a batch takes (GraphOptions' tuning fields) ----------------------------------

template <class Adj>
std::uint64_t BatchEngine<Adj>::eager_erase_below() const {
  return log2_threshold(ctx_.opt.tuning.eager_erase_below_log2);
}

template <class Adj>
std::uint64_t BatchEngine<Adj>::chain_below() const {
  return log2_threshold(ctx_.opt.tuning.chain_below_log2);
}

template <class Adj>
std::uint64_t BatchEngine<Adj>::filter_from(bool last_wins) const {
  return log2_threshold(last_wins ? ctx_.opt.tuning.filter_weighted_from_log2
                                  : ctx_.opt.tuning.filter_from_log2);
}

/// Automatic: never while a slab per vertex takes at most half of the GPU's L2; each claim is
/// then an L2 atomic in a table that does not push the graph's slabs out of L2, cheaper than the
/// filter pass.
template <class Adj>
std::uint64_t BatchEngine<Adj>::erase_filter_from() const {
  if (ctx_.opt.tuning.erase_filter_from_log2 >= 0)
    return log2_threshold(ctx_.opt.tuning.erase_filter_from_log2);
  static const std::uint64_t l2_bytes = device_attribute(cudaDevAttrL2CacheSize);
  if (2 * dict_.nv * sizeof(slab::Slab) <= l2_bytes) return ~std::uint64_t{0};
  return filter_from(false);
}

/// Sorting costs a pack and a radix sort, so only large batches gain; R-MAT insert batches, whose
/// hubs' arcs arrive together, are faster unsorted, hence the skew test for inserts.
template <class Adj>
bool BatchEngine<Adj>::sort_batch(BatchOp op, std::uint64_t n) const {
  const int forced = ctx_.opt.tuning.sort_from_log2 >= 0 ? ctx_.opt.tuning.sort_from_log2 : -1;
  const int forced_inserts =
      ctx_.opt.tuning.sort_inserts_from_log2 >= 0 ? ctx_.opt.tuning.sort_inserts_from_log2 : -1;
  const auto from = [n](int k) {
    return k < SlabBatchTuning::kNever && n >= (std::uint64_t{1} << k);
  };
  if (dict_.nv > kVertexIdLimit) return false;  // keys hold two ids of <= 31 bits
  if (forced >= 0) return from(forced);
  if (op == BatchOp::erase) return from(21);
  if (forced_inserts >= 0) return from(forced_inserts);
  return from(21) && last_insert_skewed_ == 0;
}

/// A warp issues the loads of all its entries at once and then works through them, so more
/// entries per warp hide more latency; only batches too small to fill the GPU with 32 per warp
/// use 8.
template <class Adj>
int BatchEngine<Adj>::items_per_warp(std::uint64_t n) const {
  if (tile_lanes() == 1) return 32;
  const int forced = ctx_.opt.tuning.items_per_warp;
  if (forced == 8 || forced == 32) return forced;
  const std::uint64_t resident_warps = resident_threads() / 32;
  return n >= 8 * resident_warps ? 32 : 8;
}

template <class Adj>
int BatchEngine<Adj>::tile_lanes() const {
  return ctx_.opt.tuning.tile_lanes == 8 ? 8 : 1;
}

template <class Adj>
BatchDedup BatchEngine<Adj>::dedup_mode(BatchOp op, std::uint64_t n, bool with_values) const {
  return sort_batch(op, n) ? BatchDedup::sorted
         : n >= (op == BatchOp::erase ? erase_filter_from() : filter_from(with_values))
             ? BatchDedup::filtered
             : BatchDedup::table;
}

template <class Adj>
std::uint64_t BatchEngine<Adj>::chunk_for(std::uint64_t n) const {
  if (ctx_.opt.max_chunk) return std::max<std::uint64_t>(ctx_.opt.max_chunk, 1);
  constexpr std::uint64_t kBytesPerEntry = 64;  // keys x2, values x2, flags, state, CUB temp
  if (n * kBytesPerEntry < (std::uint64_t{1} << 30)) return n;
  const std::uint64_t free_b = gpu_memory_info().first;
  const std::uint64_t fit = free_b / 2 / kBytesPerEntry;
  if (fit < (1u << 16))
    throw CapacityError("GPU memory", free_b,
                        "not enough free GPU memory to process even a batch of 65536 edges");
  return std::min(n, fit);
}

// ---- the host's wait for a pass ---------------------------------------------------------------

/// The counters of the pass just launched with sequence number `sequence`: its last block
/// wrote them to batch_result_, each word tagged (report_tag). Every block of the pass has
/// finished its updates by then, and what runs next on the stream sees the batch applied. (The
/// words need no system-scope fence before a flag: each is read whole, and all carry the tag
/// only once the last one is written.)
template <class Adj>
BatchCounters BatchEngine<Adj>::read_batch_counters(unsigned long long sequence) {
  BatchCounters c;
  poll_batch_counters(sequence, c, false);
  return c;
}

/// read_batch_counters, or, with `until_listed`, false as soon as the pass has listed a table
/// for a rebuild (BatchReport::listed), `c` not read: the caller then queues the rebuild round
/// behind the pass while it still runs. True when `c` holds the pass's counters. Polls for
/// SlabBatchTuning::report_spin_us, then synchronises with the stream (which also reports a failed
/// kernel, whose last block never reports).
template <class Adj>
bool BatchEngine<Adj>::poll_batch_counters(unsigned long long sequence, BatchCounters& c,
                                           bool until_listed) {
  constexpr unsigned kWords = sizeof(BatchCounters) / sizeof(unsigned long long);
  unsigned long long* const words = reinterpret_cast<unsigned long long*>(&batch_result_->counters);
  const unsigned long long tag = report_tag(sequence);
  unsigned long long w[kWords];
  const auto seen = [&] {
    for (unsigned k = 0; k < kWords; ++k) {
      w[k] = __atomic_load_n(words + k, __ATOMIC_ACQUIRE);
      if ((w[k] & ~kReportCountMask) != tag) return false;
    }
    return true;
  };
  const auto listed = [&] {
    return until_listed && __atomic_load_n(&batch_result_->listed, __ATOMIC_RELAXED) == tag;
  };
  const std::chrono::microseconds spin{ctx_.opt.tuning.report_spin_us};
  const auto t0 = std::chrono::steady_clock::now();
  for (unsigned spins = 1; !seen(); ++spins) {
    if (listed()) return false;
    if (spins % 64 == 0 && std::chrono::steady_clock::now() - t0 >= spin) {
      WG_CUDA_TRY(cudaStreamSynchronize(ctx_.stream));
      if (!seen())
        throw std::logic_error("warpgraph: a batch pass finished without reporting its counters");
      break;
    }
  }
  for (unsigned long long& x : w) x &= kReportCountMask;
  std::memcpy(&c, w, sizeof(c));
  return true;
}

template <class Adj>
CapacityError BatchEngine<Adj>::stopped_batch(const CapacityError& e, std::uint64_t applied,
                                              const vertex_t* listed, std::uint64_t num_listed) {
  planner_.zero_incoming(listed, num_listed);
  const std::uint64_t added = applied - ctx_.read_counters().a;
  ctx_.edges += added;
  return CapacityError("insert_edges", e.capacity(),
                       "stopped after adding " + std::to_string(added) +
                           " edges of the batch, each in full (the graph is consistent; "
                           "the rest are not in it): " +
                           e.what());
}

// ---- launches -----------------------------------------------------------------------------------

template <class Adj>
template <BatchOp kOp, bool kLast, int kItems, int kTile, bool kFresh, slab::FirstRead kFirst,
          bool kCountOnDevice>
void BatchEngine<Adj>::launch_batch(const BatchPass& p) {
  const cudaStream_t stream = ctx_.stream;
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
  apply_batch_kernel<Adj, kOp, kLast, kItems, kTile, kFresh, kFirst, kCountOnDevice>
      <<<grid, kBlock, 0, stream>>>(ref(), p);
  WG_CUDA_CHECK_LAST();
}

/// Runs the batch kernel with one-thread tasks (32 entries per warp; a build's fresh tables
/// with the kernel that places arcs), or, with SlabBatchTuning::tile_lanes 8, 8-lane tasks
/// with `items` entries per warp.
template <class Adj>
template <BatchOp kOp, bool kLast>
void BatchEngine<Adj>::launch_batch(const BatchPass& p, int items, int tile) {
  if constexpr (kOp == BatchOp::insert) {
    if (p.fresh_tables) {
      launch_batch<kOp, kLast, 32, 1, true>(p);
      return;
    }
  }
  constexpr slab::FirstRead kUsual =  // the slab API's default (8-lane comparison mode)
      kOp == BatchOp::erase ? slab::kDefaultEraseRead<Adj::weighted> : slab::FirstRead::cached;
  if (tile == 1) {
    launch_one_thread_tasks<kOp, kLast>(p);
  } else if (items == 8) {
    launch_batch<kOp, kLast, 8, 8, false, kUsual>(p);
  } else {
    launch_batch<kOp, kLast, 32, 8, false, kUsual>(p);
  }
}

/// The batch kernel with one-thread tasks, 32 entries per warp, reading a chain's first slab as
/// batch_first_read says (only map inserts choose; every other batch reads through L1).
/// kCountOnDevice: the retry pass of a chained round, whose item count is on the device
/// (BatchPass::n_from; p.n bounds it).
template <class Adj>
template <BatchOp kOp, bool kLast, bool kCountOnDevice>
void BatchEngine<Adj>::launch_one_thread_tasks(const BatchPass& p) {
  if constexpr (kOp == BatchOp::insert && Adj::weighted) {
    if (batch_first_read(kOp, true, p.keys != nullptr) == slab::FirstRead::relaxed) {
      launch_batch<kOp, kLast, 32, 1, false, slab::FirstRead::relaxed, kCountOnDevice>(p);
      return;
    }
  }
  launch_batch<kOp, kLast, 32, 1, false, slab::FirstRead::cached, kCountOnDevice>(p);
}

/// The first pass of a batch: with a last-entry pass for filtered weighted inserts, and sorted
/// directed set inserts through their own kernel.
template <class Adj>
template <BatchOp kOp>
void BatchEngine<Adj>::launch_first_pass(const BatchPass& p, BatchDedup mode, bool last, int items,
                                         int tile) {
  if constexpr (kOp == BatchOp::insert && Adj::weighted) {
    if (last) {
      launch_batch<kOp, true>(p, items, tile);
    } else {
      launch_batch<kOp, false>(p, items, tile);
    }
  } else if constexpr (kOp == BatchOp::insert) {
    if (mode == BatchDedup::sorted && ctx_.opt.directed && tile == 1) {
      insert_sorted_kernel<Adj><<<striding_grid(p.n), kBlock, 0, ctx_.stream>>>(ref(), p);
      WG_CUDA_CHECK_LAST();
    } else {
      launch_batch<kOp, false>(p, items, tile);
    }
  } else {
    launch_batch<kOp, false>(p, items, tile);
  }
}

template <class Adj>
BatchPass BatchEngine<Adj>::retry_pass(const BatchPass& p, const BatchScratch& sc, int pass) {
  BatchPass q = p;
  q.resize_keys_per_bucket = 0;  // nothing is deferred twice
  q.clear_words = 0;             // the first pass cleaned the other half
  q.clear_claimed_words = 0;
  q.filter = BatchFilterRef{};  // retry items are owners: no claims
  q.fresh_tables = false;       // arcs left go into their chains, placements done
  q.retry_in = sc.retry[pass & 1];
  q.retry_out = sc.retry[(pass + 1) & 1];
  q.retry_out_count = &sc.counters->retry[(pass + 1) & 1];
  q.sequence = ++report_sequence_;
  return q;
}

/// Equal edges end up adjacent, and so do a vertex's arcs, whose slabs and handles a warp then
/// reads once for several lanes.
template <class Adj>
void BatchEngine<Adj>::sort_into_edge_order(DeviceEdges b, BatchPass& p, const BatchScratch& sc,
                                            bool with_values) {
  const cudaStream_t stream = ctx_.stream;
  if (sort_keys_.size() < 2 * b.size) {
    sort_keys_ = DeviceBuffer<std::uint64_t>();
    sort_keys_ = DeviceBuffer<std::uint64_t>(2 * b.size, stream, "batch sort keys");
  }
  if (with_values && sort_values_.size() < 2 * b.size) {
    sort_values_ = DeviceBuffer<std::uint32_t>();
    sort_values_ = DeviceBuffer<std::uint32_t>(2 * b.size, stream, "batch sort values");
  }
  std::uint32_t* const values = with_values ? sort_values_.data() : nullptr;
  p.key_bits = key_bits_for(dict_.nv);
  // Entries with a dead end point become `ignored` keys too, counted as the kernel would.
  pack_edge_keys(b, dict_.live.data(), dict_.nv, p.key_bits, !ctx_.opt.directed, sort_keys_.data(),
                 values, &sc.counters->self_loops, &sc.counters->ignored, stream);
  sort_keys(sort_keys_.data(), sort_keys_.data() + b.size, b.size, static_cast<int>(2 * p.key_bits),
            sort_temp_, stream, values, values ? values + b.size : nullptr);
  p.keys = sort_keys_.data() + b.size;
  if (values) p.values = values + b.size;  // entry i's value: the kernel reads values[i]
}

template <class Adj>
UpdateResult BatchEngine<Adj>::insert(DeviceEdges b, bool fresh_tables) {
  return apply_batch<BatchOp::insert>(b, fresh_tables);
}

template <class Adj>
UpdateResult BatchEngine<Adj>::erase(DeviceEdges b) {
  return apply_batch<BatchOp::erase>(b, false);
}

/// One chunk of insert_edges / erase_edges: one kernel (a filter or a pack and sort before it
/// for large batches, a last-entry pass for weighted inserts) and one wait, after which the
/// counters are in mapped host memory; out-of-slabs owners are retried after the allocator grows,
/// and tables the batch took past max_load_factor are rebuilt first.
template <class Adj>
template <BatchOp kOp>
UpdateResult BatchEngine<Adj>::apply_batch(DeviceEdges b, bool fresh_tables) {
  const cudaStream_t stream = ctx_.stream;
  const bool trace = ctx_.opt.tuning.trace;
  UpdateResult r;
  if (b.size == 0) return r;
  // Weighted inserts: the last entry of an edge sets its value. A sorted batch has it at the
  // end of the edge's run (the sort is stable); a filtered one finds it in a first pass
  // (kLastWins); one deduplicated in the table fixes the values of its duplicated edges
  // afterwards, if it has any (BatchPass::last_fixups): a batch without duplicates, the
  // common case, takes one kernel, not two.
  const bool with_values = kOp == BatchOp::insert && Adj::weighted && b.values;
  BatchRun run;
  run.t0 = trace ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  const BatchDedup mode = dedup_mode(kOp, b.size, with_values);
  const bool filtered = mode == BatchDedup::filtered;
  const bool last = with_values && filtered;
  const bool fix_last = with_values && mode == BatchDedup::table;
  const BatchScratch sc = scratch_.take(b.size, last || fix_last, mode);
  // A build's first chunk goes into tables sized for it: no deferral, so no degree
  // reservations either (an atomic with return per arc, hubs' serialised).
  const double resize_limit =
      kOp == BatchOp::insert && planner_.plan_rebuilds ? planner_.resize_keys_per_bucket() : 0.0;
  // Placement needs the degrees to count placed arcs only: no reservations (resize_limit 0).
  const bool fresh =
      kOp == BatchOp::insert && fresh_tables && resize_limit == 0.0 && tile_lanes() == 1;
  BatchPass p{.src = b.src,
              .dst = b.dst,
              .values = with_values ? b.values : nullptr,
              .n = b.size,
              .retry_in = nullptr,
              .retry_out = sc.retry[0],
              .retry_out_count = &sc.counters->retry[0],
              .resize = sc.resize,
              .deferred = dict_.incoming.data(),
              .counters = sc.counters,
              .dedup = sc.dedup,
              .resize_keys_per_bucket = resize_limit,
              .both = !ctx_.opt.directed,
              .report = batch_report_,
              .clear = sc.clear,
              .clear_words = sc.clear_words,
              .eager_erase = kOp == BatchOp::erase && b.size < eager_erase_below() && !filtered,
              .filter = sc.filter,
              .claimed = sc.claimed,
              .clear_keys = sc.clear_claimed.keys,
              .clear_claimed = sc.clear_claimed.bitmap,
              .clear_claimed_words = sc.clear_claimed.words,
              .clear_last = sc.clear_claimed.last,
              .keys = nullptr,
              .key_bits = 0,
              .sequence = ++report_sequence_,
              .fresh_tables = fresh,
              .last_fixups = fix_last ? sc.fixups : nullptr};
  run.items = items_per_warp(b.size);
  run.tile = tile_lanes();
  if (mode == BatchDedup::sorted) sort_into_edge_order(b, p, sc, with_values);
  launch_first_pass<kOp>(p, mode, last, run.items, run.tile);
  // Inserts that may defer arcs: small batches chain their rebuild round (chain_below).
  const bool chain =
      kOp == BatchOp::insert && resize_limit > 0 && b.size < chain_below() && tile_lanes() == 1;
  const bool reported = poll_batch_counters(p.sequence, run.c, chain);
  run.first_ms =
      trace ? std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - run.t0)
                  .count()
            : 0.0;
  BatchCounters& c = run.c;
  try {
    if (!reported) chain_rebuild_round(p, sc, run);
    retry_passes<kOp>(p, sc, run);
  } catch (const CapacityError& e) {
    // Only inserts need slabs. The owners still to retry are the batch's unfinished edges.
    if constexpr (kOp == BatchOp::insert) {
      if (!reported && !run.chained) c = read_batch_counters(p.sequence);  // (the round threw)
      ctx_.zero_counters();
      const int pass = run.pass;
      settle_batch_kernel<Adj><<<grid_for(c.retry[pass & 1]), kBlock, 0, stream>>>(
          ref(), p, sc.retry[pass & 1], c.retry[pass & 1], ctx_.counters.data());
      throw stopped_batch(e, c.applied, sc.resize, c.resize);
    } else {
      throw;
    }
  }
  if (run.resized) planner_.after_rebuild(c.rebuild);  // the last round, done (counted)
  // Every owner's arcs are in: the last entries that were duplicates assign their values (no
  // wait: what runs next on the stream sees them; the counters do not change).
  if (c.fixups) {
    assign_last_values_kernel<Adj><<<grid_for(c.fixups), kBlock, 0, stream>>>(ref(), p, c.fixups);
    WG_CUDA_CHECK_LAST();
  }
  if (trace) trace_batch(kOp, b.size, mode, run);
  r.applied = c.applied;
  r.self_loops = c.self_loops;
  r.duplicates = c.duplicates;
  if (kOp == BatchOp::insert && b.size >= (std::uint64_t{1} << 19))
    last_insert_skewed_ = c.duplicates * 4096 >= b.size ? 1 : 0;
  // Erase kernels count the owners of live edges in `ignored`; those not erased were absent.
  r.ignored = kOp == BatchOp::erase ? c.ignored - c.applied : c.ignored;
  if (kOp == BatchOp::insert)
    ctx_.edges += c.applied;
  else
    ctx_.edges -= c.applied;
  return r;
}

/// The first pass (an insert of b.size entries, p) listed a table and may still run: the round
/// and its retry pass, queued behind it and sized on the device; the host waits once, for the
/// retry pass. A round it could not do (too many tables, no arena room, no slabs) holds the
/// owners back, as in retry_passes. (A pass whose counters came first goes through
/// retry_passes, planned by the host with the exact count, and still one wait.)
template <class Adj>
void BatchEngine<Adj>::chain_rebuild_round(const BatchPass& p, const BatchScratch& sc,
                                           BatchRun& run) {
  WG_CUDA_TRY(cudaMemsetAsync(&sc.counters->retry[1], 0, sizeof(unsigned long long), ctx_.stream));
  planner_.rebuild_tables(sc.resize, &sc.counters->resize, kPlanBlockItems, &sc.counters->rebuild,
                          true, /*chained=*/true);
  BatchPass q = retry_pass(p, sc, 0);
  q.n = p.n;  // a bound: at most one item per entry
  q.n_from = &sc.counters->retry[0];
  launch_one_thread_tasks<BatchOp::insert, false, true>(q);
  run.c = read_batch_counters(q.sequence);
  run.pass = 1;
  run.resized = run.chained = true;
}

/// The passes after the first while owners are left with arcs to do: deferred ones wait for
/// their tables' rebuild, the others for more slabs.
template <class Adj>
template <BatchOp kOp>
void BatchEngine<Adj>::retry_passes(const BatchPass& p, const BatchScratch& sc, BatchRun& run) {
  const cudaStream_t stream = ctx_.stream;
  const bool trace = ctx_.opt.tuning.trace;
  BatchCounters& c = run.c;
  int& pass = run.pass;
  std::uint64_t pending_before = ~std::uint64_t{0};  // owners left before the last pass
  unsigned long long slab_failures = 0;
  for (; c.retry[pass & 1]; ++pass) {
    if (c.out_of_slabs > slab_failures) {
      const auto g0 =
          trace ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
      pools_.make_room(c.retry[pass & 1] < pending_before);
      if (trace) {
        WG_CUDA_TRY(cudaStreamSynchronize(stream));
        run.grow_ms +=
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - g0)
                .count();
      }
    }
    // Every pass finishes owners, or follows something the host did for them: otherwise the
    // batch would never end (a bug, not a state of the graph).
    bool acted = c.out_of_slabs > slab_failures || c.retry[pass & 1] < pending_before;
    pending_before = c.retry[pass & 1];
    // A chained round ran while the first pass may have left the allocator's exhausted flag
    // set (it had out-of-slabs owners): a failure may be the flag's, so the round runs again
    // now that make_room cleared it, without growing the allocator for it.
    const bool stale_flag = run.chained && pass == 1 && c.out_of_slabs > 0;
    // The rebuild: once, and again while it could not be done (the retry pass held the
    // owners back; incoming[] kept the counts). after_rebuild grew what was missing.
    if (run.resized && c.rebuild.failed && pools_.allocator_at_max() && !stale_flag) {
      // No slabs for the rebuilt tables: the old ones stay, and the retry pass, which no
      // longer holds the deferred arcs back, puts them into their chains.
      planner_.give_up_rebuild(sc.resize, c.resize);
      acted = true;
      WG_CUDA_TRY(cudaMemsetAsync(&sc.counters->rebuild, 0, sizeof(RebuildStatus), stream));
      c.rebuild = RebuildStatus{};
    } else if (c.resize && (!run.resized || c.rebuild.need_buckets || c.rebuild.failed)) {
      const auto r0 =
          trace ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
      if (run.resized) {
        if (c.rebuild.failed && stale_flag)
          ++ctx_.counts.rounds_out_of_slabs;
        else
          planner_.after_rebuild(c.rebuild);
        ++run.rebuild_retries;
        WG_CUDA_TRY(cudaMemsetAsync(&sc.counters->rebuild, 0, sizeof(RebuildStatus), stream));
      }
      planner_.rebuild_tables(sc.resize, &sc.counters->resize, c.resize, &sc.counters->rebuild,
                              true);
      run.resized = acted = true;
      if (trace) {
        WG_CUDA_TRY(cudaStreamSynchronize(stream));
        run.resize_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - r0)
                .count();
      }
    }
    if (!acted) throw std::logic_error("warpgraph: a batch pass left its owners as they were");
    slab_failures = c.out_of_slabs;
    BatchPass q = retry_pass(p, sc, pass);
    q.n = c.retry[pass & 1];
    WG_CUDA_TRY(cudaMemsetAsync(q.retry_out_count, 0, sizeof(unsigned long long), stream));
    launch_batch<kOp, false>(q, items_per_warp(q.n), tile_lanes());
    c = read_batch_counters(q.sequence);
  }
}

/// GraphOptions::trace: one line per batch on stderr (after a synchronisation).
template <class Adj>
void BatchEngine<Adj>::trace_batch(BatchOp op, std::uint64_t n, BatchDedup mode,
                                   const BatchRun& run) {
  const cudaStream_t stream = ctx_.stream;
  const BatchCounters& c = run.c;
  const bool filtered = mode == BatchDedup::filtered;
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
  std::fprintf(
      stderr,
      "[batch %s n=%llu items/warp=%d tile=%d dedup %s%s] first %.3f slabs %llu applied %llu "
      "dup %llu ignored %llu claimers %llu fixups %llu | "
      "retry passes %d | listed %llu, rebuild (%.3f ms, %d again) | slab failures %llu "
      "(grow %.3f ms, %u super "
      "blocks) | %.3f ms\n",
      op == BatchOp::insert ? "insert" : "erase", (unsigned long long)n, run.items, run.tile,
      mode == BatchDedup::table ? "table"
      : filtered                ? "filtered"
                                : "sorted",
      run.chained ? " chained" : "", run.first_ms,
      (unsigned long long)pools_.alloc.slabs_in_use(stream), c.applied, c.duplicates, c.ignored,
      filtered ? c.claimers : 0ull, c.fixups, run.pass, c.resize, run.resize_ms,
      run.rebuild_retries, c.out_of_slabs, run.grow_ms, pools_.alloc.num_super_blocks(),
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - run.t0).count());
}

template class BatchEngine<SlabSetAdjacency>;
template class BatchEngine<SlabMapAdjacency>;

}  // namespace wg::gpu::detail
