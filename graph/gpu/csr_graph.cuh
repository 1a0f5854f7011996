#pragma once
// wg::gpu::CsrGraph: a static graph in compressed sparse rows on the GPU, the plain baseline that
// the dynamic graph's algorithms are compared with (include from .cu files only).
//
//   wg::gpu::CsrGraph<false> csr(dynamic_graph.export_csr(), /*directed=*/false, stream);
//   auto sp = wg::gpu::bfs(csr.ref(), csr.num_vertices(), csr.directed(), 0, stream);
//
// Semantics
//  - Row v holds v's out-neighbours (both arcs of an undirected edge are stored, as export_csr
//    gives them); rows need not be sorted. Every id below num_vertices() is live (a vertex the
//    source graph had erased is an isolated vertex here).
//  - CsrGraph<true> keeps one uint32 value per arc (the weight). Built from a Csr without values,
//    every arc gets weight 1.
//  - Immutable after construction; ref() is valid while the object lives.
// The ref models wg::DeviceGraphView, so every static GPU algorithm written against the view
// runs on it unchanged; it also has find_neighbor (the early-exit walk of bottom-up BFS) and the
// partial walks for_each_neighbor_part / for_each_neighbor_slot_part (hubs split over warps).
//
// Complexity: construction O(V + E) (one upload); degree, is_live O(1); has_edge O(degree) (rows
// are not assumed sorted); for_each_neighbor O(degree / 32) warp steps.
// Errors: wg::InvalidArgument for inconsistent arrays (offsets not n + 1 entries, not
// monotonic, a target out of range, values of the wrong length); wg::CapacityError when GPU
// memory runs out.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/containers/core/work_sharing.cuh>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/gpu/whole_walks.cuh>
#include <warpgraph/graph/graph_concepts.hpp>

namespace wg::gpu {

/// "No vertex": what find_neighbor returns when no neighbour matches.
inline constexpr vertex_t kNoNeighbor = 0xFFFFFFFFu;

/// Device view of a CsrGraph. Trivially copyable.
template <bool Weighted>
class CsrGraphRef : public WholeWalks<CsrGraphRef<Weighted>> {
 public:
  static constexpr bool weighted = Weighted;

  CsrGraphRef() = default;
  __host__ __device__ CsrGraphRef(const std::uint64_t* offsets, const vertex_t* targets,
                                  const std::uint32_t* values, std::uint32_t num_vertices)
      : offsets_(offsets), targets_(targets), values_(values), num_vertices_(num_vertices) {}

  __host__ __device__ std::uint32_t num_vertices() const { return num_vertices_; }
  __device__ bool is_live(vertex_t u) const { return u < num_vertices_; }
  __device__ std::uint32_t degree(vertex_t u) const {
    return static_cast<std::uint32_t>(offsets_[u + 1] - offsets_[u]);
  }
  __device__ bool has_edge(vertex_t u, vertex_t v) const {
    for (std::uint64_t i = offsets_[u]; i < offsets_[u + 1]; ++i)
      if (targets_[i] == v) return true;
    return false;
  }

  /// f(w) (f(w, value) when weighted) once per neighbour, by lane i % 32 of the row. Whole warp.
  template <class F>
  __device__ void for_each_neighbor(const warp_tile& tile, vertex_t u, F&& f) const {
    const std::uint64_t b = offsets_[u], e = offsets_[u + 1];
    for (std::uint64_t i = b + tile.thread_rank(); i < e; i += 32) visit(f, i);
  }

  /// Part `part` of `parts` of u's row (its 32-arc steps s with s % parts == part): the walks
  /// above (and the warp-uniform one, WholeWalks::for_each_neighbor_slot, 32 arcs per step) split
  /// over several warps, for hubs. Whole warp.
  template <class F>
  __device__ void for_each_neighbor_part(const warp_tile& tile, vertex_t u, std::uint32_t part,
                                         std::uint32_t parts, F&& f) const {
    for_each_step(tile, u, part, parts, [&](std::uint64_t i, std::uint64_t e) {
      if (i < e) visit(f, i);
    });
  }
  template <class F>
  __device__ void for_each_neighbor_slot_part(const warp_tile& tile, vertex_t u, std::uint32_t part,
                                              std::uint32_t parts, F&& f) const {
    for_each_step(tile, u, part, parts, [&](std::uint64_t i, std::uint64_t e) {
      const bool valid = i < e;
      f(valid ? targets_[i] : kNoNeighbor, valid);
    });
  }

  /// The first neighbour w (in row order, 32 at a time) with pred(w) true, warp-uniform, or
  /// kNoNeighbor; stops at the first 32-arc step that has one. pred runs per lane. Whole warp.
  template <class P>
  __device__ vertex_t find_neighbor(const warp_tile& tile, vertex_t u, P&& pred) const {
    const std::uint64_t b = offsets_[u], e = offsets_[u + 1];
    for (std::uint64_t base = b; base < e; base += 32) {
      const std::uint64_t i = base + tile.thread_rank();
      const vertex_t w = i < e ? targets_[i] : kNoNeighbor;
      const unsigned hits = tile.ballot(i < e && pred(w));
      if (hits) return tile.shfl(w, __ffs(hits) - 1);
    }
    return kNoNeighbor;
  }

