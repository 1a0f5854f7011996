// wg::gpu::DynamicGraph: host logic, and the kernels it launches (detail/kernels/: private to
// this file, not installed). Instantiated here for the set and map adjacency policies (users
// never instantiate the heavy parts).
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

// The kernels, each header one concept, in this file's unnamed namespace.
#include <warpgraph/graph/gpu/detail/kernels/arc_ops.cuh>
#include <warpgraph/graph/gpu/detail/kernels/batch_kernels.cuh>
#include <warpgraph/graph/gpu/detail/kernels/batch_pass.cuh>
#include <warpgraph/graph/gpu/detail/kernels/dictionary_kernels.cuh>
#include <warpgraph/graph/gpu/detail/kernels/kernel_common.cuh>
#include <warpgraph/graph/gpu/detail/kernels/prepared_kernels.cuh>
#include <warpgraph/graph/gpu/detail/kernels/query_kernels.cuh>
#include <warpgraph/graph/gpu/detail/kernels/rebuild_kernels.cuh>
#include <warpgraph/graph/gpu/detail/kernels/settle_kernels.cuh>
#include <warpgraph/graph/gpu/detail/kernels/vertex_erase_kernels.cuh>

namespace wg::gpu {

template <class Adj>
struct DynamicGraph<Adj>::Impl {
  GraphOptions opt;
  cudaStream_t stream = 0;
  GraphStats counts;  // stats()
  slab::SlabAllocator alloc;
  DeviceArray<VertexEntry> vertices;
  DeviceArray<std::uint32_t> degrees;
  DeviceArray<std::uint32_t> incoming;  // all zero between calls (resize planning)
  DeviceArray<std::uint8_t> live;       // a byte per id; VertexEntry::live is the other copy
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
    std::uint64_t most = (std::uint64_t{1} << 31) / unit;
    if (o.max_overflow_slabs) most = std::min(most, (o.max_overflow_slabs + unit - 1) / unit);
    c.max_super_blocks =
        static_cast<std::uint32_t>(std::clamp<std::uint64_t>(most, 1, std::uint64_t{1} << 16));
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
      mark_live_kernel<<<grid_for(r.len[j]), kBlock, 0, stream>>>(vertices.data(), live.data(),
                                                                  r.at[j], r.len[j]);
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
                          opt.max_overflow_slabs ? "the slab allocator is at its maximum size "
                                                   "(GraphOptions::max_overflow_slabs)"
                                                 : "the slab allocator is at its maximum size");
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

