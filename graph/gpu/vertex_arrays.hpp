#pragma once
// VertexArrays: the per-vertex state of a store that keeps plain arrays (the B-tree and sorted
// stores; the slab store keeps its own dictionary of table handles): a degree and a live byte per
// id on the device, the id range and the edge count. VertexArrayStore gives such a store the
// Store concept's vertex calls (store.hpp), written once.
// Every call is stream-ordered; grow() is O(n - nv) (amortised: capacity doubles), revive() and
// retire() O(k), reset() O(n).
#include <cuda_runtime_api.h>

#include <cstdint>

#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/graph/gpu/store.hpp>

namespace wg::gpu {

struct VertexArrays {
  explicit VertexArrays(cudaStream_t s) : array_stream(s) {}

  /// New ids nv .. n-1, live with degree 0 (InvalidArgument past 2^31 ids).
  void grow(std::uint64_t n);
  /// ids[0..k) live again, degree 0 (ids taken from the free-id queue).
  void revive(const vertex_t* ids, std::uint64_t k);
  /// ids[0..k) not live, degree 0 (erased vertices).
  void retire(const vertex_t* ids, std::uint64_t k);
  /// Starts over with ids 0 .. n-1 live, no edges.
  void reset(std::uint64_t n);

  cudaStream_t array_stream = 0;
  std::uint64_t nv = 0, edges = 0;
  DeviceBuffer<std::uint32_t> degrees;
  DeviceBuffer<std::uint8_t> live;
};

/// The Store's vertex calls, read from the VertexArrays that S::Impl derives from: the base of a
/// store that keeps plain arrays (CRTP, over StoreBase).
template <class S, class Traits>
class VertexArrayStore : public StoreBase<S, Traits, VertexArrays> {
 public:
  std::uint64_t num_vertices() const noexcept { return arrays().nv; }
  std::uint64_t num_edges() const noexcept { return arrays().edges; }
  const std::uint8_t* live() const noexcept { return arrays().live.data(); }
  const std::uint32_t* degrees() const noexcept { return arrays().degrees.data(); }
  void grow(std::uint64_t n) { arrays().grow(n); }
  void revive(const vertex_t* ids, std::uint64_t k) { arrays().revive(ids, k); }

 protected:
  using StoreBase<S, Traits, VertexArrays>::StoreBase;
  VertexArrays& arrays() const noexcept { return this->shared(); }
};

}  // namespace wg::gpu
