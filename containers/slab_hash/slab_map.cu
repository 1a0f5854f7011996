// Host side of SlabMap (kernels: detail/bulk_kernels.cuh).
#include <warpgraph/containers/slab_hash/detail/bulk_kernels.cuh>
#include <warpgraph/containers/slab_hash/slab_map.cuh>

namespace wg::slab {

using detail::grid_for;
using detail::kBlockThreads;

SlabMap::SlabMap(const SlabTableConfig& config, cudaStream_t stream)
    : core_(config, kSlotsPerSlab, "SlabMap", stream) {}

void SlabMap::insert_async(const std::uint32_t* keys, const std::uint32_t* values, std::uint64_t n,
                           cudaStream_t stream) {
  if (n == 0) return;
  const auto r = ref();
  auto* c = core_.counters();
  if (core_.config().tile_lanes == 8) {
    detail::with_bulk_insert_policy(
        core_.config().bulk_insert, [&](auto threads, auto batch, auto block_counters) {
          constexpr int kThreads = decltype(threads)::value;
          detail::map_insert_tile8_kernel<kThreads, decltype(batch)::value,
                                          decltype(block_counters)::value>
              <<<grid_for(n, kThreads), kThreads, 0, stream>>>(r, keys, values, n, c);
        });
    WG_CUDA_CHECK_LAST();
    return;
  }
  switch (detail::lookahead_variant(core_.config().lookahead)) {
    case 16:
      detail::map_insert_kernel<16>
          <<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, values, n, c);
      break;
    case 8:
      detail::map_insert_kernel<8>
          <<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, values, n, c);
      break;
    case 4:
      detail::map_insert_kernel<4>
          <<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, values, n, c);
      break;
    default:
      detail::map_insert_kernel<1>
          <<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, values, n, c);
      break;
  }
  WG_CUDA_CHECK_LAST();
}

std::uint64_t SlabMap::insert(const std::uint32_t* keys, const std::uint32_t* values,
                              std::uint64_t n, cudaStream_t stream) {
  std::uint64_t inserted = 0;
  while (true) {
    core_.begin_op(stream);
    insert_async(keys, values, n, stream);
    const detail::OpCounts c = core_.take_counts(stream);
    inserted += c.success;
    if (c.invalid) core_.throw_invalid("insert", c.invalid);
    if (c.out_of_slabs == 0) return inserted;
    core_.on_exhaustion(c.out_of_slabs, stream);  // grows (then the batch runs again) or throws
  }
}

std::uint64_t SlabMap::insert(const std::vector<std::uint32_t>& keys,
                              const std::vector<std::uint32_t>& values, cudaStream_t stream) {
  if (keys.size() != values.size())
    throw InvalidArgument("SlabMap::insert: keys and values differ in length");
  core_.check_keys("insert", keys.data(), keys.size());
  const auto dk = DeviceBuffer<std::uint32_t>::from_host(keys, stream);
  const auto dv = DeviceBuffer<std::uint32_t>::from_host(values, stream);
  return insert(dk.data(), dv.data(), dk.size(), stream);
}

std::uint64_t SlabMap::erase(const std::uint32_t* keys, std::uint64_t n, cudaStream_t stream) {
  if (n == 0) return 0;
  core_.begin_op(stream);
  detail::map_erase_kernel<<<grid_for(n), kBlockThreads, 0, stream>>>(ref(), keys, n,
                                                                      core_.counters());
  WG_CUDA_CHECK_LAST();
  const detail::OpCounts c = core_.take_counts(stream);
  if (c.invalid) core_.throw_invalid("erase", c.invalid);
  return c.success;
}

std::uint64_t SlabMap::erase(const std::vector<std::uint32_t>& keys, cudaStream_t stream) {
  core_.check_keys("erase", keys.data(), keys.size());
  const auto d = DeviceBuffer<std::uint32_t>::from_host(keys, stream);
  return erase(d.data(), d.size(), stream);
}

void SlabMap::find_async(const std::uint32_t* keys, std::uint64_t n, std::uint32_t* out_values,
                         bool* out_found, cudaStream_t stream) const {
  if (n == 0) return;
  const auto r = ref();
  auto* c = core_.counters();
  if (core_.config().tile_lanes == 8) {
    detail::map_find_tile8_kernel<<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, n, out_values,
                                                                             out_found, c);
    WG_CUDA_CHECK_LAST();
    return;
  }
  switch (detail::lookahead_variant(core_.config().lookahead)) {
    case 16:
      detail::map_find_kernel<16>
          <<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, n, out_values, out_found, c);
      break;
    case 8:
      detail::map_find_kernel<8>
          <<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, n, out_values, out_found, c);
      break;
    case 4:
      detail::map_find_kernel<4>
          <<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, n, out_values, out_found, c);
      break;
    default:
      detail::map_find_kernel<1>
          <<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, n, out_values, out_found, c);
      break;
  }
  WG_CUDA_CHECK_LAST();
}

