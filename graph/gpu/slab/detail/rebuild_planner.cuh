#pragma once
// RebuildPlanner<Adj>: keeps a graph's chains short (private to graph/gpu).
//
// Contract
//  - A table whose keys plus the arcs waiting for it (VertexDictionary::incoming) would pass
//    GraphOptions::max_load_factor x its base capacity is rebuilt with buckets for
//    rebuild_growth x its keys at load_factor, from the arena of SlabPools: planned, claimed,
//    re-inserted and committed on the device, stream-ordered, with no host round trip
//    (rebuild_tables). A round that finds no arena room or no overflow slabs leaves the old
//    tables as they are (still correct) and says so in its RebuildStatus; after_rebuild grows
//    what was short for the next round.
//  - resize_for plans the rebuilds a sorted (prepared) batch needs before it is inserted;
//    compact re-sizes every table for its degree into one new pool and a fresh allocator.
//  - Statistics go to GraphContext::counts.
#include <cstdint>

#include <warpgraph/graph/gpu/slab/detail/graph_context.cuh>
#include <warpgraph/graph/gpu/slab/detail/kernels/batch_pass.cuh>
#include <warpgraph/graph/gpu/slab/detail/slab_pools.cuh>
#include <warpgraph/graph/gpu/slab/detail/vertex_dictionary.cuh>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

namespace wg::gpu::detail {

template <class Adj>
class RebuildPlanner {
 public:
  RebuildPlanner(GraphContext& ctx, VertexDictionary& dict, SlabPools& pools)
      : ctx_(ctx), dict_(dict), pools_(pools) {}

  /// False while build() inserts into tables sized for the batch: no resize planning, no
  /// deferred arcs.
  bool plan_rebuilds = true;

  /// Rebuilds, stream-ordered and without synchronising, the listed tables (listed[0 ..
  /// *num_listed), *num_listed <= m, on the device) whose keys plus incoming[] pass the max load
  /// factor. `st` (zeroed by the caller) says afterwards what happened; after_rebuild(*st) grows
  /// what was too small. keep_incoming: leave incoming[] of tables not rebuilt for a next round.
  /// chained: m only bounds *num_listed (a round queued before the host knew the count; m <=
  /// kPlanBlockItems), so the grids are sized for the GPU.
  void rebuild_tables(const vertex_t* listed, const unsigned long long* num_listed, std::uint64_t m,
                      RebuildStatus* st, bool keep_incoming, bool chained = false);
  /// Counts a finished rebuild round (stats()) and grows what it found too small, for the next.
  void after_rebuild(const RebuildStatus& st);
  /// incoming[x] = 0 for the n vertices in `listed` (zero between calls): after a rebuild that
  /// was given up, or a batch that stopped before its rebuild cleared them.
  void zero_incoming(const vertex_t* listed, std::uint64_t n);
  /// A rebuild round of the n `listed` tables whose re-inserts found no free slab while the
  /// allocator is at its maximum size: the old tables stay (the round left them as they were),
  /// and the arcs deferred for it go into their chains.
  void give_up_rebuild(const vertex_t* listed, std::uint64_t n);
  /// Rebuilds, with more buckets, the tables this (sorted) batch would fill beyond
  /// max_load_factor, before it is inserted.
  void resize_for(const PreparedBatch& batch);
  /// DynamicGraph::compact.
  void compact();

  /// Max keys per base bucket before a table is rebuilt (0: never).
  double resize_keys_per_bucket() const;
  /// Keys per bucket of a rebuilt table: rebuild_growth x fewer than load_factor's.
  double rebuilt_keys_per_bucket() const;

 private:
  /// The plan of a rebuild (or a compaction) of m listed tables, in one allocation: per table
  /// its new and old bucket counts (zeros at m, for the exclusive scans), then their sums.
  struct PlanArrays {
    DeviceBuffer<std::uint64_t> words;
    std::uint64_t *new_b, *old_b, *new_off, *old_off;
  };
  PlanArrays plan_arrays(std::uint64_t m, const char* what);
  /// new_b -> new_off and old_b -> old_off: exclusive sums (CUB), stream-ordered.
  void scan_plan(const PlanArrays& p, std::uint64_t m, const char* what);
  /// Grid of the re-insert and commit kernels for m listed tables. Their work (old buckets) is
  /// known on the device only: at least enough warps to fill the GPU (a few hubs can hold most
  /// of the buckets), striding; idle warps leave at once.
  unsigned rebuild_grid(std::uint64_t m) const;
  DynamicGraphRef<Adj> ref() const { return dict_.template ref<Adj>(pools_.alloc.ref()); }

  GraphContext& ctx_;
  VertexDictionary& dict_;
  SlabPools& pools_;
};

extern template class RebuildPlanner<SlabSetAdjacency>;
extern template class RebuildPlanner<SlabMapAdjacency>;

}  // namespace wg::gpu::detail
