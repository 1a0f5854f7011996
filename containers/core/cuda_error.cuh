#pragma once
// CUDA error checking that throws wg::CudaError naming the file and line of the failed call.
//   WG_CUDA_TRY(cudaMalloc(&p, n));
//   kernel<<<g, b, 0, s>>>(...); WG_CUDA_CHECK_LAST();
#include <cuda_runtime_api.h>

#include <string>

#include <warpgraph/containers/core/error.hpp>

namespace wg::detail {
[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char* call, const char* file,
                                          int line) {
  throw CudaError(std::string(file) + ":" + std::to_string(line) + ": " + call + ": " +
                  cudaGetErrorName(err) + ": " + cudaGetErrorString(err));
}
}  // namespace wg::detail

#define WG_CUDA_TRY(call)                                                         \
  do {                                                                            \
    cudaError_t wg_cuda_err_ = (call);                                            \
    if (wg_cuda_err_ != cudaSuccess)                                              \
      ::wg::detail::throw_cuda_error(wg_cuda_err_, #call, __FILE__, __LINE__);    \
  } while (0)

/// After a kernel launch: reports launch-configuration errors at once (asynchronous faults
/// surface at the next synchronising call, which is itself checked).
#define WG_CUDA_CHECK_LAST() WG_CUDA_TRY(cudaGetLastError())
