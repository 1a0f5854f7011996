#pragma once
// Shared by the GPU global-algorithm tests (components, core numbers, PageRank): R-MAT update
// streams, the graph as the reference sees it, and a replay loop that checks after every batch
// against an independent host model of the graph (tests/graph/gpu/graph_model.hpp).
// WG_GPU_TEST_SCALE (default 11) sets the R-MAT scale (use ~8 under compute-sanitizer).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/update_stream.hpp>
#include <warpgraph/graph/edge_list.hpp>

#include "../../graph/gpu/graph_model.hpp"

namespace wg::test {

inline unsigned gpu_test_scale() {
  const char* s = std::getenv("WG_GPU_TEST_SCALE");
  return s ? static_cast<unsigned>(std::atoi(s)) : 11u;
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

/// The model's edges for the reference (ids up to its id range).
inline EdgeList reference_edges(const GraphModel& m) {
  EdgeList coo = m.export_coo(false);
  coo.num_vertices = m.id_range();
  return coo;
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

/// Applies every batch of `stream` through `dyn` and the model; after each, the update must
/// equal the model's and check(batch index, result, insert) must pass. Returns the number of
/// batches answered by recomputation.
template <class Dynamic, class Check>
std::size_t replay_gpu(const datasets::UpdateStream& stream, Dynamic& dyn, GraphModel& model,
                       Check&& check) {
  std::size_t recomputed = 0;
  for (std::size_t i = 0; i < stream.batches.size(); ++i) {
    SCOPED_TRACE("batch " + std::to_string(i));
    const auto& b = stream.batches[i];
    const bool insert = b.kind == datasets::UpdateBatch::Kind::insert;
    const EdgeList edges = with_self_loops(b.edges);
    const auto r = insert ? dyn.insert_edges(edges) : dyn.erase_edges(edges);
    EXPECT_EQ(r.update, insert ? model.insert(edges) : model.erase(edges));
    recomputed += r.recomputed;
    check(i, r, insert);
    if (::testing::Test::HasFatalFailure()) return recomputed;
  }
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

}  // namespace wg::test
