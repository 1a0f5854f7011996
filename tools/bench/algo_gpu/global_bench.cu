// global_bench: the GPU global algorithms (algorithms/{wcc,kcore,pagerank}/gpu) on the slab-hash
// dynamic graph.
//  - static: connected components, core numbers and PageRank on R-MAT graphs (scales
//    --min-scale..--max-scale, edge factor 16) and on a file given by --mtx: median seconds and
//    edges/s (undirected edges of the graph / seconds). PageRank runs twice: with the reference's
//    rule (L1 change < 1e-10) and with Gunrock's (largest per-vertex change < --pr-tol, default
//    1e-6, alpha 0.85), so the second compares like for like with Gunrock's published 8.76 ms
//    (H200, its R-MAT s20 file) printed beside it;
//  - dynamic: per batch, "apply + update" (the Dynamic* classes) against "apply + static
//    recompute", batch sizes 2^--min-batch-log .. 2^--max-batch-log, insert-only (new edges) and
//    mixed (half deletions of present edges, half insertions of new ones), on an R-MAT graph of
//    scale --dyn-scale holding 90% of its edges (the rest feed the insertions). Each timed batch
//    is undone afterwards (untimed), so every repetition starts from the same graph.
//
//   global_bench [--json FILE] [--mtx FILE] [--min-scale N] [--max-scale N] [--dyn-scale N]
//                [--min-batch-log N] [--max-batch-log N] [--reps N] [--pr-tol X]
//                [--only static|dynamic] [--quick]
//
// Times are wall-clock seconds of the whole call (each synchronises), median of --reps runs
// after a warm-up. Set CUDA_MODULE_LOADING=EAGER.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include <warpgraph/algorithms/kcore/gpu/kcore.hpp>
#include <warpgraph/algorithms/pagerank/gpu/pagerank.hpp>
#include <warpgraph/algorithms/wcc/gpu/wcc.hpp>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#include "../cuda_timer.cuh"
#include "../harness.hpp"

