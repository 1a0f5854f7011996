// RebuildPlanner (rebuild_planner.cuh): table rebuilds planned on the device, and compaction.
// Instantiated here for the set and map adjacency policies.
#include <algorithm>
#include <cmath>

#include <cub/device/device_scan.cuh>

#include <warpgraph/graph/gpu/slab/detail/kernels/rebuild_kernels.cuh>
#include <warpgraph/graph/gpu/slab/detail/rebuild_planner.cuh>

namespace wg::gpu::detail {

using namespace rebuild;

template <class Adj>
typename RebuildPlanner<Adj>::PlanArrays RebuildPlanner<Adj>::plan_arrays(std::uint64_t m,
                                                                          const char* what) {
  PlanArrays p{.words = DeviceBuffer<std::uint64_t>(4 * (m + 1), ctx_.stream, what)};
  p.new_b = p.words.data();
  p.old_b = p.new_b + (m + 1);
  p.new_off = p.old_b + (m + 1);
  p.old_off = p.new_off + (m + 1);
  return p;
}

template <class Adj>
void RebuildPlanner<Adj>::scan_plan(const PlanArrays& p, std::uint64_t m, const char* what) {
  const cudaStream_t stream = ctx_.stream;
  std::size_t temp_bytes = 0;
  WG_CUDA_TRY(
      cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, p.new_b, p.new_off, m + 1, stream));
  DeviceBuffer<unsigned char> temp(std::max<std::size_t>(temp_bytes, 1), stream, what);
  for (int k = 0; k < 2; ++k)
    WG_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, p.new_b + k * (m + 1),
                                              p.new_off + k * (m + 1), m + 1, stream));
}

template <class Adj>
unsigned RebuildPlanner<Adj>::rebuild_grid(std::uint64_t m) const {
  return grid_for(
      std::min<std::uint64_t>(std::max(m * 32 * 32, resident_threads()), std::uint64_t{1} << 21));
}

template <class Adj>
void RebuildPlanner<Adj>::rebuild_tables(const vertex_t* listed,
                                         const unsigned long long* num_listed, std::uint64_t m,
                                         RebuildStatus* st, bool keep_incoming, bool chained) {
  const GraphOptions& opt = ctx_.opt;
  const cudaStream_t stream = ctx_.stream;
  if (!(opt.max_load_factor > 0) || m == 0) return;
  if (pools_.arena_capacity == 0)
    pools_.new_arena(opt.rebuild_arena_slabs ? opt.rebuild_arena_slabs
                                             : std::max<std::uint64_t>(dict_.nv / 16, 1u << 16));
  // The commit counts each table's old buckets (old_b) down.
  const PlanArrays plan = plan_arrays(m, "graph rebuild plan");
  if (m <= kPlanBlockItems) {
    plan_scan_claim_kernel<<<1, kPlanBlock, 0, stream>>>(
        listed, num_listed, m, dict_.incoming.data(), dict_.degrees.data(), dict_.vertices.data(),
        resize_keys_per_bucket(), rebuilt_keys_per_bucket(), plan.old_b, plan.new_off, plan.old_off,
        pools_.arena_used.data(), pools_.arena_capacity, st);
    WG_CUDA_CHECK_LAST();
  } else {
    plan_rebuild_kernel<<<grid_for(m + 1), kBlock, 0, stream>>>(
        listed, num_listed, m, dict_.incoming.data(), dict_.degrees.data(), dict_.vertices.data(),
        resize_keys_per_bucket(), rebuilt_keys_per_bucket(), plan.new_b, plan.old_b);
    WG_CUDA_CHECK_LAST();
    scan_plan(plan, m, "graph rebuild");
    claim_rebuild_kernel<<<1, 1, 0, stream>>>(plan.new_off, m, pools_.arena_used.data(),
                                              pools_.arena_capacity, st);
    WG_CUDA_CHECK_LAST();
  }
  const unsigned grid = rebuild_grid(chained ? 0 : m);
  reinsert_rebuild_kernel<Adj><<<grid, kBlock, 0, stream>>>(
      ref(), ref(), pools_.arena.data(), listed, num_listed, plan.new_off, plan.old_off, st);
  WG_CUDA_CHECK_LAST();
  commit_rebuild_kernel<Adj><<<grid, kBlock, 0, stream>>>(
      ref(), pools_.arena.data(), listed, num_listed, plan.new_off, plan.old_off, plan.old_b, st,
      dict_.incoming.data(), keep_incoming);
  WG_CUDA_CHECK_LAST();
}

