// wg::gpu::BTreeGraph (btree_graph.hpp): the host side. Every batch is prepared (deduplicated,
// canonical) by the shared prepare_batch, expanded to tree arcs, looked up (which arcs are
// present decides the degree changes and the UpdateResult), then applied as one tree batch.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include <warpgraph/containers/btree/btree.cuh>
#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/graph/gpu/batch_chunks.hpp>
#include <warpgraph/graph/gpu/batch_prep.hpp>
#include <warpgraph/graph/gpu/btree_graph.hpp>
#include <warpgraph/graph/gpu/btree_graph_ref.cuh>
#include <warpgraph/graph/gpu/detail/btree_graph_kernels.cuh>
#include <warpgraph/graph/gpu/detail/btree_graph_sizing.hpp>
#include <warpgraph/graph/gpu/host_batch.hpp>
#include <warpgraph/graph/gpu/launch_grid.hpp>

namespace wg::gpu {

namespace k = detail::btree_graph;
using Tree = btree::BTree<std::uint64_t>;

template <bool W>
struct BTreeGraph<W>::Impl {
  BTreeGraphOptions opt;
  cudaStream_t stream = 0;
  std::unique_ptr<Tree> tree;
  DeviceBuffer<std::uint32_t> degrees;
  DeviceBuffer<std::uint8_t> live;
  DeviceBuffer<unsigned long long> counter;
  std::uint64_t nv = 0, live_count = 0, edges = 0, rebuilds = 0;
  std::deque<vertex_t> free_ids;

