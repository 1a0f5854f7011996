#pragma once
// The arc set of the CPU graph: one BS-tree of packed 64-bit arc keys, unweighted (set form) or
// weighted (map form, one float per arc). A thin adapter so the graph code reads the same for
// both; the tree is held by pointer so the graph stays movable.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#ifndef WG_CPU_GRAPH_STD_MAP_STORE
#include <warpgraph/containers/bstree/bstree.hpp>

namespace wg::cpu::detail {

class ArcStore {
 public:
  void reset(bool weighted) {
    weighted_ = weighted;
    set_.reset();
    map_.reset();
    if (weighted) {
      map_ = std::make_unique<bstree::BSTree<float>>();
    } else {
      set_ = std::make_unique<bstree::BSTree<>>();
    }
  }
  bool weighted() const noexcept { return weighted_; }

  /// Adds `key` (with weight w); true when it was absent. On a weighted store a present key's
  /// weight is replaced. (A store is usable after reset().)
  bool insert(std::uint64_t key, float w) {
    return weighted_ ? map_->insert_or_assign(key, w) : set_->insert(key);
  }
  bool erase(std::uint64_t key) { return weighted_ ? map_->erase(key) : set_->erase(key); }
  bool contains(std::uint64_t key) const {
    return weighted_ ? map_->contains(key) : set_->contains(key);
  }
  /// The weight of `key` (1 when unweighted), or nullopt when absent.
  std::optional<float> find(std::uint64_t key) const {
    if (weighted_) return map_->find(key);
    if (set_->contains(key)) return 1.0f;
    return std::nullopt;
  }
  /// f(key, weight) for keys in [lo, hi) ascending (weight 1 when unweighted); when f returns
  /// false the remaining keys of the range are skipped.
  template <class F>
  void scan(std::uint64_t lo, std::uint64_t hi, F&& f) const {
    bool go = true;
    if (weighted_) {
      map_->range(lo, hi, [&](std::uint64_t k, float w) {
        if (go) go = f(k, w);
      });
    } else {
      set_->range(lo, hi, [&](std::uint64_t k) {
        if (go) go = f(k, 1.0f);
      });
    }
  }
  /// Replaces the contents by n sorted unique keys (weights may be null when unweighted).
  void bulk_load(const std::uint64_t* keys, const float* weights, std::size_t n) {
    reset(weighted_);
    if (n == 0) return;
    if (weighted_) {
      map_->bulk_load(keys, weights, n);
    } else {
      set_->bulk_load(keys, n);
    }
  }
  std::uint64_t size() const { return map_ ? map_->size() : set_ ? set_->size() : 0; }
  std::uint64_t memory_bytes() const {
    return map_ ? map_->memory_bytes() : set_ ? set_->memory_bytes() : 0;
  }

 private:
  bool weighted_ = false;
  std::unique_ptr<bstree::BSTree<>> set_;  // one of the two after reset()
  std::unique_ptr<bstree::BSTree<float>> map_;
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
  bool weighted() const noexcept { return weighted_; }

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
