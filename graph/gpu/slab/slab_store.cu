// wg::gpu::SlabStore (slab_store.hpp): the store's calls, composed of its parts (detail/), and
// the kernels of the calls made here: bulk build, prepared batches, queries, vertex erasure.
// Instantiated here for the set and map adjacency policies, with the graph front over them.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include <warpgraph/graph/gpu/batch_prep.hpp>
#include <warpgraph/graph/gpu/detail/store_calls.cuh>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/gpu/graph_front.cuh>
#include <warpgraph/graph/gpu/graph_ref.cuh>
#include <warpgraph/graph/gpu/slab/detail/batch_engine.cuh>
#include <warpgraph/graph/gpu/slab/detail/graph_context.cuh>
#include <warpgraph/graph/gpu/slab/detail/kernels/build_kernels.cuh>
#include <warpgraph/graph/gpu/slab/detail/kernels/prepared_kernels.cuh>
#include <warpgraph/graph/gpu/slab/detail/kernels/query_kernels.cuh>
#include <warpgraph/graph/gpu/slab/detail/kernels/settle_kernels.cuh>
#include <warpgraph/graph/gpu/slab/detail/kernels/vertex_erase_kernels.cuh>
#include <warpgraph/graph/gpu/slab/detail/phase_trace.hpp>
#include <warpgraph/graph/gpu/slab/detail/rebuild_planner.cuh>
#include <warpgraph/graph/gpu/slab/detail/slab_pools.cuh>
#include <warpgraph/graph/gpu/slab/detail/table_sizing.hpp>
#include <warpgraph/graph/gpu/slab/detail/vertex_dictionary.cuh>

namespace wg::gpu {

using namespace detail::build;
using namespace detail::prepared;
using namespace detail::query;
using namespace detail::vertex_erase;
using detail::settle::settle_prepared_kernel;

namespace {
/// Unsorted bulk builds of fewer entries size their tables without a scan or a wait (pool from
/// an upper bound of the bucket count, size_small_tables_kernel).
constexpr std::uint64_t kSmallBuildBelow = std::uint64_t{1} << 19;
}  // namespace

template <class Adj>
struct SlabStore<Adj>::Impl {
  explicit Impl(const GraphOptions& o)
      : ctx(o),
        pools(ctx, Adj::weighted ? "graph slab map allocator" : "graph slab set allocator"),
        dict(ctx),
        planner(ctx, dict, pools),
        batch(ctx, dict, pools, planner) {
    if (!(o.load_factor > 0)) throw InvalidArgument("DynamicGraph: load_factor must be > 0");
    if (!(o.rebuild_growth >= 1))
      throw InvalidArgument("DynamicGraph: rebuild_growth must be >= 1");
  }

  detail::GraphContext ctx;
  detail::SlabPools pools;
  detail::VertexDictionary dict;
  detail::RebuildPlanner<Adj> planner;
  detail::BatchEngine<Adj> batch;

  DynamicGraphRef<Adj> ref() const { return dict.template ref<Adj>(pools.alloc.ref()); }
  /// New live ids up to n - 1, one bucket each.
  void grow(std::uint64_t n) { dict.grow(n, pools); }

  // The Store calls (StoreBase forwards them here).
  std::uint64_t batch_chunk(std::uint64_t n) const { return batch.chunk_for(n); }

  std::uint64_t insert_prepared(const PreparedBatch& batch, std::uint8_t* is_new_device) {
    Impl& im = *this;
    if (batch.size == 0) return 0;
    if (im.planner.plan_rebuilds) im.planner.resize_for(batch);
    DeviceBuffer<std::uint8_t> state(batch.size, im.ctx.stream, "batch state");
    WG_CUDA_TRY(cudaMemsetAsync(state.data(), 0, batch.size, im.ctx.stream));
    const bool both = !im.ctx.opt.directed;
    std::uint64_t added = 0;
    for (int attempt = 0;; ++attempt) {
      im.ctx.zero_counters();
      insert_prepared_kernel<Adj><<<grid_for(batch.size), kBlock, 0, im.ctx.stream>>>(
          im.ref(), batch.keys.data(), Adj::weighted ? batch.values.data() : nullptr, batch.size,
          batch.key_bits, both, state.data(), im.ctx.counters.data());
      WG_CUDA_CHECK_LAST();
      const detail::Counters c = im.ctx.read_counters();
      added += c.a;
      if (c.b == 0) break;
      try {
        im.pools.make_room(attempt == 0 || c.a > 0);  // then resume the arcs not done
      } catch (const CapacityError& e) {
        im.ctx.zero_counters();
        settle_prepared_kernel<Adj><<<grid_for(batch.size), kBlock, 0, im.ctx.stream>>>(
            im.ref(), batch.keys.data(), Adj::weighted ? batch.values.data() : nullptr, batch.size,
            batch.key_bits, both, state.data(), im.ctx.counters.data());
        throw im.batch.stopped_batch(e, added, nullptr, 0);
      }
    }
    if (is_new_device) {
      state_to_flags_kernel<<<grid_for(batch.size), kBlock, 0, im.ctx.stream>>>(
          state.data(), batch.size, is_new_device);
      WG_CUDA_CHECK_LAST();
    }
    im.ctx.edges += added;
    return added;
  }

