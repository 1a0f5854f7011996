#pragma once
// Definitions of the GPU PageRank (pagerank.hpp), for .cu files. The iteration is written
// against any DeviceGraphView (pagerank(view, n, directed, rank, stream, options, warm)); a graph
// type plugs into the rest by satisfying GpuDynamicGraph and one explicit instantiation line in a
// .cu of its own.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <warpgraph/algorithms/gpu_dynamic_update.cuh>
#include <warpgraph/algorithms/pagerank/gpu/pagerank.hpp>
#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/containers/core/work_sharing.cuh>
#include <warpgraph/graph/gpu/graph_ref.cuh>
#include <warpgraph/graph/gpu/launch_grid.hpp>

namespace wg::gpu {
namespace pr_detail {

inline constexpr unsigned kFull = 0xFFFFFFFFu;

/// Per-iteration sums, on the device: the dangling rank (of the current ranks), and the L1 and
/// largest change of the iteration (the largest as the bits of a non-negative double, which
/// order as the doubles do).
struct Sums {
  double dangling;
  double l1;
  unsigned long long max_bits;
};

__device__ __forceinline__ double warp_sum(double x) {
  for (int o = 16; o > 0; o /= 2) x += __shfl_down_sync(kFull, x, o);
  return x;
}
__device__ __forceinline__ double warp_max(double x) {
  for (int o = 16; o > 0; o /= 2) x = fmax(x, __shfl_down_sync(kFull, x, o));
  return x;
}

/// contrib[v] = rank[v] / outdeg(v) (0 without out-arcs, whose rank goes to sums->dangling);
/// acc (directed push), when given, is zeroed.
template <class View>
__global__ void contrib_kernel(View g, std::uint64_t n, const double* rank, double* contrib,
                               double* acc, Sums* sums) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  double dangling = 0;
  for (std::uint64_t base = std::uint64_t{blockIdx.x} * blockDim.x; base < n; base += stride) {
    const std::uint64_t v = base + threadIdx.x;
    if (v < n) {
      const auto u = static_cast<vertex_t>(v);
      const std::uint32_t deg = g.is_live(u) ? g.degree(u) : 0;
      const double r = rank[v];
      contrib[v] = deg ? r / deg : 0.0;
      if (!deg) dangling += r;
      if (acc) acc[v] = 0;
    }
  }
  dangling = warp_sum(dangling);
  if ((threadIdx.x & 31) == 0 && dangling != 0) atomicAdd(&sums->dangling, dangling);
}

/// Adds one vertex's new rank to the iteration's change (lane-local accumulators).
__device__ __forceinline__ void account(double now, double before, double& l1, double& mx) {
  const double diff = fabs(now - before);
  l1 += diff;
  mx = fmax(mx, diff);
}

__device__ __forceinline__ void flush(const warp_tile& tile, double l1, double mx, Sums* sums) {
  l1 = warp_sum(l1);
  mx = warp_max(mx);
  if (tile.thread_rank() == 0) {
    if (l1 != 0) atomicAdd(&sums->l1, l1);
    if (mx != 0)
      atomicMax(&sums->max_bits, static_cast<unsigned long long>(__double_as_longlong(mx)));
  }
}

/// Undirected: one warp per vertex pulls its neighbours' contributions.
template <class View>
__global__ void pull_kernel(View g, std::uint64_t n, const double* contrib, const double* rank,
                            double* next, Sums* sums, double base, double damping) {
  const warp_tile tile = this_warp();
  const double spread = sums->dangling / static_cast<double>(n);
  double l1 = 0, mx = 0;
  for_each_warp_item(n, [&](const warp_tile& t, std::uint64_t i) {
    const auto v = static_cast<vertex_t>(i);
    double s = 0;
    if (g.is_live(v) && g.degree(v) > 0)  // warp-uniform
      g.for_each_neighbor(t, v, [&](vertex_t w, auto...) { s += contrib[w]; });
    s = warp_sum(s);
    if (t.thread_rank() == 0) {
      const double now = base + damping * (s + spread);
      account(now, rank[v], l1, mx);
      next[v] = now;
    }
  });
  flush(tile, l1, mx, sums);
}

/// Directed: one warp per vertex pushes its contribution to its out-neighbours.
template <class View>
__global__ void push_kernel(View g, std::uint64_t n, const double* contrib, double* acc) {
  for_each_warp_item(n, [&](const warp_tile& t, std::uint64_t i) {
    const auto u = static_cast<vertex_t>(i);
    if (!g.is_live(u) || g.degree(u) == 0) return;  // warp-uniform
    const double c = contrib[u];
    g.for_each_neighbor(t, u, [&](vertex_t w, auto...) { atomicAdd(acc + w, c); });
  });
}

__global__ inline void finish_push_kernel(std::uint64_t n, const double* acc, const double* rank,
                                          double* next, Sums* sums, double base, double damping) {
  const warp_tile tile = this_warp();
  const double spread = sums->dangling / static_cast<double>(n);
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  double l1 = 0, mx = 0;
  for (std::uint64_t b = std::uint64_t{blockIdx.x} * blockDim.x; b < n; b += stride) {
    const std::uint64_t v = b + threadIdx.x;
    if (v < n) {
      const double now = base + damping * (acc[v] + spread);
      account(now, rank[v], l1, mx);
      next[v] = now;
    }
  }
  flush(tile, l1, mx, sums);
}

__global__ inline void fill_kernel(double* x, std::uint64_t first, std::uint64_t n, double value) {
  for (std::uint64_t v = first + std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; v < n;
       v += std::uint64_t{gridDim.x} * blockDim.x)
    x[v] = value;
}

/// *moved += ids whose ranks differ by more than eps (one atomic per warp and step).
__global__ inline void moved_kernel(const double* a, const double* b, std::uint64_t n, double eps,
                                    unsigned long long* moved) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t base = std::uint64_t{blockIdx.x} * blockDim.x; base < n; base += stride) {
    const std::uint64_t v = base + threadIdx.x;
    const unsigned c = __reduce_add_sync(kFull, v < n && fabs(a[v] - b[v]) > eps ? 1u : 0u);
    if ((threadIdx.x & 31) == 0 && c) atomicAdd(moved, static_cast<unsigned long long>(c));
  }
}

