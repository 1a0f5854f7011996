#pragma once
// The degree-oriented view that the sorted triangle count intersects (count_triangles_sorted,
// triangle_count.hpp), built on the device from a DeviceCsr (rows in any order), and the
// intersection kernel over it. For .cu files (pulls in CUB).
//
// Orientation: rank(v) = (degree, id); every undirected edge becomes one arc from its lower- to
// its higher-ranked end, so an oriented row holds at most sqrt(2E) arcs even at a hub. The
// vertices are then renamed by rank (new id = position in rank order), which makes "higher
// ranked" simply "larger id" and lets neighbouring ranks share cache lines. The CSR's arcs are
// read flat (a thread per arc, so a hub's row costs no more than its share): each is turned
// into a key (new u, new v) packed in 2 * bit_width(n - 1) bits and the upward ones are kept by
// one CUB select; the keys are radix-sorted on those bits only, so every row comes out sorted,
// and the row lengths are counted from the sorted keys. Work O(V log V + E) plus the sort;
// memory while it runs: 8 bytes per edge of arc sources and 16 of keys, then the view's 8 per
// edge (sources and targets).
//
// Counting: for every arc a = u -> v, the triangles {u, v, w} with w after v in u's row and in
// v's row: the tail of u's row after a is intersected with v's row, so each triangle is counted
// once, at its two lowest-ranked vertices. kLanes lanes per arc take the shorter list's elements
// and binary-search them in the longer one; each lane's elements increase, so its next search
// starts where its last one ended.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>

#include <bit>
#include <chrono>
#include <cstdint>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/containers/sorted_array/sorted_primitives.cuh>
#include <warpgraph/graph/gpu/batch_prep.hpp>
#include <warpgraph/graph/gpu/launch_grid.hpp>

namespace wg::gpu::oriented {

inline constexpr unsigned kFullMask = 0xFFFFFFFFu;

/// The oriented rows in rank ids (see the header).
struct OrientedRows {
  std::uint64_t num_vertices = 0;
  std::uint64_t num_arcs = 0;
  DeviceBuffer<std::uint64_t> offsets;  ///< num_vertices + 1, by rank id
  DeviceBuffer<vertex_t> source;        ///< arc a = source[a] -> target[a], rows sorted
  DeviceBuffer<vertex_t> target;
  DeviceBuffer<vertex_t> old_id;  ///< rank id -> the graph's id
};

/// Wall time between marks, the stream synchronised at each (for TcTuning::phases).
class PhaseClock {
 public:
  PhaseClock(bool on, cudaStream_t stream) : on_(on), stream_(stream) {}
  /// Milliseconds since the last mark (0 when off).
  double mark() {
    if (!on_) return 0;
    WG_CUDA_TRY(cudaStreamSynchronize(stream_));
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
    return ms;
  }

 private:
  bool on_;
  cudaStream_t stream_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

inline unsigned warp_grid(std::uint64_t warps) {
  return grid_for(warps * 32, std::uint64_t{1} << 16);
}

__global__ inline void rank_keys_kernel(const std::uint64_t* off, std::uint64_t n,
                                        std::uint64_t* keys) {
  for (std::uint64_t u = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; u < n;
       u += std::uint64_t{gridDim.x} * blockDim.x)
    keys[u] = (off[u + 1] - off[u]) << 32 | u;
}

/// new_id[old] = the old id's position in rank order, old_id the inverse.
__global__ inline void rank_ids_kernel(const std::uint64_t* ranked, std::uint64_t n,
                                       vertex_t* new_id, vertex_t* old_id) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const auto old = static_cast<vertex_t>(ranked[i] & 0xFFFFFFFFu);
    new_id[old] = static_cast<vertex_t>(i);
    old_id[i] = old;
  }
}

/// source[i] = the row of arc i (a warp per row: a hub's row is plain stores).
__global__ inline void arc_sources_kernel(const std::uint64_t* off, std::uint64_t n,
                                          vertex_t* source) {
  const unsigned lane = threadIdx.x % 32;
  const std::uint64_t warps = std::uint64_t{gridDim.x} * blockDim.x / 32;
  for (std::uint64_t u = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; u < n;
       u += warps)
    for (std::uint64_t i = off[u] + lane; i < off[u + 1]; i += 32)
      source[i] = static_cast<vertex_t>(u);
}

/// Arc i as the key (new source << bits | new target).
struct ArcKey {
  const vertex_t* source;
  const vertex_t* target;
  const vertex_t* new_id;
  unsigned bits;
  __device__ std::uint64_t operator()(std::uint64_t i) const {
    return std::uint64_t{new_id[source[i]]} << bits | new_id[target[i]];
  }
};

