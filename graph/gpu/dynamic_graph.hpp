#pragma once
// wg::gpu::DynamicGraph: a dynamic graph on the GPU whose adjacency lists are slab hash tables
// (thesis "Fully Concurrent GPU Data Structures", chapter 5), one small table per vertex, all
// sharing one slab allocator.
//
//   wg::gpu::DynamicGraph<wg::gpu::SlabSetAdjacency> g(num_vertices);   // undirected by default
//   g.build(edge_list);                        // bulk build: buckets sized from known degrees
//   wg::UpdateResult r = g.insert_edges(batch);  // r.applied edges added, the rest accounted
//   g.erase_edges(batch); g.erase_vertices({3, 7}); auto ids = g.insert_vertices(2);
//   auto ref = g.ref();                        // device view for kernels (graph_ref.cuh)
//
// Semantics
//  - Phase-concurrent: each call is one phase (a batch of updates or of queries); calls on one
//    graph are ordered on its stream. Not thread-safe on the host.
//  - Undirected graphs store both arcs of every edge; an entry (u, v) of a batch means {u, v}.
//    Directed graphs store arc u -> v only.
//  - Every batch is deduplicated on the device, self-loops are dropped, and each entry is
//    accounted for in the returned wg::UpdateResult. insert_edges / erase_edges hash the batch's
//    edges into a batch-local table (detail/batch_dedup.cuh): the first entry of an edge owns
//    it and applies its arcs, in one fused kernel per batch; the host then waits for the counters
//    that the kernel's last block writes to mapped host memory (GraphOptions::report_spin_us). On
//    return every update of the batch is done, though the kernel's last block may still be
//    finishing its report, and a small weighted batch that repeats edges may have a kernel queued
//    that gives those edges their last entries' values (it reads none of the caller's batch,
//    which may be reused on return): work on the graph's stream sees the batch applied, and so
//    does other work after a synchronisation with stream(), as for any call. Large batches are
//    filtered first, so only entries that may repeat another claim in the table, or radix sorted
//    into edge order (duplicates adjacent, a vertex's arcs together); the GraphOptions tuning
//    fields say from which sizes. prepare() sorts, for algorithms that want the batch in key
//    order. The result never depends on the path taken. Weighted (SlabMapAdjacency): 32-bit
//    values; the LAST entry of an edge in a batch sets its value, also when the edge was already
//    present.
//  - Erased arcs leave tombstones that later batches' inserts take again, so a graph under a
//    stream of inserts and erases keeps its chains at their length.
//  - Vertex ids are 0 .. num_vertices()-1. Erased vertices are not live: their ids wait in a
//    free-id queue and insert_vertices() hands them out again (earliest erased first). Batch
//    entries that touch a non-live or out-of-range id are counted as `ignored`.
//  - Degrees are exact after every call (out-degree for directed graphs).
//
// Memory: the vertex dictionary (one handle per vertex: base-bucket address, bucket count,
// degree) grows by copying handles, never adjacency. Base buckets for a vertex of known degree d
// are ceil(d / (load_factor * slab capacity)) slabs (at least one), allocated in bulk; overflow
// slabs come from the shared allocator, which grows when exhausted (the batch is resumed).
// Batches larger than the free GPU memory allows are split into chunks (a repeat in a later
// chunk is then reported as `ignored` rather than `duplicates`); when even a small chunk or the
// graph itself does not fit, wg::CapacityError says so. Tables only grow under updates (rebuilt
// ones with room to grow); compact() re-sizes them all for their degrees and frees the rest.
//
// Errors: an insert batch that needs more overflow slabs than GraphOptions::max_overflow_slabs
// (or GPU memory) allows stops with wg::CapacityError, its what() saying how many of its edges
// went in (of its chunk, for a batch split into chunks). The graph stays consistent and usable
// (the basic guarantee): each edge of the batch is in it in full (both arcs of an undirected
// edge) or not at all, degrees and num_edges() are exact, and an edge of a weighted batch that
// is in the graph has the value of one of its entries, not necessarily the last. Which edges went
// in is not specified.
//
// Complexity: insert/erase O(n) expected work for a batch of n (at most one hash-table claim,
// or a share of a radix sort, and O(1) expected slab probes per entry at the configured load
// factor; the *_prepared path adds a radix sort). A table that a batch fills past max_load_factor
// has its further arcs deferred, is rebuilt with more buckets, and then receives them (amortised
// O(1) per arc); erase_vertices O(k + sum of the k erased vertices' degrees and
// buckets) for undirected graphs, plus a scan of all arcs for directed ones, and an O(num_vertices)
// memset; compact O(num_vertices + slabs in use).
#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <vector>

