// The BS-tree operations built three times: scalar (any x86-64), AVX2 and AVX-512 (F + BW for
// the 16-bit compressed leaves). Each build is detail/ops.inl and detail/ops_write.inl compiled
// inside a target region and a namespace of its own, so it inlines its own successor kernels and
// shares no symbol with the others; the tree picks one table at construction (Core::Core, after
// checking the CPU).
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
#include <warpgraph/containers/bstree/detail/ops_write.inl>
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
  // Leaf update kernels (see the AVX-512 ones): one 256-bit vector per 32/sizeof(T) slots; a
  // slot's left and right neighbours come from unaligned loads of a padded copy, the per-slot
  // choices from the mask bits spread to lanes (AND with the lane's bit, compare equal).
  template <class T>
  static __m256i lane_mask(std::uint64_t bits) {
    if constexpr (sizeof(T) == 8) {
      const __m256i b = _mm256_setr_epi64x(1, 2, 4, 8);
      return _mm256_cmpeq_epi64(
          _mm256_and_si256(_mm256_set1_epi64x(static_cast<long long>(bits & 0xF)), b), b);
    } else if constexpr (sizeof(T) == 4) {
      const __m256i b = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
      return _mm256_cmpeq_epi32(
          _mm256_and_si256(_mm256_set1_epi32(static_cast<int>(bits & 0xFF)), b), b);
    } else {
      const __m256i b = _mm256_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096,
                                          8192, 16384, static_cast<short>(0x8000));
      return _mm256_cmpeq_epi16(
          _mm256_and_si256(_mm256_set1_epi16(static_cast<short>(bits & 0xFFFF)), b), b);
    }
  }
  template <class T>
  static __m256i broadcast(T v) {
    if constexpr (sizeof(T) == 8)
      return _mm256_set1_epi64x(static_cast<long long>(v));
    else if constexpr (sizeof(T) == 4)
      return _mm256_set1_epi32(static_cast<int>(v));
    else
      return _mm256_set1_epi16(static_cast<short>(v));
  }
  template <class T>
  static void shift_impl(const T* in, T* out, std::uint64_t take_left, std::uint64_t take_right,
                         unsigned target, T d) {
    constexpr unsigned kLanes = 32 / sizeof(T), kSlots = 128 / sizeof(T);
    alignas(32) T buf[kSlots + 2 * kLanes];  // buf[kLanes + i] = slot i
    const __m256i zero = _mm256_setzero_si256();
    _mm256_store_si256(reinterpret_cast<__m256i*>(buf), zero);
    _mm256_store_si256(reinterpret_cast<__m256i*>(buf + kLanes + kSlots), zero);
    for (unsigned k = 0; k < 4; ++k)
      _mm256_store_si256(reinterpret_cast<__m256i*>(buf + kLanes + k * kLanes),
                         _mm256_load_si256(reinterpret_cast<const __m256i*>(in + k * kLanes)));
    const __m256i vd = broadcast<T>(d);
    const std::uint64_t at = std::uint64_t{1} << target;
    for (unsigned k = 0; k < 4; ++k) {
      const T* p = buf + kLanes + k * kLanes;
      const __m256i cur = _mm256_load_si256(reinterpret_cast<const __m256i*>(p));
      const __m256i lft = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p - 1));
      const __m256i rgt = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 1));
      const unsigned sh = k * kLanes;
      __m256i v = _mm256_blendv_epi8(cur, lft, lane_mask<T>(take_left >> sh));
      v = _mm256_blendv_epi8(v, rgt, lane_mask<T>(take_right >> sh));
      v = _mm256_blendv_epi8(v, vd, lane_mask<T>(at >> sh));
      _mm256_store_si256(reinterpret_cast<__m256i*>(out + k * kLanes), v);
    }
  }
  template <class T>
  static void fill_impl(const T* in, T* out, std::uint64_t mask, T value) {
    constexpr unsigned kLanes = 32 / sizeof(T);
    const __m256i v = broadcast<T>(value);
    for (unsigned k = 0; k < 4; ++k) {
      const __m256i x = _mm256_load_si256(reinterpret_cast<const __m256i*>(in + k * kLanes));
      _mm256_store_si256(reinterpret_cast<__m256i*>(out + k * kLanes),
                         _mm256_blendv_epi8(x, v, lane_mask<T>(mask >> (k * kLanes))));
    }
  }
  static void shift(const std::uint64_t* in, std::uint64_t* out, std::uint64_t take_left,
                    std::uint64_t take_right, unsigned target, std::uint64_t d) {
    shift_impl(in, out, take_left, take_right, target, d);
  }
  static void shift(const std::uint32_t* in, std::uint32_t* out, std::uint64_t take_left,
                    std::uint64_t take_right, unsigned target, std::uint32_t d) {
    shift_impl(in, out, take_left, take_right, target, d);
  }
  static void shift(const std::uint16_t* in, std::uint16_t* out, std::uint64_t take_left,
                    std::uint64_t take_right, unsigned target, std::uint16_t d) {
    shift_impl(in, out, take_left, take_right, target, d);
  }
  static void fill(const std::uint64_t* in, std::uint64_t* out, std::uint64_t mask,
                   std::uint64_t value) {
    fill_impl(in, out, mask, value);
  }
  static void fill(const std::uint32_t* in, std::uint32_t* out, std::uint64_t mask,
                   std::uint32_t value) {
    fill_impl(in, out, mask, value);
  }
  static void fill(const std::uint16_t* in, std::uint16_t* out, std::uint64_t mask,
                   std::uint16_t value) {
    fill_impl(in, out, mask, value);
  }
};
#include <warpgraph/containers/bstree/detail/ops.inl>
#include <warpgraph/containers/bstree/detail/ops_write.inl>
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
  // The two halves' masks are joined with KUNPCK (which reads only the low half of each source)
  // and leave the mask registers once, at full width. Do not write `a | (b << 16)` on integer
  // copies of the masks: GCC 12 miscompiles that when a mask has to be spilled between the two
  // compares (it stores the 16-bit mask with kmovw and reloads it with a 32-bit mov, so stale
  // stack bytes become the high half). Sanitizer builds put a runtime call between the two loads,
  // which forces that spill (8 model tests of the compressed tree failed that way).
  static unsigned lt64(const std::uint64_t* p, std::uint64_t k) {
    const __m512i vk = _mm512_set1_epi64(static_cast<long long>(k));
    const __m512i x0 = _mm512_load_si512(p);
    const __m512i x1 = _mm512_load_si512(p + 8);
    const __mmask16 m =
        _mm512_kunpackb(_mm512_cmplt_epu64_mask(x1, vk), _mm512_cmplt_epu64_mask(x0, vk));
    return static_cast<unsigned>(__builtin_popcount(_cvtmask16_u32(m)));
  }
  static unsigned lt32(const std::uint32_t* p, std::uint32_t k) {
    const __m512i vk = _mm512_set1_epi32(static_cast<int>(k));
    const __m512i x0 = _mm512_load_si512(p);
    const __m512i x1 = _mm512_load_si512(p + 16);
    const __mmask32 m =
        _mm512_kunpackw(_mm512_cmplt_epu32_mask(x1, vk), _mm512_cmplt_epu32_mask(x0, vk));
    return static_cast<unsigned>(__builtin_popcount(_cvtmask32_u32(m)));
  }
  static unsigned lt16(const std::uint16_t* p, std::uint16_t k) {
    const __m512i vk = _mm512_set1_epi16(static_cast<short>(k));
    const __m512i x0 = _mm512_load_si512(p);
    const __m512i x1 = _mm512_load_si512(p + 32);
    const __mmask64 m =
        _mm512_kunpackd(_mm512_cmplt_epu16_mask(x1, vk), _mm512_cmplt_epu16_mask(x0, vk));
    return static_cast<unsigned>(__builtin_popcountll(_cvtmask64_u64(m)));
  }
  // Range scans: writes the keys of the used slots (bit i of `used`, 16 slots of 64 bits) that
  // lie in [lo, hi) to out[0..n), ascending, and returns n; *past_end: a used slot holds a key
  // >= hi. One compare pair and one register compress per half leaf instead of a loop over the
  // slots (the compress goes to a register and a plain store: compress-to-memory is microcoded
  // on AMD Zen 4). Writes out[0..15] at most.
  static unsigned collect64(const std::uint64_t* p, std::uint64_t used, std::uint64_t lo,
                            std::uint64_t hi, std::uint64_t* out, bool* past_end) {
    const __m512i vlo = _mm512_set1_epi64(static_cast<long long>(lo));
    const __m512i vhi = _mm512_set1_epi64(static_cast<long long>(hi));
    const __m512i x0 = _mm512_load_si512(p);
    const __m512i x1 = _mm512_load_si512(p + 8);
    // Masks joined at full width with KUNPCK, as in lt64 (see the note above).
    const std::uint32_t ge_lo = _cvtmask16_u32(
        _mm512_kunpackb(_mm512_cmpge_epu64_mask(x1, vlo), _mm512_cmpge_epu64_mask(x0, vlo)));
    const std::uint32_t ge_hi = _cvtmask16_u32(
        _mm512_kunpackb(_mm512_cmpge_epu64_mask(x1, vhi), _mm512_cmpge_epu64_mask(x0, vhi)));
    const std::uint32_t u = static_cast<std::uint32_t>(used & 0xFFFFu);
    const std::uint32_t in = ge_lo & ~ge_hi & u;
    *past_end = (ge_hi & u) != 0;
    const unsigned n0 = static_cast<unsigned>(__builtin_popcount(in & 0xFFu));
    _mm512_storeu_si512(out, _mm512_maskz_compress_epi64(static_cast<__mmask8>(in), x0));
    _mm512_storeu_si512(out + n0, _mm512_maskz_compress_epi64(static_cast<__mmask8>(in >> 8), x1));
    return n0 + static_cast<unsigned>(__builtin_popcount(in >> 8));
  }
  // One leaf's new key block after an insert (see leaf_shift_insert): slot i takes slot i-1
  // (bit i of take_left), slot i+1 (bit i of take_right) or itself, then d goes to `target`.
  // Per 128-byte block of 16, 32 or 64 slots: two two-source permutes and two masked moves, no
  // branch. `out` may be `in`.
  static void shift(const std::uint64_t* in, std::uint64_t* out, std::uint64_t take_left,
                    std::uint64_t take_right, unsigned target, std::uint64_t d) {
    const __m512i x0 = _mm512_load_si512(in);
    const __m512i x1 = _mm512_load_si512(in + 8);
    const __m512i one = _mm512_set1_epi64(1);
    __m512i i0 = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
    __m512i i1 = _mm512_set_epi64(15, 14, 13, 12, 11, 10, 9, 8);
    i0 = _mm512_mask_sub_epi64(i0, static_cast<__mmask8>(take_left), i0, one);
    i1 = _mm512_mask_sub_epi64(i1, static_cast<__mmask8>(take_left >> 8), i1, one);
    i0 = _mm512_mask_add_epi64(i0, static_cast<__mmask8>(take_right), i0, one);
    i1 = _mm512_mask_add_epi64(i1, static_cast<__mmask8>(take_right >> 8), i1, one);
    const __m512i dk = _mm512_set1_epi64(static_cast<long long>(d));
    const std::uint64_t at = std::uint64_t{1} << target;
    _mm512_store_si512(out, _mm512_mask_mov_epi64(_mm512_permutex2var_epi64(x0, i0, x1),
                                                  static_cast<__mmask8>(at), dk));
    _mm512_store_si512(out + 8, _mm512_mask_mov_epi64(_mm512_permutex2var_epi64(x0, i1, x1),
                                                      static_cast<__mmask8>(at >> 8), dk));
  }
  static void shift(const std::uint32_t* in, std::uint32_t* out, std::uint64_t take_left,
                    std::uint64_t take_right, unsigned target, std::uint32_t d) {
    const __m512i x0 = _mm512_load_si512(in);
    const __m512i x1 = _mm512_load_si512(in + 16);
    const __m512i one = _mm512_set1_epi32(1);
    __m512i i0 = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    __m512i i1 = _mm512_add_epi32(i0, _mm512_set1_epi32(16));
    i0 = _mm512_mask_sub_epi32(i0, static_cast<__mmask16>(take_left), i0, one);
    i1 = _mm512_mask_sub_epi32(i1, static_cast<__mmask16>(take_left >> 16), i1, one);
    i0 = _mm512_mask_add_epi32(i0, static_cast<__mmask16>(take_right), i0, one);
    i1 = _mm512_mask_add_epi32(i1, static_cast<__mmask16>(take_right >> 16), i1, one);
    const __m512i dk = _mm512_set1_epi32(static_cast<int>(d));
    const std::uint64_t at = std::uint64_t{1} << target;
    _mm512_store_si512(out, _mm512_mask_mov_epi32(_mm512_permutex2var_epi32(x0, i0, x1),
                                                  static_cast<__mmask16>(at), dk));
    _mm512_store_si512(out + 16, _mm512_mask_mov_epi32(_mm512_permutex2var_epi32(x0, i1, x1),
                                                       static_cast<__mmask16>(at >> 16), dk));
  }
  static void shift(const std::uint16_t* in, std::uint16_t* out, std::uint64_t take_left,
                    std::uint64_t take_right, unsigned target, std::uint16_t d) {
    alignas(64) static constexpr std::uint16_t kIota[64] = {
        0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
        22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
        44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};
    const __m512i x0 = _mm512_load_si512(in);
    const __m512i x1 = _mm512_load_si512(in + 32);
    const __m512i one = _mm512_set1_epi16(1);
    __m512i i0 = _mm512_load_si512(kIota);
    __m512i i1 = _mm512_load_si512(kIota + 32);
    i0 = _mm512_mask_sub_epi16(i0, static_cast<__mmask32>(take_left), i0, one);
    i1 = _mm512_mask_sub_epi16(i1, static_cast<__mmask32>(take_left >> 32), i1, one);
    i0 = _mm512_mask_add_epi16(i0, static_cast<__mmask32>(take_right), i0, one);
    i1 = _mm512_mask_add_epi16(i1, static_cast<__mmask32>(take_right >> 32), i1, one);
    const __m512i dk = _mm512_set1_epi16(static_cast<short>(d));
    const std::uint64_t at = std::uint64_t{1} << target;
    _mm512_store_si512(out, _mm512_mask_mov_epi16(_mm512_permutex2var_epi16(x0, i0, x1),
                                                  static_cast<__mmask32>(at), dk));
    _mm512_store_si512(out + 32, _mm512_mask_mov_epi16(_mm512_permutex2var_epi16(x0, i1, x1),
                                                       static_cast<__mmask32>(at >> 32), dk));
  }
  // Split of a full leaf (16 sorted keys, no gaps) plus `key`, which goes at position `pos`
  // (= keys < key): the 17 keys a[0..17) go 9 to `left` and 8 to `right`, spread like
  // write_leaf spreads them (left: keys at slots {0,1,3,5,7,8,10,12,14}; right: even slots), each
  // gap holding the next key, the filler after the last. Slot s of a leaf takes a[rank(s)], the
  // rank being fixed by the layout; a[r] is in[r] below pos, key at pos, in[r - 1] above. So each
  // output vector is one two-source permute plus two masked moves. Returns a[9], the separator.
  // `left` may be `in`.
  static std::uint64_t split64(const std::uint64_t* in, std::uint64_t* left, std::uint64_t* right,
                               unsigned pos, std::uint64_t key) {
    const __m512i x0 = _mm512_load_si512(in);
    const __m512i x1 = _mm512_load_si512(in + 8);
    const __m512i vpos = _mm512_set1_epi64(pos);
    const __m512i one = _mm512_set1_epi64(1);
    const __m512i vkey = _mm512_set1_epi64(static_cast<long long>(key));
    const __m512i vmax = _mm512_set1_epi64(-1);
    auto half = [&](__m512i rank, __m512i limit) {
      __m512i idx = _mm512_mask_sub_epi64(rank, _mm512_cmpgt_epu64_mask(rank, vpos), rank, one);
      __m512i v = _mm512_permutex2var_epi64(x0, idx, x1);
      v = _mm512_mask_mov_epi64(v, _mm512_cmpeq_epu64_mask(rank, vpos), vkey);
      return _mm512_mask_mov_epi64(v, _mm512_cmpge_epu64_mask(rank, limit), vmax);
    };
    const __m512i nine = _mm512_set1_epi64(9), seventeen = _mm512_set1_epi64(17);
    const __m512i l0 = half(_mm512_set_epi64(4, 4, 3, 3, 2, 2, 1, 0), nine);
    const __m512i l1 = half(_mm512_set_epi64(9, 8, 8, 7, 7, 6, 6, 5), nine);
    const __m512i r0 = half(_mm512_set_epi64(13, 12, 12, 11, 11, 10, 10, 9), seventeen);
    const __m512i r1 = half(_mm512_set_epi64(17, 16, 16, 15, 15, 14, 14, 13), seventeen);
    const std::uint64_t sep = pos > 9 ? in[9] : pos == 9 ? key : in[8];
    _mm512_store_si512(left, l0);
    _mm512_store_si512(left + 8, l1);
    _mm512_store_si512(right, r0);
    _mm512_store_si512(right + 8, r1);
    return sep;
  }
  // The block with the slots in `mask` set to `value` (an erase). `out` may be `in`.
  static void fill(const std::uint64_t* in, std::uint64_t* out, std::uint64_t mask,
                   std::uint64_t value) {
    const __m512i v = _mm512_set1_epi64(static_cast<long long>(value));
    _mm512_store_si512(
        out, _mm512_mask_mov_epi64(_mm512_load_si512(in), static_cast<__mmask8>(mask), v));
    _mm512_store_si512(out + 8, _mm512_mask_mov_epi64(_mm512_load_si512(in + 8),
                                                      static_cast<__mmask8>(mask >> 8), v));
  }
  static void fill(const std::uint32_t* in, std::uint32_t* out, std::uint64_t mask,
                   std::uint32_t value) {
    const __m512i v = _mm512_set1_epi32(static_cast<int>(value));
    _mm512_store_si512(
        out, _mm512_mask_mov_epi32(_mm512_load_si512(in), static_cast<__mmask16>(mask), v));
    _mm512_store_si512(out + 16, _mm512_mask_mov_epi32(_mm512_load_si512(in + 16),
                                                       static_cast<__mmask16>(mask >> 16), v));
  }
  static void fill(const std::uint16_t* in, std::uint16_t* out, std::uint64_t mask,
                   std::uint16_t value) {
    const __m512i v = _mm512_set1_epi16(static_cast<short>(value));
    _mm512_store_si512(
        out, _mm512_mask_mov_epi16(_mm512_load_si512(in), static_cast<__mmask32>(mask), v));
    _mm512_store_si512(out + 32, _mm512_mask_mov_epi16(_mm512_load_si512(in + 32),
                                                       static_cast<__mmask32>(mask >> 32), v));
  }
};
#include <warpgraph/containers/bstree/detail/ops.inl>
#include <warpgraph/containers/bstree/detail/ops_write.inl>
}  // namespace wg::bstree::detail::isa_avx512
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif  // __x86_64__

