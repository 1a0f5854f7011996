#pragma once
// StoreBase's calls (store.hpp): each the same call of the store's state, S::Impl. Included by a
// store's .cu after S::Impl is defined there, which then instantiates StoreBase for S.
#include <utility>

#include <warpgraph/graph/gpu/store.hpp>

namespace wg::gpu {

template <class S, class T, class H>
StoreBase<S, T, H>::StoreBase(const typename T::options_type& options)
    : options_(options),
      impl_(held(new typename S::Impl(options)), [](H* p) { delete state(p); }) {}

template <class S, class T, class H>
std::uint64_t StoreBase<S, T, H>::erase_vertices(const vertex_t* ids, std::uint64_t k,
                                                 const std::uint32_t* marks) {
  return impl().erase_vertices(ids, k, marks);
}
template <class S, class T, class H>
BuildStep StoreBase<S, T, H>::build(DeviceEdges edges, std::uint64_t num_vertices) {
  return impl().build(edges, num_vertices);
}
template <class S, class T, class H>
std::uint64_t StoreBase<S, T, H>::insert_prepared(const PreparedBatch& batch,
                                                  std::uint8_t* is_new) {
  return impl().insert_prepared(batch, is_new);
}
template <class S, class T, class H>
std::uint64_t StoreBase<S, T, H>::erase_prepared(const PreparedBatch& batch,
                                                 std::uint8_t* was_present) {
  return impl().erase_prepared(batch, was_present);
}
template <class S, class T, class H>
void StoreBase<S, T, H>::contains_prepared(const PreparedBatch& batch, std::uint8_t* out) const {
  impl().contains_prepared(batch, out);
}
template <class S, class T, class H>
void StoreBase<S, T, H>::find(DeviceEdges q, std::uint32_t* values, std::uint8_t* found) const {
  impl().find(q, values, found);
}
template <class S, class T, class H>
Csr StoreBase<S, T, H>::export_csr() const {
  return impl().export_csr();
}
template <class S, class T, class H>
std::uint64_t StoreBase<S, T, H>::batch_chunk(std::uint64_t n) const {
  return impl().batch_chunk(n);
}
template <class S, class T, class H>
std::uint64_t StoreBase<S, T, H>::memory_bytes() const {
  return impl().memory_bytes();
}
template <class S, class T, class H>
typename T::ref_type StoreBase<S, T, H>::ref() const {
  return impl().ref();
}

}  // namespace wg::gpu
