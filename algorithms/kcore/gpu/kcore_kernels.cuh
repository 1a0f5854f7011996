#pragma once
// The kernels of the GPU core numbers (kcore.cuh), over any DeviceGraphView. For .cu files.
//
// Memory order. Static peeling: remaining degrees change only by atomicSub, and the thread whose
// decrement takes a vertex from k + 1 to k is the only one that writes its core number and
// queues it; other threads read core numbers through relaxed atomic loads and may see a vertex
// as remaining a moment after it was queued: their decrement then finds it at or below k and
// does nothing more. Dynamic rounds: stamps are claimed by atomicExch (one thread lists a
// vertex); counts and dec change only by atomicSub / atomicAdd, and a vertex is queued by the one
// update that crosses its threshold. pass[] and count[] of a vertex are written by lane 0 of
// the warp that examines (counts) it and read by other warps only in later launches; core
// numbers are read-only in every round kernel but the applying ones (rise, fall_apply: one
// thread per vertex, each vertex listed once). Level ranges, phases and the cut flag are written
// by one-thread kernels between launches. Kernels on one stream see each other's writes.

#include <cuda/atomic>

#include <cstdint>

#include <warpgraph/containers/core/hash.cuh>
#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/containers/core/work_sharing.cuh>

namespace wg::gpu::kcore_detail {

inline constexpr unsigned kFull = 0xFFFFFFFFu;
inline constexpr std::uint32_t kUnset = 0xFFFFFFFFu;
inline constexpr unsigned long long kEmptySlot = ~0ull;

template <class T>
__device__ __forceinline__ T relaxed_load(const T* p) {
  return cuda::atomic_ref<T, cuda::thread_scope_device>(*const_cast<T*>(p))
      .load(cuda::memory_order_relaxed);
}
template <class T>
__device__ __forceinline__ void relaxed_store(T* p, T v) {
  cuda::atomic_ref<T, cuda::thread_scope_device>(*p).store(v, cuda::memory_order_relaxed);
}

/// Appends v to list by one atomicAdd on *size (positions are unique, order unspecified).
__device__ __forceinline__ void append(vertex_t* list, unsigned long long* size, vertex_t v) {
  list[atomicAdd(size, 1ull)] = v;
}

// ---- static peeling ---------------------------------------------------------------------------

/// Remaining vertices (all ids, or list[0..count)) of remaining degree <= k get number k and
/// join the frontier (counters[0]); the others give counters[1] the least remaining degree. Warp-
/// aggregated: one atomicAdd and one atomicMin per warp and step.
__global__ inline void peel_scan_kernel(const vertex_t* list, std::uint64_t count,
                                        const std::uint32_t* deg, std::uint32_t* core,
                                        std::uint32_t k, vertex_t* frontier,
                                        unsigned long long* counters) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  const unsigned lane = threadIdx.x & 31;
  // Uniform trip count over the warp, for the warp-wide operations.
  for (std::uint64_t base = std::uint64_t{blockIdx.x} * blockDim.x; base < count; base += stride) {
    const std::uint64_t i = base + threadIdx.x;
    bool take = false;
    std::uint32_t least = kUnset;
    vertex_t v = 0;
    if (i < count) {
      v = list ? list[i] : static_cast<vertex_t>(i);
      if (core[v] == kUnset) {
        const std::uint32_t d = deg[v];
        if (d <= k) {
          take = true;
          core[v] = k;
        } else {
          least = d;
        }
      }
    }
    const unsigned ballot = __ballot_sync(kFull, take);
    if (ballot) {
      unsigned long long first = 0;
      if (lane == 0) first = atomicAdd(counters, static_cast<unsigned long long>(__popc(ballot)));
      first = __shfl_sync(kFull, first, 0);
      if (take) frontier[first + __popc(ballot & ((1u << lane) - 1))] = v;
    }
    least = __reduce_min_sync(kFull, least);
    if (lane == 0 && least != kUnset)
      atomicMin(counters + 1, static_cast<unsigned long long>(least));
  }
}

/// The peeling's op (ops::advance over the live vertices of level k's frontier): each
/// remaining neighbour w loses one degree; the decrement that takes it from k + 1 to k gives it
/// number k and queues it.
struct PeelOp {
  std::uint32_t* deg;
  std::uint32_t* core;
  std::uint32_t k;

  template <class Value>
  __device__ bool operator()(vertex_t, vertex_t w, std::uint32_t, const Value&) const {
    if (relaxed_load(core + w) != kUnset) return false;
    if (atomicSub(deg + w, 1u) != k + 1) return false;
    relaxed_store(core + w, k);
    return true;
  }
};

/// counters[6] += touched vertices whose number differs from the recorded one; with restore,
/// puts the recorded number back instead.
__global__ inline void touched_kernel(const vertex_t* touched, std::uint64_t size,
                                      std::uint32_t* core, const std::uint32_t* old_core,
                                      bool restore, unsigned long long* counters) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < size;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const vertex_t u = touched[i];
    if (restore)
      core[u] = old_core[u];
    else if (core[u] != old_core[u])
      atomicAdd(counters + 6, 1ull);
  }
}

/// counters[6] += ids whose numbers differ between a and b (one atomic per warp and step).
__global__ inline void diff_kernel(const std::uint32_t* a, const std::uint32_t* b, std::uint64_t n,
                                   unsigned long long* counters) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t base = std::uint64_t{blockIdx.x} * blockDim.x; base < n; base += stride) {
    const std::uint64_t v = base + threadIdx.x;
    const unsigned c = __reduce_add_sync(kFull, v < n && a[v] != b[v] ? 1u : 0u);
    if ((threadIdx.x & 31) == 0 && c) atomicAdd(counters + 6, static_cast<unsigned long long>(c));
  }
}

}  // namespace wg::gpu::kcore_detail
