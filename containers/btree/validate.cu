// wg::btree::BTree: validate(), to_host() and node_count(): host walks (detail/host_walk.hpp)
// over a copy of the nodes.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <warpgraph/containers/btree/btree.cuh>
#include <warpgraph/containers/btree/detail/host_walk.hpp>
#include <warpgraph/containers/core/cuda_error.cuh>

namespace wg::btree {

template <class Key, class Value>
detail::TreeState BTree<Key, Value>::read_state(cudaStream_t stream) const {
  detail::TreeState st{};
  WG_CUDA_TRY(cudaMemcpyAsync(&st, state_.data(), sizeof(st), cudaMemcpyDeviceToHost, stream));
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
  return st;
}

template <class Key, class Value>
std::uint64_t BTree<Key, Value>::node_count(cudaStream_t stream) const {
  return std::min<std::uint64_t>(read_state(stream).next_free, options_.node_capacity);
}

template <class Key, class Value>
std::string BTree<Key, Value>::validate(cudaStream_t stream) const {
  const detail::TreeState st = read_state(stream);
  const std::uint64_t used = std::min<std::uint64_t>(st.next_free, options_.node_capacity);
  if (st.root >= used) return "root " + std::to_string(st.root) + " not an allocated node";
  return detail::check_tree<Key>(nodes_.to_host(stream, used), used, st.root, size_);
}

template <class Key, class Value>
std::vector<std::pair<Key, Value>> BTree<Key, Value>::to_host(cudaStream_t stream) const {
  const detail::TreeState st = read_state(stream);
  const std::uint64_t used = std::min<std::uint64_t>(st.next_free, options_.node_capacity);
  return detail::list_pairs<Key>(nodes_.to_host(stream, used), st.root);
}

#define WG_BTREE_INSTANTIATE(K)                                        \
  template detail::TreeState BTree<K>::read_state(cudaStream_t) const; \
  template std::uint64_t BTree<K>::node_count(cudaStream_t) const;     \
  template std::string BTree<K>::validate(cudaStream_t) const;         \
  template std::vector<std::pair<K, K>> BTree<K>::to_host(cudaStream_t) const;
WG_BTREE_INSTANTIATE(std::uint32_t)
WG_BTREE_INSTANTIATE(std::uint64_t)
#undef WG_BTREE_INSTANTIATE

}  // namespace wg::btree
