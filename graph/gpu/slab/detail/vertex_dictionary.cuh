#pragma once
// VertexDictionary: a graph's vertex ids (private to graph/gpu).
//
// Contract
//  - Ids 0 .. nv-1 each have a handle (VertexEntry: base buckets, bucket count, live flag), a
//    degree, a live byte (the compact copy of the flag) and an `incoming` count (arcs waiting for
//    a table rebuild; zero between calls). Growing the id range copies handles, never tables.
//  - The free ids and the live count are the graph front's (graph_front.hpp); revive() marks
//    ids it hands out again live.
//  - Every call is stream-ordered on the graph's stream.
#include <cstdint>
#include <vector>

#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/containers/slab_hash/slab_allocator.cuh>
#include <warpgraph/graph/gpu/graph_ref.cuh>
#include <warpgraph/graph/gpu/slab/detail/graph_context.cuh>
#include <warpgraph/graph/gpu/slab/detail/slab_pools.cuh>
#include <warpgraph/graph/gpu/vertex_entry.cuh>

namespace wg::gpu::detail {

class VertexDictionary {
 public:
  explicit VertexDictionary(GraphContext& ctx) : ctx_(ctx) {}

  /// Room for n ids: copies the handles (not the tables) when the dictionary must grow;
  /// InvalidArgument past 2^31 ids.
  void reserve(std::uint64_t n);
  /// New live ids nv .. n-1, one bucket each (from a new pool of `pools`).
  void grow(std::uint64_t n, SlabPools& pools);
  /// Handles of ids first .. first+count-1: `offsets` (count + 1 prefix sums) numbers their
  /// buckets in `pool`, or, when null, each takes one bucket, pool[i]. Degrees zeroed.
  void init_entries(std::uint64_t first, std::uint64_t count, slab::Slab* pool,
                    const std::uint64_t* offsets);
  /// Forgets every id (a build starts over); the dictionary's memory stays.
  void clear();

  /// Marks the n (distinct, not live) device ids live again, both copies of the flag.
  void revive(const vertex_t* ids, std::uint64_t n);

  /// The device view of the tables whose handles these are and whose overflow slabs come from
  /// `alloc`.
  template <class Adj>
  DynamicGraphRef<Adj> ref(slab::SlabAllocatorRef alloc) const {
    return DynamicGraphRef<Adj>(const_cast<VertexEntry*>(vertices.data()),
                                const_cast<std::uint32_t*>(degrees.data()), live.data(),
                                static_cast<std::uint32_t>(nv), alloc);
  }

  std::uint64_t memory_bytes() const {
    return vertices.bytes() + degrees.bytes() + incoming.bytes() + live.bytes();
  }

  DeviceBuffer<VertexEntry> vertices;
  DeviceBuffer<std::uint32_t> degrees;
  DeviceBuffer<std::uint32_t> incoming;  // all zero between calls (resize planning)
  DeviceBuffer<std::uint8_t> live;       // a byte per id; VertexEntry::live is the other copy
  std::uint64_t nv = 0, capacity = 0;

 private:
  GraphContext& ctx_;
};

}  // namespace wg::gpu::detail
