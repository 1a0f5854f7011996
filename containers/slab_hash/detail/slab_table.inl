#pragma once
// Host side of SlabTable<V>, included by the two .cu files that instantiate it (slab_set.cu,
// slab_map.cu); the kernels are in bulk_kernels.cuh.
#include <string>
#include <type_traits>

#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/slab_hash/detail/bulk_kernels.cuh>
#include <warpgraph/containers/slab_hash/slab_table.cuh>

namespace wg::slab {

namespace detail {
template <class V>
inline const char* table_name() {
  return std::is_void_v<V> ? "SlabSet" : "SlabMap";
}
}  // namespace detail

template <class V>
SlabTable<V>::SlabTable(const SlabTableConfig& config, cudaStream_t stream)
    : core_(config, kSlotsPerSlab, detail::table_name<V>(), stream) {}

template <class V>
void SlabTable<V>::insert_async_impl(const std::uint32_t* keys, const std::uint32_t* values,
                                     std::uint64_t n, cudaStream_t stream) {
  using detail::grid_for;
  using detail::kBlockThreads;
  if (n == 0) return;
  const auto r = ref();
  auto* c = core_.counters();
  if (core_.config().tile_lanes == 8) {
    detail::with_bulk_insert_policy(
        core_.config().bulk_insert, [&](auto threads, auto batch, auto block_counters) {
          constexpr int kThreads = decltype(threads)::value;
          detail::insert_tile8_kernel<V, kThreads, decltype(batch)::value,
                                      decltype(block_counters)::value>
              <<<grid_for(n, kThreads), kThreads, 0, stream>>>(r, keys, values, n, c);
        });
    WG_CUDA_CHECK_LAST();
    return;
  }
  switch (detail::lookahead_variant(core_.config().lookahead)) {
    case 16:
      detail::insert_kernel<V, 16>
          <<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, values, n, c);
      break;
    case 8:
      detail::insert_kernel<V, 8><<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, values, n, c);
      break;
    case 4:
      detail::insert_kernel<V, 4><<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, values, n, c);
      break;
    default:
      detail::insert_kernel<V, 1><<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, values, n, c);
      break;
  }
  WG_CUDA_CHECK_LAST();
}

template <class V>
std::uint64_t SlabTable<V>::insert_impl(const std::uint32_t* keys, const std::uint32_t* values,
                                        std::uint64_t n, cudaStream_t stream) {
  std::uint64_t inserted = 0;
  while (true) {
    core_.begin_op(stream);
    insert_async_impl(keys, values, n, stream);
    const detail::OpCounts c = core_.take_counts(stream);
    inserted += c.success;
    if (c.invalid) core_.throw_invalid("insert", c.invalid);
    if (c.out_of_slabs == 0) return inserted;
    core_.on_exhaustion(c.out_of_slabs, stream);  // grows (then the batch runs again) or throws
  }
}

template <class V>
std::uint64_t SlabTable<V>::insert_host(const std::vector<std::uint32_t>& keys,
                                        const std::vector<std::uint32_t>* values,
                                        cudaStream_t stream) {
  if constexpr (kIsMap) {
    if (keys.size() != values->size())
      throw InvalidArgument(core_.name() + "::insert: keys and values differ in length");
  }
  core_.check_keys("insert", keys.data(), keys.size());
  const auto dk = DeviceBuffer<std::uint32_t>::from_host(keys, stream);
  if constexpr (kIsMap) {
    const auto dv = DeviceBuffer<std::uint32_t>::from_host(*values, stream);
    return insert_impl(dk.data(), dv.data(), dk.size(), stream);
  } else {
    return insert_impl(dk.data(), nullptr, dk.size(), stream);
  }
}

template <class V>
std::uint64_t SlabTable<V>::erase(const std::uint32_t* keys, std::uint64_t n, cudaStream_t stream) {
  if (n == 0) return 0;
  core_.begin_op(stream);
  detail::erase_kernel<V>
      <<<detail::grid_for(n), detail::kBlockThreads, 0, stream>>>(ref(), keys, n, core_.counters());
  WG_CUDA_CHECK_LAST();
  const detail::OpCounts c = core_.take_counts(stream);
  if (c.invalid) core_.throw_invalid("erase", c.invalid);
  return c.success;
}

template <class V>
std::uint64_t SlabTable<V>::erase(const std::vector<std::uint32_t>& keys, cudaStream_t stream) {
  core_.check_keys("erase", keys.data(), keys.size());
  const auto d = DeviceBuffer<std::uint32_t>::from_host(keys, stream);
  return erase(d.data(), d.size(), stream);
}

