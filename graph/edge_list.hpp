#pragma once
// Host edge list (COO): what loaders and generators produce and what the graph layer consumes.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <warpgraph/containers/core/types.hpp>

namespace wg {

/// A list of edges on the host. Ids are 0-based, in [0, num_vertices).
/// `symmetric` says how to read it: true means each entry (u, v) stands for the undirected edge
/// {u, v} (as in a Matrix Market "symmetric" file, which stores one triangle); false means the
/// entries are directed arcs. Entries are kept as read: duplicates and self-loops are NOT
/// removed here (the graph layer deduplicates and drops self-loops and reports it).
struct EdgeList {
  std::uint64_t num_vertices = 0;
  std::vector<vertex_t> src;
  std::vector<vertex_t> dst;
  /// Empty when the graph is unweighted; otherwise one weight per entry.
  std::vector<double> weight;
  bool symmetric = false;

  std::size_t size() const noexcept { return src.size(); }
  bool empty() const noexcept { return src.empty(); }
  bool weighted() const noexcept { return !weight.empty(); }
  void reserve(std::size_t n, bool with_weights = false) {
    src.reserve(n);
    dst.reserve(n);
    if (with_weights) weight.reserve(n);
  }
};

/// A run of host edges, not owned: src[i] -> dst[i] for i < size, weight null (unweighted) or
/// one double per entry. How a reader hands on what it parsed (datasets::EdgeChunk: offset =
/// entries before the run in the whole list) and how a batch goes into a stream
/// (gpu::HostEdges: inserts grow the graph's vertex range to num_vertices, and to the largest id
/// + 1).
struct EdgeSpan {
  const vertex_t* src = nullptr;
  const vertex_t* dst = nullptr;
  const double* weight = nullptr;
  std::uint64_t size = 0;
  std::uint64_t offset = 0;
  std::uint64_t num_vertices = 0;
};

/// The whole of `e` as one run (offset 0; e's vertex range). O(1).
inline EdgeSpan span_of(const EdgeList& e) {
  return {.src = e.src.data(),
          .dst = e.dst.data(),
          .weight = e.weighted() ? e.weight.data() : nullptr,
          .size = e.size(),
          .num_vertices = e.num_vertices};
}

}  // namespace wg
