#pragma once
// The union-find kernels of the GPU components (wcc.cuh), over any DeviceGraphView. For .cu files.
//
// Memory order: the parent array is the only shared state; it is read and written through
// relaxed device-scope atomics (cuda::atomic_ref), so every load sees a value some thread stored.
// Parents only ever move to smaller ids (a hook sets parent[b] = a < b on a root b, by CAS; path
// halving sets parent[x] to its grandparent), so the forest has no cycles whatever the
// interleaving, a root is the smallest id of its tree, and a stale read only means a longer walk.
// Nothing else is published through the array, so no fence is needed within a kernel; kernels
// on one stream see each other's writes.
#include <cuda/atomic>

#include <cstdint>

#include <warpgraph/algorithms/operators/advance.cuh>
#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/containers/core/work_sharing.cuh>
#include <warpgraph/graph/graph_concepts.hpp>

namespace wg::gpu::wcc_detail {

inline constexpr unsigned kFull = 0xFFFFFFFFu;

__device__ __forceinline__ vertex_t load_parent(vertex_t* parent, vertex_t x) {
  return cuda::atomic_ref<vertex_t, cuda::thread_scope_device>(parent[x]).load(
      cuda::memory_order_relaxed);
}
__device__ __forceinline__ void store_parent(vertex_t* parent, vertex_t x, vertex_t p) {
  cuda::atomic_ref<vertex_t, cuda::thread_scope_device>(parent[x]).store(
      p, cuda::memory_order_relaxed);
}

/// The root of x's tree, halving the path on the way.
__device__ inline vertex_t find_root(vertex_t* parent, vertex_t x) {
  while (true) {
    const vertex_t p = load_parent(parent, x);
    if (p == x) return x;
    const vertex_t gp = load_parent(parent, p);
    if (gp == p) return p;
    // Both are ancestors of x: whichever CAS wins, x's parent stays an ancestor.
    atomicCAS(parent + x, p, gp);
    x = gp;
  }
}

/// Unites the trees of a and b: the larger root is hooked under the smaller one.
__device__ inline void unite(vertex_t* parent, vertex_t a, vertex_t b) {
  while (true) {
    a = find_root(parent, a);
    b = find_root(parent, b);
    if (a == b) return;
    if (a > b) {
      const vertex_t t = a;
      a = b;
      b = t;
    }
    // b may have been hooked meanwhile: then the CAS fails and both roots are found again.
    if (atomicCAS(parent + b, b, a) == b) return;
  }
}

/// parent[v] = v for v in [first, n).
__global__ inline void init_parents_kernel(vertex_t* parent, std::uint64_t first, std::uint64_t n) {
  for (std::uint64_t v = first + std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; v < n;
       v += std::uint64_t{gridDim.x} * blockDim.x)
    parent[v] = static_cast<vertex_t>(v);
}

/// The hooking op (ops::advance over the live vertices with arcs: all ids, or a list): u is
/// united with each out-neighbour w. symmetric: each edge is stored both ways, so only arcs to
/// smaller ids unite. Appends nothing.
struct HookOp {
  vertex_t* parent;
  bool symmetric;

