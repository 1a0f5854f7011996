#pragma once
// wg::gpu::BTreeGraph<Weighted>: a dynamic graph on the GPU whose adjacency lists are SORTED:
// every arc u -> v is the key (u << 32) | v of one GPU B-link tree (containers/btree, 64-bit
// keys; the value is the arc's 32-bit weight), so u's neighbours are one key range, read leaf
// after leaf in increasing id.
//
//   wg::gpu::BTreeGraph<false> g(num_vertices);      // undirected by default
//   g.build(edge_list);                             // bulk build (sort + bottom-up tree)
//   wg::UpdateResult r = g.insert_edges(batch);     // the same accounting as the slab graph
//   auto ref = g.ref();                             // device view: btree_graph_ref.cuh
//
// Why one tree keyed by (u, v) rather than a tree per vertex: the B-tree container is one root
// over one node pool; a forest of per-vertex trees would need a root per vertex, a per-vertex
// pool policy and a leaf per vertex even for degree 1 (most R-MAT vertices have a handful of
// neighbours: a 128-byte leaf per vertex wastes most of it, where one tree packs the neighbours
// of small vertices together, 7 per leaf). Batches are one sorted tree operation whatever the
// number of vertices they touch, a hub costs no more than its keys, and the whole adjacency is
// one ordered key space, so a CSR snapshot is one range query per vertex
// (export_device_csr) and neighbour lists are already sorted for intersections. The price is
// an O(log_7 E) descent to find a vertex's first leaf (the slab graph finds its table in O(1)).
//
// Why a class of its own rather than DynamicGraph<BTreeAdjacency>: the slab graph's class is its
// implementation (buckets, overflow slabs, rebuild planning, compaction); a specialisation
// would share only the name. Algorithms take any wg::GpuDynamicGraph, so this graph runs them
// all (explicit instantiations in each algorithm's *_btree.cu).
//
// Semantics (those of graph/graph_concepts.hpp and graph/update_result.hpp, as the slab graph):
//  - Phase-concurrent: each call is one phase on stream(); not thread-safe on the host.
//  - Undirected graphs store both arcs of an edge; batches are deduplicated on the device
//    (prepare_batch: the LAST entry of an edge gives its weight), self-loops are dropped,
//    entries naming a non-live or out-of-range id are `ignored` (the EdgeList overloads first
//    grow the id range to the batch's largest id + 1). Degrees are exact after every call.
//  - Erased vertices' ids join a free-id queue; insert_vertices() hands them out again (earliest
//    erased first, increasing id within one erase call).
//  - Weighted (BTreeGraph<true>): 32-bit values; inserting a present edge replaces its value.
//
// Capacity: the tree's node pool is sized ahead of each batch (a batch of m arcs is given room for
// 2m + 64 new nodes: a full leaf splits 7 into 3 + 4 on its first insert, then at most once per
// 3 more, and inner nodes split a third as often). When the pool could run short, the tree is
// rebuilt into a pool of BTreeGraphOptions::growth x the need (one range pass and one bulk
// build, which also compacts erased slots). wg::CapacityError when GPU memory or the tree's
// 2^30-node limit does not allow it; the graph then stays as before the batch (should the tree
// still run out during a batch, the batch is retried once into a pool twice as large; if that
// fails too, the batch is partly applied and the degrees and edge count are read back from the
// tree, so the graph stays consistent).
//
// Complexity: insert/erase of b entries O(b log b) (radix sorts) + O(b log_7 E) node reads; a
// rebuild O(E); has_edge O(log_7 E); degree O(1); erase_vertices O(k + their degrees) (directed
// graphs: a range pass over all arcs for the in-arcs); exports O(V + E).
#include <cuda_runtime_api.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/gpu/edge_batch.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::gpu {

struct BTreeGraphOptions {
  bool directed = false;
  /// Fill of the leaves and inner nodes written by build() and by pool rebuilds (the tree's
  /// BTreeOptions::build_fill): room for inserts before nodes split.
  double build_fill = 0.8;
  /// A rebuilt pool holds growth x the nodes its contents and the pending batch need (>= 1.25),
  /// so a graph that keeps growing is rebuilt every ~growth x, not every batch.
  double growth = 2.0;
  /// Nodes of the first pool (0: enough for the vertex count).
  std::uint64_t initial_nodes = 0;
  /// Entries of a batch processed at a time (batches are split into chunks of this size; a
  /// repeat in a later chunk is then `ignored` rather than a `duplicate`).
  std::uint64_t max_chunk = std::uint64_t{1} << 24;
  /// Snapshots (exports, pool rebuilds, the sorted triangle count) read a vertex's row in
  /// pieces of about this many neighbours, split by neighbour id, so that a hub's row is read by
  /// many tiles at once rather than one tile walking its whole chain of leaves.
  std::uint64_t snapshot_piece_keys = 256;
  cudaStream_t stream = 0;
};

/// A CSR snapshot of the adjacency in device memory (rows sorted ascending).
struct DeviceCsr {
  std::uint64_t num_vertices = 0;
  DeviceBuffer<std::uint64_t> offsets;  ///< num_vertices + 1
  DeviceBuffer<vertex_t> targets;
  DeviceBuffer<std::uint32_t> values;  ///< weighted graphs only
};

