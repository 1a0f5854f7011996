// global_bench: the GPU global algorithms (algorithms/{wcc,kcore,pagerank,tc}/gpu), static and
// dynamic (issue 34).
//
//   global_bench [--json FILE] [--only static|dynamic] [--gunrock-mtx FILE] [--graph FILE]...
//                [--min-scale N] [--max-scale N] [--structures slab,csr,btree]
//                [--algos cc,kcore,pagerank_l1,pagerank_max_change,tc] [--reps N]
//                [--row-budget S] [--time-limit S] [--tc-max-scale N] [--pr-tol X]
//                [--dyn-scale N] [--min-batch-log K] [--max-batch-log K] [--batch-step D]
//                [--quick]
// (flags: tools/bench/algo_gpu/bench_plan.hpp)
//
// Static: connected components, core numbers, PageRank with the reference's rule (L1 change <
// 1e-10) and with Gunrock's (largest per-vertex change < --pr-tol, alpha 0.85: Gunrock's
// published 8.76 ms on its R-MAT s20 file, H200) on every graph of the plan, each on the slab
// graph (slab_set), a plain CsrGraph of the same edges (csr) and the B-tree graph (btree),
// through the same view-templated computation, in the same run; triangle counting (the sorted
// count on the oriented view, with its phases) on the slab graph and the B-tree graph up to
// R-MAT scale --tc-max-scale (Gunrock: 8463 ms). CUDA-event milliseconds with the graph on the
// GPU, median after a warm-up; edges/s = undirected edges / time (PageRank: of the whole run,
// iterations in the row).
// Dynamic: DynamicComponents, DynamicCoreNumbers and DynamicPageRank (L1 < 1e-10) on the slab
// graph, and the incremental triangle counter on the slab and B-tree graphs (against apply + a
// static recount), per batch size, insert-only and mixed: bench_common.cuh.
// Every other registered algorithm with a GPU backend (algorithms/registry.hpp; --algos NAME)
// gets a static row on the slab graph (its entry's run, result copied back) and dynamic rows on it.
//
// Set CUDA_MODULE_LOADING=EAGER.
#include <cuda_runtime.h>

#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <warpgraph/algorithms/kcore/gpu/kcore.cuh>
#include <warpgraph/algorithms/pagerank/gpu/pagerank.cuh>
#include <warpgraph/algorithms/tc/gpu/sorted_triangle_count.hpp>
#include <warpgraph/algorithms/tc/gpu/triangle_count.hpp>
#include <warpgraph/algorithms/wcc/gpu/wcc.cuh>
#include <warpgraph/graph/gpu/btree_graph.hpp>
#include <warpgraph/graph/gpu/btree_graph_ref.cuh>
#include <warpgraph/graph/gpu/csr_graph.cuh>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#include "tools/bench/algo_gpu/bench_common.cuh"
#define WG_REGISTERED_WITH_GPU 1
#include "registered_algorithms.hpp"

