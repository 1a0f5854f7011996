#pragma once
// Applying a batch through a GPU graph while learning which edges it actually changed, and the
// GPU observer protocol built on it (the device twin of algorithms/dynamic_update.hpp): the
// plumbing the dynamic GPU algorithms share (components, core numbers, PageRank, BFS, SSSP, the
// triangle counter), so that one graph update can serve several of them. For .cu files.
//
//   UpdateResult r = insert_listing_added(graph, batch, [&](ChangedEdges added) { ... });
//   UpdateResult r = erase_listing_removed(graph, batch, [&](ChangedEdges removed) { ... });
//   std::array<BatchEffect, 2> e{};   // one graph update, several results following it:
//   UpdateResult r = insert_observed(graph, batch, std::span<BatchEffect>(e), components, bfs);
//
// Semantics. The batch is deduplicated by the graph (DynamicGraph::prepare); insertions call f
// AFTER the edges went in, with exactly the edges that were absent and are now present;
// deletions call f BEFORE the edges go, with exactly the edges that are present and will be
// removed (absent ones are counted as ignored). Keys are canonical as in PreparedBatch:
// (u << key_bits) | v, u < v for undirected graphs, the arc u -> v for directed ones, sorted.
// A batch larger than one chunk (DynamicGraph::batch_chunk) calls f once per chunk, each chunk a
// batch of its own. Host overloads grow the vertex range as the graph's EdgeList overloads do:
// f may find graph.num_vertices() larger than before. erase_listing_removed's optional second
// callback sees the same edges once they are gone.
//
// Cost: per chunk one prepare (sort + dedup), one membership probe (erase) and one select; the
// observers' own work comes on top. Errors: those of the graph (wg::CapacityError when device
// memory runs out), and whatever an observer throws (the chunk's graph update stands).
#include <algorithm>
#include <cstdint>
#include <span>

#include <warpgraph/algorithms/dynamic_frame.hpp>
#include <warpgraph/algorithms/dynamic_update.hpp>

#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/batch_chunks.hpp>
#include <warpgraph/graph/gpu/batch_prep.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/gpu/host_batch.hpp>
#include <warpgraph/graph/graph_concepts.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::gpu {

/// Edges a batch changed, on the device (see the header comment for the key layout).
struct ChangedEdges {
  const std::uint64_t* keys = nullptr;
  std::uint64_t size = 0;
  unsigned key_bits = 0;
};

/// The default after_erase of erase_listing_removed: nothing.
struct NoAfterErase {
  void operator()(const ChangedEdges&) const noexcept {}
};

/// with_empty: f is called for every chunk, also when it added no edge (size 0).
template <GpuDynamicGraph Graph, class F>
UpdateResult insert_listing_added(Graph& g, DeviceEdges batch, F&& after_insert,
                                  bool with_empty = false) {
  UpdateResult out;
  const cudaStream_t stream = g.stream();
  for_each_chunk(batch, g.batch_chunk(batch.size), true, [&](DeviceEdges part) {
    const PreparedBatch p = g.prepare(part);
    DeviceBuffer<std::uint8_t> is_new(std::max<std::uint64_t>(p.size, 1), stream, "new-edge flags");
    out += g.insert_prepared(p, is_new.data());
    if (p.size == 0) {
      if (with_empty) after_insert(ChangedEdges{.key_bits = p.key_bits});
      return;
    }
    DeviceBuffer<std::uint64_t> added(p.size, stream, "new edges");
    const std::uint64_t m = select_flagged(p.keys.data(), nullptr, is_new.data(), p.size,
                                           added.data(), nullptr, stream);
    if (m || with_empty)
      after_insert(ChangedEdges{.keys = added.data(), .size = m, .key_bits = p.key_bits});
  });
  return out;
}

/// after_erase (optional) is called with the same edges once they are gone.
template <GpuDynamicGraph Graph, class F, class G = NoAfterErase>
UpdateResult erase_listing_removed(Graph& g, DeviceEdges batch, F&& before_erase,
                                   G&& after_erase = {}) {
  UpdateResult out;
  const cudaStream_t stream = g.stream();
  for_each_chunk(batch, g.batch_chunk(batch.size), false, [&](DeviceEdges part) {
    const PreparedBatch p = g.prepare(part);
    if (p.size == 0) {
      out += p.dropped;
      return;
    }
    DeviceBuffer<std::uint8_t> present(p.size, stream, "present flags");
    g.contains_prepared(p, present.data());
    PreparedBatch d;
    d.keys = DeviceBuffer<std::uint64_t>(p.size, stream, "edges to remove");
    d.size = select_flagged(p.keys.data(), nullptr, present.data(), p.size, d.keys.data(), nullptr,
                            stream);
    d.key_bits = p.key_bits;
    d.entries = p.entries;
    d.dropped = p.dropped;
    if (d.size)
      before_erase(ChangedEdges{.keys = d.keys.data(), .size = d.size, .key_bits = d.key_bits});
    UpdateResult r = g.erase_prepared(d);
    r.ignored += p.size - d.size;  // absent edges
    out += r;
    if (d.size)
      after_erase(ChangedEdges{.keys = d.keys.data(), .size = d.size, .key_bits = d.key_bits});
  });
  return out;
}

template <GpuDynamicGraph Graph, class F>
UpdateResult insert_listing_added(Graph& g, const EdgeList& batch, F&& after_insert,
                                  bool with_empty = false) {
  check_sizes(batch);
  g.grow_vertices(batch.num_vertices);
  UpdateResult out;
  for_each_host_chunk(batch, g.batch_chunk(batch.size()), g.weighted(), true, g.stream(),
                      [&](const HostBatchUpload& up, DeviceEdges part) {
                        g.grow_vertices(up.id_range);
                        out += insert_listing_added(g, part, after_insert, with_empty);
                      });
  return out;
}

