// First GPU test: a kernel launch and a CUB radix sort, checked against the host; and the core
// device buffer (wg::DeviceBuffer: sizes, reuse, reserve, copies).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <random>
#include <vector>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/cuda_stream.hpp>
#include <warpgraph/containers/core/device_buffer.cuh>

#include "../support/test_support.hpp"

namespace {

__global__ void affine_kernel(std::uint32_t* out, std::uint32_t n) {
  std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 3u * i + 7u;
}

using wg::DeviceBuffer;

TEST(GpuSmoke, KernelWritesEveryElement) {
  const std::uint32_t n = 1'000'003;
  DeviceBuffer<std::uint32_t> d(n);
  WG_CUDA_TRY(cudaDeviceSynchronize());  // (allocated on the default stream, used by cudaMemset)
  WG_CUDA_TRY(cudaMemset(d.data(), 0xff, n * sizeof(std::uint32_t)));
  affine_kernel<<<(n + 255) / 256, 256>>>(d.data(), n);
  WG_CUDA_CHECK_LAST();
  std::vector<std::uint32_t> h(n);
  WG_CUDA_TRY(cudaMemcpy(h.data(), d.data(), n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  for (std::uint32_t i = 0; i < n; ++i) ASSERT_EQ(h[i], 3u * i + 7u) << "at " << i;
}

TEST(GpuSmoke, CubRadixSortMatchesStdSort) {
  const std::size_t n = 1 << 20;
  std::mt19937 rng(12345);
  std::vector<std::uint32_t> keys(n);
  for (auto& k : keys) k = rng();
  DeviceBuffer<std::uint32_t> in(n), out(n);
  WG_CUDA_TRY(cudaDeviceSynchronize());
  WG_CUDA_TRY(cudaMemcpy(in.data(), keys.data(), n * 4, cudaMemcpyHostToDevice));
  std::size_t temp_bytes = 0;
  WG_CUDA_TRY(cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, in.data(), out.data(), n));
  DeviceBuffer<std::uint8_t> temp(temp_bytes);
  WG_CUDA_TRY(cudaDeviceSynchronize());
  WG_CUDA_TRY(cub::DeviceRadixSort::SortKeys(temp.data(), temp_bytes, in.data(), out.data(), n));
  std::vector<std::uint32_t> sorted(n);
  WG_CUDA_TRY(cudaMemcpy(sorted.data(), out.data(), n * 4, cudaMemcpyDeviceToHost));
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(sorted, keys);
}

TEST(DeviceBuffer, ResizeReserveAndCopies) {
  wg::CudaStream stream;
  DeviceBuffer<std::uint32_t> b(8, stream, "test buffer");
  EXPECT_EQ(b.size(), 8u);
  EXPECT_EQ(b.bytes(), 32u);
  EXPECT_EQ(b.stream(), stream.get());
  const std::vector<std::uint32_t> h{1, 2, 3, 4, 5, 6, 7, 8};
  b.copy_from_host(h.data(), h.size());
  EXPECT_EQ(b.to_host(), h);
  const std::uint32_t* before = b.data();
  b.resize_discard(4);  // fits: the allocation is kept
  EXPECT_EQ(b.data(), before);
  EXPECT_EQ(b.size(), 4u);
  EXPECT_EQ(b.capacity(), 8u);
  b.reserve(64);  // grows, keeps the first size() elements
  EXPECT_EQ(b.capacity(), 64u);
  EXPECT_EQ(b.to_host(), (std::vector<std::uint32_t>{1, 2, 3, 4}));
  const std::vector<std::uint32_t> two{9, 10};
  b.copy_from_host(two.data(), two.size(), 1, stream);
  EXPECT_EQ(b.to_host(stream, 3), (std::vector<std::uint32_t>{1, 9, 10}));
  EXPECT_THROW(b.copy_from_host(two.data(), two.size(), 3, stream), wg::InvalidArgument);
  const auto c = DeviceBuffer<std::uint32_t>::from_host(h, stream);
  EXPECT_EQ(c.to_host(stream), h);
  DeviceBuffer<std::uint32_t> moved = std::move(b);
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(moved.size(), 4u);
  moved.release();
  EXPECT_EQ(moved.capacity(), 0u);
}

TEST(GpuSmoke, CudaErrorsThrowWithLocation) {
  // An error code, not a failing runtime call: compute-sanitizer reports failing API calls
  // as errors, and this test runs under it.
  try {
    WG_CUDA_TRY(cudaErrorMemoryAllocation);
    FAIL() << "expected wg::CudaError";
  } catch (const wg::CudaError& e) {
    EXPECT_NE(std::string(e.what()).find("gpu_smoke_test.cu:"), std::string::npos) << e.what();
  }
}

}  // namespace
