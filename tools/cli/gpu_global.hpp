#pragma once
// The GPU runs of the registered algorithms for the CLI (registered_command.hpp), as plain C++
// functions: gpu_global.cu builds the input into a GPU graph and runs the entry's static run
// on it. Built only with CUDA (WG_CLI_HAVE_GPU_GLOBAL).
#include <cstdint>
#include <vector>

#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/graph/edge_list.hpp>

namespace wg::cli::gpu_global {

/// Times of one run: the graph's build (upload included), and the algorithm's (results copied
/// back included).
struct Times {
  double build_seconds = 0;
  double run_seconds = 0;
};

/// A registered algorithm's static computation (algorithms/registry.hpp) on the GPU graph of
/// `edges` (directed where the entry reads_direction and options.directed says so) (every id below
/// edges.num_vertices a vertex); a gpu::WeightedGraph of the weights where the entry reads_weights
/// and `edges` has them. Instantiated in gpu_global.cu for each registered algorithm with a
/// GPU backend.
template <class Entry>
typename Entry::Result registered(const EdgeList& edges, const typename Entry::Options& options,
                                  Times& times);

}  // namespace wg::cli::gpu_global
