#pragma once
// PinnedBuffer<T>: page-locked host memory (cudaHostAlloc), the staging memory of host-to-device
// pipelines. The copy engines read it directly, so cudaMemcpyAsync from it is asynchronous and
// runs at the interconnect's rate; from pageable memory the driver copies through its own
// staging, synchronously for the caller.
//
//   wg::PinnedBuffer<vertex_t> src(n);     // uninitialised; src.data(), src.size()
//   cudaMemcpyAsync(dev, src.data(), src.bytes(), cudaMemcpyHostToDevice, stream);
//
// Semantics: RAII, move-only; the memory stays valid until the owner is destroyed or moved
// from. Destruction does not wait for copies in flight: the owner must make sure no stream still
// reads or writes it (synchronise with an event or the stream first). Pinned memory is a scarce
// resource (it cannot be swapped out): allocate it once and reuse it.
// Errors: wg::CapacityError when the allocation fails. Cost: cudaHostAlloc maps and locks every
// page (milliseconds per hundred MiB): never allocate per batch.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include <warpgraph/containers/core/error.hpp>

namespace wg {

template <class T>
class PinnedBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "PinnedBuffer holds trivially copyable types");

 public:
  PinnedBuffer() = default;
  /// n elements, uninitialised. flags: cudaHostAlloc's (cudaHostAllocMapped for memory that
  /// kernels read through device_pointer()).
  explicit PinnedBuffer(std::size_t n, unsigned flags = cudaHostAllocDefault) : size_(n) {
    if (n == 0) return;
    void* p = nullptr;
    if (cudaHostAlloc(&p, n * sizeof(T), flags) != cudaSuccess) {
      (void)cudaGetLastError();
      throw CapacityError(
          "pinned host memory", n * sizeof(T),
          "cudaHostAlloc of " + std::to_string((n * sizeof(T)) >> 20) + " MiB failed");
    }
    data_ = static_cast<T*>(p);
  }
  ~PinnedBuffer() { release(); }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  PinnedBuffer(PinnedBuffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  bool empty() const noexcept { return size_ == 0; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }

  /// Frees the memory (not stream-ordered: see the semantics above).
  void release() noexcept {
    if (data_) (void)cudaFreeHost(data_);
    data_ = nullptr;
    size_ = 0;
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

/// Whether `p` points into page-locked host memory the device can copy from directly
/// (cudaHostAlloc'd or cudaHostRegister'ed).
inline bool is_pinned(const void* p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeHost;
}

}  // namespace wg
