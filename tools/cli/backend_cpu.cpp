// The `cpu` backend of the CLI: wg::cpu::DynamicGraph (arcs in a BS-tree) with the incremental
// triangle counter of algorithms/tc/cpu. The graph is undirected (triangle counting), multi-
// threaded over all cores; each batch is canonicalised, applied, and its triangles counted from
// the batch's edges only (see algorithms/tc/cpu/triangle_count.hpp).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <warpgraph/algorithms/tc/cpu/triangle_count.hpp>
#include <warpgraph/graph/cpu/dynamic_graph.hpp>

#include "backend.hpp"

namespace wg::cli {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// The id range a batch needs: as the reference backend, the CLI's graph grows to cover
/// batch.num_vertices and every id named (the graph itself ignores ids beyond its range).
std::uint64_t id_range(const EdgeList& batch) {
  std::uint64_t bound = batch.num_vertices;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    bound = std::max<std::uint64_t>(bound, std::max(batch.src[i], batch.dst[i]) + 1ull);
  }
  return bound;
}

class CpuBackend final : public GraphBackend {
 public:
  std::string name() const override { return "cpu"; }

  BatchOutcome build(const EdgeList& edges) override {
    const auto t0 = Clock::now();
    counter_.reset();
    graph_ = cpu::DynamicGraph(cpu::GraphOptions{});  // undirected, unweighted, all cores
    const UpdateResult r = graph_.build(edges);
    counter_.emplace(graph_);  // static count of the built graph
    return {r.applied, counter_->total(), seconds_since(t0)};
  }

  BatchOutcome insert_edges(const EdgeList& batch) override {
    const auto t0 = Clock::now();
    graph_.ensure_vertices(id_range(batch));
    const auto r = counter_->insert_edges(batch);
    return {r.update.applied, r.total, seconds_since(t0)};
  }

  BatchOutcome erase_edges(const EdgeList& batch) override {
    const auto t0 = Clock::now();
    graph_.ensure_vertices(id_range(batch));
    const auto r = counter_->erase_edges(batch);
    return {r.update.applied, r.total, seconds_since(t0)};
  }

  std::uint64_t recount_triangles(std::vector<std::uint64_t>* per_vertex) override {
    cpu::TcOptions o;
    o.per_vertex = per_vertex != nullptr;
    cpu::TriangleCounts c = cpu::triangle_count(graph_, o);
    if (per_vertex) *per_vertex = std::move(c.per_vertex);
    return c.total;
  }

  EdgeList export_edges() override { return graph_.export_coo(); }
  std::uint64_t num_vertices() const override { return graph_.num_vertices(); }
  std::uint64_t num_edges() const override { return graph_.num_edges(); }

 private:
  cpu::DynamicGraph graph_;
  std::optional<cpu::IncrementalTriangleCounter> counter_;
};

}  // namespace

std::unique_ptr<GraphBackend> make_cpu_backend() {
  auto backend = std::make_unique<CpuBackend>();
  backend->build(EdgeList{});  // an empty graph, so batches may come before build()
  return backend;
}

}  // namespace wg::cli