namespace wg::bstree::detail {
const OpsTable* ops_for(SimdPath path, bool compressed, bool concurrent) {
#if defined(__x86_64__)
  if (path == SimdPath::avx512) return isa_avx512::ops_table(compressed, concurrent);
  if (path == SimdPath::avx2) return isa_avx2::ops_table(compressed, concurrent);
#endif
  return isa_scalar::ops_table(compressed, concurrent);
}

namespace {
template <class Kernels>
unsigned count_less_with(unsigned key_bits, const void* block, std::uint64_t key) {
  switch (key_bits) {
    case 16:
      return Kernels::lt16(static_cast<const std::uint16_t*>(block),
                           static_cast<std::uint16_t>(key));
    case 32:
      return Kernels::lt32(static_cast<const std::uint32_t*>(block),
                           static_cast<std::uint32_t>(key));
    default:
      return Kernels::lt64(static_cast<const std::uint64_t*>(block), key);
  }
}
}  // namespace

unsigned count_less_for_testing(SimdPath path, unsigned key_bits, const void* block,
                                std::uint64_t key) {
#if defined(__x86_64__)
  if (path == SimdPath::avx512) return count_less_with<isa_avx512::Kernels>(key_bits, block, key);
  if (path == SimdPath::avx2) return count_less_with<isa_avx2::Kernels>(key_bits, block, key);
#endif
  return count_less_with<isa_scalar::Kernels>(key_bits, block, key);
}
}  // namespace wg::bstree::detail
