#pragma once
// Definitions of the GPU triangle counters (triangle_count.hpp), for .cu files. A graph type
// plugs in by satisfying the graph concepts (graph/graph_concepts.hpp: GpuDynamicGraph, with a
// DeviceGraphView ref) and by one line in WG_GPU_GRAPHS (cmake/warpgraph_helpers.cmake),
// which instantiates these templates for it (the lines are in gpu/CMakeLists.txt): no edit
// here.
//
// The sorted count reads the graph through device_csr (graph/gpu/device_csr.cuh) and counts on
// the oriented view of oriented_rows.cuh. The other kernels use only the DeviceGraphView: degree,
// is_live, has_edge, and the warp-uniform for_each_neighbor_slot (tile operations run inside it,
// one neighbour's work per step). The counter's batch members (insert_edges, erase_edges) also use
// the graph's prepared-batch calls (prepare, insert_prepared, contains_prepared, erase_prepared,
// batch_chunk) and the public batch helpers of graph/gpu (chunking, upload, select_flagged).
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include <warpgraph/algorithms/gpu_dynamic_update.cuh>
#include <warpgraph/algorithms/tc/gpu/oriented_rows.cuh>
#include <warpgraph/algorithms/tc/gpu/triangle_count.hpp>
#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/containers/core/hash.cuh>
#include <warpgraph/containers/core/work_sharing.cuh>
#include <warpgraph/graph/gpu/batch_chunks.hpp>
#include <warpgraph/graph/gpu/batch_prep.hpp>
#include <warpgraph/graph/gpu/device_csr.cuh>
#include <warpgraph/graph/gpu/graph_ref.cuh>
#include <warpgraph/graph/gpu/host_batch.hpp>
#include <warpgraph/graph/gpu/launch_grid.hpp>

namespace wg::gpu {
namespace tc_detail {

inline constexpr unsigned kFull = 0xFFFFFFFFu;

/// Degree order: rank(a) < rank(b) iff (deg a, a) < (deg b, b); Degree is the caller's degree
/// type (32-bit from a device view, 64-bit from CSR offsets).
template <class Degree>
__device__ __forceinline__ bool rank_less(vertex_t a, Degree da, vertex_t b,
                                          std::type_identity_t<Degree> db) {
  return da < db || (da == db && a < b);
}

inline int num_sms() {
  static int sms = [] {
    int dev = 0, n = 0;
    WG_CUDA_TRY(cudaGetDevice(&dev));
    WG_CUDA_TRY(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev));
    return n;
  }();
  return sms;
}

// Warps take up to 32 vertices at a time: a first grab each by warp number, then from a global
// queue (hub vertices make work uneven). A warp walks its grab's vertices one after another, so a
// graph with few vertices per warp takes fewer per grab (see vertices_per_grab).
inline constexpr unsigned kMaxVerticesPerGrab = 32;

template <class View, bool kPerVertex>
__global__ void static_tc_kernel(View g, unsigned grab, std::uint64_t stride,
                                 unsigned long long* queue, unsigned long long* total,
                                 unsigned long long* per_vertex) {
  const warp_tile tile = this_warp();
  const unsigned lane = tile.thread_rank();
  const std::uint64_t warps = std::uint64_t{gridDim.x} * blockDim.x / 32;
  unsigned long long local = 0;
  const std::uint64_t n = g.num_vertices();
  unsigned long long first = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32 * grab;
  while (first < n) {
    const std::uint64_t last = std::min<std::uint64_t>(first + grab, n);
    for (std::uint64_t i = first; i < last; ++i) {
      // stride is coprime with n (TcTuning::interleave_ids), so i -> u is a bijection of [0, n).
      const vertex_t u = static_cast<vertex_t>(stride == 1 ? i : i * stride % n);
      if (!g.is_live(u)) continue;
      const std::uint32_t du = g.degree(u);
      if (du < 2) continue;
      g.for_each_neighbor_slot(tile, u, [&](vertex_t v, bool valid) {
        std::uint32_t dv = 0;
        bool task = false;
        if (valid) {
          dv = g.degree(v);
          task = dv >= 2 && rank_less(u, du, v, dv);
        }
        for_each_active_lane(tile, task, [&](int src) {
          const vertex_t x = tile.shfl(v, src);
          const std::uint32_t dx = tile.shfl(dv, src);
          const vertex_t small = du <= dx ? u : x, large = du <= dx ? x : u;
          unsigned count = 0;
          g.for_each_neighbor_slot(tile, small, [&](vertex_t w, bool valid_w) {
            if (valid_w && w != x && w != u) {
              if (rank_less(x, dx, w, g.degree(w)) && g.has_edge(large, w)) {
                ++count;
                if constexpr (kPerVertex) atomicAdd(&per_vertex[w], 1ull);
              }
            }
          });
          count = __reduce_add_sync(kFull, count);
          if (lane == 0 && count) {
            local += count;
            if constexpr (kPerVertex) {
              atomicAdd(&per_vertex[u], static_cast<unsigned long long>(count));
              atomicAdd(&per_vertex[x], static_cast<unsigned long long>(count));
            }
          }
        });
      });
    }
    if (lane == 0) first = warps * grab + atomicAdd(queue, static_cast<unsigned long long>(grab));
    first = tile.shfl(first, 0);
  }
  if (lane == 0 && local) atomicAdd(total, local);
}

/// Open-addressing set of 64-bit edge keys (linear probing), for "is this edge in the batch".
struct EdgeKeySet {
  unsigned long long* slots;
  std::uint64_t mask;
  static constexpr unsigned long long kEmpty = ~0ull;
  __device__ void insert(std::uint64_t k) const {
    for (std::uint64_t i = mix64(k) & mask;; i = (i + 1) & mask) {
      const unsigned long long old = atomicCAS(slots + i, kEmpty, k);
      if (old == kEmpty || old == k) return;
    }
  }
  __device__ bool contains(std::uint64_t k) const {
    for (std::uint64_t i = mix64(k) & mask;; i = (i + 1) & mask) {
      const unsigned long long s = slots[i];
      if (s == k) return true;
      if (s == kEmpty) return false;
    }
  }
};

/// Inserts n edge keys into the batch's key set (one thread per key).
template <class Set>
__global__ void key_set_insert_kernel(Set set, const std::uint64_t* keys, std::uint64_t n) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    set.insert(keys[i]);
}