  template <class Value>
  __device__ bool operator()(vertex_t u, vertex_t w, std::uint32_t, const Value&) const {
    if (!symmetric || w < u) unite(parent, u, w);
    return false;
  }
};

/// Hooks every vertex of `in` (a warp each) to its out-neighbours, ordered on `stream`.
template <class View>
void hook(const View& g, vertex_t* parent, const ops::FrontierIn& in, bool symmetric,
          cudaStream_t stream) {
  ops::advance<ops::Walk::lanes>(g, in, ops::FrontierOut{}, HookOp{parent, symmetric},
                                 ops::AdvanceLaunch::sized(in.size, {}), stream,
                                 ops::LiveSource<true>{});
}

/// One thread per edge key: unites its endpoints.
__global__ inline void unite_keys_kernel(vertex_t* parent, const std::uint64_t* keys,
                                         std::uint64_t m, unsigned bits) {
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    unite(parent, static_cast<vertex_t>(keys[i] >> bits), static_cast<vertex_t>(keys[i] & mask));
}

/// Sum over the warp of `x` added to *out by lane 0 (the whole warp calls it).
__device__ __forceinline__ void warp_add(unsigned long long* out, unsigned x) {
  const unsigned s = __reduce_add_sync(kFull, x);
  if ((threadIdx.x & 31) == 0 && s) atomicAdd(out, static_cast<unsigned long long>(s));
}

/// Points every vertex (all ids below n, or list[0..count)) at its root. With label: also copies
/// the root there, adding to counters[0] the vertices whose label moved.
__global__ inline void compress_kernel(vertex_t* parent, vertex_t* label, const vertex_t* list,
                                       std::uint64_t count, unsigned long long* counters) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  // Uniform trip count over the warp, for the warp reductions.
  for (std::uint64_t base = std::uint64_t{blockIdx.x} * blockDim.x; base < count; base += stride) {
    const std::uint64_t i = base + threadIdx.x;
    unsigned moved = 0;
    if (i < count) {
      const vertex_t v = list ? list[i] : static_cast<vertex_t>(i);
      const vertex_t r = find_root(parent, v);
      store_parent(parent, v, r);
      if (label) {
        moved = label[v] != r;
        label[v] = r;
      }
    }
    if (label) warp_add(counters, moved);
  }
}

/// counters[1] += the ids v < n with parent[v] == v (the roots: one per component).
__global__ inline void count_roots_kernel(const vertex_t* parent, std::uint64_t n,
                                          unsigned long long* counters) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t base = std::uint64_t{blockIdx.x} * blockDim.x; base < n; base += stride) {
    const std::uint64_t v = base + threadIdx.x;
    warp_add(counters + 1, v < n && parent[v] == v);
  }
}

/// counters[0] += the ids v < n whose label differs from before[v] (from v itself for the ids
/// v >= n_before that before does not cover: they joined as components of their own).
__global__ inline void moved_kernel(const vertex_t* label, const vertex_t* before,
                                    std::uint64_t n_before, std::uint64_t n,
                                    unsigned long long* counters) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t base = std::uint64_t{blockIdx.x} * blockDim.x; base < n; base += stride) {
    const std::uint64_t v = base + threadIdx.x;
    unsigned moved = 0;
    if (v < n) moved = label[v] != (v < n_before ? before[v] : static_cast<vertex_t>(v));
    warp_add(counters, moved);
  }
}

/// flag[label[u]] = 1 for the source u of each key (both ends share a label).
__global__ inline void flag_labels_kernel(const std::uint64_t* keys, std::uint64_t m, unsigned bits,
                                          const vertex_t* label, std::uint8_t* flag) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    flag[label[keys[i] >> bits]] = 1;
}

/// flag[label[ids[i]]] = 1 for the ids below n.
__global__ inline void flag_ids_kernel(const vertex_t* ids, std::uint64_t m, std::uint64_t n,
                                       const vertex_t* label, std::uint8_t* flag) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    if (ids[i] < n) flag[label[ids[i]]] = 1;
}

/// Every vertex of a flagged component becomes its own root and joins `members`
/// (counters[2] counts them; order unspecified).
__global__ inline void collect_flagged_kernel(const vertex_t* label, const std::uint8_t* flag,
                                              std::uint64_t n, vertex_t* parent, vertex_t* members,
                                              unsigned long long* counters) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  const unsigned lane = threadIdx.x & 31;
  for (std::uint64_t base = std::uint64_t{blockIdx.x} * blockDim.x; base < n; base += stride) {
    const std::uint64_t v = base + threadIdx.x;
    const bool hit = v < n && flag[label[v]];
    const unsigned ballot = __ballot_sync(kFull, hit);
    if (!ballot) continue;
    unsigned long long first = 0;
    if (lane == 0) first = atomicAdd(counters + 2, static_cast<unsigned long long>(__popc(ballot)));
    first = __shfl_sync(kFull, first, 0);
    if (hit) {
      parent[v] = static_cast<vertex_t>(v);
      members[first + __popc(ballot & ((1u << lane) - 1))] = static_cast<vertex_t>(v);
    }
  }
}

}  // namespace wg::gpu::wcc_detail
