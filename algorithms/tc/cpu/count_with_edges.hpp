#pragma once
// Definition of wg::cpu::count_triangles_with_edges (triangle_count.hpp) for any graph with the
// host reads of graph/graph_concepts.hpp (HostGraphView) plus directed(), num_vertices() and
// optionally threads(); instantiated for wg::cpu::DynamicGraph in triangle_count.cpp. A new host
// graph includes this header to instantiate it. count_triangles_with_edges_per_vertex (defined
// here only) also adds each counted triangle to its three vertices' counters.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include <warpgraph/algorithms/tc/cpu/triangle_count.hpp>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/graph/cpu/parallel.hpp>
#include <warpgraph/graph/cpu/radix_sort.hpp>

namespace wg::cpu {

namespace detail {
/// Canonical key of the undirected edge {a, b}: (min << 32) | max.
constexpr std::uint64_t canonical_edge(vertex_t a, vertex_t b) noexcept {
  return a < b ? arc_key(a, b) : arc_key(b, a);
}

/// count_triangles_with_edges, also adding 1 to per_vertex[x] for each vertex x of each triangle
/// counted (when per_vertex is not null).
template <HostGraphView Graph>
std::uint64_t count_with_edges(const Graph& graph, std::span<const std::uint64_t> keys,
                               unsigned threads, std::uint64_t* per_vertex) {
  if (graph.directed()) {
    throw InvalidArgument(
        "wg::cpu::count_triangles_with_edges: triangle counting needs an undirected graph");
  }
  if (keys.empty()) return 0;
  if constexpr (requires { graph.threads(); }) {
    if (!threads) threads = graph.threads();
  }
  threads = resolve_threads(threads);

  // The batch's endpoints and their full sorted neighbour lists, read once from the tree.
  std::vector<vertex_t> ends;
  ends.reserve(2 * keys.size());
  for (std::uint64_t k : keys) {
    ends.push_back(arc_source(k));
    ends.push_back(arc_target(k));
  }
  const unsigned bits = id_bits(graph.num_vertices());
  radix_sort(ends, bits, [](vertex_t v) { return std::uint64_t{v}; });
  ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
  std::vector<std::uint64_t> offsets(ends.size() + 1, 0);
  for (std::size_t i = 0; i < ends.size(); ++i) offsets[i + 1] = offsets[i] + graph.degree(ends[i]);
  std::vector<vertex_t> adj(offsets.back());
  parallel_for(ends.size(), threads, 256, [&](std::size_t b, std::size_t e, unsigned) {
    for (std::size_t i = b; i < e; ++i) {
      std::uint64_t pos = offsets[i];
      const std::uint64_t end = offsets[i + 1];
      graph.for_each_neighbor(ends[i], [&](vertex_t w) {
        if (pos == end) return false;  // the degree array and the tree disagree: see below
        adj[pos++] = w;
        return true;
      });
      if (pos != end) {
        throw Error("wg::cpu::count_triangles_with_edges: degree of vertex " +
                    std::to_string(ends[i]) + " does not match its adjacency");
      }
    }
  });
  auto list = [&](vertex_t v) {
    const std::size_t i =
        static_cast<std::size_t>(std::lower_bound(ends.begin(), ends.end(), v) - ends.begin());
    return std::span<const vertex_t>(adj.data() + offsets[i], offsets[i + 1] - offsets[i]);
  };
  auto index_of = [&](vertex_t v) {
    return static_cast<std::size_t>(std::lower_bound(ends.begin(), ends.end(), v) - ends.begin());
  };
  // The batch itself as adjacency lists (sorted): "is {x, w} a batch edge" is a bit test for
  // the hub (marked below) and a search of the probe's (usually very short) batch list.
  std::vector<std::uint64_t> batch_offsets(ends.size() + 1, 0);
  std::vector<std::size_t> end_index(2 * keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    end_index[2 * i] = index_of(arc_source(keys[i]));
    end_index[2 * i + 1] = index_of(arc_target(keys[i]));
    ++batch_offsets[end_index[2 * i] + 1];
    ++batch_offsets[end_index[2 * i + 1] + 1];
  }
  for (std::size_t i = 0; i < ends.size(); ++i) batch_offsets[i + 1] += batch_offsets[i];
  std::vector<vertex_t> batch_adj(batch_offsets.back());
  {
    std::vector<std::uint64_t> fill(batch_offsets.begin(), batch_offsets.end() - 1);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      batch_adj[fill[end_index[2 * i]]++] = arc_target(keys[i]);
      batch_adj[fill[end_index[2 * i + 1]]++] = arc_source(keys[i]);
    }
  }
  parallel_for(ends.size(), threads, 4096, [&](std::size_t b, std::size_t e, unsigned) {
    for (std::size_t i = b; i < e; ++i) {
      std::sort(batch_adj.begin() + batch_offsets[i], batch_adj.begin() + batch_offsets[i + 1]);
    }
  });
  auto batch_list = [&](vertex_t v) {
    const std::size_t i = index_of(v);
    return std::span<const vertex_t>(batch_adj.data() + batch_offsets[i],
                                     batch_offsets[i + 1] - batch_offsets[i]);
  };

