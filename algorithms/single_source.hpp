#pragma once
// What every single-source search (bfs, sssp; CPU and GPU) does alike before it searches: the
// source checked against the id range, and a result of n unreached ids with the source at
// distance 0, its own parent. O(n).
#include <cstdint>
#include <string>
#include <vector>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/containers/core/types.hpp>

namespace wg {

/// Throws wg::InvalidArgument ("<who>: source s is not below the id bound n") unless source < n.
inline void require_source(const char* who, vertex_t source, std::uint64_t n) {
  if (source >= n)
    throw InvalidArgument(std::string(who) + ": source " + std::to_string(source) +
                          " is not below the id bound " + std::to_string(n));
}

/// Every one of the n ids unreached (distance `unreached`, parent `no_parent`); when `live`, the
/// source at distance 0 and its own parent. Returns `live` (whether there is a search to run).
template <class Distance>
bool start_from_source(std::vector<Distance>& distance, std::vector<vertex_t>& parent,
                       std::uint64_t n, vertex_t source, bool live, Distance unreached,
                       vertex_t no_parent) {
  distance.assign(n, unreached);
  parent.assign(n, no_parent);
  if (!live) return false;
  distance[source] = Distance{0};
  parent[source] = source;
  return true;
}

}  // namespace wg
