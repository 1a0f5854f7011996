#pragma once
// The one GraphBackend adapter of the CLI's dynamic graphs: any wg::DynamicGraph
// (graph/graph_concepts.hpp) with its incremental triangle counter. A backend is one factory
// that instantiates it (backend_cpu.cpp: wg::cpu::DynamicGraph; backend_gpu.cu:
// wg::gpu::DynamicGraph<SlabSetAdjacency>), so a new graph or adjacency reaches the CLI by one
// more such line and its name in backend.cpp. The Boost reference (backend_reference.cpp) is
// not a dynamic graph and keeps its own adapter.
//
// What the adapter needs beyond the concept: Counter(graph) counts the graph once and then
// follows batches through insert_edges / erase_edges(const EdgeList&), returning a result with
// `update` (an UpdateResult) and `total`; count_triangles(graph) and
// count_triangles_per_vertex(graph), found by argument-dependent lookup, count from scratch.
#include <algorithm>
#include <chrono>
#include <concepts>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <warpgraph/algorithms/dynamic_update.hpp>
#include <warpgraph/graph/edge_list.hpp>

#include "backend.hpp"

namespace wg::cli {

/// How one dynamic graph is offered as a backend.
struct GraphBackendOptions {
  std::string name;  ///< the --backend name
  /// Grow the graph's id range (graph.ensure_vertices) to cover each batch's num_vertices and
  /// every id it names before applying it, as the reference backend does. For graphs whose
  /// batch updates ignore ids past the range (wg::cpu::DynamicGraph).
  bool grow_id_range = false;
  double startup_seconds = 0;  ///< what GraphBackend::startup_seconds reports
};

/// The id range a batch needs: batch.num_vertices and every id named.
std::uint64_t batch_id_range(const EdgeList& batch);

/// The counter of a backend on `Graph`: the dynamic class of the count's entry on it
/// (BackendCount::make_dynamic, from the backend header algorithms/tc/cpu/tc.hpp or gpu/tc.hpp
/// that the backend's file includes), so that the count `stream` prints is that entry's.
template <class Graph>
using BackendCounter = std::remove_cvref_t<decltype(*BackendCount::make_dynamic(
    std::declval<Graph&>(), typename BackendCount::Options{}))>;

/// Results tracked besides the count (GraphBackend::track) follow the batches through the
/// EdgeBatchObserver calls of algorithms/dynamic_update.hpp: the adapter lists the edges a batch
/// changes once (the graph's canonical layer) and hands them to the counter and to each tracked
/// algorithm, timing each. Graphs without a canonical layer track nothing but the count.
template <class Graph>
concept ObservableGraph = requires(Graph& g, const EdgeList& batch) {
  g.canonicalize(batch);
};

/// Graphs whose batches are listed on the device (the gpu backend): an overload
/// apply_tracked_gpu(graph, counter, batch, insert, tracked, seconds, effects), found by
/// argument-dependent lookup (tracked_gpu.hpp), applies the batch once and lets the counter and
/// each tracked result follow it, timing each.
template <class Graph, class Counter>
concept DeviceObservableGraph = requires(Graph& g, Counter& c, const EdgeList& batch,
                                         std::span<const std::unique_ptr<TrackedAlgorithm>> tracked,
                                         std::span<double> seconds,
                                         std::span<BatchEffect> effects) {
  { apply_tracked_gpu(g, c, batch, true, tracked, seconds, effects) } -> std::same_as<UpdateResult>;
};

/// Graphs that answer an edge's weight on the host (wg::cpu::DynamicGraph): weighted insertions
/// of present edges follow the smallest-weight rule (GraphBackend::insert_edges).
template <class Graph>
concept WeightQueryGraph = requires(const Graph& g, vertex_t v) {
  g.edge_weight(v, v);
};

/// A graph file's edges taken while the file is parsed (GraphBackend::preload_sink), then built
/// into a graph: the gpu backend's copy to the device overlaps the parse (ingest_pipeline.cuh).
template <class Graph>
class GraphPreload {
 public:
  virtual ~GraphPreload() = default;
  virtual void add(const datasets::EdgeChunk& chunk) = 0;
  virtual std::uint64_t size() const = 0;
  /// graph.build(edges), from the edges taken (which are `edges`' entries, in order).
  virtual void build(Graph& graph, const EdgeList& edges) = 0;
};

template <class Graph, class Counter>
class DynamicGraphBackend final : public GraphBackend {
 public:
  using MakePipeline =
      std::function<std::unique_ptr<BatchPipeline>(Graph&, Counter&, BatchPipeline::Done)>;
  using MakeTracked =
      std::function<std::unique_ptr<TrackedAlgorithm>(const AlgorithmSpec&, Graph&)>;
  /// `make_graph` makes an empty undirected graph (each build starts from a new one);
  /// `make_pipeline` (optional) a pipeline over the graph and its counter; `make_tracked`
  /// (optional, ObservableGraph or DeviceObservableGraph only) the dynamic algorithm of a
  /// tracked result.
  DynamicGraphBackend(GraphBackendOptions options,
                      std::function<std::unique_ptr<Graph>()> make_graph,
                      MakePipeline make_pipeline = {}, MakeTracked make_tracked = {})
      : options_(std::move(options)),
        make_graph_(std::move(make_graph)),
        make_pipeline_(std::move(make_pipeline)),
        make_tracked_(std::move(make_tracked)) {}