namespace {

using wg::EdgeList;
using Graph = wg::gpu::Graph;
using Stop = wg::gpu::PageRankOptions::Stop;

struct Options {
  std::string json = "global_bench.json";
  std::string mtx;
  unsigned min_scale = 20, max_scale = 24, dyn_scale = 20;
  int min_batch_log = 4, max_batch_log = 20;
  int reps = 5;
  double pr_tol = 1e-6;
  std::string only;
  bool quick = false;
} opt;

constexpr double kGunrockPagerankMs = 8.76;  // H200, R-MAT s20 ef16, alpha .85, max change 1e-6

wg::bench::Report report;

double median_of(const std::function<double()>& run) {
  return wg::bench::measure({.warmup = 1, .repetitions = opt.reps}, run).median();
}

Graph build(const EdgeList& e) {
  Graph g(0);
  g.build(e);
  g.grow_vertices(e.num_vertices);
  (void)g.degrees();
  return g;
}

void static_on(const std::string& name, const EdgeList& e) {
  const Graph g = build(e);
  const double edges = static_cast<double>(g.num_edges());
  std::printf("\n%s: %llu vertices, %llu edges\n", name.c_str(),
              static_cast<unsigned long long>(g.num_vertices()),
              static_cast<unsigned long long>(g.num_edges()));
  auto row = [&](const char* algo, double s, int iterations, double paper_ms) {
    std::printf("  %-22s %10.3f ms  %8.3f Gedges/s", algo, s * 1e3, edges / s * 1e-9);
    if (iterations) std::printf("  (%d iterations)", iterations);
    if (paper_ms > 0) std::printf("  Gunrock %.2f ms: ratio %.2f", paper_ms, s * 1e3 / paper_ms);
    std::printf("\n");
    report.add({{"section", "static"},
                {"graph", name},
                {"algorithm", algo},
                {"vertices", g.num_vertices()},
                {"edges", g.num_edges()},
                {"seconds", s},
                {"edges_per_second", edges / s},
                {"iterations", iterations},
                {"gpu", wg::bench::gpu_name()}});
  };
  row("cc", median_of([&] {
        return wg::bench::wall_seconds([&] { (void)wg::gpu::connected_components(g); });
      }),
      0, 0);
  row("kcore",
      median_of([&] { return wg::bench::wall_seconds([&] { (void)wg::gpu::core_numbers(g); }); }),
      0, 0);
  int it = 0;
  const double l1 = median_of([&] {
    return wg::bench::wall_seconds(
        [&] { it = wg::gpu::pagerank(g, {.tolerance = 1e-10}).iterations; });
  });
  row("pagerank_l1_1e-10", l1, it, 0);
  const double mx = median_of([&] {
    return wg::bench::wall_seconds([&] {
      it = wg::gpu::pagerank(g, {.tolerance = opt.pr_tol, .stop = Stop::max_change}).iterations;
    });
  });
  const bool gunrock_graph = name.find(".mtx") != std::string::npos;  // Gunrock's file
  row("pagerank_max_change", mx, it, gunrock_graph ? kGunrockPagerankMs : 0);
}

/// Base graph (90% of the R-MAT edges) and the held-out edges that insertions draw from.
struct DynamicInput {
  EdgeList base, held;
};

DynamicInput split_rmat(unsigned scale) {
  EdgeList all = wg::datasets::generate_rmat({.scale = scale, .edge_factor = 16, .seed = 42});
  std::vector<std::size_t> order(all.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937_64(7));
  DynamicInput in;
  in.base.num_vertices = in.held.num_vertices = all.num_vertices;
  in.base.symmetric = in.held.symmetric = true;
  const std::size_t keep = all.size() / 10 * 9;
  // The held-out entries keep only edges absent from the base (and once each), so that undoing
  // an insertion batch removes exactly what it added.
  auto key = [&](std::size_t i) {
    const std::uint64_t u = std::min(all.src[i], all.dst[i]), v = std::max(all.src[i], all.dst[i]);
    return u << 32 | v;
  };
  std::unordered_set<std::uint64_t> seen;
  seen.reserve(all.size());
  for (std::size_t i = 0; i < keep; ++i) seen.insert(key(order[i]));
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::size_t j = order[i];
    if (i >= keep && (all.src[j] == all.dst[j] || !seen.insert(key(j)).second)) continue;
    EdgeList& to = i < keep ? in.base : in.held;
    to.src.push_back(all.src[j]);
    to.dst.push_back(all.dst[j]);
  }
  return in;
}

EdgeList slice(const EdgeList& e, std::size_t first, std::size_t n) {
  EdgeList out;
  out.num_vertices = e.num_vertices;
  out.symmetric = true;
  n = std::min(n, e.size() - std::min(first, e.size()));
  out.src.assign(e.src.begin() + first, e.src.begin() + first + n);
  out.dst.assign(e.dst.begin() + first, e.dst.begin() + first + n);
  return out;
}

/// One algorithm's dynamic rows: Dyn is DynamicComponents / DynamicCoreNumbers / DynamicPageRank.
template <class Dyn, class Opts>
void dynamic_rows(const char* algo, const DynamicInput& in, const Opts& options) {
  Graph g = build(in.base);
  Dyn dyn(g, options);
  std::printf("\n%s (dynamic, R-MAT s%u, %llu edges)\n%10s %8s %14s %14s %8s %s\n", algo,
              opt.dyn_scale, static_cast<unsigned long long>(g.num_edges()), "stream", "batch",
              "update ms", "recompute ms", "speedup", "recomputed");
  for (const bool mixed : {false, true}) {
    for (int lg = opt.min_batch_log; lg <= opt.max_batch_log; ++lg) {
      const std::size_t b = std::size_t{1} << lg;
      const std::size_t ins = mixed ? b / 2 : b;
      if (ins > in.held.size() || b - ins > in.base.size()) break;
      const EdgeList add = slice(in.held, 0, ins);
      const EdgeList del = slice(in.base, in.base.size() / 3, b - ins);
      bool recomputed = false;
      const double update = median_of([&] {
        const double s = wg::bench::wall_seconds([&] {
          if (!del.src.empty()) recomputed = dyn.erase_edges(del).recomputed;
          recomputed = dyn.insert_edges(add).recomputed || recomputed;
        });
        dyn.erase_edges(add);  // undo, untimed
        if (!del.src.empty()) dyn.insert_edges(del);
        return s;
      });
      const double recompute = median_of([&] {
        const double s = wg::bench::wall_seconds([&] {
          if (!del.src.empty()) g.erase_edges(del);
          g.insert_edges(add);
          dyn.recompute();
        });
        g.erase_edges(add);  // undo, untimed
        if (!del.src.empty()) g.insert_edges(del);
        dyn.recompute();
        return s;
      });
      std::printf("%10s %8zu %14.3f %14.3f %8.2f %s\n", mixed ? "mixed" : "insert", b, update * 1e3,
                  recompute * 1e3, recompute / update, recomputed ? "yes" : "no");
      report.add({{"section", "dynamic"},
                  {"algorithm", algo},
                  {"stream", mixed ? "mixed" : "insert"},
                  {"scale", opt.dyn_scale},
                  {"batch", b},
                  {"update_seconds", update},
                  {"recompute_seconds", recompute},
                  {"speedup", recompute / update},
                  {"recomputed", recomputed},
                  {"gpu", wg::bench::gpu_name()}});
    }
  }
}