template <class V>
void SlabTable<V>::find_async_impl(const std::uint32_t* keys, std::uint64_t n,
                                   std::uint32_t* out_values, bool* out_found,
                                   cudaStream_t stream) const {
  using detail::grid_for;
  using detail::kBlockThreads;
  if (n == 0) return;
  const auto r = ref();
  auto* c = core_.counters();
  auto* ov = out_values;
  if (core_.config().tile_lanes == 8) {
    detail::find_tile8_kernel<V>
        <<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, n, ov, out_found, c);
    WG_CUDA_CHECK_LAST();
    return;
  }
  switch (detail::lookahead_variant(core_.config().lookahead)) {
    case 16:
      detail::find_kernel<V, 16>
          <<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, n, ov, out_found, c);
      break;
    case 8:
      detail::find_kernel<V, 8>
          <<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, n, ov, out_found, c);
      break;
    case 4:
      detail::find_kernel<V, 4>
          <<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, n, ov, out_found, c);
      break;
    default:
      detail::find_kernel<V, 1>
          <<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, n, ov, out_found, c);
      break;
  }
  WG_CUDA_CHECK_LAST();
}

template <class V>
std::uint64_t SlabTable<V>::find_impl(const std::uint32_t* keys, std::uint64_t n,
                                      std::uint32_t* out_values, bool* out_found,
                                      cudaStream_t stream) const {
  core_.begin_op(stream);
  find_async_impl(keys, n, out_values, out_found, stream);
  return const_cast<detail::TableCore&>(core_).take_counts(stream).success;
}

template <class V>
std::pair<std::vector<std::uint32_t>, std::vector<bool>> SlabTable<V>::find_host(
    const std::vector<std::uint32_t>& keys, cudaStream_t stream) const {
  core_.check_keys(kIsMap ? "find" : "contains", keys.data(), keys.size());
  const auto d = DeviceBuffer<std::uint32_t>::from_host(keys, stream);
  DeviceBuffer<std::uint32_t> values(kIsMap ? keys.size() : 0, stream);
  DeviceBuffer<bool> found(keys.size(), stream);
  find_impl(d.data(), d.size(), kIsMap ? values.data() : nullptr, found.data(), stream);
  std::vector<char> tmp(keys.size());  // (std::vector<bool> has no data())
  if (!tmp.empty())
    WG_CUDA_TRY(
        cudaMemcpyAsync(tmp.data(), found.data(), tmp.size(), cudaMemcpyDeviceToHost, stream));
  std::vector<std::uint32_t> h_values = values.to_host(stream);  // synchronises
  return {std::move(h_values), std::vector<bool>(tmp.begin(), tmp.end())};
}

template <class V>
std::uint64_t SlabTable<V>::build_impl(const std::uint32_t* keys, const std::uint32_t* values,
                                       std::uint64_t n, double load_factor, cudaStream_t stream) {
  if (!(load_factor > 0)) throw InvalidArgument(core_.name() + "::build: load_factor must be > 0");
  core_.reset(buckets_for(n, load_factor, kSlotsPerSlab), stream);
  return insert_impl(keys, values, n, stream);
}

template <class V>
void SlabTable<V>::clear(cudaStream_t stream) {
  core_.reset(core_.num_buckets(), stream);
}

template <class V>
void SlabTable<V>::flush(cudaStream_t stream) {
  detail::flush_kernel<<<detail::grid_for(num_buckets(), detail::kBlockThreads / 32),
                         detail::kBlockThreads, 0, stream>>>(ref());
  WG_CUDA_CHECK_LAST();
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
}

template <class V>
std::uint64_t SlabTable<V>::retrieve_impl(std::uint32_t* out_keys, std::uint32_t* out_values,
                                          std::uint64_t capacity, cudaStream_t stream) const {
  DeviceBuffer<unsigned long long> n(1, stream);
  n.fill_bytes(0, stream);
  detail::retrieve_kernel<V>
      <<<detail::grid_for(num_buckets(), detail::kBlockThreads / 32), detail::kBlockThreads, 0,
         stream>>>(ref(), out_keys, out_values, capacity, n.data());
  WG_CUDA_CHECK_LAST();
  return n.to_host(stream)[0];
}

template <class V>
std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>> SlabTable<V>::retrieve_host(
    cudaStream_t stream) const {
  const std::uint64_t live = count(stream);
  DeviceBuffer<std::uint32_t> k(live + 1, stream), v(kIsMap ? live + 1 : 0, stream);
  const std::uint64_t n = retrieve_impl(k.data(), kIsMap ? v.data() : nullptr, live, stream);
  if (n != live)
    throw Error(core_.name() + "::retrieve_all: " + std::to_string(n) +
                (kIsMap ? " pairs" : " keys") + ", count() said " + std::to_string(live) +
                " (concurrent updates?)");
  if constexpr (kIsMap)
    return {k.to_host(stream, n), v.to_host(stream, n)};
  else
    return {k.to_host(stream, n), {}};
}

template <class V>
std::uint64_t SlabTable<V>::count(cudaStream_t stream) const {
  DeviceBuffer<unsigned long long> n(1, stream);
  n.fill_bytes(0, stream);
  detail::count_kernel<<<detail::grid_for(num_buckets(), detail::kBlockThreads / 32),
                         detail::kBlockThreads, 0, stream>>>(ref(), n.data());
  WG_CUDA_CHECK_LAST();
  return n.to_host(stream)[0];
}

}  // namespace wg::slab