inline void check_options(const PageRankOptions& o) {
  if (!(o.damping >= 0 && o.damping <= 1))
    throw InvalidArgument("pagerank: damping outside [0, 1]");
  if (!(o.tolerance >= 0)) throw InvalidArgument("pagerank: tolerance < 0");
  if (o.max_iterations < 0) throw InvalidArgument("pagerank: max_iterations < 0");
}

/// Warps for one-warp-per-vertex kernels: enough to fill the GPU, each striding over vertices.
inline unsigned warp_grid(std::uint64_t n) {
  return grid_for(n * 32, std::uint64_t{1} << 16);
}

}  // namespace pr_detail

/// PageRank of a device view over ids [0, n) (n == the graph's id range: every id is a vertex
/// of the formula). directed: the view's arcs go one way (push); else every edge is stored both
/// ways (pull). rank_device (n entries) holds the start when warm, else is set to 1/n first; it
/// receives the ranks. Stream-ordered; synchronises once per iteration.
template <DeviceGraphView View>
PageRankRun pagerank(const View& view, std::uint64_t n, bool directed, double* rank_device,
                     cudaStream_t stream, const PageRankOptions& options, bool warm = false) {
  using namespace pr_detail;
  check_options(options);
  PageRankRun run;
  if (n == 0) {
    run.converged = true;
    return run;
  }
  if (!warm) {
    fill_kernel<<<grid_for(n), kBlock, 0, stream>>>(rank_device, 0, n,
                                                    1.0 / static_cast<double>(n));
    WG_CUDA_CHECK_LAST();
  }
  DeviceBuffer<double> next(n, stream, "next ranks"), contrib(n, stream, "rank contributions");
  DeviceBuffer<double> acc(directed ? n : 0, stream, "pushed ranks");
  DeviceBuffer<Sums> sums(1, stream, "pagerank sums");
  double* cur = rank_device;
  double* nxt = next.data();
  const double base = (1.0 - options.damping) / static_cast<double>(n);
  Sums host{};
  while (run.iterations < options.max_iterations) {
    WG_CUDA_TRY(cudaMemsetAsync(sums.data(), 0, sizeof(Sums), stream));
    contrib_kernel<View><<<grid_for(n), kBlock, 0, stream>>>(
        view, n, cur, contrib.data(), directed ? acc.data() : nullptr, sums.data());
    if (directed) {
      push_kernel<View><<<warp_grid(n), kBlock, 0, stream>>>(view, n, contrib.data(), acc.data());
      finish_push_kernel<<<grid_for(n), kBlock, 0, stream>>>(n, acc.data(), cur, nxt, sums.data(),
                                                             base, options.damping);
    } else {
      pull_kernel<View><<<warp_grid(n), kBlock, 0, stream>>>(view, n, contrib.data(), cur, nxt,
                                                             sums.data(), base, options.damping);
    }
    WG_CUDA_CHECK_LAST();
    WG_CUDA_TRY(cudaMemcpyAsync(&host, sums.data(), sizeof host, cudaMemcpyDeviceToHost, stream));
    WG_CUDA_TRY(cudaStreamSynchronize(stream));
    std::swap(cur, nxt);
    ++run.iterations;
    const double change = options.stop == PageRankOptions::Stop::l1
                              ? host.l1
                              : __builtin_bit_cast(double, host.max_bits);
    if (change < options.tolerance) {
      run.converged = true;
      break;
    }
  }
  if (cur != rank_device) {
    WG_CUDA_TRY(
        cudaMemcpyAsync(rank_device, cur, n * sizeof(double), cudaMemcpyDeviceToDevice, stream));
  }
  return run;
}

