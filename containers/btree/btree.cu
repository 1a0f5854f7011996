// wg::btree::BTree: host side of the batch operations (build: build.cu; validate and copies:
// validate.cu).
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <string>

#include <warpgraph/containers/btree/btree.cuh>
#include <warpgraph/containers/btree/detail/kernels.cuh>
#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/error.hpp>

namespace wg::btree {

template <class Key, class Value>
BTree<Key, Value>::BTree(const BTreeOptions& options, cudaStream_t stream) : options_(options) {
  if (options_.node_capacity < 1 || options_.node_capacity > detail::kNoLink - 1)
    throw InvalidArgument("BTree: node_capacity must be in [1, 2^30 - 2]");
  if (!(options_.build_fill > 0.0 && options_.build_fill <= 1.0))
    throw InvalidArgument("BTree: build_fill must be in (0, 1]");
  if (options_.block_threads < 32 || options_.block_threads % 32 || options_.block_threads > 1024)
    throw InvalidArgument("BTree: block_threads must be a multiple of 32 in [32, 1024]");
  int dev = 0;
  WG_CUDA_TRY(cudaGetDevice(&dev));
  WG_CUDA_TRY(cudaDeviceGetAttribute(&sm_count_, cudaDevAttrMultiProcessorCount, dev));
  nodes_ = DeviceBuffer<detail::Node>(options_.node_capacity, stream, "BTree nodes");
  state_ = DeviceBuffer<detail::TreeState>(1, stream, "BTree state");
  counters_ = DeviceBuffer<unsigned long long>(detail::kNumCounters, stream, "BTree counters");
  clear(stream);
}

template <class Key, class Value>
void BTree<Key, Value>::clear(cudaStream_t stream) {
  detail::init_kernel<Key><<<1, 32, 0, stream>>>(ref());
  WG_CUDA_CHECK_LAST();
  size_ = 0;
}

template <class Key, class Value>
unsigned BTree<Key, Value>::grid_for(std::uint64_t n) const {
  const std::uint64_t tiles_per_block = options_.block_threads / kTileLanes;
  const std::uint64_t full = std::uint64_t(sm_count_) * (2048 / options_.block_threads);
  const std::uint64_t need = (n + tiles_per_block - 1) / tiles_per_block;
  return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min(need, full)));
}

namespace {
struct Counts {
  unsigned long long c[detail::kNumCounters];
};
Counts read_counts(const DeviceBuffer<unsigned long long>& counters, cudaStream_t stream) {
  Counts h{};
  counters.copy_to_host(h.c, detail::kNumCounters, stream);
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
  return h;
}
void throw_rejected(unsigned long long rejected, const char* op) {
  if (rejected)
    throw InvalidArgument(std::string("BTree::") + op + ": " + std::to_string(rejected) +
                          " keys equal to the reserved key (all bits set) were rejected");
}

/// A sorted copy of keys (and values) in scratch buffers (one radix sort, stable).
template <class Key>
void sort_batch(const Key* keys, const Key* values, std::uint64_t n, DeviceBuffer<Key>& sk,
                DeviceBuffer<Key>& sv, cudaStream_t stream) {
  constexpr int kBits = 8 * sizeof(Key);
  sk = DeviceBuffer<Key>(n, stream, "BTree sorted keys");
  if (values) sv = DeviceBuffer<Key>(n, stream, "BTree sorted values");
  std::size_t bytes = 0;
  const int items = static_cast<int>(n);
  if (values) {
    WG_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, sk.data(), values, sv.data(),
                                                items, 0, kBits, stream));
  } else {
    WG_CUDA_TRY(
        cub::DeviceRadixSort::SortKeys(nullptr, bytes, keys, sk.data(), items, 0, kBits, stream));
  }
  DeviceBuffer<unsigned char> temp(bytes, stream, "BTree sort scratch");
  if (values) {
    WG_CUDA_TRY(cub::DeviceRadixSort::SortPairs(temp.data(), bytes, keys, sk.data(), values,
                                                sv.data(), items, 0, kBits, stream));
  } else {
    WG_CUDA_TRY(cub::DeviceRadixSort::SortKeys(temp.data(), bytes, keys, sk.data(), items, 0, kBits,
                                               stream));
  }
}

