// algo_cpu_bench [--only NAME] GRAPH...: for each graph, (1) static BFS (from vertex 0), connected
// components and core numbers on the CPU graph against the Boost.Graph reference (whose time
// includes building its Boost CSR graph from the edge list, as the CLI's does); (2) per batch of
// 2^4..2^12 random edges of the graph, "apply + dynamic update" (DynamicBfs, DynamicComponents,
// DynamicCoreNumbers) against "apply + static recompute", for an insertion batch, the deletion
// batch that takes it back, and a mixed step (update(erase, insert), half the batch each side:
// erases fresh edges, inserts those the previous step erased). Medians of repeated runs,
// milliseconds; beside each, how many of the 7 batches the static computation answered
// (fallbacks, as the object's statistics count them). Threads: the graph's default (all cores).
// GRAPH is a file, or rmat:SCALE for the Graph500 R-MAT of that scale (edge factor 16, seed 1).
// --only NAME: that registered algorithm's rows only. --lg LO:HI: batches of 2^LO..2^HI (even
// steps; default 4:12). A registered algorithm's rows also time its dynamic object's
// recompute(), what a batch that falls back pays beside its search.
// Every registered algorithm with a CPU backend (algorithms/registry.hpp) gets the same two
// rows: its entry's static run against its reference, and its dynamic class against recompute.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <warpgraph/algorithms/bfs/cpu/bfs.hpp>
#include <warpgraph/algorithms/kcore/cpu/kcore.hpp>
#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/algorithms/wcc/cpu/wcc.hpp>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/graph/cpu/dynamic_graph.hpp>

#include "tools/bench/harness.hpp"
#define WG_REGISTERED_WITH_CPU 1
#include "registered_algorithms.hpp"

namespace {

using namespace wg;
using wg::bench::measure;
using wg::bench::wall_seconds;

unsigned lg_low = 4, lg_high = 12;  // --lg: the batch sizes 2^lg

/// 1 when the static computation answered the batch (where the result says so).
template <class Result>
int fell_back(const Result& r) {
  if constexpr (requires { r.recomputed; })
    return r.recomputed;
  else
    return 0;
}

/// `make(graph)`: the dynamic algorithm on `graph`, as a pointer; batches of present edges
/// (drawn with replacement) erased, inserted back and both in one mixed step.
template <class Make, class Static>
void dynamic_vs_recompute(const char* name, const EdgeList& edges, Make make, Static recompute) {
  for (unsigned lg = lg_low; lg <= lg_high; lg += 2) {
    // Batches are edges of the graph: erase them (the graph loses them) and insert them back.
    cpu::DynamicGraph a, b;
    a.build(edges);
    b.build(edges);
    auto dyn = make(a);
    std::mt19937_64 rng(lg);
    std::vector<double> dyn_erase, dyn_insert, re_erase, re_insert, dyn_mixed, re_mixed;
    int fell_erase = 0, fell_insert = 0, fell_mixed = 0;  // batches the static computation answered
    EdgeList erased = datasets::sample_entries(edges, std::size_t{1} << (lg - 1),
                                               rng);  // the mixed steps' insert
    dyn->erase_edges(erased);
    b.erase_edges(erased);
    dyn->reset_statistics();
    for (int rep = 0; rep < 7; ++rep) {
      const EdgeList batch = datasets::sample_entries(edges, std::size_t{1} << lg, rng);
      dyn_erase.push_back(wall_seconds([&] { fell_erase += fell_back(dyn->erase_edges(batch)); }));
      dyn_insert.push_back(
          wall_seconds([&] { fell_insert += fell_back(dyn->insert_edges(batch)); }));
      re_erase.push_back(wall_seconds([&] {
        b.erase_edges(batch);
        recompute(b);
      }));
      re_insert.push_back(wall_seconds([&] {
        b.insert_edges(batch);
        recompute(b);
      }));
      EdgeList erase = datasets::sample_entries(edges, std::size_t{1} << (lg - 1), rng);
      dyn_mixed.push_back(
          wall_seconds([&] { fell_mixed += fell_back(dyn->update(erase, erased)); }));
      re_mixed.push_back(wall_seconds([&] {
        b.erase_edges(erase);
        b.insert_edges(erased);
        recompute(b);
      }));
      erased = std::move(erase);
    }
    auto med = [](std::vector<double> v) { return 1e3 * wg::bench::Series{v}.median(); };
    std::printf(
        "  %s batch 2^%u: insert %.3f ms vs recompute %.3f ms (%.2fx, %d/7 fell back); erase %.3f "
        "ms vs %.3f ms (%.2fx, %d/7); mixed %.3f ms vs %.3f ms (%.2fx, %d/7)\n",
        name, lg, med(dyn_insert), med(re_insert), med(re_insert) / med(dyn_insert), fell_insert,
        med(dyn_erase), med(re_erase), med(re_erase) / med(dyn_erase), fell_erase, med(dyn_mixed),
        med(re_mixed), med(re_mixed) / med(dyn_mixed), fell_mixed);
  }
}

/// A registered algorithm's rows (its entry: algorithms/registry.hpp).
template <class Entry, class Ms>
void registered_rows(const EdgeList& edges, const cpu::DynamicGraph& g, Ms ms, const char* only) {
  if (only && std::strcmp(only, Entry::name) != 0) return;
  const typename Entry::Options options{};
  std::printf("  static %s: cpu %.2f ms, reference %.2f ms\n", Entry::name,
              ms([&] { Entry::run(g, options); }), ms([&] { Entry::reference(edges, options); }));
  {  // what a batch that falls back pays beside its search
    cpu::DynamicGraph x;
    x.build(edges);
    auto dyn = Entry::make_dynamic(x, options);
    if constexpr (requires { dyn->recompute(); })
      std::printf("  %s dynamic object's recompute: %.2f ms\n", Entry::name,
                  ms([&] { dyn->recompute(); }));
  }
  dynamic_vs_recompute(
      Entry::name, edges, [&](cpu::DynamicGraph& x) { return Entry::make_dynamic(x, options); },
      [&](const cpu::DynamicGraph& x) { Entry::run(x, options); });
}

}  // namespace

