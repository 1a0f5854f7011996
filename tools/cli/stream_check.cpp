#include "stream_check.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace wg::cli {

std::uint64_t EdgeSetReplay::apply(const EdgeList& batch, bool insert) {
  const std::size_t before = edges_.size();
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (batch.src[i] == batch.dst[i]) continue;
    if (insert) {
      if (erased_.count(batch.src[i]) || erased_.count(batch.dst[i])) continue;
      edges_.insert(key(batch.src[i], batch.dst[i]));
    } else {
      edges_.erase(key(batch.src[i], batch.dst[i]));
    }
  }
  return insert ? edges_.size() - before : before - edges_.size();
}

void EdgeSetReplay::apply_vertices(const std::vector<vertex_t>& ids, bool insert) {
  if (insert) {
    for (vertex_t v : ids) erased_.erase(v);
    return;
  }
  const std::unordered_set<vertex_t> gone(ids.begin(), ids.end());
  std::erase_if(edges_, [&](std::uint64_t k) {
    return gone.count(static_cast<vertex_t>(k >> 32)) || gone.count(static_cast<vertex_t>(k));
  });
  erased_.insert(ids.begin(), ids.end());
}

std::vector<std::uint64_t> EdgeSetReplay::sorted_keys() const {
  std::vector<std::uint64_t> sorted(edges_.begin(), edges_.end());
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

namespace {

/// Sorted unique undirected edges of the simple graph obtained by replaying the stream.
std::vector<std::uint64_t> replay_model(const datasets::UpdateStream& stream) {
  EdgeSetReplay edges;
  edges.apply(stream.initial, true);
  for (const auto& batch : stream.batches) {
    using Kind = datasets::UpdateBatch::Kind;
    if (batch.kind == Kind::insert_vertices || batch.kind == Kind::erase_vertices)
      edges.apply_vertices(batch.vertices, batch.kind == Kind::insert_vertices);
    else
      edges.apply(batch.edges, batch.kind == Kind::insert);
  }
  return edges.sorted_keys();
}

}  // namespace

Verification verify_stream(GraphBackend& backend, std::uint64_t final_count,
                           const datasets::UpdateStream& stream, const EdgeList* input_graph) {
  Verification v;
  v.recount = backend.recount_triangles(nullptr);
  const EdgeList exported = backend.export_edges();
  v.reference = BackendCount::reference(exported, {}).total;
  std::vector<std::uint64_t> exported_keys(exported.size());
  for (std::size_t i = 0; i < exported.size(); ++i) {
    exported_keys[i] = EdgeSetReplay::key(exported.src[i], exported.dst[i]);
  }
  std::sort(exported_keys.begin(), exported_keys.end());
  const std::vector<std::uint64_t> model = replay_model(stream);
  v.exported_edges = exported_keys.size();
  v.model_edges = model.size();
  v.edges_match = exported_keys == model;
  if (input_graph) v.input_reference = BackendCount::reference(*input_graph, {}).total;

  if (v.recount != final_count) {
    v.problems.push_back(fmt::format("incremental count {} != {} recount {}", final_count,
                                     backend.name(), v.recount));
  }
  if (v.reference != final_count) {
    v.problems.push_back(
        fmt::format("incremental count {} != reference count {} of the backend's graph",
                    final_count, v.reference));
  }
  if (!v.edges_match) {
    v.problems.push_back(
        fmt::format("the backend's graph ({} edges) differs from a replay of the stream ({} edges)",
                    v.exported_edges, v.model_edges));
  }
  if (backend.num_edges() != v.exported_edges) {
    v.problems.push_back(fmt::format("the backend reports {} edges but exports {}",
                                     backend.num_edges(), v.exported_edges));
  }
  if (v.input_reference && *v.input_reference != final_count) {
    v.problems.push_back(fmt::format("incremental count {} != reference count {} of the input",
                                     final_count, *v.input_reference));
  }
  return v;
}

}  // namespace wg::cli
