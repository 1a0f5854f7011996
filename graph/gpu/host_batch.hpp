#pragma once
// Host batches (EdgeList) on the device: the upload that DynamicGraph's and
// IncrementalTriangleCounter's EdgeList overloads share, chunk by chunk. The id range a chunk
// needs and its weights' conversion are found on the device (a host loop took longer than the
// copy itself). EdgeUpload builds the same upload from pieces that arrive one after another (a
// file being parsed), copying each while the next is produced.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>

#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/edge_batch.hpp>

namespace wg::gpu {

/// One chunk of a host batch on the device, with its weights as uint32 values.
struct HostBatchUpload {
  DeviceBuffer<vertex_t> src, dst;
  DeviceBuffer<std::uint32_t> values;  ///< empty unless weights were asked for and present
  std::uint64_t id_range = 0;          ///< 1 + the largest id below kNewVertexTag (when checked)
  DeviceEdges view(std::uint64_t n) const {
    return {.src = src.data(),
            .dst = dst.data(),
            .values = values.empty() ? nullptr : values.data(),
            .size = n};
  }
};

/// Throws InvalidArgument unless e's src, dst (and weight, if any) have one size.
void check_sizes(const EdgeList& e);

/// Uploads entries off .. off + n - 1 of `e`. With `checked` it also finds their id range, and
/// with `with_values` (and a weighted `e`) it converts their weights to uint32, rounded half away
/// from zero. Either costs one kernel and one synchronisation; with neither, the upload is two
/// copies. A weight outside the uint32 range throws InvalidArgument naming its entry.
HostBatchUpload upload_host_batch(const EdgeList& e, std::uint64_t off, std::uint64_t n,
                                  bool with_values, bool checked, cudaStream_t stream);

struct EdgeUploadOptions {
  /// Entries a pinned staging slot holds (8 bytes each, 16 with weights); longer pieces are
  /// copied in several.
  std::uint64_t staging_entries = std::uint64_t{1} << 20;
  /// Staging slots (>= 2): one is filled while the other's copy runs.
  int slots = 2;
  /// Entries to allocate on the device at the start (0: the arrays double as pieces come).
  std::uint64_t reserve = 0;
};

/// Host edges appended piece by piece into one device edge list, as upload_host_batch would
/// upload their concatenation: append() copies a piece into a pinned staging slot and queues its
/// host-to-device copy on a stream of its own, then returns, so the caller produces the next
/// piece (parses the next segment of a file) while this one travels. finish() waits for the
/// copies and runs upload_host_batch's check over the whole list: the same id range, the same
/// uint32 values and the same error for a bad weight (its entry counted from the first piece).
///
///   EdgeUpload up(Graph::is_weighted, g.stream());
///   read_graph(path, {.on_edges = [&](auto& c) { up.append(c.src, c.dst, c.weight, c.size); }});
///   HostBatchUpload u = up.finish();
///   g.build(u.view(up.size()), std::max(num_vertices, u.id_range));  // == g.build(edge_list)
///
/// Why a copy to build from, not a build chunk by chunk: the bulk build sizes each table for its
/// exact degree, known once every entry is in; inserting each chunk as it comes would make other
/// tables (grown and rebuilt under the inserts). The parse, the copies and the check overlap;
/// the build runs once, on the device-resident list.
///
/// with_values: keep the weights (pieces pass weight arrays, all or none) and convert them in
/// finish(); without, weights are ignored. The device arrays belong to `stream` (allocated and
/// freed on it); the copies run on the upload's own stream. The caller's piece may be reused
/// when append() returns. Not thread-safe. Errors: CapacityError when device or pinned memory
/// runs out; InvalidArgument from finish() for a weight outside uint32, or when only some pieces
/// had weights. Cost: a host memcpy and an asynchronous copy per piece, O(log n) device-side
/// regrowths (each a device copy and a wait), one kernel and one wait in finish().
class EdgeUpload {
 public:
  EdgeUpload(bool with_values, cudaStream_t stream, const EdgeUploadOptions& options = {});
  ~EdgeUpload();
  EdgeUpload(const EdgeUpload&) = delete;
  EdgeUpload& operator=(const EdgeUpload&) = delete;

  void append(const vertex_t* src, const vertex_t* dst, const double* weight, std::uint64_t n);
  /// Once, after the last piece: the list on the device (view(size())) with its id range and
  /// values. The upload is empty afterwards.
  HostBatchUpload finish();
  std::uint64_t size() const noexcept;  ///< entries appended

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace wg::gpu
