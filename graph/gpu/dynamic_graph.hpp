#pragma once
// wg::gpu::DynamicGraph<SlabSetAdjacency>: a dynamic graph on the GPU whose adjacency lists are
// slab hash tables (thesis "Fully Concurrent GPU Data Structures", chapter 5), one small table
// per vertex, all sharing one slab allocator: the graph front (graph_front.hpp) over the slab
// store (slab/slab_store.hpp).
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
//    that the kernel's last block writes to mapped host memory (SlabBatchTuning::report_spin_us).
//    On return every update of the batch is done, though the kernel's last block may still be
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
#include <warpgraph/graph/gpu/graph_front.hpp>
#include <warpgraph/graph/gpu/slab/slab_store.hpp>

namespace wg::gpu {

using Graph = DynamicGraph<SlabSetAdjacency>;
using WeightedGraph = DynamicGraph<SlabMapAdjacency>;

extern template class SlabStore<SlabSetAdjacency>;
extern template class SlabStore<SlabMapAdjacency>;
extern template class DynamicGraph<SlabSetAdjacency>;
extern template class DynamicGraph<SlabMapAdjacency>;

}  // namespace wg::gpu