  /// Weighted edge lists build a graph made here (keeps_weights); without one, weights are
  /// dropped by the graph.
  void set_weighted_graph(std::function<std::unique_ptr<Graph>()> make_weighted) {
    make_weighted_graph_ = std::move(make_weighted);
  }
  bool keeps_weights() const override { return static_cast<bool>(make_weighted_graph_); }

  using MakePreload = std::function<std::unique_ptr<GraphPreload<Graph>>()>;
  /// Builds from files take their edges while the file is parsed (preload_sink).
  void set_preload(MakePreload make_preload) { make_preload_ = std::move(make_preload); }
  datasets::EdgeChunkFn preload_sink() override {
    if (!make_preload_) return {};
    preload_ = make_preload_();
    return [p = preload_.get()](const datasets::EdgeChunk& c) { p->add(c); };
  }

  void track(const std::vector<AlgorithmSpec>& specs) override {
    specs_.clear();
    for (const AlgorithmSpec& spec : specs) {
      if (spec.kind == AlgorithmKind::tc) continue;
      if (!make_tracked_) GraphBackend::track({spec});  // throws: this backend cannot
      specs_.push_back(spec);
    }
  }
  std::vector<TrackedResult> tracked() const override {
    std::vector<TrackedResult> out;
    for (std::size_t i = 0; i < tracked_.size(); ++i)
      out.push_back({specs_[i], tracked_[i]->values(), tracked_[i]->summary()});
    return out;
  }

  std::string name() const override { return options_.name; }
  double startup_seconds() const override { return options_.startup_seconds; }

  BatchOutcome build(const EdgeList& edges) override {
    const auto t0 = Clock::now();
    counter_.reset();
    graph_.reset();
    erased_.clear();
    graph_ = edges.weighted() && make_weighted_graph_ ? make_weighted_graph_() : make_graph_();
    if (preload_ && preload_->size() == edges.size()) {
      preload_->build(*graph_, edges);
    } else {
      graph_->build(edges);
    }
    preload_.reset();
    const auto c0 = Clock::now();
    counter_ = std::make_unique<Counter>(*graph_);  // static count of the built graph
    BatchOutcome out{graph_->num_edges(), counter_->total(), 0, {}};
    if (!specs_.empty()) {
      out.algorithms.push_back({.kind = AlgorithmKind::tc,
                                .seconds = seconds_since(c0),
                                .summary = static_cast<double>(counter_->total())});
    }
    start_tracking(out);
    out.seconds = seconds_since(t0);
    return out;
  }

