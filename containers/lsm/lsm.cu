// wg::Lsm: batch updates by radix sort + a cascade of stable merges (planned on the host,
// detail/lsm_plan.hpp), queries by per-level binary search and a newest-first walk.
#include <warpgraph/containers/lsm/detail/lsm_plan.hpp>
#include <warpgraph/containers/lsm/detail/lsm_range.hpp>
#include <warpgraph/containers/lsm/lsm.cuh>
#include <warpgraph/containers/sorted_array/sorted_primitives.cuh>

#include <algorithm>
#include <string>

namespace wg {
namespace {

using sorted_detail::grid_for;
using sorted_detail::kBlock;

/// Compares stored keys by key, ignoring the status bit.
struct KeyLess {
  template <class K>
  __host__ __device__ bool operator()(K a, K b) const {
    return (a >> 1) < (b >> 1);
  }
};
struct KeyEqual {
  template <class K>
  __host__ __device__ bool operator()(K a, K b) const {
    return (a >> 1) == (b >> 1);
  }
};

/// out[i] = encoded element n - 1 - i (reversed, so that a stable sort puts the latest
/// occurrence of a key first); *bad |= 1 for a key above max_key.
template <class Key, class Value>
__global__ void encode_kernel(const Key* __restrict__ keys, const Value* __restrict__ values,
                              const std::uint8_t* __restrict__ ops, bool default_live,
                              std::uint64_t n, Key* __restrict__ out_keys,
                              Value* __restrict__ out_values, unsigned* bad) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    const std::uint64_t src = n - 1 - i;
    const Key k = keys[src];
    if (bad && k > LsmRef<Key, Value>::max_key) atomicOr(bad, 1u);
    const bool live = ops ? ops[src] != 0 : default_live;
    out_keys[i] = LsmRef<Key, Value>::encode(k, live);
    out_values[i] = values ? values[src] : Value{};
  }
}

/// keep[i] = element i is the newest of its key (first of its run) and live.
template <class Key>
__global__ void cleanup_flags_kernel(const Key* __restrict__ keys, std::uint64_t n,
                                     std::uint8_t* __restrict__ keep) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    const Key s = keys[i];
    const bool first = i == 0 || (keys[i - 1] >> 1) != (s >> 1);
    keep[i] = first && (s & 1);
  }
}

/// The counting pass of range: out[i] = the live keys in [k1[i], k2[i]], the first `slot` of them
/// buffered (detail/lsm_range.hpp).
template <class Key, class Value>
__global__ void range_count_kernel(const __grid_constant__ LsmRef<Key, Value> ref,
                                   const Key* __restrict__ k1, const Key* __restrict__ k2,
                                   std::uint64_t n, std::uint32_t slot, Key* __restrict__ slot_keys,
                                   Value* __restrict__ slot_values,
                                   std::uint64_t* __restrict__ out) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x)
    out[i] =
        lsm_detail::range_count_into_slot(ref, k1[i], k2[i], slot, slot_keys, slot_values, n, i);
}

/// The fill pass of range: copies a query's buffered answers, or walks again when it has more.
template <class Key, class Value>
__global__ void range_fill_kernel(const __grid_constant__ LsmRef<Key, Value> ref,
                                  const Key* __restrict__ k1, const Key* __restrict__ k2,
                                  std::uint64_t n, std::uint32_t slot,
                                  const Key* __restrict__ slot_keys,
                                  const Value* __restrict__ slot_values,
                                  const std::uint64_t* __restrict__ offsets,
                                  Key* __restrict__ out_keys, Value* __restrict__ out_values) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    const std::uint64_t at = offsets[i];
    const std::uint64_t count = offsets[i + 1] - at;
    if (count == 0) continue;
    lsm_detail::range_fill_from_slot(ref, k1[i], k2[i], count, slot, slot_keys, slot_values, n, i,
                                     out_keys + at, out_values + at);
  }
}

}  // namespace

