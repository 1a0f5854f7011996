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

/// This tile's contiguous chunk [*begin, *end) of [0, n).
template <unsigned kLanes>
__device__ inline void tile_chunk(std::uint64_t n, std::uint64_t* begin, std::uint64_t* end) {
  const std::uint64_t tiles_per_block = blockDim.x / kLanes;
  const std::uint64_t tiles = std::uint64_t{gridDim.x} * tiles_per_block;
  const std::uint64_t t = std::uint64_t{blockIdx.x} * tiles_per_block + threadIdx.x / kLanes;
  const std::uint64_t chunk = (n + tiles - 1) / tiles;
  *begin = t * chunk < n ? t * chunk : n;
  *end = *begin + chunk < n ? *begin + chunk : n;
}

template <unsigned kLanes, class F>
__device__ inline void for_each_tile_chunk(std::uint64_t n, F&& f) {
  const auto tile = this_tile<kLanes>();
  std::uint64_t begin, end;
  tile_chunk<kLanes>(n, &begin, &end);
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

__global__ void iota_kernel(std::uint32_t* out, std::uint64_t n) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    out[i] = static_cast<std::uint32_t>(i);
}

template <class Key>
__global__ void init_kernel(BTreeRef<Key> ref) {
  using L = Layout<Key>;
  const unsigned lane = threadIdx.x;
  if (lane < L::kSlots) L::init_slot(ref.nodes(), lane, L::kEmpty, 0);
  if (lane == L::kSlots) L::init_meta(ref.nodes(), L::kEmpty, kNoLink | kLeafFlag);
  if (lane == 0) *ref.state() = TreeState{0, 1, 0, 0};
}

/// out_flags (may be null): 1 where keys[i] was added (insert) or erased (erase), else 0.
/// check_sorted: counts keys smaller than their predecessor (the *_sorted entry points).
/// Insert: each run of keys that fall in one leaf with room (BTreeRef::insert_run) under one
/// latch.
template <class Key>
__global__ void insert_kernel(BTreeRef<Key> ref, const Key* keys, const Key* values,
                              std::uint64_t n, unsigned long long* counters,
                              std::uint8_t* out_flags, bool check_sorted) {
  unsigned long long added = 0, failed = 0, rejected = 0, unsorted = 0;
  Hint hint;
  const auto tile = this_tile<Layout<Key>::kLanes>();
  const bool lead = tile.thread_rank() == 0;
  std::uint64_t begin, end;
  tile_chunk<Layout<Key>::kLanes>(n, &begin, &end);
  const auto done = [&](std::uint64_t j, InsertStatus st) {
    if (check_sorted && j > 0 && keys[j - 1] > keys[j]) ++unsorted;
    added += st == InsertStatus::kInserted;
    failed += st == InsertStatus::kOutOfNodes;
    if (out_flags && lead) out_flags[j] = st == InsertStatus::kInserted ? 1 : 0;
  };
  for (std::uint64_t i = begin; i < end;) {
    const Key k = keys[i];
    const bool repeated = i + 1 < n && keys[i + 1] == k;
    if (repeated || k == Layout<Key>::kEmpty) {  // the last pair of a key wins
      rejected += k == Layout<Key>::kEmpty && !repeated;
      done(i, InsertStatus::kReplaced);
      ++i;
      continue;
    }
    i = ref.insert_run(tile, keys, values, i, end, n, &hint, done);
  }
  add_counts(tile, counters, added, failed, rejected);
  if (lead && unsorted) atomicAdd(counters + kUnsorted, unsorted);
}