__device__ __forceinline__ std::uint64_t edge_key(vertex_t a, vertex_t b, unsigned bits) {
  return a < b ? (std::uint64_t{a} << bits) | b : (std::uint64_t{b} << bits) | a;
}

// Triangles through the listed edges; a triangle with several listed edges counts at its
// smallest listed edge only. kPerVertex: each counted triangle also adds 1 to its three
// vertices' per_vertex entries.
template <class View, bool kPerVertex = false>
__global__ void touching_kernel(View g, const std::uint64_t* keys, std::uint64_t m, unsigned bits,
                                EdgeKeySet set, unsigned long long* total,
                                unsigned long long* per_vertex = nullptr) {
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  unsigned long long local = 0;
  warp_stride_loop(m, [&](const warp_tile& tile, std::uint64_t i, bool active) {
    const std::uint64_t key = active ? keys[i] : 0;
    // Degrees loaded by every lane at once, before the serial loop.
    const std::uint32_t lane_du = active ? g.degree(static_cast<vertex_t>(key >> bits)) : 0;
    const std::uint32_t lane_dv = active ? g.degree(static_cast<vertex_t>(key & mask)) : 0;
    for_each_active_lane(tile, active, [&](int src) {
      const std::uint64_t k = tile.shfl(key, src);
      const vertex_t u = static_cast<vertex_t>(k >> bits), v = static_cast<vertex_t>(k & mask);
      const std::uint32_t du = tile.shfl(lane_du, src), dv = tile.shfl(lane_dv, src);
      const vertex_t small = du <= dv ? u : v, large = du <= dv ? v : u;
      unsigned count = 0;
      g.for_each_neighbor_slot(tile, small, [&](vertex_t w, bool valid) {
        if (valid && w != u && w != v && g.has_edge(large, w)) {
          const std::uint64_t k1 = edge_key(u, w, bits), k2 = edge_key(v, w, bits);
          if ((k < k1 || !set.contains(k1)) && (k < k2 || !set.contains(k2))) {
            ++count;
            if constexpr (kPerVertex) atomicAdd(&per_vertex[w], 1ull);
          }
        }
      });
      count = __reduce_add_sync(kFull, count);
      if (tile.thread_rank() == 0) local += count;
      if constexpr (kPerVertex) {
        if (tile.thread_rank() == 0 && count) {
          atomicAdd(&per_vertex[u], static_cast<unsigned long long>(count));
          atomicAdd(&per_vertex[v], static_cast<unsigned long long>(count));
        }
      }
    });
  });
  if (this_warp().thread_rank() == 0 && local) atomicAdd(total, local);
}

