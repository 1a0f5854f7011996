#pragma once
// Binary searches over a sorted device array, shared by the sorted array and the LSM (one thread
// per query, no shared memory). Plain C++ callable from host and device, so the CPU tests can
// check them too.
//
//   lower_bound_index(a, n, x): the first i with !(a[i] < x), n when none.
//   upper_bound_index(a, n, x): the first i with x < a[i], n when none.
// Cost: ceil(log2(n + 1)) dependent loads; the loop's trip count depends only on n, so the
// threads of a warp stay converged.
#include <cstdint>

#if defined(__CUDACC__)
#define WG_HD __host__ __device__
#else
#define WG_HD
#endif

namespace wg {

template <class T>
WG_HD inline std::uint64_t lower_bound_index(const T* a, std::uint64_t n, T x) {
  std::uint64_t lo = 0;
  while (n > 0) {
    const std::uint64_t half = n / 2;
    if (a[lo + half] < x) {
      lo += half + 1;
      n -= half + 1;
    } else {
      n = half;
    }
  }
  return lo;
}

template <class T>
WG_HD inline std::uint64_t upper_bound_index(const T* a, std::uint64_t n, T x) {
  std::uint64_t lo = 0;
  while (n > 0) {
    const std::uint64_t half = n / 2;
    if (!(x < a[lo + half])) {
      lo += half + 1;
      n -= half + 1;
    } else {
      n = half;
    }
  }
  return lo;
}

}  // namespace wg

namespace wg {

/// upper_bound_index restricted to [from, n), found by galloping from `from` (1, 2, 4, ...
/// elements ahead) and then a binary search: O(log d) for an answer d elements past `from`, so a
/// short range's end costs a few cache-local loads instead of a full search. Requires every
/// element before `from` to be <= x.
template <class T>
WG_HD inline std::uint64_t upper_bound_from(const T* a, std::uint64_t n, std::uint64_t from, T x) {
  std::uint64_t lo = from, step = 1;
  while (lo + step <= n && !(x < a[lo + step - 1])) {  // a[lo, lo + step) are all <= x
    lo += step;
    step *= 2;
  }
  const std::uint64_t hi = lo + step <= n ? lo + step : n;
  return lo + upper_bound_index(a + lo, hi - lo, x);
}

}  // namespace wg