/// Keeps the arcs that go up in rank (the target's new id is the larger).
struct GoesUp {
  unsigned bits;
  __device__ bool operator()(std::uint64_t key) const {
    return (key & ((std::uint64_t{1} << bits) - 1)) > (key >> bits);
  }
};

/// Splits the sorted keys into sources and targets and counts each row's arcs (the leader of
/// each run of equal sources in a warp adds the run's length).
__global__ inline void split_keys_kernel(const std::uint64_t* keys, std::uint64_t m, unsigned bits,
                                         vertex_t* src, vertex_t* dst,
                                         unsigned long long* row_len) {
  const std::uint64_t low = (std::uint64_t{1} << bits) - 1;
  const unsigned lane = threadIdx.x % 32;
  for (std::uint64_t a = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; a < m;
       a += std::uint64_t{gridDim.x} * blockDim.x) {
    const auto u = static_cast<vertex_t>(keys[a] >> bits);
    src[a] = u;
    dst[a] = static_cast<vertex_t>(keys[a] & low);
    const unsigned run = __match_any_sync(__activemask(), u);
    if (lane == static_cast<unsigned>(__ffs(run) - 1))
      atomicAdd(&row_len[u], static_cast<unsigned long long>(__popc(run)));
  }
}

/// Radix sort of `m` keys on bits [0, end_bit); returns the buffer holding the result.
inline std::uint64_t* sort_low_bits(std::uint64_t* k0, std::uint64_t* k1, std::uint64_t m,
                                    int end_bit, cudaStream_t stream) {
  cub::DoubleBuffer<std::uint64_t> dk(k0, k1);
  sorted_detail::cub_run(stream, [&](void* t, std::size_t& b) {
    return cub::DeviceRadixSort::SortKeys(t, b, dk, static_cast<std::int64_t>(m), 0, end_bit,
                                          stream);
  });
  return dk.Current();
}

/// The oriented view of the CSR (off, targets) of `n` ids and `arcs` arcs, an undirected graph
/// without self-loops (see the header). Error when the arcs do not pair up (a bug).
inline OrientedRows orient_by_rank(const std::uint64_t* off, const vertex_t* targets,
                                   std::uint64_t n, std::uint64_t arcs, cudaStream_t stream,
                                   PhaseClock& clock, double& orient_ms, double& sort_ms) {
  OrientedRows o;
  o.num_vertices = n;
  const unsigned bits = static_cast<unsigned>(std::bit_width(std::max<std::uint64_t>(n - 1, 1)));
  const unsigned vgrid = grid_for(n, std::uint64_t{1} << 16);
  DeviceBuffer<vertex_t> new_id(n, stream, "rank ids");
  o.old_id = DeviceBuffer<vertex_t>(n, stream, "rank ids");
  {
    DeviceBuffer<std::uint64_t> k0(n, stream, "rank keys"), k1(n, stream, "rank keys");
    rank_keys_kernel<<<vgrid, kBlock, 0, stream>>>(off, n, k0.data());
    WG_CUDA_CHECK_LAST();
    const std::uint64_t* ranked = sort_low_bits(k0.data(), k1.data(), n, 64, stream);
    rank_ids_kernel<<<vgrid, kBlock, 0, stream>>>(ranked, n, new_id.data(), o.old_id.data());
    WG_CUDA_CHECK_LAST();
  }
  o.offsets = DeviceBuffer<std::uint64_t>(n + 1, stream, "oriented offsets");
  const std::uint64_t m = arcs / 2;
  o.num_arcs = m;
  if (m == 0) {
    o.offsets.fill_bytes(0, stream);
    return o;
  }
  DeviceBuffer<std::uint64_t> k0(m, stream, "oriented arc keys"),
      k1(m, stream, "oriented arc keys");
  {
    DeviceBuffer<vertex_t> source(arcs, stream, "arc sources");
    arc_sources_kernel<<<warp_grid(n), kBlock, 0, stream>>>(off, n, source.data());
    WG_CUDA_CHECK_LAST();
    const auto in =
        thrust::make_transform_iterator(thrust::make_counting_iterator<std::uint64_t>(0),
                                        ArcKey{source.data(), targets, new_id.data(), bits});
    DeviceBuffer<std::uint64_t> selected(1, stream, "oriented arc count");
    sorted_detail::cub_run(stream, [&](void* t, std::size_t& b) {
      return cub::DeviceSelect::If(t, b, in, k0.data(), selected.data(),
                                   static_cast<std::int64_t>(arcs), GoesUp{bits}, stream);
    });
    if (selected.to_host(stream)[0] != m)
      throw Error("orient_by_rank: the arcs of an undirected graph do not pair up (bug)");
  }
  orient_ms = clock.mark();
  const std::uint64_t* sorted = sort_low_bits(k0.data(), k1.data(), m, 2 * bits, stream);
  o.source = DeviceBuffer<vertex_t>(m, stream, "oriented arcs");
  o.target = DeviceBuffer<vertex_t>(m, stream, "oriented arcs");
  {
    DeviceBuffer<unsigned long long> len(n, stream, "oriented row lengths");
    len.fill_bytes(0, stream);
    split_keys_kernel<<<grid_for(m, std::uint64_t{1} << 16), kBlock, 0, stream>>>(
        sorted, m, bits, o.source.data(), o.target.data(), len.data());
    WG_CUDA_CHECK_LAST();
    static_assert(sizeof(unsigned long long) == sizeof(std::uint64_t));
    exclusive_scan(reinterpret_cast<const std::uint64_t*>(len.data()), o.offsets.data(), n, stream);
  }
  sort_ms = clock.mark();
  return o;
}

