// The `reference` backend of the CLI: a host adjacency (one sorted neighbour vector per vertex)
// with an exact incremental triangle count. It shares no code with the GPU and CPU graphs, nor
// with algorithms/reference (Boost.Graph), so `stream --verify` compares three independent
// counts.
//
// Incremental counting. A batch is first canonicalised ({u, v} with u < v, self-loops dropped,
// duplicates removed) and reduced to the edges that really change the graph (absent edges for
// an insertion, present ones for a deletion); call that set C.
//  - insertion: C is added first; every triangle of the new graph with k >= 1 edges in C is
//    found once from each of its k new edges, so with c_k the number of (edge, apex) finds
//    whose triangle has k new edges, the triangles added are c_1 + c_2 / 2 + c_3 / 3;
//  - deletion: the same sum on the graph *before* C is removed gives the triangles lost.
// Cost: O(|batch| log |batch|) to canonicalise plus, per changed edge {u, v}, one sorted
// intersection of N(u) and N(v) (merge, or binary search when the degrees differ a lot).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <warpgraph/containers/core/error.hpp>

#include "backend.hpp"

namespace wg::cli {
namespace {

using Clock = std::chrono::steady_clock;
using EdgeKey = std::uint64_t;  // (min << 32) | max

constexpr EdgeKey make_key(vertex_t u, vertex_t v) noexcept {
  return u < v ? (EdgeKey{u} << 32) | v : (EdgeKey{v} << 32) | u;
}
constexpr vertex_t key_low(EdgeKey k) noexcept {
  return static_cast<vertex_t>(k >> 32);
}
constexpr vertex_t key_high(EdgeKey k) noexcept {
  return static_cast<vertex_t>(k & 0xffffffffu);
}

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// Calls f(w) for every w in both sorted ranges a and b.
template <class F>
void for_each_common(const std::vector<vertex_t>& a, const std::vector<vertex_t>& b, F&& f) {
  const std::vector<vertex_t>& small = a.size() <= b.size() ? a : b;
  const std::vector<vertex_t>& large = a.size() <= b.size() ? b : a;
  if (small.empty()) return;
  if (large.size() / small.size() >= 32) {
    // Very different degrees (a hub and a leaf): search the hub's list for each of the leaf's.
    auto from = large.begin();
    for (vertex_t w : small) {
      from = std::lower_bound(from, large.end(), w);
      if (from == large.end()) return;
      if (*from == w) f(w);
    }
    return;
  }
  auto i = small.begin(), j = large.begin();
  while (i != small.end() && j != large.end()) {
    if (*i < *j) {
      ++i;
    } else if (*j < *i) {
      ++j;
    } else {
      f(*i);
      ++i;
      ++j;
    }
  }
}

class ReferenceBackend final : public GraphBackend {
 public:
  std::string name() const override { return "reference"; }

  BatchOutcome build(const EdgeList& edges) override {
    const auto t0 = Clock::now();
    adjacency_.clear();
    erased_.clear();
    num_edges_ = 0;
    triangles_ = 0;
    std::vector<EdgeKey> keys = canonical_batch(edges);
    add_edges(keys);
    num_edges_ = keys.size();
    triangles_ = recount_triangles(nullptr);
    return {keys.size(), triangles_, seconds_since(t0), {}};
  }

  BatchOutcome insert_edges(const EdgeList& batch) override {
    const auto t0 = Clock::now();
    std::vector<EdgeKey> keys = canonical_batch(batch);
    // Keep the edges that are really new (keys stay sorted: binary search below relies on it);
    // entries naming an erased vertex are ignored, as the graphs ignore them.
    std::erase_if(keys, [&](EdgeKey k) {
      return has_edge(key_low(k), key_high(k)) || erased(key_low(k)) || erased(key_high(k));
    });
    add_edges(keys);
    triangles_ += triangles_touching(keys);
    num_edges_ += keys.size();
    return {keys.size(), triangles_, seconds_since(t0), {}};
  }

  BatchOutcome erase_edges(const EdgeList& batch) override {
    const auto t0 = Clock::now();
    std::vector<EdgeKey> keys = canonical_batch(batch);
    std::erase_if(keys, [&](EdgeKey k) { return !has_edge(key_low(k), key_high(k)); });
    return erase_present(std::move(keys), t0);
  }

