// wg::gpu::BTreeStore (btree_store.hpp): the host side. Every batch is prepared (deduplicated,
// canonical) by the front's prepare_batch, expanded to tree arcs, looked up (which arcs are
// present decides the degree changes and the counts), then applied as one tree batch.
// Instantiated here with the graph front over it (BTreeGraph<W>).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include <warpgraph/containers/btree/btree.cuh>
#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/graph/gpu/batch_prep.hpp>
#include <warpgraph/graph/gpu/btree/btree_graph_sizing.hpp>
#include <warpgraph/graph/gpu/btree/btree_store_kernels.cuh>
#include <warpgraph/graph/gpu/btree_graph.hpp>
#include <warpgraph/graph/gpu/btree_graph_ref.cuh>
#include <warpgraph/graph/gpu/detail/store_calls.cuh>
#include <warpgraph/graph/gpu/graph_front.cuh>
#include <warpgraph/graph/gpu/launch_grid.hpp>

namespace wg::gpu {

namespace k = detail::btree_graph;
using Tree = btree::BTree<std::uint64_t>;

template <bool W>
struct BTreeStore<W>::Impl : VertexArrays {
  BTreeGraphOptions opt;
  cudaStream_t stream = 0;
  std::unique_ptr<Tree> tree;
  DeviceBuffer<unsigned long long> counter;
  std::uint64_t rebuilds = 0;

  explicit Impl(const BTreeGraphOptions& o)
      : VertexArrays(o.stream), opt(o), stream(o.stream), counter(1, o.stream) {
    if (!(opt.growth >= 1.25)) throw InvalidArgument("BTreeGraphOptions::growth must be >= 1.25");
    if (opt.max_chunk == 0) throw InvalidArgument("BTreeGraphOptions::max_chunk must be > 0");
  }

  static constexpr std::uint64_t kMaxNodes = (std::uint64_t{1} << 30) - 2;

  std::unique_ptr<Tree> make_tree(std::uint64_t nodes) const {
    nodes = std::max<std::uint64_t>(nodes, 64);
    if (nodes > kMaxNodes)
      throw CapacityError(
          "BTreeGraph", kMaxNodes,
          "the tree would need " + std::to_string(nodes) + " nodes (2^30 - 2 at most)");
    return std::make_unique<Tree>(
        btree::BTreeOptions{.node_capacity = nodes, .build_fill = opt.build_fill}, stream);
  }
  std::uint64_t build_nodes(std::uint64_t n) const { return k::build_nodes(n, opt.build_fill); }

  BTreeGraphRef<W> ref() const {
    return BTreeGraphRef<W>(tree->ref(), degrees.data(), live.data(),
                            static_cast<std::uint32_t>(nv));
  }

  void zero_counter() {
    WG_CUDA_TRY(cudaMemsetAsync(counter.data(), 0, sizeof(unsigned long long), stream));
  }
  std::uint64_t read_counter() const { return counter.to_host(stream)[0]; }

