#pragma once
// Frontiers of the GPU traversal operators (advance.cuh): a vertex queue whose length lives on
// the device, so an operator can append to it and the next one read it with no host step.
//
//   FrontierIn   what an operator reads: items[0 .. size) (every id below size when items is
//                null: all_vertices), the size from *device_size when set (launched before the
//                host knows it), else the host's `size`.
//   FrontierOut  where an operator appends: items[atomicAdd(size, k)], optionally adding the
//                out-degrees of what it appended to *arcs (direction heuristics).
//   Frontier     the owning double buffer: current() is read, next() appended to, swap()
//                between levels. Sizes stay with the caller's counters, which it reads in the
//                same copy as its other words (one host round trip per level at most).
//
// Complexity: O(1) per access; the buffers hold `capacity` ids each.
#include <cstdint>
#include <utility>

#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/core/types.hpp>

namespace wg::gpu::ops {

/// A frontier as an operator reads it.
struct FrontierIn {
  const vertex_t* items = nullptr;                  ///< null: the ids 0 .. size - 1
  std::uint64_t size = 0;                           ///< used when device_size is null
  const unsigned long long* device_size = nullptr;  ///< read on the device when set

  __device__ std::uint64_t count() const { return device_size ? *device_size : size; }
};

/// Every id in [0, n) as a frontier.
inline FrontierIn all_vertices(std::uint64_t n) {
  return {nullptr, n, nullptr};
}

/// A frontier as an operator appends to it (*size counts the appended ids).
struct FrontierOut {
  vertex_t* items = nullptr;
  unsigned long long* size = nullptr;
  unsigned long long* arcs = nullptr;  ///< when set: += degree of each appended vertex
};

/// Two device queues of `capacity` ids: the frontier being read and the one being built.
class Frontier {
 public:
  Frontier() = default;
  Frontier(std::uint64_t capacity, cudaStream_t stream, const char* what)
      : current_(capacity, stream, what), next_(capacity, stream, what) {}

  vertex_t* current() { return current_.data(); }
  vertex_t* next() { return next_.data(); }
  FrontierIn in(std::uint64_t size) const { return {current_.data(), size, nullptr}; }
  FrontierIn in_device(const unsigned long long* size) const { return {current_.data(), 0, size}; }
  FrontierOut out(unsigned long long* size, unsigned long long* arcs = nullptr) {
    return {next_.data(), size, arcs};
  }
  /// The built frontier becomes the one read.
  void swap() { std::swap(current_, next_); }

 private:
  DeviceBuffer<vertex_t> current_, next_;
};

}  // namespace wg::gpu::ops
