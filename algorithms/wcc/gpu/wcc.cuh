#pragma once
// Definitions of the GPU components (wcc.hpp), for .cu files. The static computation is written
// against any DeviceGraphView (connected_components(view, n, labels, stream)); a graph type plugs
// into the rest by satisfying GpuDynamicGraph and one line in WG_GPU_GRAPHS
// (cmake/warpgraph_helpers.cmake), which instantiates every GPU algorithm for it.
#include <algorithm>
#include <cstdint>
#include <span>

#include <warpgraph/algorithms/gpu_dynamic_update.cuh>
#include <warpgraph/algorithms/wcc/gpu/wcc.hpp>
#include <warpgraph/algorithms/wcc/gpu/wcc_certify.cuh>
#include <warpgraph/algorithms/wcc/gpu/wcc_kernels.cuh>
#include <warpgraph/algorithms/wcc/gpu/wcc_search.cuh>
#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/graph/gpu/graph_ref.cuh>
#include <warpgraph/graph/gpu/launch_grid.hpp>

namespace wg::gpu {

/// Components of any device view over ids [0, n) (n <= view.num_vertices()): labels_device
/// (n entries) receives the smallest id of each vertex's component. symmetric: the view stores
/// every edge both ways (an undirected graph), so each is read once; a directed view (arcs one
/// way) gives weakly connected components. Stream-ordered; returns the number of components
/// (which synchronises the stream).
template <DeviceGraphView View>
std::uint64_t connected_components(const View& view, std::uint64_t n, vertex_t* labels_device,
                                   cudaStream_t stream, bool symmetric = false) {
  if (n == 0) return 0;
  using namespace wcc_detail;
  init_parents_kernel<<<grid_for(n), kBlock, 0, stream>>>(labels_device, 0, n);
  WG_CUDA_CHECK_LAST();
  hook(view, labels_device, ops::all_vertices(n), symmetric, stream);
  DeviceBuffer<unsigned long long> counters(3, stream, "component counters");
  counters.fill_bytes(0, stream);
  compress_kernel<<<grid_for(n), kBlock, 0, stream>>>(labels_device, nullptr, nullptr, n,
                                                      counters.data());
  WG_CUDA_CHECK_LAST();
  count_roots_kernel<<<grid_for(n), kBlock, 0, stream>>>(labels_device, n, counters.data());
  WG_CUDA_CHECK_LAST();
  return counters.to_host()[1];
}

template <GpuDynamicGraph Graph>
Components connected_components(const Graph& graph, const ComponentsOptions&) {
  Components out;
  const std::uint64_t n = graph.num_vertices();
  if (n == 0) return out;
  DeviceBuffer<vertex_t> labels(n, graph.stream(), "component labels");
  out.count =
      connected_components(graph.ref(), n, labels.data(), graph.stream(), !graph.directed());
  out.component = labels.to_host();
  return out;
}

// ---- dynamic ----------------------------------------------------------------------------------

template <GpuDynamicGraph Graph>
DynamicComponents<Graph>::DynamicComponents(Graph& graph, const ComponentsOptions&,
                                            const ComponentsTuning& tuning)
    : Frame(graph), tuning_(tuning) {
  // Every buffer on the graph's stream (allocations, frees and copies ordered with its work).
  const cudaStream_t stream = graph.stream();
  counters_ =
      DeviceBuffer<unsigned long long>(wcc_detail::kSearchCounters, stream, "component counters");
  label_ = DeviceBuffer<vertex_t>(0, stream);
  parent_ = DeviceBuffer<vertex_t>(0, stream);
  flag_ = DeviceBuffer<std::uint8_t>(0, stream);
  members_ = DeviceBuffer<vertex_t>(0, stream);
  claim_ = DeviceBuffer<vertex_t>(0, stream);
  old_label_ = DeviceBuffer<vertex_t>(0, stream);
  rep_ = DeviceBuffer<vertex_t>(0, stream);
  ecount_ = DeviceBuffer<std::uint32_t>(0, stream);
  piece_ = DeviceBuffer<vertex_t>(0, stream);
  piece_size_ = DeviceBuffer<std::uint32_t>(0, stream);
  search_items_ = DeviceBuffer<std::uint64_t>(0, stream);
  search_table_ = DeviceBuffer<std::uint64_t>(0, stream);
  search_lists_ = DeviceBuffer<vertex_t>(0, stream);
  search_piece_len_ = DeviceBuffer<std::uint32_t>(0, stream);
  search_piece_side_ = DeviceBuffer<std::uint8_t>(0, stream);
  search_piece_root_ = DeviceBuffer<vertex_t>(0, stream);
  recompute();
}

template <GpuDynamicGraph Graph>
void DynamicComponents<Graph>::recompute() {
  this->mark_current();
  const cudaStream_t stream = graph_->stream();
  n_ = graph_->num_vertices();
  label_.resize_discard(n_, "component labels");
  parent_.resize_discard(n_, "union-find parents");
  flag_.resize_discard(n_, "component flags");
  members_.resize_discard(n_, "affected vertices");
  reset_endpoint_marks(n_);
  if (n_ == 0) {
    count_ = 0;
    return;
  }
  flag_.fill_bytes(0, stream);
  count_ = connected_components(graph_->ref(), n_, parent_.data(), stream, !graph_->directed());
  WG_CUDA_TRY(cudaMemcpyAsync(label_.data(), parent_.data(), n_ * sizeof(vertex_t),
                              cudaMemcpyDeviceToDevice, stream));
}

template <GpuDynamicGraph Graph>
void DynamicComponents<Graph>::reset_endpoint_marks(std::uint64_t n) {
  const cudaStream_t stream = graph_->stream();
  rep_.resize_discard(n, "endpoint partners");
  ecount_.resize_discard(n, "endpoint removed edges");
  rep_.fill_bytes(0xFF, stream);  // kNone
  ecount_.fill_bytes(0, stream);
}

template <GpuDynamicGraph Graph>
void DynamicComponents<Graph>::grow() {
  const std::uint64_t n = graph_->num_vertices();
  if (n <= n_) return;
  const cudaStream_t stream = graph_->stream();
  label_.reserve(n, "component labels");
  parent_.reserve(n, "union-find parents");
  label_.resize_discard(n);  // keeps the data: the capacity suffices
  parent_.resize_discard(n);
  flag_.resize_discard(n, "component flags");
  flag_.fill_bytes(0, stream);
  members_.resize_discard(n, "affected vertices");
  reset_endpoint_marks(n);
  wcc_detail::init_parents_kernel<<<grid_for(n - n_), kBlock, 0, stream>>>(label_.data(), n_, n);
  wcc_detail::init_parents_kernel<<<grid_for(n - n_), kBlock, 0, stream>>>(parent_.data(), n_, n);
  WG_CUDA_CHECK_LAST();
  count_ += n - n_;
  n_ = n;
}

template <GpuDynamicGraph Graph>
Components DynamicComponents<Graph>::result() const {
  Components out;
  out.count = count_;
  out.component = label_.to_host(graph_->stream(), n_);
  return out;
}

template <GpuDynamicGraph Graph>
std::uint64_t DynamicComponents<Graph>::recompute_counting() {
  const cudaStream_t stream = graph_->stream();
  count_ = connected_components(graph_->ref(), n_, parent_.data(), stream, !graph_->directed());
  counters_.fill_bytes(0, stream);
  // parent_ is compressed: the pass only copies roots into the labels and counts the moves.
  wcc_detail::compress_kernel<<<grid_for(n_), kBlock, 0, stream>>>(parent_.data(), label_.data(),
                                                                   nullptr, n_, counters_.data());
  WG_CUDA_CHECK_LAST();
  return counters_.to_host()[0];
}

template <GpuDynamicGraph Graph>
std::uint64_t DynamicComponents<Graph>::split_flagged(bool& recomputed) {
  using namespace wcc_detail;
  const cudaStream_t stream = graph_->stream();
  counters_.fill_bytes(0, stream);
  collect_flagged_kernel<<<grid_for(n_), kBlock, 0, stream>>>(
      label_.data(), flag_.data(), n_, parent_.data(), members_.data(), counters_.data());
  WG_CUDA_CHECK_LAST();
  flag_.fill_bytes(0, stream);
  const std::uint64_t affected = counters_.to_host()[2];
  if (static_cast<double>(affected) > tuning_.recompute_fraction * static_cast<double>(n_)) {
    recomputed = true;
    // Inside a mixed step the computation runs once at its end (parent_ is rebuilt there).
    return this->in_step() ? 0 : recompute_counting();
  }
  hook(graph_->ref(), parent_.data(), ops::FrontierIn{members_.data(), affected},
       !graph_->directed(), stream);
  return relabel(members_.data(), affected);
}

template <GpuDynamicGraph Graph>
void DynamicComponents<Graph>::unite_added(const ChangedEdges& added) {
  grow();
  wcc_detail::unite_keys_kernel<<<grid_for(added.size), kBlock, 0, graph_->stream()>>>(
      parent_.data(), added.keys, added.size, added.key_bits);
  WG_CUDA_CHECK_LAST();
}

template <GpuDynamicGraph Graph>
std::uint64_t DynamicComponents<Graph>::relabel_all() {
  counters_.fill_bytes(0, graph_->stream());
  return relabel(nullptr, n_);
}

template <GpuDynamicGraph Graph>
std::uint64_t DynamicComponents<Graph>::relabel(const vertex_t* members, std::uint64_t count) {
  const cudaStream_t stream = graph_->stream();
  wcc_detail::compress_kernel<<<grid_for(count), kBlock, 0, stream>>>(
      parent_.data(), label_.data(), members, count, counters_.data());
  WG_CUDA_CHECK_LAST();
  wcc_detail::count_roots_kernel<<<grid_for(n_), kBlock, 0, stream>>>(parent_.data(), n_,
                                                                      counters_.data());
  WG_CUDA_CHECK_LAST();
  const auto c = counters_.to_host();
  count_ = c[1];
  return c[0];
}

template <GpuDynamicGraph Graph>
void DynamicComponents<Graph>::flag_removed(const ChangedEdges& removed) {
  wcc_detail::flag_labels_kernel<<<grid_for(removed.size), kBlock, 0, graph_->stream()>>>(
      removed.keys, removed.size, removed.key_bits, label_.data(), flag_.data());
  WG_CUDA_CHECK_LAST();
}

template <GpuDynamicGraph Graph>
BatchEffect DynamicComponents<Graph>::on_after_insert(const ChangedEdges& added) {
  BatchEffect e;
  grow();
  // Without an added edge no tree changed (new ids are their own roots already).
  if (added.size == 0) return e;
  // A mixed step whose erasure deferred the static computation: it reads these edges too.
  if (this->in_step() && step_recompute_) return e;
  unite_added(added);
  e.changed = relabel_all();
  if (this->in_step() && e.changed) ++step_moves_;
  return e;
}

template <GpuDynamicGraph Graph>
void DynamicComponents<Graph>::on_before_erase(const ChangedEdges&) {
  // The labels are still those of the graph with the edges when after_erase reads them.
  grow();
}

template <GpuDynamicGraph Graph>
std::uint64_t DynamicComponents<Graph>::certify_removed(const ChangedEdges& removed,
                                                        std::uint32_t per_edge,
                                                        std::uint64_t& undecided) {
  using namespace wcc_detail;
  const cudaStream_t stream = graph_->stream();
  const std::uint64_t b = removed.size;
  const bool directed = graph_->directed();
  const auto g = graph_->ref();
  claim_.resize_discard(b, "removed-edge claims");
  old_label_.resize_discard(b, "removed-edge labels");
  piece_size_.resize_discard(b, "removed-edge pieces");
  piece_.resize_discard(directed ? 1 : b * kPieceCap, "split-off pieces");
  counters_.fill_bytes(0, stream);
  if (!directed) {
    mark_endpoints_kernel<<<grid_for(b), kBlock, 0, stream>>>(removed.keys, b, removed.key_bits,
                                                              rep_.data(), ecount_.data());
    WG_CUDA_CHECK_LAST();
  }
  // The second tier (undirected): how many edges it may search and each one's budget.
  std::uint64_t limit = 0;
  SearchLayout layout{};
  if (!directed && tuning_.search_arcs_per_edge > 0) {
    limit = std::max<std::uint64_t>(
        tuning_.search_max_edges,
        static_cast<std::uint64_t>(tuning_.search_edge_fraction * static_cast<double>(b)));
    limit = std::min(limit, b);
    const double total =
        std::max(static_cast<double>(tuning_.search_min_arcs),
                 tuning_.search_fraction * static_cast<double>(n_ + graph_->num_edges()));
    const double search_budget = std::min(static_cast<double>(tuning_.search_arcs_per_edge),
                                          total / static_cast<double>(limit));
    if (limit == 0 || search_budget < 1) {
      limit = 0;
    } else {
      layout.budget = static_cast<std::uint32_t>(search_budget);
      layout.list_len = std::uint64_t{layout.budget} + 2;
      layout.table_slots = 1;
      while (layout.table_slots < 2 * layout.list_len) layout.table_slots <<= 1;
      // A level's hubs fit the shared list whenever the level fits the budget.
      layout.hub_degree = std::max<std::uint32_t>(256, layout.budget / kHubCap + 1);
      search_items_.resize_discard(3 * b, "second-tier items");
      const std::uint64_t table = limit * layout.table_slots;
      if (table > search_table_.size()) {
        search_table_.resize_discard(table, "second-tier visited tables");
        search_table_.fill_bytes(0, stream);  // generation 0: empty for every launch
      }
      if (++search_gen_ >= (std::uint32_t{1} << 31)) {
        search_table_.fill_bytes(0, stream);
        search_gen_ = 1;
      }
      search_lists_.resize_discard(limit * 2 * layout.list_len, "second-tier visited lists");
      search_piece_len_.resize_discard(limit, "second-tier pieces");
      search_piece_side_.resize_discard(limit, "second-tier piece sides");
      search_piece_root_.resize_discard(limit, "second-tier piece roots");
    }
  }
  auto* items = limit ? reinterpret_cast<SearchItem*>(search_items_.data()) : nullptr;
  const std::uint64_t blocks =
      std::min<std::uint64_t>((b + kCertifyWarps - 1) / kCertifyWarps, std::uint64_t{1} << 16);
  certify_kernel<typename Graph::ref_type>
      <<<static_cast<unsigned>(blocks), kCertifyWarps * 32, 0, stream>>>(
          g, removed.keys, b, removed.key_bits, directed, rep_.data(), ecount_.data(),
          label_.data(), flag_.data(), claim_.data(), old_label_.data(), piece_.data(),
          piece_size_.data(), per_edge, counters_.data(), items);
  WG_CUDA_CHECK_LAST();
  if (limit) {
    // Before the splits are applied: the flags it leaves decide which of them apply.
    search_kernel<typename Graph::ref_type>
        <<<static_cast<unsigned>(limit), kSearchWarps * 32, 0, stream>>>(
            g, items, limit, ecount_.data(), old_label_.data(), flag_.data(), search_table_.data(),
            search_lists_.data(), layout, search_gen_, search_piece_len_.data(),
            search_piece_side_.data(), search_piece_root_.data(), counters_.data());
    WG_CUDA_CHECK_LAST();
  }
  apply_splits_kernel<<<grid_for(b), kBlock, 0, stream>>>(
      claim_.data(), old_label_.data(), piece_.data(), piece_size_.data(), b, flag_.data(),
      label_.data(), parent_.data(), counters_.data());
  WG_CUDA_CHECK_LAST();
  if (limit) {
    apply_search_kernel<<<static_cast<unsigned>(limit), kBlock, 0, stream>>>(
        items, limit, old_label_.data(), flag_.data(), search_lists_.data(), layout,
        search_piece_len_.data(), search_piece_side_.data(), search_piece_root_.data(),
        label_.data(), parent_.data(), counters_.data());
    WG_CUDA_CHECK_LAST();
  }
  if (!directed) {
    reset_endpoints_kernel<<<grid_for(b), kBlock, 0, stream>>>(removed.keys, b, removed.key_bits,
                                                               rep_.data(), ecount_.data());
    WG_CUDA_CHECK_LAST();
  }
  const auto c = counters_.to_host(stream, kSearchCounters);
  // The listed edges are among the first tier's undecided; those the second tier decided move.
  const std::uint64_t searched = c[kSearchConnected] + c[kSearchPieces];
  stats_.certified += c[kCertConnected] + c[kSearchConnected];
  stats_.isolated += c[kCertIsolated];
  stats_.pieces += c[kCertPiece] + c[kSearchPieces];
  stats_.searched += searched;
  undecided = c[kCertUndecided] - searched;
  stats_.undecided += undecided;
  count_ += c[kCertAdded];
  return c[kCertMoved];
}

template <GpuDynamicGraph Graph>
BatchEffect DynamicComponents<Graph>::on_after_erase(const ChangedEdges& removed) {
  BatchEffect e;
  const std::uint64_t b = removed.size;
  if (b == 0) return e;
  // A mixed step whose earlier chunk deferred the static computation: it answers this one too.
  if (this->in_step() && step_recompute_) return e;
  bool split = false;  // tier 2 ran
  if (tuning_.certify_fraction <= 0) {
    flag_removed(removed);  // label_ still holds the labels from before the erasure
    e.changed = split_flagged(e.recomputed);
    split = true;
  } else {
    // Decide before trying: the budget per edge, from the batch's share of the static cost.
    const double total =
        std::max(static_cast<double>(tuning_.certify_min_arcs),
                 tuning_.certify_fraction * static_cast<double>(n_ + graph_->num_edges()));
    const double per_edge = std::min(static_cast<double>(tuning_.certify_arcs_per_edge),
                                     total / static_cast<double>(b));
    if (per_edge < static_cast<double>(tuning_.certify_min_arcs_per_edge)) {
      ++stats_.direct;
      e.recomputed = true;
      e.changed = this->in_step() ? 0 : recompute_counting();  // a mixed step's runs at its end
    } else {
      std::uint64_t undecided = 0;
      e.changed = certify_removed(removed, static_cast<std::uint32_t>(per_edge), undecided);
      if (undecided) {
        e.changed += split_flagged(e.recomputed);
        split = true;
      }
    }
  }
  if (e.recomputed)
    ++stats_.recomputed;
  else if (split)
    ++stats_.restricted;
  if (this->in_step()) {
    step_recompute_ = e.recomputed;
    if (e.changed) ++step_moves_;
  }
  return e;
}

template <GpuDynamicGraph Graph>
void DynamicComponents<Graph>::on_batch_start(bool erase) {
  if (erase) grow();
}

template <GpuDynamicGraph Graph>
void DynamicComponents<Graph>::begin_step(std::uint64_t, std::uint64_t) {
  grow();
  // The labels before the step: the step's one static computation (or the comparison, when
  // several chunks moved labels) counts the moves against them.
  const cudaStream_t stream = graph_->stream();
  step_n0_ = n_;
  before_.resize_discard(std::max<std::uint64_t>(step_n0_, 1), "labels before a mixed step");
  if (step_n0_)
    WG_CUDA_TRY(cudaMemcpyAsync(before_.data(), label_.data(), step_n0_ * sizeof(vertex_t),
                                cudaMemcpyDeviceToDevice, stream));
  step_recompute_ = false;
  step_moves_ = 0;
}

template <GpuDynamicGraph Graph>
BatchEffect DynamicComponents<Graph>::end_step(const BatchEffect& erased,
                                               const BatchEffect& inserted) {
  const cudaStream_t stream = graph_->stream();
  const std::uint64_t n0 = step_n0_;
  grow();
  if (step_recompute_) {
    step_recompute_ = false;
    // Back to the labels before the step (chunks before the deferral may have moved some; ids
    // the step added are still their own labels), so that the recount is the step's.
    if (n0)
      WG_CUDA_TRY(cudaMemcpyAsync(label_.data(), before_.data(), n0 * sizeof(vertex_t),
                                  cudaMemcpyDeviceToDevice, stream));
    ++stats_.shared;
    return {recompute_counting(), true};
  }
  if (step_moves_ > 1) {
    counters_.fill_bytes(0, stream);
    wcc_detail::moved_kernel<<<grid_for(n_), kBlock, 0, stream>>>(label_.data(), before_.data(), n0,
                                                                  n_, counters_.data());
    WG_CUDA_CHECK_LAST();
    return {counters_.to_host()[0], false};
  }
  // One chunk moved labels, or none: its count is the step's.
  return {erased.changed + inserted.changed, false};
}

template <GpuDynamicGraph Graph>
DynamicUpdate<VertexEraseResult> DynamicComponents<Graph>::erase_vertices_through(
    std::span<const vertex_t> ids) {
  DynamicUpdate<VertexEraseResult> r;
  grow();
  const cudaStream_t stream = graph_->stream();
  if (!ids.empty()) {
    const std::vector<vertex_t> host(ids.begin(), ids.end());
    const auto dev = DeviceBuffer<vertex_t>::from_host(host, stream);
    // Before the erasure: the labels are those of the graph with the vertices' edges.
    wcc_detail::flag_ids_kernel<<<grid_for(host.size()), kBlock, 0, stream>>>(
        dev.data(), host.size(), n_, label_.data(), flag_.data());
    WG_CUDA_CHECK_LAST();
  }
  r.update = graph_->erase_vertices(std::vector<vertex_t>(ids.begin(), ids.end()));
  grow();
  if (!ids.empty()) r.changed = split_flagged(r.recomputed);
  return r;
}

}  // namespace wg::gpu
