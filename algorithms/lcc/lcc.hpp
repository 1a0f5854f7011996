#pragma once
// Local clustering coefficient (LCC): the vocabulary shared by the CPU (cpu/lcc.hpp) and GPU
// (gpu/lcc.hpp) backends, and the arithmetic they share.
//
// Semantics. On the undirected simple graph, the coefficient of vertex v is
//   c(v) = 2 T(v) / (d(v) (d(v) - 1)),   0 when d(v) < 2,
// where T(v) counts the triangles containing v and d(v) is its degree; `average` is the mean of
// c over every vertex id below num_vertices() (isolated ids count as 0), which is networkx's
// average_clustering on a graph that holds those vertices. Undirected graphs only: the backends
// throw wg::InvalidArgument on a directed one.
//
// Cost. The static computation is one per-vertex triangle count plus O(n). The dynamic classes
// keep the per-vertex triangle counts exact per batch with the triangle counter's batch kernels
// (only the triangles through the batch's edges are found), then refresh the coefficients: O(n)
// for that refresh on top of the count.
#include <cstdint>
#include <span>
#include <vector>

namespace wg {

/// Options of both backends. The result never depends on them.
struct LccOptions {
  /// CPU worker threads (0: the graph's threads()). The GPU backend ignores it.
  unsigned threads = 0;
};

struct LccResult {
  std::vector<double> coefficient;  ///< per vertex id (0 where the degree is below 2)
  double average = 0;               ///< mean of `coefficient` (0 for an empty graph)
  std::uint64_t triangles = 0;      ///< triangles of the graph
};

/// c(v) from T(v) and d(v) (see the header comment).
constexpr double local_coefficient(std::uint64_t triangles, std::uint64_t degree) noexcept {
  return degree < 2 ? 0.0
                    : 2.0 * static_cast<double>(triangles) /
                          (static_cast<double>(degree) * static_cast<double>(degree - 1));
}

/// The mean of `coefficient` (0 when empty), summed in id order.
inline double average_coefficient(std::span<const double> coefficient) noexcept {
  double sum = 0;
  for (double c : coefficient) sum += c;
  return coefficient.empty() ? 0.0 : sum / static_cast<double>(coefficient.size());
}

/// The result from per-vertex triangle counts and degrees (same length).
template <class Count, class Degree>
LccResult lcc_from_counts(std::span<const Count> triangles, std::span<const Degree> degree) {
  LccResult r;
  r.coefficient.resize(triangles.size());
  std::uint64_t sum = 0;
  for (std::size_t v = 0; v < triangles.size(); ++v) {
    r.coefficient[v] = local_coefficient(triangles[v], v < degree.size() ? degree[v] : 0);
    sum += triangles[v];
  }
  r.average = average_coefficient(r.coefficient);
  r.triangles = sum / 3;
  return r;
}

}  // namespace wg