/// An update batch as the kernels take it: at most 2^31 - 1 entries (InvalidArgument), and when
/// `sort` (BTreeOptions::sort_updates) a sorted copy in sk / sv, where keys (and *values, when
/// values is not null) then point.
template <class Key, class Value>
void order_batch(const char* op, bool sort, const Key*& keys, const Value** values, std::uint64_t n,
                 DeviceBuffer<Key>& sk, DeviceBuffer<Key>& sv, cudaStream_t stream) {
  if (n > 0x7FFFFFFFull)
    throw InvalidArgument(std::string("BTree::") + op + ": batch larger than 2^31 - 1");
  if (!sort) return;
  sort_batch<Key>(keys, values ? *values : nullptr, n, sk, sv, stream);
  keys = sk.data();
  if (values) *values = sv.data();
}
}  // namespace

template <class Key, class Value>
void BTree<Key, Value>::check_exhausted(std::uint64_t failed, const char* op, cudaStream_t stream) {
  if (!failed) return;
  // Re-arm the pool flag: later batches may still fit (erasures free no nodes, but inserts of
  // present keys or into leaves with room need none).
  WG_CUDA_TRY(cudaMemsetAsync(&state_.data()->exhausted, 0, sizeof(std::uint32_t), stream));
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
  throw CapacityError("BTree", options_.node_capacity,
                      std::string(op) + ": node pool exhausted; " + std::to_string(failed) +
                          " inserts were not applied (the tree is valid without them)");
}

template <class Key, class Value>
std::uint64_t BTree<Key, Value>::insert(const Key* keys, const Value* values, std::uint64_t n,
                                        cudaStream_t stream) {
  if (n == 0) return 0;
  DeviceBuffer<Key> sk, sv;
  order_batch("insert", options_.sort_updates, keys, &values, n, sk, sv, stream);
  counters_.fill_bytes(0, stream);
  detail::insert_kernel<Key><<<grid_for(n), options_.block_threads, 0, stream>>>(
      ref(), keys, values, n, counters_.data());
  WG_CUDA_CHECK_LAST();
  const Counts c = read_counts(counters_, stream);
  size_ += c.c[detail::kDone];
  check_exhausted(c.c[detail::kFailed], "insert", stream);
  throw_rejected(c.c[detail::kRejected], "insert");
  return c.c[detail::kDone];
}

template <class Key, class Value>
std::uint64_t BTree<Key, Value>::erase(const Key* keys, std::uint64_t n, cudaStream_t stream) {
  if (n == 0) return 0;
  DeviceBuffer<Key> sk, sv;
  order_batch<Key, Value>("erase", options_.sort_updates, keys, nullptr, n, sk, sv, stream);
  counters_.fill_bytes(0, stream);
  detail::erase_kernel<Key>
      <<<grid_for(n), options_.block_threads, 0, stream>>>(ref(), keys, n, counters_.data());
  WG_CUDA_CHECK_LAST();
  const Counts c = read_counts(counters_, stream);
  size_ -= c.c[detail::kDone];
  throw_rejected(c.c[detail::kRejected], "erase");
  return c.c[detail::kDone];
}

template <class Key, class Value>
std::uint64_t BTree<Key, Value>::find(const Key* keys, std::uint64_t n, Value* out_values,
                                      bool* out_found, cudaStream_t stream) const {
  if (n == 0) return 0;
  auto& counters = const_cast<DeviceBuffer<unsigned long long>&>(counters_);
  counters.fill_bytes(0, stream);
  detail::find_kernel<Key><<<grid_for(n), options_.block_threads, 0, stream>>>(
      ref(), keys, n, out_values, out_found, counters.data());
  WG_CUDA_CHECK_LAST();
  return read_counts(counters_, stream).c[detail::kDone];
}

template <class Key, class Value>
std::uint64_t BTree<Key, Value>::count(const Key* lo, const Key* hi, std::uint64_t n,
                                       std::uint32_t* out_counts, cudaStream_t stream) const {
  if (n == 0) return 0;
  auto& counters = const_cast<DeviceBuffer<unsigned long long>&>(counters_);
  counters.fill_bytes(0, stream);
  detail::count_kernel<Key><<<grid_for(n), options_.block_threads, 0, stream>>>(
      ref(), lo, hi, n, out_counts, nullptr, counters.data());
  WG_CUDA_CHECK_LAST();
  return read_counts(counters_, stream).c[detail::kDone];
}