/// Vertices per grab of static_tc_kernel (TcTuning::vertices_per_grab): a quarter of the
/// graph's share per warp, rounded up, so that every warp has work and the queue still evens
/// out the hubs; a fixed 32 left a small graph's warps walking 32 vertices each in series.
inline unsigned vertices_per_grab(const TcTuning& options, std::uint64_t n, std::uint64_t warps) {
  if (options.vertices_per_grab) return std::min(options.vertices_per_grab, kMaxVerticesPerGrab);
  const std::uint64_t quarter_share = 4 * std::max<std::uint64_t>(warps, 1);
  return static_cast<unsigned>(
      std::clamp<std::uint64_t>((n + quarter_share - 1) / quarter_share, 1, kMaxVerticesPerGrab));
}

/// The stride of the interleaved visiting order (TcTuning::interleave_ids): a prime near
/// 5/8 n (consecutive positions land far apart) that does not divide n, so that
/// i -> (i * stride) mod n permutes [0, n). 1 (id order) when not asked.
inline std::uint64_t visit_stride(const TcTuning& options, std::uint64_t n) {
  if (!options.interleave_ids || n < 2) return 1;
  const auto is_prime = [](std::uint64_t p) {
    if (p < 2) return false;
    for (std::uint64_t d = 2; d * d <= p; ++d)
      if (p % d == 0) return false;
    return true;
  };
  std::uint64_t p = n / 8 * 5 + 1;
  while (!is_prime(p) || n % p == 0) ++p;
  return p;
}

template <GpuDynamicGraph Graph>
void require_undirected(const Graph& g) {
  if (g.directed())
    throw InvalidArgument("triangle counting needs an undirected graph (GraphOptions::directed)");
}

/// What both batch counters (touching_kernel here, the sorted graph's merge) set up before their
/// kernel: the batch's edge keys in a hash set of at least 2m slots, and a zeroed total.
struct TouchingBatch {
  DeviceBuffer<unsigned long long> slots;
  EdgeKeySet set;
  DeviceBuffer<unsigned long long> total;
};
inline TouchingBatch touching_batch(const std::uint64_t* edge_keys, std::uint64_t m,
                                    cudaStream_t stream) {
  std::uint64_t capacity = 64;
  while (capacity < 2 * m) capacity <<= 1;
  DeviceBuffer<unsigned long long> slots(capacity, stream, "batch edge set");
  WG_CUDA_TRY(cudaMemsetAsync(slots.data(), 0xFF, slots.bytes(), stream));
  const EdgeKeySet set{slots.data(), capacity - 1};
  key_set_insert_kernel<<<grid_for(m), kBlock, 0, stream>>>(set, edge_keys, m);
  WG_CUDA_CHECK_LAST();
  DeviceBuffer<unsigned long long> total(1, stream, "triangle counter");
  WG_CUDA_TRY(cudaMemsetAsync(total.data(), 0, sizeof(unsigned long long), stream));
  return {std::move(slots), set, std::move(total)};
}

template <GpuDynamicGraph Graph, bool kPerVertex>
std::uint64_t run_static(const Graph& graph, const TcTuning& options,
                         unsigned long long* per_vertex) {
  static_assert(DeviceGraphView<typename Graph::ref_type>,
                "the graph's device view must satisfy wg::DeviceGraphView");
  require_undirected(graph);
  if (graph.num_vertices() == 0) return 0;
  const cudaStream_t stream = graph.stream();
  DeviceBuffer<unsigned long long> counters(2, stream, "triangle counters");
  WG_CUDA_TRY(cudaMemsetAsync(counters.data(), 0, 2 * sizeof(unsigned long long), stream));
  const std::uint64_t n = graph.num_vertices();
  // At most one warp per vertex, at most 8 blocks per SM.
  const unsigned blocks = static_cast<unsigned>(
      std::min<std::uint64_t>(num_sms() * 8, (n + kBlock / 32 - 1) / (kBlock / 32)));
  static_tc_kernel<typename Graph::ref_type, kPerVertex><<<blocks, kBlock, 0, stream>>>(
      graph.ref(), vertices_per_grab(options, n, std::uint64_t{blocks} * (kBlock / 32)),
      visit_stride(options, n), counters.data(), counters.data() + 1, per_vertex);
  WG_CUDA_CHECK_LAST();
  return counters.to_host()[1];
}

}  // namespace tc_detail

