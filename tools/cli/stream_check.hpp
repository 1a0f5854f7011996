#pragma once
// The final checks of `warpgraph stream --verify`, separate so that tests can feed them a faulty
// backend.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include <warpgraph/datasets/update_stream.hpp>

#include "backend.hpp"

namespace wg::cli {

/// The simple undirected graph a stream leaves, replayed on a host set: self-loops are skipped,
/// an edge is stored once whatever its direction. O(1) expected per edge.
class EdgeSetReplay {
 public:
  /// Inserts or erases the batch's edges; returns how many edges were added or removed.
  std::uint64_t apply(const EdgeList& batch, bool insert);
  /// A vertex batch: erasing a vertex erases its edges and makes later insertions naming it be
  /// ignored (as the graphs do) until it is inserted again. O(edges) per erasing batch.
  void apply_vertices(const std::vector<vertex_t>& ids, bool insert);
  std::size_t size() const { return edges_.size(); }
  /// The edges as keys (min(u, v) << 32 | max(u, v)), ascending: the order of a sorted
  /// undirected export.
  std::vector<std::uint64_t> sorted_keys() const;
  static std::uint64_t key(vertex_t u, vertex_t v) {
    return u < v ? (std::uint64_t{u} << 32) | v : (std::uint64_t{v} << 32) | u;
  }

 private:
  std::unordered_set<std::uint64_t> edges_;
  std::unordered_set<vertex_t> erased_;
};

struct Verification {
  std::uint64_t recount = 0;                     ///< the backend's static recount
  std::uint64_t reference = 0;                   ///< reference count of the backend's graph
  std::optional<std::uint64_t> input_reference;  ///< reference count of the input graph
  std::uint64_t exported_edges = 0, model_edges = 0;
  bool edges_match = false;           ///< backend's graph == replay of the stream on a host set
  std::vector<std::string> problems;  ///< empty when every check agrees with final_count
  bool ok() const { return problems.empty(); }
};

/// Checks a stream's final state: `final_count` (the running count after the last batch) must
/// equal the backend's recount, the reference (Boost.Graph) count of export_edges(), and, when
/// `input_graph` is given (generated streams end on it), the reference count of the input; the
/// exported graph must equal the simple graph obtained by replaying `stream` on a host edge set,
/// and num_edges() its size. Each disagreement adds a sentence to `problems`.
Verification verify_stream(GraphBackend& backend, std::uint64_t final_count,
                           const datasets::UpdateStream& stream, const EdgeList* input_graph);

}  // namespace wg::cli