namespace {

using namespace wg::bench::algo;
using wg::EdgeList;
using wg::vertex_t;
using Stop = wg::gpu::PageRankOptions::Stop;

constexpr double kGunrockPagerankMs = 8.76, kGunrockTcMs = 8463;  // H200, its R-MAT s20 file

/// answer: the row's count (components, largest core, triangles; -1: none) that every structure
/// must agree on.
void record(Context& c, const GraphSpec& g, const std::string& structure, const char* algo,
            const StaticMeasure& m, std::uint64_t n, std::uint64_t edges, double gunrock_ms,
            nlohmann::json extra, std::int64_t answer = -1) {
  print_static(g, structure, algo, m, edges, gunrock_ms);
  nlohmann::json row = static_row(algo, g, structure, m, n, edges, c.gpu);
  if (answer >= 0 && !c.answers.agree(g.name, algo, structure, answer)) row["mismatch"] = true;
  if (g.gunrock && gunrock_ms > 0) row["gunrock_published_ms"] = gunrock_ms;
  for (auto it = extra.begin(); it != extra.end(); ++it) row[it.key()] = it.value();
  c.rows.add(std::move(row));
}

/// Components, core numbers and both PageRank rules on one structure's device view.
template <class View>
void time_view(Context& c, const GraphSpec& g, const std::string& structure, const View& v,
               std::uint64_t n, std::uint64_t edges, cudaStream_t s) {
  const Plan& p = c.plan;
  if (p.wants_algo("cc")) {
    wg::DeviceBuffer<vertex_t> labels(n, s, "component labels");
    std::uint64_t count = 0;
    const StaticMeasure m = measure_static(p, s, [&] {
      count = wg::gpu::connected_components(v, n, labels.data(), s, true);
      return std::int64_t{0};
    });
    record(c, g, structure, "cc", m, n, edges, 0, {{"components", count}},
           static_cast<std::int64_t>(count));
  }
  if (p.wants_algo("kcore")) {
    wg::DeviceBuffer<std::uint32_t> core(n, s, "core numbers");
    std::uint32_t max_core = 0;
    const StaticMeasure m = measure_static(p, s, [&] {
      max_core = wg::gpu::core_numbers(v, n, core.data(), s);
      return std::int64_t{0};
    });
    record(c, g, structure, "kcore", m, n, edges, 0, {{"max_core", max_core}}, max_core);
  }
  wg::DeviceBuffer<double> rank(n, s, "ranks");
  auto pagerank = [&](const char* algo, const wg::gpu::PageRankOptions& o, double gunrock_ms) {
    bool converged = false;
    const StaticMeasure m = measure_static(p, s, [&] {
      const wg::gpu::PageRankRun r = wg::gpu::pagerank(v, n, false, rank.data(), s, o);
      converged = r.converged;
      return static_cast<std::int64_t>(r.iterations);
    });
    record(c, g, structure, algo, m, n, edges, gunrock_ms,
           {{"converged", converged}, {"tolerance", o.tolerance}});
  };
  if (p.wants_algo("pagerank_l1"))
    pagerank("pagerank_l1", {.tolerance = 1e-10, .stop = Stop::l1}, 0);
  if (p.wants_algo("pagerank_max_change"))
    pagerank("pagerank_max_change", {.tolerance = p.pr_tol, .stop = Stop::max_change},
             g.gunrock ? kGunrockPagerankMs : 0);
}

/// Triangle counting on a whole graph: its entry's run, the total only (algorithms/tc/gpu/tc.hpp:
/// the sorted count on the oriented view, on every graph), and the median of each of its phases
/// over 5 runs (TcTuning::phases: device CSR, orientation, sort, intersection), so that the row
/// gives the time with and without building the oriented view.
template <class Graph>
void time_tc(Context& c, const GraphSpec& g, const std::string& structure, const Graph& graph,
             std::uint64_t n, std::uint64_t edges) {
  using Tc = wg::TcEntry;
  std::uint64_t triangles = 0;
  const StaticMeasure m = measure_static(c.plan, graph.stream(), [&] {
    triangles = Tc::run(graph, {.per_vertex = false}).total;
    return std::int64_t{0};
  });
  std::vector<double> csr, orient, sort, intersect;
  for (int i = 0; i < 5; ++i) {
    wg::gpu::SortedPhases ph;
    wg::gpu::count_triangles_sorted(graph, {.phases = &ph});
    csr.push_back(ph.csr_ms);
    orient.push_back(ph.orient_ms);
    sort.push_back(ph.sort_ms);
    intersect.push_back(ph.intersect_ms);
  }
  std::printf("  %-16s %-9s %-20s phases: csr %.3f  orient %.3f  sort %.3f  intersect %.3f ms\n",
              g.name.c_str(), structure.c_str(), Tc::name, median(csr), median(orient),
              median(sort), median(intersect));
  record(c, g, structure, Tc::name, m, n, edges, g.gunrock ? kGunrockTcMs : 0,
         {{Tc::stream_key, triangles},
          {"csr_ms", median(csr)},
          {"orient_ms", median(orient)},
          {"sort_ms", median(sort)},
          {"intersect_ms", median(intersect)}},
         static_cast<std::int64_t>(triangles));
}

/// Whether this bench gives the registered algorithm its rows from the entry: entries with a
/// source are traversal_bench's, pagerank has its own rows (pagerank_l1, pagerank_max_change:
/// the two stop rules), and tc its own (time_tc, on the slab and B-tree graphs alike; its
/// counter follows batches without a recompute() to compare with).
template <class Entry>
constexpr bool registry_rows() {
  return !Entry::needs_source && std::string_view(Entry::name) != "pagerank" &&
         !std::is_same_v<Entry, wg::TcEntry>;
}
/// ... and its static row: cc and kcore are timed by time_view over every device view (slab,
/// CSR, B-tree) without copying their result back, which an entry's run cannot.
template <class Entry>
constexpr bool registry_static_row() {
  const std::string_view name = Entry::name;
  return registry_rows<Entry>() && name != "cc" && name != "kcore";
}

/// A registered algorithm's static row on the slab graph (its entry's fields in the row).
template <class Entry>
void time_registered(Context& c, const GraphSpec& g, const wg::gpu::Graph& sg) {
  if constexpr (!registry_static_row<Entry>()) return;
  if (!c.plan.wants_algo(Entry::name)) return;
  typename Entry::Result r;
  const StaticMeasure m = measure_static(c.plan, sg.stream(), [&] {
    r = Entry::run(sg, typename Entry::Options{});
    return std::int64_t{0};
  });
  nlohmann::json extra;
  for (const wg::SummaryField& f : wg::entry_fields<Entry>(r, {})) extra[f.key] = f.value;
  record(c, g, "slab_set", Entry::name, m, sg.num_vertices(), sg.num_edges(), 0, extra);
}

/// A registered algorithm's dynamic rows on the slab graph (its entry's dynamic class).
template <class Entry>
void dynamic_registered(const Plan& plan, const Deadline& deadline, Rows& rows,
                        const DynamicInput& whole) {
  using G = wg::gpu::Graph;
  if constexpr (registry_rows<Entry>()) {  // (an entry without them may not fit dynamic_rows)
    if (!plan.wants_algo(Entry::name)) return;
    using Dyn = std::remove_cvref_t<decltype(*Entry::make_dynamic(std::declval<G&>(),
                                                                  typename Entry::Options{}))>;
    guarded_dynamic(rows, Entry::name, [&] {
      dynamic_rows<G, Dyn>(plan, deadline, rows, Entry::name, "slab_set", whole, [](G& g) {
        return std::move(*Entry::make_dynamic(g, typename Entry::Options{}));
      });
    });
  }
}

/// Triangle counting's dynamic rows: the incremental counter (apply + the batch's triangles)
/// against apply + the static sorted recount, through dynamic_rows' insert / erase / recompute.
template <class Graph, class Counting>
struct TcDynamic {
  using Counter = wg::gpu::IncrementalTriangleCounter<Graph, Counting>;
  struct Step {
    bool recomputed = false;  // the counter never recounts a batch
    std::uint64_t changed = 0;
  };
  std::unique_ptr<Counter> counter;

