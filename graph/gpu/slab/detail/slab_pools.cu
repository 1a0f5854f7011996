// SlabPools (slab_pools.cuh): base-bucket pools, the arena of rebuilt tables and the overflow
// slab allocator's growth.
#include <algorithm>
#include <string>
#include <utility>

#include <warpgraph/graph/gpu/slab/detail/slab_pools.cuh>

namespace wg::gpu::detail {
namespace {

/// Batches allocate their scratch stream-ordered; by default the driver's pool returns freed
/// memory to the device at every synchronisation, which makes each batch pay for fresh
/// allocations. Keep it cached (gpu_memory_info() trims it when memory gets tight).
void keep_pool_memory() {
  int dev = 0;
  cudaMemPool_t pool;
  if (cudaGetDevice(&dev) == cudaSuccess &&
      cudaDeviceGetDefaultMemPool(&pool, dev) == cudaSuccess) {
    std::uint64_t threshold = ~std::uint64_t{0};
    (void)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
  }
  (void)cudaGetLastError();
}

}  // namespace

SlabPools::SlabPools(GraphContext& ctx, const char* allocator_name)
    : alloc(allocator_config(ctx.opt), ctx.stream, allocator_name), ctx_(ctx) {
  keep_pool_memory();
}

slab::SlabAllocatorConfig SlabPools::allocator_config(const GraphOptions& o) {
  slab::SlabAllocatorConfig c;
  c.slabs_per_super_block = o.slabs_per_super_block;  // grows by doubling
  const std::uint32_t unit = std::max<std::uint32_t>(c.slabs_per_super_block, 1);
  // At most 2^31 slabs, and 2^16 super blocks (the allocator keeps a table of them).
  std::uint64_t most = (std::uint64_t{1} << 31) / unit;
  if (o.max_overflow_slabs) most = std::min(most, (o.max_overflow_slabs + unit - 1) / unit);
  c.max_super_blocks =
      static_cast<std::uint32_t>(std::clamp<std::uint64_t>(most, 1, std::uint64_t{1} << 16));
  const std::uint64_t want = o.initial_slabs ? (o.initial_slabs + unit - 1) / unit : 1;
  c.initial_super_blocks = static_cast<std::uint32_t>(
      std::clamp<std::uint64_t>(want, 1, std::min<std::uint32_t>(4096, c.max_super_blocks)));
  return c;
}

slab::Slab* SlabPools::build_pool(std::uint64_t slabs, bool fill) {
  // Reusing the largest pool saves a device allocation and a free per build of a graph of about
  // the same size.
  const auto largest =
      std::max_element(pools_.begin(), pools_.end(),
                       [](const auto& a, const auto& b) { return a.size() < b.size(); });
  if (largest == pools_.end() || largest->size() < slabs) {
    release_pools();
    return new_pool(slabs, fill);
  }
  DeviceBuffer<slab::Slab> keep = std::move(*largest);
  pools_.clear();
  pool_bytes_ = keep.size() * sizeof(slab::Slab);
  if (fill)
    WG_CUDA_TRY(cudaMemsetAsync(keep.data(), 0xFF, slabs * sizeof(slab::Slab), ctx_.stream));
  pools_.push_back(std::move(keep));
  return pools_.back().data();
}

void SlabPools::release_pools() {
  pools_.clear();
  pool_bytes_ = 0;
}

slab::Slab* SlabPools::new_pool(std::uint64_t slabs, bool fill) {
  DeviceBuffer<slab::Slab> pool(slabs, ctx_.stream, "graph base buckets");
  if (fill)
    WG_CUDA_TRY(cudaMemsetAsync(pool.data(), 0xFF, slabs * sizeof(slab::Slab), ctx_.stream));
  slab::Slab* p = pool.data();
  pool_bytes_ += slabs * sizeof(slab::Slab);
  pools_.push_back(std::move(pool));
  return p;
}

void SlabPools::replace_pools(DeviceBuffer<slab::Slab>&& pool) {
  release_pools();
  drop_arena();
  pool_bytes_ = pool.size() * sizeof(slab::Slab);
  pools_.push_back(std::move(pool));
}

void SlabPools::new_arena(std::uint64_t slabs) {
  if (arena_capacity) {
    pools_.push_back(std::move(arena));
  }
  const std::uint64_t cap = std::max<std::uint64_t>({slabs, 2 * arena_capacity, 1});
  arena = DeviceBuffer<slab::Slab>(cap, ctx_.stream, "graph rebuilt buckets");
  WG_CUDA_TRY(cudaMemsetAsync(arena.data(), 0xFF, cap * sizeof(slab::Slab), ctx_.stream));
  pool_bytes_ += cap * sizeof(slab::Slab);
  arena_capacity = cap;
  ++ctx_.counts.arenas;
  if (arena_used.size() == 0) arena_used = DeviceBuffer<unsigned long long>(1, ctx_.stream, "arena");
  WG_CUDA_TRY(cudaMemsetAsync(arena_used.data(), 0, sizeof(unsigned long long), ctx_.stream));
}

void SlabPools::drop_arena() {
  arena = DeviceBuffer<slab::Slab>();
  arena_capacity = 0;
}

void SlabPools::grow_allocator(slab::SlabAllocator& a) {
  const std::uint32_t current = a.num_super_blocks();
  const std::uint32_t room = a.config().max_super_blocks - current;
  if (room == 0)
    throw CapacityError(a.name(), a.capacity_slabs(),
                        ctx_.opt.max_overflow_slabs ? "the slab allocator is at its maximum size "
                                                      "(GraphOptions::max_overflow_slabs)"
                                                    : "the slab allocator is at its maximum size");
  const std::uint32_t add = std::min(std::max<std::uint32_t>(current, 1), room);
  try {
    a.grow(add, ctx_.stream);
    ++ctx_.counts.allocator_growths;
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
  a.clear_exhausted(ctx_.stream);
}

void SlabPools::make_room(bool progressed) {
  if (!allocator_at_max() || !progressed) {
    grow_allocator();
    return;
  }
  alloc.clear_exhausted(ctx_.stream);
}

bool SlabPools::allocator_at_max() const {
  return alloc.num_super_blocks() >= alloc.config().max_super_blocks;
}

}  // namespace wg::gpu::detail
