// wg::gpu::DynamicGraph: the public calls, composed of the graph's parts (detail/):
//   VertexDictionary  ids, handles, degrees, liveness, free ids     (vertex_dictionary.cu)
//   SlabPools         base-bucket pools, arena, overflow allocator  (slab_pools.cu)
//   RebuildPlanner    table rebuilds and compaction                 (rebuild_planner.cu)
//   BatchEngine       insert_edges / erase_edges passes             (batch_engine.cu)
// and the kernels of the calls made here: bulk build, prepared batches, queries, vertex
// erasure. Instantiated here for the set and map adjacency policies (users never instantiate
// the heavy parts).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include <warpgraph/graph/gpu/batch_chunks.hpp>
#include <warpgraph/graph/gpu/batch_prep.hpp>
#include <warpgraph/graph/gpu/detail/batch_engine.cuh>
#include <warpgraph/graph/gpu/detail/graph_context.cuh>
#include <warpgraph/graph/gpu/detail/kernels/build_kernels.cuh>
#include <warpgraph/graph/gpu/detail/kernels/prepared_kernels.cuh>
#include <warpgraph/graph/gpu/detail/kernels/query_kernels.cuh>
#include <warpgraph/graph/gpu/detail/kernels/settle_kernels.cuh>
#include <warpgraph/graph/gpu/detail/kernels/vertex_erase_kernels.cuh>
#include <warpgraph/graph/gpu/detail/phase_trace.hpp>
#include <warpgraph/graph/gpu/detail/rebuild_planner.cuh>
#include <warpgraph/graph/gpu/detail/slab_pools.cuh>
#include <warpgraph/graph/gpu/detail/table_sizing.hpp>
#include <warpgraph/graph/gpu/detail/vertex_dictionary.cuh>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/gpu/graph_ref.cuh>
#include <warpgraph/graph/gpu/host_batch.hpp>

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
struct DynamicGraph<Adj>::Impl {
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
};

template <class Adj>
DynamicGraph<Adj>::DynamicGraph(std::uint64_t num_vertices, const GraphOptions& options)
    : impl_(std::make_unique<Impl>(options)) {
  impl_->dict.reserve(std::max<std::uint64_t>(num_vertices, 1));
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
  prepare_batch(batch, impl_->dict.live.data(), impl_->dict.nv, !impl_->ctx.opt.directed,
                Adj::weighted, impl_->ctx.stream, out);
  return out;
}

template <class Adj>
UpdateResult DynamicGraph<Adj>::insert_prepared(const PreparedBatch& batch,
                                                std::uint8_t* is_new_device) {
  Impl& im = *impl_;
  UpdateResult r = batch.dropped;
  if (batch.size == 0) return r;
  ++version_;
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
  r.applied = added;
  r.ignored += batch.size - added;
  im.ctx.edges += added;
  return r;
}

template <class Adj>
UpdateResult DynamicGraph<Adj>::erase_prepared(const PreparedBatch& batch,
                                               std::uint8_t* was_present_device) {
  Impl& im = *impl_;
  UpdateResult r = batch.dropped;
  if (batch.size == 0) return r;
  ++version_;
  im.ctx.zero_counters();
  erase_prepared_kernel<Adj><<<grid_for(batch.size), kBlock, 0, im.ctx.stream>>>(
      im.ref(), batch.keys.data(), batch.size, batch.key_bits, !im.ctx.opt.directed,
      was_present_device, im.ctx.counters.data());
  WG_CUDA_CHECK_LAST();
  const detail::Counters c = im.ctx.read_counters();
  r.applied = c.a;
  r.ignored += batch.size - c.a;
  im.ctx.edges -= c.a;
  return r;
}

template <class Adj>
void DynamicGraph<Adj>::contains_prepared(const PreparedBatch& batch, std::uint8_t* out) const {
  if (batch.size == 0) return;
  contains_prepared_kernel<Adj><<<grid_for(batch.size), kBlock, 0, impl_->ctx.stream>>>(
      impl_->ref(), batch.keys.data(), batch.size, batch.key_bits, out);
  WG_CUDA_CHECK_LAST();
}

template <class Adj>
UpdateResult DynamicGraph<Adj>::insert_edges(DeviceEdges batch) {
  ++version_;
  UpdateResult total;
  for_each_chunk(batch, impl_->batch.chunk_for(batch.size), true,
                 [&](DeviceEdges part) { total += impl_->batch.insert(part); });
  return total;
}

