#pragma once
// Internal: runs a line parser over a text split into chunks at line boundaries, one thread per
// chunk, and locates the first error by absolute line number. Each chunk state must have:
//   std::uint64_t lines;        // lines scanned by the chunk
//   std::uint64_t error_line;   // 1-based line within the chunk of its first error, 0 if none
//   std::string error;          // the problem
// parse(state, begin, end, bytes_done) scans [begin, end) and adds to bytes_done now and then.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <warpgraph/datasets/detail/read_cancel.hpp>
#include <warpgraph/datasets/read_graph.hpp>

namespace wg::datasets::detail {

/// How texts are split: one chunk per `min_chunk_bytes`, at most `max_threads` chunks (0: the
/// hardware threads, at most 8). Tests and fuzzers shrink it to exercise the chunked path on
/// small inputs; not meant to be changed while a read is running.
struct ChunkPolicy {
  std::size_t min_chunk_bytes = std::size_t{16} << 20;
  unsigned max_threads = 0;
  /// Segment size when the chunks are handed over in order while later ones parse
  /// (parse_in_segments): small enough that the consumer starts early.
  std::size_t stream_segment_bytes = std::size_t{8} << 20;
};
inline ChunkPolicy& chunk_policy() {
  static ChunkPolicy policy;
  return policy;
}

/// Chunks (threads) used for a text of `bytes` bytes.
inline unsigned parse_threads(std::size_t bytes) {
  const ChunkPolicy& p = chunk_policy();
  unsigned hw = p.max_threads ? p.max_threads
                              : std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
  std::size_t by_size = bytes / std::max<std::size_t>(1, p.min_chunk_bytes);
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(hw, by_size)));
}