template <GpuDynamicGraph Graph>
PageRankResult pagerank(const Graph& graph, const PageRankOptions& options) {
  pr_detail::check_options(options);
  PageRankResult out;
  const std::uint64_t n = graph.num_vertices();
  if (n == 0) {
    out.converged = true;
    return out;
  }
  DeviceBuffer<double> rank(n, graph.stream(), "ranks");
  const PageRankRun run =
      pagerank(graph.ref(), n, graph.directed(), rank.data(), graph.stream(), options);
  out.rank = rank.to_host();
  out.iterations = run.iterations;
  out.converged = run.converged;
  return out;
}

// ---- dynamic ----------------------------------------------------------------------------------

template <GpuDynamicGraph Graph>
DynamicPageRank<Graph>::DynamicPageRank(Graph& graph, const PageRankOptions& options)
    : graph_(&graph), options_(options) {
  pr_detail::check_options(options);
  counter_ = DeviceBuffer<unsigned long long>(1, graph.stream(), "moved ranks");
  rank_ = DeviceBuffer<double>(0, graph.stream());
  before_ = DeviceBuffer<double>(0, graph.stream());
  recompute();
}

template <GpuDynamicGraph Graph>
void DynamicPageRank<Graph>::recompute() {
  n_ = graph_->num_vertices();
  rank_.resize_discard(std::max<std::uint64_t>(n_, 1), "ranks");
  run_ = pagerank(graph_->ref(), n_, graph_->directed(), rank_.data(), graph_->stream(), options_);
}

