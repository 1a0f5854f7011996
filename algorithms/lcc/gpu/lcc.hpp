#pragma once
// Local clustering coefficient on a GPU dynamic graph (any wg::GpuDynamicGraph with a
// DeviceGraphView ref, undirected): static and dynamic. Semantics, options and result:
// algorithms/lcc/lcc.hpp. Declarations only (plain C++ may include this); the definitions are in
// lcc.cuh, instantiated for every graph of WG_GPU_GRAPHS by lcc/gpu/CMakeLists.txt.
//
// Static (local_clustering): the triangle counter's per-vertex static count
// (count_triangles_per_vertex), then c(v) per vertex on the host.
// Dynamic (DynamicLocalClustering): per-vertex triangle counts kept on the device; each batch's
// triangles are found by the counter's batch kernel with per-vertex output
// (count_triangles_touching_per_vertex: after an insertion on the graph with the new edges,
// before an erasure on the graph still holding them), then one pass over the ids refreshes the
// coefficients on the device and counts those that moved. Per batch: the counter's cost plus
// O(n) device work; result() copies the coefficients to the host.
//
// Errors: wg::InvalidArgument for a directed graph; wg::CapacityError when device memory runs
// out.
#include <cstdint>
#include <memory>
#include <vector>

#include <warpgraph/algorithms/dynamic_update.hpp>
#include <warpgraph/algorithms/gpu_dynamic_update.cuh>
#include <warpgraph/algorithms/lcc/lcc.hpp>
#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/graph_concepts.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::gpu {

struct ChangedEdges;  // algorithms/gpu_dynamic_update.cuh

template <GpuDynamicGraph Graph>
LccResult local_clustering(const Graph& graph, const LccOptions& options = {});

/// Keeps the coefficients of an undirected graph exact through insertion and deletion batches.
template <GpuDynamicGraph Graph>
class DynamicLocalClustering : public DynamicFrame<DynamicLocalClustering<Graph>, Graph> {
 public:
  /// Runs the static per-vertex count once. The graph must outlive this object.
  explicit DynamicLocalClustering(Graph& graph, const LccOptions& options = {});

  /// insert_edges / erase_edges (EdgeList and DeviceEdges), update(erase, insert) and the
  /// GpuEdgeBatchObserver calls are the frame's (algorithms/dynamic_frame.hpp): after_insert
  /// counts the added edges' triangles per vertex on the graph with them; before_erase counts
  /// the removed edges' on the graph still holding them, after_erase takes them off. changed:
  /// the vertices whose coefficient moved; recomputed is always false.

  /// The coefficients and their mean, copied to the host.
  LccResult result() const;
  /// Triangles containing each vertex, copied to the host.
  std::vector<std::uint64_t> triangles_per_vertex() const;
  /// Static computation from scratch.
  void recompute();

 private:
  using Frame = DynamicFrame<DynamicLocalClustering<Graph>, Graph>;
  using Frame::graph_;
  /// The policy hooks (algorithms/dynamic_frame.hpp).
  WG_DYNAMIC_POLICY_HOOKS(Frame, const ChangedEdges&);
  /// Grows the per-vertex arrays to the graph's id range (new ids: no triangle, coefficient 0).
  void grow();
  /// Adds (or subtracts) delta_ to the counts and refreshes every coefficient; returns how many
  /// moved.
  std::uint64_t apply(bool add);

  LccOptions options_;
  std::uint64_t n_ = 0;  ///< ids covered
  std::uint64_t total_ = 0;
  DeviceBuffer<unsigned long long> triangles_;  ///< per id
  DeviceBuffer<unsigned long long> delta_;      ///< per id: the batch's triangles
  DeviceBuffer<double> coefficient_;            ///< per id
  DeviceBuffer<unsigned long long> moved_;      ///< one counter
};

/// The dynamic class as the registry makes it (algorithms/lcc/lcc_entry.hpp).
template <GpuDynamicGraph Graph>
std::unique_ptr<DynamicLocalClustering<Graph>> make_dynamic_local_clustering(
    Graph& graph, const LccOptions& options = {}) {
  return std::make_unique<DynamicLocalClustering<Graph>>(graph, options);
}

extern template LccResult local_clustering(const DynamicGraph<SlabSetAdjacency>&,
                                           const LccOptions&);
extern template LccResult local_clustering(const DynamicGraph<SlabMapAdjacency>&,
                                           const LccOptions&);
extern template class DynamicLocalClustering<DynamicGraph<SlabSetAdjacency>>;
extern template class DynamicLocalClustering<DynamicGraph<SlabMapAdjacency>>;

}  // namespace wg::gpu
