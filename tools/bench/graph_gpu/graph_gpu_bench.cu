// graph_gpu_bench: the thesis' chapter 5 tables (Awad, "Fully Concurrent GPU Data Structures",
// TITAN V figures typed in below) on the slab-hash dynamic graph, plus the faimGraph comparison
// points of issue 4. Every figure is printed beside the paper's; JSON records go to --json.
//
//   graph_gpu_bench [--json FILE] [--data DIR] [--min-scale N] [--max-scale N] [--reps N]
//                   [--quick] [--file FILE.mtx ...]
//                   [--only edges|queries|vertices|build|incremental|dynamic|floor|accesses]
//                   [--batch-logs LO:HI] [--graphs
//                   uniform,uniform-weighted,rmat,rmat-permuted,rmat-s22,rmat-s22-hubs,
//                   real,real-arcs,rmat-random,rmat-random-arcs]
//
// Rates are entries of the batch per second (duplicates, self-loops and edges already present
// included, as the paper counts), median of --reps timed runs after one warm-up. "resident":
// batch already in GPU memory; "+h2d": the batch starts in host memory (pageable vector) and
// the copy is timed too. Set CUDA_MODULE_LOADING=EAGER (the warm-up also loads the kernels).
#include <cuda_runtime_api.h>

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <numeric>
#include <string>
#include <vector>

#include <warpgraph/algorithms/tc/gpu/triangle_count.hpp>
#include <warpgraph/containers/slab_hash/slab_layout.cuh>
#include <warpgraph/containers/slab_hash/slab_memory.cuh>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/gpu/graph_tuning.hpp>

#include "../harness.hpp"

namespace {

/// The graph's options for every run: defaults, with the tuning fields the environment names
/// (WG_GRAPH_SORT_FROM=k, WG_GRAPH_TRACE=1, ...: graph/gpu/graph_tuning.hpp).
wg::gpu::GraphOptions graph_options() {
  wg::gpu::GraphOptions o;
  wg::gpu::apply_graph_tuning(o.tuning, [](const char* name) { return std::getenv(name); });
  return o;
}

using wg::DeviceBuffer;
using wg::EdgeList;
using wg::vertex_t;
using wg::gpu::DeviceEdges;
using Graph = wg::gpu::Graph;

struct Options {
  std::string json = "graph_gpu_bench.json";
  std::string data = "";
  unsigned min_scale = 0, max_scale = 24;  ///< R-MAT scales of the random-batch and build tables
  int reps = 3;
  bool quick = false;
  std::string only;  ///< run one section: edges, queries, vertices, build, incremental, dynamic,
                     ///< floor, accesses (these two only when named)
  int min_batch_log = 16, max_batch_log = 22;  ///< edge tables: batch sizes 2^lo .. 2^hi
  std::vector<std::string> files;  ///< build/TC table: these graph files, in file id order and
                                   ///< with ids permuted (the count must not depend on the order)
  std::string graphs;              ///< edge tables: comma list of uniform, uniform-weighted, rmat,
                       ///< rmat-permuted, rmat-s22, rmat-s22-hubs, real, real-arcs (the shared
                       ///< graphs of --data, undirected / as arcs), rmat-random,
                       ///< rmat-random-arcs (R-MAT s20-s24 with random batches)
} opt;

bool graph_selected(const char* key) {
  if (opt.graphs.empty()) return true;
  const std::string list = "," + opt.graphs + ",";
  return list.find("," + std::string(key) + ",") != std::string::npos;
}

bool section(const char* name) {
  return opt.only.empty() || opt.only == name;
}

wg::bench::Report report;
const auto g_start = std::chrono::steady_clock::now();
double elapsed() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - g_start).count();
}

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

struct DeviceBatch {
  DeviceBuffer<vertex_t> src, dst;
  std::uint64_t n = 0;
  DeviceBuffer<std::uint32_t> values;  ///< weighted batches only
  DeviceEdges view(std::uint64_t off = 0, std::uint64_t len = ~0ull) const {
    len = std::min(len, n - off);
    return {src.data() + off, dst.data() + off, values.empty() ? nullptr : values.data() + off,
            len};
  }
};
DeviceBatch to_device(const EdgeList& e) {
  DeviceBatch b{DeviceBuffer<vertex_t>(e.size()), DeviceBuffer<vertex_t>(e.size()), e.size(), {}};
  b.src.copy_from_host(e.src.data(), e.size());
  b.dst.copy_from_host(e.dst.data(), e.size());
  if (e.weighted()) {
    std::vector<std::uint32_t> v(e.weight.begin(), e.weight.end());
    b.values = DeviceBuffer<std::uint32_t>(e.size());
    b.values.copy_from_host(v.data(), v.size());
  }
  WG_CUDA_TRY(cudaDeviceSynchronize());
  return b;
}
/// Integer weights 1..1000 for every entry of e (weighted-graph runs).
EdgeList with_weights(EdgeList e, std::uint64_t seed) {
  std::uint64_t s = seed * 0x9E3779B97F4A7C15ull + 7;
  e.weight.resize(e.size());
  for (double& w : e.weight) w = static_cast<double>(1 + splitmix(s) % 1000);
  return e;
}

double timed(const std::function<void()>& f) {
  WG_CUDA_TRY(cudaDeviceSynchronize());
  const double s = wg::bench::wall_seconds([&] {
    f();
    WG_CUDA_TRY(cudaDeviceSynchronize());
  });
  return s;
}

EdgeList uniform_edges(std::uint64_t n_vertices, std::uint64_t m, std::uint64_t seed,
                       bool symmetric) {
  EdgeList e;
  e.num_vertices = n_vertices;
  e.symmetric = symmetric;
  e.src.resize(m);
  e.dst.resize(m);
  std::uint64_t s = seed * 0x1234567ull + 99;
  for (std::uint64_t i = 0; i < m; ++i) {
    const std::uint64_t r = splitmix(s);
    e.src[i] = static_cast<vertex_t>((r & 0xFFFFFFFFull) % n_vertices);
    e.dst[i] = static_cast<vertex_t>((r >> 32) % n_vertices);
  }
  return e;
}

/// scramble_seed != 0: the id permutation of the graph generated with seed == scramble_seed, so a
/// batch follows that graph's degree distribution (its hubs are the graph's hubs).
EdgeList rmat_edges(unsigned scale, double edge_factor, std::uint64_t seed, bool symmetric,
                    std::uint64_t scramble_seed = 0) {
  wg::datasets::RmatParams p;
  p.scale = scale;
  p.edge_factor = edge_factor;
  p.seed = seed;
  p.symmetric = symmetric;
  p.scramble_seed = scramble_seed;
  return wg::datasets::generate_rmat(p);
}

// ---- the paper's figures (TITAN V, thesis tables 5.2-5.9) -----------------------------------
constexpr double kT52Insert[] = {501.33, 513.56, 591.06, 641.25, 664.52, 658.09, 646.01};
constexpr double kT53Delete[] = {640.63, 886.92, 947.60, 939.98, 988.85, 1007.16, 1015.47};
constexpr double kT54VertexDelete[] = {5.35, 9.23, 12.66, 19.21, 26.49};  // MVertex/s
constexpr double kT56Incremental[] = {841.31, 945.64, 993.82};            // 2^20..2^22
// Table 5.5 / 5.7 (ms) for the datasets shared here; the others are not in ../shared/datasets.
constexpr double kT55LuxembourgBuild = 0.184, kT57LuxembourgTc = 0.31;
// Table 5.9 cumulative totals (ms), road_usa and hollywood-2009 (graphs not available here).
constexpr double kT59RoadUsa[] = {64.1, 129.5, 195.0, 260.5, 325.8};
constexpr double kT59Hollywood[] = {11151, 22551, 33946, 45335, 56774};
// faimGraph on this H100 (issue 4), G edges/s over batches 2^16..2^22, best variant.
constexpr double kFaimUniformInsert[2] = {1.0, 3.0}, kFaimUniformDelete[2] = {1.2, 3.8};
constexpr double kFaimRmatInsert[2] = {0.2, 0.7}, kFaimRmatDelete[2] = {0.3, 1.2};

void record(nlohmann::json r) {
  r["gpu"] = [] {
    cudaDeviceProp p{};
    int d = 0;
    cudaGetDevice(&d);
    cudaGetDeviceProperties(&p, d);
    return std::string(p.name);
  }();
  report.add(std::move(r));
  report.write(opt.json);  // after every record: a time-limited run keeps what it measured
}

