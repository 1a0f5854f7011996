#pragma once
// wg::gpu::StreamIngest<Graph>: batches of edge updates from host memory into a GPU graph, as a
// pipeline. While the graph applies batch k, batch k+1 is copied to the device and batch k+2 is
// staged, so a host batch costs what the slowest of the three stages costs, not their sum.
//
//   wg::gpu::StreamIngest<wg::gpu::Graph> ingest(g, {.staging_entries = 1 << 22});
//   std::future<wg::UpdateResult> r = ingest.submit(wg::gpu::UpdateKind::insert, batch);
//   batch.src.clear();                 // allowed: submit() has copied a pageable batch
//   ingest.drain();                    // every batch applied; r.get() is ready
//
// Design
//  - Stages. (1) submit() runs on the caller's thread: it copies a pageable batch into a free
//    slot's pinned staging buffer (PinnedBuffer, several host threads for large chunks) and
//    queues the slot's host-to-device copy on the ingest's own copy stream, with the insert
//    batch's check kernel (id range, weights to uint32) behind it and an event after both.
//    (2) One apply thread takes the chunks in submission order, makes the graph's stream wait
//    for the chunk's event (cudaStreamWaitEvent: no device-wide synchronisation), grows the
//    vertex range to the chunk's ids (as the graph's EdgeList overloads do) and applies it
//    (the graph's DeviceEdges calls, or the `apply` hook), then records the slot's "consumed"
//    event on the graph's stream, which the next copy into that slot waits for.
//  - Slots. StreamIngestOptions::slots (default 3: one applying, one copied, one staging) each
//    hold staging_entries entries in pinned host memory and on the device. A batch larger than
//    a slot is split into chunks of staging_entries entries (graph/gpu/batch_chunks.hpp's
//    semantics: each chunk is a batch of its own, so an edge repeated in a later chunk counts as
//    `ignored`, not `duplicates`; set the graph's max_chunk to staging_entries to compare with
//    the synchronous path). submit() blocks while every slot is busy (back-pressure).
//  - Hand-offs. The caller waiting for a slot, the apply thread waiting for a chunk and the copy
//    threads waiting for work poll for wait_spin_us before they sleep, and are woken only when
//    they sleep: with small chunks a sleeping thread's wake-up, once or more per chunk, would
//    otherwise sit on the critical path between two updates. Nothing on the way waits for the
//    whole device: the apply thread waits for its chunk's event, the copy stream for the slot's
//    "consumed" event, and the copy stream is a non-blocking stream (no implicit ordering with
//    the legacy default stream a graph may use).
//  - Results: a std::future per batch, fulfilled in submission order after the batch's last
//    chunk and its on_batch callback. Futures because they carry a failed batch's exception to
//    the caller (CapacityError, InvalidArgument for a bad weight) and let a caller that keeps
//    a window of batches in flight wait for the oldest one; a callback alone could not throw to
//    anyone. The on_batch callback (optional) runs on the apply thread, in order, after each
//    batch: the hook for dynamic algorithms (the graph's stream already orders their kernels
//    after the batch); the `apply` hook replaces the update itself, e.g. by an
//    IncrementalTriangleCounter's insert_edges/erase_edges, which count while they update.
//  - Host memory. Pageable batches (submit): the caller may reuse or free its memory as soon as
//    submit() returns. Caller-pinned batches (submit_pinned: memory from cudaHostAlloc,
//    cudaHostRegister or PinnedBuffer) are copied to the device straight from the caller's
//    memory, with no staging copy: it must stay valid and unchanged until the batch's future is
//    ready.
//  - The graph. Between the first submit() and drain() the graph belongs to the ingest's apply
//    thread: the caller must not call the graph (nor read its stream's results) until drain()
//    returns; the callbacks may, since they run on that thread. Not thread-safe: one caller
//    thread submits, and the callbacks must not call the ingest (submit() from the apply
//    thread would wait for a slot that only that thread frees).
//
// Errors: submit() throws InvalidArgument for batches whose src/dst/weight sizes differ and for
// submit_pinned() on memory that is not pinned; CapacityError when a slot's memory cannot be
// allocated (at construction). A batch that fails while applied (CapacityError from the graph,
// InvalidArgument for a weight outside uint32, a CudaError) stores its exception in its future;
// the graph keeps the basic guarantee (dynamic_graph.hpp, "Errors"), its earlier chunks stay
// applied, and every later batch is not applied: its future throws wg::Error naming the failure.
// drain() rethrows the first failure.
//
// Complexity: per batch of n entries, O(n / copy_threads) host time in submit() (pageable) or
// O(1) (pinned), one host-to-device copy of 8 bytes an entry (16 with weights), a check kernel
// for inserts, and the graph's own update; one thread hand-off per chunk.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <future>
#include <memory>

#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/btree_graph.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/gpu/edge_batch.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::gpu {

enum class UpdateKind { insert, erase };

/// A batch in host memory (pointers, not owned). weight: optional, one double per entry
/// (weighted graphs convert them as the EdgeList overloads do). num_vertices: inserts grow the
/// graph's vertex range to it (and to the largest id + 1), as for an EdgeList. offset: unused.
using HostEdges = EdgeSpan;
/// A view of an EdgeList (check_sizes first).
HostEdges host_edges(const EdgeList& e);

