#pragma once
// Bucket counts of a bulk build's tables, shared by its kernels (buckets_kernel,
// size_small_tables_kernel in kernels/dictionary_kernels.cuh) and the host, which allocates a small
// build's pool for an upper bound of their sum instead of waiting for the sum
// (tests/graph/gpu/table_sizing_test.cpp checks the bound on the CPU).
#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define WG_TABLE_SIZING_HD __host__ __device__
#else
#define WG_TABLE_SIZING_HD
#endif

namespace wg::gpu::detail {

/// Buckets of a table sized for d keys at `per_bucket` keys per bucket (load_factor x slab
/// capacity): max(1, ceil(d / per_bucket)), in double, as a Count.
template <class Count = std::uint64_t>
WG_TABLE_SIZING_HD inline Count buckets_for(double d, double per_bucket) {
  const double b = std::ceil(d / per_bucket);
  return b < 1 ? Count{1} : static_cast<Count>(b);
}

/// Buckets a small build's pool needs after its first n (size_small_tables_kernel: a table of
/// one bucket takes pool[i], a table of several a run after pool[n - 1]) when the tables' keys
/// add up to at most `arcs`. A table of several buckets has d > per_bucket keys and takes
/// ceil(d / per_bucket) < 2 d / per_bucket buckets, so together fewer than 2 arcs / per_bucket;
/// the factor and the + 1 cover the division's rounding.
inline std::uint64_t small_build_spare_buckets(std::uint64_t arcs, double per_bucket) {
  return static_cast<std::uint64_t>(
             std::ceil(2.0 * static_cast<double>(arcs) / per_bucket * (1 + 1e-9))) +
         1;
}

}  // namespace wg::gpu::detail

#undef WG_TABLE_SIZING_HD
