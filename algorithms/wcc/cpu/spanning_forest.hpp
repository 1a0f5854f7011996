#pragma once
// A rooted spanning forest by parent pointers, as the CPU dynamic components keep it (wcc.hpp):
// parent(v) == v at a root. Edges are undirected; {a, b} is a forest edge when one end is the
// other's parent, an O(1) test. root(v) follows parents, O(depth); reroot(a) reverses the path
// from a to its root, O(depth of a); cut and link are O(1) beyond that. Every call that walks
// parents adds the pointers it followed to the caller's work counter, so that a search bounded by
// a budget pays for deep trees. Not thread safe.
#include <cstdint>
#include <span>
#include <vector>

#include <warpgraph/containers/core/types.hpp>

namespace wg::cpu::detail {

class SpanningForest {
 public:
  /// Adds ids up to n as roots.
  void grow(std::uint64_t n) {
    for (std::uint64_t v = parent_.size(); v < n; ++v) parent_.push_back(vertex_t(v));
  }
  /// The forest of `edges` (a forest on ids below n, each edge given once as (u << 32) | v in
  /// any of `parts`) whose trees are the classes of `label` (label[v]: the smallest id of v's
  /// tree), each rooted at the vertex that better(a, b) prefers over the others of its tree
  /// (better(a, b): a is preferred to b). O(n + edges); its scratch is kept for the next build.
  template <class Better>
  void build(std::span<const vertex_t> label, std::span<const std::vector<std::uint64_t>> parts,
             Better&& better);

  vertex_t parent(vertex_t v) const noexcept { return parent_[v]; }
  /// The end of the forest edge {a, b} below the other (the root of the subtree that cutting it
  /// detaches), or kNoChild when {a, b} is not a forest edge.
  vertex_t child_of(vertex_t a, vertex_t b) const noexcept {
    return parent_[a] == b && a != b ? a : parent_[b] == a && a != b ? b : kNoChild;
  }
  static constexpr vertex_t kNoChild = ~vertex_t{0};

  vertex_t root(vertex_t v, std::uint64_t& work) const noexcept {
    while (parent_[v] != v) {
      v = parent_[v];
      ++work;
    }
    return v;
  }
  /// Detaches the subtree of `child` (a non-root): child becomes a root.
  void cut(vertex_t child) noexcept { parent_[child] = child; }
  /// Joins the tree of `a` to the different tree of `b` by the edge {a, b}: a's tree is rerooted
  /// at a, which then hangs under b.
  void link(vertex_t a, vertex_t b, std::uint64_t& work) noexcept {
    reroot(a, work);
    parent_[a] = b;
  }

 private:
  /// Makes a the root of its tree: the parents on the path from a to the root are reversed.
  void reroot(vertex_t a, std::uint64_t& work) noexcept {
    vertex_t below = a, x = parent_[a];
    parent_[a] = a;
    while (x != below) {
      const vertex_t up = parent_[x];
      parent_[x] = below;
      ++work;
      if (up == x) break;  // x was the root
      below = x;
      x = up;
    }
  }

  std::vector<vertex_t> parent_;
  // build()'s scratch: the forest's adjacency and the walks' queue.
  std::vector<std::uint64_t> offset_;
  std::vector<vertex_t> adjacent_, queue_;
};

template <class Better>
void SpanningForest::build(std::span<const vertex_t> label,
                           std::span<const std::vector<std::uint64_t>> parts, Better&& better) {
  const std::uint64_t n = label.size();
  // The edges as adjacency lists (counting sort).
  offset_.assign(n + 1, 0);
  for (const auto& part : parts) {
    for (std::uint64_t e : part) {
      ++offset_[e >> 32];
      ++offset_[vertex_t(e)];
    }
  }
  for (std::uint64_t v = 0; v < n; ++v) offset_[v + 1] += offset_[v];
  adjacent_.resize(offset_[n]);
  for (const auto& part : parts) {
    for (std::uint64_t e : part) {
      const auto a = vertex_t(e >> 32), b = vertex_t(e);
      adjacent_[--offset_[a]] = b;
      adjacent_[--offset_[b]] = a;
    }
  }
  // Each tree's preferred vertex, kept at its label's slot (a label is a member of its tree).
  queue_.resize(n);
  for (std::uint64_t v = 0; v < n; ++v) {
    const vertex_t l = label[v];
    if (l == v || better(vertex_t(v), queue_[l])) queue_[l] = vertex_t(v);
  }
  parent_.resize(n);
  for (std::uint64_t v = 0; v < n; ++v)
    if (label[v] == v) parent_[v] = queue_[v];  // the tree of v starts at its preferred vertex
  // One breadth-first walk from each preferred vertex orients its tree; the walks fill queue_
  // from its front, behind the slots of the labels already read.
  std::size_t tail = 0;
  for (std::uint64_t v = 0; v < n; ++v) {
    if (label[v] != v) continue;
    const vertex_t start = parent_[v];
    std::size_t head = tail;
    queue_[tail++] = start;
    parent_[start] = start;
    while (head < tail) {
      const vertex_t x = queue_[head++];
      for (std::uint64_t j = offset_[x]; j < offset_[x + 1]; ++j) {
        const vertex_t y = adjacent_[j];
        if (y == parent_[x]) continue;  // a forest: the only visited neighbour is the parent
        parent_[y] = x;
        queue_[tail++] = y;
      }
    }
  }
}

}  // namespace wg::cpu::detail