  /// Every arc in key order with per-vertex offsets: one tree range query per piece of
  /// snapshot_piece_keys expected neighbours (a hub's row is split by neighbour id into pieces
  /// that tiles walk in parallel, instead of one tile walking its whole chain of leaves).
  void snapshot(DeviceBuffer<std::uint64_t>& offsets, DeviceBuffer<std::uint64_t>& keys,
                DeviceBuffer<std::uint64_t>& values) const {
    offsets.resize_discard(nv + 1, "BTreeGraph snapshot offsets");
    if (nv == 0) {
      WG_CUDA_TRY(cudaMemsetAsync(offsets.data(), 0, sizeof(std::uint64_t), stream));
      keys.resize_discard(0);
      values.resize_discard(0);
      return;
    }
    DeviceBuffer<std::uint64_t> pieces(nv, stream, "snapshot pieces");
    DeviceBuffer<std::uint64_t> first(nv + 1, stream, "snapshot pieces");
    k::piece_count_kernel<<<grid_for(nv), kBlock, 0, stream>>>(
        degrees.data(), nv, std::max<std::uint64_t>(opt.snapshot_piece_keys, 1), pieces.data());
    WG_CUDA_CHECK_LAST();
    exclusive_scan(pieces.data(), first.data(), nv, stream);
    std::uint64_t q = 0;
    WG_CUDA_TRY(cudaMemcpyAsync(&q, first.data() + nv, sizeof q, cudaMemcpyDeviceToHost, stream));
    WG_CUDA_TRY(cudaStreamSynchronize(stream));
    DeviceBuffer<std::uint64_t> lo(q, stream, "range bounds"), hi(q, stream, "range bounds");
    k::piece_bounds_kernel<<<grid_for(nv), kBlock, 0, stream>>>(first.data(), nv, lo.data(),
                                                                hi.data());
    WG_CUDA_CHECK_LAST();
    DeviceBuffer<std::uint64_t> qoff(q + 1, stream, "range offsets");
    tree->range(lo.data(), hi.data(), q, qoff.data(), keys, values, stream);
    k::gather_offsets_kernel<<<grid_for(nv + 1), kBlock, 0, stream>>>(first.data(), qoff.data(), nv,
                                                                      offsets.data());
    WG_CUDA_CHECK_LAST();
  }

  /// Makes sure the pool has room for `new_arcs` more keys, else (or when `force`) rebuilds the
  /// tree into a pool of growth x the need (contents unchanged, erased slots compacted). A batch
  /// of m new keys splits at most about m leaves (each full leaf once, then one per 3 inserts)
  /// and a third as many inner nodes: 2m bounds it.
  void reserve_for(std::uint64_t new_arcs, bool force = false) {
    const std::uint64_t need = k::batch_nodes(new_arcs);
    const std::uint64_t used = tree->node_count(stream);
    if (!force && used + need <= tree->node_capacity()) return;
    const std::uint64_t size = tree->size();
    const double want =
        opt.growth * static_cast<double>(build_nodes(size) + need) * (force ? 2.0 : 1.0);
    if (build_nodes(size) + need > kMaxNodes)
      throw CapacityError("BTreeGraph", kMaxNodes,
                          "a batch of " + std::to_string(new_arcs) + " arcs into a tree of " +
                              std::to_string(size) + " does not fit 2^30 - 2 nodes");
    std::unique_ptr<Tree> bigger =
        make_tree(std::min<std::uint64_t>(static_cast<std::uint64_t>(want), kMaxNodes));
    if (size) {
      DeviceBuffer<std::uint64_t> offsets, keys, values;
      snapshot(offsets, keys, values);
      bigger->build(keys.data(), values.data(), keys.size(), stream);
    }
    tree = std::move(bigger);
    ++rebuilds;
  }

  /// Degrees and the edge count read back from the tree (after a failed batch).
  void resync() {
    if (nv == 0) return;
    DeviceBuffer<std::uint64_t> lo(nv, stream, "range bounds"), hi(nv, stream, "range bounds");
    k::vertex_bounds_kernel<<<grid_for(nv), kBlock, 0, stream>>>(nullptr, nv, lo.data(), hi.data());
    WG_CUDA_CHECK_LAST();
    const std::uint64_t arcs = tree->count(lo.data(), hi.data(), nv, degrees.data(), stream);
    edges = opt.directed ? arcs : arcs / 2;
  }

  /// Prepared edges -> tree arcs (both directions when undirected).
  std::uint64_t expand(const PreparedBatch& b, DeviceBuffer<std::uint64_t>& arcs,
                       DeviceBuffer<std::uint64_t>* values) const {
    const bool both = !opt.directed;
    const std::uint64_t n = b.size * (both ? 2 : 1);
    arcs.resize_discard(n, "BTreeGraph arcs");
    if (values) {
      values->resize_discard(n, "BTreeGraph arc values");
    }
    k::arcs_kernel<<<grid_for(b.size), kBlock, 0, stream>>>(
        b.keys.data(), W && !b.values.empty() ? b.values.data() : nullptr, b.size, b.key_bits, both,
        arcs.data(), values ? values->data() : nullptr);
    WG_CUDA_CHECK_LAST();
    return n;
  }

