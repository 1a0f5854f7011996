// Host side of SlabSet (kernels: detail/bulk_kernels.cuh).
#include <warpgraph/containers/slab_hash/detail/bulk_kernels.cuh>
#include <warpgraph/containers/slab_hash/slab_set.cuh>

namespace wg::slab {

using detail::grid_for;
using detail::kBlockThreads;

SlabSet::SlabSet(const SlabTableConfig& config, cudaStream_t stream)
    : core_(config, kSlotsPerSlab, "SlabSet", stream) {}

void SlabSet::insert_async(const std::uint32_t* keys, std::uint64_t n, cudaStream_t stream) {
  if (n == 0) return;
  const auto r = ref();
  auto* c = core_.counters();
  if (core_.config().tile_lanes == 8) {
    detail::with_bulk_insert_policy(
        core_.config().bulk_insert, [&](auto threads, auto batch, auto block_counters) {
          constexpr int kThreads = decltype(threads)::value;
          detail::set_insert_tile8_kernel<kThreads, decltype(batch)::value,
                                          decltype(block_counters)::value>
              <<<grid_for(n, kThreads), kThreads, 0, stream>>>(r, keys, n, c);
        });
    WG_CUDA_CHECK_LAST();
    return;
  }
  switch (detail::lookahead_variant(core_.config().lookahead)) {
    case 16:
      detail::set_insert_kernel<16><<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, n, c);
      break;
    case 8:
      detail::set_insert_kernel<8><<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, n, c);
      break;
    case 4:
      detail::set_insert_kernel<4><<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, n, c);
      break;
    default:
      detail::set_insert_kernel<1><<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, n, c);
      break;
  }
  WG_CUDA_CHECK_LAST();
}

std::uint64_t SlabSet::insert(const std::uint32_t* keys, std::uint64_t n, cudaStream_t stream) {
  std::uint64_t inserted = 0;
  while (true) {
    core_.begin_op(stream);
    insert_async(keys, n, stream);
    const detail::OpCounts c = core_.take_counts(stream);
    inserted += c.success;
    if (c.invalid) core_.throw_invalid("insert", c.invalid);
    if (c.out_of_slabs == 0) return inserted;
    core_.on_exhaustion(c.out_of_slabs, stream);  // grows (then the batch runs again) or throws
  }
}

std::uint64_t SlabSet::insert(const std::vector<std::uint32_t>& keys, cudaStream_t stream) {
  core_.check_keys("insert", keys.data(), keys.size());
  const auto d = DeviceBuffer<std::uint32_t>::from_host(keys, stream);
  return insert(d.data(), d.size(), stream);
}

std::uint64_t SlabSet::erase(const std::uint32_t* keys, std::uint64_t n, cudaStream_t stream) {
  if (n == 0) return 0;
  core_.begin_op(stream);
  detail::set_erase_kernel<<<grid_for(n), kBlockThreads, 0, stream>>>(ref(), keys, n,
                                                                      core_.counters());
  WG_CUDA_CHECK_LAST();
  const detail::OpCounts c = core_.take_counts(stream);
  if (c.invalid) core_.throw_invalid("erase", c.invalid);
  return c.success;
}

std::uint64_t SlabSet::erase(const std::vector<std::uint32_t>& keys, cudaStream_t stream) {
  core_.check_keys("erase", keys.data(), keys.size());
  const auto d = DeviceBuffer<std::uint32_t>::from_host(keys, stream);
  return erase(d.data(), d.size(), stream);
}

void SlabSet::contains_async(const std::uint32_t* keys, std::uint64_t n, bool* out,
                             cudaStream_t stream) const {
  if (n == 0) return;
  const auto r = ref();
  auto* c = core_.counters();
  if (core_.config().tile_lanes == 8) {
    detail::set_contains_tile8_kernel<<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, n, out,
                                                                                 c);
    WG_CUDA_CHECK_LAST();
    return;
  }
  switch (detail::lookahead_variant(core_.config().lookahead)) {
    case 16:
      detail::set_contains_kernel<16>
          <<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, n, out, c);
      break;
    case 8:
      detail::set_contains_kernel<8><<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, n, out, c);
      break;
    case 4:
      detail::set_contains_kernel<4><<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, n, out, c);
      break;
    default:
      detail::set_contains_kernel<1><<<grid_for(n), kBlockThreads, 0, stream>>>(r, keys, n, out, c);
      break;
  }
  WG_CUDA_CHECK_LAST();
}

