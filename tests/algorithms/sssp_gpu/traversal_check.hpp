#pragma once
// Checks shared by the BFS and SSSP tests (GPU and CPU): levels / distances against the
// Boost.Graph reference on the graph's own export, and parents valid (an arc parent -> v one
// level, or one arc length, closer). Plain C++.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>

#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/graph/edge_list.hpp>

namespace wg::test {

/// Arc lengths of a graph export: key (u << 32 | v) -> length (1 when unweighted or unit).
inline std::unordered_map<std::uint64_t, double> arc_lengths(const EdgeList& coo, bool unit) {
  std::unordered_map<std::uint64_t, double> arcs;
  arcs.reserve(coo.size() * 2);
  for (std::size_t i = 0; i < coo.size(); ++i) {
    const double w = (unit || coo.weight.empty()) ? 1.0 : coo.weight[i];
    const std::uint64_t u = coo.src[i], v = coo.dst[i];
    arcs[(u << 32) | v] = w;
    if (coo.symmetric) arcs[(v << 32) | u] = w;
  }
  return arcs;
}

/// `dist` (an exact integer distance per vertex, `unreached` for none) and `parent` against the
/// reference's SSSP on `coo` (unit lengths when `unit`). A source that is not live
/// (source_live false) must reach nothing.
template <class Dist, class Parent>
void expect_shortest_paths(const EdgeList& coo, bool directed, std::uint32_t source,
                           bool source_live, const std::vector<Dist>& dist,
                           const std::vector<Parent>& parent, Dist unreached, Parent no_parent,
                           bool unit) {
  ASSERT_EQ(dist.size(), coo.num_vertices);
  ASSERT_EQ(parent.size(), coo.num_vertices);
  if (!source_live) {
    for (std::size_t v = 0; v < dist.size(); ++v) {
      ASSERT_EQ(dist[v], unreached) << "vertex " << v << " (source not live)";
      ASSERT_EQ(parent[v], no_parent) << "vertex " << v;
    }
    return;
  }
  EdgeList ref_input = coo;
  if (unit) ref_input.weight.clear();
  const std::vector<double> ref = reference::sssp(ref_input, source, directed);
  const auto arcs = arc_lengths(coo, unit);
  std::uint64_t bad = 0;
  for (std::size_t v = 0; v < dist.size() && bad < 5; ++v) {
    if (std::isinf(ref[v])) {
      if (dist[v] != unreached || parent[v] != no_parent) {
        ADD_FAILURE() << "vertex " << v << " should be unreached, has " << dist[v];
        ++bad;
      }
      continue;
    }
    if (dist[v] == unreached || static_cast<double>(dist[v]) != ref[v]) {
      ADD_FAILURE() << "vertex " << v << " distance " << dist[v] << ", reference " << ref[v];
      ++bad;
      continue;
    }
    if (v == source) {
      if (parent[v] != static_cast<Parent>(source)) {
        ADD_FAILURE() << "source's parent " << parent[v];
        ++bad;
      }
      continue;
    }
    const std::uint64_t p = parent[v];
    const auto it = arcs.find((p << 32) | v);
    if (p >= dist.size() || it == arcs.end() || dist[p] == unreached ||
        static_cast<double>(dist[p]) + it->second != static_cast<double>(dist[v])) {
      ADD_FAILURE() << "vertex " << v << " (distance " << dist[v] << ") has parent " << p
                    << " that is not a neighbour one arc closer";
      ++bad;
    }
  }
}

/// A weighted batch of `m` entries drawn over ids [0, n) with integer weights 1..max_weight
/// (deterministic), with some self-loops and repeats.
inline EdgeList random_weighted_batch(std::uint64_t n, std::uint64_t m, unsigned max_weight,
                                      std::uint64_t seed, bool symmetric) {
  EdgeList e;
  e.num_vertices = n;
  e.symmetric = symmetric;
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  auto next = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  for (std::uint64_t i = 0; i < m; ++i) {
    const vertex_t u = static_cast<vertex_t>(next() % n);
    vertex_t v = static_cast<vertex_t>(next() % n);
    if (i % 97 == 5) v = u;  // self-loop
    e.src.push_back(u);
    e.dst.push_back(v);
    e.weight.push_back(static_cast<double>(1 + next() % max_weight));
    if (i % 31 == 3) {  // a repeat with another weight (the last entry wins)
      e.src.push_back(v);
      e.dst.push_back(u);
      e.weight.push_back(static_cast<double>(1 + next() % max_weight));
      ++i;
    }
  }
  return e;
}

/// expect_shortest_paths, and `reached` (the result's count) equal to the entries of `dist`
/// other than `unreached`.
template <class Dist, class Parent>
void expect_traversal(const EdgeList& coo, bool directed, std::uint32_t source, bool source_live,
                      const std::vector<Dist>& dist, const std::vector<Parent>& parent,
                      std::uint64_t reached, Dist unreached, Parent no_parent, bool unit) {
  expect_shortest_paths(coo, directed, source, source_live, dist, parent, unreached, no_parent,
                        unit);
  std::uint64_t want = 0;
  for (const Dist& d : dist) want += d != unreached;
  EXPECT_EQ(reached, want);
}

/// `e` with integer weights 1..max_weight on every entry (deterministic in `seed`).
inline EdgeList with_weights(EdgeList e, unsigned max_weight, std::uint64_t seed) {
  e.weight.resize(e.size());
  std::uint64_t x = seed | 1;
  for (auto& w : e.weight) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    w = static_cast<double>(1 + (x >> 33) % max_weight);
  }
  return e;
}

/// Appends `count` entries of `coo` (present edges, picked deterministically from `seed`) to
/// `batch`, each with weight 1 + (a hash % max_weight).
inline void append_present_edges(EdgeList& batch, const EdgeList& coo, std::uint64_t count,
                                 std::uint64_t seed, unsigned max_weight) {
  std::uint64_t x = seed;
  for (std::uint64_t i = 0; i < count && coo.size(); ++i) {
    x = x * 6364136223846793005ull + 1;
    const std::size_t k = (x >> 20) % coo.size();
    batch.src.push_back(coo.src[k]);
    batch.dst.push_back(coo.dst[k]);
    batch.weight.push_back(static_cast<double>(1 + (x >> 40) % max_weight));
  }
}

}  // namespace wg::test
