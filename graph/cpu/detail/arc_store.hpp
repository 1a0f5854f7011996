#pragma once
// The arc set of the CPU graph: one BS-tree of packed 64-bit arc keys, unweighted (set form) or
// weighted (map form, one float per arc). A thin adapter so the graph code reads the same for
// both; the tree is held by pointer so the graph stays movable.
//
// Capacity. A BS-tree reserves address space for Options::max_leaves leaves when it is made and
// never moves its nodes, so the store sizes that reservation from the arcs it holds: a bulk load
// of n arcs reserves four times the leaves the load fills, an empty store kMinLeaves, and before a
// batch of k inserts the graph calls reserve_inserts(k), which moves the arcs into a tree twice
// as large (O(arcs), amortised over the growth) when k more leaves might not fit. The address
// space taken is thus proportional to the graph (about 4 x 200 bytes per 12 arcs), not a fixed
// multi-gigabyte reservation, and `ulimit -v` only has to cover what the graph needs.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#ifndef WG_CPU_GRAPH_STD_MAP_STORE
#include <algorithm>
#include <limits>
#include <type_traits>
#include <vector>

#include <warpgraph/containers/bstree/bstree.hpp>

namespace wg::cpu::detail {

/// The tree is concurrent (optimistic lock coupling: batch steps write it from several threads)
/// or, when the graph runs its batches on one thread, single-writer (bstree::SingleWriterPolicy:
/// no version words, no atomic read-modify-writes; reads may still run concurrently with each
/// other, never with a write, which the graph's contract already guarantees).
class ArcStore {
  using Set = bstree::BSTree<>;
  using Map = bstree::BSTree<float>;
  using Set1 = bstree::BSTree<void, bstree::SingleWriterPolicy>;
  using Map1 = bstree::BSTree<float, bstree::SingleWriterPolicy>;
  template <class T>
  static constexpr bool is_map = !std::is_void_v<typename std::remove_cvref_t<T>::mapped_type>;

  /// Leaves an empty store reserves (about 8 MB of address space for the keys, less for the
  /// other node arrays): small graphs never move.
  static constexpr std::size_t kMinLeaves = std::size_t{1} << 16;
  /// Reservation over what a bulk load fills: a graph may grow to about 3x its bulk-loaded
  /// size (leaves split to half full) before its arcs move. Address space only, not memory.
  static constexpr std::size_t kBulkHeadroom = 4;
  /// Arcs per leaf after a bulk load: 16 slots at the default leaf fill of 0.75.
  static constexpr std::size_t kBulkArcsPerLeaf = 12;
  static constexpr std::size_t kMaxLeaves = std::numeric_limits<std::uint32_t>::max();

  static std::size_t clamp_leaves(std::size_t leaves) {
    return std::min(std::max(leaves, kMinLeaves), kMaxLeaves);
  }
  template <class T>
  std::unique_ptr<T> make_tree() const {
    return std::make_unique<T>(
        bstree::Options{.max_leaves = static_cast<std::uint32_t>(max_leaves_)});
  }
  template <class F>
  decltype(auto) visit(F&& f) const {
    if (weighted_) return single_writer_ ? f(*map1_) : f(*map_);
    return single_writer_ ? f(*set1_) : f(*set_);
  }
  void load(const std::uint64_t* keys, const float* weights, std::size_t n) {
    visit([&](auto& t) {
      if constexpr (is_map<decltype(t)>)
        t.bulk_load(keys, weights, n);
      else
        t.bulk_load(keys, n);
    });
  }
  std::size_t leaf_count() const {
    if (!set_ && !map_ && !set1_ && !map1_) return 0;
    return visit([](auto& t) -> std::size_t { return t.leaf_count(); });
  }
  /// Moves the arcs into a new tree of the current kind with room for `max_leaves` leaves.
  void move_to_tree(bool single_writer, std::size_t max_leaves) {
    std::vector<std::uint64_t> keys;
    std::vector<float> weights;
    keys.reserve(size());
    if (weighted_) weights.reserve(size());
    scan(0, std::numeric_limits<std::uint64_t>::max(), [&](std::uint64_t k, float w) {
      keys.push_back(k);
      if (weighted_) weights.push_back(w);
      return true;
    });
    max_leaves_ = clamp_leaves(std::max(max_leaves, 2 * (keys.size() / kBulkArcsPerLeaf + 1)));
    reset(weighted_, single_writer);
    if (!keys.empty()) load(keys.data(), weighted_ ? weights.data() : nullptr, keys.size());
  }