struct StreamIngestOptions {
  /// Entries a slot holds; larger batches are split into chunks of this size. Each slot holds
  /// 8 bytes an entry pinned and on the device (weighted graphs: 16 pinned, 20 on the device),
  /// so the default 2^22 costs 32 MiB of each: large enough that a chunk's fixed costs (hand-off,
  /// kernel launches, the graph's wait for its counters) are small beside its copy.
  std::uint64_t staging_entries = std::uint64_t{1} << 22;
  /// Slots (>= 2): 3 lets staging, copy and update each work on a chunk of its own.
  int slots = 3;
  /// Host threads that copy a pageable chunk into pinned staging (>= 1): one thread's memcpy
  /// runs far below a pinned host-to-device copy, so large chunks are copied in parallel.
  int copy_threads = 8;
  /// Chunks smaller than this many entries are staged by the caller's thread alone (starting
  /// threads would cost more than the copy).
  std::uint64_t parallel_copy_from = std::uint64_t{1} << 16;
  /// How long (microseconds) a waiting thread polls before it sleeps: the caller for a free
  /// slot, the apply thread for the next chunk, the copy threads for work and the caller for
  /// them. Waking a sleeping thread costs microseconds on the pipeline's critical path, once or
  /// more per chunk, which small chunks cannot hide; polling keeps a core busy while it lasts.
  /// 0: sleep at once.
  std::uint32_t wait_spin_us = 200;
  /// Time each chunk's host-to-device copies with CUDA events (StageSeconds::h2d): two timing
  /// events per chunk, for benchmarks that break the pipeline down by stage.
  bool time_copies = false;
};

/// What the on_batch callback is told after each batch.
struct IngestedBatch {
  std::uint64_t index = 0;  ///< 0, 1, ... in submission order
  UpdateKind kind = UpdateKind::insert;
  std::uint64_t entries = 0;
  std::uint64_t chunks = 0;
  UpdateResult result;      ///< summed over the batch's chunks
  cudaStream_t stream = 0;  ///< the graph's stream: the batch is applied in its order
};

template <class Graph>
class StreamIngest {
 public:
  /// Applies one chunk on the device (on the graph's stream) and returns what it did.
  using ApplyFn = std::function<UpdateResult(UpdateKind, DeviceEdges)>;
  using BatchFn = std::function<void(const IngestedBatch&)>;

  /// Allocates the slots and starts the apply thread. `graph` must outlive the ingest. apply:
  /// empty for graph.insert_edges / erase_edges (DeviceEdges overloads).
  explicit StreamIngest(Graph& graph, const StreamIngestOptions& options = {}, ApplyFn apply = {},
                        BatchFn on_batch = {});
  /// Waits for every submitted batch (errors stay in their futures), then frees the slots.
  ~StreamIngest();
  StreamIngest(const StreamIngest&) = delete;
  StreamIngest& operator=(const StreamIngest&) = delete;

  /// Queues a batch from pageable (or any) host memory: its memory may be reused on return.
  std::future<UpdateResult> submit(UpdateKind kind, const EdgeList& batch);
  std::future<UpdateResult> submit(UpdateKind kind, HostEdges batch);
  /// Queues a batch from memory the caller pinned: no staging copy; the memory must stay
  /// unchanged until the returned future is ready.
  std::future<UpdateResult> submit_pinned(UpdateKind kind, HostEdges batch);

  /// Waits until every submitted batch is applied and its callback has run; rethrows the first
  /// failure (once). Afterwards the caller may use the graph again.
  void drain();

  std::uint64_t submitted() const noexcept;  ///< batches
  std::uint64_t completed() const noexcept;  ///< batches whose future is ready
  const StreamIngestOptions& options() const noexcept;

  /// Time each stage was busy since construction (seconds): the stage with the largest share
  /// limits the pipeline's rate.
  /// The overlap achieved is (stage + h2d + apply) / wall: 1 when the stages ran one after
  /// another, up to 3 when all three were busy all the time.
  struct StageSeconds {
    double stage = 0;      ///< submit(): waiting excluded, staging copies and copy issue
    double wait_slot = 0;  ///< submit() waiting for a free slot (the later stages limit)
    double apply = 0;      ///< apply thread: the graph's updates and callbacks
    double wait_copy = 0;  ///< apply thread waiting for a chunk's copy (copy or staging limits)
    double h2d = 0;        ///< device time of the host-to-device copies (options.time_copies)
    double wall = 0;       ///< from each first submit() to the drain() that ended it, summed
  };
  StageSeconds stage_seconds() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Instantiated once per store (stream_ingest_impl.cuh): the slab store in stream_ingest.cu, the
// B-tree store in btree/btree_ingest.cu (library wg_btree_graph_gpu).
extern template class StreamIngest<DynamicGraph<SlabSetAdjacency>>;
extern template class StreamIngest<DynamicGraph<SlabMapAdjacency>>;
extern template class StreamIngest<BTreeGraph<false>>;
extern template class StreamIngest<BTreeGraph<true>>;

}  // namespace wg::gpu
