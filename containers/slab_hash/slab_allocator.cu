// Host side of SlabAllocator (device side: detail/slab_allocator_impl.cuh).
#include <algorithm>
#include <bit>
#include <utility>
#include <vector>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/slab_hash/slab_allocator.cuh>

namespace wg::slab {
namespace {

std::size_t super_block_bytes(std::uint32_t slabs) {
  return std::size_t{slabs} * kSlabBytes + std::size_t{slabs} / 8;  // slabs + bitmap
}

__global__ void count_bits_kernel(Slab* const* super_blocks, std::uint32_t num_super_blocks,
                                  std::uint32_t slabs_per_super_block, unsigned long long* total) {
  const std::uint32_t words_per_sb = slabs_per_super_block / 32;
  const std::uint64_t n = std::uint64_t{num_super_blocks} * words_per_sb;
  unsigned long long local = 0;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint32_t sb = static_cast<std::uint32_t>(i / words_per_sb);
    const std::uint32_t* bitmap =
        reinterpret_cast<const std::uint32_t*>(super_blocks[sb] + slabs_per_super_block);
    local += __popc(bitmap[i % words_per_sb]);
  }
  local = __reduce_add_sync(0xFFFFFFFFu, static_cast<unsigned>(local));
  if ((threadIdx.x & 31) == 0 && local) atomicAdd(total, local);
}

// Every super block's bitmap zeroed (all slabs free) and the status word cleared.
__global__ void reset_kernel(Slab* const* super_blocks, std::uint32_t num_super_blocks,
                             std::uint32_t slabs_per_super_block, std::uint32_t* status) {
  const std::uint32_t words_per_sb = slabs_per_super_block / 32;
  const std::uint64_t n = std::uint64_t{num_super_blocks} * words_per_sb;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint32_t sb = static_cast<std::uint32_t>(i / words_per_sb);
    reinterpret_cast<std::uint32_t*>(super_blocks[sb] + slabs_per_super_block)[i % words_per_sb] =
        0;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) *status = 0;
}

}  // namespace

SlabAllocator::SlabAllocator(SlabAllocatorConfig config, cudaStream_t stream, std::string name)
    : config_(config), name_(std::move(name)) {
  const std::uint32_t s = config_.slabs_per_super_block;
  if (s < kSlabsPerMemoryBlock || !std::has_single_bit(s))
    throw InvalidArgument(name_ + ": slabs_per_super_block must be a power of two >= 1024 (got " +
                          std::to_string(s) + ")");
  if (config_.max_super_blocks == 0 || config_.initial_super_blocks > config_.max_super_blocks)
    throw InvalidArgument(name_ + ": need 0 < initial_super_blocks <= max_super_blocks");
  if (std::uint64_t{s} * config_.max_super_blocks > (std::uint64_t{1} << 31))
    throw InvalidArgument(name_ + ": slabs_per_super_block * max_super_blocks must be <= 2^31");
  log2_sb_ = static_cast<std::uint32_t>(std::countr_zero(s));
  WG_CUDA_TRY(cudaMalloc(&d_super_blocks_, sizeof(Slab*) * config_.max_super_blocks));
  WG_CUDA_TRY(cudaMalloc(&d_status_, sizeof(std::uint32_t)));
  WG_CUDA_TRY(cudaMemsetAsync(d_status_, 0, sizeof(std::uint32_t), stream));
  h_super_blocks_ = new Slab*[config_.max_super_blocks]();
  try {
    grow(config_.initial_super_blocks, stream);
  } catch (...) {
    destroy();
    throw;
  }
}

SlabAllocator::~SlabAllocator() {
  destroy();
}

void SlabAllocator::destroy() noexcept {
  for (void* a : allocations_) cudaFree(a);
  allocations_.clear();
  delete[] h_super_blocks_;
  if (d_super_blocks_) cudaFree(d_super_blocks_);
  if (d_status_) cudaFree(d_status_);
  h_super_blocks_ = nullptr;
  d_super_blocks_ = nullptr;
  d_status_ = nullptr;
  num_super_blocks_ = 0;
}

SlabAllocator::SlabAllocator(SlabAllocator&& o) noexcept
    : config_(o.config_),
      name_(std::move(o.name_)),
      log2_sb_(o.log2_sb_),
      num_super_blocks_(std::exchange(o.num_super_blocks_, 0)),
      d_super_blocks_(std::exchange(o.d_super_blocks_, nullptr)),
      h_super_blocks_(std::exchange(o.h_super_blocks_, nullptr)),
      allocations_(std::exchange(o.allocations_, {})),
      d_status_(std::exchange(o.d_status_, nullptr)) {}

