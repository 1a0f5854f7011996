// wg::btree::BTree: validate(), to_host() and node_count(): host walks over a copy of the nodes.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <warpgraph/containers/btree/btree.cuh>
#include <warpgraph/containers/core/cuda_error.cuh>

namespace wg::btree {
namespace {

using detail::kEmptyKey;
using detail::kLatch;
using detail::kLeafFlag;
using detail::kLinkMask;
using detail::kNoLink;
using detail::Node;

struct HostNode {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> entries;  // sorted by key
  std::uint32_t high, link;
  bool leaf, latched;
};

HostNode decode(const Node& n) {
  HostNode h;
  for (unsigned i = 0; i < detail::kSlots; ++i) {
    const auto k = static_cast<std::uint32_t>(n.cell[i]);
    if (k != kEmptyKey) h.entries.emplace_back(k, static_cast<std::uint32_t>(n.cell[i] >> 32));
  }
  std::sort(h.entries.begin(), h.entries.end());
  h.high = static_cast<std::uint32_t>(n.cell[15]);
  const auto w = static_cast<std::uint32_t>(n.cell[15] >> 32);
  h.link = w & kLinkMask;
  h.leaf = (w & kLeafFlag) != 0;
  h.latched = (w & kLatch) != 0;
  return h;
}

std::string at(std::uint32_t idx, const char* what) {
  return "node " + std::to_string(idx) + ": " + what;
}

}  // namespace

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
  const std::vector<Node> nodes = nodes_.to_host(stream, used);
  std::vector<char> seen(used, 0);
  std::uint32_t first = st.root;
  std::uint64_t keys = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> children;  // of the level above
  bool have_parent_level = false;
  for (int level = 0;; ++level) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> next_children;
    std::size_t pos = 0;
    std::uint32_t cur = first, low = 0;
    const bool leaf_level = decode(nodes[first]).leaf;
    std::uint32_t next_first = kNoLink;
    for (;;) {
      if (cur >= used) return at(cur, "link or child past the allocated nodes");
      if (seen[cur]) return at(cur, "reached twice (cycle or shared node)");
      seen[cur] = 1;
      const HostNode h = decode(nodes[cur]);
      if (h.latched) return at(cur, "latch held after the batch");
      if (h.leaf != leaf_level) return at(cur, "leaf and inner nodes on one level");
      if (h.high <= low) return at(cur, "high key not above the low key");
      if (have_parent_level) {
        if (pos >= children.size() || children[pos].second != cur)
          return at(cur, "level chain differs from the parents' children in pivot order");
        if (children[pos].first != low) return at(cur, "pivot in the parent != low key");
        ++pos;
      }
      for (std::size_t i = 0; i < h.entries.size(); ++i) {
        const auto k = h.entries[i].first;
        if (k < low || k >= h.high) return at(cur, "key outside [low, high)");
        if (i && h.entries[i - 1].first == k) return at(cur, "duplicate key");
      }
      if (h.leaf) {
        keys += h.entries.size();
      } else {
        if (h.entries.empty()) return at(cur, "inner node without children");
        if (h.entries.front().first != low) return at(cur, "least pivot != low key");
        if (next_first == kNoLink) next_first = h.entries.front().second;
        next_children.insert(next_children.end(), h.entries.begin(), h.entries.end());
      }
      if (h.high == kEmptyKey) {
        if (h.link != kNoLink) return at(cur, "last node of a level has a side link");
        break;
      }
      if (h.link == kNoLink) return at(cur, "finite high key without a side link");
      low = h.high;
      cur = h.link;
    }
    if (have_parent_level && pos != children.size())
      return "level " + std::to_string(level) + ": fewer nodes than the parents' children";
    if (leaf_level) break;
    children = std::move(next_children);
    have_parent_level = true;
    first = next_first;
  }
  if (keys != size_)
    return "leaves hold " + std::to_string(keys) + " keys, size() is " + std::to_string(size_);
  return {};
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> BTree::to_host(cudaStream_t stream) const {
  const detail::TreeState st = read_state(stream);
  const std::uint64_t used = std::min<std::uint64_t>(st.next_free, options_.node_capacity);
  const std::vector<Node> nodes = nodes_.to_host(stream, used);
  std::uint32_t cur = st.root;
  for (HostNode h = decode(nodes[cur]); !h.leaf; h = decode(nodes[cur]))
    cur = h.entries.front().second;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  out.reserve(size_);
  for (;;) {
    const HostNode h = decode(nodes[cur]);
    out.insert(out.end(), h.entries.begin(), h.entries.end());
    if (h.link == kNoLink) break;
    cur = h.link;
  }
  return out;
}

}  // namespace wg::btree
