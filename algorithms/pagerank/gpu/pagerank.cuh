#pragma once
// Definitions of the GPU PageRank (pagerank.hpp), for .cu files. The iteration is written
// against any DeviceGraphView (pagerank(view, n, directed, rank, stream, options, warm)); a graph
// type plugs into the rest by satisfying GpuDynamicGraph and one line in
// WG_GPU_GRAPHS (cmake/warpgraph_helpers.cmake).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <cub/device/device_scan.cuh>

#include <warpgraph/algorithms/gpu_dynamic_update.cuh>
#include <warpgraph/algorithms/pagerank/gpu/detail/pagerank_kernels.cuh>
#include <warpgraph/algorithms/pagerank/gpu/detail/warm_limit.hpp>
#include <warpgraph/algorithms/pagerank/gpu/pagerank.hpp>
#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/containers/core/work_sharing.cuh>
#include <warpgraph/graph/gpu/graph_ref.cuh>
#include <warpgraph/graph/gpu/launch_grid.hpp>

namespace wg::gpu {
namespace pr_detail {

inline void check_options(const PageRankOptions& options, const PageRankTuning& o) {
  if (!(options.damping >= 0 && options.damping <= 1))
    throw InvalidArgument("pagerank: damping outside [0, 1]");
  if (!(options.tolerance >= 0)) throw InvalidArgument("pagerank: tolerance < 0");
  if (options.max_iterations < 0) throw InvalidArgument("pagerank: max_iterations < 0");
  if (o.arcs_per_part < 1) throw InvalidArgument("pagerank: arcs_per_part < 1");
  if (o.max_parts < 1) throw InvalidArgument("pagerank: max_parts < 1");
  if (o.iterations_per_check < 1) throw InvalidArgument("pagerank: iterations_per_check < 1");
  if (!(o.warm_restart_ratio >= 0)) throw InvalidArgument("pagerank: warm_restart_ratio < 0");
}

/// Blocks of kBlock threads that fill the GPU with `kernel` (SMs x resident blocks per SM),
/// at most `need`: the grids whose blocks each add one atomic per sum.
template <class Kernel>
unsigned resident_grid(Kernel kernel, std::uint64_t need) {
  int device = 0, sms = 0, per_sm = 0;
  WG_CUDA_TRY(cudaGetDevice(&device));
  WG_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  WG_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlock, 0));
  const std::uint64_t full = std::uint64_t(std::max(sms, 1)) * std::max(per_sm, 1);
  return static_cast<unsigned>(std::clamp<std::uint64_t>(need, 1, full));
}

}  // namespace pr_detail

