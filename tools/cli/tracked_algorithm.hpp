#pragma once
// The results `warpgraph stream --algo tc,bfs,cc,pagerank,kcore,sssp` keeps up to date: each is a
// TrackedAlgorithm, a dynamic algorithm of algorithms/ behind one virtual interface, following
// the batches the backend applies to its one graph (the EdgeBatchObserver protocol of
// algorithms/dynamic_update.hpp), timed per batch, and checked against the Boost.Graph reference
// by --verify.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <warpgraph/algorithms/dynamic_update.hpp>
#include <warpgraph/algorithms/registry.hpp>
#include <warpgraph/algorithms/tc/tc_entry.hpp>
#include <warpgraph/graph/edge_list.hpp>

namespace wg::gpu {
struct ChangedEdges;  // algorithms/gpu_dynamic_update.cuh
}

namespace wg::cli {

/// The result every graph backend keeps itself, as the running count of the batches it applies
/// (GraphBackend; its entry is kept_by_backends): `stream` takes its names and its reference
/// check from this entry, not from a TrackedAlgorithm.
using BackendCount = TcEntry;

/// An algorithm that `stream --algo` can keep, by its --algo name: the built-in ones (named
/// below) and every registered one (algorithms/registry.hpp), whose names come from their entries.
struct AlgorithmKind {
  const char* name = BackendCount::name;
  friend bool operator==(const AlgorithmKind& a, const AlgorithmKind& b) {
    return std::string_view(a.name) == std::string_view(b.name);
  }
  static const AlgorithmKind tc, bfs, cc, pagerank, kcore;
};
inline const AlgorithmKind AlgorithmKind::tc{BackendCount::name};
inline const AlgorithmKind AlgorithmKind::bfs{"bfs"};
inline const AlgorithmKind AlgorithmKind::cc{"cc"};
inline const AlgorithmKind AlgorithmKind::pagerank{"pagerank"};
inline const AlgorithmKind AlgorithmKind::kcore{"kcore"};

/// "tc", "bfs", ... (the --algo names).
inline const char* algorithm_name(AlgorithmKind kind) {
  return kind.name;
}
/// Every --algo name, in order: the built-in ones, then the registered ones.
std::vector<AlgorithmKind> tracked_kinds();
/// The names of tracked_kinds() as "tc, bfs, ...".
std::string tracked_names();
/// What `stream` calls a result's summary (TrackedAlgorithm::summary): its JSON / CSV key
/// ("summary_name") and its label in the text output.
struct SummaryNames {
  const char* key;
  const char* label;
};
SummaryNames summary_names(AlgorithmKind kind);
/// How `stream -o` writes a result's values: its column's name and what the values are.
struct ValueColumn {
  const char* name;
  PerVertex kind = PerVertex::number;
};
ValueColumn value_column(AlgorithmKind kind);
/// Whether the result is measured from --source (the registered entries that need one).
bool needs_source(AlgorithmKind kind);
/// Whether the result reads the stream's edge weights (the registered entries that read them).
bool reads_weights(AlgorithmKind kind);

struct AlgorithmSpec {
  AlgorithmKind kind = AlgorithmKind::tc;
  vertex_t source = 0;  ///< where needs_source(kind)
};

/// Parses a comma list of --algo names (each at most once, in the given order). Throws
/// UsageError naming an unknown or repeated name, or an empty list.
std::vector<AlgorithmSpec> parse_algorithms(const std::string& list, vertex_t source);

/// What one algorithm did with one batch.
struct AlgorithmOutcome {
  AlgorithmKind kind = AlgorithmKind::tc;
  double seconds = 0;         ///< its update (before_erase + after_erase, or after_insert)
  std::uint64_t changed = 0;  ///< BatchEffect::changed (tc: triangles created or destroyed)
  bool recomputed = false;
  double summary = 0;  ///< see TrackedAlgorithm::summary
};

/// One maintained result, whatever the graph.
class TrackedAlgorithm {
 public:
  virtual ~TrackedAlgorithm() = default;
  virtual AlgorithmKind kind() const = 0;
  virtual BatchEffect after_insert(std::span<const std::uint64_t> added) = 0;
  virtual void before_erase(std::span<const std::uint64_t> removed) = 0;
  virtual BatchEffect after_erase(std::span<const std::uint64_t> removed) = 0;
  /// True when a vertex erasure may be followed as before_erase / after_erase of the erased
  /// vertices' edges (the dynamic class has erase_vertices, which is those calls around the
  /// graph's erase); false: the result is recomputed after a vertex batch.
  virtual bool follows_vertex_erasure() const { return false; }
  /// The same calls with the edges on the device (the gpu backend: the GpuEdgeBatchObserver
  /// protocol of algorithms/gpu_dynamic_update.cuh). A result of a host graph does not take
  /// them: the defaults throw wg::Error.
  virtual BatchEffect after_insert_device(const gpu::ChangedEdges& added);
  virtual void before_erase_device(const gpu::ChangedEdges& removed);
  virtual BatchEffect after_erase_device(const gpu::ChangedEdges& removed);
  /// One number per vertex id (bfs: level, -1 unreached; cc: component = smallest id; pagerank:
  /// rank; kcore: core number; sssp: distance, +inf unreached; a registered one: its entry's
  /// values); empty for tc.
  virtual std::vector<double> values() const = 0;
  /// The result in one number: tc: triangles; bfs and sssp: vertices reached; cc: components;
  /// pagerank: iterations of the last update; kcore: the largest core number; a registered one:
  /// its entry's stream_summary.
  virtual double summary() const = 0;
};

/// What every adapter of a dynamic class `A` to TrackedAlgorithm holds: the class, its kind, and
/// `Values` and `Summary`, which read its result (values(a), summary(a)).
template <class A, class Values, class Summary>
class TrackedAdapter : public TrackedAlgorithm {
 public:
  TrackedAdapter(AlgorithmKind kind, std::unique_ptr<A> algorithm, Values values, Summary summary)
      : kind_(kind), a_(std::move(algorithm)), values_(values), summary_(summary) {}
  AlgorithmKind kind() const override { return kind_; }
  std::vector<double> values() const override { return values_(*a_); }
  double summary() const override { return summary_(*a_); }

