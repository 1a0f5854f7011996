#pragma once
// Definitions of GPU BFS (bfs.hpp), for .cu files. The static search runs on any
// DeviceGraphView (graph/graph_concepts.hpp); top-down steps are ops::advance (slot walk,
// algorithms/operators) with a claiming op; bottom-up steps use the view's find_neighbor (early
// exit) where it has one, else its warp-uniform slot walk. The dynamic class shares
// SSSP's repair machinery (algorithms/sssp/gpu/sssp.cuh) with unit lengths.
//
// Memory order: levels are read and claimed with relaxed device-scope atomics; a parent is
// written only by the thread that claimed (top-down) or owns (bottom-up) its vertex, and read
// after the kernel.
#include <cuda/atomic>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <warpgraph/algorithms/bfs/gpu/bfs.hpp>
#include <warpgraph/algorithms/operators/advance.cuh>
#include <warpgraph/algorithms/single_source.hpp>
#include <warpgraph/algorithms/sssp/gpu/sssp.cuh>

namespace wg::gpu {
namespace bfs_detail {

__device__ inline std::int32_t load_level(std::int32_t* level, vertex_t v) {
  return cuda::atomic_ref<std::int32_t, cuda::thread_scope_device>(level[v]).load(
      cuda::memory_order_relaxed);
}

__device__ inline unsigned long long warp_sum(const warp_tile& tile, unsigned long long x) {
  for (int o = 16; o > 0; o /= 2) x += tile.shfl_xor(x, o);
  return x;
}

/// The first neighbour of v on level `depth`, warp-uniform, or kNoNeighbor.
template <class View>
__device__ vertex_t find_on_level(const View& g, const warp_tile& tile, vertex_t v,
                                  std::int32_t* level, std::int32_t depth) {
  if constexpr (requires { g.find_neighbor(tile, v, [](vertex_t) { return true; }); }) {
    return g.find_neighbor(tile, v, [&](vertex_t w) { return load_level(level, w) == depth; });
  } else {
    vertex_t found = kNoNeighbor;
    g.for_each_neighbor_slot(tile, v, [&](vertex_t w, bool valid) {
      if (found != kNoNeighbor) return;  // warp-uniform
      const unsigned hits = tile.ballot(valid && load_level(level, w) == depth);
      if (hits) found = tile.shfl(w, __ffs(hits) - 1);
    });
    return found;
  }
}

template <class View>
__global__ void bottom_up_kernel(View g, std::uint64_t n, std::int32_t* level, vertex_t* parent,
                                 vertex_t* next, unsigned long long* counters, std::int32_t depth) {
  const warp_tile tile = this_warp();
  const std::uint64_t warps = (std::uint64_t{gridDim.x} * blockDim.x) / 32;
  for (std::uint64_t i = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; i < n;
       i += warps) {
    const vertex_t v = static_cast<vertex_t>(i);
    if (load_level(level, v) != -1 || !g.is_live(v)) continue;
    const vertex_t w = find_on_level(g, tile, v, level, depth);
    if (w == kNoNeighbor) continue;
    if (tile.thread_rank() == 0) {
      cuda::atomic_ref<std::int32_t, cuda::thread_scope_device>(level[v]).store(
          depth + 1, cuda::memory_order_relaxed);
      parent[v] = w;
      next[atomicAdd(counters, 1ull)] = v;
      atomicAdd(counters + 1, static_cast<unsigned long long>(g.degree(v)));
    }
  }
}

template <class View>
__global__ void seed_kernel(View g, vertex_t source, std::int32_t* level, vertex_t* parent,
                            vertex_t* queue, unsigned long long* counters) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    counters[0] = counters[1] = 0;
    if (g.is_live(source)) {
      level[source] = 0;
      parent[source] = source;
      queue[0] = source;
      counters[0] = 1;
      counters[1] = g.degree(source);
    }
  }
}

template <class View>
__global__ void arc_total_kernel(View g, std::uint64_t n, unsigned long long* out) {
  unsigned long long c = 0;
  for (std::uint64_t v = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; v < n;
       v += std::uint64_t{gridDim.x} * blockDim.x)
    if (g.is_live(static_cast<vertex_t>(v))) c += g.degree(static_cast<vertex_t>(v));
  const warp_tile tile = this_warp();
  c = warp_sum(tile, c);
  if (tile.thread_rank() == 0 && c) atomicAdd(out, c);
}