std::uint64_t SlabSet::contains(const std::uint32_t* keys, std::uint64_t n, bool* out,
                                cudaStream_t stream) const {
  core_.begin_op(stream);
  contains_async(keys, n, out, stream);
  const detail::OpCounts c = const_cast<detail::TableCore&>(core_).take_counts(stream);
  return c.success;
}

std::vector<bool> SlabSet::contains(const std::vector<std::uint32_t>& keys,
                                    cudaStream_t stream) const {
  core_.check_keys("contains", keys.data(), keys.size());
  const auto d = DeviceBuffer<std::uint32_t>::from_host(keys, stream);
  DeviceBuffer<bool> flags(keys.size(), stream);
  contains(d.data(), d.size(), flags.data(), stream);
  const std::vector<bool> h_flags = [&] {
    std::vector<char> tmp(keys.size());
    if (!tmp.empty())
      WG_CUDA_TRY(
          cudaMemcpyAsync(tmp.data(), flags.data(), tmp.size(), cudaMemcpyDeviceToHost, stream));
    WG_CUDA_TRY(cudaStreamSynchronize(stream));
    return std::vector<bool>(tmp.begin(), tmp.end());
  }();
  return h_flags;
}

std::uint64_t SlabSet::build(const std::uint32_t* keys, std::uint64_t n, double load_factor,
                             cudaStream_t stream) {
  if (!(load_factor > 0)) throw InvalidArgument("SlabSet::build: load_factor must be > 0");
  core_.reset(buckets_for(n, load_factor, kSlotsPerSlab), stream);
  return insert(keys, n, stream);
}

void SlabSet::clear(cudaStream_t stream) {
  core_.reset(core_.num_buckets(), stream);
}

void SlabSet::flush(cudaStream_t stream) {
  detail::flush_kernel<<<grid_for(num_buckets(), kBlockThreads / 32), kBlockThreads, 0, stream>>>(
      ref());
  WG_CUDA_CHECK_LAST();
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
}

namespace {
__global__ void set_retrieve_kernel(SetTableRef t, std::uint32_t* out, std::uint64_t cap,
                                    unsigned long long* n) {
  for_each_warp_item(t.num_buckets(), [&](const warp_tile& tile, std::uint64_t b) {
    t.for_each_in_bucket(tile, static_cast<std::uint32_t>(b), [&](std::uint32_t k) {
      const unsigned long long at = atomicAdd(n, 1ull);
      if (at < cap) out[at] = k;
    });
  });
}
}  // namespace

std::uint64_t SlabSet::retrieve_all(std::uint32_t* out, std::uint64_t capacity,
                                    cudaStream_t stream) const {
  DeviceBuffer<unsigned long long> n(1, stream);
  n.fill_bytes(0, stream);
  set_retrieve_kernel<<<grid_for(num_buckets(), kBlockThreads / 32), kBlockThreads, 0, stream>>>(
      ref(), out, capacity, n.data());
  WG_CUDA_CHECK_LAST();
  return n.to_host(stream)[0];
}

std::vector<std::uint32_t> SlabSet::retrieve_all(cudaStream_t stream) const {
  const std::uint64_t live = count(stream);
  DeviceBuffer<std::uint32_t> d(live + 1, stream);
  const std::uint64_t n = retrieve_all(d.data(), live, stream);
  if (n != live)
    throw Error("SlabSet::retrieve_all: " + std::to_string(n) + " keys, count() said " +
                std::to_string(live) + " (concurrent updates?)");
  return d.to_host(stream, n);
}

std::uint64_t SlabSet::count(cudaStream_t stream) const {
  DeviceBuffer<unsigned long long> n(1, stream);
  n.fill_bytes(0, stream);
  detail::count_kernel<<<grid_for(num_buckets(), kBlockThreads / 32), kBlockThreads, 0, stream>>>(
      ref(), n.data());
  WG_CUDA_CHECK_LAST();
  return n.to_host(stream)[0];
}

double SlabSet::load_factor(cudaStream_t stream) const {
  return static_cast<double>(size(stream)) / (double{kSlotsPerSlab} * num_buckets());
}

}  // namespace wg::slab
