#pragma once
// wg::gpu::DynamicGraph<S> (graph_front.hpp): the definitions, written once for every store.
// Included by the translation unit that instantiates a store's graph (one line per store:
// `template class DynamicGraph<MyStore>;`), never by users.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/graph/gpu/batch_chunks.hpp>
#include <warpgraph/graph/gpu/batch_prep.hpp>
#include <warpgraph/graph/gpu/graph_front.hpp>
#include <warpgraph/graph/gpu/host_batch.hpp>
#include <warpgraph/graph/gpu/launch_grid.hpp>

namespace wg::gpu {
namespace detail::front {

// marks[x] = 1 for every live vertex x that an entry names (repeats store the same 1). (A
// template so that every store's translation unit may hold it.)
template <class Id = vertex_t>
__global__ void mark_vertices_kernel(const Id* ids, std::uint64_t m, const std::uint8_t* live,
                                     std::uint32_t nv, std::uint32_t* marks) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const Id x = ids[i];
    if (x < nv && live[x]) marks[x] = 1;
  }
}

/// Sorts each row of a CSR whose rows come in table order (values along).
void sort_rows(Csr& csr, bool weighted);
/// The COO of a sorted CSR: an undirected graph's edges once each (src < dst).
EdgeList coo_of(const Csr& csr, bool symmetric, std::uint64_t edges, bool weighted);
/// `edges` with new_vertex(i) tags replaced by ids[i] (InvalidArgument past `count`).
EdgeList map_new_vertices(const EdgeList& edges, const std::vector<vertex_t>& ids,
                          std::uint64_t count, std::uint64_t num_vertices);

}  // namespace detail::front

template <class T>
DynamicGraph<T>::DynamicGraph(std::uint64_t num_vertices, const options_type& options)
    : store_(num_vertices, options), free_(store_.stream()), live_count_(store_.num_vertices()) {
  static_assert(Store<store_type>, "DynamicGraph<S>: S is not a Store (graph/gpu/store.hpp)");
}
template <class T>
DynamicGraph<T>::~DynamicGraph() = default;
template <class T>
DynamicGraph<T>::DynamicGraph(DynamicGraph&&) noexcept = default;
template <class T>
DynamicGraph<T>& DynamicGraph<T>::operator=(DynamicGraph&&) noexcept = default;

template <class T>
PreparedBatch DynamicGraph<T>::prepare(DeviceEdges batch) const {
  PreparedBatch out;
  prepare_batch(batch, store_.live(), store_.num_vertices(), !store_.directed(), is_weighted,
                store_.stream(), out);
  return out;
}

template <class T>
UpdateResult DynamicGraph<T>::insert_prepared(const PreparedBatch& batch, std::uint8_t* is_new) {
  return apply_prepared(batch, is_new, true);
}

template <class T>
UpdateResult DynamicGraph<T>::erase_prepared(const PreparedBatch& batch,
                                             std::uint8_t* was_present) {
  return apply_prepared(batch, was_present, false);
}

template <class T>
UpdateResult DynamicGraph<T>::apply_prepared(const PreparedBatch& batch, std::uint8_t* flags,
                                             bool insert) {
  UpdateResult r = batch.dropped;
  if (batch.size == 0) return r;
  ++version_;
  r.applied = insert ? store_.insert_prepared(batch, flags) : store_.erase_prepared(batch, flags);
  r.ignored += batch.size - r.applied;
  return r;
}

template <class T>
void DynamicGraph<T>::contains_prepared(const PreparedBatch& batch, std::uint8_t* out) const {
  if (batch.size) store_.contains_prepared(batch, out);
}

template <class T>
UpdateResult DynamicGraph<T>::insert_edges(DeviceEdges batch) {
  return apply_edges(batch, true);
}

template <class T>
UpdateResult DynamicGraph<T>::erase_edges(DeviceEdges batch) {
  return apply_edges(batch, false);
}

