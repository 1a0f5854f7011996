#pragma once
// The 128-byte node of wg::btree::BTree and the tile-wide node read. Not for use outside
// containers/btree.
//
// Layout for 32-bit keys and values (Layout<uint32_t>): 16 cells of 64 bits, one per lane of a
// 16-lane tile (one 128-byte transaction).
//   cell[0..14]  (key | value << 32); an empty slot has key kEmptyKey. Slots are NOT sorted:
//                an insert writes one free cell and an erase empties one, each a single 64-bit
//                store, so a lock-free reader sees every untouched pair in place (a sorted node
//                would shift pairs and a torn read could miss one).
//   cell[15]     word 30 = high key (the least key of the right sibling's range; kEmptyKey =
//                +infinity for the last node of a level), word 31 = link word:
//                bit 31 latch, bit 30 leaf, bits 0..29 right sibling (kNoLink = none).
// In an inner node a slot is (pivot, child): the child covers [pivot, next larger pivot) and
// the largest pivot covers up to the node's high key; the least pivot is the node's low key
// (0 for the leftmost node of a level). So one 32-bit key value (kEmptyKey) is reserved and
// every other key is usable; the latch and leaf flag live in the link word, not in key bits.
//
// Layout for 64-bit keys and values (Layout<uint64_t>): 8 cells of 128 bits, one per lane of
// an 8-lane tile: cell[0..6] (key, value), cell[7] (high key, link word in the low 32 bits).
// A 128-bit cell is not written atomically: an insert stores the value, then the key
// (release); a reader loads the key (acquire), then the value, so it never pairs a new key with
// a stale value. 7 pairs per node (branching 7), reserved key 2^64 - 1.
//
// Memory order (readers take no latch): a writer holds the node's latch (acquire on taking it,
// release on dropping it) and publishes with release stores; concurrent readers load every
// word with acquire, and each lane re-reads the high key after its slot, so a reader that sees
// an entry removed by a split also sees the high key that sends it right (see read_node).
#ifndef WG_BTREE_HOST_EMULATION  // tests/containers/btree/tile_emulation.hpp supplies these
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/atomic>
#endif

#include <cstdint>

