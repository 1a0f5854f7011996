#pragma once
// WholeWalks<View>: the whole-neighbourhood walks of a device view that has part walks
// (for_each_neighbor_part / for_each_neighbor_slot_part, see DeviceGraphView in
// graph/graph_concepts.hpp), each its part 0 of 1: written once for the slab and CSR views (a
// CRTP base with no state, so the views stay trivially copyable). A view may still define a
// whole walk of its own, which hides this one (the CSR view's lane-strided for_each_neighbor).
#include <cstdint>

#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/containers/core/work_sharing.cuh>

namespace wg::gpu {

template <class View>
class WholeWalks {
 public:
  /// f(w) (f(w, value) when weighted) once per neighbour of u, by the lane holding it. Whole
  /// warp; f must not use tile operations.
  template <class F>
  __device__ void for_each_neighbor(const warp_tile& tile, vertex_t u, F&& f) const {
    view().for_each_neighbor_part(tile, u, 0, 1, f);
  }
  /// The warp-uniform walk (DeviceGraphView): all lanes call f(w, valid) together, valid false
  /// on the lanes that hold no neighbour in a step. f may use tile operations. Whole warp.
  template <class F>
  __device__ void for_each_neighbor_slot(const warp_tile& tile, vertex_t u, F&& f) const {
    view().for_each_neighbor_slot_part(tile, u, 0, 1, f);
  }

 private:
  __device__ const View& view() const { return static_cast<const View&>(*this); }
};

}  // namespace wg::gpu
