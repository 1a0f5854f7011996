#pragma once
// A small RAII array in GPU memory, allocated stream-ordered (cudaMallocAsync: the driver's pool
// makes the per-batch scratch of the graph cheap to allocate again and again). Running out of
// GPU memory throws wg::CapacityError naming the request and the free memory, never crashes.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/error.hpp>

namespace wg::gpu {

/// Free and total GPU memory in bytes (cudaMemGetInfo), after returning the stream-ordered pool's
/// unused memory to the device so that the figure is what a new allocation can get.
inline std::pair<std::size_t, std::size_t> gpu_memory_info() {
  int dev = 0;
  WG_CUDA_TRY(cudaGetDevice(&dev));
  cudaMemPool_t pool;
  if (cudaDeviceGetDefaultMemPool(&pool, dev) == cudaSuccess) {
    WG_CUDA_TRY(cudaDeviceSynchronize());
    (void)cudaMemPoolTrimTo(pool, 0);
  }
  std::size_t free_b = 0, total_b = 0;
  WG_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
  return {free_b, total_b};
}

namespace detail {
[[noreturn]] inline void throw_out_of_memory(const char* what, std::size_t bytes) {
  (void)cudaGetLastError();  // clear the sticky-free allocation error
  std::size_t free_b = 0, total_b = 0;
  (void)cudaMemGetInfo(&free_b, &total_b);
  throw CapacityError("GPU memory", total_b,
                      std::string(what) + ": cannot allocate " + std::to_string(bytes >> 20) +
                          " MiB (" + std::to_string(free_b >> 20) + " MiB free of " +
                          std::to_string(total_b >> 20) + " MiB)");
}
}  // namespace detail

template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(std::size_t n, cudaStream_t stream = 0, const char* what = "DeviceArray")
      : stream_(stream) {
    resize_discard(n, what);
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  DeviceArray(DeviceArray&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)),
        size_(std::exchange(o.size_, 0)),
        capacity_(std::exchange(o.capacity_, 0)),
        stream_(o.stream_) {}
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    if (this != &o) {
      release();
      ptr_ = std::exchange(o.ptr_, nullptr);
      size_ = std::exchange(o.size_, 0);
      capacity_ = std::exchange(o.capacity_, 0);
      stream_ = o.stream_;
    }
    return *this;
  }
  ~DeviceArray() { release(); }

  /// Makes room for n elements; old contents are lost when it reallocates.
  void resize_discard(std::size_t n, const char* what = "DeviceArray") {
    if (n <= capacity_ && ptr_) {
      size_ = n;
      return;
    }
    release();
    if (n == 0) return;
    void* p = nullptr;
    cudaError_t err = cudaMallocAsync(&p, n * sizeof(T), stream_);
    if (err == cudaErrorMemoryAllocation) detail::throw_out_of_memory(what, n * sizeof(T));
    WG_CUDA_TRY(err);
    ptr_ = static_cast<T*>(p);
    size_ = capacity_ = n;
  }
  void release() noexcept {
    if (ptr_) (void)cudaFreeAsync(ptr_, stream_);
    ptr_ = nullptr;
    size_ = capacity_ = 0;
  }

  T* data() noexcept { return ptr_; }
  const T* data() const noexcept { return ptr_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  bool empty() const noexcept { return size_ == 0; }
  cudaStream_t stream() const noexcept { return stream_; }

  void copy_from_host(const T* src, std::size_t n, std::size_t offset = 0) {
    WG_CUDA_TRY(
        cudaMemcpyAsync(ptr_ + offset, src, n * sizeof(T), cudaMemcpyHostToDevice, stream_));
  }
  std::vector<T> to_host() const { return to_host(size_); }
  std::vector<T> to_host(std::size_t n) const {
    std::vector<T> out(n);
    if (n) {
      WG_CUDA_TRY(
          cudaMemcpyAsync(out.data(), ptr_, n * sizeof(T), cudaMemcpyDeviceToHost, stream_));
      WG_CUDA_TRY(cudaStreamSynchronize(stream_));
    }
    return out;
  }
  static DeviceArray from_host(const std::vector<T>& v, cudaStream_t stream = 0) {
    DeviceArray a(v.size(), stream);
    if (!v.empty()) a.copy_from_host(v.data(), v.size());
    return a;
  }

 private:
  T* ptr_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  cudaStream_t stream_ = 0;
};

}  // namespace wg::gpu
