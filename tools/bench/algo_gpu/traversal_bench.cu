// traversal_bench: static and dynamic BFS and SSSP on the GPU (issue 34).
//
//   traversal_bench [--json FILE] [--only static|dynamic] [--gunrock-mtx FILE] [--graph FILE]...
//                   [--min-scale N] [--max-scale N] [--structures slab,csr,btree]
//                   [--algos bfs,sssp_unit,sssp_len64] [--reps N] [--row-budget S]
//                   [--time-limit S] [--dyn-scale N] [--min-batch-log K] [--max-batch-log K]
//                   [--batch-step D] [--delta D] [--quick]
// (flags: tools/bench/algo_gpu/bench_plan.hpp)
//
// Static: BFS (direction-optimising), SSSP with unit lengths (Gunrock's figure) and SSSP with
// integer lengths 1..64 (near-far, step --delta), from vertex 0 on Gunrock's file and from a
// vertex of largest degree elsewhere, on every graph of the plan, each on the slab graph
// (slab_set; slab_map for lengths), on a plain CsrGraph of the same edges (csr) and on the
// B-tree graph (btree), through the same view-templated search, in the same run: CUDA-event
// milliseconds of the search with the graph on the GPU, median after a warm-up; edges/s =
// undirected edges / time. Gunrock on its R-MAT s20 file (H200): BFS 7.31 ms, SSSP 7.51 ms.
// Dynamic: DynamicBfs (slab_set) and DynamicSssp (lengths 1..64, slab_map), per batch size,
// insert-only and mixed: bench_common.cuh.
//
// Set CUDA_MODULE_LOADING=EAGER.
#include <cuda_runtime.h>

#include <cstdio>
#include <string>
#include <vector>

#include <warpgraph/algorithms/bfs/gpu/bfs.cuh>
#include <warpgraph/algorithms/sssp/gpu/sssp.cuh>
#include <warpgraph/graph/gpu/btree_graph.hpp>
#include <warpgraph/graph/gpu/btree_graph_ref.cuh>
#include <warpgraph/graph/gpu/csr_graph.cuh>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#include "tools/bench/algo_gpu/bench_common.cuh"