__global__ inline void levels_to_keys_kernel(const std::int32_t* level, const vertex_t* parent,
                                             std::uint64_t n, std::uint64_t* keys) {
  for (std::uint64_t v = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; v < n;
       v += std::uint64_t{gridDim.x} * blockDim.x)
    keys[v] =
        level[v] < 0 ? sp::kNoKey : sp::make_key(static_cast<std::uint32_t>(level[v]), parent[v]);
}

}  // namespace bfs_detail

/// A static BFS left on the device (for callers that time the search alone, or keep using it).
struct BfsDeviceResult {
  DeviceBuffer<std::int32_t> level;  ///< -1 when unreached
  DeviceBuffer<vertex_t> parent;     ///< kBfsNoParent when unreached
  std::uint64_t reached = 0;
  std::uint32_t depth = 0;      ///< levels searched
  std::uint32_t bottom_up = 0;  ///< of which bottom-up
};

/// Static BFS on any DeviceGraphView of `num_vertices` ids, ordered on `stream`; `directed`
/// disables bottom-up steps (they need in-arcs). InvalidArgument when source >= num_vertices.
template <class View>
BfsDeviceResult bfs_device(const View& g, std::uint64_t num_vertices, bool directed,
                           vertex_t source, cudaStream_t stream, const BfsOptions& options = {},
                           const BfsTuning& tuning = {}) {
  using namespace bfs_detail;
  require_source("wg::gpu::bfs", source, num_vertices);
  const std::uint64_t n = num_vertices;
  BfsDeviceResult r;
  r.level = DeviceBuffer<std::int32_t>(n, stream, "bfs levels");
  r.parent = DeviceBuffer<vertex_t>(n, stream, "bfs parents");
  r.level.fill_bytes(0xFF, stream);
  r.parent.fill_bytes(0xFF, stream);
  ops::Frontier frontier(n, stream, "bfs frontier");
  DeviceBuffer<vertex_t> heavy(n, stream, "bfs heavy");
  DeviceBuffer<unsigned long long> counters(4, stream, "bfs counters");
  counters.fill_bytes(0, stream);
  const bool can_bottom_up = options.top_down_alpha && !directed;
  if (can_bottom_up) {
    arc_total_kernel<<<grid_for(n, 4096), kBlock, 0, stream>>>(g, n, counters.data() + 3);
    WG_CUDA_CHECK_LAST();
  }
  seed_kernel<<<1, 32, 0, stream>>>(g, source, r.level.data(), r.parent.data(), frontier.current(),
                                    counters.data());
  WG_CUDA_CHECK_LAST();
  unsigned long long c[4];
  auto read = [&] {
    WG_CUDA_TRY(cudaMemcpyAsync(c, counters.data(), sizeof(c), cudaMemcpyDeviceToHost, stream));
    WG_CUDA_TRY(cudaStreamSynchronize(stream));
  };
  read();
  std::uint64_t count = c[0], frontier_arcs = c[1];
  std::uint64_t unvisited_arcs = c[3] > frontier_arcs ? c[3] - frontier_arcs : 0, previous = 0;
  bool bottom_up = false;
  for (std::int32_t depth = 0; count; ++depth) {
    r.reached += count;
    if (can_bottom_up) {
      if (!bottom_up)
        bottom_up = count > previous && frontier_arcs * options.top_down_alpha > unvisited_arcs;
      else
        bottom_up = count * options.bottom_up_beta >= n;
    }
    WG_CUDA_TRY(cudaMemsetAsync(counters.data(), 0, 3 * sizeof(unsigned long long), stream));
    if (bottom_up) {
      bottom_up_kernel<<<grid_for(n * 32), kBlock, 0, stream>>>(
          g, n, r.level.data(), r.parent.data(), frontier.next(), counters.data(), depth);
      WG_CUDA_CHECK_LAST();
      ++r.bottom_up;
    } else {
      // Top-down: claim each unvisited neighbour for depth + 1 (one CAS decides the parent).
      std::int32_t* const level = r.level.data();
      vertex_t* const parent = r.parent.data();
      const auto claim = [=] __device__(vertex_t u, vertex_t w, std::uint32_t,
                                        ops::EverySource::value_type) {
        if (load_level(level, w) != -1) return false;
        std::int32_t expected = -1;
        if (!cuda::atomic_ref<std::int32_t, cuda::thread_scope_device>(level[w])
                 .compare_exchange_strong(expected, depth + 1, cuda::memory_order_relaxed))
          return false;
        parent[w] = u;
        return true;
      };
      const ops::HeavySplit split{heavy.data(), counters.data() + 2, tuning.split_degree,
                                  tuning.split_parts};
      ops::advance<ops::Walk::slots>(g, frontier.in(count),
                                     frontier.out(counters.data(), counters.data() + 1), claim,
                                     ops::AdvanceLaunch::sized(count, split), stream);
    }
    read();
    ++r.depth;
    previous = count;
    count = c[0];
    frontier_arcs = c[1];
    unvisited_arcs -= std::min<std::uint64_t>(unvisited_arcs, frontier_arcs);
    frontier.swap();
  }
  return r;
}