  Step insert_edges(wg::gpu::DeviceEdges b) { return {false, counter->insert_edges(b).triangles}; }
  Step erase_edges(wg::gpu::DeviceEdges b) { return {false, counter->erase_edges(b).triangles}; }
  void recompute() { counter->recount(); }
};

template <class Graph, class Counting>
void dynamic_tc(Context& c, const DynamicInput& whole, const std::string& structure) {
  using Dyn = TcDynamic<Graph, Counting>;
  guarded_dynamic(c.rows, wg::TcEntry::name, [&] {
    dynamic_rows<Graph, Dyn>(
        c.plan, c.deadline, c.rows, wg::TcEntry::name, structure, whole,
        [](Graph& g) { return Dyn{std::make_unique<typename Dyn::Counter>(g)}; });
  });
}

void static_graph(Context& c, const GraphSpec& g) {
  const Plan& p = c.plan;
  const EdgeList e = load_graph(g);
  const bool tc = p.wants_algo(wg::TcEntry::name) && (g.scale == 0 || g.scale <= p.tc_max_scale);
  std::uint64_t n = 0, m = 0;
  wg::gpu::Csr csr;
  guarded(c, g, "slab_set", [&] {
    wg::gpu::Graph sg(0);
    sg.build(e);
    n = sg.num_vertices();
    m = sg.num_edges();
    std::printf("# %s: %llu vertices, %llu edges\n", g.name.c_str(),
                static_cast<unsigned long long>(n), static_cast<unsigned long long>(m));
    if (p.wants("slab")) {
      time_view(c, g, "slab_set", sg.ref(), n, m, sg.stream());
      if (tc) time_tc(c, g, "slab_set", sg, n, m);
#define WG_BENCH_STATIC(Entry) time_registered<Entry>(c, g, sg);
      WG_REGISTERED_GPU(WG_BENCH_STATIC)
#undef WG_BENCH_STATIC
    }
    if (p.wants("csr")) csr = sg.export_csr();
  });
  if (n == 0) return;
  if (p.wants("csr") && !csr.offsets.empty()) {
    guarded(c, g, "csr", [&] {
      const wg::gpu::CsrGraph<false> cg(csr, false, 0);
      csr = {};
      time_view(c, g, "csr", cg.ref(), cg.num_vertices(), m, cg.stream());
    });
  }
  csr = {};
  if (p.wants("btree")) {
    guarded(c, g, "btree", [&] {
      wg::gpu::BTreeGraph<false> bt(0);
      bt.build(e);
      time_view(c, g, "btree", bt.ref(), bt.num_vertices(), m, bt.stream());
      if (tc) time_tc(c, g, "btree", bt, bt.num_vertices(), m);
    });
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::set<std::string> algos{"pagerank_l1", "pagerank_max_change", wg::TcEntry::name};
#define WG_BENCH_NAME(Entry) \
  if (registry_rows<Entry>()) algos.insert(Entry::name);
  WG_REGISTERED_GPU(WG_BENCH_NAME)
#undef WG_BENCH_NAME
  return run_driver(
      "global_bench", "global", argc, argv, algos, static_graph,
      [](Context& c, const DynamicInput& whole) {
        using G = wg::gpu::Graph;
        if (c.plan.wants_algo("pagerank_l1"))
          guarded_dynamic(c.rows, "pagerank", [&] {
            dynamic_rows<G, wg::gpu::DynamicPageRank<G>>(
                c.plan, c.deadline, c.rows, "pagerank", "slab_set", whole, [](G& g) {
                  return wg::gpu::DynamicPageRank<G>(g, {.tolerance = 1e-10, .stop = Stop::l1});
                });
          });
        if (c.plan.wants_algo(wg::TcEntry::name)) {
          dynamic_tc<G, wg::gpu::ProbeCounting>(c, whole, "slab_set");
          dynamic_tc<wg::gpu::BTreeGraph<false>, wg::gpu::SortedCounting>(c, whole, "btree");
        }
#define WG_BENCH_DYNAMIC(Entry) dynamic_registered<Entry>(c.plan, c.deadline, c.rows, whole);
        WG_REGISTERED_GPU(WG_BENCH_DYNAMIC)
#undef WG_BENCH_DYNAMIC
      });
}
