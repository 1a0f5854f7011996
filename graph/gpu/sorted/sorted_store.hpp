#pragma once
// wg::gpu::SortedArcStore<Weighted>: the simplest store of the GPU graph front (graph_front.hpp),
// the proof that a store plugs in from its own folder: every arc u -> v is the key (u << 32) | v
// of ONE sorted device array (values alongside when weighted). SortedArcGraph<W> is the graph.
//
// Semantics: those of the front (graph/graph_concepts.hpp); a batch's arcs are found by binary
// search, then new arcs are appended and the whole array re-sorted, erased arcs compacted out.
// Inserting a present edge of a weighted graph replaces its value.
//
// Complexity: a batch of b arcs into E arcs costs O(b log E) for the searches and O(E + b) sort
// and compaction work (a radix sort of the whole array per insert batch): fine for tests and
// small graphs, not a fast store. has_edge O(log E); degree O(1); erase_vertices O(E); exports
// O(V + E). Memory: 12 bytes per arc (8 unweighted) plus 5 bytes per vertex and the sort's
// scratch.
#include <cuda_runtime_api.h>

#include <cstdint>

#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/graph/gpu/edge_batch.hpp>
#include <warpgraph/graph/gpu/graph_front.hpp>
#include <warpgraph/graph/gpu/store.hpp>
#include <warpgraph/graph/gpu/vertex_arrays.hpp>

namespace wg::gpu {

struct SortedArcOptions {
  bool directed = false;
  /// Entries of a batch processed at a time.
  std::uint64_t max_chunk = std::uint64_t{1} << 24;
  cudaStream_t stream = 0;
};

/// Device view: degrees and liveness per vertex, has_edge by binary search, and a one-thread
/// walk over a vertex's out-neighbours in increasing order.
template <bool Weighted>
class SortedArcRef {
 public:
  SortedArcRef() = default;
  __host__ __device__ SortedArcRef(const std::uint64_t* arcs, const std::uint32_t* values,
                                   std::uint64_t size, const std::uint32_t* degrees,
                                   const std::uint8_t* live, std::uint32_t nv)
      : arcs_(arcs), values_(values), size_(size), degrees_(degrees), live_(live), nv_(nv) {}
#if defined(__CUDACC__)
  __device__ std::uint32_t num_vertices() const {
    return nv_;
  }
  __device__ bool is_live(vertex_t u) const {
    return u < nv_ && live_[u];
  }
  __device__ std::uint32_t degree(vertex_t u) const {
    return degrees_[u];
  }
  /// First position whose arc is >= key.
  __device__ std::uint64_t lower_bound(std::uint64_t key) const {
    std::uint64_t lo = 0, hi = size_;
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      if (arcs_[mid] < key)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo;
  }
  __device__ bool has_edge(vertex_t u, vertex_t v) const {
    const std::uint64_t key = (std::uint64_t{u} << 32) | v;
    const std::uint64_t at = lower_bound(key);
    return at < size_ && arcs_[at] == key;
  }
  template <class F>
  __device__ void for_each_neighbor(vertex_t u, F&& f) const {
    for (std::uint64_t i = lower_bound(std::uint64_t{u} << 32); i < size_ && (arcs_[i] >> 32) == u;
         ++i) {
      if constexpr (Weighted)
        f(static_cast<vertex_t>(arcs_[i]), values_[i]);
      else
        f(static_cast<vertex_t>(arcs_[i]));
    }
  }
#endif

 private:
  const std::uint64_t* arcs_ = nullptr;
  const std::uint32_t* values_ = nullptr;
  std::uint64_t size_ = 0;
  const std::uint32_t* degrees_ = nullptr;
  const std::uint8_t* live_ = nullptr;
  std::uint32_t nv_ = 0;
};

template <bool Weighted>
class SortedArcStore;
template <bool Weighted>
using SortedArcTraits = StoreTraits<SortedArcOptions, SortedArcRef<Weighted>, Weighted, true>;

template <bool Weighted>
class SortedArcStore
    : public VertexArrayStore<SortedArcStore<Weighted>, SortedArcTraits<Weighted>> {
 public:
  explicit SortedArcStore(std::uint64_t num_vertices = 0, const SortedArcOptions& options = {})
      : SortedArcStore::VertexArrayStore(options) {
    this->grow(num_vertices);
  }

  struct Impl;  // its state (sorted_store.cu)
};

template <bool Weighted>
using SortedArcGraph = DynamicGraph<SortedArcStore<Weighted>>;

extern template class SortedArcStore<false>;
extern template class SortedArcStore<true>;
extern template class DynamicGraph<SortedArcStore<false>>;
extern template class DynamicGraph<SortedArcStore<true>>;

}  // namespace wg::gpu