  std::uint64_t erase_prepared(const PreparedBatch& batch, std::uint8_t* was_present_device) {
    Impl& im = *this;
    if (batch.size == 0) return 0;
    im.ctx.zero_counters();
    erase_prepared_kernel<Adj><<<grid_for(batch.size), kBlock, 0, im.ctx.stream>>>(
        im.ref(), batch.keys.data(), batch.size, batch.key_bits, !im.ctx.opt.directed,
        was_present_device, im.ctx.counters.data());
    WG_CUDA_CHECK_LAST();
    const detail::Counters c = im.ctx.read_counters();
    im.ctx.edges -= c.a;
    return c.a;
  }

  void contains_prepared(const PreparedBatch& batch, std::uint8_t* out) const {
    contains_prepared_kernel<Adj><<<grid_for(batch.size), kBlock, 0, ctx.stream>>>(
        ref(), batch.keys.data(), batch.size, batch.key_bits, out);
    WG_CUDA_CHECK_LAST();
  }

  void find(DeviceEdges q, std::uint32_t* values_out, std::uint8_t* found_out) const {
    has_edges_kernel<Adj><<<grid_for(q.size), kBlock, 0, ctx.stream>>>(ref(), q.src, q.dst, q.size,
                                                                       found_out, values_out);
    WG_CUDA_CHECK_LAST();
  }

