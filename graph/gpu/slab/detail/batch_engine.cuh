#pragma once
// BatchEngine<Adj>: insert_edges / erase_edges of a raw batch on the device (private to
// graph/gpu).
//
// Contract
//  - insert / erase apply one batch (one chunk: batch_chunks.hpp splits larger ones) with the
//    semantics of dynamic_graph.hpp: deduplicated, self-loops dropped, every entry accounted in
//    the UpdateResult, degrees and GraphContext::edges exact on return.
//  - A batch is one fused kernel (batch_kernels.cuh; a filter, or a pack and radix sort, before
//    it for large batches, a last-entry pass for filtered weighted inserts) and one wait, for
//    the counters its last block writes to mapped host memory. Owners left by a pass (out of
//    slabs, or deferred for a table rebuild) run again after SlabPools grew or RebuildPlanner
//    rebuilt their tables.
//  - An insert that cannot get slabs stops with CapacityError after settling its half-done
//    edges (settle_kernels.cuh): each edge is in the graph in full or not at all.
//  - Which path a batch takes follows the GraphOptions tuning fields; the result never depends
//    on it.
#include <chrono>
#include <cstdint>
#include <memory>

#include <warpgraph/graph/gpu/slab/detail/batch_scratch.cuh>
#include <warpgraph/graph/gpu/slab/detail/graph_context.cuh>
#include <warpgraph/graph/gpu/slab/detail/kernels/arc_ops.cuh>
#include <warpgraph/graph/gpu/slab/detail/kernels/batch_pass.cuh>
#include <warpgraph/graph/gpu/slab/detail/rebuild_planner.cuh>
#include <warpgraph/graph/gpu/slab/detail/slab_pools.cuh>
#include <warpgraph/graph/gpu/slab/detail/vertex_dictionary.cuh>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

namespace wg::gpu::detail {

template <class Adj>
class BatchEngine {
 public:
  BatchEngine(GraphContext& ctx, VertexDictionary& dict, SlabPools& pools,
              RebuildPlanner<Adj>& planner);

  /// Inserts one chunk. fresh_tables: a small build's insert into the tables it has just sized
  /// for the batch's raw arcs, with zero degrees (BatchPass::fresh_tables).
  UpdateResult insert(DeviceEdges b, bool fresh_tables = false);
  /// Erases one chunk.
  UpdateResult erase(DeviceEdges b);

  /// Largest batch processed in one piece (options.max_chunk, else as free GPU memory allows;
  /// CapacityError when not even 2^16 entries fit).
  std::uint64_t chunk_for(std::uint64_t n) const;

  /// After an insert that stopped with CapacityError and whose half-done edges a settle kernel
  /// (queued by the caller after zero_counters()) is taking out again: clears the rebuild counts
  /// of its `listed` vertices, counts the edges that went in and returns the error to throw,
  /// which says how many.
  CapacityError stopped_batch(const CapacityError& e, std::uint64_t applied, const vertex_t* listed,
                              std::uint64_t num_listed);

  /// Scratch kept between batches (dedup tables and filters, sort keys, retry lists).
  std::uint64_t memory_bytes() const;

 private:
  /// What the passes of one batch have done so far (and the trace prints).
  struct BatchRun {
    BatchCounters c{};  ///< the last pass's counters
    int pass = 0;       ///< passes after the first
    bool resized = false, chained = false;
    int items = 32, tile = 1;
    int rebuild_retries = 0;
    double first_ms = 0, resize_ms = 0, grow_ms = 0;  // traced only
    std::chrono::steady_clock::time_point t0{};
  };

  template <BatchOp kOp>
  UpdateResult apply_batch(DeviceEdges b, bool fresh_tables);
  void chain_rebuild_round(const BatchPass& p, const BatchScratch& sc, BatchRun& run);
  template <BatchOp kOp>
  void retry_passes(const BatchPass& p, const BatchScratch& sc, BatchRun& run);
  void trace_batch(BatchOp op, std::uint64_t n, BatchDedup mode, const BatchRun& run);
  /// How a batch of n entries is deduplicated (GraphOptions' sort and filter fields).
  BatchDedup dedup_mode(BatchOp op, std::uint64_t n, bool with_values) const;
  /// Packs and radix sorts the batch into edge order, for the first pass p.
  void sort_into_edge_order(DeviceEdges b, BatchPass& p, const BatchScratch& sc, bool with_values);
  template <BatchOp kOp>
  void launch_first_pass(const BatchPass& p, BatchDedup mode, bool last, int items, int tile);
  template <BatchOp kOp, bool kLast, int kItems, int kTile, bool kFresh = false,
            slab::FirstRead kFirst = slab::FirstRead::cached, bool kCountOnDevice = false>
  void launch_batch(const BatchPass& p);
  template <BatchOp kOp, bool kLast>
  void launch_batch(const BatchPass& p, int items, int tile);
  template <BatchOp kOp, bool kLast, bool kCountOnDevice = false>
  void launch_one_thread_tasks(const BatchPass& p);
  /// The retry pass after pass `pass` of a batch (first pass p): the owners that pass left
  /// (sc.retry by parity), with no claims, deferrals or placements; the caller sets n.
  BatchPass retry_pass(const BatchPass& p, const BatchScratch& sc, int pass);
  BatchCounters read_batch_counters(unsigned long long sequence);
  bool poll_batch_counters(unsigned long long sequence, BatchCounters& c, bool until_listed);

  std::uint64_t eager_erase_below() const;
  std::uint64_t chain_below() const;
  std::uint64_t filter_from(bool last_wins) const;
  std::uint64_t erase_filter_from() const;
  bool sort_batch(BatchOp op, std::uint64_t n) const;
  int items_per_warp(std::uint64_t n) const;
  int tile_lanes() const;
  DynamicGraphRef<Adj> ref() const { return dict_.template ref<Adj>(pools_.alloc.ref()); }

  GraphContext& ctx_;
  VertexDictionary& dict_;
  SlabPools& pools_;
  RebuildPlanner<Adj>& planner_;
  BatchScratchPool scratch_;
  // Sorted batches: the packed keys (unsorted, then sorted), weighted inserts' values (likewise)
  // and CUB's scratch (grow-only).
  DeviceBuffer<std::uint64_t> sort_keys_;
  DeviceBuffer<std::uint32_t> sort_values_;
  DeviceBuffer<char> sort_temp_;
  struct PinnedFree {
    void operator()(BatchReport* p) const;
  };
  // The counters as the last block of a pass left them (host memory mapped into the device),
  // and its device address.
  std::unique_ptr<BatchReport, PinnedFree> batch_result_;
  BatchReport* batch_report_ = nullptr;
  unsigned long long report_sequence_ = 0;  // of the last pass launched
  /// The last insert batch of 2^19 entries or more: 1 if 1 in 4096 of its entries or more were
  /// duplicates, 0 if fewer, -1 before the first.
  int last_insert_skewed_ = -1;
};

extern template class BatchEngine<SlabSetAdjacency>;
extern template class BatchEngine<SlabMapAdjacency>;

}  // namespace wg::gpu::detail