  /// Looks the arcs up and applies their degree changes; returns how many arcs change.
  std::uint64_t presence(const DeviceBuffer<std::uint64_t>& arcs, std::uint64_t n, bool inserting,
                         std::uint8_t* edge_flags) {
    DeviceBuffer<bool> found(n, stream, "BTreeGraph found flags");
    tree->find(arcs.data(), n, nullptr, found.data(), stream);
    zero_counter();
    k::apply_degrees_kernel<<<grid_for(n), kBlock, 0, stream>>>(
        arcs.data(), found.data(), n, opt.directed ? 1 : 2, inserting, degrees.data(), edge_flags,
        counter.data());
    WG_CUDA_CHECK_LAST();
    return read_counter();
  }

  // The Store calls (StoreBase forwards them here).
  std::uint64_t batch_chunk(std::uint64_t n) const {
    return std::max<std::uint64_t>(1, std::min(n, opt.max_chunk));
  }

  std::uint64_t insert_prepared(const PreparedBatch& batch, std::uint8_t* is_new_device) {
    Impl& im = *this;
    if (batch.size == 0) return 0;
    DeviceBuffer<std::uint64_t> arcs, values;
    const std::uint64_t n = im.expand(batch, arcs, &values);
    // The pool first: the insert must not run out of nodes half way (reserve_for's bound makes
    // the tree's CapacityError unreachable).
    im.reserve_for(n);
    const std::uint64_t added_arcs = im.presence(arcs, n, true, is_new_device);
    try {
      im.tree->insert(arcs.data(), values.data(), n, im.stream);
    } catch (const CapacityError&) {
      // Not expected (reserve_for's bound): the batch is partly in. Inserts replace, so the
      // whole batch again into a larger pool completes it; the flags and counts above stand.
      try {
        im.reserve_for(n, /*force=*/true);
        im.tree->insert(arcs.data(), values.data(), n, im.stream);
      } catch (const CapacityError&) {
        im.resync();
        throw;
      }
    }
    const std::uint64_t added = im.opt.directed ? added_arcs : added_arcs / 2;
    im.edges += added;
    return added;
  }

  std::uint64_t erase_prepared(const PreparedBatch& batch, std::uint8_t* was_present_device) {
    Impl& im = *this;
    if (batch.size == 0) return 0;
    DeviceBuffer<std::uint64_t> arcs;
    const std::uint64_t n = im.expand(batch, arcs, nullptr);
    const std::uint64_t gone_arcs = im.presence(arcs, n, false, was_present_device);
    im.tree->erase(arcs.data(), n, im.stream);
    const std::uint64_t removed = im.opt.directed ? gone_arcs : gone_arcs / 2;
    im.edges -= removed;
    return removed;
  }

  void contains_prepared(const PreparedBatch& batch, std::uint8_t* out) const {
    const Impl& im = *this;
    DeviceBuffer<std::uint64_t> arcs(batch.size, im.stream, "BTreeGraph arcs");
    k::arcs_kernel<<<grid_for(batch.size), kBlock, 0, im.stream>>>(
        batch.keys.data(), nullptr, batch.size, batch.key_bits, false, arcs.data(), nullptr);
    WG_CUDA_CHECK_LAST();
    DeviceBuffer<bool> found(batch.size, im.stream, "BTreeGraph found flags");
    im.tree->find(arcs.data(), batch.size, nullptr, found.data(), im.stream);
    k::bool_to_byte_kernel<<<grid_for(batch.size), kBlock, 0, im.stream>>>(found.data(), batch.size,
                                                                           out);
    WG_CUDA_CHECK_LAST();
  }