  std::unique_ptr<BatchPipeline> pipeline(BatchPipeline::Done done) override {
    if (!make_pipeline_ || options_.grow_id_range || !specs_.empty()) return nullptr;
    require_graph();
    return make_pipeline_(*graph_, *counter_, std::move(done));
  }

  BatchOutcome insert_edges(const EdgeList& batch) override {
    if constexpr (WeightQueryGraph<Graph>) {
      if (graph_ && graph_->weighted() && batch.weighted()) return insert_weighted(batch);
    }
    return apply(batch, true);
  }
  BatchOutcome erase_edges(const EdgeList& batch) override { return apply(batch, false); }

  BatchOutcome erase_vertices(std::span<const vertex_t> ids) override {
    require_graph();
    const auto t0 = Clock::now();
    std::uint64_t bound = 0;  // the range grows to hold every id, as for edge batches
    for (vertex_t v : ids) bound = std::max<std::uint64_t>(bound, std::uint64_t{v} + 1);
    grow_vertices_to(bound);
    std::vector<vertex_t> live;  // the ids that are vertices now (not erased before)
    for (vertex_t v : ids)
      if (is_live(v)) live.push_back(v);
    std::sort(live.begin(), live.end());
    live.erase(std::unique(live.begin(), live.end()), live.end());
    if (erased_.size() < graph_->num_vertices()) erased_.resize(graph_->num_vertices(), 0);
    for (vertex_t v : live) erased_[v] = 1;
    std::vector<double> seconds(tracked_.size() + 1, 0.0);
    std::vector<BatchEffect> effects(tracked_.size() + 1);
    const std::vector<bool> follow = followers(live);
    std::uint64_t removed = 0;
    if constexpr (requires(const Graph& g, std::span<const vertex_t> s) { g.incident_edges(s); }) {
      // The erased vertices' edges, then the vertices: the count and every result that follows
      // vertex erasures see an erase of those edges (the dynamic classes' erase_vertices).
      const std::vector<std::uint64_t> keys = graph_->incident_edges(live);
      each_slot(seconds, [&](std::size_t i) {
        if (i == 0) counter_->before_erase(keys);
        if (i > 0 && follow[i - 1]) tracked_[i - 1]->before_erase(keys);
      });
      removed = graph_->erase_vertices(live).edges_removed;
      each_slot(seconds, [&](std::size_t i) {
        if (i == 0) effects[0] = counter_->after_erase(keys);
        if (i > 0 && follow[i - 1]) effects[i] = tracked_[i - 1]->after_erase(keys);
      });
    } else {
      removed =
          graph_->erase_vertices(std::vector<vertex_t>(live.begin(), live.end())).edges_removed;
      recount(seconds[0], effects[0]);
    }
    recompute_unfollowed(follow, seconds, effects);
    return outcome(removed, seconds, effects, t0);
  }

  BatchOutcome insert_vertices(std::span<const vertex_t> ids) override {
    require_graph();
    const auto t0 = Clock::now();
    std::uint64_t bound = graph_->num_vertices();
    std::vector<vertex_t> revive;  // erased ids that come back
    for (vertex_t v : ids) {
      bound = std::max<std::uint64_t>(bound, std::uint64_t{v} + 1);
      if (v < erased_.size() && erased_[v]) revive.push_back(v);
    }
    std::sort(revive.begin(), revive.end());
    revive.erase(std::unique(revive.begin(), revive.end()), revive.end());
    grow_vertices_to(bound);
    if (!revive.empty()) {
      // The graphs hand out freed ids in their own order: take them all back, erase again the
      // ones not asked for (isolated: no edge moves).
      std::vector<vertex_t> again = graph_->insert_vertices(graph_->num_free_ids());
      std::erase_if(
          again, [&](vertex_t v) { return std::binary_search(revive.begin(), revive.end(), v); });
      if (!again.empty()) graph_->erase_vertices(again);
      for (vertex_t v : revive) erased_[v] = 0;
    }
    std::vector<double> seconds(tracked_.size() + 1, 0.0);
    std::vector<BatchEffect> effects(tracked_.size() + 1);
    // Isolated vertices change no result but a traversal's from a source that comes back; the
    // others see an insertion of no edge (their arrays grow to the new range).
    std::vector<bool> follow = followers(revive);
    if constexpr (ObservableGraph<Graph>) {
      const std::vector<std::uint64_t> none;
      each_slot(seconds, [&](std::size_t i) {
        if (i == 0) effects[0] = counter_->after_insert(none);
        if (i > 0 && follow[i - 1]) effects[i] = tracked_[i - 1]->after_insert(none);
      });
    } else {
      recount(seconds[0], effects[0]);
      follow.assign(follow.size(), false);
    }
    recompute_unfollowed(follow, seconds, effects);
    return outcome(0, seconds, effects, t0);
  }

