#pragma once
// Views of edge batches in GPU memory, as the GPU graph and its algorithms take them.
#include <cstdint>

#include <warpgraph/containers/core/types.hpp>

namespace wg::gpu {

/// A batch of edge entries in device memory (COO): entry i is src[i] -> dst[i] (the edge
/// {src[i], dst[i]} in an undirected graph), with weight values[i] when `values` is non-null
/// (weighted graphs only; unweighted entries get weight 0... ignored by set adjacency).
/// The memory belongs to the caller and must stay valid until the call using it returns.
struct DeviceEdges {
  const vertex_t* src = nullptr;
  const vertex_t* dst = nullptr;
  const std::uint32_t* values = nullptr;
  std::uint64_t size = 0;
};

/// A batch after preprocessing (see DynamicGraph::prepare): unique canonical edges, sorted.
/// Edge i is (keys[i] >> key_bits, keys[i] & ((1 << key_bits) - 1)); undirected edges are
/// stored with src < dst. Device memory owned by the DynamicGraph's scratch space; valid until
/// the next call on the same graph that prepares a batch.
struct PreparedEdges {
  const std::uint64_t* keys = nullptr;
  const std::uint32_t* values = nullptr;  ///< last weight of each edge in the batch (weighted)
  std::uint64_t size = 0;
  unsigned key_bits = 0;
  std::uint64_t entries = 0;     ///< entries in the raw batch
  std::uint64_t self_loops = 0;  ///< dropped
  std::uint64_t duplicates = 0;  ///< dropped (repeats within the batch)
  std::uint64_t invalid = 0;     ///< dropped: an endpoint out of range or not live
};

}  // namespace wg::gpu
