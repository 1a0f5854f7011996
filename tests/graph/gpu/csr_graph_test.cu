// wg::gpu::CsrGraph: construction checks, and its device view against the dynamic graph's: the
// same degrees, neighbour sets (for_each_neighbor, the slot walk, has_edge), weights, and the
// early-exit find_neighbor of both views.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/graph/gpu/csr_graph.cuh>
#include <warpgraph/graph/gpu/graph_ref.cuh>

#include "../../support/test_support.hpp"

namespace {

using wg::vertex_t;

/// Per vertex: degree, the sum and xor of its neighbours (for_each_neighbor), the same from the
/// slot walk, the sum of weights, has_edge of its first neighbour (1 expected), and
/// find_neighbor for the largest neighbour id (the id itself expected).
template <class View>
__global__ void probe_kernel(View g, std::uint32_t n, unsigned long long* out) {
  const wg::warp_tile tile = wg::this_warp();
  const std::uint32_t warps = gridDim.x * blockDim.x / 32;
  for (std::uint32_t v = (blockIdx.x * blockDim.x + threadIdx.x) / 32; v < n; v += warps) {
    unsigned long long sum = 0, x = 0, wsum = 0, slot_sum = 0, maxw = 0;
    if constexpr (View::weighted) {
      g.for_each_neighbor(tile, v, [&](vertex_t w, std::uint32_t val) {
        sum += w, x ^= w, wsum += val, maxw = w > maxw ? w : maxw;
      });
    } else {
      g.for_each_neighbor(tile, v,
                          [&](vertex_t w) { sum += w, x ^= w, maxw = w > maxw ? w : maxw; });
    }
    g.for_each_neighbor_slot(tile, v, [&](vertex_t w, bool valid) {
      if (valid) slot_sum += w;
    });
    for (int o = 16; o > 0; o /= 2) {
      sum += tile.shfl_xor(sum, o);
      x ^= tile.shfl_xor(x, o);
      wsum += tile.shfl_xor(wsum, o);
      slot_sum += tile.shfl_xor(slot_sum, o);
      const unsigned long long m = tile.shfl_xor(maxw, o);
      maxw = m > maxw ? m : maxw;
    }
    const vertex_t found =
        g.find_neighbor(tile, v, [&](vertex_t w) { return w == static_cast<vertex_t>(maxw); });
    if (tile.thread_rank() == 0) {
      unsigned long long* o = out + 7ull * v;
      o[0] = g.degree(v);
      o[1] = sum;
      o[2] = x;
      o[3] = slot_sum;
      o[4] = wsum;
      o[5] = g.degree(v) ? g.has_edge(v, static_cast<vertex_t>(maxw)) : 1;
      o[6] = g.degree(v) ? found : 0;
    }
  }
}

template <class View>
std::vector<unsigned long long> probe(const View& g, std::uint32_t n) {
  wg::DeviceBuffer<unsigned long long> out(7ull * n);
  probe_kernel<<<(n * 32 + 255) / 256, 256>>>(g, n, out.data());
  WG_CUDA_CHECK_LAST();
  WG_CUDA_TRY(cudaDeviceSynchronize());
  return out.to_host();
}

TEST(CsrGraph, RejectsInconsistentArrays) {
  // Checked on the host before any upload.
  using G = wg::gpu::CsrGraph<false>;
  EXPECT_THROW(G({}, {}, {}, false), wg::InvalidArgument);
  EXPECT_THROW(G({0, 2}, {0}, {}, false), wg::InvalidArgument);        // offsets[n] != size
  EXPECT_THROW(G({0, 2, 1}, {0, 1}, {}, false), wg::InvalidArgument);  // decreasing
  EXPECT_THROW(G({0, 1}, {5}, {}, false), wg::InvalidArgument);        // target out of range
  EXPECT_THROW(wg::gpu::CsrGraph<true>({0, 1, 2}, {1, 0}, {3}, false), wg::InvalidArgument);
}

template <class Graph, bool Weighted>
void same_view(bool directed) {
  WG_REQUIRE_GPU();
  wg::EdgeList e = wg::datasets::generate_rmat(
      {.scale = 10, .edge_factor = 8, .seed = 3, .symmetric = !directed});
  if (Weighted) {
    e.weight.resize(e.size());
    for (std::size_t i = 0; i < e.size(); ++i) e.weight[i] = double(1 + i % 17);
  }
  Graph g(0, {.directed = directed});
  g.build(e);
  const wg::gpu::CsrGraph<Weighted> csr(g.export_csr(), directed);
  EXPECT_EQ(csr.num_vertices(), g.num_vertices());
  const auto n = static_cast<std::uint32_t>(g.num_vertices());
  const auto a = probe(g.ref(), n), b = probe(csr.ref(), n);
  ASSERT_EQ(a.size(), b.size());
  for (std::uint32_t v = 0; v < n; ++v) {
    for (int k = 0; k < 7; ++k)
      ASSERT_EQ(a[7ull * v + k], b[7ull * v + k]) << "vertex " << v << " field " << k;
    EXPECT_EQ(b[7ull * v + 1], b[7ull * v + 3]);  // slot walk == per-neighbour walk
    EXPECT_EQ(b[7ull * v + 5], 1u);
  }
}

TEST(CsrGraph, SameViewAsSlabSet) {
  same_view<wg::gpu::Graph, false>(false);
}
TEST(CsrGraph, SameViewAsSlabSetDirected) {
  same_view<wg::gpu::Graph, false>(true);
}
TEST(CsrGraph, SameViewAsSlabMap) {
  same_view<wg::gpu::WeightedGraph, true>(false);
}

TEST(CsrGraph, UnitWeightsWhenValuesAbsent) {
  WG_REQUIRE_GPU();
  const wg::gpu::CsrGraph<true> csr({0, 2, 3, 3}, {1, 2, 0}, {}, true);
  const auto r = probe(csr.ref(), 3);
  EXPECT_EQ(r[4], 2u);  // vertex 0: two arcs of weight 1
  EXPECT_EQ(r[7 + 4], 1u);
  EXPECT_EQ(r[14 + 0], 0u);
}

}  // namespace