#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/edge_batch.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::gpu {

/// Adjacency policies. Set: unweighted (30 neighbours per 128-byte slab). Map: one 32-bit value
/// per edge (15 neighbours per slab).
struct SlabSetAdjacency {
  static constexpr bool weighted = false;
  static constexpr unsigned slab_capacity = 30;
};
struct SlabMapAdjacency {
  static constexpr bool weighted = true;
  static constexpr unsigned slab_capacity = 15;
};

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

  // ---- Tuning: how a batch is processed, never what it does. Results are the same for every
  // value; the defaults are the fastest measured on the H100 (docs/tried.md lists the rest). Sizes
  // are log2 of a batch's entries: k stands for 2^k entries, and k >= kNever (40) for a size no
  // batch has (a "from" threshold never reached, a "below" one always met). Tools and tests may
  // fill these by name from flags or the environment (graph_tuning.hpp).
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
  /// Lanes per task of the batch kernel: 1 (one thread walks an arc's chain: the fastest at
  /// every size measured), or 8 (8-lane tiled tasks, kept for comparison).
  int tile_lanes = 1;
  /// Entries per warp of 8-lane tasks: 8 or 32; 0: automatic (32 once a batch has 8 entries per
  /// resident warp, else 8). One-thread tasks always deal 32.
  int items_per_warp = 0;
  /// One line per batch (and per phase of build and erase_vertices) on stderr: counts, retries,
  /// rebuilds, times. Tracing synchronises at every mark, so it slows the graph down.
  bool trace = false;
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

/// A batch after dedup on the device: unique canonical edges in key order (see PreparedEdges).
struct PreparedBatch {
  DeviceBuffer<std::uint64_t> keys;
  DeviceBuffer<std::uint32_t> values;  ///< weighted graphs only
  std::uint64_t size = 0;
  unsigned key_bits = 0;
  UpdateResult dropped;  ///< self_loops, duplicates, ignored (invalid endpoints) of the raw batch
  std::uint64_t entries = 0;
  PreparedEdges view() const {
    return {.keys = keys.data(),
            .values = values.empty() ? nullptr : values.data(),
            .size = size,
            .key_bits = key_bits,
            .entries = entries,
            .self_loops = dropped.self_loops,
            .duplicates = dropped.duplicates,
            .invalid = dropped.ignored};
  }
};

/// Sorted CSR export: row v holds v's neighbours (out-neighbours when directed) in increasing
/// order; values only for weighted graphs.
struct Csr {
  std::uint64_t num_vertices = 0;
  std::vector<std::uint64_t> offsets;  ///< num_vertices + 1
  std::vector<vertex_t> targets;
  std::vector<std::uint32_t> values;
};

template <class Adjacency>
class DynamicGraphRef;  // device view: graph/gpu/graph_ref.cuh

template <class Adjacency>
class DynamicGraph {
 public:
  using adjacency_type = Adjacency;
  using ref_type = DynamicGraphRef<Adjacency>;
  static constexpr bool is_weighted = Adjacency::weighted;
  /// Whether edges carry values (SlabMapAdjacency).
  static constexpr bool weighted() noexcept { return Adjacency::weighted; }

