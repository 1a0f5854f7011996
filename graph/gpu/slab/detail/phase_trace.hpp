#pragma once
// GraphOptions::trace for calls made of phases (build, erase_vertices): the wall time of each
// phase, one line on stderr at the end of the call. The stream is synchronised at every mark,
// only when tracing.
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <string>

namespace wg::gpu::detail {

class PhaseTrace {
 public:
  PhaseTrace(bool on, cudaStream_t stream, const char* call)
      : on_(on), stream_(stream), line_(call) {}
  ~PhaseTrace() {
    if (on_) std::fprintf(stderr, "[%s ]\n", line_.c_str());
  }
  void mark(const char* phase) {
    if (!on_) return;
    (void)cudaStreamSynchronize(stream_);
    const auto now = std::chrono::steady_clock::now();
    char buf[64];
    std::snprintf(buf, sizeof buf, " %s %.3f ms", phase,
                  std::chrono::duration<double, std::milli>(now - last_).count());
    line_ += buf;
    last_ = now;
  }

 private:
  bool on_;
  cudaStream_t stream_;
  std::string line_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace wg::gpu::detail
