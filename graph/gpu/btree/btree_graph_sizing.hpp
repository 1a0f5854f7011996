#pragma once
// Host/device arithmetic of wg::gpu::BTreeGraph, in one place so that a CPU test
// (tests/graph/gpu/btree_graph_sizing_test.cpp) checks it: pool sizes and the id slices that
// snapshots and partial neighbour walks split a row into. Plain C++ (no CUDA needed).
#include <algorithm>
#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define WG_BTG_HD __host__ __device__
#else
#define WG_BTG_HD
#endif

namespace wg::gpu::detail::btree_graph {

/// Nodes BTree<uint64_t>::build takes for n keys at `fill`: leaves of round(7 x fill) keys (2..7)
/// and inner levels of as many children, plus 64 of slack (at least one node per level).
inline std::uint64_t build_nodes(std::uint64_t n, double fill) {
  const double per = std::clamp(static_cast<double>(std::lround(7.0 * fill)), 2.0, 7.0);
  return static_cast<std::uint64_t>(std::ceil(static_cast<double>(n) / per) * per / (per - 1)) + 64;
}

/// Nodes a batch of m new keys may allocate (a full leaf splits on its first insert, then at
/// most once per 3 more; inner nodes a third as often): the pool keeps this much free.
constexpr std::uint64_t batch_nodes(std::uint64_t m) {
  return 2 * m + 64;
}

/// Snapshot pieces of a row of `degree` keys: ceil(degree / piece_keys), 1 .. num_vertices.
WG_BTG_HD constexpr std::uint64_t row_pieces(std::uint64_t degree, std::uint64_t piece_keys,
                                             std::uint64_t num_vertices) {
  const std::uint64_t p = (degree + piece_keys - 1) / piece_keys;
  return p < 1 ? 1 : (p > num_vertices ? num_vertices : p);
}

/// Neighbour ids of slice j of p over [0, num_vertices) (p <= num_vertices): [*lo, *hi], the
/// last slice reaching up to 0xFFFFFFFF; consecutive, disjoint, non-empty.
WG_BTG_HD constexpr void id_slice(std::uint64_t j, std::uint64_t p, std::uint64_t num_vertices,
                                  std::uint32_t* lo, std::uint32_t* hi) {
  *lo = static_cast<std::uint32_t>(j * num_vertices / p);
  *hi = j + 1 == p ? 0xFFFFFFFFu : static_cast<std::uint32_t>((j + 1) * num_vertices / p - 1);
}

/// Part `part` of `parts` of [0, n) for the partial walks: [*lo, *hi] of equal spans; false for
/// an empty part.
WG_BTG_HD constexpr bool walk_part(std::uint32_t part, std::uint32_t parts, std::uint32_t n,
                                   std::uint32_t* lo, std::uint32_t* hi) {
  const std::uint64_t nn = n ? n : 1;
  const std::uint64_t span = (nn + parts - 1) / parts;
  const std::uint64_t first = std::uint64_t{part} * span;
  if (first >= nn) return false;
  *lo = static_cast<std::uint32_t>(first);
  *hi = static_cast<std::uint32_t>(first + span > nn ? nn - 1 : first + span - 1);
  return true;
}

}  // namespace wg::gpu::detail::btree_graph

#undef WG_BTG_HD
