#pragma once
// Arrays in and out of the module warpgraph._core.
//
// In: vertex ids and weights come as any one-dimensional array nanobind sees through the buffer
// protocol or DLPack (NumPy, and anything else exposing those), read-only ones included, any
// stride. Ids must be of an integer dtype (bool and floating point are refused: a float id is a
// mistake, not a number to round), each in [0, 2^31) (wg::kVertexIdLimit); weights of an integer
// or floating dtype, finite. Every refusal is a ValueError in one line naming the argument, and
// the first entry at fault ("src[3] = -1: vertex ids must be >= 0"). Arrays are copied into the
// library's host vectors: O(n), once.
// Device arrays (CuPy, torch CUDA tensors) are recognised by their DLPack device and refused in
// this build: the zero-copy GPU path is one more branch of read_ids / read_weights (device_of()
// says where an array lives), taken once a GPU graph is bound.
//
// Out: std::vectors become NumPy arrays that own them (no copy).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nanobind/ndarray.h>

#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/graph/edge_list.hpp>

namespace wg::python {

namespace nb = nanobind;

/// Any array: dtype, shape, strides and device are checked by the readers below.
using AnyArray = nb::ndarray<nb::ro>;

/// Where an array lives.
enum class ArrayDevice { host, cuda, other };
ArrayDevice device_of(const AnyArray& a);

/// The ids of `a` (one dimension, integer dtype, each in [0, 2^31)); `what` names the argument in
/// errors. `max_id` (if given) gets the largest id (0 when empty).
std::vector<vertex_t> read_ids(const AnyArray& a, const char* what,
                               std::uint64_t* max_id = nullptr);
/// The weights of `a` (one dimension, integer or floating dtype, finite) as doubles.
std::vector<double> read_weights(const AnyArray& a, const char* what);

/// The batch src[i] -> dst[i] (weights[i]): lengths must match; `symmetric` as EdgeList's.
/// num_vertices is the largest id + 1 (0 when empty).
EdgeList read_edges(const AnyArray& src, const AnyArray& dst,
                    const std::optional<AnyArray>& weights, bool symmetric);

/// A NumPy array that owns `v` (moved, not copied).
template <class T>
nb::ndarray<nb::numpy, T, nb::ndim<1>> to_numpy(std::vector<T>&& v) {
  auto* owned = new std::vector<T>(std::move(v));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, T, nb::ndim<1>>(owned->data(), {owned->size()}, owner);
}
/// A NumPy array of `v`'s values converted to T.
template <class T, class U>
nb::ndarray<nb::numpy, T, nb::ndim<1>> to_numpy_as(const std::vector<U>& v) {
  return to_numpy(std::vector<T>(v.begin(), v.end()));
}

}  // namespace wg::python