template <class Adj>
UpdateResult DynamicGraph<Adj>::erase_edges(DeviceEdges batch) {
  ++version_;
  UpdateResult total;
  for_each_chunk(batch, impl_->batch.chunk_for(batch.size), false,
                 [&](DeviceEdges part) { total += impl_->batch.erase(part); });
  return total;
}

template <class Adj>
UpdateResult DynamicGraph<Adj>::insert_edges(const EdgeList& batch) {
  check_sizes(batch);
  impl_->grow(batch.num_vertices);
  UpdateResult total;
  for_each_host_chunk(batch, impl_->batch.chunk_for(batch.size()), Adj::weighted, true,
                      impl_->ctx.stream, [&](const HostBatchUpload& up, DeviceEdges part) {
                        impl_->grow(up.id_range);
                        total += insert_edges(part);
                      });
  return total;
}

template <class Adj>
UpdateResult DynamicGraph<Adj>::erase_edges(const EdgeList& batch) {
  check_sizes(batch);
  UpdateResult total;
  for_each_host_chunk(
      batch, impl_->batch.chunk_for(batch.size()), false, false, impl_->ctx.stream,
      [&](const HostBatchUpload&, DeviceEdges part) { total += erase_edges(part); });
  return total;
}

template <class Adj>
UpdateResult DynamicGraph<Adj>::build(DeviceEdges edges, std::uint64_t num_vertices) {
  ++version_;
  Impl& im = *impl_;
  detail::PhaseTrace trace(im.ctx.opt.trace, im.ctx.stream, "build");
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
    return insert_edges(edges);  // every entry is invalid
  }
  im.dict.live_count = n;
  im.dict.nv = n;
  // Large builds dedup first (to know the degrees), then size the buckets, then insert; small
  // ones size the buckets for the raw arcs and insert the batch as it is.
  const std::uint64_t chunk = im.batch.chunk_for(edges.size);
  const DeviceEdges first{.src = edges.src,
                          .dst = edges.dst,
                          .values = edges.values,
                          .size = std::min(chunk, edges.size)};
  const bool sorted = first.size >= detail::log2_threshold(im.ctx.opt.build_sort_from_log2);
  // Small builds (by default all unsorted ones) do not wait for the tables' bucket count.
  const bool small = !sorted && first.size < kSmallBuildBelow;
  // A small build's sizing kernel marks the ids live; the others need them before prepare().
  if (!small) WG_CUDA_TRY(cudaMemsetAsync(im.dict.live.data(), 1, n, im.ctx.stream));
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
    WG_CUDA_TRY(cudaMemsetAsync(buckets.data(), 0, n * sizeof(unsigned long long), im.ctx.stream));
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
    r = sorted ? insert_prepared(p) : im.batch.insert(first, /*fresh_tables=*/small);
  }
  trace.mark("insert");
  if (first.size < edges.size) {
    const DeviceEdges rest{.src = edges.src + first.size,
                           .dst = edges.dst + first.size,
                           .values = edges.values ? edges.values + first.size : nullptr,
                           .size = edges.size - first.size};
    r += insert_edges(rest);
  }
  return r;
}

template <class Adj>
UpdateResult DynamicGraph<Adj>::build(const EdgeList& edges) {
  check_sizes(edges);
  HostBatchUpload up =
      upload_host_batch(edges, 0, edges.size(), Adj::weighted, true, impl_->ctx.stream);
  return build(up.view(edges.size()), std::max<std::uint64_t>(edges.num_vertices, up.id_range));
}

template <class Adj>
std::uint64_t DynamicGraph<Adj>::batch_chunk(std::uint64_t n) const {
  return impl_->batch.chunk_for(n);
}

template <class Adj>
void DynamicGraph<Adj>::grow_vertices(std::uint64_t n) {
  impl_->grow(n);
}

template <class Adj>
VertexInsertResult DynamicGraph<Adj>::insert_vertices(std::uint64_t count, const EdgeList& edges) {
  Impl& im = *impl_;
  check_sizes(edges);
  VertexInsertResult out;
  out.ids.reserve(count);
  const std::uint64_t reused = std::min(count, im.dict.free_count());
  out.ids = im.dict.take_free_ids(reused);
  im.dict.live_count += reused;
  const std::uint64_t fresh = count - out.ids.size();
  const std::uint64_t first = im.dict.nv;
  im.grow(im.dict.nv + fresh);
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
    mapped.num_vertices = im.dict.nv;
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
  const DeviceBuffer<vertex_t> d = DeviceBuffer<vertex_t>::from_host(ids, impl_->ctx.stream);
  return erase_vertices(d.data(), ids.size());
}

