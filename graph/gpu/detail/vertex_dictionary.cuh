#pragma once
// VertexDictionary: a graph's vertex ids (private to graph/gpu).
//
// Contract
//  - Ids 0 .. nv-1 each have a handle (VertexEntry: base buckets, bucket count, live flag), a
//    degree, a live byte (the compact copy of the flag) and an `incoming` count (arcs waiting for
//    a table rebuild; zero between calls). Growing the id range copies handles, never tables.
//  - Erased ids wait in a free-id queue on the device, earliest first, each at most once;
//    take_free_ids hands them out again in that order.
//  - Every call is stream-ordered on the graph's stream; take_free_ids synchronises (it returns
//    the ids on the host).
#include <cstdint>
#include <vector>

#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/containers/slab_hash/slab_allocator.cuh>
#include <warpgraph/graph/gpu/detail/graph_context.cuh>
#include <warpgraph/graph/gpu/detail/slab_pools.cuh>
#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/graph/gpu/graph_ref.cuh>
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

  std::uint64_t free_count() const { return free_tail_ - free_head_; }
  /// Appends k device ids to the free-id queue (stream-ordered).
  void push_free_ids(const vertex_t* ids, std::uint64_t k);
  /// Takes the n earliest free ids: marks them live on the device and returns them.
  std::vector<vertex_t> take_free_ids(std::uint64_t n);

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
  std::uint64_t nv = 0, capacity = 0, live_count = 0;

 private:
  /// The queue slots of positions from .. from + n - 1: one or two runs (the second when they
  /// wrap around the end), as {first slot, length}.
  struct QueueRuns {
    vertex_t* at[2];
    std::uint64_t len[2];
  };
  QueueRuns free_runs(std::uint64_t from, std::uint64_t n);
  /// Copies n queued ids from queue position `from` to `to`.
  void copy_free_ids(std::uint64_t from, std::uint64_t n, vertex_t* to, cudaMemcpyKind kind);

  GraphContext& ctx_;
  // The free-id queue (erased ids, earliest first): positions free_head_ .. free_tail_ - 1,
  // modulo free_queue_.size(). An id is in it at most once, so it never needs more than nv
  // slots.
  DeviceBuffer<vertex_t> free_queue_;
  std::uint64_t free_head_ = 0, free_tail_ = 0;
};

}  // namespace wg::gpu::detail
