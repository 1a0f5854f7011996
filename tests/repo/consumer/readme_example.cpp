#include <cstdio>
#include <warpgraph/algorithms/dynamic_frame.hpp>          // DynamicResults: one graph, many results
#include <warpgraph/algorithms/tc/cpu/triangle_count.hpp>  // GPU: the gpu/ headers and wg::gpu::
#include <warpgraph/algorithms/wcc/cpu/wcc.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/datasets/update_stream.hpp>

int main(int argc, char** argv) {
  wg::EdgeList edges = wg::datasets::read_graph(argv[1]).edges;  // .mtx, SNAP, CSV, .gz
  wg::datasets::UpdateStream stream = wg::datasets::make_update_stream(edges, {});
  wg::cpu::DynamicGraph graph;  // GPU: wg::gpu::DynamicGraph<wg::gpu::SlabSetAdjacency>
  graph.build(stream.initial);
  // Each batch is applied to the graph once and every tracked result follows it (calling each
  // result's own insert_edges in turn would throw wg::StaleResultError for the second one).
  wg::DynamicResults<wg::cpu::DynamicGraph> results(graph);
  auto& triangles = results.track<wg::cpu::IncrementalTriangleCounter>();
  auto& components = results.track<wg::cpu::DynamicComponents>();
  for (const wg::datasets::UpdateBatch& batch : stream.batches) {
    bool insert = batch.kind == wg::datasets::UpdateBatch::Kind::insert;
    insert ? results.insert_edges(batch.edges) : results.erase_edges(batch.edges);
    std::printf("%s %zu edges: %llu triangles, %llu components\n", insert ? "+" : "-",
                batch.edges.size(), static_cast<unsigned long long>(triangles.total()),
                static_cast<unsigned long long>(components.result().count));
  }
}
