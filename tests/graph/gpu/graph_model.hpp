#pragma once
// Host model of the dynamic graph semantics (graph/gpu/dynamic_graph.hpp and
// graph/update_result.hpp), written independently of the GPU code: std::map of edges, entries
// processed one by one in batch order.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::test {

class GraphModel {
 public:
  using Key = std::pair<vertex_t, vertex_t>;

  GraphModel(std::uint64_t n, bool directed) : directed_(directed) { grow(n); }

  void grow(std::uint64_t n) {
    if (n > live_.size()) live_.resize(n, 1);
  }
  std::uint64_t id_range() const { return live_.size(); }
  bool live(std::uint64_t v) const { return v < live_.size() && live_[v]; }

  void clear(std::uint64_t n) {
    edges_.clear();
    live_.assign(n, 1);
    free_.clear();
  }

  UpdateResult insert(const EdgeList& b) { return apply(b, true); }
  UpdateResult erase(const EdgeList& b) { return apply(b, false); }

  VertexEraseResult erase_vertices(const std::vector<vertex_t>& ids) {
    VertexEraseResult r;
    std::set<vertex_t> seen;
    std::vector<vertex_t> list;
    for (vertex_t x : ids) {
      if (live(x) && seen.insert(x).second)
        list.push_back(x);
      else
        ++r.ignored_ids;
    }
    std::sort(list.begin(), list.end());  // freed in increasing id order within a call
    for (vertex_t x : list) {
      for (auto it = edges_.begin(); it != edges_.end();) {
        if (it->first.first == x || it->first.second == x) {
          it = edges_.erase(it);
          ++r.edges_removed;
        } else {
          ++it;
        }
      }
      live_[x] = 0;
      free_.push_back(x);
    }
    r.vertices = list.size();
    return r;
  }

  VertexInsertResult insert_vertices(std::uint64_t count, const EdgeList& edges) {
    VertexInsertResult r;
    while (r.ids.size() < count && !free_.empty()) {
      r.ids.push_back(free_.front());
      live_[free_.front()] = 1;
      free_.pop_front();
    }
    while (r.ids.size() < count) {
      r.ids.push_back(static_cast<vertex_t>(live_.size()));
      live_.push_back(1);
    }
    EdgeList mapped = edges;
    for (std::size_t i = 0; i < mapped.size(); ++i) {
      if (mapped.src[i] & kNewVertexTag) mapped.src[i] = r.ids[mapped.src[i] & ~kNewVertexTag];
      if (mapped.dst[i] & kNewVertexTag) mapped.dst[i] = r.ids[mapped.dst[i] & ~kNewVertexTag];
    }
    r.edges = insert(mapped);
    return r;
  }

  std::uint64_t num_edges() const { return edges_.size(); }

  /// Sorted, as DynamicGraph::export_coo.
  EdgeList export_coo(bool weighted) const {
    EdgeList e;
    e.num_vertices = live_.size();
    e.symmetric = !directed_;
    for (const auto& [k, w] : edges_) {
      e.src.push_back(k.first);
      e.dst.push_back(k.second);
      if (weighted) e.weight.push_back(w);
    }
    return e;
  }

  std::vector<std::uint32_t> degrees() const {
    std::vector<std::uint32_t> d(live_.size(), 0);
    for (const auto& [k, w] : edges_) {
      ++d[k.first];
      if (!directed_) ++d[k.second];
    }
    return d;
  }

  bool has_edge(vertex_t u, vertex_t v) const {
    if (u == v || !live(u) || !live(v)) return false;
    return edges_.count(key(u, v)) != 0;
  }

 private:
  Key key(vertex_t u, vertex_t v) const {
    if (!directed_ && v < u) std::swap(u, v);
    return {u, v};
  }

  UpdateResult apply(const EdgeList& b, bool insert) {
    UpdateResult r;
    std::map<Key, std::uint32_t> batch;  // unique edges, last weight
    for (std::size_t i = 0; i < b.size(); ++i) {
      const vertex_t u = b.src[i], v = b.dst[i];
      if (u == v) {
        ++r.self_loops;
        continue;
      }
      if (!live(u) || !live(v)) {
        ++r.ignored;
        continue;
      }
      const std::uint32_t w = b.weighted() ? static_cast<std::uint32_t>(b.weight[i]) : 0;
      auto [it, fresh] = batch.insert({key(u, v), w});
      if (!fresh) {
        ++r.duplicates;
        it->second = w;
      }
    }
    for (const auto& [k, w] : batch) {
      auto it = edges_.find(k);
      if (insert) {
        if (it == edges_.end()) {
          edges_.emplace(k, w);
          ++r.applied;
        } else {
          it->second = w;
          ++r.ignored;
        }
      } else {
        if (it != edges_.end()) {
          edges_.erase(it);
          ++r.applied;
        } else {
          ++r.ignored;
        }
      }
    }
    return r;
  }

  bool directed_;
  std::map<Key, std::uint32_t> edges_;
  std::vector<std::uint8_t> live_;
  std::deque<vertex_t> free_;
};

/// Deterministic random numbers for tests (splitmix64).
struct TestRng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
};

/// A batch over ids [0, n): `self_loop_share` of self-loops, the rest uniform (so repeats and
/// edges already present occur naturally when n is small), weights in [0, 1000).
inline EdgeList random_batch(TestRng& rng, std::uint64_t n, std::size_t size, bool weighted,
                             double self_loop_share = 0.05) {
  EdgeList e;
  e.num_vertices = n;
  for (std::size_t i = 0; i < size; ++i) {
    const vertex_t u = static_cast<vertex_t>(rng.below(n));
    const vertex_t v =
        (rng.below(1000) < self_loop_share * 1000) ? u : static_cast<vertex_t>(rng.below(n));
    e.src.push_back(u);
    e.dst.push_back(v);
    if (weighted) e.weight.push_back(static_cast<double>(rng.below(1000)));
  }
  return e;
}

}  // namespace wg::test
