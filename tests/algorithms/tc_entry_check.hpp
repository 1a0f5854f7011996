#pragma once
// The registry entry of triangle counting (algorithms/tc/tc_entry.hpp) on one graph, shared by
// the CPU and GPU tests: its static run and its dynamic class against the reference.
#include <gtest/gtest.h>

#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/algorithms/tc/tc_entry.hpp>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/update_stream.hpp>

namespace wg::test {

/// An R-MAT graph's update stream, the graph of `make` built from its initial part: TcEntry's run
/// equals the reference (per vertex too; total only when asked), and its dynamic class, through
/// every batch, ends on the reference of the graph it followed (result and dynamic_summary).
template <class Make>
void check_tc_entry(Make&& make) {
  const EdgeList whole = datasets::generate_rmat({.scale = 10, .edge_factor = 8, .seed = 5});
  const auto stream =
      datasets::make_update_stream(whole, {.initial_fraction = 0.4, .batch_size = 900});
  auto graph = make();
  graph.build(stream.initial);
  const TriangleCounts want = TcEntry::reference(graph.export_coo(), {});
  const TriangleCounts got = TcEntry::run(graph, {});
  EXPECT_EQ(got.total, want.total);
  EXPECT_EQ(got.per_vertex, want.per_vertex);
  const TriangleCounts total_only = TcEntry::run(graph, {.per_vertex = false});
  EXPECT_EQ(total_only.total, want.total);
  EXPECT_TRUE(total_only.per_vertex.empty());
  auto dynamic = TcEntry::make_dynamic(graph, {});
  for (const auto& batch : stream.batches) {
    if (batch.kind == datasets::UpdateBatch::Kind::insert)
      dynamic->insert_edges(batch.edges);
    else
      dynamic->erase_edges(batch.edges);
  }
  const TriangleCounts end = TcEntry::reference(graph.export_coo(), {});
  const TriangleCounts kept = TcEntry::result(*dynamic);
  EXPECT_EQ(kept.total, end.total);
  EXPECT_EQ(kept.per_vertex, end.per_vertex);
  EXPECT_EQ(TcEntry::dynamic_summary(*dynamic), static_cast<double>(end.total));
  EXPECT_EQ(end.total, reference::triangle_count(whole).total);  // the stream ends on `whole`
}

}  // namespace wg::test
