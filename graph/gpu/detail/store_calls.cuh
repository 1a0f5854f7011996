#pragma once
// StoreBase's calls (store.hpp): each the same call of the store's state, S::Impl. Included by a
// store's .cu after S::Impl is defined there, which then instantiates StoreBase for S.
#include <utility>

#include <warpgraph/graph/gpu/store.hpp>

namespace wg::gpu {

template <class S, class O, class R, bool W, bool SR, class H>
StoreBase<S, O, R, W, SR, H>::StoreBase(const O& options)
    : options_(options),
      impl_(held(new typename S::Impl(options)), [](H* p) { delete state(p); }) {}

template <class S, class O, class R, bool W, bool SR, class H>
std::uint64_t StoreBase<S, O, R, W, SR, H>::erase_vertices(const vertex_t* ids, std::uint64_t k,
                                                           const std::uint32_t* marks) {
  return impl().erase_vertices(ids, k, marks);
}
template <class S, class O, class R, bool W, bool SR, class H>
BuildStep StoreBase<S, O, R, W, SR, H>::build(DeviceEdges edges, std::uint64_t num_vertices) {
  return impl().build(edges, num_vertices);
}
template <class S, class O, class R, bool W, bool SR, class H>
std::uint64_t StoreBase<S, O, R, W, SR, H>::insert_prepared(const PreparedBatch& batch,
                                                            std::uint8_t* is_new) {
  return impl().insert_prepared(batch, is_new);
}
template <class S, class O, class R, bool W, bool SR, class H>
std::uint64_t StoreBase<S, O, R, W, SR, H>::erase_prepared(const PreparedBatch& batch,
                                                           std::uint8_t* was_present) {
  return impl().erase_prepared(batch, was_present);
}
template <class S, class O, class R, bool W, bool SR, class H>
void StoreBase<S, O, R, W, SR, H>::contains_prepared(const PreparedBatch& batch,
                                                     std::uint8_t* out) const {
  impl().contains_prepared(batch, out);
}
template <class S, class O, class R, bool W, bool SR, class H>
void StoreBase<S, O, R, W, SR, H>::find(DeviceEdges q, std::uint32_t* values,
                                        std::uint8_t* found) const {
  impl().find(q, values, found);
}
template <class S, class O, class R, bool W, bool SR, class H>
Csr StoreBase<S, O, R, W, SR, H>::export_csr() const {
  return impl().export_csr();
}
template <class S, class O, class R, bool W, bool SR, class H>
std::uint64_t StoreBase<S, O, R, W, SR, H>::batch_chunk(std::uint64_t n) const {
  return impl().batch_chunk(n);
}
template <class S, class O, class R, bool W, bool SR, class H>
std::uint64_t StoreBase<S, O, R, W, SR, H>::memory_bytes() const {
  return impl().memory_bytes();
}
template <class S, class O, class R, bool W, bool SR, class H>
R StoreBase<S, O, R, W, SR, H>::ref() const {
  return impl().ref();
}

}  // namespace wg::gpu
