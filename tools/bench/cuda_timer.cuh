#pragma once
// CUDA-event timing for the benchmark harness (tools/bench/harness.hpp):
//
//   wg::bench::Series s = wg::bench::measure({.warmup = 2, .repetitions = 9}, [&] {
//     reset_untimed();                                   // set-up outside the timed region
//     return wg::bench::cuda_seconds(stream, [&] { launch(stream); });
//   });
//
// The events bracket exactly the work enqueued on `stream` by fn; the call synchronises on the
// stop event. Benchmarks should also set CUDA_MODULE_LOADING=EAGER or rely on the warm-up runs
// (CUDA 13 loads kernels lazily: the first launch of each kernel is slow).
#include <cuda_runtime_api.h>

#include <string>
#include <utility>

#include <warpgraph/containers/core/cuda_error.cuh>

namespace wg::bench {

/// A pair of CUDA events; reusable.
class CudaTimer {
 public:
  CudaTimer() {
    WG_CUDA_TRY(cudaEventCreate(&start_));
    WG_CUDA_TRY(cudaEventCreate(&stop_));
  }
  ~CudaTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  CudaTimer(const CudaTimer&) = delete;
  CudaTimer& operator=(const CudaTimer&) = delete;

  void start(cudaStream_t stream) { WG_CUDA_TRY(cudaEventRecord(start_, stream)); }
  /// Records the stop event, waits for it, returns the seconds since start().
  double stop(cudaStream_t stream) {
    WG_CUDA_TRY(cudaEventRecord(stop_, stream));
    WG_CUDA_TRY(cudaEventSynchronize(stop_));
    float ms = 0;
    WG_CUDA_TRY(cudaEventElapsedTime(&ms, start_, stop_));
    return ms * 1e-3;
  }

 private:
  cudaEvent_t start_{}, stop_{};
};

/// Seconds of the GPU work fn enqueues on `stream` (synchronises).
template <class F>
double cuda_seconds(cudaStream_t stream, F&& fn) {
  static thread_local CudaTimer timer;
  timer.start(stream);
  std::forward<F>(fn)();
  return timer.stop(stream);
}

/// Name of the current CUDA device (for reports).
inline std::string gpu_name() {
  int dev = 0;
  cudaDeviceProp p{};
  if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&p, dev) != cudaSuccess)
    return "unknown GPU";
  return p.name;
}

}  // namespace wg::bench
