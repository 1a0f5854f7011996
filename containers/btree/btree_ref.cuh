#pragma once
// wg::btree::BTreeRef<Key>: the trivially copyable device view of a wg::btree::BTree<Key>, passed
// by value into kernels. Every operation is tile-cooperative: all kTileLanes lanes of a tile
// (cooperative_groups::tiled_partition<kTileLanes>: 16 for 32-bit keys, 8 for 64-bit keys) call
// it together with the same arguments and get the same result; never call one under a branch
// that splits a tile (use wg::for_each_active_lane-style work sharing). Access selects the memory
// order of node reads: Access::kReadOnly only in kernels in which nothing writes the tree,
// Access::kConcurrent when updates run at the same time (inserts and erases always read that way).
//
// Semantics with concurrent updates (B-link tree, Lehman & Yao; Awad et al.): updates latch one
// leaf (a split also latches the parent); reads take no latch. A lookup, successor or range
// count of keys that no concurrent operation updates is exact; for updated keys it returns the
// old or the new state. Costs: O(log_B n) node reads of 128 bytes per operation, plus the side
// links followed (one per B keys of a range; B = 15 or 7 pairs per node).
#include <cstdint>

#include <warpgraph/containers/btree/detail/node.cuh>

namespace wg::btree {

namespace cg = cooperative_groups;
using detail::Access;

/// What an insert did.
enum class InsertStatus : std::uint32_t { kReplaced = 0, kInserted = 1, kOutOfNodes = 2 };

/// Where a tile's previous operation ended, so that the next one on a larger key can start at
/// that leaf instead of at the root (sorted batches). Start each tile with Hint{}.
struct Hint {
  std::uint32_t leaf = detail::kNoNode;
  std::uint32_t parent = detail::kNoNode;
  std::uint64_t key = 0;
};

/// Key: std::uint32_t (15 pairs per node, 16-lane tiles) or std::uint64_t (7 pairs, 8-lane
/// tiles); values have the key's width. kTileLanes lanes call each operation together.
template <class Key = std::uint32_t>
class BTreeRef {
  using L = detail::Layout<Key>;
  using Snap = detail::NodeSnap<Key>;

 public:
  using Node = detail::Node;
  using key_type = Key;
  using mapped_type = Key;
  static constexpr Key kEmptyKey = L::kEmpty;
  static constexpr unsigned kTileLanes = L::kLanes;

  BTreeRef() = default;
  __host__ __device__ BTreeRef(Node* nodes, detail::TreeState* state, std::uint32_t capacity)
      : nodes_(nodes), state_(state), capacity_(capacity) {}

  /// The root's index, the same in every lane (the root word may change while lanes read it).
  template <class Tile>
  __device__ std::uint32_t root(const Tile& tile) const {
    std::uint32_t r = 0;
    if (tile.thread_rank() == 0)
      r = detail::atomic_ref<std::uint32_t>(state_->root).load(cuda::memory_order_acquire);
    r = tile.shfl(r, 0);
    tile.sync();  // the leader's acquire orders every lane's reads of the new root
    return r;
  }

  /// The value of k, if present.
  template <Access A, class Tile>
  __device__ bool find(const Tile& tile, Key k, Key* value, Hint* hint = nullptr) const {
    if (k == kEmptyKey) return false;
    Snap s;
    const std::uint32_t leaf = find_leaf<A>(tile, k, s, hint);
    if (hint) *hint = Hint{leaf, detail::kNoNode, k};
    const unsigned b = tile.ballot(s.key == k);
    if (!b) return false;
    *value = tile.shfl(s.value, __ffs(b) - 1);
    return true;
  }

