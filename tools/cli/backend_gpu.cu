// The `gpu` backend of the CLI: wg::gpu::DynamicGraph (slab set adjacency, undirected) with the
// incremental triangle counter of algorithms/tc/gpu (tc's entry's, BackendCounter), through the
// one adapter of graph_backend.hpp; with --adjacency btree, wg::gpu::BTreeGraph (sorted
// adjacency) with SortedTriangleCounter (static counts by sorted intersection). Batches are copied
// to the GPU, deduplicated there, applied, and the count is updated from the batch's edges only;
// results tracked besides it (stream --algo, slab adjacency) follow the same update through the
// device edge lists (tracked_gpu.hpp).
//
// Memory: batches larger than the free GPU memory allows are split into chunks by the graph;
// a graph that does not fit (or an allocation that fails) raises wg::CapacityError, whose
// message names the request and the free memory; the CLI prints it and exits with an error.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <warpgraph/algorithms/tc/gpu/tc.hpp>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#if WG_CLI_HAVE_GPU_BTREE
#include <warpgraph/graph/gpu/btree_graph.hpp>
#endif

#include "backend.hpp"
#include "gpu_preload.cuh"
#include "graph_backend.hpp"
#include "ingest_pipeline.cuh"
#if WG_CLI_HAVE_GPU_ALGORITHMS
#include "tracked_gpu.hpp"
#endif

namespace wg::cli {

using SlabCounter = BackendCounter<gpu::Graph>;  // hash probes
using GpuSetBackend = DynamicGraphBackend<gpu::Graph, SlabCounter>;
#if WG_CLI_HAVE_GPU_ALGORITHMS
// Else the adapter would keep tracked results without ever updating them.
static_assert(DeviceObservableGraph<gpu::Graph, SlabCounter>);
#endif
template class DynamicGraphBackend<gpu::Graph, SlabCounter>;

#if WG_CLI_HAVE_GPU_BTREE
using BTreeCounter = BackendCounter<gpu::BTreeSetGraph>;
static_assert(std::is_same_v<BTreeCounter, gpu::SortedTriangleCounter<false>>);
using GpuBTreeBackend = DynamicGraphBackend<gpu::BTreeSetGraph, BTreeCounter>;
template class DynamicGraphBackend<gpu::BTreeSetGraph, BTreeCounter>;
#endif

std::vector<std::string> gpu_adjacencies() {
#if WG_CLI_HAVE_GPU_BTREE
  return {"slab", "btree"};
#else
  return {"slab"};
#endif
}

std::unique_ptr<GraphBackend> make_gpu_backend(const std::string& adjacency) {
  const auto known = gpu_adjacencies();
  if (std::find(known.begin(), known.end(), adjacency) == known.end())
    throw Error("backend 'gpu': adjacency '" + adjacency + "' is not part of this build");
  if (!gpu_backend_usable()) throw Error("backend 'gpu': no usable CUDA device found");
  // The CUDA context is made here, so that the first build's time is the build's alone.
  const auto t0 = std::chrono::steady_clock::now();
  if (const cudaError_t e = cudaFree(nullptr); e != cudaSuccess)
    throw Error(std::string("backend 'gpu': the CUDA device did not start: ") +
                cudaGetErrorString(e));
  const double startup =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
#if WG_CLI_HAVE_GPU_BTREE
  if (adjacency == "btree") {
    // Batches one at a time (the slab graph's pipelined ingest is its own).
    return std::make_unique<GpuBTreeBackend>(
        GraphBackendOptions{.name = "gpu", .startup_seconds = startup},
        [] { return std::make_unique<gpu::BTreeSetGraph>(0); });
  }
#endif
  auto backend = std::make_unique<GpuSetBackend>(
      GraphBackendOptions{.name = "gpu", .startup_seconds = startup},
      [] { return std::make_unique<gpu::Graph>(0); },
      [](gpu::Graph& g, SlabCounter& c,
         BatchPipeline::Done done) -> std::unique_ptr<BatchPipeline> {
        return std::make_unique<IngestPipeline<gpu::Graph, SlabCounter>>(g, c, std::move(done));
      },
#if WG_CLI_HAVE_GPU_ALGORITHMS
      // stream --algo: one upload and graph update per batch, then the counter and each tracked
      // result follow it on the device (tracked_gpu.hpp).
      [](const AlgorithmSpec& spec, gpu::Graph& g) { return make_gpu_tracked(spec, g); }
#else
      GpuSetBackend::MakeTracked{}
#endif
  );
  // Graph files are copied to the device while they are parsed (load_graph's on_edges).
  backend->set_preload([] { return std::make_unique<GpuPreload<gpu::Graph>>(); });
  return backend;
}

datasets::EdgeChunkFn gpu_graph_upload_sink() {
  return start_gpu_upload();
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
