// The `gpu` backend of the CLI: wg::gpu::DynamicGraph (slab set adjacency, undirected) with the
// incremental triangle counter (algorithms/tc/gpu). Batches are copied to the GPU, deduplicated
// there, applied, and the count is updated from the batch's edges only.
//
// Memory: batches larger than the free GPU memory allows are split into chunks by the graph;
// a graph that does not fit (or an allocation that fails) raises wg::CapacityError, whose
// message names the request and the free memory; the CLI prints it and exits with an error.
#include <cuda_runtime_api.h>

#include <chrono>
#include <memory>
#include <string>

#include <warpgraph/algorithms/tc/gpu/triangle_count.hpp>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#include "backend.hpp"

namespace wg::cli {
namespace {

using Clock = std::chrono::steady_clock;
using Counter = gpu::IncrementalTriangleCounter<gpu::SlabSetAdjacency>;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

class GpuBackend final : public GraphBackend {
 public:
  // The CUDA context is made here, so that the first build's time is the build's (on the H100,
  // warpgraph tc luxembourg_osm printed 0.14 s for build and count with the context in it, 14-16
  // ms without, of which loading the kernels eagerly instead of lazily saved only 1-2 ms).
  GpuBackend() {
    const auto t0 = Clock::now();
    if (const cudaError_t e = cudaFree(nullptr); e != cudaSuccess)
      throw Error(std::string("backend 'gpu': the CUDA device did not start: ") +
                  cudaGetErrorString(e));
    startup_ = seconds_since(t0);
  }

  std::string name() const override { return "gpu"; }
  double startup_seconds() const override { return startup_; }

  BatchOutcome build(const EdgeList& edges) override {
    const auto t0 = Clock::now();
    counter_.reset();
    graph_.reset();
    graph_ = std::make_unique<gpu::Graph>(0);
    graph_->build(edges);
    counter_ = std::make_unique<Counter>(*graph_);
    return {graph_->num_edges(), counter_->total(), seconds_since(t0)};
  }

  BatchOutcome insert_edges(const EdgeList& batch) override {
    require_graph();
    const auto t0 = Clock::now();
    const Counter::BatchResult r = counter_->insert_edges(batch);
    return {r.update.applied, r.total, seconds_since(t0)};
  }

  BatchOutcome erase_edges(const EdgeList& batch) override {
    require_graph();
    const auto t0 = Clock::now();
    const Counter::BatchResult r = counter_->erase_edges(batch);
    return {r.update.applied, r.total, seconds_since(t0)};
  }

  std::uint64_t recount_triangles(std::vector<std::uint64_t>* per_vertex) override {
    require_graph();
    if (per_vertex) {
      gpu::TriangleCounts c = gpu::count_triangles_per_vertex(*graph_);
      *per_vertex = std::move(c.per_vertex);
      return c.total;
    }
    return gpu::count_triangles(*graph_);
  }

  EdgeList export_edges() override {
    require_graph();
    return graph_->export_coo();
  }
  std::uint64_t num_vertices() const override { return graph_ ? graph_->num_vertices() : 0; }
  std::uint64_t num_edges() const override { return graph_ ? graph_->num_edges() : 0; }

 private:
  void require_graph() {
    if (!graph_) {
      graph_ = std::make_unique<gpu::Graph>(0);
      counter_ = std::make_unique<Counter>(*graph_);
    }
  }
  std::unique_ptr<gpu::Graph> graph_;
  std::unique_ptr<Counter> counter_;
  double startup_ = 0;
};

}  // namespace

std::unique_ptr<GraphBackend> make_gpu_backend() {
  if (!gpu_backend_usable()) throw Error("backend 'gpu': no usable CUDA device found");
  return std::make_unique<GpuBackend>();
}

bool gpu_backend_usable() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return count > 0;
}

}  // namespace wg::cli
