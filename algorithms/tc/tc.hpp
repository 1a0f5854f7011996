#pragma once
// Triangle counting: the vocabulary shared by the reference (algorithms/reference/reference.hpp),
// the CPU (cpu/triangle_count.hpp) and GPU (gpu/triangle_count.hpp) backends. A triangle is a
// set of three vertices pairwise joined by an edge of the undirected simple graph (self-loops and
// repeated edges do not count). Each backend takes its own options (cpu::TcOptions: whether
// per-vertex counts are wanted, threads, intersection; gpu::TcTuning: the GPU's schedule); the
// counts never depend on the threads, the intersection or the schedule. The registry entry
// (tc_entry.hpp) reaches both backends through cpu/tc.hpp and gpu/tc.hpp with
// TriangleCountOptions.
#include <cstdint>
#include <vector>

namespace wg {

struct TriangleCounts {
  std::uint64_t total = 0;  ///< triangles of the graph
  /// Triangles containing each vertex (sum == 3 * total); empty unless asked for.
  std::vector<std::uint64_t> per_vertex;
};

/// What a count computes, on every backend (the backends' tuning is their own, above).
struct TriangleCountOptions {
  bool per_vertex = true;  ///< also the triangles of each vertex (TriangleCounts::per_vertex)
};

}  // namespace wg