  bool is_live(vertex_t v) const override {
    return graph_ && v < graph_->num_vertices() && !(v < erased_.size() && erased_[v]);
  }

  std::uint64_t recount_triangles(std::vector<std::uint64_t>* per_vertex) override {
    require_graph();
    if (per_vertex) {
      auto c = count_triangles_per_vertex(*graph_);
      *per_vertex = std::move(c.per_vertex);
      return c.total;
    }
    return count_triangles(*graph_);
  }

  EdgeList export_edges() override {
    require_graph();
    return graph_->export_coo();
  }
  std::uint64_t num_vertices() const override { return graph_ ? graph_->num_vertices() : 0; }
  std::uint64_t num_edges() const override { return graph_ ? graph_->num_edges() : 0; }

 private:
  using Clock = std::chrono::steady_clock;
  static double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
  }
  /// Batches may come before any build: they start from an empty graph.
  void require_graph() {
    if (!graph_) {
      graph_ = make_graph_();
      counter_ = std::make_unique<Counter>(*graph_);
      BatchOutcome ignored;
      start_tracking(ignored);
    }
  }
  /// Runs each tracked algorithm's static computation on the graph as it is (timed into `out`).
  void start_tracking(BatchOutcome& out) {
    tracked_.clear();
    for (const AlgorithmSpec& spec : specs_) {
      const auto t0 = Clock::now();
      tracked_.push_back(make_tracked_(spec, *graph_));
      out.algorithms.push_back(
          {.kind = spec.kind, .seconds = seconds_since(t0), .summary = tracked_.back()->summary()});
    }
  }
  /// Slot 0 (the counter) and each tracked result in turn, each one's time into seconds[slot].
  template <class F>
  void each_slot(std::vector<double>& seconds, F&& f) {
    for (std::size_t i = 0; i <= tracked_.size(); ++i) {
      const auto a0 = Clock::now();
      f(i);
      seconds[i] += seconds_since(a0);
    }
  }
  /// Per tracked result: whether it follows a vertex batch on `ids` by its update. A bfs or
  /// sssp result whose source is among them is recomputed (its source leaves or comes back).
  std::vector<bool> followers(const std::vector<vertex_t>& ids) const {
    std::vector<bool> follow(tracked_.size());
    for (std::size_t i = 0; i < tracked_.size(); ++i) {
      const AlgorithmSpec& s = specs_[i];
      const bool has_source = needs_source(s.kind);
      follow[i] = tracked_[i]->follows_vertex_erasure() &&
                  !(has_source && std::binary_search(ids.begin(), ids.end(), s.source));
    }
    return follow;
  }
  /// The counter counts the graph again (a graph without a canonical layer).
  void recount(double& seconds, BatchEffect& effect) {
    const auto a0 = Clock::now();
    const std::uint64_t before = counter_->total();
    counter_ = std::make_unique<Counter>(*graph_);
    const std::uint64_t after = counter_->total();
    effect = {before > after ? before - after : after - before, true};
    seconds += seconds_since(a0);
  }
  /// Each tracked result not in `follow` computed again on the graph as it is now.
  void recompute_unfollowed(const std::vector<bool>& follow, std::vector<double>& seconds,
                            std::vector<BatchEffect>& effects) {
    for (std::size_t i = 0; i < tracked_.size(); ++i) {
      if (follow[i]) continue;
      const auto a0 = Clock::now();
      const std::vector<double> before = tracked_[i]->values();
      tracked_[i] = make_tracked_(specs_[i], *graph_);
      effects[i + 1] = {count_changed(before, tracked_[i]->values()), true};
      seconds[i + 1] += seconds_since(a0);
    }
  }
  void grow_vertices_to(std::uint64_t bound) {
    if (bound <= graph_->num_vertices()) return;
    if constexpr (requires(Graph & g) { g.ensure_vertices(bound); }) {
      graph_->ensure_vertices(bound);
    } else if constexpr (requires(Graph & g) { g.grow_vertices(bound); }) {
      graph_->grow_vertices(bound);
    } else {
      EdgeList empty;  // the graphs' EdgeList overloads grow the range to num_vertices
      empty.num_vertices = bound;
      empty.symmetric = true;
      (void)apply(empty, true);
    }
  }
  /// A weighted insertion: entries of absent edges are inserted; a present edge whose weight the
  /// entry lowers leaves and comes back with it (every result sees an erase and an insertion);
  /// other entries change nothing (the smaller weight stays).
  BatchOutcome insert_weighted(const EdgeList& batch) requires WeightQueryGraph<Graph> {
    EdgeList fresh, lowered;
    for (EdgeList* e : {&fresh, &lowered}) {
      e->num_vertices = batch.num_vertices;
      e->symmetric = batch.symmetric;
    }
    grow_id_range(batch);
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const auto old = graph_->edge_weight(batch.src[i], batch.dst[i]);
      EdgeList* to = !old ? &fresh : batch.weight[i] < *old ? &lowered : nullptr;
      if (!to) continue;
      to->src.push_back(batch.src[i]);
      to->dst.push_back(batch.dst[i]);
      to->weight.push_back(batch.weight[i]);
    }
    if (lowered.size() == 0) return apply(fresh, true);
    BatchOutcome out = apply(lowered, false);
    fresh.src.insert(fresh.src.end(), lowered.src.begin(), lowered.src.end());
    fresh.dst.insert(fresh.dst.end(), lowered.dst.begin(), lowered.dst.end());
    fresh.weight.insert(fresh.weight.end(), lowered.weight.begin(), lowered.weight.end());
    const BatchOutcome in = apply(fresh, true);
    out.edges_changed = in.edges_changed - out.edges_changed;
    out.triangles = in.triangles;
    out.seconds += in.seconds;
    for (std::size_t i = 0; i < out.algorithms.size() && i < in.algorithms.size(); ++i) {
      AlgorithmOutcome& a = out.algorithms[i];
      a.seconds += in.algorithms[i].seconds;
      a.changed += in.algorithms[i].changed;
      a.recomputed = a.recomputed || in.algorithms[i].recomputed;
      a.summary = in.algorithms[i].summary;
    }
    return out;
  }
  BatchOutcome apply(const EdgeList& batch, bool insert) {
    require_graph();
    const auto t0 = Clock::now();
    grow_id_range(batch);
    if constexpr (ObservableGraph<Graph>) {
      if (!tracked_.empty()) return apply_observed(batch, insert, t0);
    } else if constexpr (DeviceObservableGraph<Graph, Counter>) {
      if (!tracked_.empty()) {
        std::vector<double> seconds(tracked_.size() + 1, 0.0);
        std::vector<BatchEffect> effects(tracked_.size() + 1);
        const UpdateResult update =
            apply_tracked_gpu(*graph_, *counter_, batch, insert,
                              std::span<const std::unique_ptr<TrackedAlgorithm>>(tracked_),
                              std::span<double>(seconds), std::span<BatchEffect>(effects));
        return outcome(update, seconds, effects, t0);
      }
    }
    const auto r = insert ? counter_->insert_edges(batch) : counter_->erase_edges(batch);
    return {r.update.applied, r.total, seconds_since(t0), {}};
  }
  /// One graph update, then the count and each tracked result follow it (per-algorithm times;
  /// the outcome's seconds cover the whole batch).
  BatchOutcome apply_observed(const EdgeList& batch, bool insert,
                              Clock::time_point t0) requires ObservableGraph<Graph> {
    std::vector<double> seconds(tracked_.size() + 1, 0.0);
    std::vector<BatchEffect> effects(tracked_.size() + 1);
    // Slot 0 is the triangle counter, then the tracked results in order.
    const auto each = [&](auto&& f) {
      for (std::size_t i = 0; i <= tracked_.size(); ++i) {
        const auto a0 = Clock::now();
        f(i);
        seconds[i] += seconds_since(a0);
      }
    };
    std::vector<std::uint64_t> keys;
    UpdateResult update;
    if (insert) {
      update = insert_listing_added(*graph_, batch, keys).update;
      each([&](std::size_t i) {
        effects[i] = i ? tracked_[i - 1]->after_insert(keys) : counter_->after_insert(keys);
      });
    } else {
      update = erase_listing_removed(*graph_, batch, keys, [&](std::span<const std::uint64_t> k) {
                 each([&](std::size_t i) {
                   if (i)
                     tracked_[i - 1]->before_erase(k);
                   else
                     counter_->before_erase(k);
                 });
               }).update;
      each([&](std::size_t i) {
        effects[i] = i ? tracked_[i - 1]->after_erase(keys) : counter_->after_erase(keys);
      });
    }
    return outcome(update, seconds, effects, t0);
  }
  /// The outcome of one observed batch: slot 0 of seconds / effects is the counter, then the
  /// tracked results in order.
  BatchOutcome outcome(const UpdateResult& update, const std::vector<double>& seconds,
                       const std::vector<BatchEffect>& effects, Clock::time_point t0) {
    return outcome(update.applied, seconds, effects, t0);
  }
  BatchOutcome outcome(std::uint64_t edges_changed, const std::vector<double>& seconds,
                       const std::vector<BatchEffect>& effects, Clock::time_point t0) {
    BatchOutcome out{edges_changed, counter_->total(), 0, {}};
    if (tracked_.empty()) {  // the count alone: no per-algorithm outcomes (as apply's)
      out.seconds = seconds_since(t0);
      return out;
    }
    out.algorithms.push_back({.kind = AlgorithmKind::tc,
                              .seconds = seconds[0],
                              .changed = effects[0].changed,
                              .recomputed = effects[0].recomputed,
                              .summary = static_cast<double>(counter_->total())});
    for (std::size_t i = 0; i < tracked_.size(); ++i) {
      out.algorithms.push_back({.kind = specs_[i].kind,
                                .seconds = seconds[i + 1],
                                .changed = effects[i + 1].changed,
                                .recomputed = effects[i + 1].recomputed,
                                .summary = tracked_[i]->summary()});
    }
    out.seconds = seconds_since(t0);
    return out;
  }
  void grow_id_range(const EdgeList& batch) {
    if constexpr (requires(Graph & g, std::uint64_t n) { g.ensure_vertices(n); }) {
      if (options_.grow_id_range) graph_->ensure_vertices(batch_id_range(batch));
    }
  }

  GraphBackendOptions options_;
  std::function<std::unique_ptr<Graph>()> make_graph_;
  MakePipeline make_pipeline_;
  MakeTracked make_tracked_;
  MakePreload make_preload_;
  std::function<std::unique_ptr<Graph>()> make_weighted_graph_;
  std::vector<std::uint8_t> erased_;  ///< ids erased by erase_vertices (1), since the build
  std::unique_ptr<GraphPreload<Graph>> preload_;  ///< the file read for the next build
  std::vector<AlgorithmSpec> specs_;  ///< tracked besides the count, in the order asked for
  std::unique_ptr<Graph> graph_;
  std::unique_ptr<Counter> counter_;
  std::vector<std::unique_ptr<TrackedAlgorithm>> tracked_;  ///< parallel to specs_
};

}  // namespace wg::cli