namespace wg::btree::detail {

namespace cg = cooperative_groups;

inline constexpr std::uint32_t kLatch = 1u << 31;
inline constexpr std::uint32_t kLeafFlag = 1u << 30;
inline constexpr std::uint32_t kLinkMask = kLeafFlag - 1;
inline constexpr std::uint32_t kNoLink = kLinkMask;  ///< also the largest node count + 1
inline constexpr std::uint32_t kNoNode = 0xFFFFFFFFu;

struct alignas(128) Node {
  std::uint64_t cell[16];
};
static_assert(sizeof(Node) == 128);

/// Device-side state next to the pool: root index, bump allocator, exhaustion flag.
struct TreeState {
  std::uint32_t root;
  std::uint32_t next_free;
  std::uint32_t exhausted;
  std::uint32_t pad;
};

/// Counters of a batch in device memory (summed per tile, added once, read by the host).
enum Counter : int { kDone = 0, kFailed = 1, kRejected = 2, kErased = 3, kNumCounters = 4 };

/// How a kernel reads nodes: kReadOnly when nothing writes the tree during the kernel (plain
/// cached loads), kConcurrent when other tiles may write (acquire loads, L1 bypassed).
enum class Access { kReadOnly, kConcurrent };

template <class T>
using atomic_ref = cuda::atomic_ref<T, cuda::thread_scope_device>;

template <class Key>
struct Layout;

template <>
struct Layout<std::uint32_t> {
  using Key = std::uint32_t;
  static constexpr unsigned kSlots = 15;      ///< pairs per node
  static constexpr unsigned kLanes = 16;      ///< lanes per node visit
  static constexpr unsigned kSplitKeep = 7;   ///< pairs left in the left node by a split
  static constexpr Key kEmpty = 0xFFFFFFFFu;  ///< reserved key; +infinity high key
  __host__ __device__ static constexpr std::uint64_t cell(Key k, Key v) {
    return std::uint64_t{k} | (std::uint64_t{v} << 32);
  }
  __host__ __device__ static unsigned long long* cells(Node* n) {
    return reinterpret_cast<unsigned long long*>(n->cell);
  }
  __device__ static Key* high(Node* n) { return reinterpret_cast<Key*>(n) + 30; }
  __device__ static std::uint32_t* link(Node* n) {
    return reinterpret_cast<std::uint32_t*>(n) + 31;
  }
  /// Lane `lane`'s cell with plain cached loads: (key, value), or (high, link word) for the
  /// meta lane kSlots.
  __device__ static void load_ro(Node* n, unsigned lane, Key& a, Key& b) {
    const unsigned long long c = __ldg(cells(n) + lane);
    a = static_cast<Key>(c);
    b = static_cast<Key>(c >> 32);
  }
  __device__ static void load_slot(Node* n, unsigned slot, Key& k, Key& v) {
    const unsigned long long c =
        atomic_ref<unsigned long long>(cells(n)[slot]).load(cuda::memory_order_acquire);
    k = static_cast<Key>(c);
    v = static_cast<Key>(c >> 32);
  }
  __device__ static void store_slot(Node* n, unsigned slot, Key k, Key v) {
    atomic_ref<unsigned long long>(cells(n)[slot]).store(cell(k, v), cuda::memory_order_release);
  }
  __device__ static void erase_slot(Node* n, unsigned slot) { store_slot(n, slot, kEmpty, 0); }
  /// Plain stores into a node nobody else can see yet.
  __host__ __device__ static void init_slot(Node* n, unsigned slot, Key k, Key v) {
    cells(n)[slot] = cell(k, v);
  }
  __host__ __device__ static void init_meta(Node* n, Key high, std::uint32_t link_word) {
    cells(n)[kSlots] = cell(high, link_word);
  }
};

template <>
struct Layout<std::uint64_t> {
  using Key = std::uint64_t;
  static constexpr unsigned kSlots = 7;
  static constexpr unsigned kLanes = 8;
  static constexpr unsigned kSplitKeep = 3;
  static constexpr Key kEmpty = ~Key{0};
  __host__ __device__ static unsigned long long* words(Node* n) {
    return reinterpret_cast<unsigned long long*>(n->cell);
  }
  __device__ static Key* high(Node* n) { return reinterpret_cast<Key*>(words(n) + 14); }
  __device__ static std::uint32_t* link(Node* n) {
    return reinterpret_cast<std::uint32_t*>(n) + 30;
  }
  __device__ static void load_ro(Node* n, unsigned lane, Key& a, Key& b) {
    const ulonglong2 c = __ldg(reinterpret_cast<const ulonglong2*>(n) + lane);
    a = c.x;
    b = c.y;
  }
  __device__ static void load_slot(Node* n, unsigned slot, Key& k, Key& v) {
    k = atomic_ref<unsigned long long>(words(n)[2 * slot]).load(cuda::memory_order_acquire);
    v = atomic_ref<unsigned long long>(words(n)[2 * slot + 1]).load(cuda::memory_order_relaxed);
  }
  __device__ static void store_slot(Node* n, unsigned slot, Key k, Key v) {
    atomic_ref<unsigned long long>(words(n)[2 * slot + 1]).store(v, cuda::memory_order_relaxed);
    atomic_ref<unsigned long long>(words(n)[2 * slot]).store(k, cuda::memory_order_release);
  }
  __device__ static void erase_slot(Node* n, unsigned slot) {
    atomic_ref<unsigned long long>(words(n)[2 * slot]).store(kEmpty, cuda::memory_order_release);
  }
  __host__ __device__ static void init_slot(Node* n, unsigned slot, Key k, Key v) {
    words(n)[2 * slot] = k;
    words(n)[2 * slot + 1] = v;
  }
  __host__ __device__ static void init_meta(Node* n, Key high, std::uint32_t link_word) {
    words(n)[14] = high;
    words(n)[15] = link_word;
  }
};

/// One tile's view of a node: lane l < kSlots holds slot l (key kEmpty when empty; the other
/// lanes hold kEmpty); every lane holds the high key and the link word.
template <class Key>
struct NodeSnap {
  Key key;
  Key value;
  Key high;
  std::uint32_t link_word;  ///< without the latch bit
  __device__ bool leaf() const { return (link_word & kLeafFlag) != 0; }
  __device__ std::uint32_t link() const { return link_word & kLinkMask; }
};

template <Access A, class Key, class Tile>
__device__ inline NodeSnap<Key> read_node(const Tile& tile, Node* pool, std::uint32_t idx) {
  using L = Layout<Key>;
  const unsigned lane = tile.thread_rank();
  Node* n = pool + idx;
  NodeSnap<Key> s;
  if constexpr (A == Access::kReadOnly) {
    Key a, b;
    L::load_ro(n, lane, a, b);
    s.key = lane < L::kSlots ? a : L::kEmpty;
    s.value = b;
    s.high = tile.shfl(a, L::kSlots);
    s.link_word = static_cast<std::uint32_t>(tile.shfl(b, L::kSlots)) & ~kLatch;
  } else {
    s.key = L::kEmpty;
    s.value = 0;
    if (lane < L::kSlots) L::load_slot(n, lane, s.key, s.value);
    // Every lane reads the high key after its slot: a split writes the link, then the high key,
    // then empties the moved slots (release), so a lane that saw a slot emptied by a split sees
    // that split's (or a later) high key. High keys only decrease, so the tile takes the least
    // one seen, with the link read by the same lane after it. That link may be newer than the
    // high key (a split stores the link first): routing by key stays correct, and range and
    // successor skip, in each next node, keys below the high keys already passed (btree_ref.cuh).
    const Key high = atomic_ref<Key>(*L::high(n)).load(cuda::memory_order_acquire);
    const std::uint32_t link =
        atomic_ref<std::uint32_t>(*L::link(n)).load(cuda::memory_order_acquire);
    const Key least = cg::reduce(tile, high, cg::less<Key>());
    const int src = __ffs(tile.ballot(high == least)) - 1;
    s.high = least;
    s.link_word = tile.shfl(link, src) & ~kLatch;
  }
  return s;
}

/// Number of occupied slots of a snapshot (entries at or above the high key included: callers
/// that hold the latch see none of those).
template <class Key, class Tile>
__device__ inline unsigned occupied(const Tile& tile, const NodeSnap<Key>& s) {
  return __popc(tile.ballot(s.key != Layout<Key>::kEmpty));
}

/// Inner node: the child whose range holds k (the largest live pivot <= k), its pivot in *low;
/// kNoNode when the node has none (cannot happen for a node reached with k >= its low key).
template <class Key, class Tile>
__device__ inline std::uint32_t child_for(const Tile& tile, const NodeSnap<Key>& s, Key k,
                                          Key* low = nullptr) {
  const bool cand = s.key != Layout<Key>::kEmpty && s.key <= k && s.key < s.high;
  const Key best = cg::reduce(tile, cand ? s.key : Key{0}, cg::greater<Key>());
  const unsigned b = tile.ballot(cand && s.key == best);
  if (!b) return kNoNode;
  if (low) *low = best;
  return static_cast<std::uint32_t>(tile.shfl(s.value, __ffs(b) - 1));
}

}  // namespace wg::btree::detail
