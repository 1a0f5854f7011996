#pragma once
// Host walks over a copy of a BTree's nodes: the invariant check behind BTree::validate() and
// the in-order listing behind BTree::to_host(). Plain C++ (no kernel), so the CPU emulation
// test of the tile operations uses them too.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <warpgraph/containers/btree/detail/node.cuh>

namespace wg::btree::detail {

template <class Key>
struct HostNode {
  std::vector<std::pair<Key, Key>> entries;  // sorted by key
  Key high;
  std::uint32_t link;
  bool leaf, latched;
};

/// The node's slots, high key and link word as the layout of Key stores them.
template <class Key>
HostNode<Key> decode(const Node& n) {
  using L = Layout<Key>;
  HostNode<Key> h;
  std::uint32_t w = 0;
  if constexpr (sizeof(Key) == 4) {
    for (unsigned i = 0; i < L::kSlots; ++i) {
      const auto k = static_cast<Key>(n.cell[i]);
      if (k != L::kEmpty) h.entries.emplace_back(k, static_cast<Key>(n.cell[i] >> 32));
    }
    h.high = static_cast<Key>(n.cell[15]);
    w = static_cast<std::uint32_t>(n.cell[15] >> 32);
  } else {
    for (unsigned i = 0; i < L::kSlots; ++i)
      if (n.cell[2 * i] != L::kEmpty) h.entries.emplace_back(n.cell[2 * i], n.cell[2 * i + 1]);
    h.high = n.cell[14];
    w = static_cast<std::uint32_t>(n.cell[15]);
  }
  std::sort(h.entries.begin(), h.entries.end());
  h.link = w & kLinkMask;
  h.leaf = (w & kLeafFlag) != 0;
  h.latched = (w & kLatch) != 0;
  return h;
}

inline std::string node_error(std::uint32_t idx, const char* what) {
  return "node " + std::to_string(idx) + ": " + what;
}

/// validate(): "" or the first violation, for nodes [0, used) with the given root and the
/// expected number of keys.
template <class Key>
std::string check_tree(const std::vector<Node>& nodes, std::uint64_t used, std::uint32_t root,
                       std::uint64_t expected_keys) {
  if (root >= used) return "root " + std::to_string(root) + " not an allocated node";
  std::vector<char> seen(used, 0);
  std::uint32_t first = root;
  std::uint64_t keys = 0;
  std::vector<std::pair<Key, Key>> children;  // of the level above
  bool have_parent_level = false;
  for (int level = 0;; ++level) {
    std::vector<std::pair<Key, Key>> next_children;
    std::size_t pos = 0;
    if (first >= used) return node_error(first, "leftmost child past the allocated nodes");
    std::uint32_t cur = first;
    Key low = 0;
    const bool leaf_level = decode<Key>(nodes[first]).leaf;
    std::uint32_t next_first = kNoLink;
    for (;;) {
      if (cur >= used) return node_error(cur, "link or child past the allocated nodes");
      if (seen[cur]) return node_error(cur, "reached twice (cycle or shared node)");
      seen[cur] = 1;
      const HostNode<Key> h = decode<Key>(nodes[cur]);
      if (h.latched) return node_error(cur, "latch held after the batch");
      if (h.leaf != leaf_level) return node_error(cur, "leaf and inner nodes on one level");
      if (h.high <= low) return node_error(cur, "high key not above the low key");
      if (have_parent_level) {
        if (pos >= children.size() || children[pos].second != cur)
          return node_error(cur, "level chain differs from the parents' children in pivot order");
        if (children[pos].first != low) return node_error(cur, "pivot in the parent != low key");
        ++pos;
      }
      for (std::size_t i = 0; i < h.entries.size(); ++i) {
        const auto k = h.entries[i].first;
        if (k < low || k >= h.high) return node_error(cur, "key outside [low, high)");
        if (i && h.entries[i - 1].first == k) return node_error(cur, "duplicate key");
      }
      if (h.leaf) {
        keys += h.entries.size();
      } else {
        if (h.entries.empty()) return node_error(cur, "inner node without children");
        if (h.entries.front().first != low) return node_error(cur, "least pivot != low key");
        if (next_first == kNoLink)
          next_first = static_cast<std::uint32_t>(h.entries.front().second);
        next_children.insert(next_children.end(), h.entries.begin(), h.entries.end());
      }
      if (h.high == Layout<Key>::kEmpty) {
        if (h.link != kNoLink) return node_error(cur, "last node of a level has a side link");
        break;
      }
      if (h.link == kNoLink) return node_error(cur, "finite high key without a side link");
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
  if (keys != expected_keys)
    return "leaves hold " + std::to_string(keys) + " keys, size() is " +
           std::to_string(expected_keys);
  return {};
}

/// All pairs in key order (the leaf level from its leftmost node).
template <class Key>
std::vector<std::pair<Key, Key>> list_pairs(const std::vector<Node>& nodes, std::uint32_t root) {
  std::uint32_t cur = root;
  for (HostNode<Key> h = decode<Key>(nodes[cur]); !h.leaf; h = decode<Key>(nodes[cur]))
    cur = static_cast<std::uint32_t>(h.entries.front().second);
  std::vector<std::pair<Key, Key>> out;
  for (;;) {
    const HostNode<Key> h = decode<Key>(nodes[cur]);
    out.insert(out.end(), h.entries.begin(), h.entries.end());
    if (h.link == kNoLink) break;
    cur = h.link;
  }
  return out;
}

}  // namespace wg::btree::detail
