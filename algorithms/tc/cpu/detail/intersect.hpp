#pragma once
// Intersections of sorted neighbour lists, the inner loop of CPU triangle counting.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include <warpgraph/containers/core/types.hpp>

namespace wg::cpu::detail {

/// Calls f(x) for each x in both sorted, duplicate-free lists, ascending. A linear merge when
/// the sizes are close; when one list is much shorter, each of its entries is found in the
/// other by galloping (exponential then binary search), O(small * log(large / small)).
template <class F>
void intersect(std::span<const vertex_t> a, std::span<const vertex_t> b, F&& f) {
  if (a.size() > b.size()) std::swap(a, b);
  if (a.empty()) return;
  if (a.size() * 32 < b.size()) {
    const vertex_t* lo = b.data();
    const vertex_t* const end = b.data() + b.size();
    for (vertex_t x : a) {
      std::size_t step = 1;
      const vertex_t* hi = lo;
      while (hi < end && *hi < x) {
        lo = hi + 1;
        hi += step;
        step *= 2;
      }
      lo = std::lower_bound(lo, std::min(hi + 1, end), x);
      if (lo == end) return;
      if (*lo == x) f(x);
    }
    return;
  }
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const vertex_t x = a[i], y = b[j];
    if (x == y) f(x);
    i += x <= y;
    j += y <= x;
  }
}

/// |a ∩ b| for sorted, duplicate-free lists.
inline std::uint64_t intersection_size(std::span<const vertex_t> a, std::span<const vertex_t> b) {
  std::uint64_t count = 0;
  intersect(a, b, [&](vertex_t) { ++count; });
  return count;
}

}  // namespace wg::cpu::detail