std::uint64_t SlabMap::find(const std::uint32_t* keys, std::uint64_t n, std::uint32_t* out_values,
                            bool* out_found, cudaStream_t stream) const {
  core_.begin_op(stream);
  find_async(keys, n, out_values, out_found, stream);
  return const_cast<detail::TableCore&>(core_).take_counts(stream).success;
}

std::pair<std::vector<std::uint32_t>, std::vector<bool>> SlabMap::find(
    const std::vector<std::uint32_t>& keys, cudaStream_t stream) const {
  core_.check_keys("find", keys.data(), keys.size());
  const auto d = DeviceBuffer<std::uint32_t>::from_host(keys, stream);
  DeviceBuffer<std::uint32_t> values(keys.size(), stream);
  DeviceBuffer<bool> found(keys.size(), stream);
  find(d.data(), d.size(), values.data(), found.data(), stream);
  std::vector<char> tmp(keys.size());
  if (!tmp.empty())
    WG_CUDA_TRY(
        cudaMemcpyAsync(tmp.data(), found.data(), tmp.size(), cudaMemcpyDeviceToHost, stream));
  std::vector<std::uint32_t> h_values = values.to_host(stream);
  return {std::move(h_values), std::vector<bool>(tmp.begin(), tmp.end())};
}

std::uint64_t SlabMap::build(const std::uint32_t* keys, const std::uint32_t* values,
                             std::uint64_t n, double load_factor, cudaStream_t stream) {
  if (!(load_factor > 0)) throw InvalidArgument("SlabMap::build: load_factor must be > 0");
  core_.reset(buckets_for(n, load_factor, kSlotsPerSlab), stream);
  return insert(keys, values, n, stream);
}

void SlabMap::clear(cudaStream_t stream) {
  core_.reset(core_.num_buckets(), stream);
}

void SlabMap::flush(cudaStream_t stream) {
  detail::flush_kernel<<<grid_for(num_buckets(), kBlockThreads / 32), kBlockThreads, 0, stream>>>(
      ref());
  WG_CUDA_CHECK_LAST();
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
}

namespace {
__global__ void map_retrieve_kernel(MapTableRef t, std::uint32_t* keys, std::uint32_t* values,
                                    std::uint64_t cap, unsigned long long* n) {
  for_each_warp_item(t.num_buckets(), [&](const warp_tile& tile, std::uint64_t b) {
    t.for_each_in_bucket(tile, static_cast<std::uint32_t>(b),
                         [&](std::uint32_t k, std::uint32_t v) {
                           const unsigned long long at = atomicAdd(n, 1ull);
                           if (at < cap) {
                             keys[at] = k;
                             values[at] = v;
                           }
                         });
  });
}
}  // namespace

std::uint64_t SlabMap::retrieve_all(std::uint32_t* out_keys, std::uint32_t* out_values,
                                    std::uint64_t capacity, cudaStream_t stream) const {
  DeviceBuffer<unsigned long long> n(1, stream);
  n.fill_bytes(0, stream);
  map_retrieve_kernel<<<grid_for(num_buckets(), kBlockThreads / 32), kBlockThreads, 0, stream>>>(
      ref(), out_keys, out_values, capacity, n.data());
  WG_CUDA_CHECK_LAST();
  return n.to_host(stream)[0];
}

std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>> SlabMap::retrieve_all(
    cudaStream_t stream) const {
  const std::uint64_t live = count(stream);
  DeviceBuffer<std::uint32_t> k(live + 1, stream), v(live + 1, stream);
  const std::uint64_t n = retrieve_all(k.data(), v.data(), live, stream);
  if (n != live)
    throw Error("SlabMap::retrieve_all: " + std::to_string(n) + " pairs, count() said " +
                std::to_string(live) + " (concurrent updates?)");
  return {k.to_host(stream, n), v.to_host(stream, n)};
}

std::uint64_t SlabMap::count(cudaStream_t stream) const {
  DeviceBuffer<unsigned long long> n(1, stream);
  n.fill_bytes(0, stream);
  detail::count_kernel<<<grid_for(num_buckets(), kBlockThreads / 32), kBlockThreads, 0, stream>>>(
      ref(), n.data());
  WG_CUDA_CHECK_LAST();
  return n.to_host(stream)[0];
}

double SlabMap::load_factor(cudaStream_t stream) const {
  return static_cast<double>(size(stream)) / (double{kSlotsPerSlab} * num_buckets());
}

}  // namespace wg::slab
