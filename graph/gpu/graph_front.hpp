#pragma once
// wg::gpu::DynamicGraph<S>: the one GPU graph front. It writes the wide graph interface once (host
// upload and chunking, the vertex range, liveness counts and free ids, insert_vertices /
// erase_vertices, degrees, has_edges, exports, prepared batches) over a store of arcs (store.hpp):
// the slab-hash store (dynamic_graph.hpp: DynamicGraph<SlabSetAdjacency>, Graph, WeightedGraph)
// and the B-tree store (btree_graph.hpp: BTreeGraph<W>) are two of them. S is a store or a tag
// naming one (`using store_type = ...`, as SlabSetAdjacency does).
//
// Semantics: those of graph/graph_concepts.hpp, stated in full in dynamic_graph.hpp. Every call is
// one phase ordered on stream(); not thread-safe on the host. Erased ids wait in a free-id queue
// (on the device) and insert_vertices() hands them out again, earliest erased first (increasing
// id within one erase call). version() counts the calls that changed the graph's edges or
// erased vertices, so an observer can tell that the graph changed behind its back; new ids
// (grow_vertices, insert_vertices without edges) are isolated vertices, which every dynamic
// result takes as they come, and do not count.
//
// Complexity: the front adds O(1) host work per call, O(batch) for host uploads and the id
// mapping of insert_vertices, O(k + num_vertices) device work for erase_vertices (marks and the
// ascending list of erased ids), O(V + E) for exports; the rest is the store's (store.hpp).
#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/edge_batch.hpp>
#include <warpgraph/graph/gpu/free_id_queue.hpp>
#include <warpgraph/graph/gpu/store.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::gpu {

namespace detail {
template <class T>
struct StoreOf {
  using type = T;
};
template <class T>
requires requires {
  typename T::store_type;
}
struct StoreOf<T> {
  using type = typename T::store_type;
};
struct NoExtras {};
template <class S, class G>
struct ExtrasOf {
  using type = NoExtras;
};
template <class S, class G>
requires requires {
  typename S::template extras<G>;
}
struct ExtrasOf<S, G> {
  using type = typename S::template extras<G>;
};
}  // namespace detail

/// The store of a graph argument: T::store_type for a tag, else T.
template <class T>
using store_of_t = typename detail::StoreOf<T>::type;

template <class Tag>
class DynamicGraph : public detail::ExtrasOf<store_of_t<Tag>, DynamicGraph<Tag>>::type {
 public:
  using store_type = store_of_t<Tag>;
  using options_type = typename store_type::options_type;
  using ref_type = typename store_type::ref_type;
  static constexpr bool is_weighted = store_type::weighted;
  static constexpr bool weighted() noexcept { return store_type::weighted; }

  /// An empty graph of `num_vertices` live vertices.
  explicit DynamicGraph(std::uint64_t num_vertices = 0, const options_type& options = {});
  ~DynamicGraph();
  DynamicGraph(DynamicGraph&&) noexcept;
  DynamicGraph& operator=(DynamicGraph&&) noexcept;
  DynamicGraph(const DynamicGraph&) = delete;
  DynamicGraph& operator=(const DynamicGraph&) = delete;

  /// Replaces the graph by the simple graph of `edges`: vertices 0 .. max(num_vertices, largest
  /// id + 1) - 1, all live (EdgeList weights rounded to uint32, InvalidArgument if out of range).
  UpdateResult build(const EdgeList& edges);
  UpdateResult build(DeviceEdges edges, std::uint64_t num_vertices);

  /// Batch updates. Host overloads copy the batch to the GPU chunk by chunk and grow the vertex
  /// range to batch.num_vertices or the largest id + 1 (new ids live) when it is larger.
  UpdateResult insert_edges(const EdgeList& batch);
  UpdateResult insert_edges(DeviceEdges batch);
  UpdateResult erase_edges(const EdgeList& batch);
  UpdateResult erase_edges(DeviceEdges batch);