  BuildStep build(DeviceEdges edges, std::uint64_t num_vertices) {
    Impl& im = *this;
    im.reset(num_vertices);
    UpdateResult r;
    // The first chunk builds the tree; the rest (batches past max_chunk) are inserted.
    const DeviceEdges first{.src = edges.src,
                            .dst = edges.dst,
                            .values = edges.values,
                            .size = std::min(batch_chunk(edges.size), edges.size)};
    PreparedBatch p;
    prepare_batch(first, im.live.data(), im.nv, !im.opt.directed, W, im.stream, p);
    r = p.dropped;
    DeviceBuffer<std::uint64_t> arcs, values;
    const std::uint64_t n = p.size ? im.expand(p, arcs, &values) : 0;
    std::unique_ptr<Tree> fresh =
        im.make_tree(static_cast<std::uint64_t>(im.opt.growth * im.build_nodes(n)));
    if (n) {
      fresh->build(arcs.data(), values.data(), n, im.stream);
      k::count_degrees_kernel<<<grid_for(n), kBlock, 0, im.stream>>>(arcs.data(), n,
                                                                     im.degrees.data());
      WG_CUDA_CHECK_LAST();
    }
    im.tree = std::move(fresh);
    r.applied = p.size;
    im.edges = p.size;
    return {.result = r, .consumed = first.size};
  }

  std::uint64_t erase_vertices(const vertex_t* ids, std::uint64_t kk, const std::uint32_t* marks) {
    Impl& im = *this;
    // The arcs to remove: out-arcs of the erased vertices and their reverses (undirected), or a
    // pass over every arc (directed: in-arcs are not indexed).
    DeviceBuffer<std::uint64_t> offsets, keys, values;
    if (im.opt.directed) {
      im.snapshot(offsets, keys, values);
    } else {
      offsets.resize_discard(kk + 1, "vertex erase offsets");
      DeviceBuffer<std::uint64_t> lo(kk, im.stream, "range bounds"), hi(kk, im.stream, "bounds");
      k::vertex_bounds_kernel<<<grid_for(kk), kBlock, 0, im.stream>>>(ids, kk, lo.data(),
                                                                      hi.data());
      WG_CUDA_CHECK_LAST();
      im.tree->range(lo.data(), hi.data(), kk, offsets.data(), keys, values, im.stream);
    }
    const std::uint64_t n = keys.size();
    std::uint64_t removed_arcs = 0;
    if (n) {
      DeviceBuffer<std::uint64_t> out(im.opt.directed ? n : 2 * n, im.stream, "arcs to erase");
      im.zero_counter();
      const auto erase_arcs =
          im.opt.directed ? k::erase_arcs_kernel<true> : k::erase_arcs_kernel<false>;
      erase_arcs<<<grid_for(n), kBlock, 0, im.stream>>>(keys.data(), n, marks, im.degrees.data(),
                                                        out.data(), im.counter.data());
      WG_CUDA_CHECK_LAST();
      removed_arcs = im.read_counter();
      if (removed_arcs) im.tree->erase(out.data(), removed_arcs, im.stream);
    }
    im.retire(ids, kk);
    const std::uint64_t removed = im.opt.directed ? removed_arcs : removed_arcs / 2;
    im.edges -= removed;
    return removed;
  }

  void find(DeviceEdges q, std::uint32_t* values_out, std::uint8_t* found_out) const {
    const Impl& im = *this;
    DeviceBuffer<std::uint64_t> keys(q.size, im.stream, "query keys");
    k::query_keys_kernel<<<grid_for(q.size), kBlock, 0, im.stream>>>(q, im.live.data(), im.nv,
                                                                     keys.data());
    WG_CUDA_CHECK_LAST();
    DeviceBuffer<bool> found(q.size, im.stream, "query answers");
    DeviceBuffer<std::uint64_t> vals;
    if (values_out) {
      vals = DeviceBuffer<std::uint64_t>(q.size, im.stream, "query values");
      WG_CUDA_TRY(cudaMemsetAsync(vals.data(), 0, vals.bytes(), im.stream));
    }
    im.tree->find(keys.data(), q.size, values_out ? vals.data() : nullptr, found.data(), im.stream);
    if (found_out)
      k::bool_to_byte_kernel<<<grid_for(q.size), kBlock, 0, im.stream>>>(found.data(), q.size,
                                                                         found_out);
    if (values_out)
      k::low_words_kernel<<<grid_for(q.size), kBlock, 0, im.stream>>>(vals.data(), q.size,
                                                                      values_out);
    WG_CUDA_CHECK_LAST();
    WG_CUDA_TRY(cudaStreamSynchronize(im.stream));  // the temporaries die here
  }

