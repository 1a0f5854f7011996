#pragma once
// The graph file's upload for the commands that build their own GPU graph from the input (bfs,
// sssp, cc, kcore, pagerank with --backend gpu): load_graph's on_edges (gpu_graph_upload_sink in
// backend.hpp) copies the file's edges to the device while the file is parsed, and
// build_gpu_graph starts the graph's build from that copy: the graph that g.build(edges) makes
// (gpu::EdgeUpload checks the ids as that build's upload does; the unweighted graph ignores
// weights either way). One upload per process, taken by the first build of as many entries;
// any other build drops it. Out of device or pinned memory while parsing, the upload is dropped
// and the build uploads the edges itself (reporting what it reports).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <memory>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/gpu/host_batch.hpp>

namespace wg::cli {

struct PendingGpuUpload {
  std::unique_ptr<gpu::EdgeUpload> upload;
  bool failed = false;
};
/// One per process (an inline function's static: the same object in every library of the CLI).
inline PendingGpuUpload& pending_gpu_upload() {
  static PendingGpuUpload pending;
  return pending;
}

/// An on_edges callback that uploads the file's edges for build_gpu_graph (on stream 0, the
/// CLI's graphs' stream).
inline datasets::EdgeChunkFn start_gpu_upload() {
  pending_gpu_upload() = {};
  return [](const datasets::EdgeChunk& c) {
    PendingGpuUpload& p = pending_gpu_upload();
    if (p.failed) return;
    try {
      if (!p.upload) p.upload = std::make_unique<gpu::EdgeUpload>(false, cudaStream_t{});
      p.upload->append(c.src, c.dst, nullptr, c.size);
    } catch (const Error&) {
      p.failed = true;
      p.upload.reset();
    }
  };
}

/// Drops the file's upload (a build that cannot use it: a weighted graph).
inline void drop_gpu_upload() {
  pending_gpu_upload() = {};
}

/// g.build(edges), from the file's upload when `edges` are the file's entries (same count).
inline void build_gpu_graph(gpu::Graph& g, const EdgeList& edges) {
  std::unique_ptr<gpu::EdgeUpload> up = std::move(pending_gpu_upload().upload);
  drop_gpu_upload();
  if (!up || up->size() != edges.size() || g.stream() != cudaStream_t{}) {
    g.build(edges);
    return;
  }
  const std::uint64_t n = up->size();
  const gpu::HostBatchUpload u = up->finish();
  g.build(u.view(n), std::max<std::uint64_t>(edges.num_vertices, u.id_range));
}

}  // namespace wg::cli
