// pagerank_bench: the GPU PageRank alone (algorithms/pagerank/gpu), for its tuning against
// Gunrock's PageRank on Gunrock's R-MAT s20 file (alpha 0.85, stop when the largest per-vertex
// change is under 1e-6).
//  - static: CUDA-event time of the iteration on the device (no copy of the ranks to the host,
//    as Gunrock's figure), on the slab graph's view and on a plain CSR of the same graph, for the
//    max-change and L1 rules; and the wall time of the host call pagerank(graph) (ranks copied);
//  - options: --split-degree, --arcs-per-part, --check-every (PageRankTuning fields);
//  - dynamic: an insertion batch of 2^k held-out edges applied through DynamicPageRank (warm
//    start) against the same batch applied to the graph plus a recompute, undone in between; and
//    a mixed step (2^k edges erased, 2^k inserted) through DynamicPageRank::update (one warm
//    start) against the same graph update plus a recompute.
//   pagerank_bench [--mtx FILE | --scale N] [--reps N] [--batch-log K] [--json FILE] [...]
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <warpgraph/algorithms/pagerank/gpu/pagerank.cuh>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/graph/gpu/csr_graph.cuh>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#include "../cuda_timer.cuh"
#include "../harness.hpp"

namespace {

using wg::EdgeList;
using Graph = wg::gpu::Graph;
using Options = wg::gpu::PageRankOptions;
using Tuning = wg::gpu::PageRankTuning;

constexpr double kGunrockMs = 6.98;  // H200, Gunrock's R-MAT s20 file (see ../algo_gpu/results)

struct Args {
  std::string mtx, json = "pagerank_bench.json";
  unsigned scale = 20;
  int reps = 5, batch_log = 14;
  std::uint32_t split_degree = Tuning{}.split_degree, arcs_per_part = Tuning{}.arcs_per_part;
  int check_every = Tuning{}.iterations_per_check;
} args;

wg::bench::Report report;

double median(const std::function<double()>& run) {
  return wg::bench::measure({.warmup = 2, .repetitions = args.reps}, run).median();
}

Options options(Options::Stop stop, double tol) {
  return {.tolerance = tol, .stop = stop};
}

Tuning tuning() {
  return {.split_degree = args.split_degree,
          .arcs_per_part = args.arcs_per_part,
          .iterations_per_check = args.check_every};
}

/// The tuning flags a row ran with (tuning()), as its fields.
nlohmann::json tuning_fields() {
  return {{"split_degree", args.split_degree},
          {"arcs_per_part", args.arcs_per_part},
          {"check_every", args.check_every}};
}

/// Records a dynamic row (section "dynamic" or "dynamic_mixed": an update against a recompute
/// of the same batch) with the section's own fields `extra`, and rewrites the JSON file.
void report_dynamic(const char* section, const std::string& input, const char* rule,
                    std::size_t batch, double update, double recompute, int warm_it,
                    bool recomputed, const nlohmann::json& extra) {
  nlohmann::json row = {{"section", section},
                        {"input", input},
                        {"rule", rule},
                        {"batch", batch},
                        {"update_seconds", update},
                        {"recompute_seconds", recompute},
                        {"warm_iterations", warm_it},
                        {"recomputed", recomputed},
                        {"speedup", recompute / update},
                        {"gpu", wg::bench::gpu_name()}};
  row.update(extra);
  report.add(std::move(row));
  report.write(args.json);
}

template <class View>
void device_rows(const char* graph, const View& view, std::uint64_t n, std::uint64_t arcs,
                 cudaStream_t stream, const std::string& input) {
  wg::DeviceBuffer<double> rank(n, stream);
  wg::gpu::PageRankWorkspace work;
  for (const auto& [name, stop, tol] :
       {std::tuple{"max_change_1e-6", Options::Stop::max_change, 1e-6},
        std::tuple{"l1_1e-10", Options::Stop::l1, 1e-10}}) {
    int it = 0;
    const Options o = options(stop, tol);
    const double s = median([&] {
      return wg::bench::cuda_seconds(stream, [&] {
        it = wg::gpu::pagerank(view, n, false, rank.data(), stream, o, tuning(), false, &work)
                 .iterations;
      });
    });
    const bool gunrock = stop == Options::Stop::max_change && !args.mtx.empty();
    std::printf("  %-6s %-16s %9.3f ms  %3d iterations  %7.3f ms/iteration", graph, name, s * 1e3,
                it, s * 1e3 / std::max(it, 1));
    if (gunrock) std::printf("  Gunrock %.2f ms: ratio %.2f", kGunrockMs, s * 1e3 / kGunrockMs);
    std::printf("\n");
    nlohmann::json row = {
        {"section", "static"}, {"input", input},   {"view", graph},
        {"rule", name},        {"vertices", n},    {"arcs", arcs},
        {"seconds", s},        {"iterations", it}, {"gpu", wg::bench::gpu_name()}};
    row.update(tuning_fields());
    report.add(std::move(row));
  }
}

void usage() {
  std::fprintf(stderr,
               "pagerank_bench [--mtx FILE | --scale N] [--reps N] [--batch-log K] [--json FILE]"
               " [--split-degree N] [--arcs-per-part N] [--check-every N]\n");
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
    if (a == "--mtx")
      args.mtx = next();
    else if (a == "--scale")
      args.scale = static_cast<unsigned>(std::stoul(next()));
    else if (a == "--reps")
      args.reps = std::stoi(next());
    else if (a == "--batch-log")
      args.batch_log = std::stoi(next());
    else if (a == "--json")
      args.json = next();
    else if (a == "--split-degree")
      args.split_degree = static_cast<std::uint32_t>(std::stoul(next()));
    else if (a == "--arcs-per-part")
      args.arcs_per_part = static_cast<std::uint32_t>(std::stoul(next()));
    else if (a == "--check-every")
      args.check_every = std::stoi(next());
    else
      usage();
  }
  EdgeList all;
  std::string input;
  if (!args.mtx.empty()) {
    all = wg::datasets::read_graph(args.mtx).edges;
    all.weight.clear();
    input = args.mtx;
  } else {
    all = wg::datasets::generate_rmat({.scale = args.scale, .edge_factor = 16, .seed = 42});
    input = "rmat-s" + std::to_string(args.scale);
  }
  // The base graph is all but the held-out batch (the dynamic rows insert it and take it out).
  const std::size_t batch = std::min<std::size_t>(std::size_t{1} << args.batch_log, all.size() / 2);
  std::vector<std::size_t> order(all.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937_64(7));
  EdgeList held, kept;  // kept: edges of the base graph that the mixed step erases
  held.num_vertices = all.num_vertices;
  held.symmetric = all.symmetric;
  kept.num_vertices = all.num_vertices;
  kept.symmetric = all.symmetric;
  for (std::size_t i = batch; i < 2 * batch && i < order.size(); ++i) {
    kept.src.push_back(all.src[order[i]]);
    kept.dst.push_back(all.dst[order[i]]);
  }
  for (std::size_t i = 0; i < batch; ++i) {
    held.src.push_back(all.src[order[i]]);
    held.dst.push_back(all.dst[order[i]]);
  }