/// PageRank of a device view over ids [0, n) (n == the graph's id range: every id is a vertex
/// of the formula). directed: the view's arcs go one way (push); else every edge is stored both
/// ways (pull). rank_device (n entries) holds the start when warm, else is set to 1/n first; it
/// receives the ranks. work: scratch kept between runs (a fresh one when null). limit (warm runs
/// only): gives up the warm start after its first iteration when the prediction exceeds the
/// cold start's count, and returns with restarted = true and rank_device unchanged in meaning
/// (the caller runs cold). Stream-ordered; synchronises once at the start and once per
/// tuning.iterations_per_check iterations.
template <DeviceGraphView View>
PageRankRun pagerank(const View& view, std::uint64_t n, bool directed, double* rank_device,
                     cudaStream_t stream, const PageRankOptions& options,
                     const PageRankTuning& tuning = {}, bool warm = false,
                     PageRankWorkspace* work = nullptr,
                     const pr_detail::WarmLimit* limit = nullptr) {
  using namespace pr_detail;
  check_options(options, tuning);
  PageRankRun run;
  if (n == 0) {
    run.converged = true;
    return run;
  }
  PageRankWorkspace local;
  PageRankWorkspace& w = work ? *work : local;
  auto size = [&](auto& buf, std::uint64_t count, const char* what) {
    if (buf.stream() != stream || buf.capacity() < count)
      buf = std::remove_reference_t<decltype(buf)>(count, stream, what);
    else
      buf.resize_discard(count, what);
  };
  size(w.next, n, "next ranks");
  size(w.contrib, n, "rank contributions");
  size(w.contrib_next, n, "next rank contributions");
  size(w.acc, directed ? n : 1, "pushed ranks");
  size(w.state, 1, "pagerank state");

  // Hubs: parts per vertex, scanned; the host needs only the total (grid size, scratch).
  constexpr bool kSplit = kHasParts<View>;
  std::uint32_t hub_items = 0;
  if constexpr (kSplit) {
    size(w.parts, n + 1, "pagerank parts");
    size(w.offsets, n + 1, "pagerank part offsets");
    ops::segment_parts_kernel<View><<<grid_for(n + 1), kBlock, 0, stream>>>(
        view, n, tuning.split_degree, tuning.arcs_per_part, tuning.max_parts, w.parts.data());
    WG_CUDA_CHECK_LAST();
    std::size_t temp = 0;
    WG_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, temp, w.parts.data(), w.offsets.data(),
                                              static_cast<std::int64_t>(n + 1), stream));
    size(w.scan_temp, std::max<std::size_t>(temp, 1), "pagerank scan");
    WG_CUDA_TRY(cub::DeviceScan::ExclusiveSum(w.scan_temp.data(), temp, w.parts.data(),
                                              w.offsets.data(), static_cast<std::int64_t>(n + 1),
                                              stream));
    WG_CUDA_TRY(cudaMemcpyAsync(&hub_items, w.offsets.data() + n, sizeof hub_items,
                                cudaMemcpyDeviceToHost, stream));
    WG_CUDA_TRY(cudaStreamSynchronize(stream));
    size(w.hub_acc, std::max<std::uint32_t>(hub_items, 1), "hub sums");
    size(w.tickets, std::max<std::uint32_t>(hub_items, 1), "hub tickets");
    w.hub_acc.fill_bytes(0, stream);
    w.tickets.fill_bytes(0, stream);
  }

  WG_CUDA_TRY(cudaMemsetAsync(w.state.data(), 0, sizeof(PageRankState), stream));
  init_kernel<View><<<resident_grid(init_kernel<View>, grid_for(n)), kBlock, 0, stream>>>(
      view, n, !warm, rank_device, w.contrib.data(), directed ? w.acc.data() : nullptr,
      w.state.data());
  WG_CUDA_CHECK_LAST();

  const Params prm{.n = n,
                   .base = (1.0 - options.damping) / static_cast<double>(n),
                   .damping = options.damping,
                   .tolerance = options.tolerance,
                   .max_iterations = options.max_iterations,
                   .max_rule = options.stop == PageRankOptions::Stop::max_change};
  double* rank[2] = {rank_device, w.next.data()};
  double* contrib[2] = {w.contrib.data(), w.contrib_next.data()};
  const std::uint32_t* offsets = kSplit ? w.offsets.data() : nullptr;
  const std::uint64_t warp_items = (std::uint64_t{hub_items} + n) * 32;
  const unsigned pull_blocks =
      directed ? 0 : resident_grid(pull_kernel<View, kSplit>, grid_for(warp_items));
  const unsigned push_blocks =
      directed ? resident_grid(push_kernel<View, kSplit>, grid_for(warp_items)) : 0;
  const unsigned finish_blocks =
      directed ? resident_grid(finish_push_kernel<View>, grid_for(n)) : 0;

  PageRankState host{};
  int launched = 0;
  int chunk = limit ? 1 : tuning.iterations_per_check;
  while (launched < options.max_iterations) {
    const int count = std::min(chunk, options.max_iterations - launched);
    for (int k = 0; k < count; ++k, ++launched) {
      const int a = launched & 1, b = a ^ 1;
      if (directed) {
        push_kernel<View, kSplit><<<push_blocks, kBlock, 0, stream>>>(
            view, prm, contrib[a], w.acc.data(), offsets, w.state.data());
        finish_push_kernel<View><<<finish_blocks, kBlock, 0, stream>>>(
            view, prm, w.acc.data(), rank[a], rank[b], contrib[b], w.state.data());
      } else {
        pull_kernel<View, kSplit><<<pull_blocks, kBlock, 0, stream>>>(
            view, prm, rank[a], rank[b], contrib[a], contrib[b], offsets, w.hub_acc.data(),
            w.tickets.data(), w.state.data());
      }
      WG_CUDA_CHECK_LAST();
    }
    WG_CUDA_TRY(
        cudaMemcpyAsync(&host, w.state.data(), sizeof host, cudaMemcpyDeviceToHost, stream));
    WG_CUDA_TRY(cudaStreamSynchronize(stream));
    if (host.done) break;
    if (limit && launched == 1 && give_up_warm(*limit, host.first_change, options.tolerance)) {
      run.restarted = true;
      break;
    }
    chunk = tuning.iterations_per_check;
  }
  run.iterations = host.iterations;
  run.converged = host.converged != 0;
  run.first_change = host.first_change;
  run.last_change = host.last_change;
  if (run.iterations & 1) {
    WG_CUDA_TRY(cudaMemcpyAsync(rank_device, w.next.data(), n * sizeof(double),
                                cudaMemcpyDeviceToDevice, stream));
  }
  return run;
}

template <GpuDynamicGraph Graph>
PageRankResult pagerank(const Graph& graph, const PageRankOptions& options,
                        const PageRankTuning& tuning) {
  pr_detail::check_options(options, tuning);
  PageRankResult out;
  const std::uint64_t n = graph.num_vertices();
  if (n == 0) {
    out.converged = true;
    return out;
  }
  DeviceBuffer<double> rank(n, graph.stream(), "ranks");
  const PageRankRun run =
      pagerank(graph.ref(), n, graph.directed(), rank.data(), graph.stream(), options, tuning);
  out.rank = rank.to_host();
  out.iterations = run.iterations;
  out.converged = run.converged;
  return out;
}