// ---- Tables 5.2 / 5.3 and the faimGraph points: edge insertion and deletion rates ----------
// Starting from a built graph, each repetition inserts a fresh random batch (timed) and then
// erases the same batch (timed), so the graph returns to about its starting size. Returns the
// insert and delete rates (MEdge/s, batches already on the GPU), one per batch size.
struct EdgeRates {
  std::vector<int> batch_logs;
  std::vector<double> insert, erase;
};
template <class G = Graph>
EdgeRates edge_rates(const std::string& name, const EdgeList& base, bool directed,
                     const std::function<EdgeList(std::uint64_t, std::uint64_t)>& make_batch,
                     const double* faim_ins, const double* faim_del, int max_log) {
  wg::gpu::GraphOptions go = graph_options();
  go.directed = directed;
  G g(0, go);
  g.build(base);
  std::printf("\n== edge insert/delete: %s (%llu vertices, %llu %s) ==\n", name.c_str(),
              (unsigned long long)g.num_vertices(), (unsigned long long)g.num_edges(),
              directed ? "arcs" : "edges");
  // The last two columns count arcs written: an applied edge of an undirected graph is two
  // arcs (u -> v and v -> u), so there the per-arc work is about twice the per-entry rate.
  std::printf("%-8s %12s %12s %12s %12s | %10s %10s %12s | %10s %10s\n", "batch", "ins MEdge/s",
              "ins+h2d", "del MEdge/s", "del+h2d", "paper ins", "paper del", "", "ins Marc/s",
              "del Marc/s");
  EdgeRates out;
  std::vector<double>& ins_rates = out.insert;
  std::vector<double>& del_rates = out.erase;
  for (int lg = std::max(16, opt.min_batch_log); lg <= std::min(max_log, opt.max_batch_log); ++lg) {
    const std::uint64_t n = std::uint64_t{1} << lg;
    wg::bench::Series ins, del, ins_h, del_h;
    std::uint64_t ins_applied = 0, del_applied = 0;  // device batches, timed repetitions
    // Every repetition's batch is made (on the CPU) and uploaded before the first is timed, so a
    // timed batch follows the previous batch's work, not a pause of the GPU (an idle GPU slows
    // the first pass of the next batch, which small batches would measure).
    std::vector<EdgeList> host_batches;
    std::vector<DeviceBatch> device_batches;
    for (int rep = 0; rep < opt.reps + 1; ++rep) {
      host_batches.push_back(make_batch(n, 1000 + lg * 100 + rep));
      device_batches.push_back(to_device(host_batches.back()));
    }
    for (int rep = 0; rep < opt.reps + 1; ++rep) {
      const EdgeList& b = host_batches[rep];
      const DeviceBatch& d = device_batches[rep];
      wg::UpdateResult ins_r, del_r;
      const double ti = timed([&] { ins_r = g.insert_edges(d.view()); });
      const double td = timed([&] { del_r = g.erase_edges(d.view()); });
      const double tih = timed([&] { g.insert_edges(b); });
      const double tdh = timed([&] { g.erase_edges(b); });
      if (rep == 0) continue;  // warm-up
      ins_applied += ins_r.applied;
      del_applied += del_r.applied;
      ins.seconds.push_back(ti);
      del.seconds.push_back(td);
      ins_h.seconds.push_back(tih);
      del_h.seconds.push_back(tdh);
    }
    const double ri = n / ins.median() / 1e6, rd = n / del.median() / 1e6;
    const double rih = n / ins_h.median() / 1e6, rdh = n / del_h.median() / 1e6;
    // Arcs written per second: edges applied per timed repetition, times the arcs of an edge.
    const double arcs = (directed ? 1.0 : 2.0) / opt.reps;
    const double ai = arcs * ins_applied / ins.median() / 1e6,
                 ad = arcs * del_applied / del.median() / 1e6;
    out.batch_logs.push_back(lg);
    ins_rates.push_back(ri);
    del_rates.push_back(rd);
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "(x%.1f, x%.1f)", ri / kT52Insert[lg - 16],
                  rd / kT53Delete[lg - 16]);
    std::printf("2^%-6d %12.1f %12.1f %12.1f %12.1f | %10.1f %10.1f %12s | %10.1f %10.1f\n", lg, ri,
                rih, rd, rdh, kT52Insert[lg - 16], kT53Delete[lg - 16], ratio, ai, ad);
    // One record per operation: insert (Table 5.2), then delete (Table 5.3).
    const bool op_is_delete[2] = {false, true};
    for (const bool del_op : op_is_delete)
      record({{"bench", del_op ? "graph_gpu_edge_delete" : "graph_gpu_edge_insert"},
              {"table", del_op ? "5.3" : "5.2"},
              {"graph", name},
              {"batch", n},
              {"rate_medges", del_op ? rd : ri},
              {"rate_medges_h2d", del_op ? rdh : rih},
              {"rate_marcs_written", del_op ? ad : ai},
              {"paper", del_op ? kT53Delete[lg - 16] : kT52Insert[lg - 16]},
              {"directed", directed}});
  }
  std::printf("harmonic mean: insert %.1f MEdge/s, delete %.1f MEdge/s\n",
              wg::bench::harmonic_mean(ins_rates), wg::bench::harmonic_mean(del_rates));
  if (faim_ins)
    std::printf(
        "faimGraph (H100, issue 4): insert %.1f-%.1f GEdge/s, delete %.1f-%.1f GEdge/s; "
        "target 2x best: insert >= %.1f, delete >= %.1f GEdge/s at every size\n",
        faim_ins[0], faim_ins[1], faim_del[0], faim_del[1], 2 * faim_ins[1], 2 * faim_del[1]);
  return out;
}

/// A row of the edge tables: its --graphs key and its name.
struct EdgeRow {
  const char* key;
  const char* name;
};
/// Tables 5.2 / 5.3 on an R-MAT graph (scale, edge factor, seed; undirected unless `directed`)
/// with R-MAT batches two ways: drawn with the graph's own id permutation (`hubs`: the batch's
/// hubs are the graph's hubs, whose tables are large already), and with ids permuted
/// independently per batch (`permuted`: the batch's hubs are unrelated, mostly low-degree
/// vertices whose one-bucket tables must be rebuilt, the harder case). Each row runs if selected.
void rmat_edge_rates(unsigned scale, double edge_factor, std::uint64_t seed, bool directed,
                     EdgeRow hubs, EdgeRow permuted, const double* faim_ins, const double* faim_del,
                     int max_log) {
  if (!graph_selected(hubs.key) && !graph_selected(permuted.key)) return;
  const EdgeList rm = rmat_edges(scale, edge_factor, seed, !directed);
  for (const bool own_ids : {true, false}) {
    const EdgeRow& row = own_ids ? hubs : permuted;
    if (!graph_selected(row.key)) continue;
    edge_rates(
        row.name, rm, directed,
        [&](std::uint64_t n, std::uint64_t batch_seed) {
          // own_ids: the graph's id permutation (RmatParams::scramble_seed = the graph's seed);
          // 0: the batch's own, from batch_seed.
          return rmat_edges(scale, static_cast<double>(n) / (std::uint64_t{1} << scale), batch_seed,
                            !directed, own_ids ? seed : 0);
        },
        faim_ins, faim_del, max_log);
  }
}

/// The arcs of an undirected edge list as the thesis' Table 5.1 counts a graph's edges: every
/// edge both ways, each direction an entry of its own (u -> v right before v -> u), for a
/// directed graph.
EdgeList as_arcs(const EdgeList& e) {
  EdgeList a;
  a.num_vertices = e.num_vertices;
  a.src.resize(2 * e.size());
  a.dst.resize(2 * e.size());
  for (std::size_t i = 0; i < e.size(); ++i) {
    a.src[2 * i] = a.dst[2 * i + 1] = e.src[i];
    a.dst[2 * i] = a.src[2 * i + 1] = e.dst[i];
  }
  return a;
}

/// The same graph with its vertex ids relabelled by a random permutation (seeded).
EdgeList permute_ids(const EdgeList& e, std::uint64_t seed) {
  std::vector<vertex_t> perm(e.num_vertices);
  std::iota(perm.begin(), perm.end(), vertex_t{0});
  for (std::uint64_t i = perm.size(); i > 1; --i) std::swap(perm[i - 1], perm[splitmix(seed) % i]);
  EdgeList p = e;
  for (std::size_t i = 0; i < e.size(); ++i) {
    p.src[i] = perm[e.src[i]];
    p.dst[i] = perm[e.dst[i]];
  }
  return p;
}

/// Calls f(file name, edges) for each shared real graph that the benches use (those of 4000
/// vertices or more) found in --data; says which are missing.
void for_each_shared_graph(const std::function<void(const char*, const EdgeList&)>& f) {
  for (const char* name : {"luxembourg_osm.mtx", "delaunay_n16.mtx", "facebook_combined.txt"}) {
    const std::string path = opt.data + "/" + name;
    if (!std::filesystem::exists(path)) {
      std::printf("%s: not found, skipped\n", path.c_str());
      continue;
    }
    f(name, wg::datasets::read_graph(path).edges);
  }
}

