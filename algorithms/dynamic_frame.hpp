#pragma once
// The one frame of every dynamic algorithm (CPU and GPU graphs alike) and the set of dynamic
// results that share one graph.
//
// A dynamic algorithm is a policy: its static computation (recompute), what it does once edges
// were added (on_after_insert), before and after edges go (on_before_erase, on_after_erase), its
// result, and its own fallback rule (each hook returns BatchEffect::recomputed when the static
// computation answered). DynamicFrame<Policy, Graph, Keys> owns the rest, written once:
//  - the batch overloads insert_edges / erase_edges (host EdgeList, and device batches where the
//    policy has a route for them), the mixed step update(erase, insert) and erase_vertices;
//  - the observer calls after_insert / before_erase / after_erase (EdgeBatchObserver,
//    GpuEdgeBatchObserver) for a caller that applies the batch itself (DynamicResults below);
//  - the statistics common to every algorithm (DynamicStats; policies keep their own counters);
//  - the graph change check: every graph counts its changes (version()); the frame remembers the
//    count its result answers for and refuses (StaleResultError) a batch when the graph changed
//    behind its back, instead of answering wrong. recompute() re-synchronises.
// Keys is how the changed edges reach a hook: std::span<const std::uint64_t> of canonical keys
// on the CPU graph (algorithms/dynamic_update.hpp), const gpu::ChangedEdges& on the GPU graphs
// (algorithms/gpu_dynamic_update.cuh, which a GPU policy's header includes before using the
// frame so that its insert_observed / erase_observed are the default routes).
//
// A policy derives from the frame (CRTP), declares its hooks and the frame a friend with
// WG_DYNAMIC_POLICY_HOOKS, and may hide these defaults: on_batch_start(erase) before a batch of its
// own (not inside a mixed step); insert_through / erase_through(batch) to apply a batch by its own
// route (the default: the graph's update with the hooks around it); erase_vertices_through(ids);
// begin_step(erase entries, insert entries) and end_step(erase effect, insert effect) around a
// mixed step (in_step() is true between them: a policy may defer its fallback to the step's end).
// The default mixed step is erase_through then insert_through, its changed the sum of both parts'.
//
// Errors: StaleResultError (a wg::InvalidArgument) from every batch call and before_erase when
// the result is not current(); the policy's and the graph's own errors otherwise. Accessors
// (result(), total(), ...) do not check: a stale result still shows what it last followed, and
// current() tells. Cost: one version read per call. Thread safety: one call at a time, as the
// graph.
#include <concepts>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <warpgraph/algorithms/dynamic_update.hpp>
#include <warpgraph/containers/core/error.hpp>

namespace wg {

/// A dynamic result asked to follow a batch while its graph had changed behind its back (another
/// object or a direct graph call applied a batch it did not see): its answer would be wrong.
class StaleResultError : public InvalidArgument {
 public:
  using InvalidArgument::InvalidArgument;
};

/// The statistics every dynamic algorithm keeps (its own counters come on top): a batch is one
/// insert_edges / erase_edges / update / erase_vertices call, or one observed call (after_insert,
/// after_erase; a GPU batch larger than a chunk is one per chunk).
struct DynamicStats {
  std::uint64_t batches = 0;
  std::uint64_t incremental = 0;  ///< of those, answered by the update
  std::uint64_t recomputed = 0;   ///< of those, answered by the static computation
  void record(bool recomputed_batch) noexcept {
    ++batches;
    ++(recomputed_batch ? recomputed : incremental);
  }
};

/// A CPU policy's tuning with its worker threads defaulted (0) to the graph's threads(), as the
/// policy's static computation would resolve them on every recompute.
template <class Tuning, class Graph>
Tuning with_graph_threads(Tuning tuning, const Graph& graph) {
  if (!tuning.threads) tuning.threads = graph.threads();
  return tuning;
}

/// Declares, inside a policy's class, the three hooks the policy defines for its frame, and makes
/// the frame a friend so that the hooks stay private: every policy states its side of the seam
/// alike. Frame: the policy's DynamicFrame type; Keys: how the changed edges reach the hooks
/// (the frame's Keys).
#define WG_DYNAMIC_POLICY_HOOKS(Frame, Keys) \
  friend Frame;                              \
  BatchEffect on_after_insert(Keys added);   \
  void on_before_erase(Keys removed);        \
  BatchEffect on_after_erase(Keys removed)

template <class Policy, class Graph, class Keys = std::span<const std::uint64_t>>
class DynamicFrame {
 public:
  using graph_type = Graph;