template <class Adj>
void RebuildPlanner<Adj>::after_rebuild(const RebuildStatus& st) {
  GraphStats& counts = ctx_.counts;
  if (st.need_buckets == kRoundNotPlanned) return;  // a chained round left to the host's plan
  if (st.need_buckets) {
    ++counts.rounds_without_arena_room;
    pools_.new_arena(2 * st.need_buckets);
  } else if (st.failed) {
    ++counts.rounds_out_of_slabs;
    pools_.grow_allocator();
  } else if (st.buckets) {
    ++counts.rebuild_rounds;
    counts.rebuilt_buckets += st.buckets;
  }
}

template <class Adj>
void RebuildPlanner<Adj>::zero_incoming(const vertex_t* listed, std::uint64_t n) {
  if (n == 0) return;
  zero_listed_kernel<<<grid_for(n), kBlock, 0, ctx_.stream>>>(listed, n, dict_.incoming.data());
  WG_CUDA_CHECK_LAST();
}

template <class Adj>
void RebuildPlanner<Adj>::give_up_rebuild(const vertex_t* listed, std::uint64_t n) {
  ++ctx_.counts.rounds_out_of_slabs;
  zero_incoming(listed, n);
  pools_.alloc.clear_exhausted(ctx_.stream);  // the failed re-inserts set it
}

template <class Adj>
void RebuildPlanner<Adj>::resize_for(const PreparedBatch& batch) {
  const cudaStream_t stream = ctx_.stream;
  if (!(ctx_.opt.max_load_factor > 0) || batch.size == 0) return;
  const bool both = !ctx_.opt.directed;
  const std::uint64_t max_touched = batch.size * (both ? 2 : 1);
  DeviceBuffer<vertex_t> touched(max_touched, stream, "resize planning");
  DeviceBuffer<unsigned long long> count(1, stream, "resize planning");
  WG_CUDA_TRY(cudaMemsetAsync(count.data(), 0, sizeof(unsigned long long), stream));
  incoming_kernel<<<grid_for(batch.size), kBlock, 0, stream>>>(
      batch.keys.data(), batch.size, batch.key_bits, both, dict_.incoming.data(), touched.data(),
      count.data());
  WG_CUDA_CHECK_LAST();
  // The plan is sized by the vertices listed (one synchronisation), not by the batch.
  const std::uint64_t listed = count.to_host()[0];
  try {
    DeviceBuffer<RebuildStatus> st(1, stream, "resize planning");
    for (int attempt = 0;; ++attempt) {
      WG_CUDA_TRY(cudaMemsetAsync(st.data(), 0, sizeof(RebuildStatus), stream));
      const bool last = attempt == 2;  // then leave the tables as they are (still correct)
      rebuild_tables(touched.data(), count.data(), listed, st.data(), !last);
      const RebuildStatus h = st.to_host()[0];
      if (h.failed && pools_.allocator_at_max()) {
        give_up_rebuild(touched.data(), listed);  // the old tables stay (still correct)
        return;
      }
      after_rebuild(h);
      if (last || (h.need_buckets == 0 && h.failed == 0)) return;
    }
  } catch (const CapacityError&) {
    zero_incoming(touched.data(), listed);  // nothing inserted yet
    throw;
  }
}