template <class Adj>
VertexEraseResult DynamicGraph<Adj>::erase_vertices(const vertex_t* ids, std::uint64_t m) {
  ++version_;
  Impl& im = *impl_;
  VertexEraseResult r;
  detail::PhaseTrace trace(im.ctx.opt.trace, im.ctx.stream, "erase_vertices");
  if (m == 0) return r;
  if (im.dict.nv == 0) {
    r.ignored_ids = m;
    return r;
  }
  // The erased vertices, on the device: marked, then listed in increasing id order (the order in
  // which insert_vertices hands them out again, as the CPU graph does).
  DeviceBuffer<std::uint32_t> marks(im.dict.nv, im.ctx.stream, "vertex erase flags");
  WG_CUDA_TRY(cudaMemsetAsync(marks.data(), 0, im.dict.nv * sizeof(std::uint32_t), im.ctx.stream));
  mark_vertices_kernel<<<grid_for(m), kBlock, 0, im.ctx.stream>>>(
      ids, m, im.dict.live.data(), static_cast<std::uint32_t>(im.dict.nv), marks.data());
  WG_CUDA_CHECK_LAST();
  DeviceBuffer<vertex_t> d_ids(std::min<std::uint64_t>(m, im.dict.nv), im.ctx.stream,
                              "erased vertices");
  const std::uint64_t k = flagged_ids(marks.data(), im.dict.nv, d_ids.data(), im.ctx.stream);
  r.ignored_ids = m - k;
  trace.mark("mark");
  if (k == 0) return r;
  const std::uint32_t* erasing = marks.data();
  im.ctx.zero_counters();
  if (im.ctx.opt.directed)
    erase_in_arcs_kernel<Adj><<<detail::warp_grid_for(im.dict.nv), kBlock, 0, im.ctx.stream>>>(
        im.ref(), erasing, im.ctx.counters.data());
  WG_CUDA_CHECK_LAST();
  // Every warp of the GPU shares the erased vertices' buckets (their number stays on the device).
  DeviceBuffer<std::uint64_t> buckets(k, im.ctx.stream, "vertex erase buckets");
  DeviceBuffer<std::uint64_t> offsets(k + 1, im.ctx.stream, "vertex erase offsets");
  gather_buckets_kernel<Adj><<<grid_for(k), kBlock, 0, im.ctx.stream>>>(
      im.ref(), d_ids.data(), k, im.dict.live.data(), buckets.data());
  WG_CUDA_CHECK_LAST();
  exclusive_scan(buckets.data(), offsets.data(), k, im.ctx.stream);
  erase_vertex_buckets_kernel<Adj><<<detail::full_striding_grid(), kBlock, 0, im.ctx.stream>>>(
      im.ref(), d_ids.data(), k, offsets.data(), erasing, !im.ctx.opt.directed,
      im.ctx.counters.data());
  WG_CUDA_CHECK_LAST();
  trace.mark("erase");
  const detail::Counters c = im.ctx.read_counters();
  r.vertices = k;
  r.edges_removed = im.ctx.opt.directed ? c.a + c.b : c.a;
  im.ctx.edges -= r.edges_removed;
  im.dict.live_count -= k;
  im.dict.push_free_ids(d_ids.data(), k);
  trace.mark("free ids");
  return r;
}

template <class Adj>
void DynamicGraph<Adj>::has_edges(DeviceEdges q, std::uint8_t* out) const {
  if (q.size == 0) return;
  has_edges_kernel<Adj><<<grid_for(q.size), kBlock, 0, impl_->ctx.stream>>>(
      impl_->ref(), q.src, q.dst, q.size, out, nullptr);
  WG_CUDA_CHECK_LAST();
}

template <class Adj>
void DynamicGraph<Adj>::find_values(DeviceEdges q, std::uint32_t* values_out,
                                    std::uint8_t* found_out) const {
  if (q.size == 0) return;
  has_edges_kernel<Adj><<<grid_for(q.size), kBlock, 0, impl_->ctx.stream>>>(
      impl_->ref(), q.src, q.dst, q.size, found_out, values_out);
  WG_CUDA_CHECK_LAST();
}

template <class Adj>
std::vector<std::uint8_t> DynamicGraph<Adj>::has_edges(const EdgeList& q) const {
  check_sizes(q);
  const std::uint64_t n = q.size();
  const HostBatchUpload up = upload_host_batch(q, 0, n, false, false, impl_->ctx.stream);
  DeviceBuffer<std::uint8_t> out(n, impl_->ctx.stream, "has_edges output");
  has_edges(up.view(n), out.data());
  return out.to_host();
}

