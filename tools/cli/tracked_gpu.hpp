#pragma once
// The gpu backend's tracked results (stream --algo): the dynamic classes of algorithms/*/gpu on
// the backend's wg::gpu::Graph, following one graph update per batch through the
// GpuEdgeBatchObserver calls (algorithms/gpu_dynamic_update.cuh). Plain C++ may include this;
// the definitions are in tracked_gpu.cu.
#include <memory>
#include <span>

#include <warpgraph/algorithms/dynamic_update.hpp>
#include <warpgraph/algorithms/tc/gpu/triangle_count.hpp>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#include "tracked_algorithm.hpp"

namespace wg::cli {

using GpuCounter = gpu::IncrementalTriangleCounter<gpu::Graph>;

/// The dynamic algorithm of one tracked result on `graph` (its static computation runs here).
/// Values as TrackedAlgorithm::values says: bfs levels (-1 unreached), cc smallest ids, pagerank
/// ranks (PageRankEntry's default options), kcore core numbers, sssp
/// distances (unit weights; +inf unreached). Throws wg::InvalidArgument for a bfs / sssp source
/// that is not below graph.num_vertices().
std::unique_ptr<TrackedAlgorithm> make_gpu_tracked(const AlgorithmSpec& spec, gpu::Graph& graph);

/// Applies a host batch to `graph` once (uploaded as the graph's EdgeList overloads do: ids past
/// the range grow it) and lets the counter (slot 0) and each tracked result (slot i + 1) follow
/// it, chunk by chunk. seconds[slot] accumulates each one's time, the device synchronised after
/// each call so that the time is its own; effects[slot] its BatchEffect. Both spans hold
/// tracked.size() + 1 entries. Returns what the batch did to the graph.
UpdateResult apply_tracked_gpu(gpu::Graph& graph, GpuCounter& counter, const EdgeList& batch,
                               bool insert,
                               std::span<const std::unique_ptr<TrackedAlgorithm>> tracked,
                               std::span<double> seconds, std::span<BatchEffect> effects);

}  // namespace wg::cli
