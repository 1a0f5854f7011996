// wg::gpu::SortedArcStore (sorted_store.hpp): one sorted arc array, searched by binary search,
// re-sorted after inserts and compacted after erasures. Instantiated here with the graph front.
#include <algorithm>
#include <string>
#include <utility>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/graph/gpu/batch_prep.hpp>
#include <warpgraph/graph/gpu/detail/store_calls.cuh>
#include <warpgraph/graph/gpu/graph_front.cuh>
#include <warpgraph/graph/gpu/launch_grid.hpp>
#include <warpgraph/graph/gpu/sorted/sorted_store.hpp>
#include <warpgraph/graph/graph_concepts.hpp>

namespace wg::gpu {
namespace detail::sorted_arcs {

#define WG_SORTED_STRIDE(i, n)                                                          \
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < (n); \
       i += std::uint64_t{gridDim.x} * blockDim.x)

__device__ inline std::uint64_t arc_key(std::uint64_t u, std::uint64_t v) {
  return (u << 32) | v;
}

/// Prepared edge i -> arc i (and its reverse at n + i when `both`), values alongside.
template <bool W>
__global__ void expand_kernel(const std::uint64_t* keys, const std::uint32_t* vals, std::uint64_t n,
                              unsigned bits, bool both, std::uint64_t* arcs,
                              std::uint32_t* arc_vals) {
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  WG_SORTED_STRIDE(i, n) {
    const std::uint64_t u = keys[i] >> bits, v = keys[i] & mask;
    arcs[i] = arc_key(u, v);
    if (both) arcs[n + i] = arc_key(v, u);
    if (W) {
      arc_vals[i] = vals ? vals[i] : 0u;
      if (both) arc_vals[n + i] = vals ? vals[i] : 0u;
    }
  }
}

/// Looks each batch arc up. Insert: present arcs take the batch value (weighted), absent ones
/// are flagged new and counted in their source's degree. Erase: present ones are flagged for
/// removal from the array (keep[at] = 0) and uncounted. flags[j] (j < edges) and *count report
/// per edge whether it changed.
template <bool W>
__global__ void apply_kernel(SortedArcRef<W> g, const std::uint64_t* arcs, std::uint64_t na,
                             std::uint64_t edges, const std::uint32_t* batch_vals, bool inserting,
                             std::uint64_t* stored, std::uint32_t* stored_vals, std::uint64_t size,
                             std::uint32_t* degrees, std::uint8_t* fresh, std::uint8_t* keep,
                             std::uint8_t* flags, unsigned long long* count) {
  WG_SORTED_STRIDE(j, na) {
    const std::uint64_t at = g.lower_bound(arcs[j]);
    const bool found = at < size && stored[at] == arcs[j];
    const vertex_t u = static_cast<vertex_t>(arcs[j] >> 32);
    const bool changes = inserting ? !found : found;
    if (inserting) {
      fresh[j] = !found;
      if (W && found) stored_vals[at] = batch_vals[j];
      if (!found) atomicAdd(degrees + u, 1u);
    } else if (found) {
      keep[at] = 0;
      atomicSub(degrees + u, 1u);
    }
    if (j < edges) {
      if (flags) flags[j] = changes;
      if (changes) atomicAdd(count, 1ull);
    }
  }
}

/// Arcs touching an erased vertex go (keep[i] = 0); a surviving source loses one degree.
__global__ void erase_vertices_kernel(const std::uint64_t* arcs, std::uint64_t n,
                                      const std::uint32_t* marks, std::uint32_t* degrees,
                                      std::uint8_t* keep, unsigned long long* count) {
  WG_SORTED_STRIDE(i, n) {
    const vertex_t u = static_cast<vertex_t>(arcs[i] >> 32), v = static_cast<vertex_t>(arcs[i]);
    const bool gone = marks[u] || marks[v];
    keep[i] = !gone;
    if (gone) atomicAdd(count, 1ull);
    if (gone && !marks[u]) atomicSub(degrees + u, 1u);
  }
}

template <bool W>
__global__ void contains_kernel(SortedArcRef<W> g, const std::uint64_t* keys, std::uint64_t n,
                                unsigned bits, std::uint8_t* out) {
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  WG_SORTED_STRIDE(i, n) {
    out[i] =
        g.has_edge(static_cast<vertex_t>(keys[i] >> bits), static_cast<vertex_t>(keys[i] & mask));
  }
}

template <bool W>
__global__ void find_kernel(SortedArcRef<W> g, DeviceEdges q, const std::uint64_t* stored,
                            const std::uint32_t* stored_vals, std::uint64_t size,
                            std::uint32_t* values, std::uint8_t* found) {
  WG_SORTED_STRIDE(i, q.size) {
    const vertex_t u = q.src[i], v = q.dst[i];
    bool hit = false;
    std::uint32_t value = 0;
    if (u != v && g.is_live(u) && g.is_live(v)) {
      const std::uint64_t at = g.lower_bound(arc_key(u, v));
      hit = at < size && stored[at] == arc_key(u, v);
      if (hit && W) value = stored_vals[at];
    }
    if (found) found[i] = hit;
    if (values) values[i] = value;
  }
}

#undef WG_SORTED_STRIDE

}  // namespace detail::sorted_arcs

