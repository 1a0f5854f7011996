#pragma once
// BTreeRef's updates: latches, node allocation, split, insert and erase (included by
// btree_ref.cuh). The protocol (Awad et al., section 3): reads take no latch; an insert latches
// a leaf, or a full node on its way down, and splits full nodes proactively, so that the parent
// of a splitting node always has room; a failed latch restarts from the last-known parent
// instead of spinning. No tile waits for a latch while holding one: when the parent of a split
// is busy, the child is unlatched and the tile backs off and retries, so a tile never blocks the
// holder it waits for, even when both share a warp and the warp's tiles are not scheduled
// independently (as under compute-sanitizer). Every wait sleeps with a growing backoff.
//
// A split of node L (latched, full) with parent P (latched, not full, holding L):
//   1. R (fresh) gets the upper 8 pairs, L's high key and link; fence.
//   2. L's link word := R (release), then L's high key := R's least key (release): a reader
//      that sees the new high key goes right to R, which is complete.
//   3. The moved slots of L are emptied (release stores, one per slot).
//   4. P gets (R's least key, R) in a free slot (release); P and L are unlatched (release).
// The root is split like any node, then a new root over (0 -> L, sep -> R) is published
// through the state's root word, so a reader holding the old root index still sees a valid
// node. Nodes are never freed (no merges).
#include <warpgraph/containers/btree/btree_ref.cuh>