  BuildStep build(DeviceEdges edges, std::uint64_t num_vertices) {
    Impl& im = *this;
    detail::PhaseTrace trace(im.ctx.opt.tuning.trace, im.ctx.stream, "build");
    // Start over: drop every table, keep the allocator's memory. A large input frees the old
    // tables' pools first (chunk_for looks at the free memory); a small build may take the largest
    // of them again (build_pool).
    if (edges.size >= kSmallBuildBelow) im.pools.release_pools();
    im.pools.drop_arena();
    im.pools.alloc.reset(im.ctx.stream);  // and its exhausted flag
    im.dict.clear();
    im.ctx.edges = 0;
    im.dict.reserve(std::max<std::uint64_t>(num_vertices, 1));
    const std::uint64_t n = num_vertices;
    if (n == 0) {
      im.pools.release_pools();
      return {};  // every entry is invalid: the front inserts them all
    }
    im.dict.nv = n;
    // Large builds dedup first (to know the degrees), then size the buckets, then insert; small
    // ones size the buckets for the raw arcs and insert the batch as it is.
    const std::uint64_t chunk = im.batch.chunk_for(edges.size);
    const DeviceEdges first{.src = edges.src,
                            .dst = edges.dst,
                            .values = edges.values,
                            .size = std::min(chunk, edges.size)};
    const bool sorted =
        first.size >= detail::log2_threshold(im.ctx.opt.tuning.build_sort_from_log2);
    // Small builds (by default all unsorted ones) do not wait for the tables' bucket count.
    const bool small = !sorted && first.size < kSmallBuildBelow;
    // A small build's sizing kernel marks the ids live; the others need them before prepare().
    if (!small) WG_CUDA_TRY(cudaMemsetAsync(im.dict.live.data(), 1, n, im.ctx.stream));
    trace.mark("reset");
    PreparedBatch p;
    if (sorted)
      prepare_batch(first, im.dict.live.data(), n, !im.ctx.opt.directed, Adj::weighted,
                    im.ctx.stream, p);
    trace.mark("prepare");
    if (small) {
      // Two kernels, no memset, no scan and no wait: the raw arc counts go into incoming[], zero
      // between calls (size_small_tables_kernel zeroes it again, zeroes the degrees and marks the
      // ids live; raw_degree_kernel zeroes its bump counter and fills the pool empty), and the pool
      // takes an upper bound of the bucket count (detail/table_sizing.hpp; arcs < 2^20: at most
      // 100K buckets spare for a set, 200K for a map).
      const double c = im.ctx.opt.load_factor * Adj::slab_capacity;
      const std::uint64_t spare =
          detail::small_build_spare_buckets(first.size * (im.ctx.opt.directed ? 1 : 2), c);
      unsigned long long* const used = &im.ctx.counters.data()->a;
      slab::Slab* const pool = im.pools.build_pool(n + spare, false);
      const std::uint64_t fill_words = (n + spare) * (sizeof(slab::Slab) / sizeof(uint4));
      raw_degree_kernel<<<detail::striding_grid(std::max(first.size, fill_words)), kBlock, 0,
                          im.ctx.stream>>>(first, n, !im.ctx.opt.directed, im.dict.incoming.data(),
                                           used, pool, n + spare);
      size_small_tables_kernel<<<grid_for(n), kBlock, 0, im.ctx.stream>>>(
          im.dict.vertices.data(), im.dict.degrees.data(), im.dict.incoming.data(),
          im.dict.live.data(), n, pool, c, used);
      WG_CUDA_CHECK_LAST();
    } else {
      DeviceBuffer<unsigned long long> buckets(n, im.ctx.stream, "bulk build degrees");
      WG_CUDA_TRY(
          cudaMemsetAsync(buckets.data(), 0, n * sizeof(unsigned long long), im.ctx.stream));
      if (!sorted && first.size)
        raw_degree_kernel<<<grid_for(first.size), kBlock, 0, im.ctx.stream>>>(
            first, n, !im.ctx.opt.directed, buckets.data());
      else if (p.size)
        build_degree_kernel<<<grid_for(p.size), kBlock, 0, im.ctx.stream>>>(
            p.keys.data(), p.size, p.key_bits, !im.ctx.opt.directed, buckets.data());
      buckets_kernel<<<grid_for(n), kBlock, 0, im.ctx.stream>>>(
          buckets.data(), n, im.ctx.opt.load_factor, Adj::slab_capacity);
      WG_CUDA_CHECK_LAST();
      DeviceBuffer<std::uint64_t> offsets(n + 1, im.ctx.stream, "bulk build offsets");
      exclusive_scan(reinterpret_cast<const std::uint64_t*>(buckets.data()), offsets.data(), n,
                     im.ctx.stream);
      std::uint64_t total_buckets = 0;
      WG_CUDA_TRY(cudaMemcpyAsync(&total_buckets, offsets.data() + n, sizeof total_buckets,
                                  cudaMemcpyDeviceToHost, im.ctx.stream));
      WG_CUDA_TRY(cudaStreamSynchronize(im.ctx.stream));
      slab::Slab* pool = im.pools.build_pool(total_buckets, true);
      im.dict.init_entries(0, n, pool, offsets.data());
    }
    trace.mark("size tables");
    UpdateResult r;
    {
      // The tables were just sized for these degrees: nothing to rebuild, no planning.
      struct Restore {
        Impl& im;
        ~Restore() { im.planner.plan_rebuilds = true; }
      } restore{im};
      im.planner.plan_rebuilds = false;
      // (first fits one chunk.) A small build's arcs are placed into its fresh tables.
      if (sorted) {
        r = p.dropped;
        r.applied = insert_prepared(p, nullptr);
        r.ignored += p.size - r.applied;
      } else {
        r = im.batch.insert(first, /*fresh_tables=*/small);
      }
    }
    trace.mark("insert");
    return {.result = r, .consumed = first.size};
  }

  std::uint64_t erase_vertices(const vertex_t* ids, std::uint64_t k, const std::uint32_t* marks) {
    Impl& im = *this;
    detail::PhaseTrace trace(im.ctx.opt.tuning.trace, im.ctx.stream, "erase_vertices");
    const std::uint32_t* erasing = marks;
    im.ctx.zero_counters();
    if (im.ctx.opt.directed)
      erase_in_arcs_kernel<Adj><<<detail::warp_grid_for(im.dict.nv), kBlock, 0, im.ctx.stream>>>(
          im.ref(), erasing, im.ctx.counters.data());
    WG_CUDA_CHECK_LAST();
    // Every warp of the GPU shares the erased vertices' buckets (their number stays on the device).
    DeviceBuffer<std::uint64_t> buckets(k, im.ctx.stream, "vertex erase buckets");
    DeviceBuffer<std::uint64_t> offsets(k + 1, im.ctx.stream, "vertex erase offsets");
    gather_buckets_kernel<Adj><<<grid_for(k), kBlock, 0, im.ctx.stream>>>(
        im.ref(), ids, k, im.dict.live.data(), buckets.data());
    WG_CUDA_CHECK_LAST();
    exclusive_scan(buckets.data(), offsets.data(), k, im.ctx.stream);
    erase_vertex_buckets_kernel<Adj><<<detail::full_striding_grid(), kBlock, 0, im.ctx.stream>>>(
        im.ref(), ids, k, offsets.data(), erasing, !im.ctx.opt.directed, im.ctx.counters.data());
    WG_CUDA_CHECK_LAST();
    trace.mark("erase");
    const detail::Counters c = im.ctx.read_counters();
    const std::uint64_t removed = im.ctx.opt.directed ? c.a + c.b : c.a;
    im.ctx.edges -= removed;
    return removed;
  }

