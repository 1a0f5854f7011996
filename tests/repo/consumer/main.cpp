// Reads a graph and counts its triangles with the installed warpgraph.
#include <cstdio>

#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/datasets/read_graph.hpp>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  wg::datasets::ReadResult g = wg::datasets::read_graph(argv[1]);
  wg::reference::TriangleCounts t = wg::reference::triangle_count(g.edges);
  std::printf("vertices %llu triangles %llu\n", (unsigned long long)g.edges.num_vertices,
              (unsigned long long)t.total);
  return 0;
}
