#pragma once
// wg::btree::BTree<Key>: a GPU B-link tree (Awad et al., "Engineering a High-Performance GPU
// B-Tree", PPoPP'19; Awad's thesis, chapter 3) of 32-bit keys and values (the default) or 64-bit
// keys and values (BTree<std::uint64_t>, alias BTree64), in the container shape of the slab
// table: an owning host object over a node pool in device memory, and a trivially copyable
// device ref (BTreeRef<Key>, btree_ref.cuh) for your own kernels.
//
//   wg::btree::BTree<> tree({.node_capacity = 1 << 20}, stream);
//   tree.build(d_keys, d_values, n, stream);              // unsorted pairs, last duplicate wins
//   std::uint64_t added = tree.insert(d_keys, d_values, m, stream);   // insert or replace
//   tree.find(d_queries, q, d_values_out, d_found, stream);
//   tree.range(d_lo, d_hi, q, d_offsets, out_keys, out_values, stream);  // CSR-like output
//   std::string err = tree.validate(stream);               // "" when every invariant holds
//
// Structure: 128-byte nodes of (key, value) or (pivot, child) pairs plus a high key and a side
// link holding the latch and leaf flag (detail/node.cuh argues the layout): 15 pairs read by a
// 16-lane tile for 32-bit keys, 7 pairs read by an 8-lane tile for 64-bit keys, each node in
// one transaction, searched by ballot and tile reductions. Pairs inside a node are unordered
// (an update writes one slot and nothing moves), nodes of one level are ordered and linked.
// Keys: every value but kReservedKey (all bits set: the empty-slot and +infinity sentinel);
// values are unrestricted. Batches containing kReservedKey apply their other keys and then throw
// wg::InvalidArgument (query batches answer "absent" for it instead).
//
// Semantics: each bulk operation is phase-concurrent: one or a few kernels on `stream`, the
// operations of one batch concurrent with each other, batches ordered by the stream. insert and
// erase sort a copy of their keys first (options.sort_updates, stable) so that neighbouring
// tiles update neighbouring leaves, and an insert batch keeps the last value of a duplicated
// key in the batch's order. With sort_updates = false the batch is applied as given: the last
// value wins for duplicates that stand next to each other (a sorted or grouped batch); for a
// key repeated apart, which of its values stays is unspecified (the count of new keys is exact
// either way). apply() runs one batch of mixed
// operations, each thread its own, fully concurrently: an operation on keys that no update of
// the batch touches is answered exactly. Erase empties a slot; nodes are never merged or freed
// (a tree with many erasures keeps its height and its nodes: rebuild with build() to compact).
// Capacity: node_capacity nodes of 128 bytes, allocated up front. An insert that needs a node
// when none is left is not applied (inserts into leaves with room and replacements still are):
// the batch finishes the rest, the tree stays valid and insert() throws
// wg::CapacityError("BTree", node_capacity, ...) (never a hang).
// Cost: O(log_B n) 128-byte node reads per point operation (B = 15 or 7 pairs per node), one
// more per B results of a range; updates latch one leaf (two nodes when splitting). Bulk
// operations synchronise `stream` to read their counts. Kernels are instantiated once for each
// key type, in btree.cu, build.cu and validate.cu (this header holds no kernel and no CUB).
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <warpgraph/containers/btree/btree_ref.cuh>
#include <warpgraph/containers/core/device_buffer.cuh>

namespace wg::btree {

struct BTreeOptions {
  /// Nodes in the pool (128 bytes each): about n / 10 for n random inserts, n / (15 *
  /// build_fill) after build(); at most 2^30 - 2.
  std::uint64_t node_capacity = 1u << 16;
  /// Fraction of the 15 slots build() fills in each leaf and inner node: room left for later
  /// inserts before a node splits.
  double build_fill = 0.8;
  /// insert() and erase() sort a copy of the batch first (one stable radix sort), which makes
  /// tiles with neighbouring keys meet in neighbouring leaves, enables the leaf hint and makes
  /// the last value of every duplicated key win. false: for batches already sorted, grouped by
  /// key or free of duplicates (a key repeated apart keeps an unspecified one of its values).
  bool sort_updates = true;
  /// Threads per block of every kernel (a multiple of 32).
  int block_threads = 256;
};

/// One operation of a mixed batch (apply()).
enum class OpKind : std::uint32_t {
  kInsert = 0,      ///< key, arg = value; result.status = InsertStatus
  kErase = 1,       ///< key; result.status = 1 if erased
  kFind = 2,        ///< key; result.status = found, result.value
  kRangeCount = 3,  ///< [key, arg]; result.status = number of keys in it
  kSuccessor = 4,   ///< least key > key; result.status = found, result.key, result.value
};
template <class Key = std::uint32_t>
struct Op {
  OpKind kind;
  Key key;
  Key arg;
};
template <class Key = std::uint32_t>
struct OpResult {
  std::uint32_t status;
  Key key;
  Key value;
};

/// Key: std::uint32_t or std::uint64_t; Value: the same type (a pair fills one node cell).
template <class Key = std::uint32_t, class Value = Key>
class BTree {
  static_assert(std::is_same_v<Key, std::uint32_t> || std::is_same_v<Key, std::uint64_t>,
                "BTree<Key>: Key is std::uint32_t or std::uint64_t");
  static_assert(std::is_same_v<Value, Key>, "BTree<Key, Value>: Value has the key's type");

