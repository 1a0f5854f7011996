#pragma once
// Host model of the dynamic graph semantics (graph/gpu/dynamic_graph.hpp and
// graph/update_result.hpp), written independently of the GPU code: the edges as a sorted vector
// of (edge, weight); a batch is classified entry by entry in batch order, stably sorted (the last
// entry of an edge keeps its weight) and merged into the edges: O(n log n + m) per batch of n
// entries into m edges (a std::map took ~16 s for the 2^21-entry cases, this ~1 s).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <warpgraph/datasets/update_stream.hpp>
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
      live_[x] = 0;
      free_.push_back(x);
    }
    // Every edge with an erased end point goes.
    const auto touches = [&](const Edge& e) {
      return !live_[e.first.first] || !live_[e.first.second];
    };
    const auto gone = std::remove_if(edges_.begin(), edges_.end(), touches);
    r.edges_removed = static_cast<std::uint64_t>(edges_.end() - gone);
    edges_.erase(gone, edges_.end());
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
    return find(key(u, v)) != edges_.end();
  }

 private:
  Key key(vertex_t u, vertex_t v) const {
    if (!directed_ && v < u) std::swap(u, v);
    return {u, v};
  }

  using Edge = std::pair<Key, std::uint32_t>;

  std::vector<Edge>::const_iterator find(const Key& k) const {
    const auto it = std::lower_bound(edges_.begin(), edges_.end(), k,
                                     [](const Edge& e, const Key& x) { return e.first < x; });
    return it != edges_.end() && it->first == k ? it : edges_.end();
  }

  UpdateResult apply(const EdgeList& b, bool insert) {
    UpdateResult r;
    std::vector<Edge> batch;  // the valid entries in batch order
    batch.reserve(b.size());
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
      batch.emplace_back(key(u, v), w);
    }
    // Unique edges, each with the weight of its last entry: a stable sort keeps an edge's
    // entries in batch order, and the last of each run stays.
    std::stable_sort(batch.begin(), batch.end(),
                     [](const Edge& a, const Edge& c) { return a.first < c.first; });
    std::vector<Edge> unique;
    for (std::size_t i = 0; i < batch.size(); ++i) {
      if (i + 1 < batch.size() && batch[i + 1].first == batch[i].first) {
        ++r.duplicates;
        continue;
      }
      unique.push_back(batch[i]);
    }
    // Merge into the edges.
    std::vector<Edge> merged;
    merged.reserve(edges_.size() + (insert ? unique.size() : 0));
    auto it = edges_.begin();
    for (const Edge& e : unique) {
      for (; it != edges_.end() && it->first < e.first; ++it) merged.push_back(*it);
      const bool present = it != edges_.end() && it->first == e.first;
      if (insert) {
        merged.push_back(e);  // a new edge, or the present one with the batch's weight
        if (present) {
          ++it;
          ++r.ignored;
        } else {
          ++r.applied;
        }
      } else if (present) {
        ++it;  // erased
        ++r.applied;
      } else {
        ++r.ignored;
      }
    }
    merged.insert(merged.end(), it, edges_.end());
    edges_ = std::move(merged);
    return r;
  }

  bool directed_;
  std::vector<Edge> edges_;  // sorted by edge, unique
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

/// g.has_edges on `size` random pairs over ids [0, n) (random_batch) and on the pairs of `also`:
/// each answer must equal the model's has_edge.
template <class G>
void expect_has_edges(const G& g, const GraphModel& m, TestRng& rng, std::uint64_t n,
                      const EdgeList* also = nullptr, std::size_t size = 500) {
  EdgeList q = random_batch(rng, n, size, false);
  if (also) {
    q.src.insert(q.src.end(), also->src.begin(), also->src.end());
    q.dst.insert(q.dst.end(), also->dst.begin(), also->dst.end());
  }
  const auto got = g.has_edges(q);
  ASSERT_EQ(got.size(), q.size());
  for (std::size_t i = 0; i < q.size(); ++i)
    ASSERT_EQ(got[i] != 0, m.has_edge(q.src[i], q.dst[i])) << q.src[i] << " " << q.dst[i];
}

