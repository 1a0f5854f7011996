// traversal_bench: static and dynamic BFS and SSSP on the GPU.
//
//   traversal_bench [--json FILE] [--min-scale N] [--max-scale N] [--mtx FILE] [--reps N]
//                   [--quick] [--only static|dynamic] [--max-batch-log K] [--dyn-scale N]
//                   [--delta D]
//
// Static: BFS (direction-optimising) and SSSP (unit lengths, as Gunrock's figure; and integer
// lengths 1..64 on the weighted map graph) from vertex 0 on undirected R-MAT graphs of scales
// --min-scale..--max-scale (Graph500 parameters, edge factor 16) and on the --mtx file, each on
// the slab graph AND on a plain CsrGraph of the same edges in the same run: milliseconds (wall
// time of the search, the graph already on the GPU) and million edges per second (undirected
// edges / time), median of --reps after a warm-up. Gunrock on the R-MAT s20 file (H200): BFS
// 7.31 ms, SSSP 7.51 ms.
// Dynamic: on an R-MAT graph of --dyn-scale, 90% of its entries built, per batch size 2^4 ..
// 2^--max-batch-log: "apply + update" (DynamicBfs / DynamicSssp) against "apply + static
// recompute", insert-only batches (new edges from the other 10%) and mixed ones (half such
// insertions, half deletions of present edges); each timed batch is undone untimed afterwards.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <warpgraph/algorithms/bfs/gpu/bfs.cuh>
#include <warpgraph/algorithms/sssp/gpu/sssp.cuh>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/graph/gpu/csr_graph.cuh>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#include "tools/bench/cuda_timer.cuh"
#include "tools/bench/harness.hpp"

namespace {

using nlohmann::json;
using wg::EdgeList;
using wg::vertex_t;

struct Options {
  std::string json_path, mtx;
  unsigned min_scale = 20, max_scale = 24, dyn_scale = 20;
  int reps = 5;
  int max_batch_log = 20;
  std::uint32_t delta = 64;  ///< near-far step of the weighted searches (0: plain rounds)
  std::string only;
} opt;

double wall(cudaStream_t s, const std::function<void()>& fn) {
  WG_CUDA_TRY(cudaStreamSynchronize(s));
  return wg::bench::wall_seconds([&] {
    fn();
    WG_CUDA_TRY(cudaStreamSynchronize(s));
  });
}

EdgeList with_lengths(EdgeList e, unsigned max_len) {
  e.weight.resize(e.size());
  std::uint64_t x = 12345;
  for (auto& w : e.weight) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    w = static_cast<double>(1 + (x >> 33) % max_len);
  }
  return e;
}

wg::bench::Report report;

template <class View>
void time_static(const std::string& graph, const std::string& structure, const View& v,
                 std::uint64_t n, std::uint64_t edges, cudaStream_t s, bool weighted_run) {
  const wg::bench::MeasureOptions m{.warmup = 1, .repetitions = opt.reps};
  auto record = [&](const char* algo, const wg::bench::Series& t, double gunrock_ms) {
    const double ms = t.median() * 1e3;
    wg::bench::print_row(graph + " " + algo + " " + structure, ms, gunrock_ms, "ms");
    report.add({{"graph", graph},
                {"algorithm", algo},
                {"structure", structure},
                {"ms", ms},
                {"medges_per_s", edges / t.median() * 1e-6},
                {"edges", edges},
                {"vertices", n},
                {"gpu", wg::bench::gpu_name()}});
  };
  const bool gunrock_graph = !opt.mtx.empty() && graph == opt.mtx;
  if (!weighted_run) {
    record("bfs",
           wg::bench::measure(
               m, [&] { return wall(s, [&] { wg::gpu::bfs_device(v, n, false, 0, s); }); }),
           gunrock_graph ? 7.31 : 0);
    wg::gpu::ShortestPathState st;
    wg::gpu::sp::ensure_size(st, n, s);
    record("sssp_unit",
           wg::bench::measure(
               m, [&] { return wall(s, [&] { wg::gpu::sp::static_sssp(v, n, 0, st, true, s); }); }),
           gunrock_graph ? 7.51 : 0);
  } else {
    wg::gpu::ShortestPathState st;
    st.near_far_delta = opt.delta;
    wg::gpu::sp::ensure_size(st, n, s);
    record(
        "sssp_len64",
        wg::bench::measure(
            m, [&] { return wall(s, [&] { wg::gpu::sp::static_sssp(v, n, 0, st, false, s); }); }),
        0);
  }
}