template <GpuDynamicGraph Graph>
std::uint64_t count_triangles(const Graph& graph, const TcTuning& options) {
  return tc_detail::run_static<Graph, false>(graph, options, nullptr);
}

template <GpuDynamicGraph Graph>
TriangleCounts count_triangles_per_vertex(const Graph& graph, const TcTuning& options) {
  TriangleCounts out;
  const std::uint64_t n = graph.num_vertices();
  DeviceBuffer<unsigned long long> pv(std::max<std::uint64_t>(n, 1), graph.stream(),
                                      "per-vertex triangles");
  WG_CUDA_TRY(cudaMemsetAsync(pv.data(), 0, pv.bytes(), graph.stream()));
  out.total = tc_detail::run_static<Graph, true>(graph, options, pv.data());
  const auto h = pv.to_host(n);
  out.per_vertex.assign(h.begin(), h.end());
  return out;
}

namespace tc_detail {
/// count_triangles_sorted(_per_vertex): per_vertex (when not null) gets n counts.
template <GpuDynamicGraph Graph>
std::uint64_t run_sorted(const Graph& graph, const TcTuning& options,
                         std::vector<std::uint64_t>* per_vertex) {
  require_undirected(graph);
  const unsigned lanes = options.lanes_per_arc;
  if (lanes != 4 && lanes != 8 && lanes != 16 && lanes != 32)
    throw InvalidArgument("TcTuning::lanes_per_arc must be 4, 8, 16 or 32");
  const std::uint64_t n = graph.num_vertices();
  if (per_vertex) per_vertex->assign(n, 0);
  if (n == 0 || graph.num_edges() == 0) return 0;
  const cudaStream_t stream = graph.stream();
  SortedPhases phases;
  oriented::PhaseClock clock(options.phases != nullptr, stream);
  oriented::OrientedRows o;
  {
    const DeviceCsr csr = device_csr(graph);
    std::uint64_t arcs = 0;
    WG_CUDA_TRY(cudaMemcpyAsync(&arcs, csr.offsets.data() + n, sizeof arcs, cudaMemcpyDeviceToHost,
                                stream));
    WG_CUDA_TRY(cudaStreamSynchronize(stream));
    phases.csr_ms = clock.mark();
    o = oriented::orient_by_rank(csr.offsets.data(), csr.targets.data(), n, arcs, stream, clock,
                                 phases.orient_ms, phases.sort_ms);
  }
  if (options.phases) *options.phases = phases;
  if (o.num_arcs == 0) return 0;
  DeviceBuffer<unsigned long long> total(1, stream, "triangle counter");
  WG_CUDA_TRY(cudaMemsetAsync(total.data(), 0, sizeof(unsigned long long), stream));
  DeviceBuffer<unsigned long long> by_rank;
  if (per_vertex) {
    by_rank = DeviceBuffer<unsigned long long>(n, stream, "per-vertex triangles");
    WG_CUDA_TRY(cudaMemsetAsync(by_rank.data(), 0, by_rank.bytes(), stream));
  }
  const std::uint64_t m = o.num_arcs;
  const unsigned blocks = grid_for(m * lanes, std::uint64_t{1} << 16);
  const auto launch = [&]<unsigned kLanes>() {
    if (per_vertex)
      oriented::tail_intersect_kernel<kLanes, true><<<blocks, kBlock, 0, stream>>>(
          o.offsets.data(), o.source.data(), o.target.data(), m, total.data(), by_rank.data());
    else
      oriented::tail_intersect_kernel<kLanes, false><<<blocks, kBlock, 0, stream>>>(
          o.offsets.data(), o.source.data(), o.target.data(), m, total.data(), nullptr);
  };
  switch (lanes) {
    case 4:
      launch.template operator()<4>();
      break;
    case 8:
      launch.template operator()<8>();
      break;
    case 16:
      launch.template operator()<16>();
      break;
    default:
      launch.template operator()<32>();
  }
  WG_CUDA_CHECK_LAST();
  const std::uint64_t count = total.to_host(stream)[0];
  if (options.phases) options.phases->intersect_ms = clock.mark();
  if (per_vertex) {
    DeviceBuffer<unsigned long long> by_id(n, stream, "per-vertex triangles");
    oriented::per_vertex_to_old_ids_kernel<<<grid_for(n), kBlock, 0, stream>>>(
        by_rank.data(), o.old_id.data(), n, by_id.data());
    WG_CUDA_CHECK_LAST();
    const auto h = by_id.to_host(n);
    per_vertex->assign(h.begin(), h.end());
  }
  return count;
}

/// count_triangles_touching, with per-vertex counts added to `per_vertex` when kPerVertex.
template <GpuDynamicGraph Graph, bool kPerVertex>
std::uint64_t run_touching(const Graph& graph, const std::uint64_t* edge_keys, std::uint64_t m,
                           unsigned key_bits, unsigned long long* per_vertex) {
  tc_detail::require_undirected(graph);
  if (m == 0) return 0;
  const cudaStream_t stream = graph.stream();
  TouchingBatch batch = touching_batch(edge_keys, m, stream);
  tc_detail::touching_kernel<typename Graph::ref_type, kPerVertex>
      <<<grid_for(m), kBlock, 0, stream>>>(graph.ref(), edge_keys, m, key_bits, batch.set,
                                           batch.total.data(), per_vertex);
  WG_CUDA_CHECK_LAST();
  return batch.total.to_host()[0];
}
}  // namespace tc_detail

