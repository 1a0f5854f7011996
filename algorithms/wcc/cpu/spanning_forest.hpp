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
  /// n roots (no edge).
  void reset(std::uint64_t n) {
    parent_.clear();
    grow(n);
  }
  /// Adds ids up to n as roots.
  void grow(std::uint64_t n) {
    for (std::uint64_t v = parent_.size(); v < n; ++v) parent_.push_back(vertex_t(v));
  }
  /// The forest of `edges` (a forest on ids below n, each edge given once as (u << 32) | v in
  /// any of `parts`), each tree rooted at the vertex that best(a, b) prefers over the others of
  /// its tree (best(a, b): a is preferred to b). O(n + edges).
  template <class Better>
  void build(std::uint64_t n, std::span<const std::vector<std::uint64_t>> parts, Better&& better);

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
};

template <class Better>
void SpanningForest::build(std::uint64_t n, std::span<const std::vector<std::uint64_t>> parts,
                           Better&& better) {
  // The edges as adjacency lists (counting sort), then a breadth-first walk from each tree's
  // preferred vertex orients them.
  std::vector<std::uint64_t> offset(n + 1, 0);
  for (const auto& part : parts) {
    for (std::uint64_t e : part) {
      ++offset[e >> 32];
      ++offset[vertex_t(e)];
    }
  }
  for (std::uint64_t v = 0; v < n; ++v) offset[v + 1] += offset[v];
  std::vector<vertex_t> adjacent(offset[n]);
  for (const auto& part : parts) {
    for (std::uint64_t e : part) {
      const auto a = vertex_t(e >> 32), b = vertex_t(e);
      adjacent[--offset[a]] = b;
      adjacent[--offset[b]] = a;
    }
  }
  // The preferred vertex of each tree: a first walk from every unvisited vertex finds it.
  reset(n);
  std::vector<std::uint8_t> seen(n, 0);
  std::vector<vertex_t> queue;
  queue.reserve(n);
  auto walk = [&](vertex_t start, std::uint8_t pass, bool orient) {
    const std::size_t first = queue.size();
    queue.push_back(start);
    seen[start] = pass;
    vertex_t best = start;
    for (std::size_t i = first; i < queue.size(); ++i) {
      const vertex_t x = queue[i];
      if (better(x, best)) best = x;
      for (std::uint64_t j = offset[x]; j < offset[x + 1]; ++j) {
        const vertex_t y = adjacent[j];
        if (seen[y] == pass) continue;
        seen[y] = pass;
        if (orient) parent_[y] = x;
        queue.push_back(y);
      }
    }
    return best;
  };
  for (std::uint64_t v = 0; v < n; ++v) {
    if (seen[v] || offset[v] == offset[v + 1]) continue;
    queue.clear();
    walk(walk(vertex_t(v), 1, false), 2, true);
  }
}

}  // namespace wg::cpu::detail