  explicit Impl(const BTreeGraphOptions& o) : opt(o), stream(o.stream), counter(1, o.stream) {
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

  void grow(std::uint64_t n) {
    if (n <= nv) return;
    if (n > kVertexIdLimit)
      throw InvalidArgument("BTreeGraph: vertex id range of " + std::to_string(n) +
                            " is past the id limit of 2^31");
    if (n > degrees.size()) {
      const std::uint64_t cap = std::max<std::uint64_t>(n, 2 * degrees.size());
      DeviceBuffer<std::uint32_t> d(cap, stream, "BTreeGraph degrees");
      DeviceBuffer<std::uint8_t> l(cap, stream, "BTreeGraph live flags");
      if (nv) {
        WG_CUDA_TRY(
            cudaMemcpyAsync(d.data(), degrees.data(), nv * 4, cudaMemcpyDeviceToDevice, stream));
        WG_CUDA_TRY(cudaMemcpyAsync(l.data(), live.data(), nv, cudaMemcpyDeviceToDevice, stream));
      }
      degrees = std::move(d);
      live = std::move(l);
    }
    WG_CUDA_TRY(cudaMemsetAsync(degrees.data() + nv, 0, (n - nv) * 4, stream));
    WG_CUDA_TRY(cudaMemsetAsync(live.data() + nv, 1, n - nv, stream));
    live_count += n - nv;
    nv = n;
  }

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
};

template <bool W>
BTreeGraph<W>::BTreeGraph(std::uint64_t num_vertices, const BTreeGraphOptions& options)
    : impl_(std::make_unique<Impl>(options)) {
  Impl& im = *impl_;
  im.tree = im.make_tree(options.initial_nodes ? options.initial_nodes
                                               : im.build_nodes(2 * num_vertices));
  im.grow(num_vertices);
}
template <bool W>
BTreeGraph<W>::~BTreeGraph() = default;
template <bool W>
BTreeGraph<W>::BTreeGraph(BTreeGraph&&) noexcept = default;
template <bool W>
BTreeGraph<W>& BTreeGraph<W>::operator=(BTreeGraph&&) noexcept = default;

template <bool W>
PreparedBatch BTreeGraph<W>::prepare(DeviceEdges batch) const {
  PreparedBatch out;
  prepare_batch(batch, impl_->live.data(), impl_->nv, !impl_->opt.directed, W, impl_->stream, out);
  return out;
}

template <bool W>
UpdateResult BTreeGraph<W>::insert_prepared(const PreparedBatch& batch,
                                            std::uint8_t* is_new_device) {
  Impl& im = *impl_;
  UpdateResult r = batch.dropped;
  if (batch.size == 0) return r;
  ++version_;
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
  r.applied = added;
  r.ignored += batch.size - added;
  im.edges += added;
  return r;
}

template <bool W>
UpdateResult BTreeGraph<W>::erase_prepared(const PreparedBatch& batch,
                                           std::uint8_t* was_present_device) {
  Impl& im = *impl_;
  UpdateResult r = batch.dropped;
  if (batch.size == 0) return r;
  ++version_;
  DeviceBuffer<std::uint64_t> arcs;
  const std::uint64_t n = im.expand(batch, arcs, nullptr);
  const std::uint64_t gone_arcs = im.presence(arcs, n, false, was_present_device);
  im.tree->erase(arcs.data(), n, im.stream);
  const std::uint64_t removed = im.opt.directed ? gone_arcs : gone_arcs / 2;
  r.applied = removed;
  r.ignored += batch.size - removed;
  im.edges -= removed;
  return r;
}

template <bool W>
void BTreeGraph<W>::contains_prepared(const PreparedBatch& batch, std::uint8_t* out) const {
  Impl& im = *impl_;
  if (batch.size == 0) return;
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

template <bool W>
UpdateResult BTreeGraph<W>::insert_edges(DeviceEdges batch) {
  UpdateResult r;
  for_each_chunk(batch, batch_chunk(batch.size), W,
                 [&](DeviceEdges part) { r += insert_prepared(prepare(part)); });
  return r;
}

template <bool W>
UpdateResult BTreeGraph<W>::erase_edges(DeviceEdges batch) {
  UpdateResult r;
  for_each_chunk(batch, batch_chunk(batch.size), false,
                 [&](DeviceEdges part) { r += erase_prepared(prepare(part)); });
  return r;
}

template <bool W>
UpdateResult BTreeGraph<W>::insert_edges(const EdgeList& batch) {
  check_sizes(batch);
  impl_->grow(batch.num_vertices);
  UpdateResult total;
  for_each_host_chunk(batch, batch_chunk(batch.size()), W, true, impl_->stream,
                      [&](const HostBatchUpload& up, DeviceEdges part) {
                        impl_->grow(up.id_range);
                        total += insert_edges(part);
                      });
  return total;
}

template <bool W>
UpdateResult BTreeGraph<W>::erase_edges(const EdgeList& batch) {
  check_sizes(batch);
  UpdateResult total;
  for_each_host_chunk(
      batch, batch_chunk(batch.size()), false, false, impl_->stream,
      [&](const HostBatchUpload&, DeviceEdges part) { total += erase_edges(part); });
  return total;
}

template <bool W>
UpdateResult BTreeGraph<W>::build(const EdgeList& edges) {
  check_sizes(edges);
  HostBatchUpload up = upload_host_batch(edges, 0, edges.size(), W, true, impl_->stream);
  return build(up.view(edges.size()), std::max<std::uint64_t>(edges.num_vertices, up.id_range));
}

template <bool W>
UpdateResult BTreeGraph<W>::build(DeviceEdges edges, std::uint64_t num_vertices) {
  ++version_;
  Impl& im = *impl_;
  if (num_vertices > kVertexIdLimit)
    throw InvalidArgument("BTreeGraph::build: " + std::to_string(num_vertices) + " vertices");
  im.free_ids.clear();
  im.nv = 0;
  im.live_count = 0;
  im.edges = 0;
  im.grow(num_vertices);
  WG_CUDA_TRY(cudaMemsetAsync(im.degrees.data(), 0, im.nv * 4, im.stream));
  WG_CUDA_TRY(cudaMemsetAsync(im.live.data(), 1, im.nv, im.stream));
  UpdateResult r;
  // The first chunk builds the tree; the rest (batches past max_chunk) are inserted.
  const DeviceEdges first{.src = edges.src,
                          .dst = edges.dst,
                          .values = edges.values,
                          .size = std::min(batch_chunk(edges.size), edges.size)};
  const PreparedBatch p = prepare(first);
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
  if (first.size < edges.size) {
    r += insert_edges(DeviceEdges{.src = edges.src + first.size,
                                  .dst = edges.dst + first.size,
                                  .values = edges.values ? edges.values + first.size : nullptr,
                                  .size = edges.size - first.size});
  }
  return r;
}

template <bool W>
void BTreeGraph<W>::grow_vertices(std::uint64_t n) {
  impl_->grow(n);
}

template <bool W>
std::uint64_t BTreeGraph<W>::batch_chunk(std::uint64_t n) const {
  return std::max<std::uint64_t>(1, std::min(n, impl_->opt.max_chunk));
}

template <bool W>
VertexInsertResult BTreeGraph<W>::insert_vertices(std::uint64_t count, const EdgeList& edges) {
  Impl& im = *impl_;
  check_sizes(edges);
  VertexInsertResult out;
  const std::uint64_t reused = std::min<std::uint64_t>(count, im.free_ids.size());
  for (std::uint64_t i = 0; i < reused; ++i) {
    out.ids.push_back(im.free_ids.front());
    im.free_ids.pop_front();
  }
  if (reused) {
    const auto d = DeviceBuffer<vertex_t>::from_host(out.ids, im.stream);
    k::set_live_kernel<<<grid_for(reused), kBlock, 0, im.stream>>>(d.data(), reused, im.live.data(),
                                                                   im.degrees.data(), 1);
    WG_CUDA_CHECK_LAST();
    WG_CUDA_TRY(cudaStreamSynchronize(im.stream));
    im.live_count += reused;
  }
  const std::uint64_t first = im.nv;
  im.grow(im.nv + (count - reused));
  for (std::uint64_t i = 0; i < count - reused; ++i)
    out.ids.push_back(static_cast<vertex_t>(first + i));
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

template <bool W>
std::vector<vertex_t> BTreeGraph<W>::insert_vertices(std::uint64_t count) {
  return insert_vertices(count, EdgeList{}).ids;
}

template <bool W>
VertexEraseResult BTreeGraph<W>::erase_vertices(const vertex_t* ids, std::uint64_t m) {
  if (m == 0) return {};
  std::vector<vertex_t> h(m);
  WG_CUDA_TRY(
      cudaMemcpyAsync(h.data(), ids, m * sizeof(vertex_t), cudaMemcpyDeviceToHost, impl_->stream));
  WG_CUDA_TRY(cudaStreamSynchronize(impl_->stream));
  return erase_vertices(h);
}

template <bool W>
VertexEraseResult BTreeGraph<W>::erase_vertices(const std::vector<vertex_t>& ids) {
  ++version_;
  Impl& im = *impl_;
  VertexEraseResult r;
  if (ids.empty()) return r;
  // Which ids are live (host copy of the flags; vertex erasure is a host-driven, rare call).
  const std::vector<std::uint8_t> live = im.live.to_host(im.stream, im.nv);
  std::vector<vertex_t> sorted(ids);
  std::sort(sorted.begin(), sorted.end());
  std::vector<vertex_t> erased;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    const vertex_t v = sorted[i];
    if (i && sorted[i - 1] == v) continue;
    if (v < im.nv && live[v]) erased.push_back(v);
  }
  r.ignored_ids = ids.size() - erased.size();
  const std::uint64_t kk = erased.size();
  if (kk == 0) return r;
  std::vector<std::uint8_t> marks(im.nv, 0);
  for (vertex_t v : erased) marks[v] = 1;
  const auto d_marks = DeviceBuffer<std::uint8_t>::from_host(marks, im.stream);
  const auto d_ids = DeviceBuffer<vertex_t>::from_host(erased, im.stream);
  // The arcs to remove: out-arcs of the erased vertices and their reverses (undirected), or a
  // pass over every arc (directed: in-arcs are not indexed).
  DeviceBuffer<std::uint64_t> offsets, keys, values;
  if (im.opt.directed) {
    im.snapshot(offsets, keys, values);
  } else {
    offsets.resize_discard(kk + 1, "vertex erase offsets");
    DeviceBuffer<std::uint64_t> lo(kk, im.stream, "range bounds"), hi(kk, im.stream, "bounds");
    k::vertex_bounds_kernel<<<grid_for(kk), kBlock, 0, im.stream>>>(d_ids.data(), kk, lo.data(),
                                                                    hi.data());
    WG_CUDA_CHECK_LAST();
    im.tree->range(lo.data(), hi.data(), kk, offsets.data(), keys, values, im.stream);
  }
  const std::uint64_t n = keys.size();
  std::uint64_t removed_arcs = 0;
  if (n) {
    DeviceBuffer<std::uint64_t> out(im.opt.directed ? n : 2 * n, im.stream, "arcs to erase");
    im.zero_counter();
    if (im.opt.directed)
      k::erase_arcs_directed_kernel<<<grid_for(n), kBlock, 0, im.stream>>>(
          keys.data(), n, d_marks.data(), im.degrees.data(), out.data(), im.counter.data());
    else
      k::erase_arcs_undirected_kernel<<<grid_for(n), kBlock, 0, im.stream>>>(
          keys.data(), n, d_marks.data(), im.degrees.data(), out.data(), im.counter.data());
    WG_CUDA_CHECK_LAST();
    removed_arcs = im.read_counter();
    if (removed_arcs) im.tree->erase(out.data(), removed_arcs, im.stream);
  }
  k::set_live_kernel<<<grid_for(kk), kBlock, 0, im.stream>>>(d_ids.data(), kk, im.live.data(),
                                                             im.degrees.data(), 0);
  WG_CUDA_CHECK_LAST();
  WG_CUDA_TRY(cudaStreamSynchronize(im.stream));
  r.vertices = kk;
  r.edges_removed = im.opt.directed ? removed_arcs : removed_arcs / 2;
  im.edges -= r.edges_removed;
  im.live_count -= kk;
  for (vertex_t v : erased) im.free_ids.push_back(v);
  return r;
}

template <bool W>
void BTreeGraph<W>::has_edges(DeviceEdges q, std::uint8_t* out) const {
  find_values(q, nullptr, out);
}

template <bool W>
std::vector<std::uint8_t> BTreeGraph<W>::has_edges(const EdgeList& queries) const {
  check_sizes(queries);
  std::vector<std::uint8_t> out(queries.size());
  if (queries.empty()) return out;
  const HostBatchUpload up =
      upload_host_batch(queries, 0, queries.size(), false, false, impl_->stream);
  DeviceBuffer<std::uint8_t> d(queries.size(), impl_->stream, "has_edges answers");
  has_edges(up.view(queries.size()), d.data());
  return d.to_host(impl_->stream);
}

template <bool W>
void BTreeGraph<W>::find_values(DeviceEdges q, std::uint32_t* values_out,
                                std::uint8_t* found_out) const {
  const Impl& im = *impl_;
  if (q.size == 0) return;
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

template <bool W>
std::vector<std::uint32_t> BTreeGraph<W>::degrees() const {
  if (impl_->nv == 0) return {};
  return impl_->degrees.to_host(impl_->stream, impl_->nv);
}
template <bool W>
std::uint32_t BTreeGraph<W>::degree(vertex_t v) const {
  if (v >= impl_->nv) return 0;
  std::uint32_t d = 0;
  WG_CUDA_TRY(
      cudaMemcpyAsync(&d, impl_->degrees.data() + v, 4, cudaMemcpyDeviceToHost, impl_->stream));
  WG_CUDA_TRY(cudaStreamSynchronize(impl_->stream));
  return d;
}
template <bool W>
void BTreeGraph<W>::degrees(std::uint32_t* out) const {
  if (impl_->nv == 0) return;
  WG_CUDA_TRY(cudaMemcpyAsync(out, impl_->degrees.data(), impl_->nv * 4, cudaMemcpyDeviceToDevice,
                              impl_->stream));
}

template <bool W>
DeviceCsr BTreeGraph<W>::export_device_csr() const {
  const Impl& im = *impl_;
  DeviceCsr csr;
  csr.num_vertices = im.nv;
  DeviceBuffer<std::uint64_t> keys, values;
  im.snapshot(csr.offsets, keys, values);
  const std::uint64_t n = keys.size();
  csr.targets.resize_discard(std::max<std::uint64_t>(n, 1), "CSR targets");
  if (n) {
    k::low_words_kernel<<<grid_for(n), kBlock, 0, im.stream>>>(keys.data(), n, csr.targets.data());
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

template <bool W>
Csr BTreeGraph<W>::export_csr() const {
  const DeviceCsr d = export_device_csr();
  Csr csr;
  csr.num_vertices = d.num_vertices;
  csr.offsets = d.offsets.to_host(impl_->stream, d.num_vertices + 1);
  const std::uint64_t n = csr.offsets.back();
  if (n) {
    csr.targets = d.targets.to_host(impl_->stream, n);
    if (W) csr.values = d.values.to_host(impl_->stream, n);
  }
  return csr;
}

template <bool W>
EdgeList BTreeGraph<W>::export_coo() const {
  const Csr csr = export_csr();
  EdgeList e;
  e.num_vertices = csr.num_vertices;
  e.symmetric = !impl_->opt.directed;
  e.reserve(impl_->edges, W);
  for (std::uint64_t u = 0; u < csr.num_vertices; ++u) {
    for (std::uint64_t i = csr.offsets[u]; i < csr.offsets[u + 1]; ++i) {
      const vertex_t v = csr.targets[i];
      if (e.symmetric && v < u) continue;
      e.src.push_back(static_cast<vertex_t>(u));
      e.dst.push_back(v);
      if (W) e.weight.push_back(csr.values[i]);
    }
  }
  return e;
}

template <bool W>
std::string BTreeGraph<W>::validate() const {
  const Impl& im = *impl_;
  std::string err = im.tree->validate(im.stream);
  if (!err.empty()) return "tree: " + err;
  const Csr csr = export_csr();
  const auto deg = degrees();
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
std::uint64_t BTreeGraph<W>::num_vertices() const noexcept {
  return impl_->nv;
}
template <bool W>
std::uint64_t BTreeGraph<W>::num_live_vertices() const noexcept {
  return impl_->live_count;
}
template <bool W>
std::uint64_t BTreeGraph<W>::num_free_ids() const noexcept {
  return impl_->free_ids.size();
}
template <bool W>
std::uint64_t BTreeGraph<W>::num_edges() const noexcept {
  return impl_->edges;
}
template <bool W>
std::uint64_t BTreeGraph<W>::max_degree() const {
  const auto d = degrees();
  return d.empty() ? 0 : *std::max_element(d.begin(), d.end());
}
template <bool W>
bool BTreeGraph<W>::directed() const noexcept {
  return impl_->opt.directed;
}
template <bool W>
const BTreeGraphOptions& BTreeGraph<W>::options() const noexcept {
  return impl_->opt;
}
template <bool W>
cudaStream_t BTreeGraph<W>::stream() const noexcept {
  return impl_->stream;
}
template <bool W>
std::uint64_t BTreeGraph<W>::memory_bytes() const {
  return impl_->tree->memory_bytes() + impl_->degrees.bytes() + impl_->live.bytes();
}
template <bool W>
std::uint64_t BTreeGraph<W>::tree_nodes() const {
  return impl_->tree->node_count(impl_->stream);
}
template <bool W>
std::uint64_t BTreeGraph<W>::tree_node_capacity() const noexcept {
  return impl_->tree->node_capacity();
}
template <bool W>
std::uint64_t BTreeGraph<W>::pool_rebuilds() const noexcept {
  return impl_->rebuilds;
}
template <bool W>
typename BTreeGraph<W>::ref_type BTreeGraph<W>::ref() const {
  return impl_->ref();
}

template class BTreeGraph<false>;
template class BTreeGraph<true>;

}  // namespace wg::gpu
