#pragma once
// The one GraphBackend adapter of the CLI's dynamic graphs: any wg::DynamicGraph
// (graph/graph_concepts.hpp) with its incremental triangle counter. A backend is one factory
// that instantiates it (backend_cpu.cpp: wg::cpu::DynamicGraph; backend_gpu.cu:
// wg::gpu::DynamicGraph<SlabSetAdjacency>), so a new graph or adjacency reaches the CLI by one
// more such line and its name in backend.cpp. The Boost reference (backend_reference.cpp) is
// not a dynamic graph and keeps its own adapter.
//
// What the adapter needs beyond the concept: Counter(graph) counts the graph once and then
// follows batches through insert_edges / erase_edges(const EdgeList&), returning a result with
// `update` (an UpdateResult) and `total`; count_triangles(graph) and
// count_triangles_per_vertex(graph), found by argument-dependent lookup, count from scratch.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <warpgraph/graph/edge_list.hpp>

#include "backend.hpp"

namespace wg::cli {

/// How one dynamic graph is offered as a backend.
struct GraphBackendOptions {
  std::string name;  ///< the --backend name
  /// Grow the graph's id range (graph.ensure_vertices) to cover each batch's num_vertices and
  /// every id it names before applying it, as the reference backend does. For graphs whose
  /// batch updates ignore ids past the range (wg::cpu::DynamicGraph).
  bool grow_id_range = false;
  double startup_seconds = 0;  ///< what GraphBackend::startup_seconds reports
};

/// The id range a batch needs: batch.num_vertices and every id named.
std::uint64_t batch_id_range(const EdgeList& batch);

template <class Graph, class Counter>
class DynamicGraphBackend final : public GraphBackend {
 public:
  using MakePipeline =
      std::function<std::unique_ptr<BatchPipeline>(Graph&, Counter&, BatchPipeline::Done)>;
  /// `make_graph` makes an empty undirected graph (each build starts from a new one);
  /// `make_pipeline` (optional) a pipeline over the graph and its counter.
  DynamicGraphBackend(GraphBackendOptions options,
                      std::function<std::unique_ptr<Graph>()> make_graph,
                      MakePipeline make_pipeline = {})
      : options_(std::move(options)),
        make_graph_(std::move(make_graph)),
        make_pipeline_(std::move(make_pipeline)) {}

  std::string name() const override { return options_.name; }
  double startup_seconds() const override { return options_.startup_seconds; }

  BatchOutcome build(const EdgeList& edges) override {
    const auto t0 = Clock::now();
    counter_.reset();
    graph_.reset();
    graph_ = make_graph_();
    graph_->build(edges);
    counter_ = std::make_unique<Counter>(*graph_);  // static count of the built graph
    return {graph_->num_edges(), counter_->total(), seconds_since(t0)};
  }

  std::unique_ptr<BatchPipeline> pipeline(BatchPipeline::Done done) override {
    if (!make_pipeline_ || options_.grow_id_range) return nullptr;
    require_graph();
    return make_pipeline_(*graph_, *counter_, std::move(done));
  }

  BatchOutcome insert_edges(const EdgeList& batch) override { return apply(batch, true); }
  BatchOutcome erase_edges(const EdgeList& batch) override { return apply(batch, false); }

  std::uint64_t recount_triangles(std::vector<std::uint64_t>* per_vertex) override {
    require_graph();
    if (per_vertex) {
      auto c = count_triangles_per_vertex(*graph_);
      *per_vertex = std::move(c.per_vertex);
      return c.total;
    }
    return count_triangles(*graph_);
  }

  EdgeList export_edges() override {
    require_graph();
    return graph_->export_coo();
  }
  std::uint64_t num_vertices() const override { return graph_ ? graph_->num_vertices() : 0; }
  std::uint64_t num_edges() const override { return graph_ ? graph_->num_edges() : 0; }

 private:
  using Clock = std::chrono::steady_clock;
  static double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
  }
  /// Batches may come before any build: they start from an empty graph.
  void require_graph() {
    if (!graph_) {
      graph_ = make_graph_();
      counter_ = std::make_unique<Counter>(*graph_);
    }
  }
  BatchOutcome apply(const EdgeList& batch, bool insert) {
    require_graph();
    const auto t0 = Clock::now();
    grow_id_range(batch);
    const auto r = insert ? counter_->insert_edges(batch) : counter_->erase_edges(batch);
    return {r.update.applied, r.total, seconds_since(t0)};
  }
  void grow_id_range(const EdgeList& batch) {
    if constexpr (requires(Graph & g, std::uint64_t n) { g.ensure_vertices(n); }) {
      if (options_.grow_id_range) graph_->ensure_vertices(batch_id_range(batch));
    }
  }

  GraphBackendOptions options_;
  std::function<std::unique_ptr<Graph>()> make_graph_;
  MakePipeline make_pipeline_;
  std::unique_ptr<Graph> graph_;
  std::unique_ptr<Counter> counter_;
};

}  // namespace wg::cli