int main(int argc, char** argv) {
  const char* only = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      only = argv[++i];
      continue;
    }
    if (std::strcmp(argv[i], "--lg") == 0 && i + 1 < argc) {
      std::sscanf(argv[++i], "%u:%u", &lg_low, &lg_high);
      continue;
    }
    const bool rmat = std::strncmp(argv[i], "rmat:", 5) == 0;
    const EdgeList edges =
        rmat ? wg::datasets::generate_rmat({.scale = unsigned(std::atoi(argv[i] + 5))})
             : wg::datasets::read_graph(argv[i]).edges;
    cpu::DynamicGraph g;
    g.build(edges);
    std::printf("%s: %llu vertices, %llu edges, %u threads\n", argv[i],
                static_cast<unsigned long long>(g.num_vertices()),
                static_cast<unsigned long long>(g.num_edges()), g.threads());
    const wg::bench::MeasureOptions o{.warmup = 1, .repetitions = 7};
    auto ms = [&](auto f) { return 1e3 * measure(o, [&] { return wall_seconds(f); }).median(); };
#define WG_BENCH_ROWS(Entry) registered_rows<Entry>(edges, g, ms, only);
    WG_REGISTERED_CPU(WG_BENCH_ROWS)
#undef WG_BENCH_ROWS
    if (only) continue;
    const double bfs_cpu = ms([&] { cpu::bfs(g, 0); });
    const double bfs_td = ms([&] { cpu::bfs(g, 0, {.top_down_alpha = 0}); });
    const double bfs_1t = ms([&] { cpu::bfs(g, 0, {}, {.threads = 1}); });
    const double bfs_ref = ms([&] { wg::reference::bfs_levels(edges, 0); });
    const double cc_cpu = ms([&] { cpu::connected_components(g); });
    const double cc_1t = ms([&] { cpu::connected_components(g, {}, {.threads = 1}); });
    const double cc_ref = ms([&] { wg::reference::connected_components(edges); });
    std::printf(
        "  static bfs: cpu %.2f ms (top-down only %.2f, 1 thread %.2f), reference %.2f ms\n",
        bfs_cpu, bfs_td, bfs_1t, bfs_ref);
    std::printf("  static cc:  cpu %.2f ms (1 thread %.2f), reference %.2f ms\n", cc_cpu, cc_1t,
                cc_ref);
  }
}
