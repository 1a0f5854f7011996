#pragma once
// The 128-byte node of wg::btree::BTree (32-bit keys and values) and the tile-wide node read.
// Not for use outside containers/btree.
//
// Layout: 16 cells of 64 bits, one per lane of a 16-lane tile (one 128-byte transaction).
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

inline constexpr std::uint32_t kEmptyKey = 0xFFFFFFFFu;  ///< reserved key; +infinity high key
inline constexpr std::uint32_t kSlots = 15;              ///< pairs per node
inline constexpr std::uint32_t kTileLanes = 16;          ///< lanes per node visit
inline constexpr std::uint32_t kLatch = 1u << 31;
inline constexpr std::uint32_t kLeafFlag = 1u << 30;
inline constexpr std::uint32_t kLinkMask = kLeafFlag - 1;
inline constexpr std::uint32_t kNoLink = kLinkMask;  ///< also the largest node count + 1
inline constexpr std::uint32_t kNoNode = 0xFFFFFFFFu;
inline constexpr std::uint32_t kSplitKeep = 7;  ///< pairs left in the left node by a split
inline constexpr std::uint64_t kEmptyCell = 0x00000000FFFFFFFFull;

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

__host__ __device__ constexpr std::uint64_t make_cell(std::uint32_t k, std::uint32_t v) {
  return std::uint64_t{k} | (std::uint64_t{v} << 32);
}

/// How a kernel reads nodes: kReadOnly when nothing writes the tree during the kernel (plain
/// cached loads), kConcurrent when other tiles may write (acquire loads, L1 bypassed).
enum class Access { kReadOnly, kConcurrent };

/// One tile's view of a node: lane l < 15 holds slot l (key kEmptyKey when empty; lane 15
/// holds kEmptyKey); every lane holds the high key and the link word.
struct NodeSnap {
  std::uint32_t key;
  std::uint32_t value;
  std::uint32_t high;
  std::uint32_t link_word;  ///< without the latch bit
  __device__ bool leaf() const { return (link_word & kLeafFlag) != 0; }
  __device__ std::uint32_t link() const { return link_word & kLinkMask; }
};

using u64_ref = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;
using u32_ref = cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>;

__device__ inline std::uint32_t* node_words(Node* n) {
  return reinterpret_cast<std::uint32_t*>(n);
}
__device__ inline unsigned long long* node_cells(Node* n) {
  return reinterpret_cast<unsigned long long*>(n->cell);
}

template <Access A, class Tile>
__device__ inline NodeSnap read_node(const Tile& tile, Node* pool, std::uint32_t idx) {
  const unsigned lane = tile.thread_rank();
  Node* n = pool + idx;
  NodeSnap s;
  if constexpr (A == Access::kReadOnly) {
    const unsigned long long c = __ldg(node_cells(n) + lane);
    const std::uint32_t lo = static_cast<std::uint32_t>(c),
                        hi = static_cast<std::uint32_t>(c >> 32);
    s.key = lane < kSlots ? lo : kEmptyKey;
    s.value = hi;
    s.high = tile.shfl(lo, kSlots);
    s.link_word = tile.shfl(hi, kSlots) & ~kLatch;
  } else {
    unsigned long long c = kEmptyCell;
    if (lane < kSlots) c = u64_ref(node_cells(n)[lane]).load(cuda::memory_order_acquire);
    s.key = static_cast<std::uint32_t>(c);
    s.value = static_cast<std::uint32_t>(c >> 32);
    // Every lane reads the high key after its slot: a split writes the link, then the high key,
    // then empties the moved slots (release), so a lane that saw a slot emptied by a split sees
    // that split's (or a later) high key. High keys only decrease, so the tile takes the least
    // one seen, with the link read by the same lane after it (a newer link is always safe).
    const std::uint32_t high = u32_ref(node_words(n)[30]).load(cuda::memory_order_acquire);
    const std::uint32_t link = u32_ref(node_words(n)[31]).load(cuda::memory_order_acquire);
    const std::uint32_t least = cg::reduce(tile, high, cg::less<std::uint32_t>());
    const int src = __ffs(tile.ballot(high == least)) - 1;
    s.high = least;
    s.link_word = tile.shfl(link, src) & ~kLatch;
  }
  return s;
}

/// Number of occupied slots of a snapshot (entries at or above the high key included: callers
/// that hold the latch see none of those).
template <class Tile>
__device__ inline unsigned occupied(const Tile& tile, const NodeSnap& s) {
  return __popc(tile.ballot(s.key != kEmptyKey));
}

/// Inner node: the child whose range holds k (the largest live pivot <= k); kNoNode when the
/// node has none (cannot happen for a node reached with k >= its low key).
template <class Tile>
__device__ inline std::uint32_t child_for(const Tile& tile, const NodeSnap& s, std::uint32_t k,
                                          std::uint32_t* low = nullptr) {
  const bool cand = s.key != kEmptyKey && s.key <= k && s.key < s.high;
  const std::uint32_t best = cg::reduce(tile, cand ? s.key : 0u, cg::greater<std::uint32_t>());
  const unsigned b = tile.ballot(cand && s.key == best);
  if (!b) return kNoNode;
  if (low) *low = best;
  return tile.shfl(s.value, __ffs(b) - 1);
}

}  // namespace wg::btree::detail