// ---- dynamic ----------------------------------------------------------------------------------

template <GpuDynamicGraph Graph>
DynamicPageRank<Graph>::DynamicPageRank(Graph& graph, const PageRankOptions& options,
                                        const PageRankTuning& tuning)
    : Frame(graph), options_(options), tuning_(tuning) {
  pr_detail::check_options(options, tuning);
  counter_ = DeviceBuffer<unsigned long long>(1, graph.stream(), "moved ranks");
  rank_ = DeviceBuffer<double>(0, graph.stream());
  before_ = DeviceBuffer<double>(0, graph.stream());
  recompute();
}

template <GpuDynamicGraph Graph>
void DynamicPageRank<Graph>::recompute() {
  this->mark_current();
  n_ = graph_->num_vertices();
  rank_.resize_discard(std::max<std::uint64_t>(n_, 1), "ranks");
  run_ = pagerank(graph_->ref(), n_, graph_->directed(), rank_.data(), graph_->stream(), options_,
                  tuning_, false, &work_);
  cold_iterations_ = run_.iterations;
  cold_rate_ = pr_detail::mean_rate(run_);
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
BatchEffect DynamicPageRank<Graph>::warm_start() {
  const cudaStream_t stream = graph_->stream();
  before_.resize_discard(std::max<std::uint64_t>(n_, 1), "ranks before the batch");
  WG_CUDA_TRY(cudaMemcpyAsync(before_.data(), rank_.data(), n_ * sizeof(double),
                              cudaMemcpyDeviceToDevice, stream));
  BatchEffect e;
  // The switch to a cold start (pagerank.hpp): only with a cold run to predict from.
  const pr_detail::WarmLimit limit{.cold_iterations = cold_iterations_,
                                   .cold_rate = cold_rate_,
                                   .ratio = tuning_.warm_restart_ratio};
  const bool predict = pr_detail::can_predict(cold_iterations_, cold_rate_);
  run_ = pagerank(graph_->ref(), n_, graph_->directed(), rank_.data(), stream, options_, tuning_,
                  true, &work_, predict ? &limit : nullptr);
  if (run_.restarted) {
    recompute();
    run_.restarted = true;
    e.recomputed = true;
  }
  counter_.fill_bytes(0, stream);
  pr_detail::moved_kernel<<<grid_for(n_), kBlock, 0, stream>>>(
      rank_.data(), before_.data(), n_, options_.tolerance / static_cast<double>(n_),
      counter_.data());
  WG_CUDA_CHECK_LAST();
  e.changed = counter_.to_host()[0];
  return e;
}

template <GpuDynamicGraph Graph>
BatchEffect DynamicPageRank<Graph>::on_after_insert(const ChangedEdges& added) {
  // The ranks change after the edges are in: only whether any edge moved matters (ids the batch
  // adds change n, and so every rank, too).
  const std::uint64_t before_n = n_;
  grow();
  BatchEffect e;
  if (added.size == 0 && n_ == before_n) {
    if (!this->in_step()) run_ = PageRankRun{.iterations = 0, .converged = run_.converged};
    return e;
  }
  if (this->in_step()) {
    pending_ = true;
    return e;
  }
  return warm_start();
}

template <GpuDynamicGraph Graph>
BatchEffect DynamicPageRank<Graph>::on_after_erase(const ChangedEdges& removed) {
  return on_after_insert(removed);  // the same rule once the edges are gone
}

template <GpuDynamicGraph Graph>
void DynamicPageRank<Graph>::on_batch_start(bool erase) {
  // A deletion that removed nothing calls no observer: it ran no iteration.
  if (erase) run_ = PageRankRun{.iterations = 0, .converged = run_.converged};
}

template <GpuDynamicGraph Graph>
void DynamicPageRank<Graph>::begin_step(std::uint64_t, std::uint64_t) {
  pending_ = false;  // the hooks only note that the graph changed (in_step())
}

template <GpuDynamicGraph Graph>
BatchEffect DynamicPageRank<Graph>::end_step(const BatchEffect&, const BatchEffect&) {
  if (pending_) {
    pending_ = false;
    return warm_start();
  }
  run_ = PageRankRun{.iterations = 0, .converged = run_.converged};
  return {};
}

template <GpuDynamicGraph Graph>
DynamicUpdate<VertexEraseResult> DynamicPageRank<Graph>::erase_vertices_through(
    std::span<const vertex_t> ids) {
  DynamicUpdate<VertexEraseResult> r;
  r.update = graph_->erase_vertices(std::vector<vertex_t>(ids.begin(), ids.end()));
  grow();
  if (r.update.vertices) {
    const BatchEffect e = warm_start();
    r.changed = e.changed;
    r.recomputed = e.recomputed;
  }
  return r;
}

}  // namespace wg::gpu
