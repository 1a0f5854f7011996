#pragma once
// The type-erased engine behind BSTree / CompressedBSTree. Values travel as raw bytes of a fixed
// size so that the whole engine (and its three SIMD builds) lives in compiled sources.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace wg::bstree::detail {

enum class SimdPath : int { automatic = 0, avx512, avx2, scalar };

bool simd_supported(SimdPath path);
SimdPath resolve_simd(SimdPath requested);  // automatic -> the best this CPU supports
const char* simd_name(SimdPath path);
bool compression_pays(const std::uint64_t* sorted_keys, std::size_t n);

inline constexpr std::size_t kMaxLeafSlots = 64;  // 64 x 16-bit deltas in a compressed leaf

/// Resumable position of a range scan. One call of Core::scan reads one leaf, or, without
/// values, leaves while another whole leaf fits in `capacity` keys of the output.
struct ScanCursor {
  std::uint64_t from;  ///< next key to report is >= from
  std::uint64_t hi;    ///< exclusive end
  std::uint32_t leaf = 0;
  bool started = false;
  bool done = false;
  std::size_t capacity = kMaxLeafSlots;  ///< keys the output buffer holds (>= kMaxLeafSlots)
};

struct LeafFormatCounts {
  std::size_t delta16 = 0, delta32 = 0, delta64 = 0;
};

/// A reserved, 2 MiB-aligned array of fixed-size nodes, committed (and madvise'd to huge pages)
/// as it grows. Never moves, so readers may hold addresses while others allocate.
class NodeArray {
 public:
  NodeArray() = default;
  ~NodeArray();
  NodeArray(const NodeArray&) = delete;
  NodeArray& operator=(const NodeArray&) = delete;
  void reserve(std::size_t node_bytes, std::size_t max_nodes, const char* what);
  /// Makes nodes [0, count) usable (zero-filled on first touch). Caller serialises.
  void commit(std::size_t count);
  unsigned char* base() const { return base_; }
  std::size_t node_bytes() const { return node_bytes_; }
  std::size_t max_nodes() const { return max_nodes_; }

 private:
  unsigned char* base_ = nullptr;
  std::size_t node_bytes_ = 0, max_nodes_ = 0, reserved_ = 0, committed_ = 0;
  const char* what_ = "";
};

struct OpsTable;

class Core {
 public:
  /// `concurrent` = false: the single-writer build (callers never run a write concurrently with
  /// anything else).
  Core(bool compressed, std::uint32_t value_bytes, SimdPath simd, std::uint32_t max_leaves,
       bool concurrent = true);
  ~Core();
  Core(const Core&) = delete;
  Core& operator=(const Core&) = delete;

  // The three point operations dispatch straight to the chosen build (inline: one indirect call
  // per operation, nothing else in front of it).
  bool insert(std::uint64_t key, const void* value, bool assign) {
    if (key == ~std::uint64_t{0}) throw_max_key();
    return insert_fn_(*this, key, value, assign);
  }
  bool erase(std::uint64_t key) { return erase_fn_(*this, key); }
  bool find(std::uint64_t key, void* value_out) const { return find_fn_(*this, key, value_out); }
  bool lower_bound(std::uint64_t key, std::uint64_t* out) const;
  /// Copies the next leaf's keys in [cursor.from, cursor.hi) (and their values) out; sets
  /// cursor.done when nothing can follow. Returns the number copied (may be 0 before done).
  std::size_t scan(ScanCursor& cursor, std::uint64_t* keys_out, void* values_out) const;
  void bulk_load(const std::uint64_t* keys, const void* values, std::size_t n, double leaf_fill,
                 double inner_fill);

  std::size_t size() const;
  std::size_t memory_bytes() const;
  std::size_t leaf_count() const { return leaf_count_.load(std::memory_order_relaxed); }
  std::size_t max_leaves() const { return leaf_keys_.max_nodes(); }
  SimdPath simd_path() const { return simd_; }
  int height() const;
  void check_invariants() const;
  LeafFormatCounts leaf_formats() const;

  // ---- engine internals (used by the per-ISA operation builds) ----
  bool compressed_;
  bool concurrent_;
  std::uint32_t value_bytes_;
  std::uint32_t leaf_slots_;  // 16, or 64 when compressed
  SimdPath simd_;
  const OpsTable* ops_;
  bool (*insert_fn_)(Core&, std::uint64_t, const void*, bool);  // = ops_->insert, etc.
  bool (*erase_fn_)(Core&, std::uint64_t);
  bool (*find_fn_)(const Core&, std::uint64_t, void*);
  [[noreturn]] static void throw_max_key();
  NodeArray inner_, leaf_keys_, leaf_meta_, leaf_values_;
  std::atomic<std::uint64_t> root_{0};  // node index | height-1 << 32 (0 = root is a leaf)
  std::atomic<std::uint32_t> inner_count_{0}, leaf_count_{0};
  std::mutex alloc_mutex_;
  bool bulk_loaded_or_used_ = false;
  // Size: one counter per thread (the first 64 threads of the process each own one and update it
  // without a locked instruction), the rest share `overflow_`.
  static constexpr int kCounterStripes = 64;
  struct alignas(64) Counter {
    std::atomic<std::int64_t> n{0};
  };
  Counter counters_[kCounterStripes];
  std::atomic<std::int64_t> overflow_{0};

  /// A new leaf (throws CapacityError). init = false leaves its keys and metadata (other than the
  /// zero version) for the caller to write, as a split does.
  std::uint32_t alloc_leaf(bool init = true);
  std::uint32_t alloc_inner();  // throws CapacityError
  void add_size(std::int64_t delta) {
    if (!concurrent_) {  // one writer at a time: one counter, no thread-local lookup
      counters_[0].n.store(counters_[0].n.load(std::memory_order_relaxed) + delta,
                           std::memory_order_relaxed);
      return;
    }
    add_size_concurrent(delta);
  }
  void add_size_concurrent(std::int64_t delta);
};

}  // namespace wg::bstree::detail