namespace sa = detail::sorted_arcs;

template <bool W>
struct SortedArcStore<W>::Impl : VertexArrays {
  explicit Impl(const SortedArcOptions& o) : VertexArrays(o.stream), opt(o), counter(1, o.stream) {
    if (opt.max_chunk == 0) throw InvalidArgument("SortedArcOptions::max_chunk must be > 0");
  }
  SortedArcOptions opt;
  DeviceBuffer<std::uint64_t> arcs;
  DeviceBuffer<std::uint32_t> vals;
  DeviceBuffer<unsigned long long> counter;
  DeviceBuffer<char> sort_temp;
  std::uint64_t size = 0;  // arcs in the array

  cudaStream_t stream() const { return opt.stream; }
  SortedArcRef<W> ref() const {
    return {arcs.data(), W ? vals.data() : nullptr,     size, degrees.data(),
            live.data(), static_cast<std::uint32_t>(nv)};
  }
  void zero_counter() {
    WG_CUDA_TRY(cudaMemsetAsync(counter.data(), 0, sizeof(unsigned long long), stream()));
  }
  std::uint64_t read_counter() const { return counter.to_host(stream())[0]; }

  /// Keeps the arcs whose keep flag is set, in order.
  void compact(const DeviceBuffer<std::uint8_t>& keep) {
    DeviceBuffer<std::uint64_t> a(std::max<std::uint64_t>(size, 1), stream(), "sorted arcs");
    DeviceBuffer<std::uint32_t> v(W ? std::max<std::uint64_t>(size, 1) : 0, stream(), "values");
    size = select_flagged(arcs.data(), W ? vals.data() : nullptr, keep.data(), size, a.data(),
                          W ? v.data() : nullptr, stream());
    arcs = std::move(a);
    vals = std::move(v);
  }

  /// Appends the flagged batch arcs and sorts the whole array again.
  void merge(const DeviceBuffer<std::uint64_t>& batch, const DeviceBuffer<std::uint32_t>& bvals,
             const DeviceBuffer<std::uint8_t>& fresh, std::uint64_t na) {
    DeviceBuffer<std::uint64_t> all(size + na, stream(), "sorted arcs");
    DeviceBuffer<std::uint32_t> allv(W ? size + na : 0, stream(), "sorted arc values");
    if (size) {
      WG_CUDA_TRY(
          cudaMemcpyAsync(all.data(), arcs.data(), size * 8, cudaMemcpyDeviceToDevice, stream()));
      if (W)
        WG_CUDA_TRY(cudaMemcpyAsync(allv.data(), vals.data(), size * 4, cudaMemcpyDeviceToDevice,
                                    stream()));
    }
    const std::uint64_t added =
        select_flagged(batch.data(), W ? bvals.data() : nullptr, fresh.data(), na,
                       all.data() + size, W ? allv.data() + size : nullptr, stream());
    const std::uint64_t n = size + added;
    DeviceBuffer<std::uint64_t> sorted(std::max<std::uint64_t>(n, 1), stream(), "sorted arcs");
    DeviceBuffer<std::uint32_t> sortedv(W ? std::max<std::uint64_t>(n, 1) : 0, stream(), "values");
    sort_keys(all.data(), sorted.data(), n, 64, sort_temp, stream(), W ? allv.data() : nullptr,
              W ? sortedv.data() : nullptr);
    WG_CUDA_TRY(cudaStreamSynchronize(stream()));
    arcs = std::move(sorted);
    vals = std::move(sortedv);
    size = n;
  }

  /// One prepared batch: returns the edges that changed.
  std::uint64_t apply(const PreparedBatch& b, bool inserting, std::uint8_t* flags) {
    const bool both = !opt.directed;
    const std::uint64_t na = b.size * (both ? 2 : 1);
    DeviceBuffer<std::uint64_t> batch(na, stream(), "sorted store batch arcs");
    DeviceBuffer<std::uint32_t> bvals(W ? na : 0, stream(), "sorted store batch values");
    sa::expand_kernel<W><<<grid_for(b.size), kBlock, 0, stream()>>>(
        b.keys.data(), W && !b.values.empty() ? b.values.data() : nullptr, b.size, b.key_bits, both,
        batch.data(), W ? bvals.data() : nullptr);
    DeviceBuffer<std::uint8_t> fresh(na, stream(), "sorted store new arcs");
    DeviceBuffer<std::uint8_t> keep(std::max<std::uint64_t>(size, 1), stream(), "keep flags");
    WG_CUDA_TRY(cudaMemsetAsync(keep.data(), 1, keep.size(), stream()));
    zero_counter();
    sa::apply_kernel<W><<<grid_for(na), kBlock, 0, stream()>>>(
        ref(), batch.data(), na, b.size, W ? bvals.data() : nullptr, inserting, arcs.data(),
        W ? vals.data() : nullptr, size, degrees.data(), fresh.data(), keep.data(), flags,
        counter.data());
    WG_CUDA_CHECK_LAST();
    const std::uint64_t changed = read_counter();
    if (changed && inserting) merge(batch, bvals, fresh, na);
    if (changed && !inserting) compact(keep);
    return changed;
  }