void static_graph(const std::string& name, EdgeList e) {
  e.symmetric = true;
  e.weight.clear();
  {
    wg::gpu::Graph g(0);
    g.build(e);
    const std::uint64_t n = g.num_vertices(), m = g.num_edges();
    std::printf("# %s: %llu vertices, %llu edges\n", name.c_str(), (unsigned long long)n,
                (unsigned long long)m);
    time_static(name, "slab_set", g.ref(), n, m, g.stream(), false);
    const wg::gpu::CsrGraph<false> csr(g.export_csr(), false, g.stream());
    time_static(name, "csr", csr.ref(), n, m, g.stream(), false);
  }
  {
    wg::gpu::WeightedGraph g(0);
    g.build(with_lengths(std::move(e), 64));
    const std::uint64_t n = g.num_vertices(), m = g.num_edges();
    time_static(name, "slab_map", g.ref(), n, m, g.stream(), true);
    const wg::gpu::CsrGraph<true> csr(g.export_csr(), false, g.stream());
    time_static(name, "csr", csr.ref(), n, m, g.stream(), true);
  }
}

/// A host batch uploaded once.
struct DeviceBatch {
  wg::DeviceBuffer<vertex_t> src, dst;
  wg::DeviceBuffer<std::uint32_t> values;
  wg::gpu::DeviceEdges view() const {
    return {.src = src.data(),
            .dst = dst.data(),
            .values = values.empty() ? nullptr : values.data(),
            .size = src.size()};
  }
};
DeviceBatch upload(const EdgeList& e) {
  DeviceBatch b{wg::DeviceBuffer<vertex_t>::from_host(e.src),
                wg::DeviceBuffer<vertex_t>::from_host(e.dst),
                {}};
  if (e.weighted()) {
    std::vector<std::uint32_t> v(e.weight.begin(), e.weight.end());
    b.values = wg::DeviceBuffer<std::uint32_t>::from_host(v);
  }
  return b;
}
EdgeList slice(const EdgeList& e, std::size_t off, std::size_t len) {
  EdgeList b;
  b.num_vertices = e.num_vertices;
  b.symmetric = e.symmetric;
  len = std::min(len, e.size() - std::min(off, e.size()));
  b.src.assign(e.src.begin() + off, e.src.begin() + off + len);
  b.dst.assign(e.dst.begin() + off, e.dst.begin() + off + len);
  if (e.weighted()) b.weight.assign(e.weight.begin() + off, e.weight.begin() + off + len);
  return b;
}