template <class T>
UpdateResult DynamicGraph<T>::apply_edges(DeviceEdges batch, bool insert) {
  UpdateResult total;
  for_each_chunk(batch, store_.batch_chunk(batch.size), insert, [&](DeviceEdges part) {
    if constexpr (StoreWithRawBatches<store_type>) {
      ++version_;
      total += insert ? store_.insert_edges(part) : store_.erase_edges(part);
    } else {
      total += apply_prepared(prepare(part), nullptr, insert);
    }
  });
  return total;
}

template <class T>
UpdateResult DynamicGraph<T>::insert_edges(const EdgeList& batch) {
  check_sizes(batch);
  grow_vertices(batch.num_vertices);
  UpdateResult total;
  for_each_host_chunk(batch, store_.batch_chunk(batch.size()), is_weighted, true, stream(),
                      [&](const HostBatchUpload& up, DeviceEdges part) {
                        grow_vertices(up.id_range);
                        total += insert_edges(part);
                      });
  return total;
}

template <class T>
UpdateResult DynamicGraph<T>::erase_edges(const EdgeList& batch) {
  check_sizes(batch);
  UpdateResult total;
  for_each_host_chunk(
      batch, store_.batch_chunk(batch.size()), false, false, stream(),
      [&](const HostBatchUpload&, DeviceEdges part) { total += erase_edges(part); });
  return total;
}

template <class T>
UpdateResult DynamicGraph<T>::build(const EdgeList& edges) {
  check_sizes(edges);
  HostBatchUpload up = upload_host_batch(edges, 0, edges.size(), is_weighted, true, stream());
  return build(up.view(edges.size()), std::max<std::uint64_t>(edges.num_vertices, up.id_range));
}

template <class T>
UpdateResult DynamicGraph<T>::build(DeviceEdges edges, std::uint64_t num_vertices) {
  if (num_vertices > kVertexIdLimit)
    throw InvalidArgument("DynamicGraph::build: " + std::to_string(num_vertices) +
                          " vertices is past the id limit of 2^31");
  ++version_;
  free_.clear();
  const BuildStep step = store_.build(edges, num_vertices);
  live_count_ = store_.num_vertices();
  UpdateResult r = step.result;
  if (step.consumed < edges.size)
    r += insert_edges(DeviceEdges{.src = edges.src + step.consumed,
                                  .dst = edges.dst + step.consumed,
                                  .values = edges.values ? edges.values + step.consumed : nullptr,
                                  .size = edges.size - step.consumed});
  return r;
}

template <class T>
void DynamicGraph<T>::grow_vertices(std::uint64_t n) {
  const std::uint64_t nv = store_.num_vertices();
  if (n <= nv) return;
  store_.grow(n);  // new ids are isolated vertices: not a change a result must see (version())
  live_count_ += n - nv;
}

template <class T>
VertexInsertResult DynamicGraph<T>::insert_vertices(std::uint64_t count, const EdgeList& edges) {
  check_sizes(edges);
  VertexInsertResult out;
  const std::uint64_t reused = std::min(count, free_.size());
  out.ids =
      free_.take(reused, [&](const vertex_t* run, std::uint64_t len) { store_.revive(run, len); });
  out.ids.reserve(count);
  live_count_ += reused;
  const std::uint64_t first = store_.num_vertices();
  grow_vertices(first + (count - reused));
  for (std::uint64_t i = 0; i < count - reused; ++i)
    out.ids.push_back(static_cast<vertex_t>(first + i));
  if (!edges.empty())
    out.edges =
        insert_edges(detail::front::map_new_vertices(edges, out.ids, count, store_.num_vertices()));
  return out;
}

template <class T>
std::vector<vertex_t> DynamicGraph<T>::insert_vertices(std::uint64_t count) {
  return insert_vertices(count, EdgeList{}).ids;
}

template <class T>
VertexEraseResult DynamicGraph<T>::erase_vertices(const std::vector<vertex_t>& ids) {
  if (ids.empty()) return {};
  const DeviceBuffer<vertex_t> d = DeviceBuffer<vertex_t>::from_host(ids, stream());
  return erase_vertices(d.data(), ids.size());
}