template <class Key, class Value>
Lsm<Key, Value>::Lsm(const LsmOptions& options, cudaStream_t stream) : options_(options) {
  (void)stream;
  if (options.batch_size == 0) throw InvalidArgument("Lsm: batch_size must be positive");
  if (options.num_levels == 0 || options.num_levels > kLsmMaxLevels)
    throw InvalidArgument("Lsm: num_levels must be in [1, " + std::to_string(kLsmMaxLevels) + "]");
  if (options.batch_size > (std::uint64_t(1) << (62 - options.num_levels)))
    throw InvalidArgument("Lsm: batch_size * 2^num_levels exceeds 2^62");
  levels_.resize(options.num_levels);
}

template <class Key, class Value>
typename Lsm<Key, Value>::Run Lsm<Key, Value>::encode_sorted(const Key* keys, const Value* values,
                                                             const std::uint8_t* ops,
                                                             bool default_live, std::uint64_t n,
                                                             cudaStream_t stream) const {
  Run a{DeviceBuffer<Key>(n, stream), DeviceBuffer<Value>(n, stream), n};
  Run b{DeviceBuffer<Key>(n, stream), DeviceBuffer<Value>(n, stream), n};
  DeviceBuffer<unsigned> bad;
  if (options_.validate_keys) {
    bad = DeviceBuffer<unsigned>(1, stream);
    bad.fill_bytes(0, stream);
  }
  encode_kernel<<<grid_for(n), kBlock, 0, stream>>>(keys, values, ops, default_live, n,
                                                    a.keys.data(), a.values.data(),
                                                    options_.validate_keys ? bad.data() : nullptr);
  WG_CUDA_CHECK_LAST();
  const bool in_b = sorted_detail::sort_pairs(a.keys.data(), a.values.data(), b.keys.data(),
                                              b.values.data(), n, 1, int(sizeof(Key) * 8), stream);
  Run& out = in_b ? b : a;
  out.bad = std::move(bad);
  return std::move(out);
}

template <class Key, class Value>
void Lsm<Key, Value>::check_keys(const Run& run, cudaStream_t stream) const {
  // Read after the batch's work was enqueued, so the launches overlap the GPU's work; nothing
  // has replaced a level yet.
  if (!run.bad.empty() && run.bad.to_host(stream)[0] != 0)
    throw InvalidArgument("Lsm: a key exceeds max_key = " + std::to_string(max_key) +
                          " (the status bit takes the top bit); the LSM was not changed");
}

template <class Key, class Value>
std::uint64_t Lsm<Key, Value>::erase(const Key* keys, std::uint64_t n, cudaStream_t stream) {
  return apply(keys, nullptr, nullptr, false, n, stream);
}

template <class Key, class Value>
std::uint64_t Lsm<Key, Value>::update(const Key* keys, const Value* values, const std::uint8_t* ops,
                                      std::uint64_t n, cudaStream_t stream) {
  return apply(keys, values, ops, true, n, stream);
}

template <class Key, class Value>
std::uint64_t Lsm<Key, Value>::apply(const Key* keys, const Value* values, const std::uint8_t* ops,
                                     bool default_live, std::uint64_t n, cudaStream_t stream) {
  if (n == 0) return 0;
  if (!keys) throw InvalidArgument("Lsm: null keys");
  const auto plan = lsm_detail::plan_insert(level_sizes(), n, options_.batch_size);
  if (!plan)
    throw CapacityError("Lsm", capacity(),
                        "a batch of " + std::to_string(n) + " elements does not fit (" +
                            std::to_string(resident()) +
                            " resident, stale ones included; cleanup() frees those); the batch "
                            "was not applied");
  Run carry = encode_sorted(keys, values, ops, default_live, n, stream);
  // The levels are replaced only after every merge was enqueued, so an allocation failure
  // leaves the LSM as it was.
  for (std::uint32_t l : plan->merge_levels) {
    const Run& lv = levels_[l];
    const std::uint64_t total = carry.size + lv.size;
    Run out{DeviceBuffer<Key>(total, stream), DeviceBuffer<Value>(total, stream), total};
    sorted_detail::merge_pairs(carry.keys.data(), carry.values.data(), carry.size, lv.keys.data(),
                               lv.values.data(), lv.size, out.keys.data(), out.values.data(),
                               KeyLess{}, stream);
    out.bad = std::move(carry.bad);
    carry = std::move(out);
  }
  check_keys(carry, stream);
  carry.bad.release();
  for (std::uint32_t l : plan->merge_levels) levels_[l] = Run{};
  levels_[plan->destination] = std::move(carry);
  return n;
}