/// Index of the first element >= w in the sorted r[lo, len).
__device__ __forceinline__ std::uint64_t lower_bound(const vertex_t* r, std::uint64_t lo,
                                                     std::uint64_t len, vertex_t w) {
  std::uint64_t hi = len;
  while (lo < hi) {
    const std::uint64_t mid = (lo + hi) / 2;
    if (r[mid] < w)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/// Triangles per oriented arc (see the header); with kPerVertex, per_vertex[x] (rank ids) gets
/// one for every triangle at x.
template <unsigned kLanes, bool kPerVertex>
__global__ void tail_intersect_kernel(const std::uint64_t* off, const vertex_t* src,
                                      const vertex_t* dst, std::uint64_t m,
                                      unsigned long long* total, unsigned long long* per_vertex) {
  const std::uint64_t tid = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const std::uint64_t groups = std::uint64_t{gridDim.x} * blockDim.x / kLanes;
  const unsigned r = threadIdx.x % kLanes;
  // The lanes of one arc's group (kLanes consecutive lanes of the warp).
  const unsigned group_mask = (kLanes == 32 ? kFullMask : ((1u << kLanes) - 1))
                              << (threadIdx.x % 32 / kLanes * kLanes);
  unsigned long long c = 0;
  for (std::uint64_t a = tid / kLanes; a < m; a += groups) {
    const vertex_t u = src[a], v = dst[a];
    const vertex_t* A = dst + a + 1;
    std::uint64_t la = off[u + 1] - a - 1;
    const vertex_t* B = dst + off[v];
    std::uint64_t lb = off[v + 1] - off[v];
    if (la > lb) {
      const vertex_t* t = A;
      A = B;
      B = t;
      const std::uint64_t l = la;
      la = lb;
      lb = l;
    }
    if (la == 0 || lb == 0) continue;  // uniform in the group
    const vertex_t first = B[0], last = B[lb - 1];
    unsigned found = 0;
    std::uint64_t lo = 0;
    for (std::uint64_t i = r; i < la; i += kLanes) {
      const vertex_t w = A[i];
      if (w > last) break;
      if (w < first) continue;
      lo = lower_bound(B, lo, lb, w);
      if (lo < lb && B[lo] == w) {
        ++found;
        if constexpr (kPerVertex) atomicAdd(&per_vertex[w], 1ull);
      }
    }
    c += found;
    if constexpr (kPerVertex) {
      for (unsigned o = kLanes / 2; o; o >>= 1)
        found += __shfl_down_sync(group_mask, found, o, kLanes);
      if (r == 0 && found) {
        atomicAdd(&per_vertex[u], static_cast<unsigned long long>(found));
        atomicAdd(&per_vertex[v], static_cast<unsigned long long>(found));
      }
    }
  }
  for (unsigned o = 16; o; o >>= 1) c += __shfl_down_sync(kFullMask, c, o);
  if (threadIdx.x % 32 == 0 && c) atomicAdd(total, c);
}

__global__ inline void per_vertex_to_old_ids_kernel(const unsigned long long* by_rank,
                                                    const vertex_t* old_id, std::uint64_t n,
                                                    unsigned long long* out) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    out[old_id[i]] = by_rank[i];
}

}  // namespace wg::gpu::oriented