  /// The erased vertices' edges go as one deletion; the ids stay in the range, marked erased.
  BatchOutcome erase_vertices(std::span<const vertex_t> ids) override {
    const auto t0 = Clock::now();
    std::vector<EdgeKey> keys;
    for (vertex_t v : ids) {  // the range grows to hold every id, as for edge batches
      if (v >= adjacency_.size()) adjacency_.resize(std::size_t{v} + 1);
    }
    for (vertex_t v : ids) {
      if (!is_live(v)) continue;
      for (vertex_t w : adjacency_[v]) keys.push_back(make_key(v, w));
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    BatchOutcome out = erase_present(std::move(keys), t0);
    erased_.resize(adjacency_.size(), 0);
    for (vertex_t v : ids)
      if (v < erased_.size()) erased_[v] = 1;
    return out;
  }

  BatchOutcome insert_vertices(std::span<const vertex_t> ids) override {
    const auto t0 = Clock::now();
    for (vertex_t v : ids) {
      if (v >= adjacency_.size()) adjacency_.resize(std::size_t{v} + 1);
      if (v < erased_.size()) erased_[v] = 0;
    }
    return {0, triangles_, seconds_since(t0), {}};
  }

  bool is_live(vertex_t v) const override { return v < adjacency_.size() && !erased(v); }

 private:
  bool erased(vertex_t v) const { return v < erased_.size() && erased_[v]; }

  /// Removes edges known to be present (sorted unique keys), counting the triangles lost.
  BatchOutcome erase_present(std::vector<EdgeKey> keys, Clock::time_point t0) {
    const std::uint64_t lost = triangles_touching(keys);  // on the graph before removal
    if (lost > triangles_) throw Error("reference backend: triangle count underflow (bug)");
    remove_edges(keys);
    triangles_ -= lost;
    num_edges_ -= keys.size();
    return {keys.size(), triangles_, seconds_since(t0), {}};
  }

 public:
  /// Degree-ordered ("forward") static count: each triangle is found once, from its two
  /// lowest-ranked vertices, by intersecting their higher-ranked neighbour lists.
  std::uint64_t recount_triangles(std::vector<std::uint64_t>* per_vertex) override {
    const std::size_t n = adjacency_.size();
    auto ranks_below = [&](vertex_t u, vertex_t v) {  // rank(u) < rank(v)
      const std::size_t du = adjacency_[u].size(), dv = adjacency_[v].size();
      return du < dv || (du == dv && u < v);
    };
    std::vector<std::vector<vertex_t>> higher(n);  // sorted by id, like adjacency_
    for (std::size_t u = 0; u < n; ++u) {
      for (vertex_t v : adjacency_[u]) {
        if (ranks_below(static_cast<vertex_t>(u), v)) higher[u].push_back(v);
      }
    }
    if (per_vertex) per_vertex->assign(n, 0);
    std::uint64_t total = 0;
    for (std::size_t u = 0; u < n; ++u) {
      for (vertex_t v : higher[u]) {
        for_each_common(higher[u], higher[v], [&](vertex_t w) {
          ++total;
          if (per_vertex) {
            ++(*per_vertex)[u];
            ++(*per_vertex)[v];
            ++(*per_vertex)[w];
          }
        });
      }
    }
    return total;
  }

  EdgeList export_edges() override {
    EdgeList out;
    out.num_vertices = adjacency_.size();
    out.symmetric = true;
    out.reserve(num_edges_);
    for (std::size_t u = 0; u < adjacency_.size(); ++u) {
      for (vertex_t v : adjacency_[u]) {
        if (v > u) {
          out.src.push_back(static_cast<vertex_t>(u));
          out.dst.push_back(v);
        }
      }
    }
    return out;
  }

  std::uint64_t num_vertices() const override { return adjacency_.size(); }
  std::uint64_t num_edges() const override { return num_edges_; }

 private:
  /// The batch as sorted unique undirected edges without self-loops; grows the vertex range to
  /// cover the batch (num_vertices and every id in it).
  std::vector<EdgeKey> canonical_batch(const EdgeList& batch) {
    if (batch.src.size() != batch.dst.size()) {
      throw InvalidArgument("edge list with " + std::to_string(batch.src.size()) + " sources but " +
                            std::to_string(batch.dst.size()) + " targets");
    }
    std::vector<EdgeKey> keys;
    keys.reserve(batch.size());
    std::uint64_t vertices = std::max<std::uint64_t>(batch.num_vertices, adjacency_.size());
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const vertex_t u = batch.src[i], v = batch.dst[i];
      vertices = std::max<std::uint64_t>(vertices, std::uint64_t{std::max(u, v)} + 1);
      if (u != v) keys.push_back(make_key(u, v));
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    if (vertices > adjacency_.size()) adjacency_.resize(vertices);
    return keys;
  }

  bool has_edge(vertex_t u, vertex_t v) const {
    const auto& a = adjacency_[u].size() <= adjacency_[v].size() ? adjacency_[u] : adjacency_[v];
    const vertex_t x = &a == &adjacency_[u] ? v : u;
    return std::binary_search(a.begin(), a.end(), x);
  }

  /// Both directions of each key as (vertex, neighbour) pairs, grouped by vertex.
  static std::vector<EdgeKey> arcs_of(const std::vector<EdgeKey>& keys) {
    std::vector<EdgeKey> arcs;
    arcs.reserve(2 * keys.size());
    for (EdgeKey k : keys) {
      arcs.push_back(k);
      arcs.push_back((EdgeKey{key_high(k)} << 32) | key_low(k));
    }
    std::sort(arcs.begin(), arcs.end());
    return arcs;
  }

  /// Adds edges known to be absent, keeping every neighbour list sorted.
  void add_edges(const std::vector<EdgeKey>& keys) {
    const std::vector<EdgeKey> arcs = arcs_of(keys);
    for (std::size_t i = 0; i < arcs.size();) {
      const vertex_t u = key_low(arcs[i]);
      std::vector<vertex_t>& list = adjacency_[u];
      const std::size_t old_size = list.size();
      for (; i < arcs.size() && key_low(arcs[i]) == u; ++i) list.push_back(key_high(arcs[i]));
      std::inplace_merge(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(old_size),
                         list.end());
    }
  }

  /// Removes edges known to be present.
  void remove_edges(const std::vector<EdgeKey>& keys) {
    const std::vector<EdgeKey> arcs = arcs_of(keys);
    std::vector<vertex_t> gone;
    for (std::size_t i = 0; i < arcs.size();) {
      const vertex_t u = key_low(arcs[i]);
      gone.clear();
      for (; i < arcs.size() && key_low(arcs[i]) == u; ++i) gone.push_back(key_high(arcs[i]));
      std::vector<vertex_t>& list = adjacency_[u];
      std::vector<vertex_t> kept;
      kept.reserve(list.size() - gone.size());
      std::set_difference(list.begin(), list.end(), gone.begin(), gone.end(),
                          std::back_inserter(kept));
      list.swap(kept);
    }
  }

  /// Triangles of the current graph that contain at least one edge of `changed` (sorted unique
  /// keys, all present in the graph), each counted once.
  std::uint64_t triangles_touching(const std::vector<EdgeKey>& changed) const {
    auto in_changed = [&](vertex_t a, vertex_t b) {
      return std::binary_search(changed.begin(), changed.end(), make_key(a, b));
    };
    std::uint64_t found[4] = {0, 0, 0, 0};  // found[k]: finds of triangles with k changed edges
    for (EdgeKey k : changed) {
      const vertex_t u = key_low(k), v = key_high(k);
      for_each_common(adjacency_[u], adjacency_[v], [&](vertex_t w) {
        ++found[1 + int{in_changed(u, w)} + int{in_changed(v, w)}];
      });
    }
    if (found[2] % 2 != 0 || found[3] % 3 != 0) {
      throw Error("reference backend: inconsistent triangle finds (bug)");
    }
    return found[1] + found[2] / 2 + found[3] / 3;
  }

  std::vector<std::vector<vertex_t>> adjacency_;  // sorted, both directions
  std::vector<std::uint8_t> erased_;              // ids erased by erase_vertices (1)
  std::uint64_t num_edges_ = 0;
  std::uint64_t triangles_ = 0;
};

}  // namespace

std::unique_ptr<GraphBackend> make_reference_backend() {
  return std::make_unique<ReferenceBackend>();
}

}  // namespace wg::cli
