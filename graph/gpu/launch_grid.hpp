#pragma once
// Launch shapes of the graph's kernels and of the algorithms that run on it: blocks of kBlock
// threads, and grids capped at max_blocks (their kernels stride over the rest), so a huge batch
// loops instead of launching millions of blocks.
#include <algorithm>
#include <cstdint>

namespace wg::gpu {

inline constexpr int kBlock = 256;

/// Blocks of kBlock threads for `threads` threads: at least 1, at most max_blocks.
inline unsigned grid_for(std::uint64_t threads, std::uint64_t max_blocks = std::uint64_t{1} << 18) {
  const std::uint64_t blocks = (threads + kBlock - 1) / kBlock;
  return static_cast<unsigned>(std::clamp<std::uint64_t>(blocks, 1, max_blocks));
}

}  // namespace wg::gpu