 public:
  using key_type = Key;
  using mapped_type = Value;
  using ref_type = BTreeRef<Key>;
  using op_type = Op<Key>;
  using result_type = OpResult<Key>;
  static constexpr Key kReservedKey = detail::Layout<Key>::kEmpty;
  static constexpr Key kMaxKey = kReservedKey - 1;
  /// Pairs per node and lanes per node visit (the tile width of ref()'s operations).
  static constexpr unsigned kNodeSlots = detail::Layout<Key>::kSlots;
  static constexpr unsigned kTileLanes = detail::Layout<Key>::kLanes;

  /// An empty tree (one empty leaf). Throws wg::InvalidArgument for a capacity outside
  /// [1, 2^30 - 2] or a bad fill, wg::CapacityError when the GPU memory is short.
  explicit BTree(const BTreeOptions& options = {}, cudaStream_t stream = 0);

  // ---- updates (device spans; counts exact) ----
  /// Inserts or replaces n pairs; returns how many keys were new.
  std::uint64_t insert(const Key* keys, const Value* values, std::uint64_t n, cudaStream_t stream);
  /// Erases n keys (absent ones are ignored); returns how many were present.
  std::uint64_t erase(const Key* keys, std::uint64_t n, cudaStream_t stream);
  /// Replaces the contents by n unsorted pairs (sorted, deduplicated keeping the last pair of a
  /// key, then written bottom-up as full-to-build_fill leaves and inner levels); returns the
  /// number of distinct keys. Throws wg::CapacityError when the pool is too small.
  std::uint64_t build(const Key* keys, const Value* values, std::uint64_t n, cudaStream_t stream);
  /// Removes everything (one empty leaf; the pool is reused).
  void clear(cudaStream_t stream);

  // ---- queries (device spans; outputs may be null where noted) ----
  /// out_values[i] = value of keys[i] (unchanged when absent; may be null); out_found[i]
  /// (may be null). Returns how many were present.
  std::uint64_t find(const Key* keys, std::uint64_t n, Value* out_values, bool* out_found,
                     cudaStream_t stream) const;
  /// out_counts[i] = number of keys in [lo[i], hi[i]] (0 when lo > hi). Returns the sum.
  std::uint64_t count(const Key* lo, const Key* hi, std::uint64_t n, std::uint32_t* out_counts,
                      cudaStream_t stream) const;
  /// The pairs of every [lo[i], hi[i]], query after query, each query's in key order:
  /// out_offsets (n + 1 entries) gets the exclusive prefix sum of the counts, out_keys and
  /// out_values are resized to the total, which is returned. Two passes (count, fill).
  std::uint64_t range(const Key* lo, const Key* hi, std::uint64_t n, std::uint64_t* out_offsets,
                      DeviceBuffer<Key>& out_keys, DeviceBuffer<Value>& out_values,
                      cudaStream_t stream) const;
  /// Strict successor (least key > q[i]) / predecessor (greatest key < q[i]) and its value;
  /// out_keys[i] = kReservedKey when there is none. Any output may be null. Returns how many
  /// were found.
  std::uint64_t successor(const Key* q, std::uint64_t n, Key* out_keys, Value* out_values,
                          bool* out_found, cudaStream_t stream) const;
  std::uint64_t predecessor(const Key* q, std::uint64_t n, Key* out_keys, Value* out_values,
                            bool* out_found, cudaStream_t stream) const;

  /// A batch of mixed operations, thread i doing ops[i] concurrently with the others (no sort).
  /// Throws like insert() on exhaustion, after filling every result.
  void apply(const op_type* ops, std::uint64_t n, result_type* results, cudaStream_t stream);

  // ---- inspection ----
  /// Every invariant, checked on a host copy of the nodes: slots below the high key and at or
  /// above the low key, no duplicates, no latch held, high keys increasing along each level's
  /// side links to +infinity, each inner level's children (by pivot) exactly the next level's
  /// chain with matching low and high keys, leaves all on one level, key count == size().
  /// Returns "" or the first violation found. O(nodes); synchronises.
  std::string validate(cudaStream_t stream) const;
  /// All pairs in key order (a host walk of the leaf level). Synchronises.
  std::vector<std::pair<Key, Value>> to_host(cudaStream_t stream) const;

  std::uint64_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  /// Nodes in use (allocated from the pool).
  std::uint64_t node_count(cudaStream_t stream) const;
  std::uint64_t node_capacity() const noexcept { return options_.node_capacity; }
  std::uint64_t memory_bytes() const noexcept { return nodes_.bytes() + sizeof(detail::TreeState); }
  const BTreeOptions& options() const noexcept { return options_; }
  ref_type ref() const noexcept {
    return ref_type(const_cast<detail::Node*>(nodes_.data()),
                    const_cast<detail::TreeState*>(state_.data()),
                    static_cast<std::uint32_t>(options_.node_capacity));
  }

 private:
  unsigned grid_for(std::uint64_t n) const;
  detail::TreeState read_state(cudaStream_t stream) const;
  void check_exhausted(std::uint64_t failed, const char* op, cudaStream_t stream);
  /// successor() (next) or predecessor().
  std::uint64_t neighbours(bool next, const Key* q, std::uint64_t n, Key* out_keys,
                           Value* out_values, bool* out_found, cudaStream_t stream) const;

  BTreeOptions options_;
  DeviceBuffer<detail::Node> nodes_;
  DeviceBuffer<detail::TreeState> state_;
  DeviceBuffer<unsigned long long> counters_;  // per-batch counts read back by the host
  std::uint64_t size_ = 0;
  int sm_count_ = 1;
};

using BTree64 = BTree<std::uint64_t>;
// Member functions are defined and instantiated for both key types in btree.cu, build.cu and
// validate.cu.

}  // namespace wg::btree

namespace wg {
using btree::BTree;
}  // namespace wg