/// `rounds` rounds of an insertion of `size` random entries over ids [0, n), then a deletion
/// of size / 2 whose even entries name edges just inserted (reversed: on an undirected graph the
/// same edge), present or deleted twice. Each update must equal the model's and move the
/// graph's version; expect(batch, where) compares the graph with the model after each.
template <class Graph, class Expect>
void insert_erase_rounds(Graph& g, GraphModel& m, TestRng& rng, std::uint64_t n, std::size_t size,
                         int rounds, bool weighted, Expect&& expect) {
  for (int r = 0; r < rounds; ++r) {
    const std::uint64_t before = g.version();
    const EdgeList ins = random_batch(rng, n, size, weighted);
    ASSERT_EQ(g.insert_edges(ins), m.insert(ins)) << "insert round " << r;
    EXPECT_GT(g.version(), before);
    expect(ins, "after insert " + std::to_string(r));
    if (::testing::Test::HasFatalFailure()) return;
    EdgeList del = random_batch(rng, n, size / 2, false);
    for (std::size_t i = 0; i < del.size(); i += 2) {
      del.src[i] = ins.dst[i % ins.size()];
      del.dst[i] = ins.src[i % ins.size()];
    }
    ASSERT_EQ(g.erase_edges(del), m.erase(del)) << "erase round " << r;
    expect(del, "after erase " + std::to_string(r));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

/// A random_batch inserted into both the graph and its model, which must report the same
/// UpdateResult; returns the batch.
template <class Graph>
EdgeList insert_random_batch(Graph& g, GraphModel& m, TestRng& rng, std::uint64_t n,
                             std::size_t size, bool weighted) {
  EdgeList b = random_batch(rng, n, size, weighted);
  EXPECT_EQ(g.insert_edges(b), m.insert(b)) << "inserting the random base batch";
  return b;
}

/// One round of vertex calls on a graph and its model, which must agree: `erase` random ids
/// (and a repeat) erased, then `count` new vertices inserted, each with an edge to an old vertex
/// and one to the next new vertex (a ring). expect(where) compares the two after each step.
template <class Graph, class Expect>
void vertex_round(Graph& g, GraphModel& m, TestRng& rng, std::uint64_t n, bool weighted, int erase,
                  vertex_t count, Expect&& expect) {
  std::vector<vertex_t> ids;
  for (int i = 0; i < erase; ++i) ids.push_back(static_cast<vertex_t>(rng.below(n + 5)));
  ids.push_back(ids.front());  // a repeat
  const VertexEraseResult got = g.erase_vertices(ids), want = m.erase_vertices(ids);
  ASSERT_EQ(got.vertices, want.vertices);
  ASSERT_EQ(got.ignored_ids, want.ignored_ids);
  ASSERT_EQ(got.edges_removed, want.edges_removed);
  ASSERT_EQ(g.num_live_vertices(), g.num_vertices() - g.num_free_ids());
  expect("erase_vertices");
  // New vertices (reused ids first), with edges among themselves and to old vertices.
  EdgeList e;
  for (vertex_t i = 0; i < count; ++i) {
    e.src.push_back(new_vertex(i));
    e.dst.push_back(static_cast<vertex_t>(rng.below(n)));
    e.src.push_back(new_vertex(i));
    e.dst.push_back(new_vertex((i + 1) % count));
    if (weighted) {
      e.weight.push_back(i);
      e.weight.push_back(i + 100);
    }
  }
  const VertexInsertResult gi = g.insert_vertices(count, e), mi = m.insert_vertices(count, e);
  ASSERT_EQ(gi.ids, mi.ids);
  ASSERT_EQ(gi.edges, mi.edges);
  expect("insert_vertices");
}

/// The sizes of a vertex-operation scenario (vertex_scenario).
struct VertexScenario {
  std::uint64_t n;               ///< ids of the random base batch
  std::size_t base;              ///< its entries
  int rounds;                    ///< vertex_round's
  int erase;                     ///< ids each round erases
  vertex_t count;                ///< vertices each round inserts
  std::size_t insert_after = 0;  ///< a random batch after each round (0: none)
};

/// g (empty) and m built from a random base batch, then s.rounds vertex_round's, each followed
/// (s.insert_after > 0) by a random batch over the id range, which ignores the erased ids. The
/// updates must agree; expect(step, where) compares the two after each step ("build",
/// "erase_vertices", "insert_vertices", "insert"; where names the step and the round).
template <class Graph, class Expect>
void vertex_scenario(Graph& g, GraphModel& m, TestRng& rng, bool weighted, const VertexScenario& s,
                     Expect&& expect) {
  const EdgeList base = random_batch(rng, s.n, s.base, weighted);
  m.clear(s.n);
  ASSERT_EQ(g.build(base), m.insert(base));
  expect(std::string("build"), std::string("build"));
  for (int r = 0; r < s.rounds; ++r) {
    vertex_round(g, m, rng, s.n, weighted, s.erase, s.count, [&](const char* step) {
      expect(std::string(step), step + std::string(" ") + std::to_string(r));
    });
    if (::testing::Test::HasFatalFailure()) return;
    if (s.insert_after == 0) continue;
    const EdgeList b = random_batch(rng, m.id_range(), s.insert_after, weighted);
    ASSERT_EQ(g.insert_edges(b), m.insert(b));
    expect(std::string("insert"), "insert after vertex ops " + std::to_string(r));
  }
}

/// vertex_scenario on a new, empty Graph(0, {.directed = directed}), its model and
/// TestRng{seed}; expect(g, m, rng, step, where) compares the two after each step.
template <class Graph, class Expect>
void vertex_scenario_on_new(bool directed, bool weighted, std::uint64_t seed,
                            const VertexScenario& s, Expect&& expect) {
  Graph g(0, {.directed = directed});
  GraphModel m(0, directed);
  TestRng rng{seed};
  vertex_scenario(g, m, rng, weighted, s, [&](const std::string& step, const std::string& where) {
    expect(g, m, rng, step, where);
  });
}

/// A batch as it is (replay_stream's default preparation).
struct AsIs {
  const EdgeList& operator()(const EdgeList& e) const { return e; }
};

/// Each batch of `stream`, prepare(batch) (e.g. with self-loops added), through dyn
/// (insert_edges or erase_edges: a graph, or a dynamic algorithm on one) and through the model:
/// the updates must agree, then check(batch index, result, insert) must pass. Stops at the first
/// fatal failure.
template <class Dynamic, class Check, class Prepare = AsIs>
void replay_stream(const datasets::UpdateStream& stream, Dynamic& dyn, GraphModel& m, Check&& check,
                   Prepare prepare = {}) {
  for (std::size_t i = 0; i < stream.batches.size(); ++i) {
    SCOPED_TRACE("batch " + std::to_string(i));
    decltype(auto) b = prepare(stream.batches[i].edges);
    const bool insert = stream.batches[i].kind == datasets::UpdateBatch::Kind::insert;
    const auto r = insert ? dyn.insert_edges(b) : dyn.erase_edges(b);
    ASSERT_EQ(r.update, insert ? m.insert(b) : m.erase(b));
    check(i, r, insert);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

/// An UpdateResult in a failure message.
inline std::string str(const UpdateResult& r) {
  return "applied " + std::to_string(r.applied) + " self_loops " + std::to_string(r.self_loops) +
         " duplicates " + std::to_string(r.duplicates) + " ignored " + std::to_string(r.ignored);
}

/// g (a GPU graph: sizes, export_coo, degrees) holds exactly the model's edges (and weights when
/// `weighted`); a graph with a structural self-check (validate(), BTreeGraph) must pass it too.
template <class G>
void expect_same(const G& g, const GraphModel& m, bool weighted, const std::string& where) {
  SCOPED_TRACE(where);
  ASSERT_EQ(g.num_vertices(), m.id_range());
  ASSERT_EQ(g.num_edges(), m.num_edges());
  const EdgeList got = g.export_coo();
  const EdgeList want = m.export_coo(weighted);
  ASSERT_EQ(got.size(), want.size());
  ASSERT_EQ(got.src, want.src);
  ASSERT_EQ(got.dst, want.dst);
  if (weighted) ASSERT_EQ(got.weight, want.weight);
  ASSERT_EQ(g.degrees(), m.degrees());
  if constexpr (requires { g.validate(); }) ASSERT_EQ(g.validate(), "");
}

}  // namespace wg::test
