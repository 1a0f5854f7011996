// VertexDictionary (vertex_dictionary.cuh): handles, degrees and liveness.
#include <algorithm>
#include <string>
#include <utility>

#include <warpgraph/graph/gpu/slab/detail/kernels/dictionary_kernels.cuh>
#include <warpgraph/graph/gpu/slab/detail/vertex_dictionary.cuh>

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
}

void VertexDictionary::revive(const vertex_t* ids, std::uint64_t n) {
  if (n == 0) return;
  dictionary::mark_live_kernel<<<grid_for(n), kBlock, 0, ctx_.stream>>>(vertices.data(),
                                                                        live.data(), ids, n);
  WG_CUDA_CHECK_LAST();
}

}  // namespace wg::gpu::detail
