// FreeIdQueue (free_id_queue.hpp).
#include <algorithm>
#include <utility>

#include <warpgraph/graph/gpu/free_id_queue.hpp>

namespace wg::gpu {

FreeIdQueue::Runs FreeIdQueue::runs(std::uint64_t from, std::uint64_t n) {
  if (n == 0) return {.at = {nullptr, nullptr}, .len = {0, 0}};
  const std::uint64_t cap = slots_.size(), at = from % cap, first = std::min(n, cap - at);
  return {.at = {slots_.data() + at, slots_.data()}, .len = {first, n - first}};
}

void FreeIdQueue::push(const vertex_t* ids, std::uint64_t k) {
  const std::uint64_t need = size() + k;
  if (need > slots_.size()) {  // re-lay the queue from position 0, in order
    DeviceBuffer<vertex_t> q(std::max<std::uint64_t>({need, 2 * slots_.size(), 1024}), stream_,
                             "free-id queue");
    copy(head_, size(), q.data(), cudaMemcpyDeviceToDevice);
    tail_ = size();
    head_ = 0;
    slots_ = std::move(q);
  }
  const Runs r = runs(tail_, k);
  for (int j = 0; j < 2; ++j)
    if (r.len[j])
      WG_CUDA_TRY(cudaMemcpyAsync(r.at[j], ids + (j ? r.len[0] : 0), r.len[j] * sizeof(vertex_t),
                                  cudaMemcpyDeviceToDevice, stream_));
  tail_ += k;
}

void FreeIdQueue::copy(std::uint64_t from, std::uint64_t n, vertex_t* to, cudaMemcpyKind kind) {
  const Runs r = runs(from, n);
  for (int j = 0; j < 2; ++j)
    if (r.len[j])
      WG_CUDA_TRY(cudaMemcpyAsync(to + (j ? r.len[0] : 0), r.at[j], r.len[j] * sizeof(vertex_t),
                                  kind, stream_));
}

}  // namespace wg::gpu
