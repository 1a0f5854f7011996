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
