#pragma once
// wg::gpu::SlabStore<Adjacency>: the slab-hash store of the GPU graph front (graph_front.hpp;
// the semantics, memory and errors of the graph it makes are stated in dynamic_graph.hpp). One
// small slab hash table per vertex, all sharing one slab allocator. Its parts live in detail/:
//   VertexDictionary  ids, handles, degrees, liveness                (vertex_dictionary.cu)
//   SlabPools         base-bucket pools, arena, overflow allocator  (slab_pools.cu)
//   RebuildPlanner    table rebuilds and compaction                 (rebuild_planner.cu)
//   BatchEngine       the fused insert / erase passes of raw batches (batch_engine.cu)
// The store keeps its own raw-batch path (insert_edges / erase_edges of one chunk: one fused
// kernel per pass, store.hpp's optional fast path); prepared batches take the prepared kernels.
#include <cuda_runtime_api.h>

#include <cstdint>

#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/graph/gpu/edge_batch.hpp>
#include <warpgraph/graph/gpu/store.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::gpu {

/// Adjacency policies. Set: unweighted (30 neighbours per 128-byte slab). Map: one 32-bit value
/// per edge (15 neighbours per slab).
template <class Adjacency>
class SlabStore;
struct SlabSetAdjacency {
  using store_type = SlabStore<SlabSetAdjacency>;
  static constexpr bool weighted = false;
  static constexpr unsigned slab_capacity = 30;
};
struct SlabMapAdjacency {
  using store_type = SlabStore<SlabMapAdjacency>;
  static constexpr bool weighted = true;
  static constexpr unsigned slab_capacity = 15;
};

/// How the slab store processes a batch, never what the batch does: every value gives the same
/// graph and counts (docs/tried.md lists the values tried and dropped). Sizes are log2 of a
/// batch's entries: k stands for 2^k entries, and k >= kNever (40) for a size no batch has (a
/// "from" threshold never reached, a "below" one always met). Tools and tests may fill these by
/// name from flags or the environment (graph/gpu/graph_tuning.hpp).
struct SlabBatchTuning {
  static constexpr int kNever = 40;
  /// Erase batches below 2^k entries let every live entry erase (the tombstone CAS picks one)
  /// instead of waiting for their dedup claims: a round trip less per entry where batches are
  /// too small to be bound by throughput. Filtered and sorted erases never do.
  int eager_erase_below_log2 = 21;
  /// Insert batches below 2^k entries queue their table rebuild round as soon as their first pass
  /// lists a table, and wait once, for the retry pass behind it (0: never chain).
  int chain_below_log2 = 20;
  /// Batches from 2^k entries run a bitmap filter before their dedup claims, so only entries
  /// that may repeat another claim in the hash table: a kernel more, far fewer claims.
  int filter_from_log2 = 19;
  /// The same for weighted inserts, which skip the claim in both of their passes and so gain
  /// from smaller batches.
  int filter_weighted_from_log2 = 18;
  /// Erase batches: filtered from 2^k entries; -1: never while a slab per vertex takes at most
  /// half of the GPU's L2 (the claims then stay in L2 and cost less than the filter pass), else
  /// from filter_from_log2.
  int erase_filter_from_log2 = -1;
  /// Bulk builds from 2^k entries dedup by a radix sort first and size each table for its exact
  /// degree; smaller ones size the tables for the raw arcs and insert them as one batch.
  int build_sort_from_log2 = 19;
  /// Batches from 2^k entries (inserts and erases) are radix sorted into edge order: duplicates
  /// adjacent, a vertex's arcs together (one handle, degree update and slab read for several).
  /// -1: automatic, erases from 2^21 and inserts from 2^21 while the batches are not skewed (the
  /// last insert batch of 2^19 entries or more had fewer than 1 in 4096 duplicates: a hub's arcs
  /// arriving together are faster unsorted).
  int sort_from_log2 = -1;
  /// Inserts only (when sort_from_log2 is -1): sorted from 2^k entries whatever the batches
  /// before; -1: automatic, as above.
  int sort_inserts_from_log2 = -1;
  /// How long the host polls a pass's counters in mapped memory before it synchronises with the
  /// stream (which also reports a failed kernel). Polling returns as soon as the pass's last block
  /// has written them, sooner than a synchronisation; 0: always synchronise.
  std::uint32_t report_spin_us = 2000;
  /// Lanes per task of the batch kernel: 1 (one thread walks an arc's chain, the default), or 8
  /// (8-lane tiled tasks, which spread a long chain's walk over a tile).
  int tile_lanes = 1;
  /// Entries per warp of 8-lane tasks: 8 or 32; 0: automatic (32 once a batch has 8 entries per
  /// resident warp, else 8). One-thread tasks always deal 32.
  int items_per_warp = 0;
  /// One line per batch (and per phase of build and erase_vertices) on stderr: counts, retries,
  /// rebuilds, times. Tracing synchronises at every mark, so it slows the graph down.
  bool trace = false;
};