  /// An empty graph of `num_vertices` live vertices (one bucket each: degrees unknown).
  explicit DynamicGraph(std::uint64_t num_vertices = 0, const GraphOptions& options = {});
  ~DynamicGraph();
  DynamicGraph(DynamicGraph&&) noexcept;
  DynamicGraph& operator=(DynamicGraph&&) noexcept;
  DynamicGraph(const DynamicGraph&) = delete;
  DynamicGraph& operator=(const DynamicGraph&) = delete;

  /// Replaces the graph by the simple graph of `edges` (bulk build): vertices 0 ..
  /// edges.num_vertices-1 (or the largest id + 1) all live, buckets sized from the degrees.
  /// Builds from 2^build_sort_from_log2 entries dedup by a radix sort first and size each table
  /// for its exact degree; smaller ones size the tables for the entries' arcs (repeats included),
  /// with no sort, scan or wait, and insert them as one batch whose arcs into one-bucket tables
  /// take their slots from the degrees (no sort, scan or wait). Weights: EdgeList weights are
  /// rounded to uint32 (InvalidArgument if out of range).
  UpdateResult build(const EdgeList& edges);
  UpdateResult build(DeviceEdges edges, std::uint64_t num_vertices);

  /// Batch updates (see the semantics above). Host overloads copy the batch to the GPU first and
  /// grow the vertex range to batch.num_vertices or the largest id + 1 (new ids live) when it is
  /// larger; the ids and weights are checked on the device after the copy, and a batch with a
  /// weight outside uint32 is refused (InvalidArgument naming its first such entry) before any
  /// of it is applied (of a batch split into chunks, the chunks before that entry's stay applied).
  UpdateResult insert_edges(const EdgeList& batch);
  UpdateResult insert_edges(DeviceEdges batch);
  UpdateResult erase_edges(const EdgeList& batch);
  UpdateResult erase_edges(DeviceEdges batch);

  /// New vertices with their edges (conventions in graph/update_result.hpp: new_vertex(i)).
  VertexInsertResult insert_vertices(std::uint64_t count, const EdgeList& edges);
  /// The same without edges: returns the ids given out.
  std::vector<vertex_t> insert_vertices(std::uint64_t count);
  /// Erases vertices and all their incident edges; frees their overflow slabs; recycles ids
  /// (in increasing id order within one call, as the CPU graph; repeats, dead and out-of-range
  /// ids are counted as ignored_ids).
  /// Everything runs on the device: the ids' dedup, and the erasure bucket by bucket, all warps
  /// sharing all of the erased vertices' buckets (a hub's too); the free-id queue lives there.
  VertexEraseResult erase_vertices(const std::vector<vertex_t>& ids);
  /// The same for `count` ids already on the device (ordered on stream()).
  VertexEraseResult erase_vertices(const vertex_t* ids_device, std::uint64_t count);

  /// out[i] = 1 iff edge (src[i], dst[i]) is in the graph (0 for self-loops, invalid ids).
  /// Ordered on stream() after the updates issued before it; one thread per query reads the
  /// slabs of dst[i]'s bucket in src[i]'s table (mostly one slab at the default load factor).
  std::vector<std::uint8_t> has_edges(const EdgeList& queries) const;
  void has_edges(DeviceEdges queries, std::uint8_t* out_device) const;
  /// Weighted graphs: out[i] = value of edge i, found[i] = has_edges.
  void find_values(DeviceEdges queries, std::uint32_t* values_out, std::uint8_t* found_out) const;

  /// Degree of every vertex (0 for non-live ids); out-degree when directed.
  std::vector<std::uint32_t> degrees() const;
  /// Degree of v (0 for a non-live or out-of-range id): one device read and a synchronisation,
  /// ordered on stream() (use degrees() or the device view for many).
  std::uint32_t degree(vertex_t v) const;
  void degrees(std::uint32_t* out_device) const;

