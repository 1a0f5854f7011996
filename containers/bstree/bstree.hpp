#pragma once
// BS-tree: a gapped, SIMD-searched B+-tree of 64-bit keys for the CPU (Tsitsigkos et al.,
// "BS-tree: A gapped data-parallel B-tree"), with optimistic lock coupling so many threads can
// read and write at once.
//
//   wg::bstree::BSTree<> set;                 // keys only
//   set.insert(42);  set.contains(42);  set.erase(42);
//   wg::bstree::BSTree<std::uint32_t> map;    // keys with values (values in a separate array)
//   map.insert(7, 70u);  map.find(7);          // std::optional<std::uint32_t>{70}
//   map.range(lo, hi, [](std::uint64_t k, std::uint32_t v) { ... });
//   wg::bstree::CompressedBSTree<> small;     // same API; leaves hold 16/32/64-bit deltas (FOR)
//
// Structure. Nodes have 16 key slots of 64 bits (1024 bits: two AVX-512 registers). A branch or
// a leaf position is found by the branchless counting successor: the number of keys < k
// (compare-and-popcount), with AVX-512, AVX2 and scalar paths chosen at run time. Unused leaf
// slots ("gaps") hold a copy of the next used key (kMaxKey after the last one) so the count works
// on gapped leaves; a used-slot bitmap lets updates find the nearest gap: inserts shift keys only
// up to the nearest gap, deletes copy the next key backwards over the run. Bulk load fills leaves
// to 75% with the gaps spread through each leaf; a split interleaves keys and gaps. Leaves are
// linked for range scans. Nodes live in 2 MiB-aligned arrays (madvise(MADV_HUGEPAGE)) reserved up
// front and addressed by 32-bit offsets; nodes are never freed while the tree lives (an emptied
// leaf stays in place and is reused by later inserts into its key range).
// CompressedBSTree stores each leaf's keys as deltas from the leaf's first key ("frame of
// reference"): 64 x 16-bit, 32 x 32-bit or 16 x 64-bit in the same 1024 bits, the width chosen per
// leaf by the paper's rule at build and split time; inner nodes are not compressed.
//
// Complexity: find / insert / erase / lower_bound are O(log_15 n) node visits, each a constant
// number of SIMD compares; range is that plus O(leaves visited + keys reported).
//
// Thread safety (Policy::concurrent, true in DefaultPolicy; SingleWriterPolicy turns it off and
// with it every atomic read-modify-write and lock, for single-threaded use: then a write must not
// overlap any other call). insert, insert_or_assign, erase, contains, find, lower_bound, range,
// size and memory_bytes may be called from any number of threads at once (optimistic lock coupling:
// each node has a version counter with a lock bit; readers never write shared memory, validate the
// versions they read and restart on conflict; writers lock only the leaf, plus its parent when it
// splits; a full inner node met on the way down is split first). Each single-key operation is
// linearizable. range() reads each leaf as one consistent snapshot (validated against the leaf's
// version) and reports keys in strictly ascending order, each at most once: a key present during
// the whole call is reported exactly once; a key inserted or erased during the call may or may not
// be reported; the whole range is not one atomic snapshot. bulk_load, clear-by-destruction and
// moves must not run concurrently with anything else.
//
// Keys: any uint64_t except kMaxKey (UINT64_MAX), which is reserved as the gap filler; inserting
// it throws wg::InvalidArgument (contains/find/erase of kMaxKey simply report "absent").
// Values: Value = void gives a set; otherwise Value must be trivially copyable and at most 64
// bytes; values are copied in and out (find returns a copy).
// Capacity: the node arrays are reserved (not committed) at construction for Options::max_leaves
// leaves; running past that throws wg::CapacityError, never corrupts the tree.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

#include <warpgraph/containers/bstree/detail/core.hpp>

