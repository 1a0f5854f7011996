#pragma once
// Definition of wg::cpu::connected_components (wcc.hpp) for any HostGraphView; instantiated for
// wg::cpu::DynamicGraph in wcc.cpp. A new host graph includes this header to instantiate it.
#include <algorithm>
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

/// The most frequent root among up to 1024 ids spread over [0, n) (labels already compressed):
/// with high probability the root of the largest component.
inline vertex_t frequent_label(const std::vector<vertex_t>& label) {
  const std::uint64_t n = label.size(), samples = std::min<std::uint64_t>(n, 1024);
  std::vector<vertex_t> seen;
  seen.reserve(samples);
  for (std::uint64_t i = 0; i < samples; ++i) seen.push_back(label[i * n / samples]);
  std::sort(seen.begin(), seen.end());
  vertex_t best = seen.empty() ? 0 : seen[0];
  std::uint64_t best_run = 0;
  for (std::uint64_t i = 0; i < seen.size();) {
    std::uint64_t k = i;
    while (k < seen.size() && seen[k] == seen[i]) ++k;
    if (k - i > best_run) {
      best_run = k - i;
      best = seen[i];
    }
    i = k;
  }
  return best;
}

/// The static computation over `threads` workers; hooked(u, v, worker) is called for each arc
/// u->v whose union joined two trees (together a spanning forest of the graph).
/// Undirected graphs take Afforest's shortcut (Sutton, Ben-Nun, Barak, IPDPS 2018): every vertex
/// first joins its first kSampled neighbours, the labels are compressed, and then only the
/// vertices outside the most frequent tree walk the rest of their lists; an edge from the giant
/// tree to another vertex is in that vertex's list too, so nothing is missed, and the giant
/// component's arcs (most of a power-law graph's) are never read twice. Directed graphs (out-arcs
/// only) walk every list.
template <HostGraphView Graph, class Hooked>
Components label_components(const Graph& graph, unsigned threads, Hooked&& hooked) {
  constexpr unsigned kSampled = 2;
  const std::uint64_t n = graph.num_vertices();
  Components r;
  r.component.resize(n);
  std::iota(r.component.begin(), r.component.end(), vertex_t{0});
  const MinUnionFind uf(r.component);
  const auto compress = [&] {
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
    return std::accumulate(roots.begin(), roots.end(), std::uint64_t{0});
  };
  const bool shortcut = !graph.directed();
  vertex_t giant = 0;
  if (shortcut) {
    parallel_for(n, threads, 4096, [&](std::size_t b, std::size_t e, unsigned t) {
      for (std::size_t i = b; i < e; ++i) {
        const vertex_t u = vertex_t(i);
        if (graph.degree(u) == 0) continue;  // (a walk of an empty list still costs a search)
        unsigned k = 0;
        graph.for_each_neighbor(u, [&](vertex_t v) {
          if (uf.unite(u, v)) hooked(u, v, t);
          return ++k < kSampled;
        });
      }
    });
    compress();
    giant = frequent_label(r.component);
  }
  parallel_for(n, threads, 4096, [&](std::size_t b, std::size_t e, unsigned t) {
    for (std::size_t i = b; i < e; ++i) {
      const vertex_t u = vertex_t(i);
      // Nothing left to read: no arcs, or every arc sampled, or u in the giant tree.
      if (graph.degree(u) <= (shortcut ? kSampled : 0) || (shortcut && uf.find(u) == giant))
        continue;
      unsigned k = 0;
      graph.for_each_neighbor(u, [&](vertex_t v) {
        if ((!shortcut || k++ >= kSampled) && uf.unite(u, v)) hooked(u, v, t);
      });
    }
  });
  r.count = compress();
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
