#pragma once
// ReadOptions::cancel inside a read: the calling thread's flag, handed on to the parsing threads,
// polled at every progress tick (every few MiB parsed) and between the blocks read or inflated.
// A poll that finds it set throws CancelRequested, which read_graph turns into wg::Cancelled
// naming the file once every thread has stopped. Not installed with the public headers' API.
#include <atomic>

namespace wg::datasets::detail {

/// The flag of the read running on this thread (null: none).
inline thread_local const std::atomic<bool>* read_cancel = nullptr;

struct CancelRequested {};

inline void poll_cancel() {
  if (read_cancel && read_cancel->load(std::memory_order_relaxed)) throw CancelRequested{};
}

/// Sets this thread's flag for its lifetime (a parsing thread takes its caller's).
class CancelScope {
 public:
  explicit CancelScope(const std::atomic<bool>* flag) : saved_(read_cancel) { read_cancel = flag; }
  ~CancelScope() { read_cancel = saved_; }
  CancelScope(const CancelScope&) = delete;
  CancelScope& operator=(const CancelScope&) = delete;

 private:
  const std::atomic<bool>* saved_;
};

}  // namespace wg::datasets::detail
