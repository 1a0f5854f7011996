#pragma once
// The hash functions every GPU module uses, written once: bucket selection in the slab tables,
// the batch deduplication sets of the graph and the triangle counter. Host and device callable,
// branch-free and constant time.
#include <cstdint>

namespace wg {

/// 32-bit mixer (a murmur3-style finaliser with full avalanche): every input bit flips each
/// output bit with probability ~1/2, so consecutive vertex ids spread over all buckets.
__host__ __device__ __forceinline__ std::uint32_t mix32(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

/// 64-bit murmur3 finaliser (fmix64), for keys that pack two 32-bit ids.
__host__ __device__ __forceinline__ std::uint64_t mix64(std::uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}

/// Maps a 32-bit hash to [0, n) by multiply-shift ("fast range"): no division, unbiased to
/// within n / 2^32.
__host__ __device__ __forceinline__ std::uint32_t fast_range(std::uint32_t h, std::uint32_t n) {
  return static_cast<std::uint32_t>((std::uint64_t{h} * n) >> 32);
}

}  // namespace wg