// ---- Tables 5.2 / 5.3 as the thesis ran them: random batches -------------------------------
// The thesis' figures are the mean, over its datasets (Table 5.1: road networks, meshes, social
// graphs; 114K-24M vertices), of the rates of batches of random vertex pairs, counted per entry
// (duplicates included). This runs the same protocol on two groups of graphs:
// - the shared real graphs of 4000 vertices or more (--graphs real): the others (1589 vertices at
//   most) hold at most 1.3M distinct pairs, fewer than a 2^21 batch has entries, so their batches
//   would measure duplicate removal. The batches are far denser than these graphs (a 2^22 batch
//   brings luxembourg_osm's 114K vertices 73 arcs each, against a degree of 2.1), so the first
//   batch of each size rebuilds most tables; its warm-up repetition takes that;
// - undirected R-MAT graphs of the sizes of the thesis' larger datasets (--graphs rmat-random):
//   s20 ef16 (1M vertices, 31.4M arcs once duplicates are dropped), s22 ef8 (4.2M, 65M:
//   soc-LiveJournal1 has 4.8M and 85.7M) and s24 ef8 (16.8M, 263M: rgg_n_2_24_s0 has 16.8M and
//   265M). Their batches are random
//   pairs too, as the thesis' are; the rmat* rows above draw R-MAT batches instead, a harder
//   load (hub tables that a batch grows) that the thesis did not run.
// Two readings of "edge", each its own table:
// - undirected (real, rmat-random): an entry is an undirected edge, two arcs, as an undirected
//   graph of this library applies it;
// - as arcs (real-arcs, rmat-random-arcs): the graph as the thesis' Table 5.1 counts it, every
//   edge both ways and each direction an edge of its own (luxembourg_osm: 239K edges, average
//   degree 2.1, where the file has 119,666 undirected edges), in a directed graph; an entry is
//   one arc.

/// The rates of random batches (random vertex pairs) into the undirected graph e, under one of
/// the two readings above.
EdgeRates random_batch_rates(const std::string& name, const EdgeList& e, bool arcs, int max_log) {
  const std::uint64_t nv = e.num_vertices;
  return edge_rates(
      name + (arcs ? " as arcs (both ways, as the thesis' Table 5.1), random arc batches"
                   : " undirected, random batches"),
      arcs ? as_arcs(e) : e, arcs,
      [&](std::uint64_t n, std::uint64_t seed) { return uniform_edges(nv, n, seed, !arcs); },
      nullptr, nullptr, max_log);
}

/// Graphs run under the thesis' protocol and their rates, one reading.
struct RandomBatchGroup {
  std::vector<std::string> names;
  std::vector<EdgeRates> runs;
  void add(const std::string& name, EdgeRates r) {
    names.push_back(name);
    runs.push_back(std::move(r));
  }
};
/// A group of graphs under both readings (either may be empty: not selected).
struct RandomBatchGroups {
  RandomBatchGroup undirected, arcs;
};

/// Prints (and records) the mean rate over a group's graphs at each batch size beside the
/// thesis' figure: the arithmetic mean, as the thesis averages its datasets, and the harmonic.
/// `kind` names the graphs ("real", "R-MAT", ...).
void print_group_mean(const RandomBatchGroup& group, const std::string& kind, bool arcs) {
  if (group.runs.empty()) return;
  std::printf(
      "\n== Tables 5.2 / 5.3: mean over the %zu %s graphs above%s (the thesis: mean over its "
      "datasets) ==\n",
      group.runs.size(), kind.c_str(), arcs ? ", as arcs" : "");
  std::printf("%-8s %12s %12s %12s %12s | %10s %10s\n", "batch", "ins mean", "ins harm.",
              "del mean", "del harm.", "paper ins", "paper del");
  const std::string graph = "mean of the " + kind + " graphs" +
                            (arcs ? " as arcs, random arc batches" : ", random batches");
  const std::vector<int>& logs = group.runs[0].batch_logs;
  for (std::size_t k = 0; k < logs.size(); ++k) {
    const int lg = logs[k];
    std::vector<double> ins, del;
    for (const EdgeRates& r : group.runs) {
      ins.push_back(r.insert[k]);
      del.push_back(r.erase[k]);
    }
    const double ia = std::accumulate(ins.begin(), ins.end(), 0.0) / ins.size(),
                 da = std::accumulate(del.begin(), del.end(), 0.0) / del.size();
    const double ih = wg::bench::harmonic_mean(ins), dh = wg::bench::harmonic_mean(del);
    std::printf("2^%-6d %12.1f %12.1f %12.1f %12.1f | %10.1f %10.1f (x%.1f, x%.1f)\n", lg, ia, ih,
                da, dh, kT52Insert[lg - 16], kT53Delete[lg - 16], ia / kT52Insert[lg - 16],
                da / kT53Delete[lg - 16]);
    for (int op = 0; op < 2; ++op)
      record({{"bench", op ? "graph_gpu_edge_delete" : "graph_gpu_edge_insert"},
              {"table", op ? "5.3" : "5.2"},
              {"graph", graph},
              {"graphs", group.names},
              {"batch", std::uint64_t{1} << lg},
              {"rate_medges", op ? da : ia},
              {"rate_medges_harmonic", op ? dh : ih},
              {"paper", op ? kT53Delete[lg - 16] : kT52Insert[lg - 16]},
              {"directed", arcs}});
  }
}

/// The shared real graphs under the thesis' protocol (each reading selected), and their means.
RandomBatchGroups real_graph_edge_rates(int max_log) {
  RandomBatchGroups g;
  const bool undirected = graph_selected("real"), arcs = graph_selected("real-arcs");
  if (opt.data.empty() || (!undirected && !arcs)) return g;
  for (const bool as_arcs : {false, true}) {
    if (!(as_arcs ? arcs : undirected)) continue;
    RandomBatchGroup& group = as_arcs ? g.arcs : g.undirected;
    for_each_shared_graph([&](const char* f, const EdgeList& e) {
      group.add(f, random_batch_rates(f, e, as_arcs, max_log));
    });
    print_group_mean(group, "real", as_arcs);
  }
  return g;
}

/// The R-MAT graphs under the thesis' protocol (each reading selected), and their means.
RandomBatchGroups rmat_random_edge_rates(int max_log) {
  RandomBatchGroups g;
  const bool undirected = graph_selected("rmat-random"), arcs = graph_selected("rmat-random-arcs");
  if (!undirected && !arcs) return g;
  struct Spec {
    unsigned scale;
    double edge_factor;
    std::uint64_t seed;
  };
  for (const Spec& s : {Spec{20, 16, 1}, Spec{22, 8, 2}, Spec{24, 8, 4}}) {
    if (s.scale > opt.max_scale || (opt.quick && s.scale > 20)) break;
    if (s.scale < opt.min_scale) continue;
    const EdgeList e = rmat_edges(s.scale, s.edge_factor, s.seed, true);
    const std::string name =
        "rmat s" + std::to_string(s.scale) + " ef" + std::to_string(int(s.edge_factor));
    if (undirected) g.undirected.add(name, random_batch_rates(name, e, false, max_log));
    if (arcs) g.arcs.add(name, random_batch_rates(name, e, true, max_log));
    std::printf("[%.0f s]\n", elapsed());
  }
  print_group_mean(g.undirected, "R-MAT", false);
  print_group_mean(g.arcs, "R-MAT", true);
  return g;
}

/// Both groups' graphs together, where both ran: the closest this bench comes to the thesis' mean
/// over graphs of many kinds and sizes.
void print_all_graphs_mean(const RandomBatchGroups& real, const RandomBatchGroups& rmat) {
  for (const bool arcs : {false, true}) {
    const RandomBatchGroup& a = arcs ? real.arcs : real.undirected;
    const RandomBatchGroup& b = arcs ? rmat.arcs : rmat.undirected;
    if (a.runs.empty() || b.runs.empty()) continue;
    RandomBatchGroup all = a;
    for (std::size_t i = 0; i < b.runs.size(); ++i) all.add(b.names[i], b.runs[i]);
    print_group_mean(all, "real and R-MAT", arcs);
  }
}

// ---- edge queries (not in the thesis' tables) ----------------------------------------------
// has_edges on batches already on the GPU: half of each batch edges of the graph, half uniform
// random pairs (nearly all absent, so their whole chains are read).
void query_rates(const std::string& name, const EdgeList& base, int max_log) {
  wg::gpu::GraphOptions go = graph_options();
  go.directed = true;
  Graph g(0, go);
  g.build(base);
  std::printf("\n== has_edges: %s (%llu vertices, %llu arcs) ==\n", name.c_str(),
              (unsigned long long)g.num_vertices(), (unsigned long long)g.num_edges());
  std::printf("%-8s %14s\n", "batch", "MQuery/s");
  for (int lg = std::max(16, opt.min_batch_log); lg <= std::min(max_log, opt.max_batch_log); ++lg) {
    const std::uint64_t n = std::uint64_t{1} << lg;
    EdgeList q = uniform_edges(base.num_vertices, n, 500 + lg, false);
    std::uint64_t s = 900 + lg;
    for (std::uint64_t i = 0; i < n; i += 2) {
      const std::uint64_t j = splitmix(s) % base.size();
      q.src[i] = base.src[j];
      q.dst[i] = base.dst[j];
    }
    const DeviceBatch d = to_device(q);
    DeviceBuffer<std::uint8_t> out(n);
    wg::bench::Series t;
    for (int rep = 0; rep < opt.reps + 1; ++rep) {
      const double sec = timed([&] { g.has_edges(d.view(), out.data()); });
      if (rep) t.seconds.push_back(sec);
    }
    const double rate = n / t.median() / 1e6;
    std::printf("2^%-6d %14.1f\n", lg, rate);
    record(
        {{"bench", "graph_gpu_has_edges"}, {"graph", name}, {"batch", n}, {"rate_mqueries", rate}});
  }
}

