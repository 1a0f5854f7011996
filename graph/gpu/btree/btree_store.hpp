#pragma once
// wg::gpu::BTreeStore<Weighted>: the B-tree store of the GPU graph front (graph_front.hpp; the
// graph it makes, BTreeGraph<W>, is described in btree_graph.hpp). Every arc u -> v is the key
// (u << 32) | v of one GPU B-link tree (containers/btree); the value is the arc's weight. A
// prepared batch is expanded to tree arcs, looked up (which arcs are present decides the degree
// changes and the counts), then applied as one tree batch; the node pool is sized ahead of it.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/graph/gpu/device_csr.hpp>
#include <warpgraph/graph/gpu/edge_batch.hpp>
#include <warpgraph/graph/gpu/store.hpp>
#include <warpgraph/graph/gpu/vertex_arrays.hpp>

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

template <bool Weighted>
class BTreeGraphRef;  // device view: graph/gpu/btree_graph_ref.cuh

template <bool Weighted>
class BTreeStore;
template <bool Weighted>
using BTreeStoreTraits = StoreTraits<BTreeGraphOptions, BTreeGraphRef<Weighted>, Weighted, true>;

template <bool Weighted>
class BTreeStore : public VertexArrayStore<BTreeStore<Weighted>, BTreeStoreTraits<Weighted>> {
 public:
  explicit BTreeStore(std::uint64_t num_vertices = 0, const BTreeGraphOptions& options = {});

  DeviceCsr export_device_csr() const;
  std::uint64_t tree_nodes() const;
  std::uint64_t tree_node_capacity() const noexcept;
  std::uint64_t pool_rebuilds() const noexcept;
  std::string validate() const;

  /// The B-tree graph's own calls.
  template <class Graph>
  struct extras : GraphExtras<Graph> {
    /// The same CSR as export_csr() left on the device (rows sorted, values of a weighted
    /// graph too): one range query per vertex.
    DeviceCsr export_device_csr() const { return this->self().store().export_device_csr(); }
    /// Tree nodes in use / in the pool, and pool rebuilds so far.
    std::uint64_t tree_nodes() const { return this->self().store().tree_nodes(); }
    std::uint64_t tree_node_capacity() const noexcept {
      return this->self().store().tree_node_capacity();
    }
    std::uint64_t pool_rebuilds() const noexcept { return this->self().store().pool_rebuilds(); }
    /// The tree's invariant check (containers/btree: "" when every invariant holds), plus the
    /// degrees against the tree's key counts.
    std::string validate() const { return this->self().store().validate(); }
  };

  struct Impl;  // its state (btree_store.cu)
};

}  // namespace wg::gpu