  // The Store calls (StoreBase forwards them here).
  std::uint64_t insert_prepared(const PreparedBatch& b, std::uint8_t* is_new) {
    if (b.size == 0) return 0;
    const std::uint64_t added = apply(b, true, is_new);
    edges += added;
    return added;
  }

  std::uint64_t erase_prepared(const PreparedBatch& b, std::uint8_t* was_present) {
    if (b.size == 0) return 0;
    const std::uint64_t removed = apply(b, false, was_present);
    edges -= removed;
    return removed;
  }

  void contains_prepared(const PreparedBatch& b, std::uint8_t* out) const {
    sa::contains_kernel<W>
        <<<grid_for(b.size), kBlock, 0, stream()>>>(ref(), b.keys.data(), b.size, b.key_bits, out);
    WG_CUDA_CHECK_LAST();
  }

  void find(DeviceEdges q, std::uint32_t* values, std::uint8_t* found) const {
    const Impl& im = *this;
    sa::find_kernel<W><<<grid_for(q.size), kBlock, 0, im.stream()>>>(
        im.ref(), q, im.arcs.data(), W ? im.vals.data() : nullptr, im.size, W ? values : nullptr,
        found);
    WG_CUDA_CHECK_LAST();
  }

  std::uint64_t erase_vertices(const vertex_t* ids, std::uint64_t k, const std::uint32_t* marks) {
    Impl& im = *this;
    std::uint64_t removed_arcs = 0;
    if (im.size) {
      DeviceBuffer<std::uint8_t> keep(im.size, im.stream(), "keep flags");
      im.zero_counter();
      sa::erase_vertices_kernel<<<grid_for(im.size), kBlock, 0, im.stream()>>>(
          im.arcs.data(), im.size, marks, im.degrees.data(), keep.data(), im.counter.data());
      WG_CUDA_CHECK_LAST();
      removed_arcs = im.read_counter();
      if (removed_arcs) im.compact(keep);
    }
    im.retire(ids, k);
    const std::uint64_t removed = im.opt.directed ? removed_arcs : removed_arcs / 2;
    im.edges -= removed;
    return removed;
  }

  BuildStep build(DeviceEdges edges, std::uint64_t num_vertices) {
    Impl& im = *this;
    im.size = 0;
    im.reset(num_vertices);
    const DeviceEdges first{.src = edges.src,
                            .dst = edges.dst,
                            .values = edges.values,
                            .size = std::min(batch_chunk(edges.size), edges.size)};
    PreparedBatch p;
    prepare_batch(first, im.live.data(), im.nv, !im.opt.directed, W, im.stream(), p);
    UpdateResult r = p.dropped;
    r.applied = insert_prepared(p, nullptr);
    r.ignored += p.size - r.applied;
    return {.result = r, .consumed = first.size};
  }

  Csr export_csr() const {
    const Impl& im = *this;
    Csr csr;
    csr.num_vertices = im.nv;
    csr.offsets.assign(im.nv + 1, 0);
    if (im.nv == 0) return csr;
    const std::vector<std::uint32_t> deg = im.degrees.to_host(im.stream(), im.nv);
    for (std::uint64_t u = 0; u < im.nv; ++u) csr.offsets[u + 1] = csr.offsets[u] + deg[u];
    if (im.size == 0) return csr;
    const std::vector<std::uint64_t> arcs = im.arcs.to_host(im.stream(), im.size);
    if (arcs.size() != csr.offsets.back())
      throw Error("SortedArcStore::export_csr: degrees disagree with the arcs (bug)");
    csr.targets.resize(arcs.size());
    for (std::size_t i = 0; i < arcs.size(); ++i) csr.targets[i] = static_cast<vertex_t>(arcs[i]);
    if (W) csr.values = im.vals.to_host(im.stream(), im.size);
    return csr;
  }

  std::uint64_t batch_chunk(std::uint64_t n) const {
    return std::max<std::uint64_t>(1, std::min(n, opt.max_chunk));
  }

  std::uint64_t memory_bytes() const {
    const Impl& im = *this;
    return im.arcs.bytes() + im.vals.bytes() + im.degrees.bytes() + im.live.bytes() +
           im.sort_temp.bytes();
  }
};

template class StoreBase<SortedArcStore<false>, SortedArcTraits<false>, VertexArrays>;
template class StoreBase<SortedArcStore<true>, SortedArcTraits<true>, VertexArrays>;
template class DynamicGraph<SortedArcStore<false>>;
template class DynamicGraph<SortedArcStore<true>>;

// The front over this store is a graph of the concepts (graph/graph_concepts.hpp).
static_assert(Store<SortedArcStore<false>> && Store<SortedArcStore<true>>);
static_assert(wg::GpuDynamicGraph<SortedArcGraph<false>>);
static_assert(wg::GpuDynamicGraph<SortedArcGraph<true>>);

}  // namespace wg::gpu
