#pragma once
// wg::DeviceBuffer<T>: the one RAII array in GPU memory (for containers, the graph and the
// algorithms alike).
//
// What it is: `size()` trivially copyable elements of T in device memory, allocated and freed
// stream-ordered (cudaMallocAsync / cudaFreeAsync on the buffer's stream, the one given at
// construction): the driver's pool makes per-batch scratch cheap to allocate again and again.
// Move-only; the contents start uninitialised. The memory is usable by later work on the
// buffer's stream, or on any stream after a synchronisation.
//
// API:
//   DeviceBuffer(n, stream = 0, what = "DeviceBuffer")   n elements (`what` names the request in
//                                                        out-of-memory errors)
//   from_host(vector, stream = 0)                        a copy of host data (synchronises)
//   data(), size(), bytes(), capacity(), empty(), stream()
//   resize_discard(n, what)     room for n elements; reuses the allocation when n <= capacity(),
//                               else reallocates (contents lost either way)
//   reserve(n, what)            capacity for n elements, contents kept (a device-to-device copy)
//   release()                   frees the memory now (size and capacity 0)
//   fill_bytes(byte, stream)    every byte of the first size() elements set to `byte`
//   copy_from_host(src, n)                 n elements from the host to the front, on stream()
//   copy_from_host(src, n, stream)         the same on `stream`
//   copy_from_host(src, n, offset, stream) to elements [offset, offset + n)
//   copy_to_host(dst, n, stream)           n elements to the host (asynchronous)
//   to_host() / to_host(n)                 the first size() / n elements as a vector (synchronises
//                                          stream())
//   to_host(stream, n = all)               the same on `stream`
// Errors: running out of GPU memory throws wg::CapacityError naming the request, its size and
// the free memory (never a crash); other CUDA errors wg::CudaError; copies beyond size() throw
// wg::InvalidArgument. Cost: allocation and free are stream-ordered pool operations; copies are
// one cudaMemcpyAsync each.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/error.hpp>

namespace wg {

/// Free and total GPU memory in bytes (cudaMemGetInfo), after returning the stream-ordered pool's
/// unused memory to the device so that the figure is what a new allocation can get
/// (synchronises the device).
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
  (void)cudaGetLastError();  // clear the (non-sticky) allocation error
  std::size_t free_b = 0, total_b = 0;
  (void)cudaMemGetInfo(&free_b, &total_b);
  throw CapacityError("GPU memory", total_b,
                      std::string(what) + ": cannot allocate " + std::to_string(bytes >> 20) +
                          " MiB (" + std::to_string(free_b >> 20) + " MiB free of " +
                          std::to_string(total_b >> 20) + " MiB)");
}
}  // namespace detail

template <class T>
class DeviceBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "DeviceBuffer holds trivially copyable types");

 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t n, cudaStream_t stream = 0, const char* what = "DeviceBuffer")
      : stream_(stream) {
    resize_discard(n, what);
  }
  /// A copy of host data (stream-ordered; `host` must stay alive until the stream reaches it,
  /// so this synchronises: the source is often a temporary).
  static DeviceBuffer from_host(const std::vector<T>& host, cudaStream_t stream = 0) {
    DeviceBuffer b(host.size(), stream);
    b.copy_from_host(host.data(), host.size(), stream);
    WG_CUDA_TRY(cudaStreamSynchronize(stream));
    return b;
  }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)),
        size_(std::exchange(o.size_, 0)),
        capacity_(std::exchange(o.capacity_, 0)),
        stream_(o.stream_) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
      capacity_ = std::exchange(o.capacity_, 0);
      stream_ = o.stream_;
    }
    return *this;
  }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  std::size_t capacity() const noexcept { return capacity_; }
  bool empty() const noexcept { return size_ == 0; }
  cudaStream_t stream() const noexcept { return stream_; }

  /// Holds n elements afterwards (uninitialised): the allocation is kept when it is large enough.
  void resize_discard(std::size_t n, const char* what = "DeviceBuffer") {
    if (n <= capacity_ && data_) {
      size_ = n;
      return;
    }
    release();
    if (n == 0) return;
    data_ = allocate(n, what);
    size_ = capacity_ = n;
  }
  /// Capacity for at least n elements; the first size() elements are kept.
  void reserve(std::size_t n, const char* what = "DeviceBuffer") {
    if (n <= capacity_) return;
    T* fresh = allocate(n, what);
    if (size_)
      WG_CUDA_TRY(cudaMemcpyAsync(fresh, data_, bytes(), cudaMemcpyDeviceToDevice, stream_));
    if (data_) (void)cudaFreeAsync(data_, stream_);
    data_ = fresh;
    capacity_ = n;
  }
  /// Frees the memory (stream-ordered); size and capacity become 0.
  void release() noexcept {
    if (data_) (void)cudaFreeAsync(data_, stream_);
    data_ = nullptr;
    size_ = capacity_ = 0;
  }

  /// Sets every byte of the elements to `byte` (e.g. 0xFF for empty slabs).
  void fill_bytes(int byte, cudaStream_t stream) {
    if (size_) WG_CUDA_TRY(cudaMemsetAsync(data_, byte, bytes(), stream));
  }
  void copy_from_host(const T* host, std::size_t n) { copy_from_host(host, n, 0, stream_); }
  void copy_from_host(const T* host, std::size_t n, cudaStream_t stream) {
    copy_from_host(host, n, 0, stream);
  }
  void copy_from_host(const T* host, std::size_t n, std::size_t offset, cudaStream_t stream) {
    if (offset > size_ || n > size_ - offset)
      throw InvalidArgument("DeviceBuffer::copy_from_host: more elements than size");
    if (n)
      WG_CUDA_TRY(
          cudaMemcpyAsync(data_ + offset, host, n * sizeof(T), cudaMemcpyHostToDevice, stream));
  }
  void copy_to_host(T* host, std::size_t n, cudaStream_t stream) const {
    if (n > size_) throw InvalidArgument("DeviceBuffer::copy_to_host: more elements than size");
    if (n) WG_CUDA_TRY(cudaMemcpyAsync(host, data_, n * sizeof(T), cudaMemcpyDeviceToHost, stream));
  }
  /// All elements, copied to the host (synchronises stream()).
  std::vector<T> to_host() const { return to_host(stream_, size_); }
  /// The first n elements (at most size()), copied to the host (synchronises stream()).
  std::vector<T> to_host(std::size_t n) const { return to_host(stream_, n); }
  /// The first n (default: all) elements, copied to the host (synchronises `stream`).
  std::vector<T> to_host(cudaStream_t stream, std::size_t n = static_cast<std::size_t>(-1)) const {
    if (n > size_) n = size_;
    std::vector<T> h(n);
    copy_to_host(h.data(), n, stream);
    WG_CUDA_TRY(cudaStreamSynchronize(stream));
    return h;
  }

 private:
  T* allocate(std::size_t n, const char* what) const {
    void* p = nullptr;
    const cudaError_t err = cudaMallocAsync(&p, n * sizeof(T), stream_);
    if (err == cudaErrorMemoryAllocation) detail::throw_out_of_memory(what, n * sizeof(T));
    WG_CUDA_TRY(err);
    return static_cast<T*>(p);
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  cudaStream_t stream_ = 0;
};

}  // namespace wg