  // Each batch edge {u, v} is examined from its endpoint of lower degree (the "probe") against
  // a bitmap of the other endpoint's (the "hub's") neighbours: deg(probe) bit tests instead of
  // a deg(u) + deg(v) merge. Edges are grouped by hub so a hub's list is marked once per group
  // (groups are capped so a hub with many batch edges still spreads over threads).
  struct Task {
    vertex_t hub, probe;
    std::uint64_t key;
  };
  std::vector<Task> tasks(keys.size());
  parallel_for(keys.size(), threads, 16384, [&](std::size_t b, std::size_t e, unsigned) {
    for (std::size_t i = b; i < e; ++i) {
      const vertex_t u = arc_source(keys[i]), v = arc_target(keys[i]);
      const auto du = graph.degree(u), dv = graph.degree(v);
      const bool u_hub = du > dv || (du == dv && u > v);
      tasks[i] = {u_hub ? u : v, u_hub ? v : u, keys[i]};
    }
  });
  radix_sort(tasks, 2 * bits,
             [&](const Task& t) { return (std::uint64_t{t.hub} << bits) | t.probe; });
  constexpr std::size_t kMaxGroup = 256;
  std::vector<std::size_t> groups{0};
  for (std::size_t i = 1; i < tasks.size(); ++i) {
    if (tasks[i].hub != tasks[i - 1].hub || i - groups.back() >= kMaxGroup) groups.push_back(i);
  }
  groups.push_back(tasks.size());

  const std::size_t words = (graph.num_vertices() + 63) / 64;
  std::vector<std::vector<std::uint64_t>> marks(threads), batch_marks(threads);
  std::vector<std::uint64_t> partial(threads, 0);
  auto test = [](const std::vector<std::uint64_t>& bits, vertex_t w) {
    return (bits[w >> 6] >> (w & 63)) & 1;
  };
  parallel_dynamic(groups.size() - 1, threads, 1, [&](std::size_t g, unsigned t) {
    std::vector<std::uint64_t>& mark = marks[t];
    std::vector<std::uint64_t>& batch_mark = batch_marks[t];
    if (mark.empty()) {
      mark.assign(words, 0);
      batch_mark.assign(words, 0);
    }
    const vertex_t u = tasks[groups[g]].hub;
    const auto hub_list = list(u);
    const auto hub_batch = batch_list(u);
    for (vertex_t w : hub_list) mark[w >> 6] |= std::uint64_t{1} << (w & 63);
    for (vertex_t w : hub_batch) batch_mark[w >> 6] |= std::uint64_t{1} << (w & 63);
    std::uint64_t found = 0;
    for (std::size_t i = groups[g]; i < groups[g + 1]; ++i) {
      const vertex_t v = tasks[i].probe;
      const std::uint64_t key = tasks[i].key;
      const auto probe_batch = batch_list(v);
      for (vertex_t w : list(v)) {
        if (!test(mark, w)) continue;
        // Count the triangle {u, v, w} here only if {u, v} is its smallest batch edge.
        if (detail::canonical_edge(u, w) < key && test(batch_mark, w)) continue;
        if (detail::canonical_edge(v, w) < key &&
            std::binary_search(probe_batch.begin(), probe_batch.end(), w)) {
          continue;
        }
        ++found;
        if (per_vertex) {
          for (const vertex_t x : {u, v, w})
            std::atomic_ref<std::uint64_t>(per_vertex[x]).fetch_add(1, std::memory_order_relaxed);
        }
      }
    }
    for (vertex_t w : hub_list) mark[w >> 6] = 0;
    for (vertex_t w : hub_batch) batch_mark[w >> 6] = 0;
    partial[t] += found;
  });
  return std::accumulate(partial.begin(), partial.end(), std::uint64_t{0});
}
}  // namespace detail

template <HostGraphView Graph>
std::uint64_t count_triangles_with_edges(const Graph& graph, std::span<const std::uint64_t> keys,
                                         unsigned threads) {
  return detail::count_with_edges(graph, keys, threads, nullptr);
}

/// count_triangles_with_edges, also adding to per_vertex[x] (num_vertices() entries) the number
/// of those triangles that contain x (the sum grows by 3 per triangle). Relaxed atomic adds.
template <HostGraphView Graph>
std::uint64_t count_triangles_with_edges_per_vertex(const Graph& graph,
                                                    std::span<const std::uint64_t> keys,
                                                    std::span<std::uint64_t> per_vertex,
                                                    unsigned threads = 0) {
  if (per_vertex.size() < graph.num_vertices())
    throw InvalidArgument("wg::cpu::count_triangles_with_edges_per_vertex: per_vertex is short");
  return detail::count_with_edges(graph, keys, threads, per_vertex.data());
}

}  // namespace wg::cpu
