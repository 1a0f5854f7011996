#pragma once
// A host model of the dynamic graph contract (graph/update_result.hpp, DESIGN.md "Graph
// contract", graph/gpu/dynamic_graph.hpp "Semantics"), written the obvious way on std::map, entry
// by entry: the CPU graph must agree with it after every batch.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <utility>
#include <vector>

#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::test {

class GraphModel {
 public:
  using Arc = std::pair<vertex_t, vertex_t>;
  GraphModel(bool directed, bool weighted) : directed_(directed), weighted_(weighted) {}

  void build(const EdgeList& e, UpdateResult* result = nullptr) {
    arcs_.clear();
    free_.clear();
    std::uint64_t bound = e.num_vertices;
    for (std::size_t i = 0; i < e.size(); ++i) {
      bound = std::max<std::uint64_t>(bound, std::max(e.src[i], e.dst[i]) + 1ull);
    }
    alive_.assign(bound, 1);
    UpdateResult r = insert(e);
    if (result) *result = r;
  }

  UpdateResult insert(const EdgeList& b) {
    UpdateResult r;
    std::map<Arc, float> unique;  // canonical edge -> last weight
    for (std::size_t i = 0; i < b.size(); ++i) {
      if (b.src[i] == b.dst[i]) {
        ++r.self_loops;
        continue;
      }
      const Arc a = canonical(b.src[i], b.dst[i]);
      const float w = b.weighted() ? static_cast<float>(b.weight[i]) : 1.0f;
      if (unique.count(a)) ++r.duplicates;
      unique[a] = w;
    }
    for (auto [a, w] : unique) {
      if (!alive(a.first) || !alive(a.second)) {  // erased or beyond the id range
        ++r.ignored;
        continue;
      }
      const bool present = arcs_.count(a) > 0;
      if (present) {
        ++r.ignored;
      } else {
        ++r.applied;
      }
      if (weighted_ || !present) {
        arcs_[a] = weighted_ ? w : 1.0f;
        if (!directed_) arcs_[{a.second, a.first}] = weighted_ ? w : 1.0f;
      }
    }
    return r;
  }

  UpdateResult erase(const EdgeList& b) {
    UpdateResult r;
    std::map<Arc, int> unique;
    for (std::size_t i = 0; i < b.size(); ++i) {
      if (b.src[i] == b.dst[i]) {
        ++r.self_loops;
        continue;
      }
      const Arc a = canonical(b.src[i], b.dst[i]);
      if (unique.count(a)) ++r.duplicates;
      unique[a] = 1;
    }
    for (auto [a, unused] : unique) {
      if (arcs_.erase(a)) {
        ++r.applied;
        if (!directed_) arcs_.erase({a.second, a.first});
      } else {
        ++r.ignored;
      }
    }
    return r;
  }

  std::vector<vertex_t> insert_vertices(std::uint64_t count) {
    std::vector<vertex_t> ids;
    while (ids.size() < count && !free_.empty()) {
      ids.push_back(free_.front());
      alive_[free_.front()] = 1;
      free_.pop_front();
    }
    while (ids.size() < count) {
      ids.push_back(static_cast<vertex_t>(alive_.size()));
      alive_.push_back(1);
    }
    return ids;
  }

  VertexEraseResult erase_vertices(const std::vector<vertex_t>& ids) {
    VertexEraseResult r;
    std::vector<vertex_t> sorted = ids;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    std::vector<vertex_t> erased;
    for (vertex_t v : sorted) {
      if (v < alive_.size() && alive_[v]) erased.push_back(v);
    }
    r.vertices = erased.size();
    r.ignored_ids = ids.size() - erased.size();
    std::uint64_t arcs_removed = 0;
    for (auto it = arcs_.begin(); it != arcs_.end();) {
      const bool hit = std::binary_search(erased.begin(), erased.end(), it->first.first) ||
                       std::binary_search(erased.begin(), erased.end(), it->first.second);
      if (hit) {
        it = arcs_.erase(it);
        ++arcs_removed;
      } else {
        ++it;
      }
    }
    r.edges_removed = directed_ ? arcs_removed : arcs_removed / 2;
    for (vertex_t v : erased) {
      alive_[v] = 0;
      free_.push_back(v);
    }
    return r;
  }

  std::uint64_t num_vertices() const { return alive_.size(); }
  bool alive(vertex_t v) const { return v < alive_.size() && alive_[v]; }
  const std::map<Arc, float>& arcs() const { return arcs_; }
  std::uint64_t num_edges() const { return directed_ ? arcs_.size() : arcs_.size() / 2; }
  std::vector<std::uint32_t> degrees() const {
    std::vector<std::uint32_t> d(alive_.size(), 0);
    for (auto& [a, w] : arcs_) ++d[a.first];
    return d;
  }
  /// The COO export the graph must produce: undirected u < v, sorted.
  EdgeList coo() const {
    EdgeList e;
    e.num_vertices = alive_.size();
    e.symmetric = !directed_;
    for (auto& [a, w] : arcs_) {
      if (!directed_ && a.first > a.second) continue;
      e.src.push_back(a.first);
      e.dst.push_back(a.second);
      if (weighted_) e.weight.push_back(w);
    }
    return e;
  }

 private:
  Arc canonical(vertex_t u, vertex_t v) const {
    if (!directed_ && v < u) return {v, u};
    return {u, v};
  }
  bool directed_, weighted_;
  std::map<Arc, float> arcs_;
  std::vector<std::uint8_t> alive_;
  std::deque<vertex_t> free_;
};

}  // namespace wg::test
