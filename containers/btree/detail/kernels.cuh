#pragma once
// Kernels of wg::btree::BTree's bulk operations (included by btree.cu only). Each 16-lane tile
// takes one contiguous chunk of the batch, so that with a sorted batch a tile's consecutive
// keys fall in the same or the next leaf and the Hint saves the descent.
#include <cstdint>

#include <warpgraph/containers/btree/btree.cuh>

namespace wg::btree::detail {

template <unsigned kLanes>
__device__ inline auto this_tile() {
  return cg::tiled_partition<kLanes>(cg::this_thread_block());
}

template <unsigned kLanes, class F>
__device__ inline void for_each_tile_chunk(std::uint64_t n, F&& f) {
  const auto tile = this_tile<kLanes>();
  const std::uint64_t tiles_per_block = blockDim.x / kLanes;
  const std::uint64_t tiles = std::uint64_t{gridDim.x} * tiles_per_block;
  const std::uint64_t t = std::uint64_t{blockIdx.x} * tiles_per_block + threadIdx.x / kLanes;
  const std::uint64_t chunk = (n + tiles - 1) / tiles;
  const std::uint64_t begin = t * chunk;
  const std::uint64_t end = begin + chunk < n ? begin + chunk : n;
  for (std::uint64_t i = begin; i < end; ++i) f(tile, i);
}

template <class Tile>
__device__ inline void add_counts(const Tile& tile, unsigned long long* counters,
                                  unsigned long long done, unsigned long long failed,
                                  unsigned long long rejected) {
  if (tile.thread_rank() != 0) return;
  if (done) atomicAdd(counters + kDone, done);
  if (failed) atomicAdd(counters + kFailed, failed);
  if (rejected) atomicAdd(counters + kRejected, rejected);
}

template <class Key>
__global__ void init_kernel(BTreeRef<Key> ref) {
  using L = Layout<Key>;
  const unsigned lane = threadIdx.x;
  if (lane < L::kSlots) L::init_slot(ref.nodes(), lane, L::kEmpty, 0);
  if (lane == L::kSlots) L::init_meta(ref.nodes(), L::kEmpty, kNoLink | kLeafFlag);
  if (lane == 0) *ref.state() = TreeState{0, 1, 0, 0};
}

template <class Key>
__global__ void insert_kernel(BTreeRef<Key> ref, const Key* keys, const Key* values,
                              std::uint64_t n, unsigned long long* counters) {
  unsigned long long added = 0, failed = 0, rejected = 0;
  Hint hint;
  for_each_tile_chunk<Layout<Key>::kLanes>(n, [&](const auto& tile, std::uint64_t i) {
    const Key k = keys[i];
    if (i + 1 < n && keys[i + 1] == k) return;  // sorted batch: the last pair of a key wins
    if (k == Layout<Key>::kEmpty) {
      ++rejected;
      return;
    }
    const InsertStatus st = ref.insert(tile, k, values[i], &hint);
    added += st == InsertStatus::kInserted;
    failed += st == InsertStatus::kOutOfNodes;
  });
  add_counts(this_tile<Layout<Key>::kLanes>(), counters, added, failed, rejected);
}

template <class Key>
__global__ void erase_kernel(BTreeRef<Key> ref, const Key* keys, std::uint64_t n,
                             unsigned long long* counters) {
  unsigned long long erased = 0, rejected = 0;
  Hint hint;
  for_each_tile_chunk<Layout<Key>::kLanes>(n, [&](const auto& tile, std::uint64_t i) {
    const Key k = keys[i];
    if (i + 1 < n && keys[i + 1] == k) return;
    if (k == Layout<Key>::kEmpty) {
      ++rejected;
      return;
    }
    erased += ref.erase(tile, k, &hint);
  });
  add_counts(this_tile<Layout<Key>::kLanes>(), counters, erased, 0, rejected);
}

template <class Key>
__global__ void find_kernel(BTreeRef<Key> ref, const Key* keys, std::uint64_t n, Key* out_values,
                            bool* out_found, unsigned long long* counters) {
  unsigned long long found = 0;
  for_each_tile_chunk<Layout<Key>::kLanes>(n, [&](const auto& tile, std::uint64_t i) {
    Key v = 0;
    const bool f = ref.template find<Access::kReadOnly>(tile, keys[i], &v);
    if (tile.thread_rank() == 0) {
      if (f && out_values) out_values[i] = v;
      if (out_found) out_found[i] = f;
    }
    found += f;
  });
  add_counts(this_tile<Layout<Key>::kLanes>(), counters, found, 0, 0);
}

template <class Key>
__global__ void count_kernel(BTreeRef<Key> ref, const Key* lo, const Key* hi, std::uint64_t n,
                             std::uint32_t* out_counts, std::uint64_t* out_counts64,
                             unsigned long long* counters) {
  unsigned long long total = 0;
  for_each_tile_chunk<Layout<Key>::kLanes>(n, [&](const auto& tile, std::uint64_t i) {
    const std::uint32_t c = ref.template range<Access::kReadOnly, false>(
        tile, lo[i], hi[i], [](Key, Key, std::uint32_t) {});
    if (tile.thread_rank() == 0) {
      if (out_counts) out_counts[i] = c;
      if (out_counts64) out_counts64[i] = c;
    }
    total += c;
  });
  add_counts(this_tile<Layout<Key>::kLanes>(), counters, total, 0, 0);
}

template <class Key>
__global__ void range_fill_kernel(BTreeRef<Key> ref, const Key* lo, const Key* hi, std::uint64_t n,
                                  const std::uint64_t* offsets, Key* out_keys, Key* out_values) {
  for_each_tile_chunk<Layout<Key>::kLanes>(n, [&](const auto& tile, std::uint64_t i) {
    const std::uint64_t base = offsets[i];
    ref.template range<Access::kReadOnly, true>(tile, lo[i], hi[i],
                                                [&](Key k, Key v, std::uint32_t idx) {
                                                  out_keys[base + idx] = k;
                                                  out_values[base + idx] = v;
                                                });
  });
}

template <bool kSuccessor, class Key>
__global__ void neighbour_kernel(BTreeRef<Key> ref, const Key* q, std::uint64_t n, Key* out_keys,
                                 Key* out_values, bool* out_found, unsigned long long* counters) {
  unsigned long long found = 0;
  for_each_tile_chunk<Layout<Key>::kLanes>(n, [&](const auto& tile, std::uint64_t i) {
    Key k = Layout<Key>::kEmpty, v = 0;
    const bool f = kSuccessor ? ref.template successor<Access::kReadOnly>(tile, q[i], &k, &v)
                              : ref.predecessor(tile, q[i], &k, &v);
    if (tile.thread_rank() == 0) {
      if (out_keys) out_keys[i] = f ? k : Layout<Key>::kEmpty;
      if (out_values && f) out_values[i] = v;
      if (out_found) out_found[i] = f;
    }
    found += f;
  });
  add_counts(this_tile<Layout<Key>::kLanes>(), counters, found, 0, 0);
}

/// counters: kDone = keys inserted minus keys erased (as a signed sum: inserted in kDone,
/// erased in kErased), kFailed = inserts out of nodes, kRejected = reserved keys.
template <class Key>
__global__ void apply_kernel(BTreeRef<Key> ref, const Op<Key>* ops, std::uint64_t n,
                             OpResult<Key>* results, unsigned long long* counters) {
  unsigned long long added = 0, failed = 0, rejected = 0, erased = 0;
  for_each_tile_chunk<Layout<Key>::kLanes>(n, [&](const auto& tile, std::uint64_t i) {
    const Op<Key> op = ops[i];
    OpResult<Key> r{0, Layout<Key>::kEmpty, 0};
    switch (op.kind) {
      case OpKind::kInsert:
        if (op.key == Layout<Key>::kEmpty) {
          ++rejected;
          r.status = static_cast<std::uint32_t>(InsertStatus::kReplaced);
          break;
        }
        r.status = static_cast<std::uint32_t>(ref.insert(tile, op.key, op.arg));
        added += r.status == static_cast<std::uint32_t>(InsertStatus::kInserted);
        failed += r.status == static_cast<std::uint32_t>(InsertStatus::kOutOfNodes);
        break;
      case OpKind::kErase:
        r.status = ref.erase(tile, op.key);
        erased += r.status;
        break;
      case OpKind::kFind:
        r.status = ref.template find<Access::kConcurrent>(tile, op.key, &r.value);
        if (r.status) r.key = op.key;
        break;
      case OpKind::kRangeCount:
        r.status = ref.template range<Access::kConcurrent, false>(tile, op.key, op.arg,
                                                                  [](Key, Key, std::uint32_t) {});
        break;
      case OpKind::kSuccessor:
        r.status = ref.template successor<Access::kConcurrent>(tile, op.key, &r.key, &r.value);
        break;
    }
    if (tile.thread_rank() == 0) results[i] = r;
  });
  const auto tile = this_tile<Layout<Key>::kLanes>();
  add_counts(tile, counters, added, failed, rejected);
  if (tile.thread_rank() == 0 && erased) atomicAdd(counters + kErased, erased);
}

}  // namespace wg::btree::detail
