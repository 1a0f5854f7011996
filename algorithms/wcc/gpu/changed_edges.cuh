#pragma once
// Applying a batch through a GPU graph while learning which edges it actually changed: the
// plumbing the dynamic GPU algorithms share (components, core numbers, PageRank), the same steps
// IncrementalTriangleCounter takes. For .cu files.
//
//   UpdateResult r = insert_listing_added(graph, batch, [&](ChangedEdges added) { ... });
//   UpdateResult r = erase_listing_removed(graph, batch, [&](ChangedEdges removed) { ... });
//
// Semantics. The batch is deduplicated by the graph (DynamicGraph::prepare); insertions call f
// AFTER the edges went in, with exactly the edges that were absent and are now present;
// deletions call f BEFORE the edges go, with exactly the edges that are present and will be
// removed (absent ones are counted as ignored). Keys are canonical as in PreparedBatch:
// (u << key_bits) | v, u < v for undirected graphs, the arc u -> v for directed ones, sorted.
// A batch larger than one chunk (DynamicGraph::batch_chunk) calls f once per chunk, each chunk a
// batch of its own. Host overloads grow the vertex range as the graph's EdgeList overloads do:
// f may find graph.num_vertices() larger than before.
#include <algorithm>
#include <cstdint>

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

template <GpuDynamicGraph Graph, class F>
UpdateResult insert_listing_added(Graph& g, DeviceEdges batch, F&& after_insert) {
  UpdateResult out;
  const cudaStream_t stream = g.stream();
  for_each_chunk(batch, g.batch_chunk(batch.size), true, [&](DeviceEdges part) {
    const PreparedBatch p = g.prepare(part);
    DeviceBuffer<std::uint8_t> is_new(std::max<std::uint64_t>(p.size, 1), stream, "new-edge flags");
    out += g.insert_prepared(p, is_new.data());
    if (p.size == 0) return;
    DeviceBuffer<std::uint64_t> added(p.size, stream, "new edges");
    const std::uint64_t m = select_flagged(p.keys.data(), nullptr, is_new.data(), p.size,
                                           added.data(), nullptr, stream);
    if (m) after_insert(ChangedEdges{.keys = added.data(), .size = m, .key_bits = p.key_bits});
  });
  return out;
}

template <GpuDynamicGraph Graph, class F>
UpdateResult erase_listing_removed(Graph& g, DeviceEdges batch, F&& before_erase) {
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
  });
  return out;
}

template <GpuDynamicGraph Graph, class F>
UpdateResult insert_listing_added(Graph& g, const EdgeList& batch, F&& after_insert) {
  check_sizes(batch);
  g.grow_vertices(batch.num_vertices);
  UpdateResult out;
  for_each_host_chunk(batch, g.batch_chunk(batch.size()), g.weighted(), true, g.stream(),
                      [&](const HostBatchUpload& up, DeviceEdges part) {
                        g.grow_vertices(up.id_range);
                        out += insert_listing_added(g, part, after_insert);
                      });
  return out;
}

template <GpuDynamicGraph Graph, class F>
UpdateResult erase_listing_removed(Graph& g, const EdgeList& batch, F&& before_erase) {
  check_sizes(batch);
  UpdateResult out;
  for_each_host_chunk(batch, g.batch_chunk(batch.size()), false, false, g.stream(),
                      [&](const HostBatchUpload&, DeviceEdges part) {
                        out += erase_listing_removed(g, part, before_erase);
                      });
  return out;
}

}  // namespace wg::gpu