  /// For a pass that found the allocator exhausted: grows it. At its maximum size, the pass may
  /// have failed for the slabs that racing appends to one chain hold for a moment (each gives its
  /// slab back when another links first): while passes make progress (`progressed`), the next
  /// one runs on the same slabs; when one did not, throws CapacityError.
  void make_room(bool progressed) {
    if (!allocator_at_max() || !progressed) {
      grow_allocator();
      return;
    }
    alloc.clear_exhausted(stream);
  }
  bool allocator_at_max() const {
    return alloc.num_super_blocks() >= alloc.config().max_super_blocks;
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
  /// chained: m only bounds *num_listed (a round queued before the host knew the count; m <=
  /// kPlanBlockItems, see plan_scan_claim_kernel), so the grids are sized for the GPU.
  void rebuild_tables(const vertex_t* listed, const unsigned long long* num_listed, std::uint64_t m,
                      RebuildStatus* st, bool keep_incoming, bool chained = false) {
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
    const unsigned grid = rebuild_grid(chained ? 0 : m);
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
    if (st.need_buckets == kRoundNotPlanned) return;  // a chained round left to the host's plan
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

  /// incoming[x] = 0 for the n vertices in `listed` (zero between calls): after a rebuild that
  /// was given up, or a batch that stopped before its rebuild cleared them.
  void zero_incoming(const vertex_t* listed, std::uint64_t n) {
    if (n == 0) return;
    zero_listed_kernel<<<grid_for(n), kBlock, 0, stream>>>(listed, n, incoming.data());
    WG_CUDA_CHECK_LAST();
  }
  /// A rebuild round of the n `listed` tables whose re-inserts found no free slab while the
  /// allocator is at its maximum size: the old tables stay (the round left them as they were),
  /// and the arcs deferred for it go into their chains.
  void give_up_rebuild(const vertex_t* listed, std::uint64_t n) {
    ++counts.rounds_out_of_slabs;
    zero_incoming(listed, n);
    alloc.clear_exhausted(stream);  // the failed re-inserts set it
  }

  /// After an insert that stopped with CapacityError and whose half-done edges a settle kernel
  /// (settle_kernels.cuh, queued by the caller after zero_counters()) is taking out again:
  /// clears the rebuild counts of its `listed` vertices, counts the edges that went in and
  /// returns the error to throw, which says how many.
  CapacityError stopped_batch(const CapacityError& e, std::uint64_t applied, const vertex_t* listed,
                              std::uint64_t num_listed) {
    zero_incoming(listed, num_listed);
    const std::uint64_t added = applied - read_counters().a;
    edges += added;
    return CapacityError("insert_edges", e.capacity(),
                         "stopped after adding " + std::to_string(added) +
                             " edges of the batch, each in full (the graph is consistent; "
                             "the rest are not in it): " +
                             e.what());
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
    try {
      DeviceArray<RebuildStatus> st(1, stream, "resize planning");
      for (int attempt = 0;; ++attempt) {
        WG_CUDA_TRY(cudaMemsetAsync(st.data(), 0, sizeof(RebuildStatus), stream));
        const bool last = attempt == 2;  // then leave the tables as they are (still correct)
        rebuild_tables(touched.data(), count.data(), listed, st.data(), !last);
        const RebuildStatus h = st.to_host()[0];
        if (h.failed && allocator_at_max()) {
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
  /// 2^19..2^22, before those batches were filtered). Filtered batches (erase_filter_from) never
  /// erase eagerly and erases of 2^21 entries or more are sorted, so the default 2^21 makes every
  /// other erase eager: at 2^18 that measured +7.4% to +12.7% on the undirected and ids-permuted
  /// rows and +2% to +7% on the directed ones (H100, against 2^18), and the unfiltered erases of
  /// small graphs at 2^19-2^20 need it (erase_filter_from). WG_GRAPH_EAGER_ERASE_BELOW=k
  /// overrides with 2^k.
  static std::uint64_t eager_erase_below() {
    static const std::uint64_t below = size_threshold("WG_GRAPH_EAGER_ERASE_BELOW", 21);
    return below;
  }

  /// Insert batches below this many entries chain their rebuild round: as soon as the first pass
  /// lists a table (BatchReport::listed), the host queues the round and the retry pass behind it,
  /// sized on the device (its one-block plan, kPlanBlockItems tables at most), and waits once,
  /// for the retry pass, instead of for the first pass and then for the round.
  /// WG_GRAPH_CHAIN_BELOW=k overrides with 2^k (0: never; k >= 40: every batch).
  static std::uint64_t chain_below() {
    static const std::uint64_t below = size_threshold("WG_GRAPH_CHAIN_BELOW", 20);
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
  /// filter_from for erases: never (they are sorted from 2^21) while a slab per vertex takes at
  /// most half of the GPU's L2 (H100: 200K vertices). Then the filter pass costs more than the
  /// claims it saves: each claim is an L2 atomic in a table that does not push the graph's slabs
  /// out of L2. H100, erases of 2^19 / 2^20 random entries, unfiltered and eager against
  /// filtered: luxembourg_osm +13% / +9%, delaunay_n16 +13% / +9%, facebook_combined +8% / +4%;
  /// uniform and R-MAT s20 (1M vertices) so: 2-9% / 18-21% slower (tools/bench/RESULTS.md).
  /// WG_GRAPH_FILTER_FROM, when set, holds for every graph.
  std::uint64_t erase_filter_from() const {
    static const bool forced = std::getenv("WG_GRAPH_FILTER_FROM") != nullptr;
    static const std::uint64_t l2_bytes = device_attribute(cudaDevAttrL2CacheSize);
    if (!forced && 2 * nv * sizeof(slab::Slab) <= l2_bytes) return ~std::uint64_t{0};
    return filter_from(false);
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
    BatchCounters c;
    poll_batch_counters(sequence, c, false);
    return c;
  }
  /// read_batch_counters, or, with `until_listed`, false as soon as the pass has listed a table
  /// for a rebuild (BatchReport::listed), `c` not read: the caller then queues the rebuild round
  /// behind the pass while it still runs. True when `c` holds the pass's counters.
  bool poll_batch_counters(unsigned long long sequence, BatchCounters& c, bool until_listed) {
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
    const auto listed = [&] {
      return until_listed && __atomic_load_n(&batch_result->listed, __ATOMIC_RELAXED) == tag;
    };
    const auto t0 = std::chrono::steady_clock::now();
    for (unsigned spins = 1; !seen(); ++spins) {
      if (listed()) return false;
      if (spins % 64 == 0 && std::chrono::steady_clock::now() - t0 >= report_spin()) {
        WG_CUDA_TRY(cudaStreamSynchronize(stream));
        if (!seen())
          throw std::logic_error("warpgraph: a batch pass finished without reporting its counters");
        break;
      }
    }
    for (unsigned long long& x : w) x &= kReportCountMask;
    std::memcpy(&c, w, sizeof(c));
    return true;
  }

  /// An attribute of the current device, 0 when it cannot be read (the callers then fall back:
  /// a minimal grid, no L2-resident graphs).
  static std::uint64_t device_attribute(cudaDeviceAttr what) {
    int dev = 0, value = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&value, what, dev) != cudaSuccess)
      value = 0;
    (void)cudaGetLastError();
    return static_cast<std::uint64_t>(std::max(value, 0));
  }
  /// The GPU's resident threads (multiprocessors x threads per multiprocessor).
  static std::uint64_t resident_threads() {
    static const std::uint64_t t =
        std::max<std::uint64_t>(32, device_attribute(cudaDevAttrMultiProcessorCount) *
                                        device_attribute(cudaDevAttrMaxThreadsPerMultiProcessor));
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
            slab::FirstRead kFirst = slab::FirstRead::cached, bool kCountOnDevice = false>
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
    apply_batch_kernel<Adj, kOp, kLast, kItems, kTile, kFresh, kFirst, kCountOnDevice>
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
  template <BatchOp kOp, bool kLast, bool kCountOnDevice = false>
  void launch_one_thread_tasks(const BatchPass& p) {
    if constexpr (kOp == BatchOp::insert && Adj::weighted) {
      if (batch_first_read(kOp, true, p.keys != nullptr) == slab::FirstRead::relaxed) {
        launch_batch<kOp, kLast, 32, 1, false, slab::FirstRead::relaxed, kCountOnDevice>(p);
        return;
      }
    }
    launch_batch<kOp, kLast, 32, 1, false, slab::FirstRead::cached, kCountOnDevice>(p);
  }

  /// The retry pass after pass `pass` of a batch (first pass p): the owners that pass left
  /// (sc.retry by parity), with no claims, deferrals or placements; the caller sets n.
  BatchPass retry_pass(const BatchPass& p, const BatchScratch& sc, int pass) {
    BatchPass q = p;
    q.resize_keys_per_bucket = 0;  // nothing is deferred twice
    q.clear_words = 0;             // the first pass cleaned the other half
    q.clear_claimed_words = 0;
    q.filter = detail::BatchFilterRef{};  // retry items are owners: no claims
    q.fresh_tables = false;               // arcs left go into their chains, placements done
    q.retry_in = sc.retry[pass & 1];
    q.retry_out = sc.retry[(pass + 1) & 1];
    q.retry_out_count = &sc.counters->retry[(pass + 1) & 1];
    q.sequence = ++report_sequence;
    return q;
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
    const BatchDedup mode =
        sort_batch(kOp, b.size) ? BatchDedup::sorted
        : b.size >= (kOp == BatchOp::erase ? erase_filter_from() : filter_from(with_values))
            ? BatchDedup::filtered
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
    // Inserts that may defer arcs: small batches chain their rebuild round (chain_below).
    const bool chain =
        kOp == BatchOp::insert && resize_limit > 0 && b.size < chain_below() && tile_lanes() == 1;
    BatchCounters c{};
    const bool reported = poll_batch_counters(p.sequence, c, chain);
    const double first_ms =
        trace_batches()
            ? std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                  .count()
            : 0.0;
    int pass = 0;
    std::uint64_t pending_before = ~std::uint64_t{0};  // owners left before the last pass
    bool resized = false;
    double resize_ms = 0, grow_ms = 0;  // traced only
    int rebuild_retries = 0;
    unsigned long long slab_failures = 0;
    bool chained = false;
    try {
      if (!reported) {
        // The pass listed a table and may still run: the round and its retry pass, queued behind
        // it and sized on the device; the host waits once, for the retry pass. A round it could
        // not do (too many tables, no arena room, no slabs) holds the owners back, as below. (A
        // pass whose counters came first goes through the loop below, planned by the host with
        // the exact count, and still one wait.)
        WG_CUDA_TRY(cudaMemsetAsync(&sc.counters->retry[1], 0, sizeof(unsigned long long), stream));
        rebuild_tables(sc.resize, &sc.counters->resize, kPlanBlockItems, &sc.counters->rebuild,
                       true, /*chained=*/true);
        BatchPass q = retry_pass(p, sc, 0);
        q.n = b.size;  // a bound: at most one item per entry
        q.n_from = &sc.counters->retry[0];
        launch_one_thread_tasks<BatchOp::insert, false, true>(q);
        c = read_batch_counters(q.sequence);
        pass = 1;
        resized = chained = true;
      }
      for (; c.retry[pass & 1]; ++pass) {
        // Owners left with arcs to do: deferred ones wait for their tables' rebuild, the others
        // for more slabs.
        if (c.out_of_slabs > slab_failures) {
          const auto g0 = trace_batches() ? std::chrono::steady_clock::now()
                                          : std::chrono::steady_clock::time_point{};
          make_room(c.retry[pass & 1] < pending_before);
          if (trace_batches()) {
            WG_CUDA_TRY(cudaStreamSynchronize(stream));
            grow_ms +=
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
        const bool stale_flag = chained && pass == 1 && c.out_of_slabs > 0;
        // The rebuild: once, and again while it could not be done (the retry pass held the
        // owners back; incoming[] kept the counts). after_rebuild grew what was missing.
        if (resized && c.rebuild.failed && allocator_at_max() && !stale_flag) {
          // No slabs for the rebuilt tables: the old ones stay, and the retry pass, which no
          // longer holds the deferred arcs back, puts them into their chains.
          give_up_rebuild(sc.resize, c.resize);
          acted = true;
          WG_CUDA_TRY(cudaMemsetAsync(&sc.counters->rebuild, 0, sizeof(RebuildStatus), stream));
          c.rebuild = RebuildStatus{};
        } else if (c.resize && (!resized || c.rebuild.need_buckets || c.rebuild.failed)) {
          const auto r0 = trace_batches() ? std::chrono::steady_clock::now()
                                          : std::chrono::steady_clock::time_point{};
          if (resized) {
            if (c.rebuild.failed && stale_flag)
              ++counts.rounds_out_of_slabs;
            else
              after_rebuild(c.rebuild);
            ++rebuild_retries;
            WG_CUDA_TRY(cudaMemsetAsync(&sc.counters->rebuild, 0, sizeof(RebuildStatus), stream));
          }
          rebuild_tables(sc.resize, &sc.counters->resize, c.resize, &sc.counters->rebuild, true);
          resized = acted = true;
          if (trace_batches()) {
            WG_CUDA_TRY(cudaStreamSynchronize(stream));
            resize_ms =
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
    } catch (const CapacityError& e) {
      // Only inserts need slabs. The owners still to retry are the batch's unfinished edges.
      if constexpr (kOp == BatchOp::insert) {
        if (!reported && !chained) c = read_batch_counters(p.sequence);  // (the round threw)
        zero_counters();
        settle_batch_kernel<Adj><<<grid_for(c.retry[pass & 1]), kBlock, 0, stream>>>(
            ref(), p, sc.retry[pass & 1], c.retry[pass & 1], counters.data());
        throw stopped_batch(e, c.applied, sc.resize, c.resize);
      } else {
        throw;
      }
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
          "[batch %s n=%llu items/warp=%d tile=%d dedup %s%s] first %.3f slabs %llu applied %llu "
          "dup %llu ignored %llu claimers %llu fixups %llu | "
          "retry passes %d | listed %llu, rebuild (%.3f ms, %d again) | slab failures %llu "
          "(grow %.3f ms, %u super "
          "blocks) | %.3f ms\n",
          kOp == BatchOp::insert ? "insert" : "erase", (unsigned long long)b.size, items, tile,
          mode == BatchDedup::table ? "table"
          : filtered                ? "filtered"
                                    : "sorted",
          chained ? " chained" : "", first_ms, (unsigned long long)alloc.slabs_in_use(stream),
          c.applied, c.duplicates, c.ignored, filtered ? c.claimers : 0ull, c.fixups, pass,
          c.resize, resize_ms, rebuild_retries, c.out_of_slabs, grow_ms, alloc.num_super_blocks(),
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
    try {
      im.make_room(attempt == 0 || c.a > 0);  // then resume the arcs not done
    } catch (const CapacityError& e) {
      im.zero_counters();
      settle_prepared_kernel<Adj><<<grid_for(batch.size), kBlock, 0, im.stream>>>(
          im.ref(), batch.keys.data(), weighted ? batch.values.data() : nullptr, batch.size,
          batch.key_bits, both, state.data(), im.counters.data());
      throw im.stopped_batch(e, added, nullptr, 0);
    }
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
  gather_buckets_kernel<Adj><<<grid_for(k), kBlock, 0, im.stream>>>(im.ref(), d_ids.data(), k,
                                                                    im.live.data(), buckets.data());
  WG_CUDA_CHECK_LAST();
  detail::exclusive_scan(buckets.data(), offsets.data(), k, im.stream);
  erase_vertex_buckets_kernel<Adj><<<Impl::full_striding_grid(), kBlock, 0, im.stream>>>(
      im.ref(), d_ids.data(), k, offsets.data(), erasing, !im.opt.directed, im.counters.data());
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
