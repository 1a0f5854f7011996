#pragma once
// Oversized batches in pieces: the one loop that the GPU graph and the algorithms on it use to
// split a batch into chunks of at most DynamicGraph::batch_chunk(n) entries (as many as free GPU
// memory allows, or GraphOptions::max_chunk), in order. Host batches are uploaded chunk by chunk
// (upload_host_batch), so a batch larger than the GPU's memory never has to fit there whole.
//
//   for_each_chunk(batch, g.batch_chunk(batch.size), true, [&](DeviceEdges part) { ... });
//   for_each_host_chunk(edges, g.batch_chunk(edges.size()), weighted, true, g.stream(),
//                       [&](const HostBatchUpload& up, DeviceEdges part) { ... });
//
// Semantics: the chunks are processed one after another, each as a batch of its own, so an edge
// repeated in a later chunk is reported as `ignored` rather than `duplicates`. Cost: one upload
// (two copies, or one kernel and one synchronisation when checked or weighted) per host chunk.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/edge_batch.hpp>
#include <warpgraph/graph/gpu/host_batch.hpp>

namespace wg::gpu {

/// Calls f(part) for entries [off, off + chunk) of `batch`, off = 0, chunk, 2 chunk, ... (none
/// for an empty batch). with_values: the parts keep the batch's values (else they carry none).
template <class F>
void for_each_chunk(DeviceEdges batch, std::uint64_t chunk, bool with_values, F&& f) {
  for (std::uint64_t off = 0; off < batch.size; off += chunk) {
    f(DeviceEdges{.src = batch.src + off,
                  .dst = batch.dst + off,
                  .values = with_values && batch.values ? batch.values + off : nullptr,
                  .size = std::min(chunk, batch.size - off)});
  }
}

/// Uploads `batch` chunk by chunk (upload_host_batch with with_values and checked, see
/// host_batch.hpp) and calls f(upload, part) for each, part being the chunk on the device.
template <class F>
void for_each_host_chunk(const EdgeList& batch, std::uint64_t chunk, bool with_values, bool checked,
                         cudaStream_t stream, F&& f) {
  const std::uint64_t n = batch.size();
  for (std::uint64_t off = 0; off < n; off += chunk) {
    const std::uint64_t len = std::min(chunk, n - off);
    const HostBatchUpload up = upload_host_batch(batch, off, len, with_values, checked, stream);
    f(up, up.view(len));
  }
}

}  // namespace wg::gpu
