#pragma once
// Single-source shortest paths: the options shared by the CPU (cpu/sssp.hpp) and GPU
// (gpu/sssp.hpp) backends. Each backend has its own result (distances in double on the CPU, in
// 32-bit integers on the GPU) and its own tuning (cpu::SsspTuning, gpu::SsspTuning: when a
// dynamic search recomputes, the GPU's hub splitting and near-far step), passed beside the
// options; the tuning never changes the distances.

namespace wg {

/// What the search computes, read alike by every backend.
struct SsspOptions {
  /// Every arc has length 1 whatever its weight (distances are then BFS levels).
  bool unit_weights = false;
};

}  // namespace wg