template <class Key, class Value>
std::uint64_t Lsm<Key, Value>::place_unique(Run&& run, cudaStream_t stream) {
  const std::uint64_t m = run.size;
  const auto layout = lsm_detail::plan_layout(m, options_.batch_size, options_.num_levels);
  if (!layout)
    throw CapacityError("Lsm", capacity(),
                        std::to_string(m) + " distinct keys do not fit; the LSM was not changed");
  std::vector<Run> fresh(options_.num_levels);
  if (layout->size() == 1) {
    fresh[(*layout)[0].level] = std::move(run);
  } else {
    std::uint64_t offset = 0;
    for (const lsm_detail::Slice& s : *layout) {
      Run part{DeviceBuffer<Key>(s.count, stream), DeviceBuffer<Value>(s.count, stream), s.count};
      WG_CUDA_TRY(cudaMemcpyAsync(part.keys.data(), run.keys.data() + offset, s.count * sizeof(Key),
                                  cudaMemcpyDeviceToDevice, stream));
      WG_CUDA_TRY(cudaMemcpyAsync(part.values.data(), run.values.data() + offset,
                                  s.count * sizeof(Value), cudaMemcpyDeviceToDevice, stream));
      fresh[s.level] = std::move(part);
      offset += s.count;
    }
  }
  levels_ = std::move(fresh);
  return m;
}

template <class Key, class Value>
std::uint64_t Lsm<Key, Value>::build(const Key* keys, const Value* values, std::uint64_t n,
                                     cudaStream_t stream) {
  if (n == 0) {
    clear();
    return 0;
  }
  if (!keys) throw InvalidArgument("Lsm::build: null keys");
  Run sorted = encode_sorted(keys, values, nullptr, true, n, stream);
  check_keys(sorted, stream);
  Run unique{DeviceBuffer<Key>(n, stream), DeviceBuffer<Value>(n, stream), 0};
  unique.size =
      sorted_detail::unique_by_key(sorted.keys.data(), sorted.values.data(), unique.keys.data(),
                                   unique.values.data(), n, KeyEqual{}, stream);
  return place_unique(std::move(unique), stream);
}

template <class Key, class Value>
std::uint64_t Lsm<Key, Value>::cleanup(cudaStream_t stream) {
  const std::uint64_t total = resident();
  if (total == 0) return 0;
  // Merge every level into one run, newest first: the first element of each key is its newest.
  Run acc;
  const Key* ak = nullptr;
  const Value* av = nullptr;
  std::uint64_t an = 0;
  for (const Run& lv : levels_) {
    if (lv.size == 0) continue;
    if (an == 0) {
      ak = lv.keys.data();
      av = lv.values.data();
      an = lv.size;
      continue;
    }
    Run out{DeviceBuffer<Key>(an + lv.size, stream), DeviceBuffer<Value>(an + lv.size, stream),
            an + lv.size};
    sorted_detail::merge_pairs(ak, av, an, lv.keys.data(), lv.values.data(), lv.size,
                               out.keys.data(), out.values.data(), KeyLess{}, stream);
    acc = std::move(out);
    ak = acc.keys.data();
    av = acc.values.data();
    an = acc.size;
  }
  DeviceBuffer<std::uint8_t> keep(an, stream);
  cleanup_flags_kernel<<<grid_for(an), kBlock, 0, stream>>>(ak, an, keep.data());
  WG_CUDA_CHECK_LAST();
  Run live{DeviceBuffer<Key>(an, stream), DeviceBuffer<Value>(an, stream), 0};
  live.size = sorted_detail::select_flagged(ak, keep.data(), live.keys.data(), an, stream);
  sorted_detail::select_flagged(av, keep.data(), live.values.data(), an, stream);
  return place_unique(std::move(live), stream);
}

