// Triangle counting by sorted intersection on the B-tree graph (sorted_triangle_count.hpp).
#include <cooperative_groups.h>

#include <algorithm>
#include <cstdint>

#include <warpgraph/algorithms/tc/gpu/sorted_triangle_count.hpp>
#include <warpgraph/algorithms/tc/gpu/triangle_count.cuh>
#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/containers/core/work_sharing.cuh>
#include <warpgraph/containers/sorted_array/sorted_primitives.cuh>
#include <warpgraph/graph/gpu/batch_chunks.hpp>
#include <warpgraph/graph/gpu/batch_prep.hpp>
#include <warpgraph/graph/gpu/btree_graph.hpp>
#include <warpgraph/graph/gpu/host_batch.hpp>
#include <warpgraph/graph/gpu/launch_grid.hpp>

namespace wg::gpu {
namespace sorted_tc {

using tc_detail::kFull;
using tc_detail::rank_less;

inline unsigned warp_grid(std::uint64_t warps) {
  return grid_for(warps * 32, std::uint64_t{1} << 16);
}

/// Oriented row lengths: cnt[u] = neighbours v of u with rank(u) < rank(v). A warp per row.
__global__ void orient_count_kernel(const std::uint64_t* off, const vertex_t* targets,
                                    std::uint64_t n, std::uint64_t* cnt) {
  const unsigned lane = threadIdx.x % 32;
  const std::uint64_t warps = std::uint64_t{gridDim.x} * blockDim.x / 32;
  for (std::uint64_t u = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; u < n;
       u += warps) {
    const std::uint64_t b = off[u], e = off[u + 1];
    unsigned c = 0;
    for (std::uint64_t i = b + lane; i < e; i += 32) {
      const vertex_t v = targets[i];
      c += rank_less(static_cast<vertex_t>(u), e - b, v, off[v + 1] - off[v]);
    }
    c = __reduce_add_sync(kFull, c);
    if (lane == 0) cnt[u] = c;
  }
}

/// The oriented rows, in the rows' (sorted) order: arc j = osrc[j] -> odst[j].
__global__ void orient_fill_kernel(const std::uint64_t* off, const vertex_t* targets,
                                   std::uint64_t n, const std::uint64_t* ooff, vertex_t* osrc,
                                   vertex_t* odst) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned below = (1u << lane) - 1;
  const std::uint64_t warps = std::uint64_t{gridDim.x} * blockDim.x / 32;
  for (std::uint64_t u = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; u < n;
       u += warps) {
    const std::uint64_t b = off[u], e = off[u + 1];
    std::uint64_t pos = ooff[u];
    for (std::uint64_t base = b; base < e; base += 32) {
      const std::uint64_t i = base + lane;
      bool keep = false;
      vertex_t v = 0;
      if (i < e) {
        v = targets[i];
        keep = rank_less(static_cast<vertex_t>(u), e - b, v, off[v + 1] - off[v]);
      }
      const unsigned mask = __ballot_sync(kFull, keep);
      if (keep) {
        const std::uint64_t at = pos + __popc(mask & below);
        osrc[at] = static_cast<vertex_t>(u);
        odst[at] = v;
      }
      pos += __popc(mask);
    }
  }
}

/// Is w in the sorted row r[0, len)?
__device__ __forceinline__ bool contains_sorted(const vertex_t* r, std::uint64_t len, vertex_t w) {
  std::uint64_t lo = 0, hi = len;
  while (lo < hi) {
    const std::uint64_t mid = (lo + hi) / 2;
    if (r[mid] < w)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < len && r[lo] == w;
}

/// Rank keys (degree << 32 | id): sorted, their order is the orientation's rank order.
__global__ void rank_keys_kernel(const std::uint64_t* off, std::uint64_t n, std::uint64_t* keys) {
  for (std::uint64_t u = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; u < n;
       u += std::uint64_t{gridDim.x} * blockDim.x)
    keys[u] = (off[u + 1] - off[u]) << 32 | u;
}

/// new_id[old] = the old id's position in rank order; row_len[new] = its oriented row's length.
__global__ void relabel_ids_kernel(const std::uint64_t* sorted_keys, const std::uint64_t* cnt,
                                   std::uint64_t n, vertex_t* new_id, std::uint64_t* row_len) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const auto old = static_cast<vertex_t>(sorted_keys[i] & 0xffffffffu);
    new_id[old] = static_cast<vertex_t>(i);
    row_len[i] = cnt[old];
  }
}