template <class Adj>
void DynamicGraph<Adj>::degrees(std::uint32_t* out) const {
  if (impl_->dict.nv == 0) return;
  WG_CUDA_TRY(cudaMemcpyAsync(out, impl_->dict.degrees.data(),
                              impl_->dict.nv * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice,
                              impl_->ctx.stream));
}

template <class Adj>
std::vector<std::uint32_t> DynamicGraph<Adj>::degrees() const {
  DeviceBuffer<std::uint32_t> d(impl_->dict.nv, impl_->ctx.stream, "degrees");
  degrees(d.data());
  return d.to_host();
}

template <class Adj>
std::uint32_t DynamicGraph<Adj>::degree(vertex_t v) const {
  if (v >= impl_->dict.nv) return 0;
  std::uint32_t d = 0;
  WG_CUDA_TRY(cudaMemcpyAsync(&d, impl_->dict.degrees.data() + v, sizeof d, cudaMemcpyDeviceToHost,
                              impl_->ctx.stream));
  WG_CUDA_TRY(cudaStreamSynchronize(impl_->ctx.stream));
  return d;
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
  csr.num_vertices = im.dict.nv;
  const auto deg = degrees();
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
    throw Error("DynamicGraph::export_csr: a vertex's degree disagrees with its table (bug)");
  csr.targets = d_targets.to_host();
  if (Adj::weighted) csr.values = d_values.to_host();
  // Sort each row (tables are unordered).
  std::vector<std::pair<vertex_t, std::uint32_t>> row;
  for (std::uint64_t u = 0; u < im.dict.nv; ++u) {
    const std::uint64_t b = csr.offsets[u], e = csr.offsets[u + 1];
    if (e - b < 2) continue;
    if (!Adj::weighted) {
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
  e.symmetric = !impl_->ctx.opt.directed;
  e.reserve(impl_->ctx.edges, Adj::weighted);
  for (std::uint64_t u = 0; u < csr.num_vertices; ++u) {
    for (std::uint64_t i = csr.offsets[u]; i < csr.offsets[u + 1]; ++i) {
      const vertex_t v = csr.targets[i];
      if (e.symmetric && v < u) continue;
      e.src.push_back(static_cast<vertex_t>(u));
      e.dst.push_back(v);
      if (Adj::weighted) e.weight.push_back(csr.values[i]);
    }
  }
  return e;
}

template <class Adj>
std::uint64_t DynamicGraph<Adj>::num_vertices() const noexcept {
  return impl_->dict.nv;
}
template <class Adj>
std::uint64_t DynamicGraph<Adj>::num_live_vertices() const noexcept {
  return impl_->dict.live_count;
}
template <class Adj>
std::uint64_t DynamicGraph<Adj>::num_free_ids() const noexcept {
  return impl_->dict.free_count();
}
template <class Adj>
std::uint64_t DynamicGraph<Adj>::num_edges() const noexcept {
  return impl_->ctx.edges;
}
template <class Adj>
bool DynamicGraph<Adj>::directed() const noexcept {
  return impl_->ctx.opt.directed;
}
template <class Adj>
const GraphOptions& DynamicGraph<Adj>::options() const noexcept {
  return impl_->ctx.opt;
}
template <class Adj>
cudaStream_t DynamicGraph<Adj>::stream() const noexcept {
  return impl_->ctx.stream;
}
template <class Adj>
std::uint64_t DynamicGraph<Adj>::memory_bytes() const {
  return impl_->dict.memory_bytes() + impl_->pools.memory_bytes() + impl_->batch.memory_bytes();
}
template <class Adj>
std::uint64_t DynamicGraph<Adj>::overflow_slabs_in_use() const {
  return impl_->pools.alloc.slabs_in_use(impl_->ctx.stream);
}
template <class Adj>
std::uint64_t DynamicGraph<Adj>::overflow_slab_capacity() const noexcept {
  return impl_->pools.alloc.capacity_slabs();
}
template <class Adj>
void DynamicGraph<Adj>::compact() {
  impl_->planner.compact();
}

template <class Adj>
GraphStats DynamicGraph<Adj>::stats() const noexcept {
  return impl_->ctx.counts;
}

template class DynamicGraph<SlabSetAdjacency>;
template class DynamicGraph<SlabMapAdjacency>;

}  // namespace wg::gpu