template <class Key, class Value>
void Lsm<Key, Value>::clear() {
  for (Run& r : levels_) r = Run{};
}

template <class Key, class Value>
RangeResult<Key, Value> Lsm<Key, Value>::range(const Key* k1, const Key* k2, std::uint64_t n,
                                               cudaStream_t stream) const {
  RangeResult<Key, Value> r;
  r.offsets = DeviceBuffer<std::uint64_t>(n + 1, stream);
  if (n == 0) {
    r.offsets.fill_bytes(0, stream);
    return r;
  }
  // The slot shrinks for batches whose full slot would exceed range_slot_max_bytes; 0 is the
  // plain two-walk scheme.
  const std::uint64_t per_query = n * (sizeof(Key) + sizeof(Value));
  const std::uint32_t slot = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(options_.range_slot, options_.range_slot_max_bytes / per_query));
  DeviceBuffer<Key> slot_keys(std::uint64_t(slot) * n, stream);
  DeviceBuffer<Value> slot_values(std::uint64_t(slot) * n, stream);
  WG_CUDA_TRY(cudaMemsetAsync(r.offsets.data() + n, 0, sizeof(std::uint64_t), stream));
  range_count_kernel<<<grid_for(n), kBlock, 0, stream>>>(ref(), k1, k2, n, slot, slot_keys.data(),
                                                         slot_values.data(), r.offsets.data());
  WG_CUDA_CHECK_LAST();
  sorted_detail::finish_range(r, n, stream, [&] {
    range_fill_kernel<<<grid_for(n), kBlock, 0, stream>>>(ref(), k1, k2, n, slot, slot_keys.data(),
                                                          slot_values.data(), r.offsets.data(),
                                                          r.keys.data(), r.values.data());
  });
  return r;
}

template <class Key, class Value>
std::uint64_t Lsm<Key, Value>::resident() const noexcept {
  std::uint64_t s = 0;
  for (const Run& r : levels_) s += r.size;
  return s;
}

template <class Key, class Value>
std::uint64_t Lsm<Key, Value>::capacity() const noexcept {
  return options_.batch_size * ((std::uint64_t(1) << options_.num_levels) - 1);
}

template <class Key, class Value>
std::vector<std::uint64_t> Lsm<Key, Value>::level_sizes() const {
  std::vector<std::uint64_t> s;
  s.reserve(levels_.size());
  for (const Run& r : levels_) s.push_back(r.size);
  return s;
}

template <class Key, class Value>
std::uint32_t Lsm<Key, Value>::num_nonempty_levels() const noexcept {
  std::uint32_t c = 0;
  for (const Run& r : levels_) c += r.size != 0;
  return c;
}

template <class Key, class Value>
std::size_t Lsm<Key, Value>::memory_bytes() const noexcept {
  std::size_t b = 0;
  for (const Run& r : levels_)
    b += r.keys.capacity() * sizeof(Key) + r.values.capacity() * sizeof(Value);
  return b;
}

template <class Key, class Value>
typename Lsm<Key, Value>::ref_type Lsm<Key, Value>::ref() const noexcept {
  ref_type r;
  for (const Run& lv : levels_)
    if (lv.size) r.levels[r.num_levels++] = {lv.keys.data(), lv.values.data(), lv.size};
  return r;
}

template class Lsm<std::uint32_t, std::uint32_t>;
template class Lsm<std::uint64_t, std::uint32_t>;
template class PointQueries<Lsm<std::uint32_t, std::uint32_t>, std::uint32_t, std::uint32_t>;
template class PointQueries<Lsm<std::uint64_t, std::uint32_t>, std::uint64_t, std::uint32_t>;

}  // namespace wg