/// What a slab-store graph is and the memory it may take; `tuning` says how batches are run.
struct GraphOptions {
  bool directed = false;
  /// Target fill of base buckets when the degree is known (bulk build): thesis' 0.7.
  double load_factor = 0.7;
  /// A table whose keys would exceed max_load_factor x its base capacity is rebuilt with buckets
  /// for rebuild_growth x its keys at load_factor (its keys re-inserted, its overflow slabs
  /// freed; the old base buckets stay allocated until the next build): insert_edges defers the
  /// arcs beyond that limit until the rebuild, insert_prepared plans it before the batch. Keeps
  /// chains short when degrees were unknown (incremental build, hubs). 0 disables.
  double max_load_factor = 2.0;
  /// Room a rebuilt table gets for growing (>= 1): its keys fill 1 / rebuild_growth of
  /// load_factor, so a growing hub is rebuilt every ~8.6x (at 3) instead of every ~2.9x (at 1):
  /// fewer rebuilds of growing hubs for about the same memory (fewer rebuilds leave fewer old base
  /// buckets behind).
  double rebuild_growth = 3.0;
  /// Initial capacity of the vertex dictionary (0: the initial vertex count).
  std::uint64_t vertex_capacity = 0;
  /// Overflow slabs the allocator starts with (0: automatic); it grows when exhausted.
  std::uint64_t initial_slabs = 0;
  /// Overflow slabs per allocator super block, the unit the allocator is made of (a power of
  /// two, at least 1024). When exhausted it doubles its super blocks, up to 2^16 of them and 2^31
  /// slabs. 2^16 slabs are 8 MiB; smaller units suit many small graphs (and let tests exhaust
  /// the allocator with few edges).
  std::uint32_t slabs_per_super_block = 1u << 16;
  /// Most overflow slabs the allocator may hold (0: no limit but GPU memory; rounded up to whole
  /// super blocks): a memory budget for the chains. At the cap, a table rebuild that does not fit
  /// is given up (the old table keeps the arcs), and a pass that found no free slab runs again
  /// while passes make progress; a batch that still needs more stops with wg::CapacityError (see
  /// "Errors" above). compact() frees the slabs that erased arcs left.
  std::uint64_t max_overflow_slabs = 0;
  /// Base buckets set aside for rebuilt tables (0: automatic, max(2^16, vertices / 16)). A
  /// rebuild that does not fit leaves its tables as they are for that batch (the arcs go into
  /// their chains) and a new arena of at least twice the size is set aside for the next one.
  std::uint64_t rebuild_arena_slabs = 0;
  /// Largest batch processed in one piece (0: as free GPU memory allows; batch_chunks.hpp).
  std::uint64_t max_chunk = 0;
  cudaStream_t stream = 0;

  /// How batches are processed (results do not depend on it).
  SlabBatchTuning tuning;
};

/// What a graph did to keep its chains short and its pools large enough, counted on the host
/// since construction (reading them costs nothing). A batch that brings tables more arcs than
/// max_load_factor allows has them rebuilt in one round; a round that does not fit the arena of
/// rebuilt buckets, or whose re-inserts run out of overflow slabs, leaves the old tables as they
/// were, and is run again after the arena or the allocator grew.
struct GraphStats {
  std::uint64_t rebuild_rounds = 0;             ///< rounds that rebuilt tables
  std::uint64_t rebuilt_buckets = 0;            ///< base buckets of the tables they made
  std::uint64_t rounds_without_arena_room = 0;  ///< rounds redone after the arena grew
  std::uint64_t rounds_out_of_slabs = 0;        ///< rounds (compact() too) redone after the
                                                ///< allocator grew
  std::uint64_t arenas = 0;                     ///< arenas of rebuilt buckets set aside
  std::uint64_t allocator_growths = 0;          ///< times the overflow-slab allocator grew
  std::uint64_t compactions = 0;                ///< compact() calls that moved tables
};

template <class Adjacency>
class DynamicGraphRef;  // device view: graph/gpu/graph_ref.cuh

template <class Adjacency>
using SlabStoreTraits =
    StoreTraits<GraphOptions, DynamicGraphRef<Adjacency>, Adjacency::weighted, false>;

template <class Adjacency>
class SlabStore : public StoreBase<SlabStore<Adjacency>, SlabStoreTraits<Adjacency>> {
 public:
  explicit SlabStore(std::uint64_t num_vertices = 0, const GraphOptions& options = {});

  // Its own vertex dictionary (detail/vertex_dictionary.cuh) and raw-batch path.
  std::uint64_t num_vertices() const noexcept;
  std::uint64_t num_edges() const noexcept;
  const std::uint8_t* live() const noexcept;
  const std::uint32_t* degrees() const noexcept;
  void grow(std::uint64_t n);
  void revive(const vertex_t* ids, std::uint64_t n);
  UpdateResult insert_edges(DeviceEdges chunk);
  UpdateResult erase_edges(DeviceEdges chunk);

  std::uint64_t overflow_slabs_in_use() const;
  std::uint64_t overflow_slab_capacity() const noexcept;
  GraphStats stats() const noexcept;
  void compact();

  /// The slab graph's own calls (DynamicGraph<SlabSetAdjacency>::compact() etc.).
  template <class Graph>
  struct extras : GraphExtras<Graph> {
    /// Device memory held in overflow slabs now / the allocator's capacity.
    std::uint64_t overflow_slabs_in_use() const {
      return this->self().store().overflow_slabs_in_use();
    }
    std::uint64_t overflow_slab_capacity() const noexcept {
      return this->self().store().overflow_slab_capacity();
    }
    /// Rebuilds and pool growth so far (GraphStats).
    GraphStats stats() const noexcept { return this->self().store().stats(); }
    /// Re-sizes every table for its current degree, as a bulk build does (max(1, ceil(degree /
    /// (load_factor x slab capacity))) buckets), copies its neighbours there, and releases what
    /// the old tables held: every earlier pool of base buckets (those of rebuilt tables
    /// included) and the whole overflow-slab allocator, replaced by one sized for the new
    /// tables' chains. Contents, degrees, vertex liveness and the free-id queue are unchanged;
    /// take ref() again (the allocator is new). O(vertices + slabs) work, a few
    /// synchronisations; needs room for the new tables beside the old ones (CapacityError when
    /// GPU memory is short).
    void compact() { this->self().mutable_store().compact(); }
  };

  struct Impl;  // its state (slab_store.cu)
};

}  // namespace wg::gpu
