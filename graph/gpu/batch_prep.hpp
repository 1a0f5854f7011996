#pragma once
// Batch preprocessing on the device (CUB lives in batch_prep.cu only): canonicalise entries,
// drop self-loops and entries with an invalid endpoint, radix sort, keep one entry per edge (the
// LAST one, so the batch's last weight wins: the radix sort is stable).
#include <cuda_runtime_api.h>

#include <cstdint>

#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/graph/gpu/edge_batch.hpp>
#include <warpgraph/graph/gpu/graph_front.hpp>

namespace wg::gpu {

/// Bits per endpoint in an edge key for a vertex range of n: keys are (u << bits) | v.
unsigned key_bits_for(std::uint64_t num_vertices);

/// Writes entry i of `in` as the key (u << bits) | v (u < v when `canonical`), or as all ones in
/// 2 x bits (sorted last) for a self-loop, an id >= num_vertices or, when `live` is given, a
/// non-live end point; adds their numbers to *self_loops and *invalid. With `values`, copies the
/// entries' values (0 when `in` has none). Stream-ordered, no synchronisation.
void pack_edge_keys(DeviceEdges in, const std::uint8_t* live, std::uint64_t num_vertices,
                    unsigned bits, bool canonical, std::uint64_t* keys, std::uint32_t* values,
                    unsigned long long* self_loops, unsigned long long* invalid,
                    cudaStream_t stream);

/// Dedups `in` into `out` (see PreparedBatch). live may be null (all ids < num_vertices live).
/// canonical: undirected (u < v). with_values: carry the entries' values (last one wins).
void prepare_batch(DeviceEdges in, const std::uint8_t* live, std::uint64_t num_vertices,
                   bool canonical, bool with_values, cudaStream_t stream, PreparedBatch& out);

/// out[i] = sum of in[0..i) (n + 1 outputs: out[n] is the total).
void exclusive_scan(const std::uint64_t* in, std::uint64_t* out, std::uint64_t n,
                    cudaStream_t stream);

/// Copies keys[i] (and values[i] when non-null) where flags[i] != 0, keeping order; returns the
/// count (synchronises the stream).
std::uint64_t select_flagged(const std::uint64_t* keys, const std::uint32_t* values,
                             const std::uint8_t* flags, std::uint64_t n, std::uint64_t* keys_out,
                             std::uint32_t* values_out, cudaStream_t stream);

/// Writes the i in [0, n) with flags[i] != 0 to out, in increasing order; returns their count
/// (synchronises the stream).
std::uint64_t flagged_ids(const std::uint32_t* flags, std::uint64_t n, std::uint32_t* out,
                          cudaStream_t stream);

/// Sorts n keys on their bits [0, end_bit) from `in` into `out` (CUB radix sort, stream-ordered,
/// no synchronisation); `temp` is grown to what CUB asks for and kept for the next call. With
/// values_in, each key's value goes along to values_out. The sort is stable: equal keys keep
/// their order (the last entry of an edge stays last).
void sort_keys(const std::uint64_t* in, std::uint64_t* out, std::uint64_t n, int end_bit,
               DeviceBuffer<char>& temp, cudaStream_t stream,
               const std::uint32_t* values_in = nullptr, std::uint32_t* values_out = nullptr);

/// Sum of n bytes (0/1 flags) (synchronises the stream).
std::uint64_t count_flags(const std::uint8_t* flags, std::uint64_t n, cudaStream_t stream);

}  // namespace wg::gpu