/// Per batch size: apply + update vs apply + recompute, insert-only and mixed, for Dynamic
/// (DynamicBfs or DynamicSssp) over Graph.
template <class Graph, class Dynamic, class Recompute>
void dynamic_algo(const char* algo, const EdgeList& whole, Recompute&& recompute) {
  const std::size_t base = whole.size() * 9 / 10;
  const EdgeList initial = slice(whole, 0, base), extra = slice(whole, base, whole.size() - base);
  Graph a(0), b(0);
  a.build(initial);
  b.build(initial);
  const cudaStream_t s = a.stream();
  Dynamic dyn(a, 0);
  const EdgeList present = a.export_coo();
  for (int k = 4; k <= opt.max_batch_log && (std::size_t{1} << k) <= extra.size(); ++k) {
    const std::size_t size = std::size_t{1} << k;
    for (const bool mixed : {false, true}) {
      const std::size_t ins = mixed ? size / 2 : size;
      const DeviceBatch add = upload(slice(extra, 0, ins));
      EdgeList del_host = slice(present, (std::size_t{7919} * k) % present.size(), size - ins);
      if (whole.weighted() && del_host.weight.empty()) del_host.weight.assign(del_host.size(), 1);
      const DeviceBatch del = upload(del_host);
      std::uint64_t recomputed = 0, changed = 0;
      const wg::bench::MeasureOptions m{.warmup = 1, .repetitions = opt.reps};
      const wg::bench::Series upd = wg::bench::measure(m, [&] {
        const double t = wall(s, [&] {
          const auto r = dyn.insert_edges(add.view());
          recomputed += r.recomputed, changed += r.changed;
          if (mixed) recomputed += dyn.erase_edges(del.view()).recomputed;
        });
        dyn.erase_edges(add.view());  // undo, untimed
        if (mixed) dyn.insert_edges(del.view());
        return t;
      });
      const wg::bench::Series rec = wg::bench::measure(m, [&] {
        const double t = wall(s, [&] {
          b.insert_edges(add.view());
          if (mixed) b.erase_edges(del.view());
          recompute(b);
        });
        b.erase_edges(add.view());
        if (mixed) b.insert_edges(del.view());
        return t;
      });
      const double speedup = rec.median() / upd.median();
      std::printf("%-10s %-7s batch 2^%-2d  update %9.3f ms  recompute %9.3f ms  x%.1f%s\n", algo,
                  mixed ? "mixed" : "insert", k, upd.median() * 1e3, rec.median() * 1e3, speedup,
                  recomputed ? "  (switched to recompute)" : "");
      report.add({{"graph", "rmat" + std::to_string(opt.dyn_scale)},
                  {"algorithm", std::string("dynamic_") + algo},
                  {"stream", mixed ? "mixed" : "insert"},
                  {"batch_log2", k},
                  {"update_ms", upd.median() * 1e3},
                  {"recompute_ms", rec.median() * 1e3},
                  {"speedup", speedup},
                  {"recomputed_batches", recomputed},
                  {"gpu", wg::bench::gpu_name()}});
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--json")
      opt.json_path = next();
    else if (a == "--mtx")
      opt.mtx = next();
    else if (a == "--min-scale")
      opt.min_scale = static_cast<unsigned>(std::stoi(next()));
    else if (a == "--max-scale")
      opt.max_scale = static_cast<unsigned>(std::stoi(next()));
    else if (a == "--dyn-scale")
      opt.dyn_scale = static_cast<unsigned>(std::stoi(next()));
    else if (a == "--reps")
      opt.reps = std::stoi(next());
    else if (a == "--max-batch-log")
      opt.max_batch_log = std::stoi(next());
    else if (a == "--delta")
      opt.delta = static_cast<std::uint32_t>(std::stoul(next()));
    else if (a == "--only")
      opt.only = next();
    else if (a == "--quick") {
      opt.min_scale = 14, opt.max_scale = 16, opt.dyn_scale = 14, opt.reps = 3;
      opt.max_batch_log = 10;
    } else {
      std::fprintf(stderr,
                   "usage: %s [--json FILE] [--min-scale N] [--max-scale N] [--mtx FILE] "
                   "[--reps N] [--quick] [--only static|dynamic] [--max-batch-log K] "
                   "[--dyn-scale N] [--delta D]\n",
                   argv[0]);
      return 2;
    }
  }
  std::printf("# GPU: %s\n", wg::bench::gpu_name().c_str());
  if (opt.only.empty() || opt.only == "static") {
    if (!opt.mtx.empty()) static_graph(opt.mtx, wg::datasets::read_graph(opt.mtx).edges);
    for (unsigned sc = opt.min_scale; sc <= opt.max_scale; ++sc)
      static_graph("rmat" + std::to_string(sc),
                   wg::datasets::generate_rmat({.scale = sc, .edge_factor = 16, .seed = 1}));
  }
  if (opt.only.empty() || opt.only == "dynamic") {
    const EdgeList whole =
        wg::datasets::generate_rmat({.scale = opt.dyn_scale, .edge_factor = 16, .seed = 2});
    dynamic_algo<wg::gpu::Graph, wg::gpu::DynamicBfs<wg::gpu::Graph>>(
        "bfs", whole, [](const wg::gpu::Graph& g) {
          wg::gpu::bfs_device(g.ref(), g.num_vertices(), false, 0, g.stream());
        });
    wg::gpu::ShortestPathState st;
    st.near_far_delta = opt.delta;
    dynamic_algo<wg::gpu::WeightedGraph, wg::gpu::DynamicSssp<wg::gpu::WeightedGraph>>(
        "sssp", with_lengths(whole, 64), [&](const wg::gpu::WeightedGraph& g) {
          wg::gpu::sp::static_sssp(g.ref(), g.num_vertices(), 0, st, false, g.stream());
        });
  }
  if (!opt.json_path.empty()) report.write(opt.json_path);
  return 0;
}
