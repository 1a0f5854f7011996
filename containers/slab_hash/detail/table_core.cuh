#pragma once
// Host-side state shared by the set and map variants of SlabTable: base buckets, the owned
// allocator, device counters, and the grow-or-throw policy on exhaustion. Plus the kernels the
// public headers instantiate for user functors (for_each).
#include <array>
#include <string>
#include <vector>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/core/work_sharing.cuh>
#include <warpgraph/containers/slab_hash/slab_allocator.cuh>
#include <warpgraph/containers/slab_hash/slab_table_config.cuh>
#include <warpgraph/containers/slab_hash/slab_table_ref.cuh>

namespace wg::slab::detail {

/// Device counters: [kLive] live keys (persistent); the rest are per bulk operation.
enum Counter : int { kLive = 0, kSuccess = 1, kOutOfSlabs = 2, kInvalid = 3, kNumCounters = 4 };

struct OpCounts {
  std::uint64_t success = 0, out_of_slabs = 0, invalid = 0;
};

class TableCore {
 public:
  TableCore(const SlabTableConfig& config, std::uint32_t slots_per_slab, std::string name,
            cudaStream_t stream);

  /// Empties the table with `num_buckets` base buckets (all slabs freed, size 0).
  void reset(std::uint32_t num_buckets, cudaStream_t stream);
  /// Zeroes the per-operation counters (before a counted bulk operation; *_async ones add up).
  void begin_op(cudaStream_t stream) const;
  /// Per-operation counters, read back and zeroed (synchronises).
  OpCounts take_counts(cudaStream_t stream);
  /// Sets the live-key counter (after updates made through refs in other kernels).
  void set_live(std::uint64_t live, cudaStream_t stream);
  /// Called when a bulk insert reported `failed` out-of-slab keys: grows (or throws
  /// CapacityError when growth is off or impossible) and clears the allocator flag.
  void on_exhaustion(std::uint64_t failed, cudaStream_t stream);
  /// Throws InvalidArgument when a host key list holds a reserved value.
  void check_keys(const char* op, const std::uint32_t* keys, std::uint64_t n) const;
  [[noreturn]] void throw_invalid(const char* op, std::uint64_t count) const;

  std::uint64_t size(cudaStream_t stream) const;
  std::size_t memory_bytes() const { return buckets_.bytes() + allocator_.memory_bytes(); }
  std::uint32_t num_buckets() const { return num_buckets_; }
  Slab* buckets() const { return const_cast<Slab*>(buckets_.data()); }
  unsigned long long* counters() const { return const_cast<unsigned long long*>(counters_.data()); }
  SlabAllocator& allocator() { return allocator_; }
  const SlabAllocator& allocator() const { return allocator_; }
  const SlabTableConfig& config() const { return config_; }
  const std::string& name() const { return name_; }
  std::uint32_t slots_per_slab() const { return slots_; }

 private:
  SlabTableConfig config_;
  std::uint32_t slots_;
  std::string name_;
  SlabAllocator allocator_;
  DeviceBuffer<Slab> buckets_;
  std::uint32_t num_buckets_ = 0;
  DeviceBuffer<unsigned long long> counters_;
};

inline constexpr int kBlockThreads = 256;
inline unsigned grid_for(std::uint64_t items, std::uint64_t per_block = kBlockThreads) {
  const std::uint64_t g = (items + per_block - 1) / per_block;
  return static_cast<unsigned>(g == 0 ? 1 : (g > 0x7FFFFFFFull ? 0x7FFFFFFFull : g));
}

template <class Ref, class F>
__global__ void for_each_kernel(Ref ref, F f) {
  for_each_warp_item(ref.num_buckets(), [&](const warp_tile& tile, std::uint64_t b) {
    ref.for_each_in_bucket(tile, static_cast<std::uint32_t>(b), f);
  });
}

}  // namespace wg::slab::detail
