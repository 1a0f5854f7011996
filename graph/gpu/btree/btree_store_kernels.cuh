#pragma once
// Kernels of wg::gpu::BTreeStore (btree_store.cu only): batch keys to tree arcs, degree
// updates, vertex erasure, query keys. All grid-stride loops, one thread per item.
#include <cstdint>

#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/graph/gpu/btree/btree_graph_sizing.hpp>
#include <warpgraph/graph/gpu/btree_graph_ref.cuh>
#include <warpgraph/graph/gpu/edge_batch.hpp>

namespace wg::gpu::detail::btree_graph {

inline constexpr std::uint64_t kNoKey = ~std::uint64_t{0};  // the tree's reserved key

#define WG_GRID_STRIDE(i, n)                                                            \
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < (n); \
       i += std::uint64_t{gridDim.x} * blockDim.x)

/// Prepared edge i ((u << bits) | v) -> tree arcs: arcs[per * i] = u -> v and, when `both`,
/// arcs[2i + 1] = v -> u; values copied alongside (0 without values).
__global__ void arcs_kernel(const std::uint64_t* keys, const std::uint32_t* values, std::uint64_t n,
                            unsigned bits, bool both, std::uint64_t* arcs,
                            std::uint64_t* arc_values) {
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  const unsigned per = both ? 2 : 1;
  WG_GRID_STRIDE(i, n) {
    const vertex_t u = static_cast<vertex_t>(keys[i] >> bits);
    const vertex_t v = static_cast<vertex_t>(keys[i] & mask);
    const std::uint64_t val = values ? values[i] : 0;
    arcs[per * i] = btree_arc_key(u, v);
    if (arc_values) arc_values[per * i] = val;
    if (both) {
      arcs[per * i + 1] = btree_arc_key(v, u);
      if (arc_values) arc_values[per * i + 1] = val;
    }
  }
}

/// Degree changes of arcs whose flag says they change (insert: !present; erase: present), and
/// the per-edge flag (of the edge's first arc) for the caller: new (insert) or present (erase).
__global__ void apply_degrees_kernel(const std::uint64_t* arcs, const bool* present,
                                     std::uint64_t num_arcs, unsigned per, bool inserting,
                                     std::uint32_t* degrees, std::uint8_t* edge_flags,
                                     unsigned long long* changed_arcs) {
  unsigned long long local = 0;
  WG_GRID_STRIDE(i, num_arcs) {
    const bool changes = inserting ? !present[i] : present[i];
    if (changes) {
      const vertex_t u = static_cast<vertex_t>(arcs[i] >> 32);
      if (inserting)
        atomicAdd(degrees + u, 1u);
      else
        atomicSub(degrees + u, 1u);
      ++local;
    }
    if (edge_flags && i % per == 0) edge_flags[i / per] = changes ? 1 : 0;
  }
  if (local) atomicAdd(changed_arcs, local);
}

/// All arcs new (bulk build): degree of each arc's source + 1.
__global__ void count_degrees_kernel(const std::uint64_t* arcs, std::uint64_t n,
                                     std::uint32_t* degrees) {
  WG_GRID_STRIDE(i, n) atomicAdd(degrees + static_cast<vertex_t>(arcs[i] >> 32), 1u);
}

/// Query i -> the tree key of its arc, or kNoKey (answered absent) for a self-loop, an id out
/// of range or a non-live end point.
__global__ void query_keys_kernel(DeviceEdges q, const std::uint8_t* live, std::uint64_t nv,
                                  std::uint64_t* keys) {
  WG_GRID_STRIDE(i, q.size) {
    const vertex_t u = q.src[i], v = q.dst[i];
    const bool ok = u != v && u < nv && v < nv && live[u] && live[v];
    keys[i] = ok ? btree_arc_key(u, v) : kNoKey;
  }
}

__global__ void bool_to_byte_kernel(const bool* in, std::uint64_t n, std::uint8_t* out) {
  WG_GRID_STRIDE(i, n) out[i] = in[i] ? 1 : 0;
}