  /// The least key > q (strict successor) and its value.
  template <Access A, class Tile>
  __device__ bool successor(const Tile& tile, Key q, Key* key, Key* value) const {
    if (q >= kEmptyKey - 1) return false;
    Snap s;
    std::uint32_t cur = find_leaf<A>(tile, q + 1, s, nullptr);
    Key low = q + 1;  // keys below were covered by the nodes already read (see range)
    for (;;) {
      const bool cand = s.key != kEmptyKey && s.key >= low && s.key < s.high;
      const Key best = cg::reduce(tile, cand ? s.key : Key{kEmptyKey}, cg::less<Key>());
      const unsigned b = tile.ballot(cand && s.key == best);
      if (b) {
        *key = best;
        *value = tile.shfl(s.value, __ffs(b) - 1);
        return true;
      }
      if (s.high == kEmptyKey) return false;
      if (s.high > low) low = s.high;
      cur = s.link();
      s = detail::read_node<A, Key>(tile, nodes_, cur);
    }
  }

  /// The greatest key < q (strict predecessor) and its value. Read-only kernels only (it
  /// restarts from the root at the left end of an empty leaf).
  template <class Tile>
  __device__ bool predecessor(const Tile& tile, Key q, Key* key, Key* value) const {
    if (q == 0) return false;
    Key t = q == kEmptyKey ? kEmptyKey - 1 : q - 1;  // greatest key <= t
    for (;;) {
      std::uint32_t cur = root(tile);
      Key low = 0;
      Snap s;
      for (;;) {
        s = detail::read_node<Access::kReadOnly, Key>(tile, nodes_, cur);
        if (t >= s.high) {
          low = s.high;
          cur = s.link();
          continue;
        }
        if (s.leaf()) break;
        cur = detail::child_for(tile, s, t, &low);
      }
      const bool cand = s.key != kEmptyKey && s.key <= t;
      const Key best = cg::reduce(tile, cand ? s.key : Key{0}, cg::greater<Key>());
      const unsigned b = tile.ballot(cand && s.key == best);
      if (b) {
        *key = best;
        *value = tile.shfl(s.value, __ffs(b) - 1);
        return true;
      }
      if (low == 0) return false;
      t = low - 1;
    }
  }

  /// Visits the pairs with lo <= key <= hi in key order: f(key, value, index) is called by the
  /// lanes holding one, index counting from 0 over the whole range (kRanked = false: index is
  /// unspecified, for counting). Returns the number of pairs.
  ///
  /// Each node contributes only keys in [low, its high key), low being the greatest high key
  /// of the nodes read before it. A concurrent split stores the side link before the high key,
  /// so a snapshot may pair the old high key (and every moved pair, not yet erased) with the
  /// link to the new right node: that node's pairs below the old high key were counted here
  /// already and are skipped there, so no key is counted twice.
  template <Access A, bool kRanked, class Tile, class F>
  __device__ std::uint32_t range(const Tile& tile, Key lo, Key hi, F&& f) const {
    if (lo > hi || lo == kEmptyKey) return 0;
    Snap s;
    std::uint32_t cur = find_leaf<A>(tile, lo, s, nullptr);
    std::uint32_t total = 0;
    Key low = lo;
    for (;;) {
      const bool cand = s.key != kEmptyKey && s.key >= low && s.key <= hi && s.key < s.high;
      const unsigned b = tile.ballot(cand);
      unsigned rank = 0;
      if constexpr (kRanked) {
        for (unsigned m = b; m; m &= m - 1) {
          const Key other = tile.shfl(s.key, __ffs(m) - 1);
          rank += other < s.key;
        }
      }
      if (cand) f(s.key, s.value, total + rank);
      total += __popc(b);
      if (s.high == kEmptyKey || s.high > hi) return total;
      if (s.high > low) low = s.high;
      cur = s.link();
      s = detail::read_node<A, Key>(tile, nodes_, cur);
    }
  }

  /// Inserts (k, v) or replaces the value of k. kOutOfNodes when a split found the node pool
  /// exhausted (the tree is unchanged for k and the state's exhausted flag is set).
  template <class Tile>
  __device__ InsertStatus insert(const Tile& tile, Key k, Key v, Hint* hint = nullptr) const;

  /// Erases k; true when it was present. Leaves are never merged (an emptied leaf stays linked).
  template <class Tile>
  __device__ bool erase(const Tile& tile, Key k, Hint* hint = nullptr) const;