  /// Host exports, sorted. COO: undirected graphs give each edge once with src < dst and
  /// symmetric = true; directed graphs give every arc. Weights as doubles when weighted.
  EdgeList export_coo() const;
  Csr export_csr() const;

  std::uint64_t num_vertices() const noexcept;  ///< id range (live or not)
  std::uint64_t num_live_vertices() const noexcept;
  std::uint64_t num_free_ids() const noexcept;
  std::uint64_t num_edges() const noexcept;  ///< edges (undirected) or arcs (directed)
  std::uint64_t max_degree() const;
  bool directed() const noexcept;
  const GraphOptions& options() const noexcept;
  cudaStream_t stream() const noexcept;
  /// Device memory held: dictionary + base buckets + allocator pool + the scratch kept between
  /// batches (dedup tables and filters, sort keys, retry lists).
  std::uint64_t memory_bytes() const;
  std::uint64_t overflow_slabs_in_use() const;
  /// Overflow slabs the allocator holds now (it grows when exhausted).
  std::uint64_t overflow_slab_capacity() const noexcept;
  /// Rebuilds and pool growth so far (GraphStats).
  GraphStats stats() const noexcept;

  /// Re-sizes every table for its current degree, as a bulk build does (max(1, ceil(degree /
  /// (load_factor x slab capacity))) buckets), copies its neighbours there, and releases what
  /// the old tables held: every earlier pool of base buckets (those of rebuilt tables included)
  /// and the whole overflow-slab allocator, replaced by one sized for the new tables' chains.
  /// Tables only grow under updates: a table keeps the chain of its largest past, and a rebuilt
  /// one room for 3x growth (rebuild_growth), which every traversal of its neighbours (triangle
  /// counting) reads. Contents, degrees, vertex liveness and the free-id queue are unchanged;
  /// take ref() again (the allocator is new). The memory held afterwards is what the tables at
  /// load_factor need: less after mass erasures or many rebuilds; about as much or more when the
  /// old chains were full, as after a stream of large inserts. O(vertices + slabs) work, a few
  /// synchronisations; needs room for the new tables beside the old ones (CapacityError when GPU
  /// memory is short).
  void compact();

  /// Device view for kernels; valid until the next call that changes the vertex range or
  /// rebuilds (build, insert_vertices, host overloads that grow the range, compact).
  ref_type ref() const;

  // ---- lower level: the steps of a batch, for algorithms that act between them ------------
  /// Dedup + canonicalise + drop self-loops and invalid entries (nothing is applied).
  PreparedBatch prepare(DeviceEdges batch) const;
  /// Applies a prepared batch. is_new_device (optional, batch.size bytes): 1 where the edge was
  /// added. The result's self_loops/duplicates/ignored include the batch's dropped entries.
  UpdateResult insert_prepared(const PreparedBatch& batch, std::uint8_t* is_new_device = nullptr);
  UpdateResult erase_prepared(const PreparedBatch& batch,
                              std::uint8_t* was_present_device = nullptr);
  /// out[i] = 1 iff prepared edge i is present.
  void contains_prepared(const PreparedBatch& batch, std::uint8_t* out_device) const;
  /// Grows the vertex range to n (new ids live, one bucket each).
  void grow_vertices(std::uint64_t n);
  /// How many entries of a batch of n one piece may hold (free GPU memory; options.max_chunk).
  std::uint64_t batch_chunk(std::uint64_t n) const;

  /// Change counter: bumped by every call that adds or removes edges or erases vertices (adding
  /// isolated vertices leaves it), so a dynamic result can tell it missed a batch.
  std::uint64_t version() const noexcept { return version_; }

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
  std::uint64_t version_ = 0;
};

using Graph = DynamicGraph<SlabSetAdjacency>;
using WeightedGraph = DynamicGraph<SlabMapAdjacency>;

extern template class DynamicGraph<SlabSetAdjacency>;
extern template class DynamicGraph<SlabMapAdjacency>;

}  // namespace wg::gpu