__global__ void low_words_kernel(const std::uint64_t* in, std::uint64_t n, std::uint32_t* out) {
  WG_GRID_STRIDE(i, n) out[i] = static_cast<std::uint32_t>(in[i]);
}

/// Range bounds of vertices ids[i] (or of i when ids is null): [u << 32, (u << 32) | ~0u].
__global__ void vertex_bounds_kernel(const vertex_t* ids, std::uint64_t n, std::uint64_t* lo,
                                     std::uint64_t* hi) {
  WG_GRID_STRIDE(i, n) {
    const vertex_t u = ids ? ids[i] : static_cast<vertex_t>(i);
    lo[i] = btree_arc_key(u, 0);
    hi[i] = btree_arc_key(u, 0xFFFFFFFFu);
  }
}

/// Snapshot pieces of vertex u: ceil(degree / piece_keys), at least 1, at most the id range
/// (each piece a non-empty slice of neighbour ids).
__global__ void piece_count_kernel(const std::uint32_t* degrees, std::uint64_t nv,
                                   std::uint64_t piece_keys, std::uint64_t* pieces) {
  WG_GRID_STRIDE(u, nv) {
    pieces[u] = row_pieces(degrees[u], piece_keys, nv);
  }
}

/// Range bounds of u's pieces first[u] .. first[u + 1] - 1: slice j of p covers neighbour ids
/// [j nv / p, (j + 1) nv / p), the last one up to the largest id.
__global__ void piece_bounds_kernel(const std::uint64_t* first, std::uint64_t nv, std::uint64_t* lo,
                                    std::uint64_t* hi) {
  WG_GRID_STRIDE(u, nv) {
    const std::uint64_t b = first[u], p = first[u + 1] - b;
    const vertex_t x = static_cast<vertex_t>(u);
    for (std::uint64_t j = 0; j < p; ++j) {
      std::uint32_t a, z;
      id_slice(j, p, nv, &a, &z);
      lo[b + j] = btree_arc_key(x, a);
      hi[b + j] = btree_arc_key(x, z);
    }
  }
}

/// Row offsets from the pieces' offsets: offsets[u] = qoff[first[u]], u = 0 .. nv.
__global__ void gather_offsets_kernel(const std::uint64_t* first, const std::uint64_t* qoff,
                                      std::uint64_t nv, std::uint64_t* offsets) {
  WG_GRID_STRIDE(u, nv + 1) offsets[u] = qoff[first[u]];
}

/// Erasing vertices: the arcs that go, appended at *count, and the degrees of the vertices that
/// stay. Undirected, over the arcs v -> w of the erased vertices: every one goes, and w -> v when
/// w stays (w's degree - 1; an erased w lists w -> v itself). Directed, over every arc v -> w: it
/// goes when v or w is erased (v's out-degree - 1 when v stays).
template <bool Directed>
__global__ void erase_arcs_kernel(const std::uint64_t* arcs, std::uint64_t n,
                                  const std::uint32_t* erasing, std::uint32_t* degrees,
                                  std::uint64_t* out, unsigned long long* count) {
  WG_GRID_STRIDE(i, n) {
    const vertex_t v = static_cast<vertex_t>(arcs[i] >> 32);
    const vertex_t w = static_cast<vertex_t>(arcs[i]);
    if constexpr (Directed) {
      if (!erasing[v] && !erasing[w]) continue;
      out[atomicAdd(count, 1ull)] = arcs[i];
      if (!erasing[v]) atomicSub(degrees + v, 1u);
    } else {
      const bool stays = !erasing[w];
      const unsigned long long at = atomicAdd(count, stays ? 2ull : 1ull);
      out[at] = arcs[i];
      if (stays) {
        out[at + 1] = btree_arc_key(w, v);
        atomicSub(degrees + w, 1u);
      }
    }
  }
}

#undef WG_GRID_STRIDE

}  // namespace wg::gpu::detail::btree_graph
