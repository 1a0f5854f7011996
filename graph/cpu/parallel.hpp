#pragma once
// Fork-join loops of the CPU backend and its algorithms: parallel_chunks / parallel_for split
// [0, n) into contiguous chunks, one per thread; parallel_dynamic hands out blocks of indices
// from a shared counter (skewed work); parallel_sort sorts in chunks and merges pairwise.
// Threads are started per call and joined before it returns, so a call costs a thread start
// per worker: meant for work done once or twice per batch. Small inputs run on the calling
// thread. An exception thrown by f on any thread is rethrown by the call after the join.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

namespace wg::cpu {

/// Number of worker threads to use when the caller asked for `requested`: 0 means all cores
/// (std::thread::hardware_concurrency(), at least 1).
inline unsigned resolve_threads(unsigned requested) {
  if (requested) return requested;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw ? hw : 1;
}

/// Calls f(begin, end, chunk_index) on `chunks` contiguous pieces of [0, n) at once, one thread
/// per piece (the caller's thread runs the first). Exceptions are rethrown after the join.
template <class F>
void parallel_chunks(std::size_t n, unsigned chunks, F&& f) {
  if (chunks <= 1 || n <= 1) {
    f(std::size_t{0}, n, 0u);
    return;
  }
  chunks = static_cast<unsigned>(std::min<std::size_t>(chunks, n));
  std::vector<std::exception_ptr> errors(chunks);
  std::vector<std::thread> threads;
  threads.reserve(chunks - 1);
  auto bound = [&](unsigned c) { return n * c / chunks; };
  for (unsigned c = 1; c < chunks; ++c) {
    threads.emplace_back([&, c] {
      try {
        f(bound(c), bound(c + 1), c);
      } catch (...) {
        errors[c] = std::current_exception();
      }
    });
  }
  try {
    f(bound(0), bound(1), 0u);
  } catch (...) {
    errors[0] = std::current_exception();
  }
  for (auto& t : threads) t.join();
  for (auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

/// parallel_chunks with the thread count reduced so that each chunk has at least `grain`
/// items (small inputs stay on the calling thread).
template <class F>
void parallel_for(std::size_t n, unsigned threads, std::size_t grain, F&& f) {
  const std::size_t by_grain = grain ? std::max<std::size_t>(1, n / grain) : n;
  const unsigned chunks = static_cast<unsigned>(std::min<std::size_t>(threads, by_grain));
  parallel_chunks(n, chunks, std::forward<F>(f));
}

/// Dynamic scheduling for skewed work (triangle counting over power-law degrees): threads take
/// blocks of `block` indices from a shared counter and call f(i, thread_index) for each.
template <class F>
void parallel_dynamic(std::size_t n, unsigned threads, std::size_t block, F&& f) {
  if (threads <= 1 || n <= block) {
    for (std::size_t i = 0; i < n; ++i) f(i, 0u);
    return;
  }
  std::atomic<std::size_t> next{0};
  parallel_chunks(threads, threads, [&](std::size_t, std::size_t, unsigned t) {
    for (;;) {
      const std::size_t begin = next.fetch_add(block, std::memory_order_relaxed);
      if (begin >= n) break;
      const std::size_t end = std::min(n, begin + block);
      for (std::size_t i = begin; i < end; ++i) f(i, t);
    }
  });
}

/// Sorts [first, last) with `threads` threads: chunks sorted in parallel, then merged pairwise
/// (each level of merges in parallel).
template <class It, class Less = std::less<>>
void parallel_sort(It first, It last, unsigned threads, Less less = {}) {
  const std::size_t n = static_cast<std::size_t>(last - first);
  const unsigned chunks =
      static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(1, n / 65536)));
  if (chunks <= 1) {
    std::sort(first, last, less);
    return;
  }
  std::vector<std::size_t> bounds(chunks + 1);
  for (unsigned c = 0; c <= chunks; ++c) bounds[c] = n * c / chunks;
  parallel_chunks(chunks, chunks, [&](std::size_t b, std::size_t e, unsigned) {
    for (std::size_t c = b; c < e; ++c) std::sort(first + bounds[c], first + bounds[c + 1], less);
  });
  while (bounds.size() > 2) {
    const std::size_t pairs = (bounds.size() - 1) / 2;
    parallel_chunks(pairs, static_cast<unsigned>(pairs),
                    [&](std::size_t b, std::size_t e, unsigned) {
                      for (std::size_t p = b; p < e; ++p) {
                        std::inplace_merge(first + bounds[2 * p], first + bounds[2 * p + 1],
                                           first + bounds[2 * p + 2], less);
                      }
                    });
    std::vector<std::size_t> merged;
    for (std::size_t i = 0; i < bounds.size(); i += 2) merged.push_back(bounds[i]);
    if (merged.back() != bounds.back()) merged.push_back(bounds.back());
    bounds.swap(merged);
  }
}

}  // namespace wg::cpu
