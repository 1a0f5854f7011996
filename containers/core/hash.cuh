#pragma once
// The hash functions every GPU module uses, written once: bucket selection in the slab tables,
// the batch deduplication sets of the graph and the triangle counter. Host and device callable,
// branch-free and constant time.
#include <cstdint>

namespace wg {

/// The murmur3-style finaliser: xor-shift, multiply, xor-shift, multiply, xor-shift. With the
/// constants below every input bit flips each output bit with probability ~1/2.
template <class T>
__host__ __device__ __forceinline__ constexpr T xorshift_multiply(T x, int s1, T c1, int s2, T c2,
                                                                  int s3) {
  x ^= x >> s1;
  x *= c1;
  x ^= x >> s2;
  x *= c2;
  x ^= x >> s3;
  return x;
}

/// 32-bit mixer (full avalanche), so consecutive vertex ids spread over all buckets.
__host__ __device__ __forceinline__ std::uint32_t mix32(std::uint32_t x) {
  return xorshift_multiply<std::uint32_t>(x, 16, 0x7feb352du, 15, 0x846ca68bu, 16);
}

/// 64-bit murmur3 finaliser (fmix64), for keys that pack two 32-bit ids.
__host__ __device__ __forceinline__ std::uint64_t mix64(std::uint64_t k) {
  return xorshift_multiply<std::uint64_t>(k, 33, 0xff51afd7ed558ccdull, 33, 0xc4ceb9fe1a85ec53ull,
                                          33);
}

/// Maps a 32-bit hash to [0, n) by multiply-shift ("fast range"): no division, unbiased to
/// within n / 2^32.
__host__ __device__ __forceinline__ std::uint32_t fast_range(std::uint32_t h, std::uint32_t n) {
  return static_cast<std::uint32_t>((std::uint64_t{h} * n) >> 32);
}

}  // namespace wg