  // ---- leaf walks, for layers that read key ranges leaf by leaf (the graph's sorted adjacency) --
  /// A tile's snapshot of one leaf: lane l < kTileLanes - 1 holds slot l (key kEmptyKey when
  /// empty; slots are unordered), every lane the high key and link(); leaves come in key order.
  using leaf_type = Snap;
  /// The leaf whose range holds k (< kEmptyKey). Whole tile.
  template <Access A, class Tile>
  __device__ Snap leaf_for(const Tile& tile, Key k) const {
    Snap s;
    find_leaf<A>(tile, k, s, nullptr);
    return s;
  }
  /// The leaf after `leaf` (its right sibling); only when leaf.high != kEmptyKey. Whole tile.
  template <Access A, class Tile>
  __device__ Snap next_leaf(const Tile& tile, const Snap& leaf) const {
    return detail::read_node<A, Key>(tile, nodes_, leaf.link());
  }
  /// The value of k by ONE thread (no tile), with plain cached loads: read-only kernels only.
  /// O(log_B n) node reads of B pairs each.
  __device__ bool find_thread(Key k, Key* value) const {
    if (k == kEmptyKey) return false;
    std::uint32_t cur = __ldg(&state_->root);
    for (;;) {
      Node* n = nodes_ + cur;
      Key high, link_word;
      L::load_ro(n, L::kSlots, high, link_word);
      const auto link = static_cast<std::uint32_t>(link_word);
      if (k >= high) {
        cur = link & detail::kLinkMask;
        continue;
      }
      Key best = 0;
      std::uint32_t child = detail::kNoNode;
      for (unsigned i = 0; i < L::kSlots; ++i) {
        Key a, b;
        L::load_ro(n, i, a, b);
        if (link & detail::kLeafFlag) {
          if (a == k) {
            *value = b;
            return true;
          }
        } else if (a != kEmptyKey && a <= k && a < high && (child == detail::kNoNode || a > best)) {
          best = a;
          child = static_cast<std::uint32_t>(b);
        }
      }
      if ((link & detail::kLeafFlag) || child == detail::kNoNode) return false;
      cur = child;
    }
  }

  __host__ __device__ Node* nodes() const { return nodes_; }
  __host__ __device__ detail::TreeState* state() const { return state_; }
  __host__ __device__ std::uint32_t capacity() const { return capacity_; }

  /// The leaf whose range holds k (< kEmptyKey), with its snapshot in s.
  template <Access A, class Tile>
  __device__ std::uint32_t find_leaf(const Tile& tile, Key k, Snap& s, const Hint* hint) const {
    bool from_hint = hint && hint->leaf != detail::kNoNode && k >= hint->key;
    std::uint32_t cur = from_hint ? hint->leaf : root(tile);
    for (;;) {
      s = detail::read_node<A, Key>(tile, nodes_, cur);
      if (k >= s.high) {
        // From a hint, a key past the leaf is usually far away: the root is the shorter path.
        cur = from_hint ? root(tile) : s.link();
        from_hint = false;
        continue;
      }
      from_hint = false;
      if (s.leaf()) return cur;
      cur = detail::child_for(tile, s, k);
    }
  }

 private:
  template <class Tile>
  __device__ bool try_latch(const Tile& tile, std::uint32_t idx) const;
  template <class Tile>
  __device__ void unlatch(const Tile& tile, std::uint32_t idx) const;
  /// Reads node cur after latching it; when k has moved right of it (a split since), unlatches
  /// it and steps cur to its right sibling: true, latch that one instead.
  template <class Tile>
  __device__ __forceinline__ bool read_latched_moved_right(const Tile& tile, std::uint32_t& cur,
                                                           Key k, Snap& s) const;
  template <class Tile>
  __device__ std::uint32_t allocate(const Tile& tile, std::uint32_t count) const;
  template <class Tile>
  __device__ bool pool_exhausted(const Tile& tile) const;
  template <class Tile>
  __device__ Key split(const Tile& tile, std::uint32_t cur, const Snap& s, std::uint32_t right,
                       std::uint32_t new_root) const;

  Node* nodes_ = nullptr;
  detail::TreeState* state_ = nullptr;
  std::uint32_t capacity_ = 0;
};

}  // namespace wg::btree

#include <warpgraph/containers/btree/detail/ref_updates.cuh>