// ---- where a small batch's time goes (not in the thesis; --only floor) ---------------------
// Wall microseconds per call (median of --reps after a warm-up, each call between two device
// synchronisations, as every rate here is timed) on the uniform 2^20 V / 16.8M arcs graph,
// directed: the harness alone, an empty kernel, erases whose entries all stop at the first
// check (self-loops), erases of absent edges, an insert of new edges and their erase (as the
// edge tables run them), and has_edges. The first two are the floor any batch pays on this
// machine; the rest show what the batch kernel adds to it.
__global__ void empty_kernel() {}

void batch_floor() {
  const std::uint64_t nv = 1u << 20;
  wg::gpu::GraphOptions go = graph_options();
  go.directed = true;
  Graph g(0, go);
  g.build(uniform_edges(nv, 1u << 24, 1, false));
  std::printf("\n== where a small batch's time goes: uniform 2^20 V / 16.8M arcs, wall us ==\n");
  std::printf("%-8s %8s %8s %10s %10s %10s %10s %10s\n", "batch", "harness", "empty", "self-loop",
              "absent", "insert", "erase", "has_edges");
  for (int lg = std::max(16, opt.min_batch_log); lg <= std::min(17, opt.max_batch_log); ++lg) {
    const std::uint64_t n = std::uint64_t{1} << lg;
    EdgeList loops = uniform_edges(nv, n, 7, false);
    loops.dst = loops.src;
    const DeviceBatch lp = to_device(loops);
    DeviceBuffer<std::uint8_t> out(n);
    wg::bench::Series t[7];
    for (int rep = 0; rep < opt.reps + 1; ++rep) {
      const DeviceBatch b = to_device(uniform_edges(nv, n, 1000 + lg * 100 + rep, false));
      const DeviceBatch a = to_device(uniform_edges(nv, n, 5000 + lg * 100 + rep, false));
      const double s[7] = {timed([] {}),
                           timed([] { empty_kernel<<<256, 256>>>(); }),
                           timed([&] { g.erase_edges(lp.view()); }),
                           timed([&] { g.erase_edges(a.view()); }),
                           timed([&] { g.insert_edges(b.view()); }),
                           timed([&] { g.erase_edges(b.view()); }),
                           timed([&] { g.has_edges(b.view(), out.data()); })};
      if (rep)
        for (int k = 0; k < 7; ++k) t[k].seconds.push_back(s[k]);
    }
    std::printf("2^%-6d %8.1f %8.1f %10.1f %10.1f %10.1f %10.1f %10.1f\n", lg, t[0].median() * 1e6,
                t[1].median() * 1e6, t[2].median() * 1e6, t[3].median() * 1e6, t[4].median() * 1e6,
                t[5].median() * 1e6, t[6].median() * 1e6);
    record({{"bench", "graph_gpu_batch_floor"},
            {"batch", n},
            {"harness_us", t[0].median() * 1e6},
            {"empty_kernel_us", t[1].median() * 1e6},
            {"erase_self_loops_us", t[2].median() * 1e6},
            {"erase_absent_us", t[3].median() * 1e6},
            {"insert_us", t[4].median() * 1e6},
            {"erase_present_us", t[5].median() * 1e6},
            {"has_edges_us", t[6].median() * 1e6}});
  }
}

// ---- plain kernels making a random erase batch's accesses (--only accesses) ---------------
// How fast a kernel that does nothing else makes the accesses of an undirected erase of random
// vertex pairs, on a graph the size of the R-MAT random rows (s22: 4.2M vertices, s24: 16.8M):
// per entry, its two ids from the batch; both vertex entries (16 bytes each, in an
// array of 16 x V bytes); both vertices' slabs (one 128-byte line each, in a pool of 128 x V
// bytes, read with the library's own load, slab::load_cached_v4); a CAS on one word of
// each line (the erase's tombstone); and both degrees' decrements (4 bytes each, in an array of
// 4 x V bytes). Cumulative variants, each a kernel of one-thread tasks timed as the edge tables
// time a batch (wall time between two device synchronisations, median of --reps after a
// warm-up): ids only; + entries; + slabs (address from the entry, as the graph's batches must);
// + CAS; + degrees. "slabs by id" reads the slab at pool + id without the entry, the best case of
// a layout that knows one-bucket tables' addresses without their handles; "one sector" does
// what "+degrees" does but reads only the 32-byte sector holding the key (no L2 prefetch size),
// the best case of a layout that puts each key in a home sector of its slab. "sorted arcs" and
// "sorted, 1 s" make the same accesses per arc, one thread per arc, over the batch's 2n arcs
// sorted by source (the sort is not timed), the best order a batch can have: neighbouring
// threads then touch neighbouring entries, slabs and degrees (the graph sorts erases of 2^21
// entries or more, by edge, which groups the forward arcs only). The graph's own deletes of the
// same rows do all of this and also deduplicate the batch, check liveness and walk chains. These
// are plain one-thread kernels, not a bound: the graph's own deletes outrun some of them.
namespace erase_accesses {

struct Entry {
  const wg::slab::Slab* slab;
  std::uint32_t count, live;
};
enum Step : int {
  ids = 0,
  entries = 1,
  slabs = 2,
  cas = 3,
  degrees = 4,
  slabs_by_id = 5,
  one_sector = 6
};

/// A 16-byte load through L1 without the L2 prefetch size (ld.global.ca: one 32-byte sector
/// from DRAM), where slab::load_cached_v4 asks L2 for the whole line.
__device__ __forceinline__ uint4 load_sector_v4(const std::uint32_t* p) {
  return __ldca(reinterpret_cast<const uint4*>(p));
}
/// The four words of a load folded into one, so that the load counts.
__device__ __forceinline__ std::uint32_t fold(uint4 w) {
  return w.x ^ w.y ^ w.z ^ w.w;
}

template <int kStep>
__global__ void __launch_bounds__(256)
    access_kernel(const vertex_t* src, const vertex_t* dst, std::uint64_t n, const Entry* entry,
                  wg::slab::Slab* pool, std::uint32_t* degree, unsigned long long* sink) {
  std::uint32_t acc = 0;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const vertex_t u = src[i], v = dst[i];
    acc ^= u ^ v;
    if constexpr (kStep == ids) continue;
    const wg::slab::Slab *su = pool + u, *sv = pool + v;
    if constexpr (kStep != slabs_by_id) {
      const Entry eu = entry[u], ev = entry[v];
      acc ^= eu.count ^ ev.count;
      if constexpr (kStep == entries) continue;
      su = eu.slab;
      sv = ev.slab;
    }
    std::uint32_t wu = 0, wv = 0;
    // The slot CASed below: any key slot, or one of the sector read (one_sector).
    std::uint32_t ku = v % 30, kv = u % 30;
    if constexpr (kStep == one_sector) {
      // Only the sector holding the key, as a layout that puts keys in a home sector could.
      ku = 8 * (v % 3) + v % 8;
      kv = 8 * (u % 3) + u % 8;
      uint4 a[2], b[2];
#pragma unroll
      for (int j = 0; j < 2; ++j) {
        a[j] = load_sector_v4(su->words + 8 * (v % 3) + 4 * j);
        b[j] = load_sector_v4(sv->words + 8 * (u % 3) + 4 * j);
      }
#pragma unroll
      for (int j = 0; j < 2; ++j) {
        wu ^= fold(a[j]);
        wv ^= fold(b[j]);
      }
    } else {
      // Both lines at once, as a one-thread erase reads a slab: eight 16-byte loads each.
      uint4 a[8], b[8];
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        a[j] = wg::slab::load_cached_v4(su->words + 4 * j);
        b[j] = wg::slab::load_cached_v4(sv->words + 4 * j);
      }
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        wu ^= fold(a[j]);
        wv ^= fold(b[j]);
      }
    }
    acc ^= wu ^ wv;
    if constexpr (kStep == cas || kStep == degrees || kStep == one_sector) {
      auto* const pu = const_cast<std::uint32_t*>(su->words) + ku;
      auto* const pv = const_cast<std::uint32_t*>(sv->words) + kv;
      acc ^= wg::slab::cas_relaxed(pu, wu, wu ^ 1u);
      acc ^= wg::slab::cas_relaxed(pv, wv, wv ^ 1u);
    }
    if constexpr (kStep == degrees || kStep == one_sector) {
      atomicSub(degree + u, 1u);
      atomicSub(degree + v, 1u);
    }
  }
  if (acc == 0x9E3779B9u) atomicAdd(sink, 1ull);  // keeps the loads; practically never true
}