/// Erase: each run of keys that fall in one leaf (BTreeRef::erase_run) under one latch.
template <class Key>
__global__ void erase_kernel(BTreeRef<Key> ref, const Key* keys, std::uint64_t n,
                             unsigned long long* counters, std::uint8_t* out_flags,
                             bool check_sorted) {
  unsigned long long erased = 0, rejected = 0, unsorted = 0;
  Hint hint;
  const auto tile = this_tile<Layout<Key>::kLanes>();
  const bool lead = tile.thread_rank() == 0;
  std::uint64_t begin, end;
  tile_chunk<Layout<Key>::kLanes>(n, &begin, &end);
  const auto done = [&](std::uint64_t j, bool e) {
    if (check_sorted && j > 0 && keys[j - 1] > keys[j]) ++unsorted;
    erased += e;
    if (out_flags && lead) out_flags[j] = e ? 1 : 0;
  };
  for (std::uint64_t i = begin; i < end;) {
    const Key k = keys[i];
    const bool repeated = i + 1 < n && keys[i + 1] == k;
    if (repeated || k == Layout<Key>::kEmpty) {
      rejected += k == Layout<Key>::kEmpty && !repeated;
      done(i, false);
      ++i;
      continue;
    }
    i = ref.erase_run(tile, keys, i, end, n, &hint, done);
  }
  add_counts(tile, counters, erased, 0, rejected);
  if (lead && unsorted) atomicAdd(counters + kUnsorted, unsorted);
}

/// order (may be null): keys are sorted and keys[i] is query order[i] (answers go there); the
/// tile then carries a Hint from one query to the next.
template <class Key>
__global__ void find_kernel(BTreeRef<Key> ref, const Key* keys, const std::uint32_t* order,
                            std::uint64_t n, Key* out_values, bool* out_found,
                            unsigned long long* counters) {
  unsigned long long found = 0;
  Hint hint;
  for_each_tile_chunk<Layout<Key>::kLanes>(n, [&](const auto& tile, std::uint64_t i) {
    Key v = 0;
    const bool f = ref.template find<Access::kReadOnly>(tile, keys[i], &v, order ? &hint : nullptr);
    if (tile.thread_rank() == 0) {
      const std::uint64_t at = order ? order[i] : i;
      if (f && out_values) out_values[at] = v;
      if (out_found) out_found[at] = f;
    }
    found += f;
  });
  add_counts(this_tile<Layout<Key>::kLanes>(), counters, found, 0, 0);
}

/// out_leaves (may be null): each query's start leaf, for range_fill_kernel. order (may be
/// null): lo is sorted and lo[i] is query order[i] (hi[order[i]] its upper bound; counts go to
/// order[i], leaves stay at i), walked with a Hint.
template <class Key>
__global__ void count_kernel(BTreeRef<Key> ref, const Key* lo, const Key* hi,
                             const std::uint32_t* order, std::uint64_t n, std::uint32_t* out_counts,
                             std::uint64_t* out_counts64, std::uint32_t* out_leaves,
                             unsigned long long* counters) {
  unsigned long long total = 0;
  Hint hint;
  for_each_tile_chunk<Layout<Key>::kLanes>(n, [&](const auto& tile, std::uint64_t i) {
    const std::uint64_t q = order ? order[i] : i;
    std::uint32_t leaf = kNoNode;
    const std::uint32_t c = ref.template range<Access::kReadOnly, false>(
        tile, lo[i], hi[q], [](Key, Key, std::uint32_t) {}, &leaf, order ? &hint : nullptr);
    if (tile.thread_rank() == 0) {
      if (out_counts) out_counts[q] = c;
      if (out_counts64) out_counts64[q] = c;
      if (out_leaves) out_leaves[i] = leaf;
    }
    total += c;
  });
  add_counts(this_tile<Layout<Key>::kLanes>(), counters, total, 0, 0);
}

/// The second pass of range(): queries with hits only, each from the start leaf count_kernel
/// found (the tree is unchanged in between), writing at its offset. lo, order as count_kernel's.
template <class Key>
__global__ void range_fill_kernel(BTreeRef<Key> ref, const Key* lo, const Key* hi,
                                  const std::uint32_t* order, std::uint64_t n,
                                  const std::uint64_t* offsets, const std::uint32_t* leaves,
                                  Key* out_keys, Key* out_values) {
  for_each_tile_chunk<Layout<Key>::kLanes>(n, [&](const auto& tile, std::uint64_t i) {
    const std::uint64_t q = order ? order[i] : i;
    const std::uint64_t base = offsets[q];
    if (offsets[q + 1] == base) return;
    ref.template range_from<Access::kReadOnly, true>(tile, leaves[i], lo[i], hi[q],
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