template <GpuDynamicGraph Graph>
std::uint64_t count_triangles_sorted(const Graph& graph, const TcTuning& options) {
  return tc_detail::run_sorted(graph, options, nullptr);
}

template <GpuDynamicGraph Graph>
TriangleCounts count_triangles_sorted_per_vertex(const Graph& graph, const TcTuning& options) {
  TriangleCounts out;
  out.total = tc_detail::run_sorted(graph, options, &out.per_vertex);
  return out;
}

template <GpuDynamicGraph Graph>
std::uint64_t count_triangles_touching(const Graph& graph, const std::uint64_t* edge_keys,
                                       std::uint64_t m, unsigned key_bits) {
  return tc_detail::run_touching<Graph, false>(graph, edge_keys, m, key_bits, nullptr);
}

/// count_triangles_touching, also adding to per_vertex[x] (device memory, num_vertices()
/// entries, ordered on the graph's stream) the number of those triangles that contain x. For
/// .cu files (declared here only).
template <GpuDynamicGraph Graph>
std::uint64_t count_triangles_touching_per_vertex(const Graph& graph,
                                                  const std::uint64_t* edge_keys, std::uint64_t m,
                                                  unsigned key_bits,
                                                  unsigned long long* per_vertex) {
  return tc_detail::run_touching<Graph, true>(graph, edge_keys, m, key_bits, per_vertex);
}

template <GpuDynamicGraph Graph, class Counting>
IncrementalTriangleCounter<Graph, Counting>::IncrementalTriangleCounter(Graph& graph,
                                                                        const options_type& options)
    : Frame(graph), options_(options) {
  tc_detail::require_undirected(graph);
  total_ = Counting::count(graph, options_);
}

template <GpuDynamicGraph Graph, class Counting>
std::uint64_t IncrementalTriangleCounter<Graph, Counting>::recount() {
  this->mark_current();
  total_ = Counting::count(*graph_, options_);
  return total_;
}

// ---- incremental ----------------------------------------------------------------------------

template <GpuDynamicGraph Graph, class Counting>
BatchEffect IncrementalTriangleCounter<Graph, Counting>::on_after_insert(
    const ChangedEdges& added) {
  BatchEffect e;
  if (added.size == 0) return e;
  // On the graph after insertion; each new triangle once, at its smallest new edge.
  e.changed = Counting::touching(*graph_, added, options_);
  total_ += e.changed;
  return e;
}

template <GpuDynamicGraph Graph, class Counting>
void IncrementalTriangleCounter<Graph, Counting>::on_before_erase(const ChangedEdges& removed) {
  // Counted on the graph before removal.
  destroyed_ = removed.size ? Counting::touching(*graph_, removed, options_) : 0;
}

template <GpuDynamicGraph Graph, class Counting>
BatchEffect IncrementalTriangleCounter<Graph, Counting>::on_after_erase(const ChangedEdges&) {
  BatchEffect e;
  e.changed = destroyed_;
  total_ -= destroyed_;
  destroyed_ = 0;
  return e;
}

}  // namespace wg::gpu