  DynamicUpdate<UpdateResult> insert_edges(const EdgeList& batch) { return single<false>(batch); }
  template <class DeviceBatch>
  requires(!std::convertible_to<DeviceBatch, const EdgeList&>)
      DynamicUpdate<UpdateResult> insert_edges(DeviceBatch batch) {
    return single<false>(batch);
  }
  DynamicUpdate<UpdateResult> erase_edges(const EdgeList& batch) { return single<true>(batch); }
  template <class DeviceBatch>
  requires(!std::convertible_to<DeviceBatch, const EdgeList&>)
      DynamicUpdate<UpdateResult> erase_edges(DeviceBatch batch) {
    return single<true>(batch);
  }
  /// A mixed step: erases `erase`, then inserts `insert`, through the graph, answered once (the
  /// policy's step hooks say how; see the header comment).
  DynamicUpdate<MixedUpdate> update(const EdgeList& erase, const EdgeList& insert) {
    return mixed(erase, insert);
  }
  template <class DeviceBatch>
  requires(!std::convertible_to<DeviceBatch, const EdgeList&>)
      DynamicUpdate<MixedUpdate> update(DeviceBatch erase, DeviceBatch insert) {
    return mixed(erase, insert);
  }
  /// Erases vertices (and their edges) through the graph.
  DynamicUpdate<VertexEraseResult> erase_vertices(std::span<const vertex_t> ids) {
    require_current();
    DynamicUpdate<VertexEraseResult> r = self().erase_vertices_through(ids);
    finish(r.recomputed);
    return r;
  }

  /// The observer calls, for a caller that applies the batch to the graph itself and lets
  /// several results follow it (prefer DynamicResults, which does so for every result at once).
  /// before_erase requires the result to be current (StaleResultError otherwise).
  BatchEffect after_insert(Keys added) {
    const BatchEffect e = self().on_after_insert(added);
    finish(e.recomputed);
    return e;
  }
  void before_erase(Keys removed) {
    require_current();
    self().on_before_erase(removed);
  }
  BatchEffect after_erase(Keys removed) {
    const BatchEffect e = self().on_after_erase(removed);
    finish(e.recomputed);
    return e;
  }

  /// Whether the result answers for the graph as it is (no change behind the object's back).
  bool current() const noexcept { return seen_ == graph_->version(); }
  /// Throws StaleResultError unless current().
  void require_current() const {
    if (!current())
      throw StaleResultError(
          "dynamic result: the graph changed since this result last followed it (a batch was "
          "applied by another object or a direct graph call): apply each batch once through a "
          "DynamicResults set (or every result's own call in turn is wrong), or call recompute()");
  }
  const DynamicStats& statistics() const noexcept { return stats_; }
  void reset_statistics() noexcept { stats_ = {}; }
  Graph& graph() noexcept { return *graph_; }
  const Graph& graph() const noexcept { return *graph_; }

 protected:
  explicit DynamicFrame(Graph& graph) : graph_(&graph), seen_(graph.version()) {}
  /// Marks the result as answering for the graph as it is now (after a static computation).
  void mark_current() noexcept { seen_ = graph_->version(); }
  bool in_step() const noexcept { return in_step_; }

