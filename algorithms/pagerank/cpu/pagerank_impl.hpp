#pragma once
// Definition of wg::cpu::pagerank (pagerank.hpp) for any HostGraphView; instantiated for
// wg::cpu::DynamicGraph in pagerank.cpp. A new host graph includes this header to instantiate it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include <warpgraph/algorithms/pagerank/cpu/pagerank.hpp>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/graph/cpu/parallel.hpp>

namespace wg::cpu::detail {

/// The in-arcs of every vertex as a CSR (Csr::targets holds the sources) and the out-degrees.
struct PullArcs {
  Csr in;
  std::vector<std::uint32_t> out_degree;
};

/// Gathers the in-arcs of `graph` (see pagerank.hpp, "Static").
template <HostGraphView Graph>
PullArcs gather_in_arcs(const Graph& graph, unsigned threads) {
  const std::uint64_t n = graph.num_vertices();
  PullArcs p;
  p.out_degree.resize(n);
  parallel_for(n, threads, 4096, [&](std::size_t b, std::size_t e, unsigned) {
    for (std::size_t v = b; v < e; ++v) p.out_degree[v] = graph.degree(vertex_t(v));
  });
  if constexpr (requires { graph.export_csr(); }) {
    // Undirected: every vertex's in-arcs are its out-arcs.
    if (!graph.directed()) {
      p.in = graph.export_csr();
      return p;
    }
  }
  Csr& in = p.in;
  in.num_vertices = n;
  in.offsets.assign(n + 1, 0);
  if constexpr (requires { graph.for_each_in_neighbor(vertex_t{}, [](vertex_t) {}); }) {
    // Count, prefix-sum, fill: each vertex writes only its own range.
    auto each_in = [&](vertex_t v, auto&& f) {
      if (graph.directed()) {
        graph.for_each_in_neighbor(v, f);
      } else {
        graph.for_each_neighbor(v, f);
      }
    };
    parallel_for(n, threads, 4096, [&](std::size_t b, std::size_t e, unsigned) {
      for (std::size_t v = b; v < e; ++v) {
        std::uint64_t c = 0;
        each_in(vertex_t(v), [&](vertex_t) { ++c; });
        in.offsets[v + 1] = c;
      }
    });
    std::partial_sum(in.offsets.begin(), in.offsets.end(), in.offsets.begin());
    in.targets.resize(in.offsets[n]);
    parallel_for(n, threads, 4096, [&](std::size_t b, std::size_t e, unsigned) {
      for (std::size_t v = b; v < e; ++v) {
        std::uint64_t at = in.offsets[v];
        each_in(vertex_t(v), [&](vertex_t u) { in.targets[at++] = u; });
      }
    });
  } else {
    // No in-neighbour reads: transpose the out-arcs (sequential counting sort).
    for (std::uint64_t u = 0; u < n; ++u)
      graph.for_each_neighbor(vertex_t(u), [&](vertex_t v) { ++in.offsets[v + 1]; });
    std::partial_sum(in.offsets.begin(), in.offsets.end(), in.offsets.begin());
    in.targets.resize(in.offsets[n]);
    std::vector<std::uint64_t> at(in.offsets.begin(), in.offsets.end() - 1);
    for (std::uint64_t u = 0; u < n; ++u)
      graph.for_each_neighbor(vertex_t(u), [&](vertex_t v) { in.targets[at[v]++] = vertex_t(u); });
  }
  return p;
}

inline void check_pagerank_options(const PageRankOptions& o) {
  if (!(o.damping >= 0.0 && o.damping <= 1.0))
    throw InvalidArgument("cpu pagerank: damping must lie in [0, 1], got " +
                          std::to_string(o.damping));
  if (!(o.tolerance >= 0.0)) throw InvalidArgument("cpu pagerank: tolerance must be >= 0");
  if (o.max_iterations < 0) throw InvalidArgument("cpu pagerank: max_iterations must be >= 0");
}

/// Power iteration (pagerank.hpp) on `arcs` from `rank` (n entries), in place.
inline void iterate_pagerank(const PullArcs& arcs, std::vector<double>& rank,
                             const PageRankOptions& o, std::size_t grain, unsigned threads,
                             PageRankResult& out) {
  const std::uint64_t n = arcs.in.num_vertices;
  out.iterations = 0;
  out.converged = n == 0;
  if (n == 0) return;
  const double d = o.damping;
  const bool max_rule = o.stop == PageRankOptions::Stop::max_change;
  const double inv_n = 1.0 / static_cast<double>(n);
  // share[u] = rank[u] / outdeg(u) (0 when dangling): what u gives each out-neighbour. The pass
  // that computes the new ranks also computes their shares and dangling total, so an iteration is
  // one fork/join.
  std::vector<double> share(n), next(n), next_share(n);
  std::vector<double> dangling_part(threads), change_part(threads);
  auto share_of = [&](std::size_t u, double r, double& dangling) {
    const std::uint32_t deg = arcs.out_degree[u];
    if (!deg) dangling += r;
    return deg ? r / static_cast<double>(deg) : 0.0;
  };
  double dangling = 0.0;
  for (std::size_t u = 0; u < n; ++u) share[u] = share_of(u, rank[u], dangling);
  while (out.iterations < o.max_iterations) {
    // Dangling vertices' rank is spread uniformly.
    const double base = (1.0 - d) * inv_n + d * dangling * inv_n;
    std::fill(dangling_part.begin(), dangling_part.end(), 0.0);
    std::fill(change_part.begin(), change_part.end(), 0.0);
    parallel_for(n, threads, grain, [&](std::size_t b, std::size_t e, unsigned t) {
      double c = 0.0, s = 0.0;
      for (std::size_t v = b; v < e; ++v) {
        double sum = 0.0;
        for (auto i = arcs.in.offsets[v]; i < arcs.in.offsets[v + 1]; ++i)
          sum += share[arcs.in.targets[i]];
        next[v] = base + d * sum;
        const double delta = std::abs(next[v] - rank[v]);
        c = max_rule ? std::max(c, delta) : c + delta;
        next_share[v] = share_of(v, next[v], s);
      }
      change_part[t] = c;
      dangling_part[t] = s;
    });
    const double change = max_rule ? *std::max_element(change_part.begin(), change_part.end())
                                   : std::accumulate(change_part.begin(), change_part.end(), 0.0);
    dangling = std::accumulate(dangling_part.begin(), dangling_part.end(), 0.0);
    rank.swap(next);
    share.swap(next_share);
    ++out.iterations;
    if (change < o.tolerance) {
      out.converged = true;
      break;
    }
  }
}

/// The residual T(rank) - rank of one power iteration T (pagerank.hpp) on `arcs`: one parallel
/// pull pass, O(n + m).
inline std::vector<double> pagerank_residual(const PullArcs& arcs, const std::vector<double>& rank,
                                             double d, std::size_t grain, unsigned threads) {
  const std::uint64_t n = arcs.in.num_vertices;
  std::vector<double> share(n), r(n);
  double dangling = 0.0;
  for (std::size_t u = 0; u < n; ++u) {
    const std::uint32_t deg = arcs.out_degree[u];
    if (!deg) dangling += rank[u];
    share[u] = deg ? rank[u] / static_cast<double>(deg) : 0.0;
  }
  const double base = n ? ((1.0 - d) + d * dangling) / static_cast<double>(n) : 0.0;
  parallel_for(n, threads, grain, [&](std::size_t b, std::size_t e, unsigned) {
    for (std::size_t v = b; v < e; ++v) {
      double sum = 0.0;
      for (auto i = arcs.in.offsets[v]; i < arcs.in.offsets[v + 1]; ++i)
        sum += share[arcs.in.targets[i]];
      r[v] = base + d * sum - rank[v];
    }
  });
  return r;
}

/// The worker threads of an algorithm on `graph`: options' count, else the graph's, else all.
template <class Graph>
unsigned pagerank_threads(const Graph& graph, unsigned requested) {
  if constexpr (requires { graph.threads(); }) {
    if (!requested) requested = graph.threads();
  }
  return resolve_threads(requested);
}

}  // namespace wg::cpu::detail

namespace wg::cpu {

template <HostGraphView Graph>
PageRankResult pagerank(const Graph& graph, const PageRankOptions& options,
                        const PageRankTuning& tuning) {
  detail::check_pagerank_options(options);
  const unsigned threads = detail::pagerank_threads(graph, tuning.threads);
  const detail::PullArcs arcs = detail::gather_in_arcs(graph, threads);
  PageRankResult r;
  const std::uint64_t n = graph.num_vertices();
  r.rank.assign(n, n ? 1.0 / static_cast<double>(n) : 0.0);
  detail::iterate_pagerank(arcs, r.rank, options, tuning.parallel_grain, threads, r);
  return r;
}

}  // namespace wg::cpu
