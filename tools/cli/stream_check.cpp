#include "stream_check.hpp"

#include <algorithm>
#include <unordered_set>

#include <fmt/format.h>

#include <warpgraph/algorithms/reference/reference.hpp>

namespace wg::cli {
namespace {

/// Undirected edge key for the --verify replay.
std::uint64_t edge_key(vertex_t u, vertex_t v) {
  return u < v ? (std::uint64_t{u} << 32) | v : (std::uint64_t{v} << 32) | u;
}

/// Sorted unique undirected edges of the simple graph obtained by replaying the stream.
std::vector<std::uint64_t> replay_model(const datasets::UpdateStream& stream) {
  std::unordered_set<std::uint64_t> edges;
  auto apply = [&](const EdgeList& list, bool insert) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (list.src[i] == list.dst[i]) continue;
      if (insert) {
        edges.insert(edge_key(list.src[i], list.dst[i]));
      } else {
        edges.erase(edge_key(list.src[i], list.dst[i]));
      }
    }
  };
  apply(stream.initial, true);
  for (const auto& batch : stream.batches) {
    apply(batch.edges, batch.kind == datasets::UpdateBatch::Kind::insert);
  }
  std::vector<std::uint64_t> sorted(edges.begin(), edges.end());
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

}  // namespace

Verification verify_stream(GraphBackend& backend, std::uint64_t final_count,
                           const datasets::UpdateStream& stream, const EdgeList* input_graph) {
  Verification v;
  v.recount = backend.recount_triangles(nullptr);
  const EdgeList exported = backend.export_edges();
  v.reference = reference::triangle_count(exported).total;
  std::vector<std::uint64_t> exported_keys(exported.size());
  for (std::size_t i = 0; i < exported.size(); ++i) {
    exported_keys[i] = edge_key(exported.src[i], exported.dst[i]);
  }
  std::sort(exported_keys.begin(), exported_keys.end());
  const std::vector<std::uint64_t> model = replay_model(stream);
  v.exported_edges = exported_keys.size();
  v.model_edges = model.size();
  v.edges_match = exported_keys == model;
  if (input_graph) v.input_reference = reference::triangle_count(*input_graph).total;

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