/// One thread per arc of the batch, the arcs sorted by source: the source's entry, its slab (the
/// line, or the key's sector), the tombstone CAS and the source's degree. Sorted sources make
/// neighbouring threads touch neighbouring entries, slabs and degrees, which unsorted pairs do
/// not.
template <bool kOneSector>
__global__ void __launch_bounds__(256)
    sorted_arc_kernel(const vertex_t* src, const vertex_t* dst, std::uint64_t arcs,
                      const Entry* entry, std::uint32_t* degree, unsigned long long* sink) {
  constexpr int kLoads = kOneSector ? 2 : 8;  // 16-byte loads: one sector or the whole line
  std::uint32_t acc = 0;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < arcs;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const vertex_t u = src[i], v = dst[i];
    const Entry e = entry[u];
    const std::uint32_t first = kOneSector ? 8 * (v % 3) : 0;
    const std::uint32_t slot = first + v % (kOneSector ? 8 : 30);
    std::uint32_t w = e.count;
    uint4 a[kLoads];
#pragma unroll
    for (int j = 0; j < kLoads; ++j)
      a[j] = kOneSector ? load_sector_v4(e.slab->words + first + 4 * j)
                        : wg::slab::load_cached_v4(e.slab->words + 4 * j);
#pragma unroll
    for (int j = 0; j < kLoads; ++j) w ^= fold(a[j]);
    acc ^= wg::slab::cas_relaxed(const_cast<std::uint32_t*>(e.slab->words) + slot, w, w ^ 1u);
    atomicSub(degree + u, 1u);
  }
  if (acc == 0x9E3779B9u) atomicAdd(sink, 1ull);  // keeps the loads; practically never true
}

// The least an erase of this design touches, in the best layout for it: per arc, the source's
// entry (its handle), the one 32-byte sector of its slab that would hold the key (a home sector)
// and, with kWrites, the tombstone CAS in that sector and the degree decrement in the entry's own
// line (a degree kept beside the handle, already in L2). No dedup, liveness, chain or report.
// One arc per thread, the grid uncapped, registers few: as many requests in flight as the GPU
// holds. The second table of the section times these over random pairs, and over the batch's
// arcs sorted by source with the sort (CUB, on the source bits only, the least a grouping sort
// needs) inside the timing.

/// Entries, then sectors, then writes, for the arcs (x[k], key[k]): no load waits for an
/// atomic of another arc (the entries may alias).
template <bool kWrites, int kArcs>
__device__ __forceinline__ std::uint32_t touch_arcs(Entry* entry, const vertex_t (&x)[kArcs],
                                                    const vertex_t (&key)[kArcs]) {
  Entry e[kArcs];
#pragma unroll
  for (int k = 0; k < kArcs; ++k) e[k] = entry[x[k]];
  uint4 a[kArcs][2];
#pragma unroll
  for (int k = 0; k < kArcs; ++k)
#pragma unroll
    for (int j = 0; j < 2; ++j)
      a[k][j] = load_sector_v4(e[k].slab->words + 8 * (key[k] % 4) + 4 * j);
  std::uint32_t acc = 0;
#pragma unroll
  for (int k = 0; k < kArcs; ++k) {
    const std::uint32_t w = e[k].count ^ fold(a[k][0]) ^ fold(a[k][1]);
    acc ^= w;
    if constexpr (kWrites) {
      auto* const slot =
          const_cast<std::uint32_t*>(e[k].slab->words) + 8 * (key[k] % 4) + key[k] % 8;
      acc ^= wg::slab::cas_relaxed(slot, w, w ^ 1u);
      atomicSub(&entry[x[k]].count, 1u);
    }
  }
  return acc;
}

/// Random pairs: both arcs of entry i (touch_arcs), or, kById, only the two sectors at pool + id
/// (no handle: the best case of a layout without one).
template <bool kWrites, bool kById>
__global__ void __launch_bounds__(256)
    least_pairs_kernel(const vertex_t* src, const vertex_t* dst, std::uint64_t n, Entry* entry,
                       const wg::slab::Slab* pool, unsigned long long* sink) {
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const vertex_t u = src[i], v = dst[i];
  std::uint32_t acc = 0;
  if constexpr (kById) {
    uint4 a[2], b[2];
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      a[j] = load_sector_v4(pool[u].words + 8 * (v % 4) + 4 * j);
      b[j] = load_sector_v4(pool[v].words + 8 * (u % 4) + 4 * j);
    }
    acc = fold(a[0]) ^ fold(a[1]) ^ fold(b[0]) ^ fold(b[1]);
  } else {
    const vertex_t x[2] = {u, v}, key[2] = {v, u};
    acc = touch_arcs<kWrites>(entry, x, key);
  }
  if (acc == 0x9E3779B9u) atomicAdd(sink, 1ull);  // keeps the loads; practically never true
}

/// Arcs sorted by source, packed (source << 32) | target: touch_arcs for arc i.
template <bool kWrites>
__global__ void __launch_bounds__(256)
    least_sorted_kernel(const std::uint64_t* arcs, std::uint64_t n, Entry* entry,
                        unsigned long long* sink) {
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint64_t a = arcs[i];
  const vertex_t x[1] = {static_cast<vertex_t>(a >> 32)}, key[1] = {static_cast<vertex_t>(a)};
  if (touch_arcs<kWrites>(entry, x, key) == 0x9E3779B9u) atomicAdd(sink, 1ull);
}

__global__ void fill_entries(Entry* entry, const wg::slab::Slab* pool, std::uint64_t nv) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < nv;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    entry[i] = {pool + i, 1u, 1u};
}

/// Each arc packed as (source << 32) | target, in the list's order.
std::vector<std::uint64_t> arc_keys(const EdgeList& arcs) {
  std::vector<std::uint64_t> key(arcs.size());
  for (std::size_t i = 0; i < key.size(); ++i)
    key[i] = std::uint64_t{arcs.src[i]} << 32 | arcs.dst[i];
  return key;
}

/// The batch's 2n arcs (as_arcs), sorted by source then target.
EdgeList sorted_arcs(const EdgeList& pairs) {
  EdgeList arcs = as_arcs(pairs);
  std::vector<std::uint64_t> key = arc_keys(arcs);
  std::sort(key.begin(), key.end());
  for (std::size_t i = 0; i < key.size(); ++i) {
    arcs.src[i] = static_cast<vertex_t>(key[i] >> 32);
    arcs.dst[i] = static_cast<vertex_t>(key[i]);
  }
  return arcs;
}

}  // namespace erase_accesses

/// One JSON record of a row of --only accesses: each column's rate as "<name>_medges", beside the
/// thesis' Table 5.3 figure for the batch size 2^lg.
void record_access_rates(const char* bench, std::uint64_t nv, int lg,
                         std::initializer_list<const char*> names, const double* rate) {
  nlohmann::json r = {{"bench", bench},
                      {"vertices", nv},
                      {"batch", std::uint64_t{1} << lg},
                      {"paper_delete_medges", kT53Delete[lg - 16]}};
  for (const char* name : names) r[std::string(name) + "_medges"] = *rate++;
  record(std::move(r));
}

/// The second table of --only accesses, for a graph of 2^scale vertices: the least accesses of an
/// erase (touch_arcs), over random pairs and over arcs sorted by source, the sort timed.
void least_access_rates(unsigned scale, erase_accesses::Entry* entry, const wg::slab::Slab* pool,
                        unsigned long long* sink) {
  namespace ea = erase_accesses;
  const std::uint64_t nv = std::uint64_t{1} << scale;
  std::printf(
      "\n== the least an erase of this design touches, random pairs of 2^%u vertices (MEdge/s): "
      "per arc the entry and one sector, +writes the tombstone CAS and a degree beside the "
      "handle; sorted: the 2n arcs sorted by source, the sort timed (sort: alone); x: the best "
      "+writes over the thesis' Table 5.3 ==\n",
      scale);
  std::printf("%-8s %9s %9s %9s %14s %14s %9s\n", "batch", "locate", "+writes", "by id",
              "sorted locate", "sorted +writes", "sort");
  const std::uint64_t max_arcs = std::uint64_t{2} << opt.max_batch_log;
  DeviceBuffer<std::uint64_t> keys(max_arcs), sorted(max_arcs);
  std::size_t temp_bytes = 0;
  WG_CUDA_TRY(cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, keys.data(), sorted.data(),
                                             max_arcs, 32, 32 + static_cast<int>(scale)));
  DeviceBuffer<unsigned char> temp(std::max<std::size_t>(temp_bytes, 1));
  for (int lg = opt.min_batch_log; lg <= opt.max_batch_log; ++lg) {
    const std::uint64_t n = std::uint64_t{1} << lg, arcs = 2 * n;
    const unsigned grid = static_cast<unsigned>((n + 255) / 256);
    const unsigned arc_grid = static_cast<unsigned>((arcs + 255) / 256);
    wg::bench::Series t[6];
    for (int rep = 0; rep < opt.reps + 1; ++rep) {
      const EdgeList pairs = uniform_edges(nv, n, 3000 + lg * 100 + rep, false);
      const DeviceBatch b = to_device(pairs);
      keys.copy_from_host(ea::arc_keys(as_arcs(pairs)).data(), arcs);
      std::size_t bytes = temp_bytes;
      const auto sort = [&] {
        WG_CUDA_TRY(cub::DeviceRadixSort::SortKeys(temp.data(), bytes, keys.data(), sorted.data(),
                                                   arcs, 32, 32 + static_cast<int>(scale)));
      };
      const auto pairs_run = [&](auto kernel) {
        return timed(
            [&] { kernel<<<grid, 256>>>(b.src.data(), b.dst.data(), n, entry, pool, sink); });
      };
      const auto sorted_run = [&](auto kernel) {
        return timed([&] {
          sort();
          kernel<<<arc_grid, 256>>>(sorted.data(), arcs, entry, sink);
        });
      };
      // As the edge tables erase a batch right after inserting it, the batch's lines are
      // touched once, untimed, first (at small batches they are then in L2, as there).
      ea::least_pairs_kernel<false, false>
          <<<grid, 256>>>(b.src.data(), b.dst.data(), n, entry, pool, sink);
      const double s[6] = {pairs_run(ea::least_pairs_kernel<false, false>),
                           pairs_run(ea::least_pairs_kernel<true, false>),
                           pairs_run(ea::least_pairs_kernel<false, true>),
                           sorted_run(ea::least_sorted_kernel<false>),
                           sorted_run(ea::least_sorted_kernel<true>),
                           timed(sort)};
      if (rep)
        for (int k = 0; k < 6; ++k) t[k].seconds.push_back(s[k]);
    }
    double rate[6];
    for (int k = 0; k < 6; ++k) rate[k] = static_cast<double>(n) / t[k].median() / 1e6;
    const double best_writes = std::max(rate[1], rate[4]);
    std::printf("2^%-6d %9.1f %9.1f %9.1f %14.1f %14.1f %9.1f   (x%.1f)\n", lg, rate[0], rate[1],
                rate[2], rate[3], rate[4], rate[5], best_writes / kT53Delete[lg - 16]);
    record_access_rates("graph_gpu_erase_least_accesses", nv, lg,
                        {"locate", "writes", "by_id", "sorted_locate", "sorted_writes", "sort"},
                        rate);
  }
}

