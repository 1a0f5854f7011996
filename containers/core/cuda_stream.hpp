#pragma once
// Stream handling: an owning RAII stream and a checked synchronisation helper. Everything in
// warpgraph takes a plain cudaStream_t (0 = the legacy default stream); CudaStream only owns one.
#include <cuda_runtime_api.h>

#include <utility>

#include <warpgraph/containers/core/cuda_error.cuh>

namespace wg {

/// A non-blocking CUDA stream, destroyed with its owner. Converts to cudaStream_t.
class CudaStream {
 public:
  CudaStream() { WG_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~CudaStream() {
    if (stream_) cudaStreamDestroy(stream_);
  }
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  CudaStream(CudaStream&& o) noexcept : stream_(std::exchange(o.stream_, nullptr)) {}
  CudaStream& operator=(CudaStream&& o) noexcept {
    if (this != &o) {
      if (stream_) cudaStreamDestroy(stream_);
      stream_ = std::exchange(o.stream_, nullptr);
    }
    return *this;
  }
  cudaStream_t get() const noexcept { return stream_; }
  operator cudaStream_t() const noexcept { return stream_; }
  void synchronize() const { WG_CUDA_TRY(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_ = nullptr;
};

/// Waits for `stream` and throws wg::CudaError (with the caller's file:line when used through
/// WG_CUDA_TRY) on an asynchronous fault.
inline void synchronize(cudaStream_t stream) {
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
}

}  // namespace wg