template <class T>
VertexEraseResult DynamicGraph<T>::erase_vertices(const vertex_t* ids, std::uint64_t m) {
  VertexEraseResult r;
  if (m == 0) return r;
  const std::uint64_t nv = store_.num_vertices();
  if (nv == 0) {
    r.ignored_ids = m;
    return r;
  }
  // The erased vertices, on the device: marked, then listed in increasing id order (the order in
  // which insert_vertices hands them out again, as the CPU graph does).
  const cudaStream_t s = stream();
  DeviceBuffer<std::uint32_t> marks(nv, s, "vertex erase flags");
  WG_CUDA_TRY(cudaMemsetAsync(marks.data(), 0, nv * sizeof(std::uint32_t), s));
  detail::front::mark_vertices_kernel<vertex_t><<<grid_for(m), kBlock, 0, s>>>(
      ids, m, store_.live(), static_cast<std::uint32_t>(nv), marks.data());
  WG_CUDA_CHECK_LAST();
  DeviceBuffer<vertex_t> d_ids(std::min<std::uint64_t>(m, nv), s, "erased vertices");
  const std::uint64_t k = flagged_ids(marks.data(), nv, d_ids.data(), s);
  r.ignored_ids = m - k;
  if (k == 0) return r;
  ++version_;
  r.vertices = k;
  r.edges_removed = store_.erase_vertices(d_ids.data(), k, marks.data());
  live_count_ -= k;
  free_.push(d_ids.data(), k);
  return r;
}

template <class T>
void DynamicGraph<T>::has_edges(DeviceEdges q, std::uint8_t* out) const {
  if (q.size) store_.find(q, nullptr, out);
}

template <class T>
void DynamicGraph<T>::find_values(DeviceEdges q, std::uint32_t* values_out,
                                  std::uint8_t* found_out) const {
  if (q.size) store_.find(q, values_out, found_out);
}

template <class T>
std::vector<std::uint8_t> DynamicGraph<T>::has_edges(const EdgeList& q) const {
  check_sizes(q);
  const std::uint64_t n = q.size();
  if (n == 0) return {};
  const HostBatchUpload up = upload_host_batch(q, 0, n, false, false, stream());
  DeviceBuffer<std::uint8_t> out(n, stream(), "has_edges output");
  has_edges(up.view(n), out.data());
  return out.to_host(stream());
}

template <class T>
void DynamicGraph<T>::degrees(std::uint32_t* out) const {
  const std::uint64_t nv = store_.num_vertices();
  if (nv == 0) return;
  WG_CUDA_TRY(cudaMemcpyAsync(out, store_.degrees(), nv * sizeof(std::uint32_t),
                              cudaMemcpyDeviceToDevice, stream()));
}

template <class T>
std::vector<std::uint32_t> DynamicGraph<T>::degrees() const {
  const std::uint64_t nv = store_.num_vertices();
  std::vector<std::uint32_t> out(nv);
  if (nv == 0) return out;
  WG_CUDA_TRY(cudaMemcpyAsync(out.data(), store_.degrees(), nv * sizeof(std::uint32_t),
                              cudaMemcpyDeviceToHost, stream()));
  WG_CUDA_TRY(cudaStreamSynchronize(stream()));
  return out;
}

template <class T>
std::uint32_t DynamicGraph<T>::degree(vertex_t v) const {
  if (v >= store_.num_vertices()) return 0;
  std::uint32_t d = 0;
  WG_CUDA_TRY(
      cudaMemcpyAsync(&d, store_.degrees() + v, sizeof d, cudaMemcpyDeviceToHost, stream()));
  WG_CUDA_TRY(cudaStreamSynchronize(stream()));
  return d;
}

template <class T>
std::uint64_t DynamicGraph<T>::max_degree() const {
  const auto d = degrees();
  return d.empty() ? 0 : *std::max_element(d.begin(), d.end());
}

template <class T>
Csr DynamicGraph<T>::export_csr() const {
  Csr csr = store_.export_csr();
  if constexpr (!store_type::sorted_rows) detail::front::sort_rows(csr, is_weighted);
  return csr;
}

template <class T>
EdgeList DynamicGraph<T>::export_coo() const {
  return detail::front::coo_of(export_csr(), !directed(), num_edges(), is_weighted);
}

}  // namespace wg::gpu