/// Downloads a device result into the host shape.
inline BfsResult download(const BfsDeviceResult& d, cudaStream_t stream) {
  const std::uint64_t n = d.level.size();
  std::vector<std::int32_t> level(n);
  BfsResult r;
  r.parent.resize(n);
  if (n) {
    d.level.copy_to_host(level.data(), n, stream);
    d.parent.copy_to_host(r.parent.data(), n, stream);
  }
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
  r.level.assign(level.begin(), level.end());
  r.reached = d.reached;
  return r;
}

/// Static BFS on any DeviceGraphView (host result).
template <class View>
BfsResult bfs(const View& g, std::uint64_t num_vertices, bool directed, vertex_t source,
              cudaStream_t stream, const BfsOptions& options = {}, const BfsTuning& tuning = {}) {
  return download(bfs_device(g, num_vertices, directed, source, stream, options, tuning), stream);
}

/// Static BFS on a CsrGraph.
template <bool Weighted>
BfsResult bfs(const CsrGraph<Weighted>& g, vertex_t source, const BfsOptions& options = {},
              const BfsTuning& tuning = {}) {
  return bfs(g.ref(), g.num_vertices(), g.directed(), source, g.stream(), options, tuning);
}

template <GpuDynamicGraph Graph>
BfsResult bfs(const Graph& graph, vertex_t source, const BfsOptions& options,
              const BfsTuning& tuning) {
  return bfs(graph.ref(), graph.num_vertices(), graph.directed(), source, graph.stream(), options,
             tuning);
}

// ---- dynamic ----------------------------------------------------------------------------------

template <GpuDynamicGraph Graph>
DynamicBfs<Graph>::DynamicBfs(Graph& graph, vertex_t source, const BfsOptions& options,
                              const BfsTuning& tuning)
    : Search(graph, source, tuning, /*unit_lengths=*/true, "wg::gpu::DynamicBfs"),
      options_(options),
      tuning_(tuning) {
  this->recompute();
}

template <GpuDynamicGraph Graph>
void DynamicBfs<Graph>::search_into_keys(cudaStream_t s) {
  ShortestPathState& st = this->state_;
  const BfsDeviceResult d = bfs_device(this->graph_->ref(), st.n, this->graph_->directed(),
                                       this->source(), s, options_, tuning_);
  bfs_detail::levels_to_keys_kernel<<<grid_for(st.n), kBlock, 0, s>>>(
      d.level.data(), d.parent.data(), st.n, st.keys.data());
  WG_CUDA_CHECK_LAST();
}

template <GpuDynamicGraph Graph>
BfsResult DynamicBfs<Graph>::result() const {
  const SsspResult s =
      sp::download(this->state_, this->graph_->num_vertices(), this->graph_->stream());
  BfsResult r;
  r.level.resize(s.distance.size());
  for (std::size_t v = 0; v < s.distance.size(); ++v)
    r.level[v] = s.distance[v] == kSsspUnreached ? kBfsUnreached : std::int64_t{s.distance[v]};
  r.parent = s.parent;
  r.reached = s.reached;
  return r;
}

}  // namespace wg::gpu