void usage() {
  std::fprintf(stderr,
               "global_bench [--json FILE] [--mtx FILE] [--min-scale N] [--max-scale N] "
               "[--dyn-scale N] [--min-batch-log N] [--max-batch-log N] [--reps N] [--pr-tol X] "
               "[--only static|dynamic] [--quick]\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) usage();
      return argv[++i];
    };
    if (a == "--json")
      opt.json = next();
    else if (a == "--mtx")
      opt.mtx = next();
    else if (a == "--min-scale")
      opt.min_scale = std::stoul(next());
    else if (a == "--max-scale")
      opt.max_scale = std::stoul(next());
    else if (a == "--dyn-scale")
      opt.dyn_scale = std::stoul(next());
    else if (a == "--min-batch-log")
      opt.min_batch_log = std::stoi(next());
    else if (a == "--max-batch-log")
      opt.max_batch_log = std::stoi(next());
    else if (a == "--reps")
      opt.reps = std::max(1, std::stoi(next()));
    else if (a == "--pr-tol")
      opt.pr_tol = std::stod(next());
    else if (a == "--only")
      opt.only = next();
    else if (a == "--quick")
      opt.quick = true;
    else
      usage();
  }
  if (opt.quick) {
    opt.min_scale = std::min(opt.min_scale, 16u);
    opt.max_scale = std::min(opt.max_scale, 17u);
    opt.dyn_scale = std::min(opt.dyn_scale, 16u);
    opt.max_batch_log = std::min(opt.max_batch_log, 12);
    opt.reps = std::min(opt.reps, 3);
  }
  std::printf("global_bench on %s\n", wg::bench::gpu_name().c_str());
  if (opt.only.empty() || opt.only == "static") {
    if (!opt.mtx.empty()) {
      EdgeList e = wg::datasets::read_graph(opt.mtx).edges;
      e.weight.clear();
      static_on(opt.mtx, e);
    }
    for (unsigned s = opt.min_scale; s <= opt.max_scale; ++s) {
      static_on("rmat-s" + std::to_string(s),
                wg::datasets::generate_rmat({.scale = s, .edge_factor = 16, .seed = 1}));
      report.write(opt.json);
    }
  }
  if (opt.only.empty() || opt.only == "dynamic") {
    const DynamicInput in = split_rmat(opt.dyn_scale);
    dynamic_rows<wg::gpu::DynamicComponents<Graph>>("cc", in, wg::gpu::DynamicComponentsOptions{});
    report.write(opt.json);
    dynamic_rows<wg::gpu::DynamicCoreNumbers<Graph>>("kcore", in,
                                                     wg::gpu::DynamicCoreNumbersOptions{});
    report.write(opt.json);
    dynamic_rows<wg::gpu::DynamicPageRank<Graph>>("pagerank", in,
                                                  wg::gpu::PageRankOptions{.tolerance = 1e-10});
  }
  report.write(opt.json);
  return 0;
}
