#pragma once
// Definition of wg::cpu::connected_components (wcc.hpp) for any HostGraphView; instantiated for
// wg::cpu::DynamicGraph in wcc.cpp. A new host graph includes this header to instantiate it.
#include <atomic>
#include <cstdint>
#include <numeric>
#include <vector>

#include <warpgraph/algorithms/wcc/cpu/wcc.hpp>
#include <warpgraph/graph/cpu/parallel.hpp>

namespace wg::cpu {

namespace detail {

/// Lock-free union-find over `parent` (parent[v] == v at roots); a root is always the smallest
/// id of its tree, since a union hooks the larger root under the smaller.
class MinUnionFind {
 public:
  explicit MinUnionFind(std::vector<vertex_t>& parent) : parent_(parent) {}

  vertex_t find(vertex_t v) const {
    for (;;) {
      const vertex_t p = at(v).load(std::memory_order_relaxed);
      if (p == v) return v;
      const vertex_t g = at(p).load(std::memory_order_relaxed);
      if (g == p) return p;
      // Path halving: g is an ancestor of v whatever other threads do, so the store is safe.
      at(v).store(g, std::memory_order_relaxed);
      v = g;
    }
  }
  /// Unites the trees of a and b; true when this call joined two trees (a successful hook is one
  /// union, so the edges whose unite returned true form a spanning forest).
  bool unite(vertex_t a, vertex_t b) const {
    for (;;) {
      a = find(a);
      b = find(b);
      if (a == b) return false;
      if (a < b) std::swap(a, b);  // hook the larger root a under b
      vertex_t expected = a;
      if (at(a).compare_exchange_strong(expected, b, std::memory_order_relaxed)) return true;
    }
  }

 private:
  std::atomic_ref<vertex_t> at(vertex_t v) const { return std::atomic_ref<vertex_t>(parent_[v]); }
  std::vector<vertex_t>& parent_;
};

/// The static computation over `threads` workers; hooked(u, v, worker) is called for each arc
/// u->v whose union joined two trees (together a spanning forest of the graph).
template <HostGraphView Graph, class Hooked>
Components label_components(const Graph& graph, unsigned threads, Hooked&& hooked) {
  const std::uint64_t n = graph.num_vertices();
  Components r;
  r.component.resize(n);
  std::iota(r.component.begin(), r.component.end(), vertex_t{0});
  const MinUnionFind uf(r.component);
  parallel_for(n, threads, 4096, [&](std::size_t b, std::size_t e, unsigned t) {
    for (std::size_t i = b; i < e; ++i) {
      const vertex_t u = vertex_t(i);
      graph.for_each_neighbor(u, [&](vertex_t v) {
        // An undirected edge is seen from both ends: one union is enough.
        if ((graph.directed() || v < u) && uf.unite(u, v)) hooked(u, v, t);
      });
    }
  });
  std::vector<std::uint64_t> roots(threads, 0);
  parallel_for(n, threads, 4096, [&](std::size_t b, std::size_t e, unsigned t) {
    std::uint64_t c = 0;
    for (std::size_t i = b; i < e; ++i) {
      const vertex_t root = uf.find(vertex_t(i));
      // Only ever moves a vertex closer to its root: the other threads' finds stay valid.
      std::atomic_ref<vertex_t>(r.component[i]).store(root, std::memory_order_relaxed);
      c += root == i;
    }
    roots[t] += c;
  });
  r.count = std::accumulate(roots.begin(), roots.end(), std::uint64_t{0});
  return r;
}

}  // namespace detail

template <HostGraphView Graph>
Components connected_components(const Graph& graph, const ComponentsOptions&,
                                const ComponentsTuning& tuning) {
  unsigned threads = tuning.threads;
  if constexpr (requires { graph.threads(); }) {
    if (!threads) threads = graph.threads();
  }
  return detail::label_components(graph, resolve_threads(threads),
                                  [](vertex_t, vertex_t, unsigned) {});
}

}  // namespace wg::cpu
