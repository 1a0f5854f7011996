#pragma once
// Synthetic graphs. All generators are deterministic for a given seed (same output on every
// platform: they use their own counter-based random numbers, not std:: distributions).
#include <cstddef>
#include <cstdint>
#include <random>

#include <warpgraph/graph/edge_list.hpp>

namespace wg::datasets {

/// R-MAT (Chakrabarti et al.) with the Graph500 parameters by default: a=.57 b=.19 c=.19
/// (d = 1-a-b-c). 2^scale vertices (scale <= 31: ids below wg::kVertexIdLimit), edge_factor *
/// 2^scale directed entries. The output keeps duplicates and self-loops, as R-MAT produces them
/// (the graph layer removes them).
struct RmatParams {
  unsigned scale = 16;
  double edge_factor = 16;
  double a = 0.57, b = 0.19, c = 0.19;
  std::uint64_t seed = 1;
  bool symmetric = true;     ///< EdgeList::symmetric of the result
  bool scramble_ids = true;  ///< permute vertex ids (Graph500) so degree does not follow id
  /// Key of that permutation; 0: derived from `seed`. Update batches drawn with another seed
  /// but the base graph's permutation key follow the graph's degree distribution (its hubs are
  /// the batch's hubs); with different keys a batch's hubs are unrelated vertices.
  std::uint64_t scramble_seed = 0;
};
EdgeList generate_rmat(const RmatParams& params);

/// Erdos-Renyi G(n, m): m entries drawn uniformly (duplicates and self-loops possible, as in
/// R-MAT: the graph layer removes them).
struct ErdosRenyiParams {
  std::uint64_t num_vertices = 1 << 16;
  std::uint64_t num_edges = 1 << 20;
  std::uint64_t seed = 1;
  bool symmetric = true;
};
EdgeList generate_erdos_renyi(const ErdosRenyiParams& params);

/// `count` entries of `e` drawn uniformly with replacement by `rng` (a standard uniform random
/// bit generator), with e's num_vertices and symmetric: a batch of present edges (duplicates
/// possible) for an erasure or a repeat. O(count).
template <class Rng>
EdgeList sample_entries(const EdgeList& e, std::size_t count, Rng& rng) {
  EdgeList b;
  b.num_vertices = e.num_vertices;
  b.symmetric = e.symmetric;
  if (e.size() == 0) return b;
  std::uniform_int_distribution<std::size_t> pick(0, e.size() - 1);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t j = pick(rng);
    b.src.push_back(e.src[j]);
    b.dst.push_back(e.dst[j]);
  }
  return b;
}

}  // namespace wg::datasets