  DeviceCsr export_device_csr() const {
    const Impl& im = *this;
    DeviceCsr csr;
    csr.num_vertices = im.nv;
    DeviceBuffer<std::uint64_t> keys, values;
    im.snapshot(csr.offsets, keys, values);
    const std::uint64_t n = keys.size();
    csr.targets.resize_discard(std::max<std::uint64_t>(n, 1), "CSR targets");
    if (n) {
      k::low_words_kernel<<<grid_for(n), kBlock, 0, im.stream>>>(keys.data(), n,
                                                                 csr.targets.data());
      WG_CUDA_CHECK_LAST();
    }
    if (W) {
      csr.values.resize_discard(std::max<std::uint64_t>(n, 1), "CSR values");
      if (n) {
        k::low_words_kernel<<<grid_for(n), kBlock, 0, im.stream>>>(values.data(), n,
                                                                   csr.values.data());
        WG_CUDA_CHECK_LAST();
      }
    }
    WG_CUDA_TRY(cudaStreamSynchronize(im.stream));
    return csr;
  }

  Csr export_csr() const {
    const DeviceCsr d = export_device_csr();
    Csr csr;
    csr.num_vertices = d.num_vertices;
    csr.offsets = d.offsets.to_host(stream, d.num_vertices + 1);
    const std::uint64_t n = csr.offsets.back();
    if (n) {
      csr.targets = d.targets.to_host(stream, n);
      if (W) csr.values = d.values.to_host(stream, n);
    }
    return csr;
  }

  std::uint64_t memory_bytes() const {
    return tree->memory_bytes() + degrees.bytes() + live.bytes();
  }
};

template <bool W>
BTreeStore<W>::BTreeStore(std::uint64_t num_vertices, const BTreeGraphOptions& options)
    : BTreeStore::VertexArrayStore(options) {
  Impl& im = this->impl();
  im.tree = im.make_tree(options.initial_nodes ? options.initial_nodes
                                               : im.build_nodes(2 * num_vertices));
  im.grow(num_vertices);
}

template <bool W>
DeviceCsr BTreeStore<W>::export_device_csr() const {
  return this->impl().export_device_csr();
}
template <bool W>
std::string BTreeStore<W>::validate() const {
  const Impl& im = this->impl();
  std::string err = im.tree->validate(im.stream);
  if (!err.empty()) return "tree: " + err;
  const Csr csr = this->export_csr();
  const std::vector<std::uint32_t> deg = im.degrees.to_host(im.stream, im.nv);
  std::uint64_t arcs = 0;
  for (std::uint64_t u = 0; u < im.nv; ++u) {
    const std::uint64_t d = csr.offsets[u + 1] - csr.offsets[u];
    arcs += d;
    if (d != deg[u])
      return "vertex " + std::to_string(u) + ": degree " + std::to_string(deg[u]) + ", " +
             std::to_string(d) + " arcs";
  }
  const std::uint64_t expect = im.opt.directed ? im.edges : 2 * im.edges;
  if (arcs != expect)
    return std::to_string(arcs) + " arcs for " + std::to_string(im.edges) + " edges";
  return "";
}

template <bool W>
std::uint64_t BTreeStore<W>::tree_nodes() const {
  return this->impl().tree->node_count(this->impl().stream);
}
template <bool W>
std::uint64_t BTreeStore<W>::tree_node_capacity() const noexcept {
  return this->impl().tree->node_capacity();
}
template <bool W>
std::uint64_t BTreeStore<W>::pool_rebuilds() const noexcept {
  return this->impl().rebuilds;
}

template class StoreBase<BTreeStore<false>, BTreeStoreTraits<false>, VertexArrays>;
template class StoreBase<BTreeStore<true>, BTreeStoreTraits<true>, VertexArrays>;
template class BTreeStore<false>;
template class BTreeStore<true>;
template class DynamicGraph<BTreeStore<false>>;
template class DynamicGraph<BTreeStore<true>>;

}  // namespace wg::gpu