SlabAllocator& SlabAllocator::operator=(SlabAllocator&& o) noexcept {
  if (this != &o) {
    destroy();
    config_ = o.config_;
    name_ = std::move(o.name_);
    log2_sb_ = o.log2_sb_;
    num_super_blocks_ = std::exchange(o.num_super_blocks_, 0);
    d_super_blocks_ = std::exchange(o.d_super_blocks_, nullptr);
    h_super_blocks_ = std::exchange(o.h_super_blocks_, nullptr);
    allocations_ = std::exchange(o.allocations_, {});
    d_status_ = std::exchange(o.d_status_, nullptr);
  }
  return *this;
}

SlabAllocatorRef SlabAllocator::ref() const {
  return SlabAllocatorRef(d_super_blocks_, num_super_blocks_, log2_sb_, d_status_);
}

void SlabAllocator::grow(std::uint32_t super_blocks, cudaStream_t stream) {
  if (std::uint64_t{num_super_blocks_} + super_blocks > config_.max_super_blocks)
    throw CapacityError(name_, capacity_slabs(),
                        "cannot add " + std::to_string(super_blocks) + " super blocks to " +
                            std::to_string(num_super_blocks_) + " (max_super_blocks " +
                            std::to_string(config_.max_super_blocks) + ", " +
                            std::to_string(config_.slabs_per_super_block) + " slabs each)");
  WG_CUDA_TRY(cudaStreamSynchronize(stream));  // no kernel of the old size still running
  if (super_blocks == 0) return;
  const std::uint32_t s = config_.slabs_per_super_block;
  const std::size_t stride = super_block_bytes(s);  // a multiple of 256: slabs stay aligned
  // One allocation for all of them; if the device cannot give one piece that large, one per
  // super block (the last failure is the error).
  char* block = nullptr;
  if (cudaMalloc(&block, stride * super_blocks) == cudaSuccess) {
    allocations_.push_back(block);
  } else {
    (void)cudaGetLastError();
    block = nullptr;
  }
  for (std::uint32_t i = 0; i < super_blocks; ++i) {
    Slab* p = nullptr;
    if (block) {
      p = reinterpret_cast<Slab*>(block + stride * i);
    } else {
      WG_CUDA_TRY(cudaMalloc(&p, stride));
      allocations_.push_back(p);
    }
    h_super_blocks_[num_super_blocks_] = p;
    ++num_super_blocks_;  // owned from here on (freed by destroy())
    if (!block) WG_CUDA_TRY(cudaMemsetAsync(reinterpret_cast<char*>(p + s), 0, s / 8, stream));
  }
  if (block)  // every bitmap (s/8 bytes after each super block's slabs) in one call
    WG_CUDA_TRY(cudaMemset2DAsync(block + std::size_t{s} * kSlabBytes, stride, 0, s / 8,
                                  super_blocks, stream));
  WG_CUDA_TRY(cudaMemcpyAsync(d_super_blocks_, h_super_blocks_, sizeof(Slab*) * num_super_blocks_,
                              cudaMemcpyHostToDevice, stream));
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
}

void SlabAllocator::reset(cudaStream_t stream) {
  // One launch for every bitmap and the status (a memset per super block before: a bulk build
  // of a small graph is a handful of launches, each of which counts).
  const std::uint64_t words = std::uint64_t{num_super_blocks_} * config_.slabs_per_super_block / 32;
  const unsigned grid =
      static_cast<unsigned>(std::clamp<std::uint64_t>((words + 255) / 256, 1, 1024));
  reset_kernel<<<grid, 256, 0, stream>>>(d_super_blocks_, num_super_blocks_,
                                         config_.slabs_per_super_block, d_status_);
  WG_CUDA_CHECK_LAST();
}

bool SlabAllocator::exhausted(cudaStream_t stream) const {
  std::uint32_t status = 0;
  WG_CUDA_TRY(cudaMemcpyAsync(&status, d_status_, sizeof status, cudaMemcpyDeviceToHost, stream));
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
  return (status & kAllocatorExhaustedBit) != 0;
}

void SlabAllocator::clear_exhausted(cudaStream_t stream) {
  WG_CUDA_TRY(cudaMemsetAsync(d_status_, 0, sizeof(std::uint32_t), stream));
}

std::uint64_t SlabAllocator::slabs_in_use(cudaStream_t stream) const {
  if (num_super_blocks_ == 0) return 0;
  DeviceBuffer<unsigned long long> total(1, stream);
  total.fill_bytes(0, stream);
  count_bits_kernel<<<256, 256, 0, stream>>>(d_super_blocks_, num_super_blocks_,
                                             config_.slabs_per_super_block, total.data());
  WG_CUDA_CHECK_LAST();
  return total.to_host(stream)[0];
}

std::uint64_t SlabAllocator::capacity_slabs() const {
  return std::uint64_t{num_super_blocks_} * config_.slabs_per_super_block;
}

std::size_t SlabAllocator::memory_bytes() const {
  return num_super_blocks_ * super_block_bytes(config_.slabs_per_super_block) +
         sizeof(Slab*) * config_.max_super_blocks + sizeof(std::uint32_t);
}

}  // namespace wg::slab
