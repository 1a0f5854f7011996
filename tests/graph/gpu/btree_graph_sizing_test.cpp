// The B-tree graph's host arithmetic (graph/gpu/btree/btree_graph_sizing.hpp), on the CPU: pool
// sizes cover what BTree::build takes, snapshot slices and partial-walk parts cover the ids
// exactly once, in order.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include <warpgraph/graph/gpu/btree/btree_graph_sizing.hpp>

namespace {

namespace s = wg::gpu::detail::btree_graph;

/// What BTree::build allocates (containers/btree/build.cu): ceil(m / per) leaves, then levels of
/// ceil(prev / per) up to one root.
std::uint64_t tree_build_nodes(std::uint64_t m, double fill) {
  const std::uint64_t per =
      std::max<std::uint64_t>(2, std::min<std::uint64_t>(7, std::lround(7 * fill)));
  std::uint64_t level = std::max<std::uint64_t>(1, (m + per - 1) / per), total = level;
  while (level > 1) {
    level = (level + per - 1) / per;
    total += level;
  }
  return total;
}

TEST(BTreeGraphSizing, BuildNodesCoverTheTreesBuild) {
  for (double fill : {0.2, 0.3, 0.5, 0.8, 0.9, 1.0})
    for (std::uint64_t m :
         {0ull, 1ull, 6ull, 7ull, 100ull, 12345ull, 1ull << 20, 134217728ull, 1000000007ull})
      EXPECT_GE(s::build_nodes(m, fill), tree_build_nodes(m, fill)) << m << " keys, fill " << fill;
}

TEST(BTreeGraphSizing, PiecesAreNonEmptyConsecutiveSlices) {
  for (std::uint64_t nv : {1ull, 2ull, 3ull, 7ull, 1000ull, 1ull << 22, (1ull << 31) - 1})
    for (std::uint64_t degree : {0ull, 1ull, 255ull, 256ull, 257ull, 100000ull, 5000000ull}) {
      const std::uint64_t p = s::row_pieces(degree, 256, nv);
      ASSERT_GE(p, 1u);
      ASSERT_LE(p, nv);
      if (p > 2000) continue;  // the slices' arithmetic is checked on the smaller counts
      std::uint64_t next = 0;
      for (std::uint64_t j = 0; j < p; ++j) {
        std::uint32_t lo = 0, hi = 0;
        s::id_slice(j, p, nv, &lo, &hi);
        ASSERT_EQ(lo, next) << nv << " " << degree << " piece " << j;
        ASSERT_LE(lo, hi);
        next = std::uint64_t{hi} + 1;
      }
      ASSERT_EQ(next, 1ull << 32);  // the last slice reaches the largest id
    }
}

TEST(BTreeGraphSizing, WalkPartsCoverTheIdsOnce) {
  for (std::uint32_t n : {1u, 2u, 5u, 31u, 1000u, 65537u})
    for (std::uint32_t parts : {1u, 2u, 3u, 7u, 32u, 100u, 70000u}) {
      std::uint64_t next = 0;
      for (std::uint32_t part = 0; part < parts; ++part) {
        std::uint32_t lo = 0, hi = 0;
        if (!s::walk_part(part, parts, n, &lo, &hi)) continue;
        ASSERT_EQ(lo, next) << n << " " << parts << " part " << part;
        ASSERT_LE(lo, hi);
        next = std::uint64_t{hi} + 1;
      }
      ASSERT_EQ(next, n);
    }
}

TEST(BTreeGraphSizing, BatchBoundExceedsTheBatch) {
  for (std::uint64_t m : {0ull, 1ull, 1000ull, 1ull << 23}) EXPECT_GE(s::batch_nodes(m), 2 * m);
}

}  // namespace