/// progress(done, total) is called from the calling thread only, with done in [0, text size].
template <class State, class Parse>
std::vector<State> parse_in_chunks(const char* begin, const char* end, const Parse& parse,
                                   const ProgressFn& progress) {
  const std::size_t size = static_cast<std::size_t>(end - begin);
  const unsigned n = parse_threads(size);
  std::vector<const char*> cuts{begin};
  for (unsigned i = 1; i < n; ++i) {
    const char* guess = begin + size * i / n;
    if (guess < cuts.back()) guess = cuts.back();
    const void* nl = std::memchr(guess, '\n', static_cast<std::size_t>(end - guess));
    cuts.push_back(nl ? static_cast<const char*>(nl) + 1 : end);
  }
  cuts.push_back(end);

  std::vector<State> states(n);
  std::atomic<std::uint64_t> bytes_done{0};
  if (n == 1) {
    parse(states[0], cuts[0], cuts[1], bytes_done);
    return states;
  }
  std::vector<std::exception_ptr> failures(n);
  std::atomic<unsigned> running{n - 1};
  std::vector<std::thread> workers;
  workers.reserve(n - 1);
  const std::atomic<bool>* const cancel = read_cancel;
  for (unsigned i = 1; i < n; ++i)
    workers.emplace_back([&, i] {
      const CancelScope scope(cancel);
      try {
        parse(states[i], cuts[i], cuts[i + 1], bytes_done);
      } catch (...) {
        failures[i] = std::current_exception();
      }
      running.fetch_sub(1);
    });
  try {
    parse(states[0], cuts[0], cuts[1], bytes_done);
  } catch (...) {
    failures[0] = std::current_exception();
  }
  while (progress && running.load() > 0) {
    progress(std::min<std::uint64_t>(bytes_done.load(), size), size);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (auto& w : workers) w.join();
  for (auto& f : failures)
    if (f) std::rethrow_exception(f);
  return states;
}

/// parse_in_chunks with the text cut into segments of chunk_policy().stream_segment_bytes, parsed
/// by a pool of threads, and ready(state) called on the calling thread for each segment in
/// order as soon as it and those before it are parsed, up to the first segment with an error
/// (included: its state holds what was parsed before the bad line). Returns every segment's
/// state, in order, for the same post-processing as parse_in_chunks'. An exception from ready()
/// stops the parse and is rethrown once the threads have stopped.
template <class State, class Parse, class Ready>
std::vector<State> parse_in_segments(const char* begin, const char* end, const Parse& parse,
                                     const Ready& ready, const ProgressFn& progress) {
  const std::size_t size = static_cast<std::size_t>(end - begin);
  const std::size_t step = std::max<std::size_t>(1, chunk_policy().stream_segment_bytes);
  std::vector<const char*> cuts{begin};
  while (static_cast<std::size_t>(end - cuts.back()) > step) {
    const char* guess = cuts.back() + step;
    const void* nl = std::memchr(guess, '\n', static_cast<std::size_t>(end - guess));
    if (!nl || static_cast<const char*>(nl) + 1 == end) break;
    cuts.push_back(static_cast<const char*>(nl) + 1);
  }
  cuts.push_back(end);
  const std::size_t n = cuts.size() - 1;
  const ChunkPolicy& p = chunk_policy();
  const unsigned hw = p.max_threads
                          ? p.max_threads
                          : std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
  const auto threads = static_cast<unsigned>(std::min<std::size_t>(hw, n));

  std::vector<State> states(n);
  std::vector<std::exception_ptr> failures(n);
  std::vector<char> done(n, 0);  // under m
  std::mutex m;
  std::condition_variable cv;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> bytes_done{0};
  std::vector<std::thread> workers;
  workers.reserve(threads);
  const std::atomic<bool>* const cancel = read_cancel;
  for (unsigned t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      const CancelScope scope(cancel);
      for (std::size_t i; !stop.load() && (i = next.fetch_add(1)) < n;) {
        try {
          parse(states[i], cuts[i], cuts[i + 1], bytes_done);
        } catch (...) {
          failures[i] = std::current_exception();
        }
        {
          std::lock_guard lock(m);
          done[i] = 1;
        }
        cv.notify_all();
      }
    });
  }
  std::exception_ptr failure;
  bool delivering = true;
  for (std::size_t i = 0; i < n && !failure; ++i) {
    {
      std::unique_lock lock(m);
      while (!done[i]) {
        cv.wait_for(lock, std::chrono::milliseconds(10));
        if (progress && !done[i]) {
          lock.unlock();
          progress(std::min<std::uint64_t>(bytes_done.load(), size), size);
          lock.lock();
        }
      }
    }
    if (failures[i]) {
      failure = failures[i];
      break;
    }
    if (!delivering) continue;
    try {
      ready(static_cast<const State&>(states[i]));
      poll_cancel();
    } catch (...) {
      failure = std::current_exception();
      break;
    }
    if (states[i].error_line) delivering = false;
  }
  if (failure) stop.store(true);
  for (auto& w : workers) w.join();
  if (failure) std::rethrow_exception(failure);
  return states;
}

/// Index of the first chunk with an error and its absolute line (first_line = line number of
/// the chunks' first line); {states.size(), 0} when none failed.
template <class State>
std::pair<std::size_t, std::uint64_t> first_error(const std::vector<State>& states,
                                                  std::uint64_t first_line) {
  std::uint64_t base = first_line;
  for (std::size_t i = 0; i < states.size(); ++i) {
    if (states[i].error_line) return {i, base + states[i].error_line - 1};
    base += states[i].lines;
  }
  return {states.size(), 0};
}

/// Moves the chunks' vectors (member pointer `field`) into one, in order.
template <class State, class T>
std::vector<T> concat(std::vector<State>& states, std::vector<T> State::*field) {
  std::size_t total = 0;
  for (auto& s : states) total += (s.*field).size();
  if (states.size() == 1) return std::move(states[0].*field);
  std::vector<T> out;
  out.reserve(total);
  for (auto& s : states) {
    out.insert(out.end(), (s.*field).begin(), (s.*field).end());
    std::vector<T>().swap(s.*field);
  }
  return out;
}

}  // namespace wg::datasets::detail