  // ---- the defaults a policy may hide (see the header comment) ------------------------------
  void on_batch_start(bool /*erase*/) {}
  template <class Batch>
  DynamicUpdate<UpdateResult> insert_through(const Batch& batch) {
    Hooks h{self()};
    return insert_observed(*graph_, batch, h);
  }
  template <class Batch>
  DynamicUpdate<UpdateResult> erase_through(const Batch& batch) {
    Hooks h{self()};
    return erase_observed(*graph_, batch, h);
  }
  DynamicUpdate<VertexEraseResult> erase_vertices_through(std::span<const vertex_t> ids) {
    Hooks h{self()};
    return erase_vertices_observed(*graph_, ids, h);
  }
  void begin_step(std::uint64_t /*erase_entries*/, std::uint64_t /*insert_entries*/) {}
  BatchEffect end_step(const BatchEffect& erased, const BatchEffect& inserted) {
    BatchEffect step = erased;
    accumulate(step, inserted);
    return step;
  }

  Graph* graph_;

 private:
  /// The policy's hooks under the observer names, for the graph routes of dynamic_update.hpp
  /// and gpu_dynamic_update.cuh (no version bookkeeping: the frame's call does it once).
  struct Hooks {
    Policy& p;
    BatchEffect after_insert(Keys k) { return p.on_after_insert(k); }
    void before_erase(Keys k) { p.on_before_erase(k); }
    BatchEffect after_erase(Keys k) { return p.on_after_erase(k); }
  };
  Policy& self() noexcept { return static_cast<Policy&>(*this); }

  template <class Batch>
  static std::uint64_t entries(const Batch& b) {
    if constexpr (requires { b.size(); })
      return b.size();
    else
      return b.size;
  }
  void finish(bool recomputed) {
    stats_.record(recomputed);
    mark_current();
  }
  /// One insertion (Erase false) or erasure batch through the policy's route.
  template <bool Erase, class Batch>
  DynamicUpdate<UpdateResult> single(const Batch& batch) {
    require_current();
    self().on_batch_start(Erase);
    DynamicUpdate<UpdateResult> r;
    if constexpr (Erase)
      r = self().erase_through(batch);
    else
      r = self().insert_through(batch);
    finish(r.recomputed);
    return r;
  }
  template <class Batch>
  DynamicUpdate<MixedUpdate> mixed(const Batch& erase, const Batch& insert) {
    require_current();
    self().begin_step(entries(erase), entries(insert));
    DynamicUpdate<UpdateResult> e, i;
    in_step_ = true;
    try {
      e = self().erase_through(erase);
      i = self().insert_through(insert);
    } catch (...) {
      in_step_ = false;
      throw;
    }
    in_step_ = false;
    const BatchEffect step =
        self().end_step(BatchEffect{e.changed, e.recomputed}, BatchEffect{i.changed, i.recomputed});
    DynamicUpdate<MixedUpdate> r;
    r.update = MixedUpdate{.erased = e.update, .inserted = i.update};
    r.changed = step.changed;
    r.recomputed = step.recomputed;
    finish(r.recomputed);
    return r;
  }

  std::uint64_t seen_;
  bool in_step_ = false;
  DynamicStats stats_;
};

/// What one batch applied through a DynamicResults set did: the graph's part, then each tracked
/// result's effect in the order track() added them.
template <class Update>
struct DynamicResultsUpdate {
  Update update;
  std::vector<BatchEffect> effects;
};

/// A set of dynamic results bound to one graph that applies each batch to the graph once and
/// lets every result follow it (the one safe way to keep several results: calling each result's
/// own insert_edges in turn applies the batch once and the later ones see nothing to do, which
/// their graph change check refuses). Results are constructed by track(graph, args...) and owned
/// by the set; a result changed through its own calls leaves the others stale, and the set's
/// next batch throws StaleResultError. Cost: the graph's update once, plus each result's hooks.
template <class Graph, class Keys = std::span<const std::uint64_t>>
class DynamicResults {
 public:
  explicit DynamicResults(Graph& graph) : graph_(&graph) {}

