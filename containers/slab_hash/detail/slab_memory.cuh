#pragma once
// Memory access primitives of the slab hash, with their memory orders spelled out.
//   relaxed loads (ld.relaxed.gpu): words other warps may be changing (concurrent phases);
//   read-only loads (ld.global.nc): phases with no writer in the same kernel (bulk find);
//   CAS: relaxed for key slots (the key itself is the published datum; a map pair is one 64-bit
//   CAS so key and value appear together), release for next-slab handles (the new slab's
//   empty contents must be visible before the handle), and before reading a slab reached
//   through a handle, an acquire: a fence, or an acquire load of the handle (load_acquire).
#include <cstdint>

#include <warpgraph/containers/slab_hash/slab_layout.cuh>

namespace wg::slab::detail {

__device__ __forceinline__ std::uint32_t load_relaxed(const std::uint32_t* p) {
  std::uint32_t v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ std::uint64_t load_relaxed(const std::uint64_t* p) {
  std::uint64_t v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
/// 16-byte relaxed loads: four 32-bit words (each single-copy atomic) or two 64-bit pairs (each
/// single-copy atomic, so a pair is never torn).
__device__ __forceinline__ uint4 load_relaxed_v4(const std::uint32_t* p) {
  uint4 v;
  asm volatile("ld.relaxed.gpu.global.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p)
               : "memory");
  return v;
}
__device__ __forceinline__ void load_relaxed_v2(const std::uint64_t* p, std::uint64_t& a,
                                                std::uint64_t& b) {
  asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];"
               : "=l"(a), "=l"(b)
               : "l"(p)
               : "memory");
}
/// Weak 16-byte loads cached in L1 (ld.global.ca): an L1 miss fetches whole 32-byte sectors, so
/// the two 16-byte halves of a sector cost one L2 request instead of two. Only for reads whose
/// staleness the caller tolerates (see tiled_chain.cuh). The L2::128B prefetch size: a thread
/// that reads a slab alone reads all of its 128-byte line, so an L2 miss fetches the line from
/// DRAM at once rather than sector by sector (H100, four rounds: deletes of random batches from
/// R-MAT s20-s24, mostly beyond the L2, +4-8% from 2^17; the real graphs, in L2, -2% to +3%;
/// tools/bench/RESULTS.md).
__device__ __forceinline__ uint4 load_cached_v4(const std::uint32_t* p) {
  uint4 v;
  asm volatile("ld.global.ca.L2::128B.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p)
               : "memory");
  return v;
}
__device__ __forceinline__ void load_cached_v2(const std::uint64_t* p, std::uint64_t& a,
                                               std::uint64_t& b) {
  asm volatile("ld.global.ca.L2::128B.v2.u64 {%0, %1}, [%2];"
               : "=l"(a), "=l"(b)
               : "l"(p)
               : "memory");
}
__device__ __forceinline__ std::uint32_t load_readonly(const std::uint32_t* p) {
  return __ldg(p);
}
__device__ __forceinline__ std::uint64_t load_readonly(const std::uint64_t* p) {
  return __ldg(reinterpret_cast<const unsigned long long*>(p));
}

/// Load policies as types, so one traversal serves both kinds of phase.
struct RelaxedLoad {
  static constexpr bool kConcurrent = true;
  template <class T>
  __device__ __forceinline__ static T load(const T* p) {
    return load_relaxed(p);
  }
};
struct ReadOnlyLoad {
  static constexpr bool kConcurrent = false;
  template <class T>
  __device__ __forceinline__ static T load(const T* p) {
    return load_readonly(p);
  }
};

__device__ __forceinline__ std::uint32_t cas_relaxed(std::uint32_t* p, std::uint32_t expected,
                                                     std::uint32_t desired) {
  std::uint32_t old;
  asm volatile("atom.relaxed.gpu.global.cas.b32 %0, [%1], %2, %3;"
               : "=r"(old)
               : "l"(p), "r"(expected), "r"(desired)
               : "memory");
  return old;
}
__device__ __forceinline__ std::uint64_t cas_relaxed(std::uint64_t* p, std::uint64_t expected,
                                                     std::uint64_t desired) {
  std::uint64_t old;
  asm volatile("atom.relaxed.gpu.global.cas.b64 %0, [%1], %2, %3;"
               : "=l"(old)
               : "l"(p), "l"(expected), "l"(desired)
               : "memory");
  return old;
}
__device__ __forceinline__ std::uint32_t cas_release(std::uint32_t* p, std::uint32_t expected,
                                                     std::uint32_t desired) {
  std::uint32_t old;
  asm volatile("atom.release.gpu.global.cas.b32 %0, [%1], %2, %3;"
               : "=r"(old)
               : "l"(p), "r"(expected), "r"(desired)
               : "memory");
  return old;
}
/// Asks L2 to fetch the 128-byte line at p (no register result, no fault on the line's data):
/// a slab read that will follow once something else is known finds it in L2.
__device__ __forceinline__ void prefetch_l2(const void* p) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p) : "memory");
}
/// An acquire load (ld.acquire.gpu): later reads see what was written before the release that
/// wrote the value read.
__device__ __forceinline__ std::uint32_t load_acquire(const std::uint32_t* p) {
  std::uint32_t v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void fence_acquire() {
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
}

/// 32-bit mixer (a murmur3-style finaliser with good avalanche) for bucket selection.
__host__ __device__ __forceinline__ std::uint32_t mix32(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}
/// Maps a hash to [0, n) by multiply-shift ("fast range"), no division.
__host__ __device__ __forceinline__ std::uint32_t fast_range(std::uint32_t h, std::uint32_t n) {
  return static_cast<std::uint32_t>((std::uint64_t{h} * n) >> 32);
}

__host__ __device__ __forceinline__ std::uint64_t make_pair(std::uint32_t key,
                                                            std::uint32_t value) {
  return (std::uint64_t{value} << 32) | key;
}
__host__ __device__ __forceinline__ std::uint32_t pair_key(std::uint64_t p) {
  return static_cast<std::uint32_t>(p);
}
__host__ __device__ __forceinline__ std::uint32_t pair_value(std::uint64_t p) {
  return static_cast<std::uint32_t>(p >> 32);
}

}  // namespace wg::slab::detail
