#pragma once
// Definition of wg::cpu::bfs (bfs.hpp) for any HostGraphView; instantiated for
// wg::cpu::DynamicGraph in bfs.cpp. A new host graph includes this header to instantiate it.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include <warpgraph/algorithms/bfs/cpu/bfs.hpp>
#include <warpgraph/algorithms/single_source.hpp>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/graph/cpu/csr_view.hpp>
#include <warpgraph/graph/cpu/parallel.hpp>

namespace wg::cpu {

template <HostGraphView Graph>
BfsResult bfs(const Graph& graph, vertex_t source, const BfsOptions& options,
              const BfsTuning& tuning) {
  const std::uint64_t n = graph.num_vertices();
  require_source("wg::cpu::bfs", source, n);
  unsigned threads = tuning.threads;
  if constexpr (requires { graph.threads(); }) {
    if (!threads) threads = graph.threads();
  }
  threads = resolve_threads(threads);
  if constexpr (requires { graph.export_csr(); }) {
    // Undirected graphs with a CSR export run on a snapshot (directed ones keep the graph's
    // in-arcs for bottom-up steps).
    if (tuning.snapshot && !graph.directed() && graph.is_live(source)) {
      const Csr csr = graph.export_csr();
      BfsTuning t = tuning;
      t.threads = threads;
      return bfs(CsrView(csr, false), source, options, t);
    }
  }

  BfsResult r;
  if (!start_from_source(r.level, r.parent, n, source, graph.is_live(source), kBfsUnreached,
                         kNoParent))
    return r;
  r.reached = 1;

  auto level_ref = [&](vertex_t v) { return std::atomic_ref<std::int64_t>(r.level[v]); };
  // Bottom-up steps walk in-neighbours: the out-neighbours of an undirected graph, the
  // in-arcs of a directed one where the graph offers them.
  constexpr bool kHasIn = requires {
    graph.for_each_in_neighbor(source, [](vertex_t) {});
  };
  const bool can_bottom_up = options.top_down_alpha && (!graph.directed() || kHasIn);
  auto for_each_in = [&](vertex_t v, auto&& f) {
    if constexpr (kHasIn) {
      if (graph.directed()) {
        graph.for_each_in_neighbor(v, f);
        return;
      }
    }
    graph.for_each_neighbor(v, f);
  };

  std::uint64_t unvisited_arcs = 0;
  if (can_bottom_up) {
    for (std::uint64_t v = 0; v < n; ++v) unvisited_arcs += graph.degree(vertex_t(v));
    unvisited_arcs -= graph.degree(source);
  }
  std::vector<vertex_t> frontier{source}, next;
  std::vector<std::vector<vertex_t>> local(threads);
  bool bottom_up = false;
  std::size_t previous_size = 0;
  for (std::int64_t depth = 0; !frontier.empty(); ++depth) {
    std::uint64_t frontier_arcs = 0;
    if (can_bottom_up) {
      for (vertex_t v : frontier) frontier_arcs += graph.degree(v);
      if (!bottom_up) {
        // Only while the frontier grows (Beamer): a shrinking tail stays top-down.
        bottom_up = frontier.size() > previous_size &&
                    frontier_arcs * options.top_down_alpha > unvisited_arcs;
      } else {
        bottom_up = frontier.size() * options.bottom_up_beta >= n;
      }
    }
    for (auto& l : local) l.clear();
    if (bottom_up) {
      // Every unvisited vertex adopts its first in-neighbour found on the frontier's level.
      parallel_for(n, threads, 4096, [&](std::size_t b, std::size_t e, unsigned t) {
        for (std::size_t i = b; i < e; ++i) {
          const vertex_t v = vertex_t(i);
          if (level_ref(v).load(std::memory_order_relaxed) != kBfsUnreached || !graph.is_live(v))
            continue;
          for_each_in(v, [&](vertex_t u) {
            if (level_ref(u).load(std::memory_order_relaxed) != depth) return true;
            level_ref(v).store(depth + 1, std::memory_order_relaxed);
            r.parent[v] = u;
            local[t].push_back(v);
            return false;
          });
        }
      });
    } else {
      parallel_for(frontier.size(), threads, tuning.parallel_grain,
                   [&](std::size_t b, std::size_t e, unsigned t) {
                     for (std::size_t i = b; i < e; ++i) {
                       const vertex_t u = frontier[i];
                       graph.for_each_neighbor(u, [&](vertex_t v) {
                         std::int64_t expected = kBfsUnreached;
                         if (level_ref(v).load(std::memory_order_relaxed) != kBfsUnreached) return;
                         if (level_ref(v).compare_exchange_strong(expected, depth + 1,
                                                                  std::memory_order_relaxed)) {
                           r.parent[v] = u;
                           local[t].push_back(v);
                         }
                       });
                     }
                   });
    }
    next.clear();
    for (auto& l : local) next.insert(next.end(), l.begin(), l.end());
    if (can_bottom_up) {
      for (vertex_t v : next) unvisited_arcs -= graph.degree(v);
    }
    r.reached += next.size();
    previous_size = frontier.size();
    frontier.swap(next);
  }
  return r;
}

}  // namespace wg::cpu
