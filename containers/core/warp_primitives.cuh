#pragma once
// Warp-level primitives used by kernels that write variable amounts of output or update shared
// counters: written once here, used by the graph and algorithms kernels. All 32 lanes of the
// warp must call them together.
#include <cstdint>

#include <warpgraph/containers/core/work_sharing.cuh>

namespace wg {

/// Where this lane's item goes when the lanes with `keep` write their items contiguously:
/// `rank` = number of lanes below this one with keep, `count` = number of lanes with keep.
struct WarpSlot {
  unsigned rank;
  unsigned count;
};
__device__ inline WarpSlot warp_slot(const warp_tile& tile, bool keep) {
  const unsigned ballot = tile.ballot(keep);
  return {static_cast<unsigned>(__popc(ballot & ((1u << tile.thread_rank()) - 1))),
          static_cast<unsigned>(__popc(ballot))};
}

/// The lanes that are `active` and hold the same `key` as this lane (peers), so that one of them
/// (the leader, the lowest) updates a shared counter for all: one atomic per distinct key in the
/// warp instead of one per lane (sorted batches put runs of equal keys in a warp).
/// For an inactive lane: size 0, not leader.
struct WarpPeers {
  unsigned size;
  bool leader;
};
__device__ inline WarpPeers warp_peers(const warp_tile& tile, bool active, std::uint32_t key) {
  const unsigned act = tile.ballot(active);
  const unsigned peers = __match_any_sync(0xFFFFFFFFu, active ? key : 0xFFFFFFFFu) & act;
  const bool leader = active && __ffs(peers) - 1 == static_cast<int>(tile.thread_rank());
  return {active ? static_cast<unsigned>(__popc(peers)) : 0u, leader};
}

}  // namespace wg