/// The oriented arcs in new ids, as sortable keys (new source << 32 | new target).
__global__ void relabel_arcs_kernel(const vertex_t* osrc, const vertex_t* odst, std::uint64_t m,
                                    const vertex_t* new_id, std::uint64_t* keys) {
  for (std::uint64_t a = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; a < m;
       a += std::uint64_t{gridDim.x} * blockDim.x)
    keys[a] = std::uint64_t{new_id[osrc[a]]} << 32 | new_id[odst[a]];
}

__global__ void split_keys_kernel(const std::uint64_t* keys, std::uint64_t m, vertex_t* src,
                                  vertex_t* dst) {
  for (std::uint64_t a = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; a < m;
       a += std::uint64_t{gridDim.x} * blockDim.x) {
    src[a] = static_cast<vertex_t>(keys[a] >> 32);
    dst[a] = static_cast<vertex_t>(keys[a] & 0xffffffffu);
  }
}

/// Triangles per oriented arc a = u -> v, ids in rank order (so every row holds only larger ids,
/// sorted): the third vertex w of a triangle counted at (u, v) lies after v in u's row and in
/// v's row, so only u's row tail past a is intersected with v's row (each triangle once, at its
/// two lowest-ranked vertices). kLanes lanes per arc take the shorter list's elements and
/// binary-search them in the longer one.
template <unsigned kLanes>
__global__ void tail_intersect_kernel(const std::uint64_t* ooff, const vertex_t* osrc,
                                      const vertex_t* odst, std::uint64_t m,
                                      unsigned long long* total) {
  const std::uint64_t tid = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const std::uint64_t groups = std::uint64_t{gridDim.x} * blockDim.x / kLanes;
  const unsigned r = threadIdx.x % kLanes;
  unsigned long long c = 0;
  for (std::uint64_t a = tid / kLanes; a < m; a += groups) {
    const vertex_t u = osrc[a], v = odst[a];
    const vertex_t* A = odst + a + 1;
    std::uint64_t la = ooff[u + 1] - a - 1;
    const vertex_t* B = odst + ooff[v];
    std::uint64_t lb = ooff[v + 1] - ooff[v];
    if (la > lb) {
      const vertex_t* t = A;
      A = B;
      B = t;
      const std::uint64_t l = la;
      la = lb;
      lb = l;
    }
    if (la == 0) continue;
    // The shorter list's range that can meet the longer one's (both sorted).
    const vertex_t first = B[0], last = B[lb - 1];
    for (std::uint64_t i = r; i < la; i += kLanes) {
      const vertex_t w = A[i];
      if (w >= first && w <= last) c += contains_sorted(B, lb, w);
    }
  }
  for (unsigned o = 16; o; o >>= 1) c += __shfl_down_sync(kFull, c, o);
  if (threadIdx.x % 32 == 0 && c) atomicAdd(total, c);
}

}  // namespace sorted_tc

namespace sorted_tc {

/// Renames the vertices in rank order (degree, then id) and rewrites the oriented rows in the
/// new ids, sorted: every row then holds only larger ids, which the tail intersection needs, and
/// neighbouring ranks share rows' cache lines. Two radix sorts (n and m keys); O(n + m) memory
/// for the keys while it runs.
inline void relabel_by_rank(const std::uint64_t* off, const std::uint64_t* cnt, std::uint64_t n,
                            std::uint64_t m, DeviceBuffer<std::uint64_t>& ooff,
                            DeviceBuffer<vertex_t>& osrc, DeviceBuffer<vertex_t>& odst,
                            cudaStream_t stream) {
  const unsigned vgrid = grid_for(n, std::uint64_t{1} << 16),
                 agrid = grid_for(m, std::uint64_t{1} << 16);
  DeviceBuffer<std::uint64_t> k0(std::max(n, m), stream, "rank keys"),
      k1(std::max(n, m), stream, "rank keys");
  rank_keys_kernel<<<vgrid, kBlock, 0, stream>>>(off, n, k0.data());
  WG_CUDA_CHECK_LAST();
  const std::uint64_t* ranked = sorted_detail::sort_keys(k0.data(), k1.data(), n, stream);
  DeviceBuffer<vertex_t> new_id(n, stream, "rank ids");
  DeviceBuffer<std::uint64_t> row_len(n, stream, "oriented degrees");
  relabel_ids_kernel<<<vgrid, kBlock, 0, stream>>>(ranked, cnt, n, new_id.data(), row_len.data());
  WG_CUDA_CHECK_LAST();
  exclusive_scan(row_len.data(), ooff.data(), n, stream);
  relabel_arcs_kernel<<<agrid, kBlock, 0, stream>>>(osrc.data(), odst.data(), m, new_id.data(),
                                                    k0.data());
  WG_CUDA_CHECK_LAST();
  const std::uint64_t* arcs = sorted_detail::sort_keys(k0.data(), k1.data(), m, stream);
  split_keys_kernel<<<agrid, kBlock, 0, stream>>>(arcs, m, osrc.data(), odst.data());
  WG_CUDA_CHECK_LAST();
}

}  // namespace sorted_tc

