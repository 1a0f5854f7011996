#pragma once
// wg::cpu::DynamicGraph: the CPU backend of warpgraph's dynamic graph, on the BS-tree.
//
// Layout. Every arc u->v is one 64-bit key (u << 32) | v in ONE BS-tree (containers/bstree),
// so the keys of u's out-arcs are contiguous and sorted: neighbour iteration is the range scan
// [u << 32, (u + 1) << 32) and comes out in ascending neighbour order (what merge-based
// triangle counting wants). Undirected graphs store both arcs of each edge; directed graphs keep
// a second tree of reversed arcs (v << 32) | u so that in-arcs can be found (vertex deletion
// removes incident edges in both directions; for_each_in_neighbor). Weighted graphs use the
// map form of the tree (one float per arc). Exact degrees live in a plain array.
//
// Batches. Every update takes a host COO batch (wg::EdgeList) and first brings it to canonical
// form: self-loops dropped, entries sorted and deduplicated (for undirected graphs {u,v} and
// {v,u} are the same edge; for weighted batches the LAST weight of an edge in the batch wins).
// The result says how many entries were applied, self-loops, duplicates, and ignored (already
// present on insert, absent on erase). Inserting an edge that is present in a weighted graph
// replaces its weight (map insert-or-assign, as the GPU slab map does) and counts as ignored,
// since the edge set does not change. Weights are stored as float (the GPU graph stores
// uint32 values).
//
// Concurrency. Batch operations run on `threads` threads over contiguous chunks of the sorted
// batch; the BS-tree is thread-safe (optimistic lock coupling) and degrees are updated with
// atomics. With threads == 1 the trees are single-writer BS-trees (no version words, no atomic
// read-modify-writes: faster single-threaded updates); set_threads switches the kind, moving
// the arcs (O(arcs)). The graph object itself is NOT safe for concurrent calls: one batch at a time
// (phase-concurrent, as the GPU graph); const methods may run concurrently with each other.
//
// Vertices. Ids are 0-based and below 2^31. num_vertices() is the id bound: one more than the
// largest id in use (build() sets it from EdgeList::num_vertices or the largest id + 1).
// As in the GPU graph, a batch entry that names an erased vertex (one waiting in the free-id
// queue) or an id at or beyond the bound is counted as ignored; the bound grows through
// insert_vertices, ensure_vertices or build. erase_vertices frees ids into a FIFO queue that
// insert_vertices reuses.
//
// Complexity (n = batch entries, d = degree, N = arcs in the graph, T = threads):
//   insert/erase_edges: O(n log n / T) sort + O(n log N / T) tree work;
//   has_edges: O(n log N / T); for_each_neighbor: O(log N + d); degree: O(1);
//   build: O(n log n) sort + O(N) bulk load; export_coo/csr: O(N / T).
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/graph/cpu/detail/arc_store.hpp>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/graph_concepts.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::cpu {

struct GraphOptions {
  bool directed = false;
  bool weighted = false;
  /// Worker threads for batch operations (see "Concurrency"). Default 0: all cores
  /// (std::thread::hardware_concurrency()). 1 also makes the trees single-writer.
  unsigned threads = 0;
};

/// Sorted adjacency of the whole graph (both arcs of each undirected edge); field names as the
/// GPU graph's wg::gpu::Csr.
struct Csr {
  std::uint64_t num_vertices = 0;
  std::vector<std::uint64_t> offsets;  ///< num_vertices + 1 entries
  std::vector<vertex_t> targets;       ///< ascending within each vertex
  std::vector<float> values;           ///< weights; empty when the graph is unweighted
};

/// A batch in canonical form, as the graph applies it: keys are packed arcs (u << 32) | v,
/// sorted ascending and unique, with u < v for undirected graphs; self-loops removed.
struct CanonicalBatch {
  std::vector<std::uint64_t> keys;
  std::vector<float> weights;    ///< parallel to keys for weighted graphs, else empty
  std::uint64_t entries = 0;     ///< entries of the batch as given
  std::uint64_t self_loops = 0;  ///< entries dropped as self-loops
  std::uint64_t duplicates = 0;  ///< entries dropped as repeats of another entry
};

/// Packed arc key and its halves.
constexpr std::uint64_t arc_key(vertex_t u, vertex_t v) noexcept {
  return (std::uint64_t{u} << 32) | v;
}
constexpr vertex_t arc_source(std::uint64_t key) noexcept {
  return vertex_t(key >> 32);
}
constexpr vertex_t arc_target(std::uint64_t key) noexcept {
  return vertex_t(key);
}

class DynamicGraph {
 public:
  using weight_type = float;
  explicit DynamicGraph(const GraphOptions& options = {});
  /// A graph of `num_vertices` live, isolated vertices (as wg::gpu::DynamicGraph's constructor).
  explicit DynamicGraph(std::uint64_t num_vertices, const GraphOptions& options = {});
  DynamicGraph(DynamicGraph&&) noexcept;
  DynamicGraph& operator=(DynamicGraph&&) noexcept;
  ~DynamicGraph();

  bool directed() const noexcept { return options_.directed; }
  bool weighted() const noexcept { return options_.weighted; }
  unsigned threads() const noexcept { return threads_; }
  /// Worker threads for later batches (0 = all cores). Going from 1 to more
  /// threads or back rebuilds the trees in the other kind (see "Concurrency"): O(arcs).
  void set_threads(unsigned threads);

  // ---- building and batch updates ----------------------------------------------------------
  /// Replaces the graph by the simple graph of `edges` (sort + BS-tree bulk load). The id bound
  /// becomes max(edges.num_vertices, largest id + 1); every vertex below it exists.
  UpdateResult build(const EdgeList& edges);
  /// Adds the edges of `batch` (see "Batches" above).
  UpdateResult insert_edges(const EdgeList& batch);
  /// Removes the edges of `batch`; absent edges count as ignored.
  UpdateResult erase_edges(const EdgeList& batch);

  /// Makes every id below `bound` a vertex (ids at or beyond the current bound are added as
  /// isolated vertices; erased ids below it stay erased). No-op when bound <= num_vertices().
  void ensure_vertices(std::uint64_t bound);
  /// Adds `count` isolated vertices; returns their ids: freed ids first (oldest first), then
  /// new ids at the end of the id range.
  std::vector<vertex_t> insert_vertices(std::uint64_t count);
  /// Adds `count` vertices and then the edges of `edges`, in which wg::new_vertex(i) names the
  /// i-th new vertex and any other id a live vertex (graph/update_result.hpp).
  VertexInsertResult insert_vertices(std::uint64_t count, const EdgeList& edges);
  /// Removes vertices and every edge incident to them (both directions); their ids go to the
  /// free-id queue (ascending id order within one call).
  VertexEraseResult erase_vertices(std::span<const vertex_t> ids);

  // ---- queries -----------------------------------------------------------------------------
  /// One byte per query entry: 1 when the edge is present (for undirected graphs, in either
  /// order; for directed graphs the arc src->dst, or either arc when queries.symmetric).
  std::vector<std::uint8_t> has_edges(const EdgeList& queries) const;
  bool has_edge(vertex_t u, vertex_t v) const;
  /// The weight of arc u->v (1 for unweighted graphs), or nullopt when absent.
  std::optional<float> edge_weight(vertex_t u, vertex_t v) const;
  /// Out-degree (the degree for undirected graphs); 0 for ids beyond the bound.
  std::uint32_t degree(vertex_t v) const noexcept { return v < degree_.size() ? degree_[v] : 0; }
  std::uint32_t in_degree(vertex_t v) const noexcept;
  /// Out-degrees of all vertices 0..num_vertices()-1.
  std::vector<std::uint32_t> degrees() const { return degree_; }
  bool is_vertex(vertex_t v) const noexcept { return v < alive_.size() && alive_[v]; }
  /// The graph concepts' name for is_vertex: v is below the id bound and not erased.
  bool is_live(vertex_t v) const noexcept { return is_vertex(v); }

  /// f(v) for each out-neighbour v of u, ascending. f may return void, or bool (false stops).
  template <class F>
  void for_each_neighbor(vertex_t u, F&& f) const {
    out_.scan(arc_key(u, 0), arc_key(u, 0) + (std::uint64_t{1} << 32),
              [&](std::uint64_t key, float) { return call(f, arc_target(key)); });
  }
  /// f(v, weight) for each out-arc u->v, ascending in v.
  template <class F>
  void for_each_weighted_neighbor(vertex_t u, F&& f) const {
    out_.scan(arc_key(u, 0), arc_key(u, 0) + (std::uint64_t{1} << 32),
              [&](std::uint64_t key, float w) { return call2(f, arc_target(key), w); });
  }
  /// f(v) for each in-neighbour v of u (arc v->u), ascending. Same as for_each_neighbor on
  /// undirected graphs.
  template <class F>
  void for_each_in_neighbor(vertex_t u, F&& f) const {
    const detail::ArcStore& s = options_.directed ? in_ : out_;
    s.scan(arc_key(u, 0), arc_key(u, 0) + (std::uint64_t{1} << 32),
           [&](std::uint64_t key, float) { return call(f, arc_target(key)); });
  }
  /// Appends u's out-neighbours (ascending) to `out`.
  void neighbors(vertex_t u, std::vector<vertex_t>& out) const;

  /// Undirected: one entry per edge with src < dst, symmetric = true; directed: every arc.
  /// Sorted by (src, dst); weights filled for weighted graphs.
  EdgeList export_coo() const;
  /// Out-adjacency of every vertex 0..num_vertices()-1, sorted.
  Csr export_csr() const;

  std::uint64_t num_vertices() const noexcept { return alive_.size(); }
  std::uint64_t num_live_vertices() const noexcept { return live_vertices_; }
  std::uint64_t num_free_ids() const noexcept { return free_ids_.size(); }
  std::uint32_t max_degree() const noexcept {
    std::uint32_t m = 0;
    for (auto d : degree_) m = d > m ? d : m;
    return m;
  }
  /// Undirected edges (arcs for directed graphs).
  std::uint64_t num_edges() const noexcept { return options_.directed ? num_arcs_ : num_arcs_ / 2; }
  std::uint64_t num_arcs() const noexcept { return num_arcs_; }
  /// Bytes held by the trees and the vertex arrays.
  std::uint64_t memory_bytes() const;

  // ---- the canonical layer (for incremental algorithms) ------------------------------------
  /// The canonical form of `batch` for this graph (see CanonicalBatch).
  CanonicalBatch canonicalize(const EdgeList& batch) const;
  /// Inserts a canonical batch. On return batch.keys (and weights) hold exactly the edges that
  /// were added (absent before), still sorted.
  UpdateResult insert_canonical(CanonicalBatch& batch);
  /// Keeps in `batch` only the edges present in the graph; returns how many were dropped.
  std::uint64_t retain_present(CanonicalBatch& batch) const;
  /// Removes a canonical batch. On return batch.keys holds exactly the edges that were removed.
  UpdateResult erase_canonical(CanonicalBatch& batch);
  /// The canonical keys of every edge incident to the live vertices among `ids` (sorted,
  /// unique): what erase_vertices(ids) will remove.
  std::vector<std::uint64_t> incident_edges(std::span<const vertex_t> ids) const;
  /// Change counter: bumped by every call that adds or removes edges or erases vertices (adding
  /// isolated vertices leaves it), so a dynamic result can tell it missed a batch.
  std::uint64_t version() const noexcept { return version_; }

 private:
  template <class F>
  static bool call(F& f, vertex_t v) {
    if constexpr (std::is_void_v<decltype(f(v))>) {
      f(v);
      return true;
    } else {
      return static_cast<bool>(f(v));
    }
  }
  template <class F>
  static bool call2(F& f, vertex_t v, float w) {
    if constexpr (std::is_void_v<decltype(f(v, w))>) {
      f(v, w);
      return true;
    } else {
      return static_cast<bool>(f(v, w));
    }
  }
  std::uint64_t canonical_key(vertex_t u, vertex_t v) const noexcept {
    if (!options_.directed && v < u) return arc_key(v, u);
    return arc_key(u, v);
  }
  void grow_to(std::uint64_t bound);
  void apply_arcs(std::span<const std::uint64_t> keys, std::span<const float> weights, bool insert);

  GraphOptions options_;
  unsigned threads_ = 1;
  detail::ArcStore out_;                  ///< all arcs (u << 32) | v
  detail::ArcStore in_;                   ///< directed graphs only: reversed arcs (v << 32) | u
  std::vector<std::uint32_t> degree_;     ///< out-degree
  std::vector<std::uint32_t> in_degree_;  ///< directed graphs only
  std::vector<std::uint8_t> alive_;
  std::deque<vertex_t> free_ids_;  ///< erased ids, earliest erased first
  std::uint64_t live_vertices_ = 0;
  std::uint64_t num_arcs_ = 0;
  std::uint64_t version_ = 0;
};

static_assert(wg::DynamicGraph<DynamicGraph> && wg::HostGraphView<DynamicGraph>,
              "wg::cpu::DynamicGraph models the graph concepts (graph/graph_concepts.hpp)");

}  // namespace wg::cpu
