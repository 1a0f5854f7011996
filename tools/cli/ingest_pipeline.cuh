#pragma once
// The gpu backend's BatchPipeline: wg::gpu::StreamIngest (graph/gpu/stream_ingest.hpp) with the
// incremental triangle counter as its apply hook, so `warpgraph stream` stages, copies and
// updates successive batches at once. A batch's outcome is reported from the ingest's apply
// thread after its last chunk: edges changed, the exact count, and the seconds its updates and
// counts took there (not the time it waited in the pipeline).
#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <utility>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/graph/gpu/host_batch.hpp>
#include <warpgraph/graph/gpu/stream_ingest.hpp>

#include "backend.hpp"
#include "graph_backend.hpp"

namespace wg::cli {

template <class Graph, class Counter>
class IngestPipeline final : public BatchPipeline {
 public:
  IngestPipeline(Graph& graph, Counter& counter, Done done)
      : counter_(counter),
        done_(std::move(done)),
        ingest_(
            graph, {},
            [this](gpu::UpdateKind k, gpu::DeviceEdges e) {
              const auto t0 = Clock::now();
              const auto r =
                  k == gpu::UpdateKind::insert ? counter_.insert_edges(e) : counter_.erase_edges(e);
              seconds_ += std::chrono::duration<double>(Clock::now() - t0).count();
              return r.update;
            },
            [this](const gpu::IngestedBatch& b) {
              done_(BatchOutcome{.edges_changed = b.result.applied,
                                 .triangles = counter_.total(),
                                 .seconds = seconds_});
              seconds_ = 0;
            }) {}

  void submit(bool insert, const EdgeList& batch) override {
    (void)ingest_.submit(insert ? gpu::UpdateKind::insert : gpu::UpdateKind::erase, batch);
  }
  void drain() override { ingest_.drain(); }
  PipelineStages stages() const override {
    const auto s = ingest_.stage_seconds();
    return {.staging = s.stage, .copy_wait = s.wait_copy, .update = s.apply};
  }

 private:
  using Clock = std::chrono::steady_clock;
  Counter& counter_;
  Done done_;
  double seconds_ = 0;               // the apply thread's only
  gpu::StreamIngest<Graph> ingest_;  // last: its thread uses the members above
};

/// The gpu backend's GraphPreload: a graph file's edges are copied to the device (pinned staging,
/// a copy stream of their own) while later segments of the file are parsed, and the build starts
/// from the device copy: the graph is the one graph.build(edges) makes (gpu::EdgeUpload checks the
/// ids and weights as that upload does).
template <class Graph>
class GpuPreload final : public GraphPreload<Graph> {
 public:
  void add(const datasets::EdgeChunk& c) override {
    if (failed_) return;
    try {
      if (!upload_) upload_ = std::make_unique<gpu::EdgeUpload>(Graph::is_weighted, cudaStream_t{});
      upload_->append(c.src, c.dst, c.weight, c.size);
      weighted_ = c.weight != nullptr;
    } catch (const Error&) {
      // Out of device or pinned memory: the build uploads the edges itself (and reports it).
      failed_ = true;
      upload_.reset();
    }
  }
  std::uint64_t size() const override { return upload_ ? upload_->size() : 0; }
  void build(Graph& graph, const EdgeList& edges) override {
    // A weighted graph of edges whose weights were dropped after the read: the upload's values
    // would differ.
    if (!upload_ || (Graph::is_weighted && weighted_ != edges.weighted())) {
      graph.build(edges);
      return;
    }
    const std::uint64_t n = upload_->size();
    const gpu::HostBatchUpload u = upload_->finish();
    graph.build(u.view(n), std::max<std::uint64_t>(edges.num_vertices, u.id_range));
  }

 private:
  std::unique_ptr<gpu::EdgeUpload> upload_;
  bool weighted_ = false, failed_ = false;
};

}  // namespace wg::cli