void erase_access_rates() {
  int sms = 0;
  WG_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const unsigned scales[] = {22, 24};
  for (const unsigned scale : scales) {
    if (scale < opt.min_scale || scale > opt.max_scale) continue;
    const std::uint64_t nv = std::uint64_t{1} << scale;
    DeviceBuffer<erase_accesses::Entry> entry(nv);
    DeviceBuffer<wg::slab::Slab> pool(nv);
    DeviceBuffer<std::uint32_t> degree(nv);
    DeviceBuffer<unsigned long long> sink(1);
    WG_CUDA_TRY(cudaMemset(pool.data(), 0x5A, nv * sizeof(wg::slab::Slab)));
    WG_CUDA_TRY(cudaMemset(degree.data(), 0x7F, nv * sizeof(std::uint32_t)));
    erase_accesses::fill_entries<<<sms * 8, 256>>>(entry.data(), pool.data(), nv);
    std::printf(
        "\n== plain kernels making an undirected erase's accesses, random pairs of 2^%u "
        "vertices (MEdge/s; x: +degrees, sorted arcs over the thesis' Table 5.3) ==\n",
        scale);
    std::printf("%-8s %9s %9s %9s %9s %9s %12s %11s %12s %11s\n", "batch", "ids", "+entries",
                "+slabs", "+CAS", "+degrees", "slabs by id", "one sector", "sorted arcs",
                "sorted, 1 s");
    for (int lg = opt.min_batch_log; lg <= opt.max_batch_log; ++lg) {
      const std::uint64_t n = std::uint64_t{1} << lg;
      const unsigned grid = static_cast<unsigned>(
          std::min<std::uint64_t>((n + 255) / 256, static_cast<std::uint64_t>(sms) * 8));
      const unsigned arc_grid = static_cast<unsigned>(
          std::min<std::uint64_t>((2 * n + 255) / 256, static_cast<std::uint64_t>(sms) * 8));
      wg::bench::Series t[9];
      for (int rep = 0; rep < opt.reps + 1; ++rep) {
        const EdgeList pairs = uniform_edges(nv, n, 3000 + lg * 100 + rep, false);
        const DeviceBatch b = to_device(pairs), a = to_device(erase_accesses::sorted_arcs(pairs));
        const auto run_arcs = [&](auto kernel) {
          return timed([&] {
            kernel<<<arc_grid, 256>>>(a.src.data(), a.dst.data(), a.n, entry.data(), degree.data(),
                                      sink.data());
          });
        };
        const auto run = [&](auto kernel) {
          return timed([&] {
            kernel<<<grid, 256>>>(b.src.data(), b.dst.data(), n, entry.data(), pool.data(),
                                  degree.data(), sink.data());
          });
        };
        const double s[9] = {run(erase_accesses::access_kernel<erase_accesses::ids>),
                             run(erase_accesses::access_kernel<erase_accesses::entries>),
                             run(erase_accesses::access_kernel<erase_accesses::slabs>),
                             run(erase_accesses::access_kernel<erase_accesses::cas>),
                             run(erase_accesses::access_kernel<erase_accesses::degrees>),
                             run(erase_accesses::access_kernel<erase_accesses::slabs_by_id>),
                             run(erase_accesses::access_kernel<erase_accesses::one_sector>),
                             run_arcs(erase_accesses::sorted_arc_kernel<false>),
                             run_arcs(erase_accesses::sorted_arc_kernel<true>)};
        if (rep)
          for (int k = 0; k < 9; ++k) t[k].seconds.push_back(s[k]);
      }
      double rate[9];
      for (int k = 0; k < 9; ++k) rate[k] = static_cast<double>(n) / t[k].median() / 1e6;
      std::printf(
          "2^%-6d %9.1f %9.1f %9.1f %9.1f %9.1f %12.1f %11.1f %12.1f %11.1f   (x%.1f, x%.1f)\n", lg,
          rate[0], rate[1], rate[2], rate[3], rate[4], rate[5], rate[6], rate[7], rate[8],
          rate[4] / kT53Delete[lg - 16], rate[7] / kT53Delete[lg - 16]);
      record_access_rates("graph_gpu_erase_accesses", nv, lg,
                          {"ids", "entries", "slabs", "cas", "degrees", "slabs_by_id", "one_sector",
                           "sorted_arcs", "sorted_arcs_one_sector"},
                          rate);
    }
    least_access_rates(scale, entry.data(), pool.data(), sink.data());
  }
}