 protected:
  AlgorithmKind kind_;
  std::unique_ptr<A> a_;
  Values values_;
  Summary summary_;
};

/// Adapts any dynamic class with the EdgeBatchObserver calls.
template <class A, class Values, class Summary>
class TrackedObserver final : public TrackedAdapter<A, Values, Summary> {
 public:
  using TrackedAdapter<A, Values, Summary>::TrackedAdapter;
  BatchEffect after_insert(std::span<const std::uint64_t> added) override {
    return this->a_->after_insert(added);
  }
  void before_erase(std::span<const std::uint64_t> removed) override {
    this->a_->before_erase(removed);
  }
  BatchEffect after_erase(std::span<const std::uint64_t> removed) override {
    return this->a_->after_erase(removed);
  }
  bool follows_vertex_erasure() const override {
    return requires(A & a, std::span<const vertex_t> ids) {
      a.erase_vertices(ids);
    };
  }
};

template <class A, class Values, class Summary>
std::unique_ptr<TrackedAlgorithm> make_tracked(AlgorithmKind kind, std::unique_ptr<A> algorithm,
                                               Values values, Summary summary) {
  return std::make_unique<TrackedObserver<A, Values, Summary>>(kind, std::move(algorithm), values,
                                                               summary);
}

/// Throws UsageError "--algo NAME: `why`" (no backend keeps that result).
[[noreturn]] void untracked_algorithm(AlgorithmKind kind, const char* why);

/// The registered algorithm named `spec.kind` among `Entries` (a leading `void` is skipped, so that
/// a list macro of the generated registry expands into the arguments as
/// `<void WG_REGISTERED_CPU(WG_CLI_ENTRY_ARG)>`): its entry's dynamic class on `graph`
/// (make_dynamic), given to `wrap(kind, dynamic, values, summary)` (make_tracked, or the gpu
/// backend's wrapper for device edge lists) with its entry's values and stream summary. When
/// none is named so, untracked_algorithm(kind, `why`). An entry that needs_source searches from
/// spec.source; one that reads_weights reads the graph's (unit_weights where it keeps none).
template <class Entry, class... Entries, class Graph, class Wrap>
std::unique_ptr<TrackedAlgorithm> track_registered(const AlgorithmSpec& spec, Graph& graph,
                                                   Wrap&& wrap, const char* why) {
  const AlgorithmKind kind = spec.kind;
  if constexpr (!std::is_void_v<Entry>) {
    if (kind == AlgorithmKind{Entry::name}) {
      typename Entry::Options options{};  // the stream's graph is undirected
      if constexpr (Entry::needs_source) options.source = spec.source;
      if constexpr (Entry::reads_weights) options.unit_weights = !graph.weighted();
      return wrap(
          kind, Entry::make_dynamic(graph, options),
          [](const auto& a) { return Entry::values(Entry::result(a)); },
          [](const auto& a) { return entry_dynamic_summary<Entry>(a); });
    }
  }
  if constexpr (sizeof...(Entries) > 0)
    return track_registered<Entries...>(spec, graph, wrap, why);
  else
    untracked_algorithm(kind, why);
}
#define WG_CLI_ENTRY_ARG(Entry) , Entry

/// Compares a tracked result with the reference's on `graph` (the backend's exported graph):
/// a registered one within its entry's check_tolerance (per vertex, or in L1 where its check_l1),
/// the backends' count (BackendCount: `tc_total`) with its stream_summary. Returns an empty
/// string when they agree, else one line saying where they differ. `source_live` false: the
/// source of a result that needs one (bfs, sssp) was erased (GraphBackend::erase_vertices), so
/// every vertex must be unreached.
std::string check_against_reference(const AlgorithmSpec& spec, const EdgeList& graph,
                                    const std::vector<double>& values, double tc_total,
                                    bool source_live = true);

}  // namespace wg::cli