 public:
  /// Empties the store (and its reservation back to kMinLeaves leaves).
  void reset(bool weighted) {
    max_leaves_ = kMinLeaves;
    reset(weighted, single_writer_);
  }
  /// Empties the store into a tree of the given kind, keeping the current reservation size.
  void reset(bool weighted, bool single_writer) {
    weighted_ = weighted;
    single_writer_ = single_writer;
    set_.reset();
    map_.reset();
    set1_.reset();
    map1_.reset();
    if (weighted) {
      if (single_writer)
        map1_ = make_tree<Map1>();
      else
        map_ = make_tree<Map>();
    } else {
      if (single_writer)
        set1_ = make_tree<Set1>();
      else
        set_ = make_tree<Set>();
    }
  }
  bool weighted() const noexcept { return weighted_; }
  bool single_writer() const noexcept { return single_writer_; }
  /// Moves the arcs into a tree of the other kind when `single_writer` differs from the current
  /// one (O(N): one scan and one bulk load).
  void set_single_writer(bool single_writer) {
    if (single_writer == single_writer_) return;
    move_to_tree(single_writer, max_leaves_);
  }
  /// Makes sure `inserts` more keys fit the tree's reservation (one insert adds at most one
  /// leaf), moving the arcs into a tree twice as large when they might not. Call between
  /// batches, never concurrently with another operation.
  void reserve_inserts(std::size_t inserts) {
    const std::size_t need = leaf_count() + inserts + 1;
    if (need <= max_leaves_) return;
    move_to_tree(single_writer_, std::max(2 * max_leaves_, need + need / 2));
  }
  /// Leaves the current reservation holds.
  std::size_t max_leaves() const noexcept { return max_leaves_; }

  /// Adds `key` (with weight w); true when it was absent. On a weighted store a present key's
  /// weight is replaced. (A store is usable after reset().)
  bool insert(std::uint64_t key, float w) {
    return visit([&](auto& t) {
      if constexpr (is_map<decltype(t)>)
        return t.insert_or_assign(key, w);
      else
        return t.insert(key);
    });
  }
  bool erase(std::uint64_t key) {
    return visit([&](auto& t) { return t.erase(key); });
  }
  bool contains(std::uint64_t key) const {
    return visit([&](auto& t) { return t.contains(key); });
  }
  /// The weight of `key` (1 when unweighted), or nullopt when absent.
  std::optional<float> find(std::uint64_t key) const {
    return visit([&](auto& t) -> std::optional<float> {
      if constexpr (is_map<decltype(t)>) {
        return t.find(key);
      } else {
        if (t.contains(key)) return 1.0f;
        return std::nullopt;
      }
    });
  }
  /// f(key, weight) for keys in [lo, hi) ascending (weight 1 when unweighted); when f returns
  /// false the remaining keys of the range are skipped.
  template <class F>
  void scan(std::uint64_t lo, std::uint64_t hi, F&& f) const {
    visit([&](auto& t) {
      if constexpr (is_map<decltype(t)>) {
        t.range(lo, hi, [&](std::uint64_t k, float w) { return static_cast<bool>(f(k, w)); });
      } else {
        t.range(lo, hi, [&](std::uint64_t k) { return static_cast<bool>(f(k, 1.0f)); });
      }
    });
  }
  /// Replaces the contents by n sorted unique keys (weights may be null when unweighted).
  void bulk_load(const std::uint64_t* keys, const float* weights, std::size_t n) {
    max_leaves_ = clamp_leaves(kBulkHeadroom * (n / kBulkArcsPerLeaf + 1));
    reset(weighted_, single_writer_);
    if (n == 0) return;
    load(keys, weights, n);
  }
  std::uint64_t size() const {
    if (!set_ && !map_ && !set1_ && !map1_) return 0;
    return visit([](auto& t) -> std::uint64_t { return t.size(); });
  }
  std::uint64_t memory_bytes() const {
    if (!set_ && !map_ && !set1_ && !map1_) return 0;
    return visit([](auto& t) -> std::uint64_t { return t.memory_bytes(); });
  }

