#pragma once
// FreeIdQueue: the erased vertex ids of a GPU graph, waiting on the device to be handed out
// again, earliest erased first. An id is in it at most once, so it never needs more slots than
// the id range. push() is stream-ordered; take() synchronises (it returns the ids on the host).
// O(k) per call for k ids; the slots grow by doubling (the queue is re-laid from slot 0).
#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/core/types.hpp>

namespace wg::gpu {

class FreeIdQueue {
 public:
  explicit FreeIdQueue(cudaStream_t stream = 0) : stream_(stream) {}

  std::uint64_t size() const noexcept { return tail_ - head_; }
  void clear() noexcept { head_ = tail_ = 0; }
  /// Appends k device ids (stream-ordered).
  void push(const vertex_t* ids_device, std::uint64_t k);
  /// Takes the n earliest ids: calls revive(run, length) for the (at most two) device runs that
  /// hold them, so the caller marks them live on the device, and returns them on the host.
  template <class Revive>
  std::vector<vertex_t> take(std::uint64_t n, Revive&& revive) {
    std::vector<vertex_t> out(n);
    if (n == 0) return out;
    copy(head_, n, out.data(), cudaMemcpyDeviceToHost);
    const Runs r = runs(head_, n);
    for (int j = 0; j < 2; ++j)
      if (r.len[j]) revive(static_cast<const vertex_t*>(r.at[j]), r.len[j]);
    WG_CUDA_TRY(cudaStreamSynchronize(stream_));
    head_ += n;
    return out;
  }

 private:
  /// The slots of positions from .. from + n - 1: one or two runs (the second when they wrap
  /// around the end), as {first slot, length}.
  struct Runs {
    vertex_t* at[2];
    std::uint64_t len[2];
  };
  Runs runs(std::uint64_t from, std::uint64_t n);
  /// Copies n queued ids from queue position `from` to `to`.
  void copy(std::uint64_t from, std::uint64_t n, vertex_t* to, cudaMemcpyKind kind);

  cudaStream_t stream_ = 0;
  DeviceBuffer<vertex_t> slots_;
  std::uint64_t head_ = 0, tail_ = 0;  // positions, modulo slots_.size()
};

}  // namespace wg::gpu