/// Every table is copied, re-sized for its degree at load_factor, into one new pool of base
/// buckets and a fresh allocator (reinsert_rebuild_kernel reads the old chains and fills the new
/// tables, which stay private until the handles switch); then the old allocator, every older
/// pool and the arena are released whole. The fresh allocator starts with room for the slots the
/// new tables' base buckets lack plus an eighth of their buckets (uneven buckets), at least its
/// configured size; a round that runs out of slabs empties it, doubles it and runs again.
template <class Adj>
void RebuildPlanner<Adj>::compact() {
  const GraphOptions& opt = ctx_.opt;
  const cudaStream_t stream = ctx_.stream;
  if (dict_.nv == 0) return;
  const std::uint64_t m = dict_.nv;
  DeviceBuffer<vertex_t> listed(m, stream, "graph compaction");
  DeviceBuffer<unsigned long long> num_listed(1, stream, "graph compaction");
  const PlanArrays plan = plan_arrays(m, "graph compaction");
  plan_compaction_kernel<<<grid_for(m + 1), kBlock, 0, stream>>>(
      m, dict_.degrees.data(), dict_.vertices.data(), opt.load_factor * Adj::slab_capacity,
      listed.data(), num_listed.data(), plan.new_b, plan.old_b);
  WG_CUDA_CHECK_LAST();
  scan_plan(plan, m, "graph compaction");
  std::uint64_t total = 0;
  WG_CUDA_TRY(
      cudaMemcpyAsync(&total, plan.new_off + m, sizeof total, cudaMemcpyDeviceToHost, stream));
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
  DeviceBuffer<slab::Slab> pool(total, stream, "graph base buckets");
  WG_CUDA_TRY(cudaMemsetAsync(pool.data(), 0xFF, total * sizeof(slab::Slab), stream));
  slab::SlabAllocatorConfig config = SlabPools::allocator_config(opt);
  const double arcs = static_cast<double>(ctx_.edges) * (opt.directed ? 1 : 2);
  const double want = std::max(0.0, arcs / Adj::slab_capacity - static_cast<double>(total)) +
                      static_cast<double>(total) / 8 + 1;
  config.initial_super_blocks = static_cast<std::uint32_t>(
      std::clamp<double>(std::ceil(want / config.slabs_per_super_block),
                         config.initial_super_blocks, config.max_super_blocks));
  slab::SlabAllocator fresh(config, stream, pools_.alloc.name());
  // The whole pool is this round's: base 0, every bucket claimed.
  RebuildStatus claimed{};
  claimed.ok = 1;
  claimed.buckets = total;
  DeviceBuffer<RebuildStatus> st(1, stream, "graph compaction");
  const unsigned grid = rebuild_grid(m);
  while (true) {
    st.copy_from_host(&claimed, 1);
    const DynamicGraphRef<Adj> into = dict_.template ref<Adj>(fresh.ref());
    reinsert_rebuild_kernel<Adj>
        <<<grid, kBlock, 0, stream>>>(ref(), into, pool.data(), listed.data(), num_listed.data(),
                                      plan.new_off, plan.old_off, st.data());
    WG_CUDA_CHECK_LAST();
    if (!st.to_host()[0].failed) break;
    // Every new chain is in `fresh`: empty it and the pool, double it, and copy again.
    ++ctx_.counts.rounds_out_of_slabs;
    fresh.reset(stream);
    WG_CUDA_TRY(cudaMemsetAsync(pool.data(), 0xFF, total * sizeof(slab::Slab), stream));
    pools_.grow_allocator(fresh);
  }
  compaction_handles_kernel<<<grid_for(m), kBlock, 0, stream>>>(dict_.vertices.data(), pool.data(),
                                                                plan.new_off, m);
  WG_CUDA_CHECK_LAST();
  // Every table now lives in `pool` and `fresh`: what the old ones held goes whole.
  pools_.alloc = std::move(fresh);
  pools_.replace_pools(std::move(pool));
  ++ctx_.counts.compactions;
}

template <class Adj>
double RebuildPlanner<Adj>::resize_keys_per_bucket() const {
  if (!(ctx_.opt.max_load_factor > 0)) return 0;
  return std::max(ctx_.opt.max_load_factor, 2 * ctx_.opt.load_factor) * Adj::slab_capacity;
}

template <class Adj>
double RebuildPlanner<Adj>::rebuilt_keys_per_bucket() const {
  return ctx_.opt.load_factor * Adj::slab_capacity / ctx_.opt.rebuild_growth;
}

template class RebuildPlanner<SlabSetAdjacency>;
template class RebuildPlanner<SlabMapAdjacency>;

}  // namespace wg::gpu::detail
