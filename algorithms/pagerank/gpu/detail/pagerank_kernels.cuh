#pragma once
// Kernels of the GPU PageRank (pagerank.cuh); no other module includes this.
//
// One iteration is one kernel for undirected graphs (pull) and two for directed ones (push, then
// finish). Each kernel that ends an iteration also computes the next iteration's contributions
// (rank / out-degree) and dangling sum, reduces its change per block (one atomic per block and
// sum, on a grid sized to the GPU), and its last block to finish decides the stop on the device
// (PageRankState::done). A kernel launched after the stop returns at once, so the host may
// enqueue several iterations before it looks.
//
// Memory order. Blocks add their partial sums with relaxed device-scope atomics, then take a
// ticket with an acq_rel fetch_add (after a __threadfence): the block that draws the last ticket
// sees every other block's sums (release sequence of the ticket's RMWs) and alone writes the
// decision and resets the sums; the next kernel launch orders those plain writes before every
// read of the next iteration. Hubs (vertices split over several warps) use the same pattern per
// vertex: each part adds its partial sum to hub_acc[first part], then takes a ticket on
// tickets[first part]; the last part finishes the vertex and zeroes both for the next iteration.
#include <cuda/atomic>

#include <cstdint>

#include <warpgraph/algorithms/operators/segmented_reduce.cuh>
#include <warpgraph/algorithms/pagerank/gpu/pagerank.hpp>
#include <warpgraph/containers/core/work_sharing.cuh>
#include <warpgraph/graph/gpu/launch_grid.hpp>
#include <warpgraph/graph/graph_concepts.hpp>