namespace wg::btree {

template <class Key>
template <class Tile>
__device__ bool BTreeRef<Key>::try_latch(const Tile& tile, std::uint32_t idx) const {
  std::uint32_t old = 0;
  if (tile.thread_rank() == 0)
    old = detail::atomic_ref<std::uint32_t>(*L::link(nodes_ + idx))
              .fetch_or(detail::kLatch, cuda::memory_order_acquire);
  old = tile.shfl(old, 0);
  tile.sync();  // orders the leader's acquire before every lane's reads of the node
  return (old & detail::kLatch) == 0;
}

template <class Key>
template <class Tile>
__device__ void BTreeRef<Key>::unlatch(const Tile& tile, std::uint32_t idx) const {
  tile.sync();  // every lane's writes to the node and its new sibling precede the release
  if (tile.thread_rank() == 0)
    detail::atomic_ref<std::uint32_t>(*L::link(nodes_ + idx))
        .fetch_and(~detail::kLatch, cuda::memory_order_release);
}

template <class Key>
template <class Tile>
__device__ __forceinline__ bool BTreeRef<Key>::read_latched_moved_right(const Tile& tile,
                                                                        std::uint32_t& cur, Key k,
                                                                        Snap& s) const {
  s = detail::read_node<Access::kConcurrent, Key>(tile, nodes_, cur);
  if (k < s.high) return false;
  unlatch(tile, cur);
  cur = s.link();
  return true;
}

template <class Key>
template <class Tile>
__device__ std::uint32_t BTreeRef<Key>::allocate(const Tile& tile, std::uint32_t count) const {
  std::uint32_t base = 0;
  if (tile.thread_rank() == 0) {
    // Once exhausted, fail without touching the counter (it cannot creep towards overflow).
    base = detail::atomic_ref<std::uint32_t>(state_->exhausted).load(cuda::memory_order_relaxed)
               ? detail::kNoNode
               : atomicAdd(&state_->next_free, count);
    // Past the end (or racing past it): report, never wrap; the counter stays saturated high.
    if (base != detail::kNoNode && (base > capacity_ || capacity_ - base < count)) {
      atomicExch(&state_->exhausted, 1u);
      base = detail::kNoNode;
    }
    if (base == detail::kNoNode) atomicExch(&state_->exhausted, 1u);
  }
  return tile.shfl(base, 0);
}

template <class Key>
template <class Tile>
__device__ bool BTreeRef<Key>::pool_exhausted(const Tile& tile) const {
  std::uint32_t e = 0;
  if (tile.thread_rank() == 0)
    e = detail::atomic_ref<std::uint32_t>(state_->exhausted).load(cuda::memory_order_relaxed);
  return tile.shfl(e, 0) != 0;
}

/// Splits latched, full `cur` (snapshot s, taken under the latch) into cur + `right`; with
/// new_root != kNoNode also writes the new root over both. Returns the separator. The caller
/// holds cur's latch (and the parent's) and unlatches afterwards.
template <class Key>
template <class Tile>
__device__ Key BTreeRef<Key>::split(const Tile& tile, std::uint32_t cur, const Snap& s,
                                    std::uint32_t right, std::uint32_t new_root) const {
  using detail::kLatch;
  using detail::kLeafFlag;
  using detail::kNoLink;
  using detail::kNoNode;
  const unsigned lane = tile.thread_rank();
  // Rank of each (distinct) key among the kSlots.
  unsigned rank = 0;
  for (unsigned j = 0; j < L::kSlots; ++j) rank += tile.shfl(s.key, j) < s.key;
  const bool moves = lane < L::kSlots && rank >= L::kSplitKeep;
  const unsigned moved_mask = tile.ballot(moves);
  const Key sep =
      tile.shfl(s.key, __ffs(tile.ballot(lane < L::kSlots && rank == L::kSplitKeep)) - 1);
  Node* rn = nodes_ + right;
  if (moves) L::init_slot(rn, rank - L::kSplitKeep, s.key, s.value);
  if (lane >= L::kSlots - L::kSplitKeep && lane < L::kSlots) L::init_slot(rn, lane, kEmptyKey, 0);
  if (lane == L::kSlots) L::init_meta(rn, s.high, s.link_word);  // unlatched, same leaf flag
  if (new_root != kNoNode) {
    Node* nn = nodes_ + new_root;
    if (lane == 0) L::init_slot(nn, 0, 0, cur);
    if (lane == 1) L::init_slot(nn, 1, sep, right);
    if (lane >= 2 && lane < L::kSlots) L::init_slot(nn, lane, kEmptyKey, 0);
    if (lane == L::kSlots) L::init_meta(nn, kEmptyKey, kNoLink);
  }
  __threadfence();
  tile.sync();
  if (lane == 0) {
    Node* cn = nodes_ + cur;
    detail::atomic_ref<std::uint32_t>(*L::link(cn))
        .store(right | (s.link_word & kLeafFlag) | kLatch, cuda::memory_order_release);
    detail::atomic_ref<Key>(*L::high(cn)).store(sep, cuda::memory_order_release);
    for (unsigned m = moved_mask; m; m &= m - 1) L::erase_slot(cn, __ffs(m) - 1);
    if (new_root != kNoNode)
      detail::atomic_ref<std::uint32_t>(state_->root).store(new_root, cuda::memory_order_release);
  }
  return sep;
}

template <class Key>
template <class Tile>
__device__ InsertStatus BTreeRef<Key>::insert(const Tile& tile, Key k, Key v, Hint* hint) const {
  using detail::Access;
  using detail::kNoNode;
  bool from_hint = hint && hint->leaf != kNoNode && k >= hint->key;
  std::uint32_t cur = from_hint ? hint->leaf : root(tile);
  std::uint32_t parent = from_hint ? hint->parent : kNoNode;
  unsigned backoff = 32;
  for (;;) {
    Snap s = detail::read_node<Access::kConcurrent, Key>(tile, nodes_, cur);
    if (k >= s.high) {
      if (from_hint) {
        cur = root(tile);
        parent = kNoNode;
      } else {
        cur = s.link();  // parent stays the last-known one
      }
      from_hint = false;
      continue;
    }
    from_hint = false;
    if (!s.leaf() && detail::occupied(tile, s) < L::kSlots) {
      parent = cur;
      cur = detail::child_for(tile, s, k);
      continue;
    }
    if (!try_latch(tile, cur)) {
      // Back off, then restart from the last-known parent (the busy node may be splitting).
      __nanosleep(backoff);
      if (backoff < 1024) backoff *= 2;
      if (parent != kNoNode) {
        cur = parent;
        parent = kNoNode;
      } else {
        cur = root(tile);
      }
      continue;
    }
    if (read_latched_moved_right(tile, cur, k, s)) continue;
    const unsigned used = detail::occupied(tile, s);
    const unsigned match = s.leaf() ? tile.ballot(s.key == k) : 0u;
    if (used < L::kSlots || match) {
      if (!s.leaf()) {  // split by someone else since the first read
        unlatch(tile, cur);
        parent = cur;
        cur = detail::child_for(tile, s, k);
        continue;
      }
      const unsigned slot = match ? __ffs(match) - 1 : __ffs(tile.ballot(s.key == kEmptyKey)) - 1;
      if (tile.thread_rank() == 0) L::store_slot(nodes_ + cur, slot, k, v);
      unlatch(tile, cur);
      if (hint) *hint = Hint{cur, parent, k};
      return match ? InsertStatus::kReplaced : InsertStatus::kInserted;
    }
    // Full: split it now (proactively, also for inner nodes). Without a free node, a full
    // inner node is passed through unsplit (its child may have room); a full leaf fails.
    const std::uint32_t child = s.leaf() ? kNoNode : detail::child_for(tile, s, k);
    if (cur == root(tile)) {  // stable: only the holder of the root's latch replaces the root
      const std::uint32_t base = allocate(tile, 2);
      if (base == kNoNode) {
        unlatch(tile, cur);
        if (s.leaf()) return InsertStatus::kOutOfNodes;
        parent = cur;
        cur = child;
        continue;
      }
      split(tile, cur, s, base, base + 1);
      unlatch(tile, cur);
      parent = base + 1;
      continue;  // re-read cur: k may now belong to the right half
    }
    if (parent == kNoNode) {
      unlatch(tile, cur);
      cur = root(tile);
      continue;
    }
    if (!try_latch(tile, parent)) {
      unlatch(tile, cur);  // never hold a latch while waiting for another
      __nanosleep(backoff);
      if (backoff < 1024) backoff *= 2;
      continue;  // re-read cur (unlatched): it may have been split meanwhile
    }
    const Snap p = detail::read_node<Access::kConcurrent, Key>(tile, nodes_, parent);
    const bool holds = tile.ballot(p.key != kEmptyKey && p.key < p.high && p.value == cur) != 0;
    const bool parent_full = detail::occupied(tile, p) == L::kSlots;
    std::uint32_t right = kNoNode;
    if (holds && !parent_full) right = allocate(tile, 1);
    if (right == kNoNode) {
      unlatch(tile, parent);
      unlatch(tile, cur);
      if (!holds) {  // not the true parent (it split): find that from here by side links
        cur = parent;
        parent = kNoNode;
      } else if (!pool_exhausted(tile)) {  // full parent: the descent from the root splits it
        cur = root(tile);
        parent = kNoNode;
      } else if (s.leaf()) {
        return InsertStatus::kOutOfNodes;
      } else {
        parent = cur;
        cur = child;
      }
      continue;
    }
    const Key sep = split(tile, cur, s, right, kNoNode);
    const unsigned free_slot = __ffs(tile.ballot(p.key == kEmptyKey)) - 1;
    if (tile.thread_rank() == 0) L::store_slot(nodes_ + parent, free_slot, sep, right);
    unlatch(tile, parent);
    unlatch(tile, cur);
  }
}

template <class Key>
template <class Tile>
__device__ bool BTreeRef<Key>::erase(const Tile& tile, Key k, Hint* hint) const {
  using detail::Access;
  if (k == kEmptyKey) return false;
  Snap s;
  std::uint32_t cur = find_leaf<Access::kConcurrent>(tile, k, s, hint);
  unsigned backoff = 32;
  for (;;) {
    if (!try_latch(tile, cur)) {
      // Busy (maybe splitting): back off, then re-read it and move right if k has left it.
      __nanosleep(backoff);
      if (backoff < 1024) backoff *= 2;
      s = detail::read_node<Access::kConcurrent, Key>(tile, nodes_, cur);
      if (k >= s.high) cur = s.link();
      continue;
    }
    if (read_latched_moved_right(tile, cur, k, s)) continue;
    const unsigned match = tile.ballot(s.key == k);
    if (match && tile.thread_rank() == 0) L::erase_slot(nodes_ + cur, __ffs(match) - 1);
    unlatch(tile, cur);
    if (hint) *hint = Hint{cur, detail::kNoNode, k};
    return match != 0;
  }
}

}  // namespace wg::btree