namespace wg::bstree {

/// Reserved key: fills gaps and unused slots; never a valid key.
inline constexpr std::uint64_t kMaxKey = ~std::uint64_t{0};

/// Which successor kernel a tree uses (Options::simd). `automatic` = the best the CPU supports
/// (avx512, else avx2, else scalar; scalar under ThreadSanitizer). Every path gives the same
/// results; tests and benchmarks name one to compare them.
using SimdPath = detail::SimdPath;
/// True when this CPU can run `path` (automatic and scalar always can).
inline bool simd_path_supported(SimdPath path) {
  return detail::simd_supported(path);
}
/// What `automatic` resolves to on this machine.
inline SimdPath default_simd_path() {
  return detail::resolve_simd(SimdPath::automatic);
}
inline const char* to_string(SimdPath path) {
  return detail::simd_name(path);
}

/// Construction options.
struct Options {
  /// Successor kernel. Default automatic: the best this CPU supports. Asking for a path this
  /// CPU lacks throws wg::InvalidArgument.
  SimdPath simd = SimdPath::automatic;
  /// Leaves reserved (virtual memory only); each holds up to 16 keys (64 when compressed).
  std::uint32_t max_leaves = 1u << 25;
};

/// Tuning: fill factors of bulk-loaded leaves and inner nodes, and the concurrency model.
struct DefaultPolicy {
  static constexpr double leaf_fill = 0.75;  ///< paper: 0.75 (one gap after every 3 keys)
  static constexpr double inner_fill =
      0.90;  ///< 14 of 15 children: fewer splits expected higher up
  /// true: optimistic lock coupling, any number of threads may read and write at once.
  static constexpr bool concurrent = true;
};

/// Single-writer policy: no version words, no atomic read-modify-writes, no allocation lock.
/// Writes (insert, insert_or_assign, erase, bulk_load) must not overlap any other call on the
/// tree; reads may run concurrently with each other (not with a write). For single-threaded use
/// (like std::set / absl::btree_set); same results and complexity as DefaultPolicy.
struct SingleWriterPolicy : DefaultPolicy {
  static constexpr bool concurrent = false;
};

/// The paper's compress-or-not rule: split the sorted keys into segments of 13, average the
/// leading zeros of (last - first) per segment; true when that average is >= 32 bits.
inline bool compression_pays(const std::uint64_t* sorted_keys, std::size_t n) {
  return detail::compression_pays(sorted_keys, n);
}

namespace detail {

template <class Value>
constexpr bool valid_value() {
  if constexpr (std::is_void_v<Value>)
    return true;
  else
    return std::is_trivially_copyable_v<Value> && sizeof(Value) <= 64;
}

template <class Value, class Policy, bool Compressed>
class BasicTree {
  static_assert(valid_value<Value>(),
                "BS-tree values must be trivially copyable and at most 64 bytes");
  static constexpr bool kIsMap = !std::is_void_v<Value>;
  static constexpr bool kConcurrent = [] {
    if constexpr (requires { Policy::concurrent; })
      return static_cast<bool>(Policy::concurrent);
    else
      return true;
  }();
  static constexpr std::uint32_t kValueBytes = [] {
    if constexpr (kIsMap)
      return static_cast<std::uint32_t>(sizeof(Value));
    else
      return 0u;
  }();

 public:
  using key_type = std::uint64_t;
  using mapped_type = Value;

  explicit BasicTree(const Options& options = {})
      : core_(Compressed, kValueBytes, options.simd, options.max_leaves, kConcurrent) {}
  /// Whether Policy allows concurrent writers (DefaultPolicy) or is single-writer.
  static constexpr bool concurrent() { return kConcurrent; }
  BasicTree(const BasicTree&) = delete;
  BasicTree& operator=(const BasicTree&) = delete;