namespace wg::gpu::pr_detail {

inline constexpr unsigned kFull = 0xFFFFFFFFu;

/// The constants of one run.
struct Params {
  std::uint64_t n;
  double base;     // (1 - d) / n
  double damping;  // d
  double tolerance;
  int max_iterations;
  bool max_rule;  // Stop::max_change
};

/// Views with the partial walks (for_each_neighbor_part) can split a hub over several warps.
template <class View>
inline constexpr bool kHasParts = requires(const View& g, const warp_tile& t, vertex_t u,
                                           std::uint32_t p) {
  g.for_each_neighbor_part(t, u, p, p, ::wg::detail::NeighborSink<View::weighted>{});
};

using ops::warp_sum;
__device__ __forceinline__ double warp_max(double x) {
  for (int o = 16; o > 0; o /= 2) x = fmax(x, __shfl_down_sync(kFull, x, o));
  return x;
}

/// A thread's share of one iteration's sums.
struct Partial {
  double l1 = 0, mx = 0, dangling = 0;
};

/// The block's sums, valid in thread 0. Every thread of the block (kBlock threads) calls it.
__device__ inline Partial block_reduce(Partial p) {
  constexpr int kWarps = kBlock / 32;
  __shared__ double sh[3][kWarps];
  p.l1 = warp_sum(p.l1);
  p.mx = warp_max(p.mx);
  p.dangling = warp_sum(p.dangling);
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  if (lane == 0) {
    sh[0][warp] = p.l1;
    sh[1][warp] = p.mx;
    sh[2][warp] = p.dangling;
  }
  __syncthreads();
  Partial out;
  if (warp == 0) {
    out.l1 = lane < kWarps ? sh[0][lane] : 0.0;
    out.mx = lane < kWarps ? sh[1][lane] : 0.0;
    out.dangling = lane < kWarps ? sh[2][lane] : 0.0;
    out.l1 = warp_sum(out.l1);
    out.mx = warp_max(out.mx);
    out.dangling = warp_sum(out.dangling);
  }
  return out;
}

/// Ends an iteration: the block's sums into the state, and the last block's stop decision.
/// Every thread of every block calls it once (after the block's last write of ranks).
__device__ inline void end_iteration(PageRankState* s, Partial p, const Params& prm) {
  p = block_reduce(p);
  if (threadIdx.x != 0) return;
  if (p.l1 != 0) atomicAdd(&s->l1, p.l1);
  if (p.mx != 0)
    atomicMax(&s->max_bits, static_cast<unsigned long long>(__double_as_longlong(p.mx)));
  if (p.dangling != 0) atomicAdd(&s->dangling_next, p.dangling);
  __threadfence();
  const unsigned ticket = cuda::atomic_ref<unsigned, cuda::thread_scope_device>(s->blocks_done)
                              .fetch_add(1u, cuda::memory_order_acq_rel);
  if (ticket + 1 != gridDim.x) return;
  __threadfence();
  // The last block: every block's sums are in (read through volatile: no stale L1 line).
  const volatile PageRankState* vs = s;
  const double l1 = vs->l1;
  const double mx = __longlong_as_double(static_cast<long long>(vs->max_bits));
  const double change = prm.max_rule ? mx : l1;
  const int it = s->iterations + 1;
  s->iterations = it;
  if (it == 1) s->first_change = change;
  s->last_change = change;
  if (change < prm.tolerance) {
    s->converged = 1;
    s->done = 1;
  } else if (it >= prm.max_iterations) {
    s->done = 1;
  }
  s->dangling = vs->dangling_next;
  s->dangling_next = 0;
  s->l1 = 0;
  s->max_bits = 0;
  s->blocks_done = 0;
}

/// v's new rank from the sum of its in-neighbours' contributions; its change and its next
/// contribution (or dangling rank). One thread per vertex.
template <class View>
__device__ __forceinline__ void finish_vertex(const View& g, const Params& p, vertex_t v,
                                              double sum, double spread, const double* rank,
                                              double* next, double* contrib_next, Partial& acc) {
  const double now = p.base + p.damping * (sum + spread);
  const double diff = fabs(now - rank[v]);
  acc.l1 += diff;
  acc.mx = fmax(acc.mx, diff);
  next[v] = now;
  const std::uint32_t deg = g.is_live(v) ? g.degree(v) : 0;
  contrib_next[v] = deg ? now / deg : 0.0;
  if (!deg) acc.dangling += now;
}

/// Sets the start (1/n when cold), contrib = rank / outdeg, the dangling sum of the start into
/// s->dangling (s zeroed before), and acc (directed) to 0.
template <class View>
__global__ void init_kernel(View g, std::uint64_t n, bool cold, double* rank, double* contrib,
                            double* acc, PageRankState* s) {
  Partial part;
  for (std::uint64_t v = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; v < n;
       v += std::uint64_t{gridDim.x} * blockDim.x) {
    const auto u = static_cast<vertex_t>(v);
    if (cold) rank[v] = 1.0 / static_cast<double>(n);
    const double r = rank[v];
    const std::uint32_t deg = g.is_live(u) ? g.degree(u) : 0;
    contrib[v] = deg ? r / deg : 0.0;
    if (!deg) part.dangling += r;
    if (acc) acc[v] = 0;
  }
  part = block_reduce(part);
  if (threadIdx.x == 0 && part.dangling != 0) atomicAdd(&s->dangling, part.dangling);
}

/// One undirected iteration (pull): each vertex's sum of its neighbours' contributions by the
/// segmented-sum operator (hubs split by the plan in offsets), finished into its new rank; then
/// the iteration's end.
template <class View, bool kSplit>
__global__ void pull_kernel(View g, Params p, const double* rank, double* next,
                            const double* contrib, double* contrib_next,
                            const std::uint32_t* offsets, double* hub_acc, unsigned* tickets,
                            PageRankState* s) {
  if (s->done) return;  // the same for every thread: written by an earlier kernel
  const double spread = s->dangling / static_cast<double>(p.n);
  Partial acc;
  ops::segmented_sum<kSplit>(
      g, p.n, offsets, hub_acc, tickets, [&](vertex_t w) { return contrib[w]; },
      [&](vertex_t v, double sum) {
        finish_vertex(g, p, v, sum, spread, rank, next, contrib_next, acc);
      });
  end_iteration(s, acc, p);
}

/// Directed, first half of an iteration: each vertex adds its contribution to its out-neighbours'
/// accumulators (hubs split as in pull_kernel, without tickets: nothing to finish per hub).
template <class View, bool kSplit>
__global__ void push_kernel(View g, Params p, const double* contrib, double* acc,
                            const std::uint32_t* offsets, const PageRankState* s) {
  if (s->done) return;
  ops::for_each_segment<kSplit>(
      p.n, offsets,
      [&](const warp_tile& t, vertex_t v, std::uint32_t part, std::uint32_t parts, std::uint32_t) {
        const double c = contrib[v];
        g.for_each_neighbor_part(t, v, part, parts,
                                 [&](vertex_t w, auto...) { atomicAdd(acc + w, c); });
      },
      [&](const warp_tile& t, vertex_t u) {
        if (!g.is_live(u) || g.degree(u) == 0) return;  // warp-uniform
        const double c = contrib[u];
        g.for_each_neighbor(t, u, [&](vertex_t w, auto...) { atomicAdd(acc + w, c); });
      });
}

/// Directed, second half: the new ranks from the accumulators (zeroed for the next iteration),
/// then the iteration's end.
template <class View>
__global__ void finish_push_kernel(View g, Params p, double* acc, const double* rank, double* next,
                                   double* contrib_next, PageRankState* s) {
  if (s->done) return;
  const double spread = s->dangling / static_cast<double>(p.n);
  Partial part;
  for (std::uint64_t v = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; v < p.n;
       v += std::uint64_t{gridDim.x} * blockDim.x) {
    const double sum = acc[v];
    acc[v] = 0;
    finish_vertex(g, p, static_cast<vertex_t>(v), sum, spread, rank, next, contrib_next, part);
  }
  end_iteration(s, part, p);
}

__global__ inline void fill_kernel(double* x, std::uint64_t first, std::uint64_t n, double value) {
  for (std::uint64_t v = first + std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; v < n;
       v += std::uint64_t{gridDim.x} * blockDim.x)
    x[v] = value;
}

/// *moved += ids whose ranks differ by more than eps (one atomic per warp and step).
__global__ inline void moved_kernel(const double* a, const double* b, std::uint64_t n, double eps,
                                    unsigned long long* moved) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t base = std::uint64_t{blockIdx.x} * blockDim.x; base < n; base += stride) {
    const std::uint64_t v = base + threadIdx.x;
    const unsigned c = __reduce_add_sync(kFull, v < n && fabs(a[v] - b[v]) > eps ? 1u : 0u);
    if ((threadIdx.x & 31) == 0 && c) atomicAdd(moved, static_cast<unsigned long long>(c));
  }
}

}  // namespace wg::gpu::pr_detail