template <GpuDynamicGraph Graph, class F, class G = NoAfterErase>
UpdateResult erase_listing_removed(Graph& g, const EdgeList& batch, F&& before_erase,
                                   G&& after_erase = {}) {
  check_sizes(batch);
  UpdateResult out;
  for_each_host_chunk(batch, g.batch_chunk(batch.size()), false, false, g.stream(),
                      [&](const HostBatchUpload&, DeviceEdges part) {
                        out += erase_listing_removed(g, part, before_erase, after_erase);
                      });
  return out;
}

/// A dynamic GPU result that follows batches someone else applies to its graph (one graph
/// update, several algorithms: the CLI's `stream --algo` on the gpu backend). The ChangedEdges
/// are those of exactly the edges the batch changes, on the device, ordered on the graph's
/// stream, valid only during the call:
///  - after_insert(added): the edges were absent and are now in the graph; the graph's id range
///    may have grown (an empty list may come only to say so);
///  - before_erase(removed): the edges are present and about to go (the graph is unchanged);
///  - after_erase(removed): the same edges, now gone.
/// A batch larger than one chunk (DynamicGraph::batch_chunk) is several calls, chunk by chunk,
/// each chunk a batch of its own; every observer sees every chunk, in order, before the next
/// chunk touches the graph. Every erase is bracketed by before_erase and after_erase with the
/// same edges, and nothing else changes the graph in between.
template <class A>
concept GpuEdgeBatchObserver = requires(A& a, const ChangedEdges& edges) {
  a.before_erase(edges);
  { a.after_erase(edges) } -> std::same_as<BatchEffect>;
  { a.after_insert(edges) } -> std::same_as<BatchEffect>;
};

using wg::accumulate;  // algorithms/dynamic_update.hpp

/// insert_listing_added for observers: calls after_insert(ChangedEdges) for each chunk, also
/// with no added edge (so that observers see ids the chunk grew), at least once per batch.
template <GpuDynamicGraph Graph, class Batch, class F>
UpdateResult insert_listing_chunks(Graph& g, const Batch& batch, F&& after_insert) {
  bool called = false;
  UpdateResult out = insert_listing_added(
      g, batch,
      [&](ChangedEdges added) {
        called = true;
        after_insert(added);
      },
      /*with_empty=*/true);
  if (!called) after_insert(ChangedEdges{.key_bits = 0});
  return out;
}

/// Applies an insertion batch (DeviceEdges or a host EdgeList, uploaded as the graph's EdgeList
/// overloads upload it) once, and lets every observer follow it, in argument order, chunk by
/// chunk. effects[i] accumulates observer i's BatchEffect (it must hold sizeof...(A) entries).
template <GpuDynamicGraph Graph, class Batch, GpuEdgeBatchObserver... A>
UpdateResult insert_observed(Graph& g, const Batch& batch, std::span<BatchEffect> effects,
                             A&... observers) {
  return insert_listing_chunks(g, batch, [&](const ChangedEdges& added) {
    std::size_t i = 0;
    (accumulate(effects[i++], observers.after_insert(added)), ...);
  });
}

/// Applies a deletion batch once and lets every observer follow it: for each chunk, every
/// observer's before_erase (the edges still present), the erase, then every observer's
/// after_erase. Chunks without a present edge call nobody.
template <GpuDynamicGraph Graph, class Batch, GpuEdgeBatchObserver... A>
UpdateResult erase_observed(Graph& g, const Batch& batch, std::span<BatchEffect> effects,
                            A&... observers) {
  return erase_listing_removed(
      g, batch, [&](const ChangedEdges& removed) { (observers.before_erase(removed), ...); },
      [&](const ChangedEdges& removed) {
        std::size_t i = 0;
        (accumulate(effects[i++], observers.after_erase(removed)), ...);
      });
}

/// One observer: its insert_edges / erase_edges in the shape of the dynamic classes. `route`
/// applies the batch with the observer's effect accumulated in the one-entry span it is given.
template <class Route>
DynamicUpdate<UpdateResult> observed_once(Route&& route) {
  BatchEffect e;
  DynamicUpdate<UpdateResult> r;
  r.update = route(std::span<BatchEffect>(&e, 1));
  set_effect(r, e);
  return r;
}
template <GpuDynamicGraph Graph, class Batch, GpuEdgeBatchObserver A>
DynamicUpdate<UpdateResult> insert_observed(Graph& g, const Batch& batch, A& observer) {
  return observed_once(
      [&](std::span<BatchEffect> e) { return insert_observed(g, batch, e, observer); });
}
template <GpuDynamicGraph Graph, class Batch, GpuEdgeBatchObserver A>
DynamicUpdate<UpdateResult> erase_observed(Graph& g, const Batch& batch, A& observer) {
  return observed_once(
      [&](std::span<BatchEffect> e) { return erase_observed(g, batch, e, observer); });
}

/// The dynamic-algorithm frame and the result set on the GPU graphs (algorithms/dynamic_frame.hpp):
/// the hooks see the changed edges on the device, and the default routes are insert_observed /
/// erase_observed above.
template <class Policy, class Graph>
using DynamicFrame = wg::DynamicFrame<Policy, Graph, const ChangedEdges&>;
template <class Graph>
using DynamicResults = wg::DynamicResults<Graph, const ChangedEdges&>;

}  // namespace wg::gpu
