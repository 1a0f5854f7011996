#pragma once
// wg.Graph's C++ side: the CPU dynamic graph (graph/cpu) with the dynamic results that follow
// it (wg.Dynamic), one batch at a time.
//
// Batches. insert_edges first grows the id range to the batch's largest id + 1 (as the GPU
// graphs do, and as networkx adds nodes), so every inserted edge is applied; erase_edges leaves
// the range alone. Every batch goes through one DynamicResults set (algorithms/dynamic_frame.hpp):
// the graph applies it once and every tracked result follows it; each result then records the
// batch (BatchRecord). build() replaces the graph and is refused while results are tracked
// (they would answer for the old graph).
//
// Threads. Calls come with the GIL released: a mutex makes them one at a time per graph (the
// graph, like the library's, is not safe for concurrent calls).
//
// Memory. Growing the id range is checked first against the memory this process may use
// (datasets::memory_budget_bytes) at kBytesPerId per id: a range that would not fit is a
// wg::CapacityError (MemoryError in Python), never a process killed for memory.
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include <warpgraph/algorithms/dynamic_frame.hpp>
#include <warpgraph/algorithms/registry.hpp>
#include <warpgraph/graph/cpu/dynamic_graph.hpp>

namespace wg::python {

/// Bytes per vertex id the range check assumes: the graph's arrays and a few per-vertex results.
inline constexpr std::uint64_t kBytesPerId = 64;

/// What one batch did, as a tracked result records it.
struct BatchRecord {
  std::uint64_t batch = 0;    ///< the graph's batch number, from 1
  std::string kind;           ///< "insert", "erase" or "erase_vertices"
  std::uint64_t applied = 0;  ///< edges added / removed (vertices erased)
  std::uint64_t changed = 0;  ///< vertices whose value moved
  bool recomputed = false;    ///< answered by the static computation
  double summary = 0;         ///< the entry's stream number after the batch
  double seconds = 0;         ///< the whole batch: graph update and every result's part
};

/// One dynamic result of a registered algorithm on the graph, type-erased (algorithms.cpp makes
/// one per entry): the EdgeBatchObserver calls, its values and fields, its statistics.
class Tracked {
 public:
  virtual ~Tracked() = default;
  virtual const char* name() const = 0;
  virtual std::vector<double> values() const = 0;
  virtual std::vector<SummaryField> fields() const = 0;
  virtual double summary() const = 0;
  virtual DynamicStats statistics() const = 0;
  virtual void require_current() const = 0;
  virtual BatchEffect after_insert(std::span<const std::uint64_t> keys) = 0;
  virtual void before_erase(std::span<const std::uint64_t> keys) = 0;
  virtual BatchEffect after_erase(std::span<const std::uint64_t> keys) = 0;
  std::vector<BatchRecord> history;
};

class Graph {
 public:
  Graph(bool directed, bool weighted, unsigned threads);
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  cpu::DynamicGraph& graph() noexcept { return graph_; }
  std::mutex& mutex() noexcept { return mutex_; }

  UpdateResult build(const EdgeList& edges);
  UpdateResult insert_edges(const EdgeList& batch);
  UpdateResult erase_edges(const EdgeList& batch);
  std::vector<vertex_t> insert_vertices(std::uint64_t count);
  VertexEraseResult erase_vertices(std::span<const vertex_t> ids);
  /// Throws wg::CapacityError when an id range of `bound` would not fit (header comment).
  void check_id_range(std::uint64_t bound) const;
  /// Grows the id range to `bound` after that check.
  void ensure_vertices(std::uint64_t bound);

  /// Starts following batches with `result` (made on graph()); returns it.
  Tracked& track(std::unique_ptr<Tracked> result);
  void untrack(const Tracked& result);
  std::size_t tracked() const noexcept { return tracked_.size(); }
  std::uint64_t batches() const noexcept { return batches_; }

 private:
  /// DynamicResults' element: forwards the observer calls to a Tracked it owns.
  struct Follower {
    Follower(cpu::DynamicGraph&, std::unique_ptr<Tracked> t) : t(std::move(t)) {}
    void require_current() const { t->require_current(); }
    BatchEffect after_insert(std::span<const std::uint64_t> k) { return t->after_insert(k); }
    void before_erase(std::span<const std::uint64_t> k) { t->before_erase(k); }
    BatchEffect after_erase(std::span<const std::uint64_t> k) { return t->after_erase(k); }
    std::unique_ptr<Tracked> t;
  };
  template <class Update>
  void record(const char* kind, std::uint64_t applied, const DynamicResultsUpdate<Update>& r,
              double seconds);

  cpu::DynamicGraph graph_;
  DynamicResults<cpu::DynamicGraph> results_{graph_};
  std::vector<Follower*> tracked_;  ///< in track order: the order of a batch's effects
  std::uint64_t batches_ = 0;
  std::mutex mutex_;
};

}  // namespace wg::python
