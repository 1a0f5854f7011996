#pragma once
// Internal: counter-based random numbers (SplitMix64), identical on every platform, and a
// parallel-for over index ranges. Entry i of a generated graph depends only on (seed, i), so the
// output does not depend on the number of threads.
#include <algorithm>
#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

namespace wg::datasets::detail {

/// SplitMix64 finaliser: a bijective 64-bit mix.
constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// Sequential SplitMix64 generator.
struct SplitMix64 {
  std::uint64_t state;
  constexpr std::uint64_t next() { return mix64(state += 0x9e3779b97f4a7c15ull); }
  /// Uniform in [0, n) (n > 0) by multiply-high: bias below 2^-32 for n < 2^32.
  std::uint64_t below(std::uint64_t n) {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }
  /// Uniform double in [0, 1) from the top 53 bits.
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
};

/// Counter-based stream for item `index` of a run with key `seed`.
constexpr SplitMix64 stream_for(std::uint64_t seed, std::uint64_t index) {
  return SplitMix64{mix64(seed * 0xd1342543de82ef95ull + 0x2545f4914f6cdd1dull) ^
                    mix64(index + 0x632be59bd9b4e019ull)};
}

/// Calls body(begin, end) on [0, n) split over the hardware threads (exceptions rethrown).
template <class Body>
void parallel_for(std::uint64_t n, const Body& body, std::uint64_t min_per_thread = 1 << 16) {
  unsigned hw = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  std::uint64_t t = std::max<std::uint64_t>(1, std::min<std::uint64_t>(hw, n / min_per_thread));
  if (t == 1) {
    body(std::uint64_t{0}, n);
    return;
  }
  std::vector<std::thread> threads;
  std::vector<std::exception_ptr> errors(t);
  for (std::uint64_t k = 0; k < t; ++k)
    threads.emplace_back([&, k] {
      try {
        body(n * k / t, n * (k + 1) / t);
      } catch (...) {
        errors[k] = std::current_exception();
      }
    });
  for (auto& th : threads) th.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace wg::datasets::detail