  __host__ __device__ const std::uint64_t* offsets() const { return offsets_; }
  __host__ __device__ const vertex_t* targets() const { return targets_; }
  __host__ __device__ const std::uint32_t* values() const { return values_; }

 private:
  /// f(w) (f(w, value) when weighted) for arc i.
  template <class F>
  __device__ void visit(F& f, std::uint64_t i) const {
    if constexpr (Weighted)
      f(targets_[i], values_[i]);
    else
      f(targets_[i]);
  }
  /// g(i, e) with the lane's arc index i (>= e, u's row end, past the row) in each 32-arc step s
  /// of u's row with s % parts == part.
  template <class G>
  __device__ void for_each_step(const warp_tile& tile, vertex_t u, std::uint32_t part,
                                std::uint32_t parts, G&& g) const {
    const std::uint64_t b = offsets_[u], e = offsets_[u + 1];
    for (std::uint64_t base = b + std::uint64_t{part} * 32; base < e;
         base += std::uint64_t{parts} * 32)
      g(base + tile.thread_rank(), e);
  }

  const std::uint64_t* offsets_ = nullptr;
  const vertex_t* targets_ = nullptr;
  const std::uint32_t* values_ = nullptr;
  std::uint32_t num_vertices_ = 0;
};

static_assert(wg::DeviceGraphView<CsrGraphRef<false>>);
static_assert(wg::DeviceGraphView<CsrGraphRef<true>>);

/// Owning CSR on the GPU (see the file comment).
template <bool Weighted>
class CsrGraph {
 public:
  using ref_type = CsrGraphRef<Weighted>;
  static constexpr bool is_weighted = Weighted;

  /// From host arrays: offsets (n + 1 entries, offsets[0] == 0, non-decreasing), targets
  /// (offsets[n] entries, each < n), values (Weighted: empty for unit weights, else one per arc).
  CsrGraph(const std::vector<std::uint64_t>& offsets, const std::vector<vertex_t>& targets,
           const std::vector<std::uint32_t>& values, bool directed, cudaStream_t stream = 0)
      : directed_(directed), stream_(stream) {
    upload(offsets, targets, values);
  }
  /// From a GPU graph's export (DynamicGraph::export_csr()).
  explicit CsrGraph(const Csr& csr, bool directed, cudaStream_t stream = 0)
      : directed_(directed), stream_(stream) {
    upload(csr.offsets, csr.targets, csr.values);
  }

  ref_type ref() const {
    return ref_type(offsets_.data(), targets_.data(), Weighted ? values_.data() : nullptr,
                    num_vertices_);
  }
  std::uint32_t num_vertices() const noexcept { return num_vertices_; }
  std::uint64_t num_arcs() const noexcept { return num_arcs_; }
  bool directed() const noexcept { return directed_; }
  cudaStream_t stream() const noexcept { return stream_; }
  std::uint64_t memory_bytes() const noexcept {
    return offsets_.bytes() + targets_.bytes() + values_.bytes();
  }

 private:
  void upload(const std::vector<std::uint64_t>& offsets, const std::vector<vertex_t>& targets,
              const std::vector<std::uint32_t>& values) {
    if (offsets.empty() || offsets.front() != 0 || offsets.back() != targets.size())
      throw InvalidArgument(
          "wg::gpu::CsrGraph: offsets must hold n + 1 entries from 0 to the "
          "number of targets");
    const std::uint64_t n = offsets.size() - 1;
    if (n >= kVertexIdLimit)
      throw InvalidArgument("wg::gpu::CsrGraph: " + std::to_string(n) + " vertices");
    for (std::uint64_t v = 0; v < n; ++v)
      if (offsets[v + 1] < offsets[v])
        throw InvalidArgument("wg::gpu::CsrGraph: offsets decrease at row " + std::to_string(v));
    for (vertex_t t : targets)
      if (t >= n) throw InvalidArgument("wg::gpu::CsrGraph: target " + std::to_string(t));
    if (Weighted && !values.empty() && values.size() != targets.size())
      throw InvalidArgument("wg::gpu::CsrGraph: values must be empty or one per target");
    num_vertices_ = static_cast<std::uint32_t>(n);
    num_arcs_ = targets.size();
    offsets_ = DeviceBuffer<std::uint64_t>::from_host(offsets, stream_);
    targets_ = DeviceBuffer<vertex_t>::from_host(
        targets.empty() ? std::vector<vertex_t>{0} : targets, stream_);
    if constexpr (Weighted) {
      values_ = DeviceBuffer<std::uint32_t>::from_host(
          values.empty() ? std::vector<std::uint32_t>(std::max<std::size_t>(targets.size(), 1), 1u)
                         : values,
          stream_);
    }
  }

  bool directed_ = false;
  cudaStream_t stream_ = 0;
  std::uint32_t num_vertices_ = 0;
  std::uint64_t num_arcs_ = 0;
  DeviceBuffer<std::uint64_t> offsets_;
  DeviceBuffer<vertex_t> targets_;
  DeviceBuffer<std::uint32_t> values_;
};

}  // namespace wg::gpu
