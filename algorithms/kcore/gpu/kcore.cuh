#pragma once
// Definitions of the GPU core numbers (kcore.hpp), for .cu files. The static peeling is written
// against any DeviceGraphView (core_numbers(view, n, core, stream)); a graph type plugs into the
// rest by satisfying GpuDynamicGraph and one line in WG_GPU_GRAPHS (warpgraph_helpers.cmake).
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <tuple>
#include <vector>

#include <warpgraph/algorithms/gpu_dynamic_update.cuh>
#include <warpgraph/algorithms/kcore/gpu/kcore.hpp>
#include <warpgraph/algorithms/kcore/gpu/kcore_kernels.cuh>
#include <warpgraph/algorithms/kcore/gpu/kcore_round_kernels.cuh>
#include <warpgraph/algorithms/operators/advance.cuh>
#include <warpgraph/algorithms/operators/filter.cuh>
#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/graph/gpu/graph_ref.cuh>
#include <warpgraph/graph/gpu/launch_grid.hpp>

namespace wg::gpu {

/// Core numbers of a symmetric device view (every edge stored both ways: an undirected graph)
/// over ids [0, n): core_device (n entries) receives them; *syncs (when given) adds the host
/// synchronisations it made. Stream-ordered, synchronises once per
/// frontier; returns the largest number.
template <DeviceGraphView View>
std::uint32_t core_numbers(const View& view, std::uint64_t n, std::uint32_t* core_device,
                           cudaStream_t stream, std::uint64_t* syncs = nullptr) {
  using namespace kcore_detail;
  if (n == 0) return 0;
  DeviceBuffer<std::uint32_t> deg(n, stream, "remaining degrees");
  ops::Frontier frontier(n, stream, "peeling frontier");
  DeviceBuffer<unsigned long long> counters(2, stream, "peeling counters");
  std::uint32_t* const remaining = deg.data();
  ops::for_each(
      ops::all_vertices(n),
      [=] __device__(vertex_t u) {
        remaining[u] = view.is_live(u) ? view.degree(u) : 0;
        core_device[u] = kUnset;
      },
      stream);
  const unsigned long long reset[2] = {0, ~0ull};
  unsigned long long host[2];
  std::uint64_t removed = 0;
  std::uint32_t k = 0, max_core = 0;
  // The levels' scans read the remaining vertices only: a list, compacted whenever fewer than
  // half of the listed vertices remain (so the scans cost O(n) in all, not O(n) per level).
  DeviceBuffer<vertex_t> rest[2];
  int current = -1;  // -1: all ids
  std::uint64_t listed = n;
  while (removed < n) {
    if (n - removed < listed / 2) {
      const int to = current == 0 ? 1 : 0;
      if (rest[to].empty()) rest[to] = DeviceBuffer<vertex_t>(n - removed, stream, "remaining");
      WG_CUDA_TRY(cudaMemsetAsync(counters.data(), 0, sizeof(unsigned long long), stream));
      ops::filter(
          ops::FrontierIn{current < 0 ? nullptr : rest[current].data(), listed},
          ops::FrontierOut{rest[to].data(), counters.data()},
          [=] __device__(vertex_t v) { return core_device[v] == kUnset; }, stream);
      current = to;
      listed = n - removed;
    }
    WG_CUDA_TRY(
        cudaMemcpyAsync(counters.data(), reset, sizeof reset, cudaMemcpyHostToDevice, stream));
    peel_scan_kernel<<<grid_for(listed), kBlock, 0, stream>>>(
        current < 0 ? nullptr : rest[current].data(), listed, deg.data(), core_device, k,
        frontier.current(), counters.data());
    WG_CUDA_CHECK_LAST();
    WG_CUDA_TRY(
        cudaMemcpyAsync(host, counters.data(), sizeof host, cudaMemcpyDeviceToHost, stream));
    WG_CUDA_TRY(cudaStreamSynchronize(stream));
    if (syncs) ++*syncs;
    std::uint64_t size = host[0];
    if (size == 0) {
      // Nothing at this level: the next level with a vertex is the least remaining degree.
      if (host[1] == ~0ull) break;  // nothing remains (cannot happen while removed < n)
      k = static_cast<std::uint32_t>(host[1]);
      continue;
    }
    max_core = k;
    while (size) {
      removed += size;
      WG_CUDA_TRY(cudaMemsetAsync(counters.data(), 0, sizeof(unsigned long long), stream));
      ops::advance<ops::Walk::lanes>(view, frontier.in(size), frontier.out(counters.data()),
                                     PeelOp{deg.data(), core_device, k},
                                     ops::AdvanceLaunch::sized(size, {}), stream,
                                     ops::LiveSource<>{});
      WG_CUDA_TRY(cudaMemcpyAsync(host, counters.data(), sizeof(unsigned long long),
                                  cudaMemcpyDeviceToHost, stream));
      WG_CUDA_TRY(cudaStreamSynchronize(stream));
      if (syncs) ++*syncs;
      size = host[0];
      frontier.swap();
    }
    ++k;
  }
  return max_core;
}

namespace kcore_detail {
template <GpuDynamicGraph Graph>
void require_undirected(const Graph& g) {
  if (g.directed())
    throw InvalidArgument("GPU core numbers need an undirected graph (GraphOptions::directed)");
}
}  // namespace kcore_detail

template <GpuDynamicGraph Graph>
CoreNumbers core_numbers(const Graph& graph) {
  kcore_detail::require_undirected(graph);
  CoreNumbers out;
  const std::uint64_t n = graph.num_vertices();
  if (n == 0) return out;
  DeviceBuffer<std::uint32_t> core(n, graph.stream(), "core numbers");
  out.max_core = core_numbers(graph.ref(), n, core.data(), graph.stream());
  out.core = core.to_host();
  return out;
}

// ---- dynamic ----------------------------------------------------------------------------------

template <GpuDynamicGraph Graph>
DynamicCoreNumbers<Graph>::DynamicCoreNumbers(Graph& graph,
                                              const DynamicCoreNumbersOptions& options,
                                              const DynamicCoreNumbersTuning& tuning)
    : Frame(graph), options_(options), tuning_(tuning) {
  kcore_detail::require_undirected(graph);
  int device = 0, sms = 1;
  WG_CUDA_TRY(cudaGetDevice(&device));
  WG_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  // Level kernels read their sizes on the device: one full-occupancy grid, warps striding.
  level_grid_ = static_cast<unsigned>(std::max(sms, 1)) * (2048u / kBlock);
  // Every buffer on the graph's stream (allocations, frees and copies ordered with its work).
  const cudaStream_t stream = graph.stream();
  static_assert(std::tuple_size_v<decltype(host_)> == kcore_detail::kCounters);
  counters_ = DeviceBuffer<unsigned long long>(kcore_detail::kCounters, stream, "core counters");
  for (auto* b : {&core_, &stamp_, &pass_, &mark_, &old_core_, &claim_, &slot_edge_, &remaining_,
                  &next_remaining_, &round_})
    *b = DeviceBuffer<std::uint32_t>(0, stream);
  for (auto* b : {&cand_, &queue_, &touched_}) *b = DeviceBuffer<vertex_t>(0, stream);
  for (auto* b : {&in_batch_, &state_}) *b = DeviceBuffer<std::uint8_t>(0, stream);
  count_ = DeviceBuffer<std::int32_t>(0, stream);
  dec_ = DeviceBuffer<std::int32_t>(0, stream);
  slots_ = DeviceBuffer<unsigned long long>(0, stream);
  recompute();
}

template <GpuDynamicGraph Graph>
void DynamicCoreNumbers<Graph>::recompute() {
  this->mark_current();
  const cudaStream_t stream = graph_->stream();
  n_ = graph_->num_vertices();
  const std::uint64_t cap = std::max<std::uint64_t>(n_, 1);
  core_.resize_discard(cap, "core numbers");
  stamp_.resize_discard(cap, "candidate stamps");
  pass_.resize_discard(cap, "candidate passes");
  dec_.resize_discard(cap, "fallen neighbours");
  mark_.resize_discard(cap, "batch marks");
  old_core_.resize_discard(cap, "old core numbers");
  claim_.resize_discard(cap, "round claims");
  count_.resize_discard(cap, "candidate counts");
  cand_.resize_discard(cap, "candidates");
  queue_.resize_discard(cap, "peeling queue");
  touched_.resize_discard(cap, "changed vertices");
  in_batch_.resize_discard(cap, "batch endpoints");
  stamp_.fill_bytes(0, stream);
  pass_.fill_bytes(0, stream);
  dec_.fill_bytes(0, stream);
  mark_.fill_bytes(0, stream);
  claim_.fill_bytes(0xFF, stream);
  in_batch_.fill_bytes(0, stream);
  epoch_ = batch_epoch_ = 0;
  static_syncs_ = 0;
  if (n_) core_numbers(graph_->ref(), n_, core_.data(), stream, &static_syncs_);
}

template <GpuDynamicGraph Graph>
void DynamicCoreNumbers<Graph>::grow() {
  const std::uint64_t n = graph_->num_vertices();
  if (n <= n_) return;
  const cudaStream_t stream = graph_->stream();
  // Copies of the kept state; the scratch arrays are re-made (their contents are per round).
  auto grow_keep = [&]<class T>(DeviceBuffer<T>& b, int fill, const char* what) {
    b.reserve(n, what);
    b.resize_discard(n);
    WG_CUDA_TRY(cudaMemsetAsync(b.data() + n_, fill, (n - n_) * sizeof(T), stream));
  };
  grow_keep(core_, 0, "core numbers");
  grow_keep(stamp_, 0, "candidate stamps");
  grow_keep(pass_, 0, "candidate passes");
  grow_keep(dec_, 0, "fallen neighbours");
  grow_keep(mark_, 0, "batch marks");
  grow_keep(claim_, 0xFF, "round claims");
  grow_keep(old_core_, 0, "old core numbers");
  in_batch_.reserve(n, "batch endpoints");
  in_batch_.resize_discard(n);
  WG_CUDA_TRY(cudaMemsetAsync(in_batch_.data() + n_, 0, n - n_, stream));
  count_.resize_discard(n, "candidate counts");
  cand_.resize_discard(n, "candidates");
  queue_.resize_discard(n, "peeling queue");
  touched_.reserve(n, "changed vertices");
  touched_.resize_discard(n);
  n_ = n;
}

template <GpuDynamicGraph Graph>
CoreNumbers DynamicCoreNumbers<Graph>::result() const {
  CoreNumbers out;
  out.core = core_.to_host(graph_->stream(), n_);
  for (std::uint32_t c : out.core) out.max_core = std::max(out.max_core, c);
  return out;
}

template <GpuDynamicGraph Graph>
void DynamicCoreNumbers<Graph>::begin_part() {
  rounds_ = 0;
  syncs_ = launches_ = 0;
  batch_arcs_ = 0;
}

template <GpuDynamicGraph Graph>
void DynamicCoreNumbers<Graph>::begin_batch() {
  begin_part();
  touched_count_ = 0;
  if (++batch_epoch_ == kcore_detail::kUnset) {
    mark_.fill_bytes(0, graph_->stream());
    batch_epoch_ = 1;
  }
}

template <GpuDynamicGraph Graph>
bool DynamicCoreNumbers<Graph>::too_many(std::uint64_t batch_edges) const {
  const std::uint64_t e = graph_->num_edges();
  const auto others = static_cast<double>(e > batch_edges ? e - batch_edges : 0);
  return static_cast<double>(batch_edges) > options_.recompute_fraction * others;
}

template <GpuDynamicGraph Graph>
std::uint64_t DynamicCoreNumbers<Graph>::end_batch() {
  const cudaStream_t stream = graph_->stream();
  counters_.fill_bytes(0, stream);
  if (touched_count_)
    kcore_detail::touched_kernel<<<grid_for(touched_count_), kBlock, 0, stream>>>(
        touched_.data(), touched_count_, core_.data(), old_core_.data(), false, counters_.data());
  WG_CUDA_CHECK_LAST();
  touched_count_ = 0;
  return counters_.to_host()[6];
}

template <GpuDynamicGraph Graph>
std::uint64_t DynamicCoreNumbers<Graph>::recompute_counting() {
  const cudaStream_t stream = graph_->stream();
  if (touched_count_)
    kcore_detail::touched_kernel<<<grid_for(touched_count_), kBlock, 0, stream>>>(
        touched_.data(), touched_count_, core_.data(), old_core_.data(), true, nullptr);
  WG_CUDA_CHECK_LAST();
  touched_count_ = 0;
  rounds_ = 0;
  // old_core_ holds the numbers before the batch; the fresh ones go to core_.
  WG_CUDA_TRY(cudaMemcpyAsync(old_core_.data(), core_.data(), n_ * sizeof(std::uint32_t),
                              cudaMemcpyDeviceToDevice, stream));
  static_syncs_ = 0;
  if (n_) core_numbers(graph_->ref(), n_, core_.data(), stream, &static_syncs_);
  counters_.fill_bytes(0, stream);
  kcore_detail::diff_kernel<<<grid_for(n_), kBlock, 0, stream>>>(core_.data(), old_core_.data(), n_,
                                                                 counters_.data());
  WG_CUDA_CHECK_LAST();
  return counters_.to_host()[6];
}

template <GpuDynamicGraph Graph>
bool DynamicCoreNumbers<Graph>::run_rounds(const ChangedEdges& edges, bool insert) {
  using namespace kcore_detail;
  const cudaStream_t stream = graph_->stream();
  const std::uint64_t m = edges.size;
  std::uint64_t cap = 64;
  while (cap < 2 * m) cap <<= 1;
  slots_.resize_discard(cap, "batch edge set");
  slots_.fill_bytes(0xFF, stream);
  slot_edge_.resize_discard(cap, "batch edge indices");
  state_.resize_discard(m, "batch edge states");
  remaining_.resize_discard(m, "remaining edges");
  next_remaining_.resize_discard(m, "remaining edges");
  round_.resize_discard(m, "round edges");
  batch_set_kernel<<<grid_for(m), kBlock, 0, stream>>>(edges.keys, m, edges.key_bits, slots_.data(),
                                                       slot_edge_.data(), cap - 1, state_.data(),
                                                       in_batch_.data(), remaining_.data());
  WG_CUDA_CHECK_LAST();
  bool ok = true;
  std::uint64_t r = m;
  // counters[2] (arcs scanned) and [3] (changed vertices) run over the whole batch.
  counters_.fill_bytes(0, stream);
  const unsigned long long touched = touched_count_;
  WG_CUDA_TRY(cudaMemcpyAsync(counters_.data() + 3, &touched, sizeof touched,
                              cudaMemcpyHostToDevice, stream));
  // A vertex in more than max_rounds of the edges needs more rounds than allowed: give up
  // before any round runs.
  multiplicity_kernel<<<grid_for(m), kBlock, 0, stream>>>(edges.keys, m, edges.key_bits,
                                                          count_.data(), true, counters_.data());
  multiplicity_kernel<<<grid_for(m), kBlock, 0, stream>>>(edges.keys, m, edges.key_bits,
                                                          count_.data(), false, counters_.data());
  WG_CUDA_CHECK_LAST();
  read_counters();
  // Decided before trying: every round costs a few synchronisations, and the batch needs at
  // least as many rounds as its busiest vertex has edges.
  const unsigned long long least_rounds = host_[7];
  const double round_syncs =
      1.0 + kLaunchSyncs * (kSelectLaunches + 4.0 * std::max(1u, tuning_.levels_per_sync) + 5.0);
  if (least_rounds > tuning_.max_rounds ||
      tuning_.sync_cost_arcs * round_syncs * static_cast<double>(least_rounds) > budget_) {
    ok = false;
    early_ = true;
  }
  while (r && ok) {
    if (++rounds_ > tuning_.max_rounds) {
      ok = false;
      break;
    }
    // A matching of the remaining edges: each vertex is claimed by its smallest edge.
    claim_kernel<<<grid_for(r), kBlock, 0, stream>>>(edges.keys, edges.key_bits, remaining_.data(),
                                                     r, claim_.data(), true);
    const unsigned long long zero2[2] = {0, 0};
    WG_CUDA_TRY(
        cudaMemcpyAsync(counters_.data() + 4, zero2, sizeof zero2, cudaMemcpyHostToDevice, stream));
    select_round_kernel<<<grid_for(r), kBlock, 0, stream>>>(
        edges.keys, edges.key_bits, remaining_.data(), r, claim_.data(), state_.data(),
        round_.data(), next_remaining_.data(), counters_.data());
    claim_kernel<<<grid_for(r), kBlock, 0, stream>>>(edges.keys, edges.key_bits, remaining_.data(),
                                                     r, claim_.data(), false);
    WG_CUDA_CHECK_LAST();
    // The round is enqueued behind its selection: one synchronisation per round (more only
    // for traversals deeper than levels_per_sync); its size stays on the device.
    const BatchEdgeView batch = start_round(edges, r, insert);
    launches_ += kSelectLaunches;
    std::swap(remaining_, next_remaining_);
    ok = insert ? insert_round(batch, epoch_) : erase_round(batch, epoch_);
    r = host_[5];
  }
  unmark_batch_kernel<<<grid_for(m), kBlock, 0, stream>>>(edges.keys, m, edges.key_bits,
                                                          in_batch_.data());
  WG_CUDA_CHECK_LAST();
  read_counters();  // the last round's changes
  touched_count_ = host_[3];
  return ok;
}

template <GpuDynamicGraph Graph>
kcore_detail::BatchEdgeView DynamicCoreNumbers<Graph>::start_round(const ChangedEdges& edges,
                                                                   std::uint64_t bound,
                                                                   bool insert) {
  using namespace kcore_detail;
  const cudaStream_t stream = graph_->stream();
  if (epoch_ == kUnset - 1) {
    stamp_.fill_bytes(0, stream);
    pass_.fill_bytes(0, stream);
    epoch_ = 0;
  }
  const std::uint32_t epoch = ++epoch_;
  // The round's list and queue sizes, degree sums, level ranges and cut flag start at zero;
  // [2] and [3] run over the whole batch, [4] and [5] describe this round.
  WG_CUDA_TRY(cudaMemsetAsync(counters_.data(), 0, 2 * sizeof(unsigned long long), stream));
  WG_CUDA_TRY(cudaMemsetAsync(counters_.data() + 8, 0, (kCounters - 8) * sizeof(unsigned long long),
                              stream));
  roots_kernel<<<grid_for(bound), kBlock, 0, stream>>>(
      graph_->ref(), edges.keys, edges.key_bits, round_.data(), counters_.data() + 4, core_.data(),
      stamp_.data(), epoch, cand_.data(), counters_.data());
  WG_CUDA_CHECK_LAST();
  return BatchEdgeView{.slots = slots_.data(),
                       .slot_edge = slot_edge_.data(),
                       .state = state_.data(),
                       .in_batch = in_batch_.data(),
                       .mask = slots_.size() - 1,
                       .bits = edges.key_bits,
                       .visible_state = static_cast<std::uint8_t>(insert ? 1 : 0)};
}

template <GpuDynamicGraph Graph>
void DynamicCoreNumbers<Graph>::read_counters() {
  const cudaStream_t stream = graph_->stream();
  WG_CUDA_TRY(cudaMemcpyAsync(host_.data(), counters_.data(), sizeof host_, cudaMemcpyDeviceToHost,
                              stream));
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
  ++syncs_;
  batch_arcs_ = host_[2];
}

template <GpuDynamicGraph Graph>
unsigned long long DynamicCoreNumbers<Graph>::level_budget() const {
  // What is left of the batch's budget once the synchronisations so far and the next one are
  // paid for; the advance kernel compares it with the arcs scanned plus the next level's price.
  const double spent = tuning_.sync_cost_arcs *
                       (static_cast<double>(syncs_ + 1) + kcore_detail::kLaunchSyncs * launches_);
  return budget_ > spent ? static_cast<unsigned long long>(budget_ - spent) : 0ull;
}

template <GpuDynamicGraph Graph>
template <class Enqueue, class Ended>
bool DynamicCoreNumbers<Graph>::run_round(Enqueue&& enqueue, Ended&& ended) {
  const typename Graph::ref_type g = graph_->ref();
  const cudaStream_t stream = graph_->stream();
  const unsigned steps = std::max(1u, tuning_.levels_per_sync);
  for (;;) {
    launches_ += enqueue(g, stream, steps, counters_.data(), level_budget());
    WG_CUDA_CHECK_LAST();
    read_counters();
    if (const std::optional<bool> end = ended()) return *end;
  }
}

template <GpuDynamicGraph Graph>
bool DynamicCoreNumbers<Graph>::insert_round(const kcore_detail::BatchEdgeView& batch,
                                             std::uint32_t epoch) {
  using namespace kcore_detail;
  using View = typename Graph::ref_type;
  // The whole round is enqueued, then one synchronisation; a traversal or a peeling deeper than
  // `steps` levels enqueues it again (the finished phases' kernels return at once). Examined
  // vertices: the roots, then the number-c neighbours of those that passed (mcd > c), each level
  // priced at two scans of its vertices' arcs before it runs.
  const auto enqueue = [&](const View& g, cudaStream_t stream, unsigned steps,
                           unsigned long long* c, unsigned long long budget) {
    for (unsigned s = 0; s < steps; ++s) {
      advance_kernel<<<1, 1, 0, stream>>>(c, 0, 2, budget);
      examine_kernel<View><<<level_grid_, kBlock, 0, stream>>>(
          g, batch, cand_.data(), c + kListRange, core_.data(), stamp_.data(), pass_.data(), epoch,
          count_.data(), c);
    }
    gate_kernel<<<1, 1, 0, stream>>>(c, 0, budget);
    count_kernel<View><<<level_grid_, kBlock, 0, stream>>>(
        g, batch, cand_.data(), core_.data(), pass_.data(), epoch, count_.data(), queue_.data(), c);
    gate_kernel<<<1, 1, 0, stream>>>(c, 1, budget);
    for (unsigned s = 0; s < steps; ++s) {
      advance_kernel<<<1, 1, 0, stream>>>(c, 1, 0, ~0ull);  // priced by gate 0
      round_peel_kernel<View>
          <<<level_grid_, kBlock, 0, stream>>>(g, batch, queue_.data(), c + kQueueRange,
                                               core_.data(), pass_.data(), epoch, count_.data(), c);
    }
    gate_kernel<<<1, 1, 0, stream>>>(c, 2, budget);
    rise_kernel<<<level_grid_, kBlock, 0, stream>>>(cand_.data(), core_.data(), pass_.data(), epoch,
                                                    count_.data(), mark_.data(), batch_epoch_,
                                                    old_core_.data(), touched_.data(), c);
    gate_kernel<<<1, 1, 0, stream>>>(c, 3, budget);
    return 4 * steps + 5;
  };
  return run_round(enqueue, [&]() -> std::optional<bool> {
    if (host_[kCutFlag]) return false;
    if (host_[kPhase] == kDone) return true;
    return std::nullopt;
  });
}

template <GpuDynamicGraph Graph>
bool DynamicCoreNumbers<Graph>::erase_round(const kcore_detail::BatchEdgeView& batch,
                                            std::uint32_t epoch) {
  using namespace kcore_detail;
  using View = typename Graph::ref_type;
  // Touched list cand_ (roots, then the uncounted number-c neighbours of fallen vertices), each
  // counted once; fallen queue queue_, each scanned once; each level priced before it runs. As
  // for insertion, the round is enqueued whole and enqueued again while it has not finished.
  const auto enqueue = [&](const View& g, cudaStream_t stream, unsigned steps,
                           unsigned long long* c, unsigned long long budget) {
    for (unsigned s = 0; s < steps; ++s) {
      advance_kernel<<<1, 1, 0, stream>>>(c, 0, 1, budget);
      erase_count_kernel<View><<<level_grid_, kBlock, 0, stream>>>(
          g, batch, cand_.data(), c + kListRange, core_.data(), pass_.data(), epoch, count_.data(),
          dec_.data(), queue_.data(), c);
      advance_kernel<<<1, 1, 0, stream>>>(c, 1, 1, budget);
      fall_kernel<View><<<level_grid_, kBlock, 0, stream>>>(
          g, batch, queue_.data(), c + kQueueRange, core_.data(), stamp_.data(), pass_.data(),
          epoch, count_.data(), dec_.data(), cand_.data(), c);
    }
    gate_kernel<<<1, 1, 0, stream>>>(c, 4, budget);
    fall_apply_kernel<<<level_grid_, kBlock, 0, stream>>>(
        cand_.data(), true, core_.data(), count_.data(), dec_.data(), mark_.data(), batch_epoch_,
        old_core_.data(), touched_.data(), c);
    gate_kernel<<<1, 1, 0, stream>>>(c, 3, budget);
    return 4 * steps + 3;
  };
  return run_round(enqueue, [&]() -> std::optional<bool> {
    if (host_[kPhase] == kDone) return true;
    if (!host_[kCutFlag]) return std::nullopt;
    // Nothing applied; dec goes back to zero over the listed vertices.
    fall_apply_kernel<<<level_grid_, kBlock, 0, graph_->stream()>>>(
        cand_.data(), false, core_.data(), count_.data(), dec_.data(), mark_.data(), batch_epoch_,
        old_core_.data(), touched_.data(), counters_.data());
    WG_CUDA_CHECK_LAST();
    return false;
  });
}

template <GpuDynamicGraph Graph>
void DynamicCoreNumbers<Graph>::count_batch(bool recomputed, bool cut) {
  ++stats_.batches;
  (recomputed ? stats_.recomputed : stats_.incremental) += 1;
  stats_.cut += cut;
  stats_.rounds += rounds_;
  stats_.arcs_scanned += batch_arcs_;
}

template <GpuDynamicGraph Graph>
bool DynamicCoreNumbers<Graph>::try_rounds(const ChangedEdges& edges, bool insert) {
  // budget_: the static peeling's cost in arcs (each arc once, plus its synchronisations as
  // measured by the last one) times recompute_work.
  budget_ = options_.recompute_work * (2.0 * static_cast<double>(graph_->num_edges()) +
                                       tuning_.sync_cost_arcs * static_cast<double>(static_syncs_));
  early_ = too_many(edges.size);
  const bool ok = !early_ && run_rounds(edges, insert);  // which sets early_ when it decides so
  cut_ = !ok && !early_;
  return ok;
}

template <GpuDynamicGraph Graph>
BatchEffect DynamicCoreNumbers<Graph>::on_after_insert(const ChangedEdges& added) {
  BatchEffect e;
  grow();
  if (this->in_step()) {
    // A mixed step: the rounds as below, but a fallback only marks the step for its one
    // static peeling (end_step), and nothing is counted until the step ends.
    begin_part();
    if (!added.size) return e;
    step_edges_ += added.size;
    if (step_recompute_) {
      count_batch(true, false);
      return e;
    }
    const bool ok = try_rounds(added, true);
    count_batch(!ok, cut_);
    step_recompute_ = !ok;
    return e;
  }
  begin_batch();
  if (!added.size) return e;
  e.recomputed = !try_rounds(added, true);
  count_batch(e.recomputed, cut_);
  e.changed = e.recomputed ? recompute_counting() : end_batch();
  return e;
}

template <GpuDynamicGraph Graph>
void DynamicCoreNumbers<Graph>::on_before_erase(const ChangedEdges& removed) {
  grow();
  // A mixed step's parts share one epoch of change records (begin_part only).
  if (this->in_step())
    begin_part();
  else
    begin_batch();
  // Processed before the edges go: each round sees the earlier rounds' edges and its own as
  // removed (hidden), the later ones still present.
  erase_pending_recompute_ = cut_ = false;
  if (!removed.size) return;
  if (this->in_step() && step_recompute_) {
    erase_pending_recompute_ = true;  // the step's one peeling answers this chunk too
    return;
  }
  erase_pending_recompute_ = !try_rounds(removed, false);
}

template <GpuDynamicGraph Graph>
BatchEffect DynamicCoreNumbers<Graph>::on_after_erase(const ChangedEdges& removed) {
  BatchEffect e;
  e.recomputed = erase_pending_recompute_;
  if (removed.size) count_batch(e.recomputed, cut_);
  erase_pending_recompute_ = cut_ = false;
  if (this->in_step()) {
    // The peeling, and the count of the numbers that moved, come once at the step's end.
    step_edges_ += removed.size;
    step_recompute_ = step_recompute_ || e.recomputed;
    return BatchEffect{};
  }
  e.changed = e.recomputed ? recompute_counting() : end_batch();
  return e;
}

template <GpuDynamicGraph Graph>
void DynamicCoreNumbers<Graph>::on_batch_start(bool erase) {
  grow();
  if (erase) begin_batch();  // a batch without a present edge reports no rounds
}

template <GpuDynamicGraph Graph>
void DynamicCoreNumbers<Graph>::begin_step(std::uint64_t erase_entries,
                                           std::uint64_t insert_entries) {
  grow();
  // One epoch of change records for both parts: old_core_ keeps each touched vertex's number
  // from before the step, so end_batch and recompute_counting (which first undoes the recorded
  // changes) count exactly the vertices that moved over the whole step.
  begin_batch();
  // The up-front rule of the insertion (too_many), on the batch's size: its peeling would
  // follow the erasure's rounds, so the rounds are not worth running.
  step_recompute_ = erase_entries > 0 &&
                    static_cast<double>(insert_entries) >
                        options_.recompute_fraction * static_cast<double>(graph_->num_edges());
  step_edges_ = 0;
}

template <GpuDynamicGraph Graph>
BatchEffect DynamicCoreNumbers<Graph>::end_step(const BatchEffect&, const BatchEffect&) {
  grow();
  BatchEffect e;
  if (step_recompute_ && step_edges_) {
    e.recomputed = true;
    ++stats_.shared;
    e.changed = recompute_counting();
  } else {
    e.changed = end_batch();
  }
  step_recompute_ = false;
  return e;
}

template <GpuDynamicGraph Graph>
DynamicUpdate<VertexEraseResult> DynamicCoreNumbers<Graph>::erase_vertices_through(
    std::span<const vertex_t> ids) {
  DynamicUpdate<VertexEraseResult> r;
  grow();
  begin_batch();
  r.update = graph_->erase_vertices(std::vector<vertex_t>(ids.begin(), ids.end()));
  r.recomputed = true;
  count_batch(true, false);
  r.changed = recompute_counting();
  return r;
}

}  // namespace wg::gpu
