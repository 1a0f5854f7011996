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

detail::TreeState BTree::read_state(cudaStream_t stream) const {
  detail::TreeState st{};
  WG_CUDA_TRY(cudaMemcpyAsync(&st, state_.data(), sizeof(st), cudaMemcpyDeviceToHost, stream));
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
  return st;
}

std::uint64_t BTree::node_count(cudaStream_t stream) const {
  return std::min<std::uint64_t>(read_state(stream).next_free, options_.node_capacity);
}

std::string BTree::validate(cudaStream_t stream) const {
  const detail::TreeState st = read_state(stream);
  const std::uint64_t used = std::min<std::uint64_t>(st.next_free, options_.node_capacity);
  if (st.root >= used) return "root " + std::to_string(st.root) + " not an allocated node";
  return detail::check_tree(nodes_.to_host(stream, used), used, st.root, size_);
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> BTree::to_host(cudaStream_t stream) const {
  const detail::TreeState st = read_state(stream);
  const std::uint64_t used = std::min<std::uint64_t>(st.next_free, options_.node_capacity);
  return detail::list_pairs(nodes_.to_host(stream, used), st.root);
}

}  // namespace wg::btree
