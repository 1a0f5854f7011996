// VertexDictionary (vertex_dictionary.cuh): handles, degrees, liveness and free ids.
#include <algorithm>
#include <string>
#include <utility>

#include <warpgraph/graph/gpu/detail/kernels/dictionary_kernels.cuh>
#include <warpgraph/graph/gpu/detail/vertex_dictionary.cuh>

namespace wg::gpu::detail {

void VertexDictionary::reserve(std::uint64_t n) {
  if (n <= capacity) return;
  if (n > kVertexIdLimit)
    throw InvalidArgument("vertex id range of " + std::to_string(n) +
                          " ids is past the id limit of 2^31 (wg::kVertexIdLimit)");
  const cudaStream_t stream = ctx_.stream;
  const std::uint64_t cap = std::max({n, ctx_.opt.vertex_capacity, 2 * capacity});
  DeviceBuffer<VertexEntry> v2(cap, stream, "vertex dictionary");
  DeviceBuffer<std::uint8_t> l2(cap, stream, "vertex dictionary");
  DeviceBuffer<std::uint32_t> d2(cap, stream, "vertex degrees");
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
  incoming = DeviceBuffer<std::uint32_t>(cap, stream, "vertex dictionary");
  WG_CUDA_TRY(cudaMemsetAsync(incoming.data(), 0, cap * sizeof(std::uint32_t), stream));
  capacity = cap;
}

void VertexDictionary::grow(std::uint64_t n, SlabPools& pools) {
  if (n <= nv) return;
  reserve(n);
  const std::uint64_t count = n - nv;
  slab::Slab* pool = pools.new_pool(count);
  init_entries(nv, count, pool, nullptr);
  WG_CUDA_TRY(cudaMemsetAsync(live.data() + nv, 1, count, ctx_.stream));
  live_count += count;
  nv = n;
}

void VertexDictionary::init_entries(std::uint64_t first, std::uint64_t count, slab::Slab* pool,
                                    const std::uint64_t* offsets) {
  dictionary::init_entries_kernel<<<grid_for(count), kBlock, 0, ctx_.stream>>>(
      vertices.data(), degrees.data(), first, count, pool, offsets);
  WG_CUDA_CHECK_LAST();
}

void VertexDictionary::clear() {
  nv = 0;
  live_count = 0;
  free_head_ = free_tail_ = 0;
}

VertexDictionary::QueueRuns VertexDictionary::free_runs(std::uint64_t from, std::uint64_t n) {
  if (n == 0) return {.at = {nullptr, nullptr}, .len = {0, 0}};
  const std::uint64_t cap = free_queue_.size(), at = from % cap, first = std::min(n, cap - at);
  return {.at = {free_queue_.data() + at, free_queue_.data()}, .len = {first, n - first}};
}

void VertexDictionary::push_free_ids(const vertex_t* ids, std::uint64_t k) {
  const std::uint64_t need = free_count() + k;
  if (need > free_queue_.size()) {  // re-lay the queue from position 0, in order
    DeviceBuffer<vertex_t> q(std::max<std::uint64_t>({need, 2 * free_queue_.size(), 1024}),
                             ctx_.stream, "free-id queue");
    copy_free_ids(free_head_, free_count(), q.data(), cudaMemcpyDeviceToDevice);
    free_tail_ = free_count();
    free_head_ = 0;
    free_queue_ = std::move(q);
  }
  const QueueRuns r = free_runs(free_tail_, k);
  for (int j = 0; j < 2; ++j)
    if (r.len[j])
      WG_CUDA_TRY(cudaMemcpyAsync(r.at[j], ids + (j ? r.len[0] : 0), r.len[j] * sizeof(vertex_t),
                                  cudaMemcpyDeviceToDevice, ctx_.stream));
  free_tail_ += k;
}

std::vector<vertex_t> VertexDictionary::take_free_ids(std::uint64_t n) {
  std::vector<vertex_t> out(n);
  if (n == 0) return out;
  copy_free_ids(free_head_, n, out.data(), cudaMemcpyDeviceToHost);
  const QueueRuns r = free_runs(free_head_, n);
  for (int j = 0; j < 2; ++j) {
    if (!r.len[j]) continue;
    dictionary::mark_live_kernel<<<grid_for(r.len[j]), kBlock, 0, ctx_.stream>>>(
        vertices.data(), live.data(), r.at[j], r.len[j]);
    WG_CUDA_CHECK_LAST();
  }
  WG_CUDA_TRY(cudaStreamSynchronize(ctx_.stream));
  free_head_ += n;
  return out;
}

void VertexDictionary::copy_free_ids(std::uint64_t from, std::uint64_t n, vertex_t* to,
                                     cudaMemcpyKind kind) {
  const QueueRuns r = free_runs(from, n);
  for (int j = 0; j < 2; ++j)
    if (r.len[j])
      WG_CUDA_TRY(cudaMemcpyAsync(to + (j ? r.len[0] : 0), r.at[j], r.len[j] * sizeof(vertex_t),
                                  kind, ctx_.stream));
}

}  // namespace wg::gpu::detail
