#pragma once
// The gpu backend's BatchPipeline: wg::gpu::StreamIngest (graph/gpu/stream_ingest.hpp) with the
// incremental triangle counter as its apply hook, so `warpgraph stream` stages, copies and
// updates successive batches at once. A batch's outcome is reported from the ingest's apply
// thread after its last chunk: edges changed, the exact count, and the seconds its updates and
// counts took there (not the time it waited in the pipeline).
#include <chrono>
#include <functional>
#include <utility>

#include <warpgraph/graph/gpu/stream_ingest.hpp>

#include "backend.hpp"

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

}  // namespace wg::cli
