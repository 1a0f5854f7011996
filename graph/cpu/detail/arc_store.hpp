#pragma once
// The arc set of the CPU graph: one BS-tree of packed 64-bit arc keys, unweighted (set form) or
// weighted (map form, one float per arc). A thin adapter so the graph code reads the same for
// both; the tree is held by pointer so the graph stays movable.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#ifndef WG_CPU_GRAPH_STD_MAP_STORE
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

 public:
  void reset(bool weighted) { reset(weighted, single_writer_); }
  void reset(bool weighted, bool single_writer) {
    weighted_ = weighted;
    single_writer_ = single_writer;
    set_.reset();
    map_.reset();
    set1_.reset();
    map1_.reset();
    if (weighted) {
      if (single_writer)
        map1_ = std::make_unique<Map1>();
      else
        map_ = std::make_unique<Map>();
    } else {
      if (single_writer)
        set1_ = std::make_unique<Set1>();
      else
        set_ = std::make_unique<Set>();
    }
  }
  bool weighted() const noexcept { return weighted_; }
  bool single_writer() const noexcept { return single_writer_; }
  /// Moves the arcs into a tree of the other kind when `single_writer` differs from the current
  /// one (O(N): one scan and one bulk load).
  void set_single_writer(bool single_writer) {
    if (single_writer == single_writer_) return;
    std::vector<std::uint64_t> keys;
    std::vector<float> weights;
    keys.reserve(size());
    if (weighted_) weights.reserve(size());
    scan(0, std::numeric_limits<std::uint64_t>::max(), [&](std::uint64_t k, float w) {
      keys.push_back(k);
      if (weighted_) weights.push_back(w);
      return true;
    });
    reset(weighted_, single_writer);
    if (!keys.empty()) load(keys.data(), weighted_ ? weights.data() : nullptr, keys.size());
  }

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