namespace {

using namespace wg::bench::algo;
using wg::EdgeList;
using wg::vertex_t;

constexpr double kGunrockBfsMs = 7.31, kGunrockSsspMs = 7.51;  // H200, its R-MAT s20 file
std::uint32_t near_far_delta = 64;

/// One structure's unweighted rows (bfs, sssp_unit) or its weighted row (sssp_len64).
template <class View>
void time_view(Context& c, const GraphSpec& g, const std::string& structure, const View& v,
               std::uint64_t n, std::uint64_t edges, vertex_t source, cudaStream_t s,
               bool weighted) {
  auto record = [&](const char* algo, const StaticMeasure& m, double gunrock_ms,
                    std::uint64_t reached) {
    print_static(g, structure, algo, m, edges, gunrock_ms);
    nlohmann::json row = static_row(algo, g, structure, m, n, edges, c.gpu);
    row["source"] = source;
    row["reached"] = reached;
    if (!c.answers.agree(g.name, algo, structure, reached)) row["mismatch"] = true;
    if (g.gunrock && gunrock_ms > 0) row["gunrock_published_ms"] = gunrock_ms;
    c.rows.add(std::move(row));
  };
  auto sssp = [&](const char* algo, bool unit, double gunrock_ms) {
    wg::gpu::ShortestPathState st;
    st.near_far_delta = unit ? 0 : near_far_delta;
    wg::gpu::sp::ensure_size(st, n, s);
    const StaticMeasure m = measure_static(c.plan, s, [&] {
      const std::uint32_t before = st.round;
      wg::gpu::sp::static_sssp(v, n, source, st, unit, s);
      return static_cast<std::int64_t>(st.round - before);
    });
    const wg::gpu::SsspResult r = wg::gpu::sp::download(st, n, s);
    record(algo, m, gunrock_ms, r.reached);
  };
  if (!weighted) {
    if (c.plan.wants_algo("bfs")) {
      std::uint64_t reached = 0;
      const StaticMeasure m = measure_static(c.plan, s, [&] {
        const auto r = wg::gpu::bfs_device(v, n, false, source, s);
        reached = r.reached;
        return static_cast<std::int64_t>(r.depth);
      });
      record("bfs", m, g.gunrock ? kGunrockBfsMs : 0, reached);
    }
    if (c.plan.wants_algo("sssp_unit")) sssp("sssp_unit", true, g.gunrock ? kGunrockSsspMs : 0);
  } else if (c.plan.wants_algo("sssp_len64")) {
    sssp("sssp_len64", false, 0);
  }
}

void static_graph(Context& c, const GraphSpec& g) {
  const Plan& p = c.plan;
  EdgeList e = load_graph(g);
  std::uint64_t n = 0, m = 0;
  vertex_t source = 0;
  wg::gpu::Csr csr;
  const bool unweighted = p.wants_algo("bfs") || p.wants_algo("sssp_unit");
  // The slab graph first: its counts, degrees and CSR export serve the other structures.
  guarded(c, g, "slab_set", [&] {
    wg::gpu::Graph sg(0);
    sg.build(e);
    n = sg.num_vertices();
    m = sg.num_edges();
    source = pick_source(g, sg.degrees());
    std::printf("# %s: %llu vertices, %llu edges, source %u\n", g.name.c_str(),
                static_cast<unsigned long long>(n), static_cast<unsigned long long>(m), source);
    if (unweighted && p.wants("slab"))
      time_view(c, g, "slab_set", sg.ref(), n, m, source, sg.stream(), false);
    if (unweighted && p.wants("csr")) csr = sg.export_csr();
  });
  if (n == 0) return;
  if (unweighted && p.wants("csr") && !csr.offsets.empty()) {
    guarded(c, g, "csr", [&] {
      const wg::gpu::CsrGraph<false> cg(csr, false, 0);
      csr = {};
      time_view(c, g, "csr", cg.ref(), cg.num_vertices(), m, source, cg.stream(), false);
    });
  }
  csr = {};
  if (unweighted && p.wants("btree")) {
    guarded(c, g, "btree", [&] {
      wg::gpu::BTreeGraph<false> bt(0);
      bt.build(e);
      time_view(c, g, "btree", bt.ref(), bt.num_vertices(), m, source, bt.stream(), false);
    });
  }
  if (!p.wants_algo("sssp_len64")) return;
  e = with_lengths(std::move(e), 64);
  guarded(c, g, "slab_map", [&] {
    wg::gpu::WeightedGraph mg(0);
    mg.build(e);
    if (p.wants("slab")) time_view(c, g, "slab_map", mg.ref(), n, m, source, mg.stream(), true);
    if (p.wants("csr")) csr = mg.export_csr();
  });
  if (p.wants("csr") && !csr.offsets.empty()) {
    guarded(c, g, "csr", [&] {
      const wg::gpu::CsrGraph<true> cg(csr, false, 0);
      csr = {};
      time_view(c, g, "csr", cg.ref(), cg.num_vertices(), m, source, cg.stream(), true);
    });
  }
  if (p.wants("btree")) {
    guarded(c, g, "btree", [&] {
      wg::gpu::BTreeGraph<true> bt(0);
      bt.build(e);
      time_view(c, g, "btree", bt.ref(), bt.num_vertices(), m, source, bt.stream(), true);
    });
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<const char*> args;
  // --delta is this bench's own flag; the rest are the plan's.
  for (int i = 0; i < argc; ++i) {
    if (std::string(argv[i]) == "--delta" && i + 1 < argc) {
      near_far_delta = static_cast<std::uint32_t>(std::stoul(argv[++i]));
      continue;
    }
    args.push_back(argv[i]);
  }
  // Answers: the vertices reached, which every structure must agree on.
  return run_driver(
      "traversal_bench", "traversal", static_cast<int>(args.size()), args.data(),
      {"bfs", "sssp_unit", "sssp_len64"}, static_graph, [](Context& c, const DynamicInput& whole) {
        if (c.plan.wants_algo("bfs")) {
          using G = wg::gpu::Graph;
          guarded_dynamic(c.rows, "bfs", [&] {
            dynamic_rows<G, wg::gpu::DynamicBfs<G>>(
                c.plan, c.deadline, c.rows, "bfs", "slab_set", whole,
                [](G& g) { return wg::gpu::DynamicBfs<G>(g, pick_source({}, g.degrees())); });
          });
        }
        if (c.plan.wants_algo("sssp_len64") || c.plan.wants_algo("sssp_unit")) {
          using G = wg::gpu::WeightedGraph;
          wg::gpu::SsspTuning o;
          o.near_far_delta = near_far_delta;
          guarded_dynamic(c.rows, "sssp", [&] {
            dynamic_rows<G, wg::gpu::DynamicSssp<G>>(
                c.plan, c.deadline, c.rows, "sssp", "slab_map", with_lengths(whole, 64), [&](G& g) {
                  return wg::gpu::DynamicSssp<G>(g, pick_source({}, g.degrees()), {}, o);
                });
          });
        }
      });
}
