#pragma once
// Internal: renumbering of vertex ids to 0..n-1 in order of first appearance (ReadOptions::
// compact_ids). Used by read_snap.cpp and read_graph.cpp.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/read_graph.hpp>

namespace wg::datasets::detail {

/// Open-addressing map from original id to compact id (ids in order of first appearance).
class IdCompactor {
 public:
  explicit IdCompactor(std::size_t expected) {
    std::size_t cap = 16;
    while (cap < expected * 2) cap <<= 1;
    keys_.assign(cap, kEmpty);
    values_.resize(cap);
  }
  vertex_t map(std::uint64_t id, std::vector<std::uint64_t>& originals) {
    if (id == kEmpty) {
      if (!have_max_) {
        have_max_ = true;
        max_value_ = add(id, originals);
      }
      return max_value_;
    }
    std::size_t mask = keys_.size() - 1;
    std::size_t s = hash(id) & mask;
    while (true) {
      if (keys_[s] == id) return values_[s];
      if (keys_[s] == kEmpty) {
        if ((originals.size() + 1) * 2 > keys_.size()) {
          grow();
          return map(id, originals);
        }
        keys_[s] = id;
        return values_[s] = add(id, originals);
      }
      s = (s + 1) & mask;
    }
  }

 private:
  static constexpr std::uint64_t kEmpty = UINT64_MAX;
  static std::size_t hash(std::uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return static_cast<std::size_t>(x);
  }
  vertex_t add(std::uint64_t id, std::vector<std::uint64_t>& originals) {
    if (originals.size() >= kVertexIdLimit)
      throw Error("more than 2^31 distinct vertex ids: past the vertex id limit");
    originals.push_back(id);
    return static_cast<vertex_t>(originals.size() - 1);
  }
  void grow() {
    std::vector<std::uint64_t> k(keys_.size() * 2, kEmpty);
    std::vector<vertex_t> v(k.size());
    std::size_t mask = k.size() - 1;
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      if (keys_[i] == kEmpty) continue;
      std::size_t s = hash(keys_[i]) & mask;
      while (k[s] != kEmpty) s = (s + 1) & mask;
      k[s] = keys_[i];
      v[s] = values_[i];
    }
    keys_.swap(k);
    values_.swap(v);
  }
  std::vector<std::uint64_t> keys_;
  std::vector<vertex_t> values_;
  bool have_max_ = false;
  vertex_t max_value_ = 0;
};

/// Renumbered ids are known only once the whole file is read: the list then goes to
/// ReadOptions::on_edges in one chunk (nothing when there is no callback or no edge).
inline void hand_over_whole_list(const EdgeList& e, const EdgeChunkFn& on_edges) {
  if (!on_edges || e.size() == 0) return;
  on_edges(span_of(e));
}

}  // namespace wg::datasets::detail