  /// Set form. Inserts `key`; false when it was present. Throws InvalidArgument for kMaxKey.
  bool insert(std::uint64_t key) requires(!kIsMap) { return core_.insert(key, nullptr, false); }
  /// Map form: inserts (key, value) if key is absent (like std::map::insert); false, and the
  /// stored value unchanged, when key was present. Throws InvalidArgument for kMaxKey.
  /// (V is never deduced: the argument converts to Value, so the engine always copies exactly
  /// sizeof(Value) bytes from a Value.)
  template <class V = Value>
  requires(kIsMap) bool insert(std::uint64_t key, const std::type_identity_t<V>& value) {
    return core_.insert(key, &value, false);
  }
  /// Map form: inserts or overwrites; true when key was new.
  template <class V = Value>
  requires(kIsMap) bool insert_or_assign(std::uint64_t key, const std::type_identity_t<V>& value) {
    return core_.insert(key, &value, true);
  }
  /// Removes `key`; false when it was absent.
  bool erase(std::uint64_t key) { return core_.erase(key); }
  bool contains(std::uint64_t key) const { return core_.find(key, nullptr); }
  /// Map form: a copy of the value stored under key.
  template <class V = Value>
  requires(kIsMap) std::optional<V> find(std::uint64_t key)
  const {
    V v;
    if (!core_.find(key, &v)) return std::nullopt;
    return v;
  }
  /// Successor: the smallest key >= `key`, if any.
  std::optional<std::uint64_t> lower_bound(std::uint64_t key) const {
    std::uint64_t out;
    if (!core_.lower_bound(key, &out)) return std::nullopt;
    return out;
  }
  /// Calls f(key) (set) or f(key, value) (map) for the keys in [lo, hi), ascending. When f
  /// returns bool, returning false stops the scan. f runs outside any lock, on copies; it may
  /// call other operations on this tree. Cost: one root-to-leaf descent, then one leaf per
  /// 8-64 keys reported (sets read up to 256 keys, several leaves, between calls of f).
  template <class F>
  void range(std::uint64_t lo, std::uint64_t hi, F&& f) const {
    if (lo >= hi) return;
    // Sets take up to kScanKeys keys per call (several leaves), maps one leaf.
    constexpr std::size_t kScanKeys = kIsMap ? kMaxLeafSlots : 4 * kMaxLeafSlots;
    ScanCursor cursor{lo, hi};
    cursor.capacity = kScanKeys;
    alignas(64) std::uint64_t keys[kScanKeys];
    alignas(64) unsigned char values[kIsMap ? kMaxLeafSlots * kValueBytes : 1];
    for (;;) {
      const std::size_t n = core_.scan(cursor, keys, kIsMap ? values : nullptr);
      for (std::size_t i = 0; i < n; ++i) {
        if constexpr (kIsMap) {
          Value v;
          __builtin_memcpy(&v, values + i * kValueBytes, sizeof(Value));
          if constexpr (std::is_same_v<decltype(f(keys[i], v)), bool>) {
            if (!f(keys[i], v)) return;
          } else {
            f(keys[i], v);
          }
        } else {
          if constexpr (std::is_same_v<decltype(f(keys[i])), bool>) {
            if (!f(keys[i])) return;
          } else {
            f(keys[i]);
          }
        }
      }
      if (cursor.done) return;
    }
  }
  /// Builds the tree from strictly ascending keys (and values[i] for keys[i] in the map form),
  /// filling leaves to Policy::leaf_fill with the gaps spread through each leaf. The tree must
  /// be empty (never inserted into); throws InvalidArgument when it is not, when the keys are not
  /// strictly ascending, or when kMaxKey is among them. O(n).
  void bulk_load(const std::uint64_t* sorted_unique_keys, std::size_t n) requires(!kIsMap) {
    core_.bulk_load(sorted_unique_keys, nullptr, n, Policy::leaf_fill, Policy::inner_fill);
  }
  template <class V = Value>
  requires(kIsMap) void bulk_load(const std::uint64_t* sorted_unique_keys,
                                  const std::type_identity_t<V>* values, std::size_t n) {
    core_.bulk_load(sorted_unique_keys, values, n, Policy::leaf_fill, Policy::inner_fill);
  }

  /// Number of keys (exact when no update is in flight).
  std::size_t size() const { return core_.size(); }
  bool empty() const { return size() == 0; }
  /// Bytes of the nodes in use (keys, per-leaf metadata, values, inner nodes) plus the tree
  /// object; the reserved-but-untouched address space is not counted.
  std::size_t memory_bytes() const { return core_.memory_bytes() + sizeof(*this); }
  /// Leaves allocated so far. It never shrinks (erase leaves empty slots, not free leaves); one
  /// insert into an uncompressed tree adds at most one leaf, a bulk load of n keys about
  /// n / (16 x leaf_fill). Callers that size Options::max_leaves from their data watch this.
  std::size_t leaf_count() const { return core_.leaf_count(); }
  /// Options::max_leaves of this tree: the leaves its reservation holds.
  std::size_t max_leaves() const { return core_.max_leaves(); }
  /// The successor kernel this tree runs.
  SimdPath simd_path() const { return core_.simd_path(); }
  /// Height in levels (1 = the root is a leaf).
  int height() const { return core_.height(); }
  /// Checks every structural invariant (ordering, gap copies, bitmaps, separators, leaf links,
  /// counts); throws wg::Error naming the first violation. Not thread-safe. For tests.
  void check_invariants() const { core_.check_invariants(); }
  /// Leaves per delta width {16-bit, 32-bit, 64-bit} (all 64-bit for BSTree). For tests/stats.
  LeafFormatCounts leaf_formats() const { return core_.leaf_formats(); }

 private:
  Core core_;
};

}  // namespace detail

/// The BS-tree: uncompressed 16 x 64-bit leaves.
template <class Value = void, class Policy = DefaultPolicy>
class BSTree : public detail::BasicTree<Value, Policy, false> {
 public:
  using detail::BasicTree<Value, Policy, false>::BasicTree;
};

/// The CBS-tree: frame-of-reference compressed leaves (64 x 16-bit, 32 x 32-bit or 16 x 64-bit
/// deltas in 1024 bits, chosen per leaf), uncompressed inner nodes. Same API and guarantees.
template <class Value = void, class Policy = DefaultPolicy>
class CompressedBSTree : public detail::BasicTree<Value, Policy, true> {
 public:
  using detail::BasicTree<Value, Policy, true>::BasicTree;
};

}  // namespace wg::bstree