template <GpuDynamicGraph Graph>
void DynamicPageRank<Graph>::grow() {
  const std::uint64_t n = graph_->num_vertices();
  if (n <= n_) return;
  rank_.reserve(n, "ranks");
  rank_.resize_discard(n);
  pr_detail::fill_kernel<<<grid_for(n - n_), kBlock, 0, graph_->stream()>>>(rank_.data(), n_, n,
                                                                            0.0);
  WG_CUDA_CHECK_LAST();
  n_ = n;
}

template <GpuDynamicGraph Graph>
PageRankResult DynamicPageRank<Graph>::result() const {
  PageRankResult out;
  out.rank = rank_.to_host(graph_->stream(), n_);
  out.iterations = run_.iterations;
  out.converged = run_.converged;
  return out;
}

template <GpuDynamicGraph Graph>
std::uint64_t DynamicPageRank<Graph>::warm_start() {
  const cudaStream_t stream = graph_->stream();
  before_.resize_discard(std::max<std::uint64_t>(n_, 1), "ranks before the batch");
  WG_CUDA_TRY(cudaMemcpyAsync(before_.data(), rank_.data(), n_ * sizeof(double),
                              cudaMemcpyDeviceToDevice, stream));
  run_ = pagerank(graph_->ref(), n_, graph_->directed(), rank_.data(), stream, options_, true);
  counter_.fill_bytes(0, stream);
  pr_detail::moved_kernel<<<grid_for(n_), kBlock, 0, stream>>>(
      rank_.data(), before_.data(), n_, options_.tolerance / static_cast<double>(n_),
      counter_.data());
  WG_CUDA_CHECK_LAST();
  return counter_.to_host()[0];
}

template <GpuDynamicGraph Graph>
BatchEffect DynamicPageRank<Graph>::after_insert(const ChangedEdges& added) {
  // The ranks change after the edges are in: only whether any edge moved matters (ids the batch
  // adds change n, and so every rank, too).
  const std::uint64_t before_n = n_;
  grow();
  BatchEffect e;
  if (added.size == 0 && n_ == before_n) {
    run_ = PageRankRun{.iterations = 0, .converged = run_.converged};
    return e;
  }
  e.changed = warm_start();
  return e;
}

template <GpuDynamicGraph Graph>
BatchEffect DynamicPageRank<Graph>::after_erase(const ChangedEdges& removed) {
  return after_insert(removed);  // the same rule once the edges are gone
}

template <GpuDynamicGraph Graph>
template <class Batch>
DynamicUpdate<UpdateResult> DynamicPageRank<Graph>::apply(const Batch& batch, bool insert) {
  if (insert) return insert_observed(*graph_, batch, *this);
  // A deletion that removed nothing calls no observer: it ran no iteration.
  run_ = PageRankRun{.iterations = 0, .converged = run_.converged};
  return erase_observed(*graph_, batch, *this);
}

template <GpuDynamicGraph Graph>
DynamicUpdate<VertexEraseResult> DynamicPageRank<Graph>::erase_vertices(
    std::span<const vertex_t> ids) {
  DynamicUpdate<VertexEraseResult> r;
  r.update = graph_->erase_vertices(std::vector<vertex_t>(ids.begin(), ids.end()));
  grow();
  if (r.update.vertices) r.changed = warm_start();
  return r;
}

template <GpuDynamicGraph Graph>
DynamicUpdate<UpdateResult> DynamicPageRank<Graph>::insert_edges(DeviceEdges batch) {
  return apply(batch, true);
}
template <GpuDynamicGraph Graph>
DynamicUpdate<UpdateResult> DynamicPageRank<Graph>::insert_edges(const EdgeList& batch) {
  return apply(batch, true);
}
template <GpuDynamicGraph Graph>
DynamicUpdate<UpdateResult> DynamicPageRank<Graph>::erase_edges(DeviceEdges batch) {
  return apply(batch, false);
}
template <GpuDynamicGraph Graph>
DynamicUpdate<UpdateResult> DynamicPageRank<Graph>::erase_edges(const EdgeList& batch) {
  return apply(batch, false);
}

}  // namespace wg::gpu