template <bool Weighted>
class BTreeGraphRef;  // device view: graph/gpu/btree_graph_ref.cuh

template <bool Weighted>
class BTreeGraph {
 public:
  using ref_type = BTreeGraphRef<Weighted>;
  static constexpr bool is_weighted = Weighted;
  static constexpr bool weighted() noexcept { return Weighted; }

  /// An empty graph of `num_vertices` live vertices.
  explicit BTreeGraph(std::uint64_t num_vertices = 0, const BTreeGraphOptions& options = {});
  ~BTreeGraph();
  BTreeGraph(BTreeGraph&&) noexcept;
  BTreeGraph& operator=(BTreeGraph&&) noexcept;
  BTreeGraph(const BTreeGraph&) = delete;
  BTreeGraph& operator=(const BTreeGraph&) = delete;

  /// Replaces the graph by the simple graph of `edges`: vertices 0 .. max(edges.num_vertices,
  /// largest id + 1) - 1, all live; the tree is bulk built (sorted, bottom-up).
  UpdateResult build(const EdgeList& edges);
  UpdateResult build(DeviceEdges edges, std::uint64_t num_vertices);

  UpdateResult insert_edges(const EdgeList& batch);
  UpdateResult insert_edges(DeviceEdges batch);
  UpdateResult erase_edges(const EdgeList& batch);
  UpdateResult erase_edges(DeviceEdges batch);

  VertexInsertResult insert_vertices(std::uint64_t count, const EdgeList& edges);
  std::vector<vertex_t> insert_vertices(std::uint64_t count);
  /// Erases vertices and all their incident edges (repeats, dead and out-of-range ids are
  /// ignored_ids); their ids join the free-id queue in increasing order.
  VertexEraseResult erase_vertices(const std::vector<vertex_t>& ids);
  VertexEraseResult erase_vertices(const vertex_t* ids_device, std::uint64_t count);

  /// out[i] = 1 iff edge (src[i], dst[i]) is present (0 for self-loops and invalid ids).
  std::vector<std::uint8_t> has_edges(const EdgeList& queries) const;
  void has_edges(DeviceEdges queries, std::uint8_t* out_device) const;
  /// Weighted graphs: values_out[i] = value of edge i where found_out[i] (either may be null).
  void find_values(DeviceEdges queries, std::uint32_t* values_out, std::uint8_t* found_out) const;

  std::vector<std::uint32_t> degrees() const;
  std::uint32_t degree(vertex_t v) const;
  void degrees(std::uint32_t* out_device) const;

  /// Sorted exports (as the slab graph's): COO gives an undirected edge once with src < dst.
  EdgeList export_coo() const;
  Csr export_csr() const;
  /// The same CSR left on the device: one range query per vertex on the tree.
  DeviceCsr export_device_csr() const;

  std::uint64_t num_vertices() const noexcept;
  std::uint64_t num_live_vertices() const noexcept;
  std::uint64_t num_free_ids() const noexcept;
  std::uint64_t num_edges() const noexcept;
  std::uint64_t max_degree() const;
  bool directed() const noexcept;
  const BTreeGraphOptions& options() const noexcept;
  cudaStream_t stream() const noexcept;
  /// Device memory held: the tree's node pool, degrees and live flags.
  std::uint64_t memory_bytes() const;
  /// Tree nodes in use / in the pool, and pool rebuilds so far.
  std::uint64_t tree_nodes() const;
  std::uint64_t tree_node_capacity() const noexcept;
  std::uint64_t pool_rebuilds() const noexcept;
  /// The tree's invariant check (containers/btree: "" when every invariant holds), plus the
  /// degrees against the tree's key counts.
  std::string validate() const;

  /// Device view; valid until the next call that changes the vertex range or rebuilds the pool
  /// (build, insert_vertices, EdgeList overloads that grow the range, any insert).
  ref_type ref() const;

  // ---- lower level (as the slab graph's; IncrementalTriangleCounter uses them) --------------
  PreparedBatch prepare(DeviceEdges batch) const;
  UpdateResult insert_prepared(const PreparedBatch& batch, std::uint8_t* is_new_device = nullptr);
  UpdateResult erase_prepared(const PreparedBatch& batch,
                              std::uint8_t* was_present_device = nullptr);
  void contains_prepared(const PreparedBatch& batch, std::uint8_t* out_device) const;
  void grow_vertices(std::uint64_t n);
  std::uint64_t batch_chunk(std::uint64_t n) const;

  /// Change counter: bumped by every call that adds or removes edges or erases vertices (adding
  /// isolated vertices leaves it), so a dynamic result can tell it missed a batch.
  std::uint64_t version() const noexcept { return version_; }

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
  std::uint64_t version_ = 0;
};

using BTreeSetGraph = BTreeGraph<false>;
using BTreeMapGraph = BTreeGraph<true>;

extern template class BTreeGraph<false>;
extern template class BTreeGraph<true>;

}  // namespace wg::gpu
