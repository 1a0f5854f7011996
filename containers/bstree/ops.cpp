// The BS-tree operations built three times: scalar (any x86-64), AVX2 and AVX-512 (F + BW for
// the 16-bit compressed leaves). Each build is detail/ops.inl compiled inside a target region and
// a namespace of its own, so it inlines its own successor kernels and shares no symbol with the
// others; the tree picks one table at construction (Core::Core, after checking the CPU).
#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>

#include <warpgraph/containers/bstree/detail/layout.hpp>
#include <warpgraph/containers/bstree/detail/ops_table.hpp>

// ---- scalar: counting successor (Snippet 1 of the paper), relaxed loads ----------------------
namespace wg::bstree::detail::isa_scalar {
struct Kernels {
  static unsigned lt64(const std::uint64_t* p, std::uint64_t k) {
    unsigned n = 0;
    for (unsigned i = 0; i < 16; ++i) n += ld(p[i]) < k;
    return n;
  }
  static unsigned lt32(const std::uint32_t* p, std::uint32_t k) {
    unsigned n = 0;
    for (unsigned i = 0; i < 32; ++i) n += ld(p[i]) < k;
    return n;
  }
  static unsigned lt16(const std::uint16_t* p, std::uint16_t k) {
    unsigned n = 0;
    for (unsigned i = 0; i < 64; ++i) n += ld(p[i]) < k;
    return n;
  }
};
#include <warpgraph/containers/bstree/detail/ops.inl>
}  // namespace wg::bstree::detail::isa_scalar

#if defined(__x86_64__)

// Target regions: every function defined inside gets the instruction set (GCC: push_options +
// target; clang: an attribute applied to each function).

// ---- AVX2: unsigned compares by flipping the sign bit ------------------------------------------
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,popcnt,bmi,bmi2,lzcnt"))), \
                             apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,popcnt,bmi,bmi2,lzcnt")
#endif
namespace wg::bstree::detail::isa_avx2 {
struct Kernels {
  static unsigned lt64(const std::uint64_t* p, std::uint64_t k) {
    const __m256i sign = _mm256_set1_epi64x(static_cast<long long>(0x8000000000000000ull));
    const __m256i vk = _mm256_xor_si256(_mm256_set1_epi64x(static_cast<long long>(k)), sign);
    unsigned mask = 0;
    for (unsigned i = 0; i < 4; ++i) {
      const __m256i x =
          _mm256_xor_si256(_mm256_load_si256(reinterpret_cast<const __m256i*>(p + 4 * i)), sign);
      mask |=
          static_cast<unsigned>(_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(vk, x))))
          << (4 * i);
    }
    return static_cast<unsigned>(__builtin_popcount(mask));
  }
  static unsigned lt32(const std::uint32_t* p, std::uint32_t k) {
    const __m256i sign = _mm256_set1_epi32(static_cast<int>(0x80000000u));
    const __m256i vk = _mm256_xor_si256(_mm256_set1_epi32(static_cast<int>(k)), sign);
    unsigned n = 0;
    for (unsigned i = 0; i < 4; ++i) {
      const __m256i x =
          _mm256_xor_si256(_mm256_load_si256(reinterpret_cast<const __m256i*>(p + 8 * i)), sign);
      n += static_cast<unsigned>(__builtin_popcount(static_cast<unsigned>(
          _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(vk, x))))));
    }
    return n;
  }
  static unsigned lt16(const std::uint16_t* p, std::uint16_t k) {
    const __m256i sign = _mm256_set1_epi16(static_cast<short>(0x8000u));
    const __m256i vk = _mm256_xor_si256(_mm256_set1_epi16(static_cast<short>(k)), sign);
    unsigned n = 0;
    for (unsigned i = 0; i < 4; ++i) {
      const __m256i x =
          _mm256_xor_si256(_mm256_load_si256(reinterpret_cast<const __m256i*>(p + 16 * i)), sign);
      n += static_cast<unsigned>(__builtin_popcount(
          static_cast<unsigned>(_mm256_movemask_epi8(_mm256_cmpgt_epi16(vk, x)))));
    }
    return n / 2;  // two mask bits per 16-bit lane
  }
};
#include <warpgraph/containers/bstree/detail/ops.inl>
}  // namespace wg::bstree::detail::isa_avx2
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

// ---- AVX-512: Snippet 2 of the paper (compare into a mask, popcount) ---------------------------
#if defined(__clang__)
#pragma clang attribute push(                                                        \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx2,popcnt,bmi,bmi2,lzcnt"))), \
    apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx2,popcnt,bmi,bmi2,lzcnt")
#endif
namespace wg::bstree::detail::isa_avx512 {
struct Kernels {
  static unsigned lt64(const std::uint64_t* p, std::uint64_t k) {
    const __m512i vk = _mm512_set1_epi64(static_cast<long long>(k));
    const unsigned a = _mm512_cmplt_epu64_mask(_mm512_load_si512(p), vk);
    const unsigned b = _mm512_cmplt_epu64_mask(_mm512_load_si512(p + 8), vk);
    return static_cast<unsigned>(__builtin_popcount(a | (b << 8)));
  }
  static unsigned lt32(const std::uint32_t* p, std::uint32_t k) {
    const __m512i vk = _mm512_set1_epi32(static_cast<int>(k));
    const unsigned a = _mm512_cmplt_epu32_mask(_mm512_load_si512(p), vk);
    const unsigned b = _mm512_cmplt_epu32_mask(_mm512_load_si512(p + 16), vk);
    return static_cast<unsigned>(__builtin_popcount(a | (b << 16)));
  }
  static unsigned lt16(const std::uint16_t* p, std::uint16_t k) {
    const __m512i vk = _mm512_set1_epi16(static_cast<short>(k));
    const std::uint64_t a = _mm512_cmplt_epu16_mask(_mm512_load_si512(p), vk);
    const std::uint64_t b = _mm512_cmplt_epu16_mask(_mm512_load_si512(p + 32), vk);
    return static_cast<unsigned>(__builtin_popcountll(a | (b << 32)));
  }
};
#include <warpgraph/containers/bstree/detail/ops.inl>
}  // namespace wg::bstree::detail::isa_avx512
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif  // __x86_64__

namespace wg::bstree::detail {
const OpsTable* ops_for(SimdPath path, bool compressed) {
#if defined(__x86_64__)
  if (path == SimdPath::avx512) return isa_avx512::ops_table(compressed);
  if (path == SimdPath::avx2) return isa_avx2::ops_table(compressed);
#endif
  return isa_scalar::ops_table(compressed);
}
}  // namespace wg::bstree::detail
