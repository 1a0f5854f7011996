#pragma once
// What the `warpgraph` CLI needs from a graph backend, so that `--backend reference|cpu|gpu`
// runs the same subcommands. The dynamic graphs share one adapter (graph_backend.hpp),
// instantiated per graph in backend_cpu.cpp and backend_gpu.cu; the Boost reference has its own
// (backend_reference.cpp). backend.cpp registers them by name.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/graph/edge_list.hpp>

#include "tracked_algorithm.hpp"

namespace wg::cli {

/// What one batch did to the graph and to the triangle count.
struct BatchOutcome {
  std::uint64_t edges_changed = 0;  ///< undirected edges (or arcs) actually added / removed
  std::uint64_t triangles = 0;      ///< exact total after the batch
  double seconds = 0;               ///< update + count, as the backend measured it
  /// The results tracked besides the count (GraphBackend::track), in the order asked for.
  std::vector<AlgorithmOutcome> algorithms;
};

/// A tracked result as it stands (GraphBackend::tracked).
struct TrackedResult {
  AlgorithmSpec spec;
  std::vector<double> values;  ///< TrackedAlgorithm::values
  double summary = 0;          ///< TrackedAlgorithm::summary
};

/// Seconds each stage of a BatchPipeline was busy (GPU: StreamIngest::StageSeconds): the
/// largest, beside the producer's parse time, names the stage that limits the stream.
struct PipelineStages {
  double staging = 0;    ///< host copies into pinned staging (and queueing the copies)
  double copy_wait = 0;  ///< the update waiting for a batch's host-to-device copy
  double update = 0;     ///< updates and counts
};

/// Batches applied through a pipeline (the gpu backend: staging, copy and update of successive
/// batches overlap). Outcomes come back in submission order through the `done` callback given
/// to GraphBackend::pipeline, possibly on another thread. While a pipeline lives, its backend
/// must not be used otherwise.
class BatchPipeline {
 public:
  using Done = std::function<void(const BatchOutcome&)>;
  virtual ~BatchPipeline() = default;
  /// Queues a batch; `batch` may be reused or freed on return.
  virtual void submit(bool insert, const EdgeList& batch) = 0;
  /// Waits until every batch's outcome was delivered; rethrows the first failure.
  virtual void drain() = 0;
  virtual PipelineStages stages() const = 0;
};

class GraphBackend {
 public:
  virtual ~GraphBackend() = default;
  virtual std::string name() const = 0;
  /// Replaces the graph by the simple graph of `edges` (dedup, no self-loops) and counts its
  /// triangles. `edges.symmetric` says whether it is undirected; TC needs undirected.
  virtual BatchOutcome build(const EdgeList& edges) = 0;
  /// Applies a batch incrementally (the count is updated from the batch, not recounted). On a
  /// graph that keeps weights an insertion of a present edge keeps the smaller of its weight and
  /// the entry's (the readers' duplicate rule: shortest paths are those of every edge inserted).
  virtual BatchOutcome insert_edges(const EdgeList& batch) = 0;
  virtual BatchOutcome erase_edges(const EdgeList& batch) = 0;
  /// Vertex batches (update files' "+v u" / "-v u"). insert_vertices: each id becomes a live,
  /// isolated vertex if it is not one (the id range grows to hold it; an erased id comes back).
  /// erase_vertices: the id range grows to hold every id (as for edge batches), every edge at
  /// each id goes and the id stops being a vertex (later edge insertions naming it are ignored,
  /// as the graphs ignore entries naming erased vertices); ids erased before are ignored. The count
  /// and every tracked result follow (by their updates where they have one, else recomputed:
  /// AlgorithmOutcome::recomputed). Defaults throw wg::Error.
  virtual BatchOutcome insert_vertices(std::span<const vertex_t> ids);
  virtual BatchOutcome erase_vertices(std::span<const vertex_t> ids);
  /// True when v is below the id range and not erased by erase_vertices (the checks use it: a
  /// bfs or sssp result whose source was erased reaches nothing).
  virtual bool is_live(vertex_t v) const { return v < num_vertices(); }
  /// True when build() keeps the weights of a weighted edge list (and weighted insertions keep
  /// theirs, see insert_edges); false: the graph is unweighted whatever the list holds.
  virtual bool keeps_weights() const { return false; }
  /// Full static recount of the current graph (for --verify), total and per vertex.
  virtual std::uint64_t recount_triangles(std::vector<std::uint64_t>* per_vertex = nullptr) = 0;
  /// The current graph as an undirected edge list (u < v), sorted.
  virtual EdgeList export_edges() = 0;
  virtual std::uint64_t num_vertices() const = 0;
  virtual std::uint64_t num_edges() const = 0;
  /// Seconds the backend took to start when it was made (the gpu backend: the CUDA context),
  /// which no build or batch time includes.
  virtual double startup_seconds() const { return 0; }
  /// A consumer for datasets::ReadOptions::on_edges that takes the graph file's edges while it
  /// is parsed (the gpu backend uploads them), or an empty function. The next build() whose
  /// edges are that file's (same entry count) builds from what it took; others ignore it.
  virtual datasets::EdgeChunkFn preload_sink() { return {}; }
  /// A pipeline over this backend's graph (made empty if there is none yet), or nullptr when
  /// the backend applies batches one at a time only (always while results are tracked).
  virtual std::unique_ptr<BatchPipeline> pipeline(BatchPipeline::Done) { return nullptr; }
  /// Keeps these results up to date besides the triangle count, from the next build on
  /// (`stream --algo`; tc in the list is the count itself and adds nothing). Throws UsageError
  /// for an algorithm the backend cannot keep. Each batch's outcome then lists what each did.
  virtual void track(const std::vector<AlgorithmSpec>& specs);
  /// The tracked results now (not tc), in the order asked for.
  virtual std::vector<TrackedResult> tracked() const { return {}; }
};

/// Factories of the backends. backend_cpu.cpp / backend_gpu.cu are compiled only when their
/// graph library exists (tools/cli/CMakeLists.txt defines WG_CLI_HAVE_CPU / WG_CLI_HAVE_GPU).
std::unique_ptr<GraphBackend> make_reference_backend();
/// `threads`: the cpu backend's worker threads (0 = all cores; the CLI's --threads).
std::unique_ptr<GraphBackend> make_cpu_backend(unsigned threads = 0);
/// Worker threads of the cpu backend: WG_CPU_THREADS (1..4096) when set, else 0 = all cores.
/// (Defined only in builds with the cpu backend.)
unsigned threads_from_environment();
/// `adjacency`: "slab" (wg::gpu::DynamicGraph, hash adjacency) or "btree" (wg::gpu::BTreeGraph,
/// sorted adjacency: triangle counts by sorted intersection).
std::unique_ptr<GraphBackend> make_gpu_backend(const std::string& adjacency = "slab");
/// The gpu backend's adjacencies in this build ({"slab"} or {"slab", "btree"}).
std::vector<std::string> gpu_adjacencies();
/// True when a CUDA device is present (false in builds without the GPU backend).
bool gpu_backend_usable();

/// Names of the backends compiled into this build, e.g. {"reference", "cpu", "gpu"}.
std::vector<std::string> available_backends();
/// Names of the backends that make_backend accepts on this machine: the compiled ones, less
/// "gpu" when no CUDA device is present.
std::vector<std::string> usable_backends();
/// True for "reference", "cpu", "gpu" and "auto", whether or not this build has them.
bool is_backend_name(const std::string& name);
/// "auto" picks gpu when a CUDA device is present, else cpu (else reference). Throws wg::Error
/// for an unknown or unavailable name. `adjacency` is the gpu backend's (make_gpu_backend);
/// another backend with an adjacency other than "slab" is an error.
std::unique_ptr<GraphBackend> make_backend(const std::string& name, unsigned cpu_threads = 0,
                                           const std::string& adjacency = "slab");
/// For the commands that build their own GPU graph (bfs, sssp, cc, kcore, pagerank): an on_edges
/// callback for load_graph that copies the file to the device while it is parsed, for their
/// build (gpu_preload.cuh). Empty in builds without the gpu backend.
datasets::EdgeChunkFn gpu_graph_upload_sink();
/// True when `name` ("gpu", or "auto" on a machine with a usable GPU) makes the gpu backend.
bool resolves_to_gpu(const std::string& name);
/// The name "auto" resolves to on this machine, for one-shot commands (tc): gpu when usable,
/// else cpu (else reference).
std::string default_backend();

/// How `stream --backend auto` chooses where no GPU is usable (with one it is always gpu). The
/// cpu backend pays per batch for waking its threads and sorting; the reference (Boost.Graph,
/// one thread) pays per edge and per neighbour scan, which is cheap on sparse graphs. The
/// measured basis of the defaults is in tools/cli/README.md ("Backends").
struct AutoBackendRule {
  /// Batches of fewer entries than this go to the reference (stream --auto-min-batch).
  std::uint64_t cpu_min_batch = 4096;
  /// Graphs of lower average degree (2 x entries / vertices of the input) go to the reference
  /// (stream --auto-min-degree).
  double cpu_min_degree = 16;
};
/// The backend "auto" means for streaming a graph of `vertices` ids and `entries` entries in
/// batches of `batch_size` entries.
std::string auto_stream_backend(const AutoBackendRule& rule, std::uint64_t vertices,
                                std::uint64_t entries, std::uint64_t batch_size);

}  // namespace wg::cli
