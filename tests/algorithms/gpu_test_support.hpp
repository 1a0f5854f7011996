#pragma once
// Shared by the GPU algorithm tests: R-MAT update streams, the graph as the reference sees it,
// hand-made batches, and replay loops that check a dynamic algorithm after every batch or mixed
// step against an independent host model of the graph (tests/graph/gpu/graph_model.hpp).
// WG_GPU_TEST_SCALE (default 11) sets the R-MAT scale (use ~8 under compute-sanitizer).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/datasets/update_stream.hpp>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/gpu/edge_batch.hpp>

#include "../graph/gpu/graph_model.hpp"
#include "../support/test_support.hpp"

namespace wg::test {

/// The two slab graphs the GPU algorithm tests run on.
using SetGraph = gpu::DynamicGraph<gpu::SlabSetAdjacency>;
using MapGraph = gpu::DynamicGraph<gpu::SlabMapAdjacency>;

/// check(graph) on a set-adjacency and on a map-adjacency graph, each built from `e`.
template <class Check>
void on_set_and_map(const EdgeList& e, Check&& check) {
  {
    SCOPED_TRACE("set adjacency");
    SetGraph g(0);
    g.build(e);
    check(g);
  }
  SCOPED_TRACE("map adjacency");
  MapGraph g(0);
  g.build(e);
  check(g);
}

/// A batch size of `at_default` at the default test scale (11), shrunk with the graph below it
/// (WG_GPU_TEST_SCALE, as under the sanitizer), never below `floor`, so that a stream keeps
/// several insertion and deletion batches at every scale.
inline std::uint64_t scaled_batch(std::uint64_t at_default, std::uint64_t floor) {
  const unsigned scale = gpu_test_scale();
  return scale < 11 ? std::max<std::uint64_t>(at_default >> (12 - scale), floor) : at_default;
}

/// An R-MAT update stream with duplicates, absent deletions and (few) self-loops, starting from
/// a third of the graph, with deletion batches.
inline datasets::UpdateStream gpu_rmat_stream(unsigned scale, double edge_factor,
                                              std::uint64_t batch_size, bool directed,
                                              std::uint64_t seed) {
  const EdgeList whole = datasets::generate_rmat(
      {.scale = scale, .edge_factor = edge_factor, .seed = seed, .symmetric = !directed});
  return datasets::make_update_stream(whole, {.initial_fraction = 0.3,
                                              .batch_size = batch_size,
                                              .delete_probability = 0.6,
                                              .duplicate_fraction = 0.05,
                                              .absent_fraction = 0.1,
                                              .seed = seed + 11});
}

/// A batch of the listed edges on n vertex ids.
inline EdgeList batch(std::uint64_t n, const std::vector<std::pair<vertex_t, vertex_t>>& es) {
  EdgeList b;
  b.num_vertices = n;
  for (auto [u, v] : es) {
    b.src.push_back(u);
    b.dst.push_back(v);
  }
  return b;
}

/// A host model holding the edges of `e` (ids up to e.num_vertices).
inline GraphModel model_of(const EdgeList& e, bool directed) {
  GraphModel m(0, directed);
  m.clear(e.num_vertices);
  m.insert(e);
  return m;
}

/// The model's edges for the reference (ids up to its id range).
inline EdgeList reference_edges(const GraphModel& m) {
  EdgeList coo = m.export_coo(false);
  coo.num_vertices = m.id_range();
  return coo;
}

/// The edges of an undirected R-MAT graph of gpu_test_scale(), without weights.
inline EdgeList unweighted_rmat(double edge_factor, std::uint64_t seed) {
  EdgeList e = datasets::generate_rmat(
      {.scale = gpu_test_scale(), .edge_factor = edge_factor, .seed = seed, .symmetric = true});
  e.weight.clear();
  return e;
}

/// An R-MAT graph (of gpu_test_scale() unless `scale` is given), undirected or directed, on a
/// set-adjacency GPU graph, and its host model.
struct RmatGraph {
  RmatGraph(double edge_factor, std::uint64_t seed, bool directed = false,
            unsigned scale = gpu_test_scale())
      : edges(datasets::generate_rmat(
            {.scale = scale, .edge_factor = edge_factor, .seed = seed, .symmetric = !directed})),
        graph(0, {.directed = directed}),
        model(model_of(edges, directed)) {
    graph.build(edges);
  }
  /// The model's edges for the reference (reference_edges).
  EdgeList reference() const { return reference_edges(model); }
  EdgeList edges;
  SetGraph graph;
  GraphModel model;
};

/// dyn.erase_vertices(ids), which must agree with the model's erasure (vertices erased, ids
/// ignored, edges removed). Returns dyn's result.
template <class Dynamic>
auto erase_vertices_checked(Dynamic& dyn, const std::vector<vertex_t>& ids, GraphModel& model) {
  const auto r = dyn.erase_vertices(ids);
  const VertexEraseResult want = model.erase_vertices(ids);
  EXPECT_EQ(r.update.vertices, want.vertices);
  EXPECT_EQ(r.update.ignored_ids, want.ignored_ids);
  EXPECT_EQ(r.update.edges_removed, want.edges_removed);
  return r;
}

/// Adds self-loops (u, u) to a copy of the batch: the graph drops them.
inline EdgeList with_self_loops(const EdgeList& b) {
  EdgeList out = b;
  for (std::size_t i = 0; i < b.size() && i < 4; ++i) {
    out.src.push_back(b.src[i]);
    out.dst.push_back(b.src[i]);
    if (!out.weight.empty()) out.weight.push_back(1);
  }
  return out;
}

/// Applies every batch of `stream`, with self-loops added, through `dyn` and the model
/// (replay_stream); after each, the update must equal the model's and check(batch index, result,
/// insert) must pass. Returns the number of batches answered by recomputation.
template <class Dynamic, class Check>
std::size_t replay_gpu(const datasets::UpdateStream& stream, Dynamic& dyn, GraphModel& model,
                       Check&& check) {
  std::size_t recomputed = 0;
  replay_stream(
      stream, dyn, model,
      [&](std::size_t i, const auto& r, bool insert) {
        recomputed += r.recomputed;
        check(i, r, insert);
      },
      with_self_loops);
  return recomputed;
}

/// Mixed steps (update(erase, insert)) from `stream`: an erase batch and the insert batch right
/// after it make one step; a lone erase (insert) batch a step with an empty insertion (erasure).
/// Each step goes through dyn.update(erase, insert), through twin.erase_edges(erase) then
/// twin.insert_edges(insert) (the two-call path, on a twin graph built alike), and through the
/// model; the updates must agree, then check(step, result) must pass. Returns the steps.
template <class Dynamic, class Check>
std::size_t replay_mixed_gpu(const datasets::UpdateStream& stream, Dynamic& dyn, Dynamic& twin,
                             GraphModel& model, Check&& check) {
  using Kind = datasets::UpdateBatch::Kind;
  std::size_t step = 0;
  for (std::size_t i = 0; i < stream.batches.size(); ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    EdgeList erase, insert;
    if (stream.batches[i].kind == Kind::erase) {
      erase = with_self_loops(stream.batches[i++].edges);
      if (i < stream.batches.size() && stream.batches[i].kind == Kind::insert)
        insert = with_self_loops(stream.batches[i++].edges);
    } else {
      insert = with_self_loops(stream.batches[i++].edges);
    }
    const auto r = dyn.update(erase, insert);
    const auto te = twin.erase_edges(erase);
    const auto ti = twin.insert_edges(insert);
    EXPECT_EQ(r.update.erased, model.erase(erase));
    EXPECT_EQ(r.update.inserted, model.insert(insert));
    EXPECT_EQ(te.update, r.update.erased);
    EXPECT_EQ(ti.update, r.update.inserted);
    check(step, r);
    if (::testing::Test::HasFatalFailure()) break;
  }
  return step;
}

/// A hand-made mixed step, and whether the algorithm must answer it by recomputation.
struct MixedStep {
  EdgeList erase, insert;
  bool recomputed;
};

/// Each step through dyn.update(erase, insert), through twin.erase_edges(erase) then
/// twin.insert_edges(insert) and through the model: the update must equal the model's and
/// `recomputed` the step's; then check(step, result, before, now, twin_now) must pass, with the
/// results of dyn before and after the step and of the twin after it.
template <class Dynamic, class Check>
void run_mixed_steps(const std::vector<MixedStep>& steps, Dynamic& dyn, Dynamic& twin,
                     GraphModel& model, Check&& check) {
  for (std::size_t i = 0; i < steps.size(); ++i) {
    SCOPED_TRACE("step " + std::to_string(i));
    const auto before = dyn.result();
    const auto r = dyn.update(steps[i].erase, steps[i].insert);
    ASSERT_EQ(r.update.erased, model.erase(steps[i].erase));
    ASSERT_EQ(r.update.inserted, model.insert(steps[i].insert));
    twin.erase_edges(steps[i].erase);
    twin.insert_edges(steps[i].insert);
    EXPECT_EQ(r.recomputed, steps[i].recomputed);
    check(i, r, before, dyn.result(), twin.result());
    if (::testing::Test::HasFatalFailure()) return;
  }
}

/// dyn.update(erase, insert) with both batches as device arrays on `stream` (as a caller whose
/// batches are device-resident passes them); the update must equal the model's. Returns it.
template <class Dynamic>
auto update_from_device(Dynamic& dyn, cudaStream_t stream, std::uint64_t n,
                        const std::vector<std::pair<vertex_t, vertex_t>>& erase,
                        const std::vector<std::pair<vertex_t, vertex_t>>& insert,
                        GraphModel& model) {
  const EdgeList he = batch(n, erase), hi = batch(n, insert);
  const auto es = DeviceBuffer<vertex_t>::from_host(he.src, stream);
  const auto ed = DeviceBuffer<vertex_t>::from_host(he.dst, stream);
  const auto is = DeviceBuffer<vertex_t>::from_host(hi.src, stream);
  const auto id = DeviceBuffer<vertex_t>::from_host(hi.dst, stream);
  const auto r =
      dyn.update(gpu::DeviceEdges{.src = es.data(), .dst = ed.data(), .size = he.size()},
                 gpu::DeviceEdges{.src = is.data(), .dst = id.data(), .size = hi.size()});
  EXPECT_EQ(r.update.erased, model.erase(he));
  EXPECT_EQ(r.update.inserted, model.insert(hi));
  return r;
}

}  // namespace wg::test