 private:
  bool weighted_ = false;
  bool single_writer_ = false;
  std::size_t max_leaves_ = kMinLeaves;
  std::unique_ptr<Set> set_;  // exactly one of the four after reset()
  std::unique_ptr<Map> map_;
  std::unique_ptr<Set1> set1_;
  std::unique_ptr<Map1> map1_;
};

}  // namespace wg::cpu::detail

#else
// Development stand-in (std::map under a shared_mutex), selected by WG_CPU_GRAPH_STD_MAP_STORE.
#include <map>
#include <mutex>
#include <shared_mutex>
namespace wg::cpu::detail {

class ArcStore {
 public:
  void reset(bool weighted) {
    weighted_ = weighted;
    map_ = std::make_unique<Map>();
  }
  void reset(bool weighted, bool) { reset(weighted); }
  bool weighted() const noexcept { return weighted_; }
  bool single_writer() const noexcept { return false; }
  void set_single_writer(bool) {}
  void reserve_inserts(std::size_t) {}

  /// Adds `key` (with weight w); true when it was absent. On a weighted store a present key's
  /// weight is replaced.
  bool insert(std::uint64_t key, float w) {
    std::unique_lock lock(map_->mutex);
    auto [it, added] = map_->m.try_emplace(key, w);
    if (!added) it->second = w;
    return added;
  }
  bool erase(std::uint64_t key) {
    std::unique_lock lock(map_->mutex);
    return map_->m.erase(key) > 0;
  }
  bool contains(std::uint64_t key) const {
    std::shared_lock lock(map_->mutex);
    return map_->m.count(key) > 0;
  }
  std::optional<float> find(std::uint64_t key) const {
    std::shared_lock lock(map_->mutex);
    auto it = map_->m.find(key);
    if (it == map_->m.end()) return std::nullopt;
    return it->second;
  }
  /// f(key, weight) for keys in [lo, hi) ascending (weight 1 when unweighted); f returns bool
  /// (false stops the scan).
  template <class F>
  void scan(std::uint64_t lo, std::uint64_t hi, F&& f) const {
    std::shared_lock lock(map_->mutex);
    for (auto it = map_->m.lower_bound(lo); it != map_->m.end() && it->first < hi; ++it) {
      if (!f(it->first, weighted_ ? it->second : 1.0f)) break;
    }
  }
  /// Replaces the contents by n sorted unique keys (weights may be null when unweighted).
  void bulk_load(const std::uint64_t* keys, const float* weights, std::size_t n) {
    reset(weighted_);
    for (std::size_t i = 0; i < n; ++i) {
      map_->m.emplace_hint(map_->m.end(), keys[i], weights ? weights[i] : 1.0f);
    }
  }
  std::uint64_t size() const { return map_ ? map_->m.size() : 0; }
  std::uint64_t memory_bytes() const { return size() * 48; }

 private:
  struct Map {
    mutable std::shared_mutex mutex;
    std::map<std::uint64_t, float> m;
  };
  bool weighted_ = false;
  std::unique_ptr<Map> map_ = std::make_unique<Map>();
};

}  // namespace wg::cpu::detail
#endif