template <bool W>
std::uint64_t count_triangles_sorted(const BTreeGraph<W>& graph, const SortedTcTuning& options) {
  using namespace sorted_tc;
  if (graph.directed())
    throw InvalidArgument("triangle counting needs an undirected graph (directed = false)");
  const unsigned lanes = options.lanes_per_arc;
  if (lanes != 4 && lanes != 8 && lanes != 16 && lanes != 32)
    throw InvalidArgument("SortedTcTuning::lanes_per_arc must be 4, 8, 16 or 32");
  const std::uint64_t n = graph.num_vertices();
  if (n == 0 || graph.num_edges() == 0) return 0;
  const cudaStream_t stream = graph.stream();
  const DeviceCsr csr = graph.export_device_csr();
  DeviceBuffer<std::uint64_t> cnt(n, stream, "oriented degrees");
  DeviceBuffer<std::uint64_t> ooff(n + 1, stream, "oriented offsets");
  orient_count_kernel<<<warp_grid(n), kBlock, 0, stream>>>(csr.offsets.data(), csr.targets.data(),
                                                           n, cnt.data());
  WG_CUDA_CHECK_LAST();
  exclusive_scan(cnt.data(), ooff.data(), n, stream);
  std::uint64_t m = 0;
  WG_CUDA_TRY(cudaMemcpyAsync(&m, ooff.data() + n, sizeof m, cudaMemcpyDeviceToHost, stream));
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
  if (m == 0) return 0;
  DeviceBuffer<vertex_t> osrc(m, stream, "oriented arcs"), odst(m, stream, "oriented arcs");
  orient_fill_kernel<<<warp_grid(n), kBlock, 0, stream>>>(csr.offsets.data(), csr.targets.data(), n,
                                                          ooff.data(), osrc.data(), odst.data());
  WG_CUDA_CHECK_LAST();
  relabel_by_rank(csr.offsets.data(), cnt.data(), n, m, ooff, osrc, odst, stream);
  DeviceBuffer<unsigned long long> total(1, stream, "triangle counter");
  WG_CUDA_TRY(cudaMemsetAsync(total.data(), 0, sizeof(unsigned long long), stream));
  const unsigned blocks = grid_for(m * lanes, std::uint64_t{1} << 16);
  const auto launch = [&](auto kernel) {
    kernel<<<blocks, kBlock, 0, stream>>>(ooff.data(), osrc.data(), odst.data(), m, total.data());
  };
  switch (lanes) {
    case 4:
      launch(tail_intersect_kernel<4>);
      break;
    case 8:
      launch(tail_intersect_kernel<8>);
      break;
    case 16:
      launch(tail_intersect_kernel<16>);
      break;
    default:
      launch(tail_intersect_kernel<32>);
  }
  WG_CUDA_CHECK_LAST();
  return total.to_host(stream)[0];
}

// ---- incremental: IncrementalTriangleCounter (triangle_count.cuh) with SortedCounting ------

template class IncrementalTriangleCounter<BTreeGraph<false>, SortedCounting>;
template class IncrementalTriangleCounter<BTreeGraph<true>, SortedCounting>;
template std::uint64_t count_triangles_sorted(const BTreeGraph<false>&, const SortedTcTuning&);
template std::uint64_t count_triangles_sorted(const BTreeGraph<true>&, const SortedTcTuning&);

}  // namespace wg::gpu