  /// Constructs a result of type A (A(graph, args...)) that follows every later batch.
  template <class A, class... Args>
  A& track(Args&&... args) {
    auto holder = std::make_unique<Holder<A>>(*graph_, std::forward<Args>(args)...);
    A& a = holder->a;
    tracked_.push_back(std::move(holder));
    return a;
  }
  /// Stops following batches with `a` (a result track() returned) and destroys it; false when
  /// the set holds no such result. O(results). For owners whose results come and go (the Python
  /// bindings' wg.Dynamic).
  template <class A>
  bool untrack(const A& a) {
    return std::erase_if(tracked_, [&](const auto& t) { return t->address() == &a; }) > 0;
  }
  std::size_t size() const noexcept { return tracked_.size(); }

  template <class Batch>
  DynamicResultsUpdate<UpdateResult> insert_edges(const Batch& batch) {
    return apply(batch, [&](Fanout& f) { return insert_observed(*graph_, batch, f).update; });
  }
  template <class Batch>
  DynamicResultsUpdate<UpdateResult> erase_edges(const Batch& batch) {
    return apply(batch, [&](Fanout& f) { return erase_observed(*graph_, batch, f).update; });
  }
  /// CPU graphs only (the device view cannot list an erased vertex's edges): the vertices'
  /// edges are followed as an erasure.
  DynamicResultsUpdate<VertexEraseResult> erase_vertices(std::span<const vertex_t> ids) {
    return apply(ids, [&](Fanout& f) { return erase_vertices_observed(*graph_, ids, f).update; });
  }
  Graph& graph() noexcept { return *graph_; }

 private:
  struct Tracked {
    virtual ~Tracked() = default;
    virtual const void* address() const = 0;
    virtual void require_current() const = 0;
    virtual BatchEffect after_insert(Keys k) = 0;
    virtual void before_erase(Keys k) = 0;
    virtual BatchEffect after_erase(Keys k) = 0;
  };
  template <class A>
  struct Holder final : Tracked {
    template <class... Args>
    explicit Holder(Graph& g, Args&&... args) : a(g, std::forward<Args>(args)...) {}
    const void* address() const override { return &a; }
    void require_current() const override {
      if constexpr (requires { a.require_current(); }) a.require_current();
    }
    BatchEffect after_insert(Keys k) override { return a.after_insert(k); }
    void before_erase(Keys k) override { a.before_erase(k); }
    BatchEffect after_erase(Keys k) override { return a.after_erase(k); }
    A a;
  };
  /// Every tracked result as one observer; effects accumulate per result over a batch's calls.
  struct Fanout {
    DynamicResults& set;
    std::vector<BatchEffect>& effects;
    BatchEffect after_insert(Keys k) {
      return each([&](Tracked& t) { return t.after_insert(k); });
    }
    void before_erase(Keys k) {
      for (auto& t : set.tracked_) t->before_erase(k);
    }
    BatchEffect after_erase(Keys k) {
      return each([&](Tracked& t) { return t.after_erase(k); });
    }
    template <class F>
    BatchEffect each(F&& follow) {
      for (std::size_t i = 0; i < set.tracked_.size(); ++i)
        accumulate(effects[i], follow(*set.tracked_[i]));
      return {};
    }
  };
  template <class Batch, class Apply>
  auto apply(const Batch&, Apply&& route) {
    for (auto& t : tracked_) t->require_current();
    std::vector<BatchEffect> effects(tracked_.size());
    Fanout f{*this, effects};
    auto update = route(f);
    return DynamicResultsUpdate<decltype(update)>{std::move(update), std::move(effects)};
  }

  Graph* graph_;
  std::vector<std::unique_ptr<Tracked>> tracked_;
};

}  // namespace wg
