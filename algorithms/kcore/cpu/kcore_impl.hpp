#pragma once
// Definition of wg::cpu::core_numbers (kcore.hpp) for any HostGraphView; instantiated for
// wg::cpu::DynamicGraph in kcore.cpp. A new host graph includes this header to instantiate it.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include <warpgraph/algorithms/kcore/cpu/kcore.hpp>

namespace wg::cpu {

namespace detail {

/// What the peeling can give beside the numbers, for the dynamic object: the order in which it
/// removed the vertices (core numbers non-decreasing along it; each vertex has at most its core
/// number of neighbours after it: a k-order), per vertex its neighbours after it in that order
/// (deg+) and its neighbours of core number >= its own (mcd).
struct PeelOrder {
  std::vector<vertex_t> removal;
  std::vector<std::uint32_t> later, mcd;
};

/// Batagelj-Zaversnik bucket peeling over n vertices of simple undirected degree degree(v) whose
/// neighbours neighbors(v, f) lists (f(w) once per neighbour w); fills `k_order` when given (one
/// more random read per arc).
template <class Degree, class Neighbors>
CoreNumbers peel_core_numbers(std::uint64_t n, Degree&& degree, Neighbors&& neighbors,
                              PeelOrder* k_order = nullptr) {
  CoreNumbers r;
  std::vector<std::uint32_t>& core = r.core;
  core.resize(n);
  std::uint32_t top = 0;
  for (std::uint64_t v = 0; v < n; ++v) {
    core[v] = degree(vertex_t(v));
    top = std::max(top, core[v]);
  }
  // bin[d]: the first position of degree d in `order`, which holds the vertices by degree.
  std::vector<std::uint64_t> bin(std::size_t{top} + 2, 0);
  for (std::uint64_t v = 0; v < n; ++v) ++bin[core[v] + 1];
  for (std::size_t d = 1; d < bin.size(); ++d) bin[d] += bin[d - 1];
  std::vector<vertex_t> order(n);
  std::vector<std::uint64_t> pos(n);
  for (std::uint64_t v = 0; v < n; ++v) {
    pos[v] = bin[core[v]]++;
    order[pos[v]] = vertex_t(v);
  }
  for (std::size_t d = bin.size() - 1; d > 0; --d) bin[d] = bin[d - 1];
  bin[0] = 0;
  if (k_order) {
    k_order->later.assign(n, 0);
    k_order->mcd.assign(n, 0);
  }
  for (std::uint64_t i = 0; i < n; ++i) {
    const vertex_t v = order[i];
    std::uint32_t above = 0, same = 0, same_after = 0;
    neighbors(v, [&](vertex_t u) {
      // v holds the least value: a neighbour with a larger one is not removed yet (after v,
      // ending at v's number or above); a smaller one was removed, below v; an equal one ends at
      // v's number, before or after v (its position says).
      if (core[u] <= core[v]) {
        if (k_order && core[u] == core[v]) {
          ++same;
          same_after += pos[u] > i;
        }
        return;
      }
      ++above;
      // u moves to the front of its bin, the bin's start moves past it: u is one bin down.
      const std::uint32_t du = core[u];
      const std::uint64_t first = bin[du];
      const vertex_t w = order[first];
      if (w != u) {
        std::swap(order[pos[u]], order[first]);
        pos[w] = pos[u];
        pos[u] = first;
      }
      ++bin[du];
      --core[u];
    });
    if (k_order) {
      k_order->later[v] = above + same_after;
      k_order->mcd[v] = above + same;
    }
    r.max_core = std::max(r.max_core, core[v]);
  }
  if (k_order) k_order->removal = std::move(order);
  return r;
}

}  // namespace detail

template <HostGraphView Graph>
CoreNumbers core_numbers(const Graph& graph) {
  const std::uint64_t n = graph.num_vertices();
  if (!graph.directed()) {
    return detail::peel_core_numbers(
        n, [&](vertex_t v) { return graph.degree(v); },
        [&](vertex_t v, auto&& f) { graph.for_each_neighbor(v, f); });
  }
  // The undirected view: every arc both ways, repeats (u->v beside v->u) removed.
  std::vector<std::uint64_t> offsets(n + 1, 0);
  for (std::uint64_t u = 0; u < n; ++u) {
    graph.for_each_neighbor(vertex_t(u), [&](vertex_t v) {
      ++offsets[u + 1];
      ++offsets[std::uint64_t{v} + 1];
    });
  }
  for (std::uint64_t v = 0; v < n; ++v) offsets[v + 1] += offsets[v];
  std::vector<vertex_t> targets(offsets[n]);
  std::vector<std::uint64_t> cursor(offsets.begin(), offsets.end() - 1);
  for (std::uint64_t u = 0; u < n; ++u) {
    graph.for_each_neighbor(vertex_t(u), [&](vertex_t v) {
      targets[cursor[u]++] = v;
      targets[cursor[v]++] = vertex_t(u);
    });
  }
  std::vector<std::uint32_t> degree(n);
  for (std::uint64_t v = 0; v < n; ++v) {
    const auto first = targets.begin() + static_cast<std::ptrdiff_t>(offsets[v]);
    const auto last = targets.begin() + static_cast<std::ptrdiff_t>(offsets[v + 1]);
    std::sort(first, last);
    degree[v] = static_cast<std::uint32_t>(std::unique(first, last) - first);
  }
  return detail::peel_core_numbers(
      n, [&](vertex_t v) { return degree[v]; },
      [&](vertex_t v, auto&& f) {
        for (std::uint64_t i = offsets[v]; i < offsets[v] + degree[v]; ++i) f(targets[i]);
      });
}

}  // namespace wg::cpu