  Graph g(0);
  g.build(all);
  g.grow_vertices(all.num_vertices);
  const cudaStream_t stream = g.stream();
  const wg::gpu::CsrGraph<false> csr(g.export_csr(), false, stream);
  std::printf("%s: %llu vertices, %llu arcs (%s)\n", input.c_str(),
              static_cast<unsigned long long>(g.num_vertices()),
              static_cast<unsigned long long>(csr.num_arcs()), wg::bench::gpu_name().c_str());
  device_rows("slab", g.ref(), g.num_vertices(), csr.num_arcs(), stream, input);
  device_rows("csr", csr.ref(), csr.num_vertices(), csr.num_arcs(), stream, input);
  {
    int it = 0;
    const double s = median([&] {
      return wg::bench::wall_seconds([&] {
        it = wg::gpu::pagerank(g, options(Options::Stop::max_change, 1e-6), tuning()).iterations;
      });
    });
    std::printf("  host call pagerank(graph), max change 1e-6: %.3f ms wall (%d iterations)\n",
                s * 1e3, it);
    report.add({{"section", "static_host_call"},
                {"input", input},
                {"seconds", s},
                {"iterations", it},
                {"gpu", wg::bench::gpu_name()}});
  }
  report.write(args.json);

  // Dynamic: the held-out batch erased from the graph first (the base), then inserted.
  g.erase_edges(held);
  for (const auto& [name, stop, tol] :
       {std::tuple{"max_change_1e-6", Options::Stop::max_change, 1e-6},
        std::tuple{"l1_1e-10", Options::Stop::l1, 1e-10}}) {
    wg::gpu::DynamicPageRank<Graph> dyn(g, options(stop, tol), tuning());
    bool recomputed = false;
    int warm_it = 0;
    const double update = median([&] {
      const double s = wg::bench::wall_seconds([&] {
        recomputed = dyn.insert_edges(held).recomputed;
        warm_it = dyn.last_run().iterations;
      });
      dyn.erase_edges(held);  // undo, untimed
      return s;
    });
    int cold_it = 0;
    const double recompute = median([&] {
      const double s = wg::bench::wall_seconds([&] {
        g.insert_edges(held);
        dyn.recompute();
        cold_it = dyn.last_run().iterations;
      });
      g.erase_edges(held);  // undo, untimed
      dyn.recompute();
      return s;
    });
    std::printf(
        "  dynamic %-16s batch %zu: update %.3f ms (%d it%s), recompute %.3f ms (%d it): "
        "speedup %.2f\n",
        name, batch, update * 1e3, warm_it, recomputed ? ", restarted cold" : "", recompute * 1e3,
        cold_it, recompute / update);
    report_dynamic("dynamic", input, name, batch, update, recompute, warm_it, recomputed,
                   {{"cold_iterations", cold_it}});

    // Mixed: erase `kept` and insert `held` in one step (one warm start), against the same graph
    // update and a recompute; undone (the reverse step) untimed.
    const double mixed = median([&] {
      const double s = wg::bench::wall_seconds([&] {
        recomputed = dyn.update(kept, held).recomputed;
        warm_it = dyn.last_run().iterations;
      });
      dyn.update(held, kept);
      return s;
    });
    const double mixed_recompute = median([&] {
      const double s = wg::bench::wall_seconds([&] {
        g.erase_edges(kept);
        g.insert_edges(held);
        dyn.recompute();
      });
      g.erase_edges(held);
      g.insert_edges(kept);
      dyn.recompute();
      return s;
    });
    std::printf(
        "  dynamic %-16s mixed %zu + %zu: update %.3f ms (%d it%s), recompute %.3f ms: "
        "speedup %.2f\n",
        name, kept.size(), held.size(), mixed * 1e3, warm_it, recomputed ? ", restarted cold" : "",
        mixed_recompute * 1e3, mixed_recompute / mixed);
    report_dynamic("dynamic_mixed", input, name, kept.size() + held.size(), mixed, mixed_recompute,
                   warm_it, recomputed, nlohmann::json::object());
  }
  return 0;
}
