#pragma once
// wg::DeviceBuffer<T>: RAII device memory for n trivially copyable elements, allocated and freed
// stream-ordered (cudaMallocAsync / cudaFreeAsync on the stream given at construction), with
// copies to and from the host. Move-only. The contents start uninitialised.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include <warpgraph/containers/core/cuda_error.cuh>

namespace wg {

template <class T>
class DeviceBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "DeviceBuffer holds trivially copyable types");

 public:
  DeviceBuffer() = default;
  /// n elements on `stream` (usable by later work on that stream, or on any stream after a
  /// synchronisation).
  explicit DeviceBuffer(std::size_t n, cudaStream_t stream = 0) : stream_(stream) { allocate(n); }
  /// A copy of host data (stream-ordered; `host` must stay alive until the stream reaches it,
  /// so this synchronises when the source is a temporary vector: use the overload below).
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
        stream_(o.stream_) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
      stream_ = o.stream_;
    }
    return *this;
  }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  bool empty() const noexcept { return size_ == 0; }
  cudaStream_t stream() const noexcept { return stream_; }

  /// Drops the contents and holds n elements (uninitialised) afterwards.
  void resize_discard(std::size_t n, cudaStream_t stream) {
    if (n == size_) return;
    release();
    stream_ = stream;
    allocate(n);
  }
  /// Sets every byte to `byte` (e.g. 0xFF for empty slabs).
  void fill_bytes(int byte, cudaStream_t stream) {
    if (size_) WG_CUDA_TRY(cudaMemsetAsync(data_, byte, bytes(), stream));
  }
  void copy_from_host(const T* host, std::size_t n, cudaStream_t stream) {
    if (n > size_) throw InvalidArgument("DeviceBuffer::copy_from_host: more elements than size");
    if (n) WG_CUDA_TRY(cudaMemcpyAsync(data_, host, n * sizeof(T), cudaMemcpyHostToDevice, stream));
  }
  void copy_to_host(T* host, std::size_t n, cudaStream_t stream) const {
    if (n > size_) throw InvalidArgument("DeviceBuffer::copy_to_host: more elements than size");
    if (n) WG_CUDA_TRY(cudaMemcpyAsync(host, data_, n * sizeof(T), cudaMemcpyDeviceToHost, stream));
  }
  /// The first n (default: all) elements, copied to the host (synchronises `stream`).
  std::vector<T> to_host(cudaStream_t stream, std::size_t n = static_cast<std::size_t>(-1)) const {
    if (n > size_) n = size_;
    std::vector<T> h(n);
    copy_to_host(h.data(), n, stream);
    WG_CUDA_TRY(cudaStreamSynchronize(stream));
    return h;
  }

 private:
  void allocate(std::size_t n) {
    size_ = n;
    if (n) WG_CUDA_TRY(cudaMallocAsync(reinterpret_cast<void**>(&data_), n * sizeof(T), stream_));
  }
  void release() noexcept {
    if (data_) cudaFreeAsync(data_, stream_);
    data_ = nullptr;
    size_ = 0;
  }
  T* data_ = nullptr;
  std::size_t size_ = 0;
  cudaStream_t stream_ = 0;
};

}  // namespace wg
