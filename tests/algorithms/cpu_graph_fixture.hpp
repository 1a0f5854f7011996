#pragma once
// Shared set-up of the CPU algorithm tests: a bundled graph read and built into the CPU graph,
// the graph's edges as the reference takes them, a static run with the default and one thread.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/datasets/update_stream.hpp>
#include <warpgraph/graph/cpu/dynamic_graph.hpp>

#include "test_support.hpp"

namespace wg::test {

/// The graph file at `path` built into a CPU DynamicGraph (undirected, 2 threads).
inline cpu::DynamicGraph read_into_cpu_graph(const std::string& path) {
  cpu::DynamicGraph g(cpu::GraphOptions{.threads = 2});
  g.build(datasets::read_graph(path).edges);
  return g;
}

/// g's edges for the reference: its COO export on ids up to g.num_vertices() (erased ids too).
inline EdgeList reference_edges(const cpu::DynamicGraph& g) {
  EdgeList coo = g.export_coo();
  coo.num_vertices = g.num_vertices();
  return coo;
}

/// check(g, run(g, threads)) on the bundled graph `name` read into a CPU graph, with threads 0
/// (the options' default: the graph's threads) and 1; skips when the dataset is absent.
template <class Run, class Check>
void on_bundled_graph_threads(const char* name, Run&& run, Check&& check) {
  WG_REQUIRE_DATASET(path, name);
  const cpu::DynamicGraph g = read_into_cpu_graph(path);
  for (unsigned threads : {0u, 1u}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    check(g, run(g, threads));
  }
}

/// A directed R-MAT graph of 2^scale vertices built into a CPU DynamicGraph (2 threads).
inline cpu::DynamicGraph directed_rmat_cpu_graph(unsigned scale, double edge_factor,
                                                 std::uint64_t seed) {
  cpu::DynamicGraph g(cpu::GraphOptions{.directed = true, .threads = 2});
  g.build(datasets::generate_rmat(
      {.scale = scale, .edge_factor = edge_factor, .seed = seed, .symmetric = false}));
  return g;
}

/// An R-MAT graph of 2^11 vertices split into a stream: 30% built into `graph` (the id range
/// already the whole graph's), the rest in insert/delete batches of `batch_size`.
struct RmatStream {
  datasets::UpdateStream stream;
  cpu::DynamicGraph graph;
};
inline RmatStream rmat_stream(bool directed, double edge_factor, std::uint64_t batch_size) {
  const EdgeList whole = datasets::generate_rmat(
      {.scale = 11, .edge_factor = edge_factor, .seed = 7, .symmetric = !directed});
  RmatStream s{datasets::make_update_stream(
                   whole, {.initial_fraction = 0.3, .batch_size = batch_size, .seed = 3}),
               cpu::DynamicGraph(cpu::GraphOptions{.directed = directed, .threads = 2})};
  s.graph.build(s.stream.initial);
  s.graph.ensure_vertices(whole.num_vertices);
  return s;
}

/// Applies every batch of `stream` through the dynamic algorithm `dyn` and checks after each:
/// check() (the result against the reference), that the update accounts for every entry, and
/// that `changed` counts exactly the vertices whose value (values(): levels, labels) moved
/// (moved(before, after); by default before != after).
/// Returns, per batch, whether it inserted and whether the static computation answered it.
template <class Dynamic, class Values, class Check, class Moved = std::not_equal_to<>>
std::vector<std::pair<bool, bool>> replay_checked(const datasets::UpdateStream& stream,
                                                  Dynamic& dyn, Values&& values, Check&& check,
                                                  Moved moved = {}) {
  std::vector<std::pair<bool, bool>> out;
  for (const auto& batch : stream.batches) {
    SCOPED_TRACE("batch " + std::to_string(out.size()));
    const auto before = values();
    const bool insert = batch.kind == datasets::UpdateBatch::Kind::insert;
    const auto r = insert ? dyn.insert_edges(batch.edges) : dyn.erase_edges(batch.edges);
    EXPECT_EQ(r.update.entries(), batch.edges.size());
    check();
    const auto& after = values();
    std::uint64_t changed = 0;
    for (std::size_t v = 0; v < before.size(); ++v) changed += moved(before[v], after[v]);
    EXPECT_EQ(r.changed, changed);
    out.emplace_back(insert, r.recomputed);
    if (::testing::Test::HasFailure()) break;
  }
  return out;
}

}  // namespace wg::test