  Csr export_csr() {  // (uses the counters)
    Impl& im = *this;
    Csr csr;
    csr.num_vertices = im.dict.nv;
    const std::vector<std::uint32_t> deg = im.dict.degrees.to_host(im.ctx.stream, im.dict.nv);
    csr.offsets.assign(im.dict.nv + 1, 0);
    for (std::uint64_t i = 0; i < im.dict.nv; ++i) csr.offsets[i + 1] = csr.offsets[i] + deg[i];
    const std::uint64_t arcs = csr.offsets[im.dict.nv];
    if (arcs == 0) return csr;
    DeviceBuffer<std::uint64_t> d_off =
        DeviceBuffer<std::uint64_t>::from_host(csr.offsets, im.ctx.stream);
    DeviceBuffer<vertex_t> d_targets(arcs, im.ctx.stream, "CSR export");
    DeviceBuffer<std::uint32_t> d_values;
    if (Adj::weighted) d_values = DeviceBuffer<std::uint32_t>(arcs, im.ctx.stream, "CSR export");
    im.ctx.zero_counters();
    export_kernel<Adj><<<detail::warp_grid_for(im.dict.nv), kBlock, 0, im.ctx.stream>>>(
        im.ref(), d_off.data(), d_targets.data(), Adj::weighted ? d_values.data() : nullptr,
        im.ctx.counters.data());
    WG_CUDA_CHECK_LAST();
    if (im.ctx.read_counters().a != 0)
      throw Error("SlabStore::export_csr: a vertex's degree disagrees with its table (bug)");
    csr.targets = d_targets.to_host();
    if (Adj::weighted) csr.values = d_values.to_host();
    return csr;  // rows in table order: the front sorts them
  }

  std::uint64_t memory_bytes() const {
    return dict.memory_bytes() + pools.memory_bytes() + batch.memory_bytes();
  }
};

template <class Adj>
SlabStore<Adj>::SlabStore(std::uint64_t num_vertices, const GraphOptions& options)
    : SlabStore::StoreBase(options) {
  this->impl().dict.reserve(std::max<std::uint64_t>(num_vertices, 1));
  this->impl().grow(num_vertices);
}
template <class Adj>
std::uint64_t SlabStore<Adj>::num_vertices() const noexcept {
  return this->impl().dict.nv;
}
template <class Adj>
std::uint64_t SlabStore<Adj>::num_edges() const noexcept {
  return this->impl().ctx.edges;
}
template <class Adj>
const std::uint8_t* SlabStore<Adj>::live() const noexcept {
  return this->impl().dict.live.data();
}
template <class Adj>
const std::uint32_t* SlabStore<Adj>::degrees() const noexcept {
  return this->impl().dict.degrees.data();
}
template <class Adj>
void SlabStore<Adj>::grow(std::uint64_t n) {
  this->impl().grow(n);
}
template <class Adj>
void SlabStore<Adj>::revive(const vertex_t* ids, std::uint64_t n) {
  this->impl().dict.revive(ids, n);
}
template <class Adj>
UpdateResult SlabStore<Adj>::insert_edges(DeviceEdges chunk) {
  return this->impl().batch.insert(chunk);
}
template <class Adj>
UpdateResult SlabStore<Adj>::erase_edges(DeviceEdges chunk) {
  return this->impl().batch.erase(chunk);
}

template <class Adj>
std::uint64_t SlabStore<Adj>::overflow_slabs_in_use() const {
  return this->impl().pools.alloc.slabs_in_use(this->impl().ctx.stream);
}
template <class Adj>
std::uint64_t SlabStore<Adj>::overflow_slab_capacity() const noexcept {
  return this->impl().pools.alloc.capacity_slabs();
}
template <class Adj>
void SlabStore<Adj>::compact() {
  this->impl().planner.compact();
}
template <class Adj>
GraphStats SlabStore<Adj>::stats() const noexcept {
  return this->impl().ctx.counts;
}

template class StoreBase<SlabStore<SlabSetAdjacency>, SlabStoreTraits<SlabSetAdjacency>>;
template class StoreBase<SlabStore<SlabMapAdjacency>, SlabStoreTraits<SlabMapAdjacency>>;
template class SlabStore<SlabSetAdjacency>;
template class SlabStore<SlabMapAdjacency>;
template class DynamicGraph<SlabSetAdjacency>;
template class DynamicGraph<SlabMapAdjacency>;

}  // namespace wg::gpu