// ---- Table 5.4: vertex deletion ------------------------------------------------------------
void vertex_deletion(const EdgeList& base, const std::string& name, int max_log) {
  std::printf("\n== Table 5.4: vertex deletion, %s ==\n", name.c_str());
  std::printf("%-8s %14s %14s %10s\n", "batch", "MVertex/s", "+h2d", "paper");
  DeviceBatch d = to_device(base);
  std::vector<vertex_t> perm(base.num_vertices);
  for (std::uint64_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<vertex_t>(i);
  std::uint64_t s = 77;
  for (std::uint64_t i = perm.size(); i > 1; --i) std::swap(perm[i - 1], perm[splitmix(s) % i]);
  Graph g(0);
  for (int lg = 16; lg <= max_log && (std::uint64_t{1} << lg) <= base.num_vertices; ++lg) {
    const std::uint64_t k = std::uint64_t{1} << lg;
    std::vector<vertex_t> victims(perm.begin(), perm.begin() + k);
    DeviceBuffer<vertex_t> d_victims = DeviceBuffer<vertex_t>::from_host(victims);
    wg::bench::Series t, th;
    std::uint64_t removed = 0;
    for (int rep = 0; rep < opt.reps + 1; ++rep) {
      g.build(d.view(), base.num_vertices);
      const double sec =
          timed([&] { removed = g.erase_vertices(d_victims.data(), k).edges_removed; });
      g.build(d.view(), base.num_vertices);
      const double sec_h = timed([&] { g.erase_vertices(victims); });
      if (rep) {
        t.seconds.push_back(sec);
        th.seconds.push_back(sec_h);
      }
    }
    const double rate = k / t.median() / 1e6, rate_h = k / th.median() / 1e6;
    std::printf("2^%-6d %14.2f %14.2f %10.2f  (x%.1f)  [%llu edges removed]\n", lg, rate, rate_h,
                kT54VertexDelete[lg - 16], rate / kT54VertexDelete[lg - 16],
                (unsigned long long)removed);
    record({{"bench", "graph_gpu_vertex_delete"},
            {"table", "5.4"},
            {"graph", name},
            {"batch", k},
            {"rate_mvertices", rate},
            {"rate_mvertices_h2d", rate_h},
            {"paper", kT54VertexDelete[lg - 16]}});
  }
}

// ---- Tables 5.5 and 5.7: bulk build and static triangle counting ---------------------------
void build_and_tc(const std::string& name, const EdgeList& e, double paper_build, double paper_tc,
                  bool do_tc) {
  DeviceBatch d = to_device(e);
  Graph g(0);
  wg::bench::Series b, bh, tc;
  std::uint64_t triangles = 0;
  for (int rep = 0; rep < opt.reps + 1; ++rep) {
    const double t = timed([&] { g.build(d.view(), e.num_vertices); });
    const double th = timed([&] { g.build(e); });
    if (rep) {
      b.seconds.push_back(t);
      bh.seconds.push_back(th);
    }
  }
  const int tc_reps = do_tc ? opt.reps + 1 : 0;
  for (int rep = 0; rep < tc_reps; ++rep) {
    const double t = timed([&] { triangles = wg::gpu::count_triangles(g); });
    if (rep) tc.seconds.push_back(t);
    if (t > 3.0) {  // slow case: one timed run is enough
      if (!rep) tc.seconds.push_back(t);
      break;
    }
  }
  std::printf("%-22s %9llu V %10llu E | build %9.3f ms (+h2d %9.3f) paper %7s | ", name.c_str(),
              (unsigned long long)g.num_vertices(), (unsigned long long)g.num_edges(),
              b.median() * 1e3, bh.median() * 1e3,
              paper_build > 0 ? std::to_string(paper_build).substr(0, 6).c_str() : "-");
  if (do_tc)
    std::printf("TC %10.3f ms paper %7s  (%llu triangles)\n", tc.median() * 1e3,
                paper_tc > 0 ? std::to_string(paper_tc).substr(0, 6).c_str() : "-",
                (unsigned long long)triangles);
  else
    std::printf("TC skipped\n");
  record({{"bench", "graph_gpu_bulk_build"},
          {"table", "5.5"},
          {"graph", name},
          {"entries", e.size()},
          {"edges", g.num_edges()},
          {"ms", b.median() * 1e3},
          {"ms_h2d", bh.median() * 1e3},
          {"paper", paper_build}});
  if (do_tc)
    record({{"bench", "graph_gpu_static_tc"},
            {"table", "5.7"},
            {"graph", name},
            {"ms", tc.median() * 1e3},
            {"triangles", triangles},
            {"paper", paper_tc}});
}

// ---- Table 5.6: incremental build ----------------------------------------------------------
// The thesis averages four graphs of 25-35M edges: two of low degree variance (delaunay_n23,
// road_usa) and two skewed ones (ldoor, soc-LiveJournal1). None is in ../shared/datasets, so
// this builds one graph of each kind with 33.5M entries: an R-MAT (skewed) and a uniform random
// graph (low variance), each from empty with one bucket per vertex, and prints their mean beside
// the thesis' mean. Undirected (an entry is an edge, two arcs), or `directed` for the graphs as
// arcs (as_arcs: an entry is an arc, as Table 5.1 counts edges).
std::vector<double> incremental_build(const EdgeList& e, const std::string& name, bool directed) {
  std::printf("\n== Table 5.6: incremental build from empty, %s (%zu entries) ==\n", name.c_str(),
              e.size());
  std::printf("%-8s %14s %14s %10s %10s\n", "batch", "MEdge/s", "+h2d", "GPU MiB", "paper");
  DeviceBatch d = to_device(e);
  std::vector<double> rates;
  for (int lg = 20; lg <= 22; ++lg) {
    const std::uint64_t n = std::uint64_t{1} << lg;
    // The same batches as host edge lists (cut before timing): each call copies its batch.
    std::vector<EdgeList> host_batches;
    for (std::uint64_t off = 0; off < e.size(); off += n) {
      EdgeList b;
      b.num_vertices = e.num_vertices;
      const std::uint64_t end = std::min<std::uint64_t>(off + n, e.size());
      b.src.assign(e.src.begin() + off, e.src.begin() + end);
      b.dst.assign(e.dst.begin() + off, e.dst.begin() + end);
      host_batches.push_back(std::move(b));
    }
    wg::bench::Series t, th;
    std::uint64_t bytes = 0;  // the built graph's GPU memory (memory_bytes)
    wg::gpu::GraphOptions go = graph_options();
    go.directed = directed;
    for (int rep = 0; rep < (opt.quick ? 2 : 3); ++rep) {
      Graph g(e.num_vertices, go);  // vertex count known, degrees unknown: one bucket each
      const double sec = timed([&] {
        for (std::uint64_t off = 0; off < d.n; off += n) g.insert_edges(d.view(off, n));
      });
      bytes = g.memory_bytes();
      Graph gh(e.num_vertices, go);
      const double sec_h = timed([&] {
        for (const EdgeList& b : host_batches) gh.insert_edges(b);
      });
      if (rep) {
        t.seconds.push_back(sec);
        th.seconds.push_back(sec_h);
      }
    }
    const double rate = d.n / t.median() / 1e6, rate_h = d.n / th.median() / 1e6;
    rates.push_back(rate);
    std::printf("2^%-6d %14.1f %14.1f %10.0f %10.1f  (x%.1f)\n", lg, rate, rate_h,
                bytes / 1048576.0, kT56Incremental[lg - 20], rate / kT56Incremental[lg - 20]);
    record({{"bench", "graph_gpu_incremental_build"},
            {"table", "5.6"},
            {"graph", name},
            {"batch", n},
            {"rate_medges", rate},
            {"rate_medges_h2d", rate_h},
            {"memory_bytes", bytes},
            {"paper", kT56Incremental[lg - 20]},
            {"directed", directed}});
  }
  return rates;
}

// ---- compact() after a stream (not in the thesis) ------------------------------------------
// The graph after Table 5.9's five rounds: its tables kept the room of their rebuilds (and the
// chains of their largest past). Static TC before and after DynamicGraph::compact (median of 3
// each), the compaction's time, and the memory held before and after.
void compaction_after_stream(Graph& g, const std::string& name) {
  const auto median_tc = [&](std::uint64_t& triangles) {
    wg::bench::Series s;
    for (int r = 0; r < 3; ++r)
      s.seconds.push_back(timed([&] { triangles = wg::gpu::count_triangles(g); }));
    return s.median();
  };
  std::uint64_t before = 0, after = 0;
  const double tc_before = median_tc(before);
  const std::uint64_t bytes = g.memory_bytes(), slabs = g.overflow_slabs_in_use();
  const double t = timed([&] { g.compact(); });
  const double tc_after = median_tc(after);
  std::printf(
      "compact() after round 5: %.2f ms; static TC %.2f ms before, %.2f ms after; GPU memory %.0f "
      "-> %.0f MiB; overflow slabs %llu -> %llu%s\n",
      t * 1e3, tc_before * 1e3, tc_after * 1e3, bytes / 1048576.0, g.memory_bytes() / 1048576.0,
      (unsigned long long)slabs, (unsigned long long)g.overflow_slabs_in_use(),
      before == after ? "" : "  MISMATCH in the triangle count");
  record({{"bench", "graph_gpu_compact"},
          {"graph", name + ", after Table 5.9's five rounds"},
          {"compact_ms", t * 1e3},
          {"static_tc_ms_before", tc_before * 1e3},
          {"static_tc_ms_after", tc_after * 1e3},
          {"memory_bytes_before", bytes},
          {"memory_bytes_after", g.memory_bytes()},
          {"overflow_slabs_before", slabs},
          {"overflow_slabs_after", g.overflow_slabs_in_use()},
          {"triangles", after}});
}

// ---- Table 5.9: insert a 2^22 batch + triangle count, five rounds --------------------------
void dynamic_tc(const EdgeList& e, const std::string& name) {
  const std::uint64_t batch = std::uint64_t{1} << 22;
  if (e.size() < 6 * batch) return;
  std::printf("\n== Table 5.9: insert 2^22 + TC, five rounds, %s ==\n", name.c_str());
  DeviceBatch d = to_device(e);
  const std::uint64_t initial = e.size() - 5 * batch;
  // Two passes: the first warms up (kernels, pools), the second is reported.
  for (int pass = 0; pass < 2; ++pass) {
    Graph g(0);
    g.build(d.view(0, initial), e.num_vertices);
    wg::gpu::IncrementalTriangleCounter<wg::gpu::DynamicGraph<wg::gpu::SlabSetAdjacency>> tc(g);
    double cum_ours = 0, cum_static = 0;
    if (pass)
      std::printf("%-5s %12s %14s %16s %16s | %10s %10s\n", "iter", "ins+incTC ms", "cumulative ms",
                  "static TC ms", "ins+static cum", "road_usa", "hollywood");
    for (int it = 0; it < 5; ++it) {
      std::uint64_t total = 0;
      const double t =
          timed([&] { total = tc.insert_edges(d.view(initial + it * batch, batch)).total; });
      std::uint64_t check = 0;
      const double ts = timed([&] { check = wg::gpu::count_triangles(g); });
      cum_ours += t;
      cum_static += ts;
      if (!pass) continue;
      if (check != total)
        std::printf("MISMATCH: incremental %llu vs recount %llu\n", (unsigned long long)total,
                    (unsigned long long)check);
      std::printf("%-5d %12.2f %14.2f %16.2f %16s | %10.1f %10.0f  (%llu triangles)\n", it + 1,
                  t * 1e3, cum_ours * 1e3, ts * 1e3, "-", kT59RoadUsa[it], kT59Hollywood[it],
                  (unsigned long long)total);
      record({{"bench", "graph_gpu_dynamic_tc"},
              {"table", "5.9"},
              {"graph", name},
              {"iter", it + 1},
              {"insert_inc_tc_ms", t * 1e3},
              {"cumulative_ms", cum_ours * 1e3},
              {"static_tc_ms", ts * 1e3},
              {"triangles", total},
              {"paper_road_usa_cum_ms", kT59RoadUsa[it]},
              {"paper_hollywood_cum_ms", kT59Hollywood[it]}});
    }
    if (pass) compaction_after_stream(g, name);
  }
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--json")
      opt.json = next();
    else if (a == "--data")
      opt.data = next();
    else if (a == "--max-scale")
      opt.max_scale = static_cast<unsigned>(std::stoi(next()));
    else if (a == "--min-scale")
      opt.min_scale = static_cast<unsigned>(std::stoi(next()));
    else if (a == "--reps")
      opt.reps = std::stoi(next());
    else if (a == "--quick")
      opt.quick = true;
    else if (a == "--file")
      opt.files.push_back(next());
    else if (a == "--only")
      opt.only = next();
    else if (a == "--batch-logs") {  // LO:HI
      const std::string v = next();
      const auto colon = v.find(':');
      opt.min_batch_log = std::stoi(v.substr(0, colon));
      opt.max_batch_log =
          colon == std::string::npos ? opt.min_batch_log : std::stoi(v.substr(colon + 1));
    } else if (a == "--graphs")
      opt.graphs = next();
    else {
      std::fprintf(
          stderr,
          "usage: %s [--json FILE] [--data DIR] [--min-scale N] [--max-scale N] [--reps N]\n"
          "       [--quick] [--file FILE.mtx ...]\n"
          "       [--only edges|queries|vertices|build|incremental|dynamic|floor|accesses]\n"
          "       [--batch-logs LO:HI] [--graphs "
          "uniform,uniform-weighted,rmat,rmat-permuted,rmat-s22,rmat-s22-hubs,real,real-arcs,\n"
          "        rmat-random,rmat-random-arcs]\n",
          argv[0]);
      return 2;
    }
  }
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no CUDA device: nothing to measure\n");
    return 0;
  }
  cudaDeviceProp prop{};
  WG_CUDA_TRY(cudaGetDeviceProperties(&prop, 0));
  std::printf("graph_gpu_bench on %s; paper figures: TITAN V (thesis ch. 5)\n", prop.name);
  try {
    const int max_log = opt.quick ? 20 : 22;
    if (opt.only == "floor") batch_floor();
    if (opt.only == "accesses") erase_access_rates();
    // faimGraph points: 2^20 vertices, 2^24 (16.8M) arcs, directed; uniform and R-MAT.
    if (section("edges") && graph_selected("uniform")) {
      const std::uint64_t nv = 1u << 20;
      const EdgeList uni = uniform_edges(nv, 1u << 24, 1, false);
      edge_rates(
          "uniform 2^20 V / 16.8M arcs", uni, true,
          [&](std::uint64_t n, std::uint64_t seed) { return uniform_edges(nv, n, seed, false); },
          kFaimUniformInsert, kFaimUniformDelete, max_log);
    }
    // The same on a weighted graph (slab map adjacency, 15 pairs per slab; every batch carries
    // values, so inserts run the last-entry-wins pass too). Not in the thesis' tables.
    if (section("edges") && graph_selected("uniform-weighted")) {
      const std::uint64_t nv = 1u << 20;
      const EdgeList uni = with_weights(uniform_edges(nv, 1u << 24, 1, false), 1);
      edge_rates<wg::gpu::WeightedGraph>(
          "weighted uniform 2^20 V / 16.8M arcs", uni, true,
          [&](std::uint64_t n, std::uint64_t seed) {
            return with_weights(uniform_edges(nv, n, seed, false), seed);
          },
          nullptr, nullptr, max_log);
    }
    if (section("edges"))
      rmat_edge_rates(
          20, 16, 1, true, {"rmat", "rmat s20 ef16 / 16.8M arcs (batch hubs = graph hubs)"},
          {"rmat-permuted", "rmat s20 ef16 / 16.8M arcs (batch ids permuted per batch)"},
          kFaimRmatInsert, kFaimRmatDelete, max_log);
    // Table 5.2/5.3 on an undirected R-MAT (thesis: undirected datasets).
    if (section("edges"))
      rmat_edge_rates(22, 8, 2, false,
                      {"rmat-s22-hubs", "rmat s22 ef8 undirected (batch hubs = graph hubs)"},
                      {"rmat-s22", "rmat s22 ef8 undirected"}, nullptr, nullptr, max_log);
    // Tables 5.2/5.3 as the thesis ran them (random batches): the real graphs, the R-MAT graphs.
    if (section("edges")) {
      const RandomBatchGroups real = real_graph_edge_rates(max_log);
      print_all_graphs_mean(real, rmat_random_edge_rates(max_log));
    }
    if (section("queries")) {
      if (graph_selected("uniform"))
        query_rates("uniform 2^20 V / 16.8M arcs",
                    uniform_edges(std::uint64_t{1} << 20, std::uint64_t{1} << 24, 1, false),
                    max_log);
      if (graph_selected("rmat"))
        query_rates("rmat s20 ef16", rmat_edges(20, 16, 1, false), max_log);
    }
    std::printf("[%.0f s]\n", elapsed());
    // Table 5.4.
    if (section("vertices"))
      vertex_deletion(rmat_edges(20, 16, 3, true), "rmat s20 ef16 undirected", opt.quick ? 18 : 20);
    std::printf("[%.0f s]\n", elapsed());
    // Tables 5.5 and 5.7.
    if (section("build")) std::printf("\n== Tables 5.5 (bulk build) and 5.7 (static TC) ==\n");
    if (section("build") && !opt.data.empty()) {
      for_each_shared_graph([](const char* f, const EdgeList& e) {
        const bool lux = std::strcmp(f, "luxembourg_osm.mtx") == 0;
        build_and_tc(f, e, lux ? kT55LuxembourgBuild : 0, lux ? kT57LuxembourgTc : 0, true);
      });
    }
    for (const std::string& path : opt.files) {
      if (!section("build")) break;
      const EdgeList e = wg::datasets::read_graph(path).edges;
      const std::string name = std::filesystem::path(path).filename().string();
      build_and_tc(name + " (file ids)", e, 0, 0, true);
      build_and_tc(name + " (ids permuted)", permute_ids(e, 7), 0, 0, true);
    }
    for (unsigned scale : {20u, 22u, 24u}) {
      if (scale > opt.max_scale || !section("build")) break;
      if (scale < opt.min_scale) continue;
      for (double ef : {8.0, 16.0}) {
        if (scale == 24 && ef > 8) continue;  // memory and time budget
        const EdgeList e = rmat_edges(scale, ef, 4, true);
        build_and_tc("rmat s" + std::to_string(scale) + " ef" + std::to_string(int(ef)), e, 0, 0,
                     scale <= 22);
        std::printf("[%.0f s]\n", elapsed());
      }
    }
    // Table 5.6, undirected, then the same graphs as arcs.
    if (section("incremental")) {
      const unsigned scale = opt.quick ? 20 : 22;
      const std::string s = " s" + std::to_string(scale) + " ef8";
      const EdgeList rmat = rmat_edges(scale, 8, 5, true);
      const EdgeList uni =
          uniform_edges(std::uint64_t{1} << scale, std::uint64_t{8} << scale, 5, true);
      for (const bool arcs : {false, true}) {
        const std::string how = arcs ? " as arcs" : "";
        const auto skewed = incremental_build(arcs ? as_arcs(rmat) : rmat, "rmat" + s + how, arcs);
        const auto even = incremental_build(arcs ? as_arcs(uni) : uni, "uniform" + s + how, arcs);
        // The harmonic mean (both graphs have the same entries: their total over the total
        // time), as for every averaged rate here; the arithmetic mean beside it, as the thesis
        // may have averaged its four graphs' rates.
        std::printf("\n== Table 5.6: mean of the two graphs%s (the thesis: mean of four) ==\n",
                    how.c_str());
        std::printf("%-8s %14s %14s %10s\n", "batch", "harmonic", "arithmetic", "paper");
        for (int lg = 20; lg <= 22; ++lg) {
          const double a = skewed[lg - 20], b = even[lg - 20];
          const double harmonic = wg::bench::harmonic_mean({a, b}), arithmetic = (a + b) / 2;
          std::printf("2^%-6d %14.1f %14.1f %10.1f  (x%.1f)\n", lg, harmonic, arithmetic,
                      kT56Incremental[lg - 20], harmonic / kT56Incremental[lg - 20]);
          record({{"bench", "graph_gpu_incremental_build"},
                  {"table", "5.6"},
                  {"graph", "harmonic mean of rmat and uniform" + s + how},
                  {"batch", std::uint64_t{1} << lg},
                  {"rate_medges", harmonic},
                  {"rate_medges_arithmetic_mean", arithmetic},
                  {"paper", kT56Incremental[lg - 20]},
                  {"directed", arcs}});
        }
      }
    }
    std::printf("[%.0f s]\n", elapsed());
    // Table 5.9.
    if (section("dynamic")) dynamic_tc(rmat_edges(22, 8, 6, true), "rmat s22 ef8");
    std::printf("[%.0f s]\n", elapsed());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "graph_gpu_bench: %s\n", e.what());
    report.write(opt.json);
    return 1;
  }
  report.write(opt.json);
  std::printf("wrote %s (%.0f s)\n", opt.json.c_str(), elapsed());
  return 0;
}
