// Local clustering coefficient on the CPU graph. See lcc.hpp.
#include <warpgraph/algorithms/lcc/cpu/lcc.hpp>

#include <algorithm>

#include <warpgraph/algorithms/tc/cpu/count_with_edges.hpp>
#include <warpgraph/algorithms/tc/cpu/triangle_count.hpp>
#include <warpgraph/containers/core/error.hpp>

namespace wg::cpu {

LccResult local_clustering(const DynamicGraph& graph, const LccOptions& options) {
  if (graph.directed())
    throw InvalidArgument("wg::cpu::local_clustering: needs an undirected graph");
  const TriangleCounts t = count_triangles_per_vertex(graph, {.threads = options.threads});
  const std::vector<std::uint32_t> degree = graph.degrees();
  return lcc_from_counts(std::span<const std::uint64_t>(t.per_vertex),
                         std::span<const std::uint32_t>(degree));
}

DynamicLocalClustering::DynamicLocalClustering(DynamicGraph& graph, const LccOptions& options)
    : DynamicFrame(graph), options_(options) {
  recompute();
}

const LccResult& DynamicLocalClustering::recompute() {
  mark_current();
  if (graph_->directed())
    throw InvalidArgument("wg::cpu::DynamicLocalClustering: needs an undirected graph");
  triangles_ = count_triangles_per_vertex(*graph_, {.threads = options_.threads}).per_vertex;
  triangles_.resize(graph_->num_vertices(), 0);
  const std::vector<std::uint32_t> degree = graph_->degrees();
  result_ = lcc_from_counts(std::span<const std::uint64_t>(triangles_),
                            std::span<const std::uint32_t>(degree));
  return result_;
}

void DynamicLocalClustering::grow() {
  const std::uint64_t n = graph_->num_vertices();
  if (triangles_.size() >= n) return;
  triangles_.resize(n, 0);
  result_.coefficient.resize(n, 0.0);
  result_.average = average_coefficient(result_.coefficient);
}

std::uint64_t DynamicLocalClustering::apply(std::span<const std::uint64_t> keys, bool add) {
  // The vertices whose T or d may have moved: the batch's endpoints and the third vertices of
  // its triangles (delta_ != 0), found by one scan of delta_.
  std::uint64_t changed = 0, moved_triangles = 0;
  const auto refresh = [&](vertex_t v) {
    const double after = local_coefficient(triangles_[v], graph_->degree(v));
    changed += result_.coefficient[v] != after;
    result_.coefficient[v] = after;
  };
  for (vertex_t v = 0; v < delta_.size(); ++v) {
    if (!delta_[v]) continue;
    moved_triangles += delta_[v];
    triangles_[v] = add ? triangles_[v] + delta_[v] : triangles_[v] - delta_[v];
    delta_[v] = 0;
    refresh(v);
  }
  std::vector<vertex_t> ends;
  ends.reserve(2 * keys.size());
  for (std::uint64_t k : keys) {
    ends.push_back(arc_source(k));
    ends.push_back(arc_target(k));
  }
  std::sort(ends.begin(), ends.end());
  ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
  // Endpoints with a triangle change were refreshed above; refreshing again moves nothing.
  for (vertex_t v : ends) refresh(v);
  result_.triangles =
      add ? result_.triangles + moved_triangles / 3 : result_.triangles - moved_triangles / 3;
  if (changed) result_.average = average_coefficient(result_.coefficient);
  return changed;
}

BatchEffect DynamicLocalClustering::on_after_insert(std::span<const std::uint64_t> added) {
  grow();
  delta_.assign(triangles_.size(), 0);
  count_triangles_with_edges_per_vertex(*graph_, added, std::span<std::uint64_t>(delta_),
                                        options_.threads);
  return {.changed = apply(added, true), .recomputed = false};
}

void DynamicLocalClustering::on_before_erase(std::span<const std::uint64_t> removed) {
  grow();
  // Counted while the edges are still in the graph.
  delta_.assign(triangles_.size(), 0);
  count_triangles_with_edges_per_vertex(*graph_, removed, std::span<std::uint64_t>(delta_),
                                        options_.threads);
}

BatchEffect DynamicLocalClustering::on_after_erase(std::span<const std::uint64_t> removed) {
  return {.changed = apply(removed, false), .recomputed = false};
}

}  // namespace wg::cpu
