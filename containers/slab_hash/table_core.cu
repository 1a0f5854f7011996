// Host side shared by the set and map variants of SlabTable.
#include <cstdio>

#include <warpgraph/containers/slab_hash/detail/table_core.cuh>

namespace wg::slab::detail {

TableCore::TableCore(const SlabTableConfig& config, std::uint32_t slots_per_slab, std::string name,
                     cudaStream_t stream)
    : config_(config),
      slots_(slots_per_slab),
      name_(std::move(name)),
      allocator_(config.allocator, stream, name_ + " slab allocator"),
      counters_(kNumCounters, stream) {
  if (!(config_.load_factor > 0)) throw InvalidArgument(name_ + ": load_factor must be > 0");
  const std::uint32_t nb = config_.num_buckets
                               ? config_.num_buckets
                               : buckets_for(config_.expected_keys, config_.load_factor, slots_);
  reset(nb, stream);
}

void TableCore::reset(std::uint32_t num_buckets, cudaStream_t stream) {
  if (num_buckets == 0) num_buckets = 1;
  if (num_buckets != buckets_.size()) {
    buckets_ = DeviceBuffer<Slab>();  // the old array goes first (device memory may be tight)
    buckets_ = DeviceBuffer<Slab>(num_buckets, stream, "slab table buckets");
  }
  num_buckets_ = num_buckets;
  buckets_.fill_bytes(0xFF, stream);
  allocator_.reset(stream);  // and its exhausted flag
  counters_.fill_bytes(0, stream);
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
}

void TableCore::begin_op(cudaStream_t stream) const {
  WG_CUDA_TRY(cudaMemsetAsync(const_cast<unsigned long long*>(counters_.data()) + 1, 0,
                              sizeof(unsigned long long) * (kNumCounters - 1), stream));
}

void TableCore::set_live(std::uint64_t live, cudaStream_t stream) {
  const unsigned long long v = live;
  WG_CUDA_TRY(cudaMemcpyAsync(counters_.data(), &v, sizeof v, cudaMemcpyHostToDevice, stream));
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
}

OpCounts TableCore::take_counts(cudaStream_t stream) {
  unsigned long long h[kNumCounters];
  WG_CUDA_TRY(cudaMemcpyAsync(h, counters_.data(), sizeof h, cudaMemcpyDeviceToHost, stream));
  WG_CUDA_TRY(cudaMemsetAsync(counters_.data() + 1, 0,
                              sizeof(unsigned long long) * (kNumCounters - 1), stream));
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
  return OpCounts{h[kSuccess], h[kOutOfSlabs], h[kInvalid]};
}

void TableCore::on_exhaustion(std::uint64_t failed, cudaStream_t stream) {
  const std::string what = std::to_string(failed) +
                           " keys of the batch found no free slab (the other keys were applied)";
  if (!config_.grow_on_exhaustion) throw CapacityError(name_, allocator_.capacity_slabs(), what);
  const std::uint32_t have = allocator_.num_super_blocks();
  const std::uint32_t room = allocator_.config().max_super_blocks - have;
  if (room == 0)
    throw CapacityError(name_, allocator_.capacity_slabs(),
                        what + "; the allocator is at max_super_blocks");
  allocator_.grow(have < room ? (have ? have : 1) : room, stream);
  allocator_.clear_exhausted(stream);
}

void TableCore::check_keys(const char* op, const std::uint32_t* keys, std::uint64_t n) const {
  std::uint64_t bad = 0;
  for (std::uint64_t i = 0; i < n; ++i) bad += !is_valid_key(keys[i]);
  if (bad) throw_invalid(op, bad);
}

void TableCore::throw_invalid(const char* op, std::uint64_t count) const {
  throw InvalidArgument(name_ + "::" + op + ": " + std::to_string(count) +
                        " keys are reserved values (0xFFFFFFFE tombstone / 0xFFFFFFFF empty); "
                        "user keys must be <= 0xFFFFFFFD");
}

std::uint64_t TableCore::size(cudaStream_t stream) const {
  unsigned long long live = 0;
  WG_CUDA_TRY(
      cudaMemcpyAsync(&live, counters_.data(), sizeof live, cudaMemcpyDeviceToHost, stream));
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
  return live;
}

}  // namespace wg::slab::detail

namespace wg::slab {

BulkInsertPolicy BulkInsertPolicy::parse(const std::string& text) {
  unsigned batch = 0, threads = 0, block = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%u,%u,%u%c", &batch, &threads, &block, &tail) != 3 || block > 1)
    throw InvalidArgument("BulkInsertPolicy::parse: expected \"batch,block_threads,0|1\", got \"" +
                          text + "\"");
  return BulkInsertPolicy{batch, threads, block == 1};
}

}  // namespace wg::slab