template <class Key, class Value>
std::uint64_t BTree<Key, Value>::range(const Key* lo, const Key* hi, std::uint64_t n,
                                       std::uint64_t* out_offsets, DeviceBuffer<Key>& out_keys,
                                       DeviceBuffer<Value>& out_values, cudaStream_t stream) const {
  WG_CUDA_TRY(cudaMemsetAsync(out_offsets, 0, sizeof(std::uint64_t) * (n + 1), stream));
  if (n == 0) {
    out_keys.resize_discard(0);
    out_values.resize_discard(0);
    return 0;
  }
  auto& counters = const_cast<DeviceBuffer<unsigned long long>&>(counters_);
  counters.fill_bytes(0, stream);
  // Counts into out_offsets[0, n), scanned in place into out_offsets[0, n]: the scan over n + 1
  // items reads the zero written at out_offsets[n] and leaves the total there.
  detail::count_kernel<Key><<<grid_for(n), options_.block_threads, 0, stream>>>(
      ref(), lo, hi, n, nullptr, out_offsets, counters.data());
  WG_CUDA_CHECK_LAST();
  std::size_t bytes = 0;
  WG_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, bytes, out_offsets, out_offsets,
                                            static_cast<std::int64_t>(n + 1), stream));
  DeviceBuffer<unsigned char> temp(bytes, stream, "BTree scan scratch");
  WG_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp.data(), bytes, out_offsets, out_offsets,
                                            static_cast<std::int64_t>(n + 1), stream));
  const std::uint64_t total = read_counts(counters_, stream).c[detail::kDone];
  out_keys.resize_discard(total, "BTree range keys");
  out_values.resize_discard(total, "BTree range values");
  if (total) {
    detail::range_fill_kernel<Key><<<grid_for(n), options_.block_threads, 0, stream>>>(
        ref(), lo, hi, n, out_offsets, out_keys.data(), out_values.data());
    WG_CUDA_CHECK_LAST();
  }
  return total;
}

template <class Key, class Value>
std::uint64_t BTree<Key, Value>::successor(const Key* q, std::uint64_t n, Key* out_keys,
                                           Value* out_values, bool* out_found,
                                           cudaStream_t stream) const {
  return neighbours(true, q, n, out_keys, out_values, out_found, stream);
}

template <class Key, class Value>
std::uint64_t BTree<Key, Value>::predecessor(const Key* q, std::uint64_t n, Key* out_keys,
                                             Value* out_values, bool* out_found,
                                             cudaStream_t stream) const {
  return neighbours(false, q, n, out_keys, out_values, out_found, stream);
}

template <class Key, class Value>
std::uint64_t BTree<Key, Value>::neighbours(bool next, const Key* q, std::uint64_t n, Key* out_keys,
                                            Value* out_values, bool* out_found,
                                            cudaStream_t stream) const {
  if (n == 0) return 0;
  auto& counters = const_cast<DeviceBuffer<unsigned long long>&>(counters_);
  counters.fill_bytes(0, stream);
  const auto kernel =
      next ? detail::neighbour_kernel<true, Key> : detail::neighbour_kernel<false, Key>;
  kernel<<<grid_for(n), options_.block_threads, 0, stream>>>(ref(), q, n, out_keys, out_values,
                                                             out_found, counters.data());
  WG_CUDA_CHECK_LAST();
  return read_counts(counters_, stream).c[detail::kDone];
}

template <class Key, class Value>
void BTree<Key, Value>::apply(const op_type* ops, std::uint64_t n, result_type* results,
                              cudaStream_t stream) {
  if (n == 0) return;
  counters_.fill_bytes(0, stream);
  detail::apply_kernel<Key><<<grid_for(n), options_.block_threads, 0, stream>>>(
      ref(), ops, n, results, counters_.data());
  WG_CUDA_CHECK_LAST();
  const Counts c = read_counts(counters_, stream);
  size_ = size_ + c.c[detail::kDone] - c.c[detail::kErased];
  check_exhausted(c.c[detail::kFailed], "apply", stream);
  throw_rejected(c.c[detail::kRejected], "apply");
}

template class BTree<std::uint32_t>;
template class BTree<std::uint64_t>;

}  // namespace wg::btree
