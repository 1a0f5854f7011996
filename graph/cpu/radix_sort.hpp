#pragma once
// Stable LSD radix sort of the CPU backend and its algorithms, for keys of few significant bits:
// radix_sort(a, key_bits, key) sorts `a` by key(element) < 2^key_bits in ceil(key_bits / 8)
// passes of 256 buckets, O(n) each (a pass whose digit is the same for every key is skipped;
// small inputs use std::stable_sort). Equal keys keep their input order (the graph's
// canonicaliser relies on it for "last weight wins"). Packed arcs (u << 32) | v with ids below a
// bound carry only 2 * id_bits(bound) bits: CompactArcKey maps them to such a key.
#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace wg::cpu {

/// Bits needed by ids below `bound` (at least 1).
inline unsigned id_bits(std::uint64_t bound) {
  return bound <= 2 ? 1u : static_cast<unsigned>(std::bit_width(bound - 1));
}

/// Compacts a packed arc key (u << 32) | v into (u << bits) | v, preserving order.
struct CompactArcKey {
  unsigned bits;
  std::uint64_t operator()(std::uint64_t key) const noexcept {
    return ((key >> 32) << bits) | (key & 0xffffffffu);
  }
};

/// Sorts `a` stably by key(element), where key(element) < 2^key_bits.
template <class T, class KeyFn>
void radix_sort(std::vector<T>& a, unsigned key_bits, KeyFn key) {
  const std::size_t n = a.size();
  if (n < 1024) {
    std::stable_sort(a.begin(), a.end(), [&](const T& x, const T& y) { return key(x) < key(y); });
    return;
  }
  constexpr unsigned kDigitBits = 8;
  constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;
  const unsigned passes = std::max(1u, (key_bits + kDigitBits - 1) / kDigitBits);
  std::vector<std::array<std::size_t, kBuckets>> hist(passes);
  for (auto& h : hist) h.fill(0);
  for (const T& x : a) {
    const std::uint64_t k = key(x);
    for (unsigned p = 0; p < passes; ++p) ++hist[p][(k >> (p * kDigitBits)) & (kBuckets - 1)];
  }
  std::vector<T> tmp(n);
  std::vector<T>* src = &a;
  std::vector<T>* dst = &tmp;
  for (unsigned p = 0; p < passes; ++p) {
    auto& h = hist[p];
    if (std::find(h.begin(), h.end(), n) != h.end()) continue;  // one digit value: no-op pass
    std::size_t sum = 0;
    for (auto& c : h) {
      const std::size_t count = c;
      c = sum;
      sum += count;
    }
    const unsigned shift = p * kDigitBits;
    T* out = dst->data();
    for (const T& x : *src) out[h[(key(x) >> shift) & (kBuckets - 1)]++] = x;
    std::swap(src, dst);
  }
  if (src != &a) a.swap(*src);
}

}  // namespace wg::cpu
