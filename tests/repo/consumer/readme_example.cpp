#include <cstdio>
#include <warpgraph/algorithms/tc/cpu/triangle_count.hpp>  // GPU: .../tc/gpu/triangle_count.hpp
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/datasets/update_stream.hpp>

int main(int argc, char** argv) {
  wg::EdgeList edges = wg::datasets::read_graph(argv[1]).edges;  // .mtx, SNAP, .gz
  wg::datasets::UpdateStream stream = wg::datasets::make_update_stream(edges, {});
  wg::cpu::DynamicGraph graph;  // GPU: wg::gpu::DynamicGraph<wg::gpu::SlabSetAdjacency>
  graph.build(stream.initial);
  wg::cpu::IncrementalTriangleCounter triangles(graph);  // counts once, then per batch
  for (const wg::datasets::UpdateBatch& batch : stream.batches) {
    bool insert = batch.kind == wg::datasets::UpdateBatch::Kind::insert;
    auto r = insert ? triangles.insert_edges(batch.edges) : triangles.erase_edges(batch.edges);
    std::printf("%s %zu edges: %llu triangles\n", insert ? "+" : "-", batch.edges.size(),
                static_cast<unsigned long long>(r.total));
  }
}