  /// New vertices with their edges (graph/update_result.hpp: new_vertex(i)); free ids first.
  VertexInsertResult insert_vertices(std::uint64_t count, const EdgeList& edges);
  std::vector<vertex_t> insert_vertices(std::uint64_t count);
  /// Erases vertices and their incident edges (repeats, dead and out-of-range ids are
  /// ignored_ids); their ids join the free-id queue in increasing order.
  VertexEraseResult erase_vertices(const std::vector<vertex_t>& ids);
  VertexEraseResult erase_vertices(const vertex_t* ids_device, std::uint64_t count);

  /// out[i] = 1 iff edge (src[i], dst[i]) is present (0 for self-loops and invalid ids).
  std::vector<std::uint8_t> has_edges(const EdgeList& queries) const;
  void has_edges(DeviceEdges queries, std::uint8_t* out_device) const;
  /// Weighted graphs: values_out[i] = value of edge i, found_out[i] = has_edges.
  void find_values(DeviceEdges queries, std::uint32_t* values_out, std::uint8_t* found_out) const;

  /// Degree of every vertex (0 for non-live ids); out-degree when directed.
  std::vector<std::uint32_t> degrees() const;
  /// One device read and a synchronisation (0 for an out-of-range id).
  std::uint32_t degree(vertex_t v) const;
  void degrees(std::uint32_t* out_device) const;

  /// Sorted exports: COO gives an undirected edge once with src < dst, a directed graph's arcs.
  EdgeList export_coo() const;
  Csr export_csr() const;

  std::uint64_t num_vertices() const noexcept { return store_.num_vertices(); }
  std::uint64_t num_live_vertices() const noexcept { return live_count_; }
  std::uint64_t num_free_ids() const noexcept { return free_.size(); }
  std::uint64_t num_edges() const noexcept { return store_.num_edges(); }
  std::uint64_t max_degree() const;
  bool directed() const noexcept { return store_.directed(); }
  const options_type& options() const noexcept { return store_.options(); }
  cudaStream_t stream() const noexcept { return store_.stream(); }
  /// Device memory held by the store (the free-id queue not counted).
  std::uint64_t memory_bytes() const { return store_.memory_bytes(); }
  /// Calls that changed the graph so far (builds, applied or attempted batches, vertex erasures;
  /// not new isolated ids).
  std::uint64_t version() const noexcept { return version_; }

  /// Device view; valid until the next call that changes the vertex range or the store's memory.
  ref_type ref() const { return store_.ref(); }
  const store_type& store() const noexcept { return store_; }

  // ---- lower level: the steps of a batch, for algorithms that act between them ------------
  /// Dedup + canonicalise + drop self-loops and invalid entries (nothing is applied).
  PreparedBatch prepare(DeviceEdges batch) const;
  /// Applies a prepared batch; flags (optional, batch.size bytes): 1 where the edge changed.
  UpdateResult insert_prepared(const PreparedBatch& batch, std::uint8_t* is_new_device = nullptr);
  UpdateResult erase_prepared(const PreparedBatch& batch,
                              std::uint8_t* was_present_device = nullptr);
  void contains_prepared(const PreparedBatch& batch, std::uint8_t* out_device) const;
  /// Grows the vertex range to n (new ids live).
  void grow_vertices(std::uint64_t n);
  /// How many entries of a batch of n one piece may hold.
  std::uint64_t batch_chunk(std::uint64_t n) const { return store_.batch_chunk(n); }

 private:
  friend typename detail::ExtrasOf<store_type, DynamicGraph>::type;
  store_type& mutable_store() noexcept { return store_; }
  /// insert_edges / erase_edges of one device batch, and of one prepared batch.
  UpdateResult apply_edges(DeviceEdges batch, bool insert);
  UpdateResult apply_prepared(const PreparedBatch& batch, std::uint8_t* flags, bool insert);

  store_type store_;
  FreeIdQueue free_;
  std::uint64_t live_count_ = 0;
  std::uint64_t version_ = 0;
};

}  // namespace wg::gpu
