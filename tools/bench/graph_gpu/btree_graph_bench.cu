// btree_graph_bench: the slab-hash adjacency (wg::gpu::DynamicGraph<SlabSetAdjacency>) and the
// B-tree adjacency (wg::gpu::BTreeGraph<false>) side by side, on R-MAT graphs and the shared
// graphs: edge insert and delete rates (batches 2^lo .. 2^hi, resident on the GPU), static
// triangle counting (slab: hash probes; B-tree: sorted intersection, and the generic count on
// it), incremental triangle counting per batch, and device memory per edge. The target of issue
// 35: static TC on the B-tree adjacency at least 2x faster than on the slab adjacency for R-MAT.
//
//   btree_graph_bench [--json FILE] [--scales 20,22] [--batch-logs 16:22] [--tc-batch-logs 16:20]
//                     [--reps N] [--generic-max-scale S] [--quick] [--file PATH ...]
//
// Rates are batch entries per second (median of --reps timed runs after one warm-up; each run
// inserts the batch and then erases it again, so every timed run starts from the same graph: the
// base less the batch's edges, after the warm-up). Times
// are wall clock around calls that synchronise. Counts of the two adjacencies must agree (exit 1
// otherwise). Set CUDA_MODULE_LOADING=EAGER.
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <cxxopts.hpp>

#include <warpgraph/algorithms/tc/gpu/sorted_triangle_count.hpp>
#include <warpgraph/algorithms/tc/gpu/triangle_count.hpp>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/graph/gpu/btree_graph.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

#include "../cuda_timer.cuh"
#include "../harness.hpp"

namespace {

using wg::DeviceBuffer;
using wg::EdgeList;
using wg::vertex_t;
using wg::gpu::DeviceEdges;
using Slab = wg::gpu::Graph;
using BTree = wg::gpu::BTreeSetGraph;

struct Options {
  std::string json = "btree_graph_bench.json";
  std::vector<unsigned> scales{20, 22};
  int lo = 16, hi = 22;        ///< edge tables: batches 2^lo .. 2^hi
  int tc_lo = 16, tc_hi = 20;  ///< incremental TC: batches 2^tc_lo .. 2^tc_hi
  int reps = 3;
  unsigned generic_max_scale =
      20;  ///< the generic count on the B-tree graph up to this R-MAT scale
  std::vector<std::string> files;
} opt;

wg::bench::Report report;
int failures = 0;

/// A batch resident on the GPU.
struct DeviceBatch {
  DeviceBuffer<vertex_t> src, dst;
  std::uint64_t size = 0;
  explicit DeviceBatch(const EdgeList& e)
      : src(DeviceBuffer<vertex_t>::from_host(e.src)),
        dst(DeviceBuffer<vertex_t>::from_host(e.dst)),
        size(e.size()) {}
  DeviceEdges view() const { return {.src = src.data(), .dst = dst.data(), .size = size}; }
};

double sync_seconds(const std::function<void()>& fn) {
  return wg::bench::wall_seconds([&] {
    fn();
    WG_CUDA_TRY(cudaDeviceSynchronize());
  });
}

EdgeList rmat(unsigned scale, double edge_factor, std::uint64_t seed, std::uint64_t key) {
  wg::datasets::RmatParams p;
  p.scale = scale;
  p.edge_factor = edge_factor;
  p.seed = seed;
  p.scramble_seed = key;
  return wg::datasets::generate_rmat(p);
}

/// Insert and erase rates of a batch of `size`: insert() then erase() timed per run (the graph
/// is back as it was after each; run 0 a warm-up), the medians printed as "<label> insert" and
/// "<label> delete" and reported as rows "<bench>_insert" (with `triangles` where given) and
/// "<bench>_delete".
template <class Insert, class Erase>
void insert_erase_rates(const std::string& bench, const char* adjacency, const std::string& graph,
                        const std::string& label, std::uint64_t size, Insert&& insert,
                        Erase&& erase, const std::uint64_t* triangles = nullptr) {
  std::vector<double> ins, del;
  for (int r = 0; r <= opt.reps; ++r) {
    const double ti = sync_seconds(insert);
    const double te = sync_seconds(erase);
    if (r == 0) continue;  // warm-up
    ins.push_back(ti);
    del.push_back(te);
  }
  const double mi = wg::bench::Series{ins}.median(), md = wg::bench::Series{del}.median();
  wg::bench::print_row(label + " insert", size / mi / 1e6, 0, "M/s");
  wg::bench::print_row(label + " delete", size / md / 1e6, 0, "M/s");
  nlohmann::json row = {{"bench", bench + "_insert"},
                        {"graph", graph},
                        {"adjacency", adjacency},
                        {"batch", size},
                        {"rate", size / mi}};
  if (triangles) row["triangles"] = *triangles;
  report.add(std::move(row));
  report.add({{"bench", bench + "_delete"},
              {"graph", graph},
              {"adjacency", adjacency},
              {"batch", size},
              {"rate", size / md}});
}

/// Insert and erase rates of one batch on one graph (the graph is back as it was after each run).
template <class G>
void edge_rates(G& g, const char* adjacency, const std::string& graph, const DeviceBatch& b) {
  insert_erase_rates(
      "edge", adjacency, graph, graph + " " + adjacency + " batch " + std::to_string(b.size),
      b.size, [&] { g.insert_edges(b.view()); }, [&] { g.erase_edges(b.view()); });
}

template <class F>
double median_seconds(F&& f) {
  return wg::bench::measure({.warmup = 1, .repetitions = opt.reps}, [&] { return sync_seconds(f); })
      .median();
}

/// Static counts on both adjacencies of one graph; the counts must agree.
void static_tc(const std::string& graph, const EdgeList& e, bool generic) {
  Slab slab(0);
  slab.build(e);
  BTree bt(0);
  bt.build(e);
  std::uint64_t ts = 0, tb = 0, tg = 0;
  const double s_slab = median_seconds([&] { ts = wg::gpu::count_triangles(slab); });
  const double s_sorted = median_seconds([&] { tb = wg::gpu::count_triangles_sorted(bt); });
  // The generic count (DeviceGraphView walks and one tree descent per probe), for reference.
  const double s_generic =
      generic ? median_seconds([&] { tg = wg::gpu::count_triangles(bt); }) : 0.0;
  if (!generic) tg = tb;
  if (ts != tb || ts != tg) {
    std::printf("MISMATCH %s: slab %llu, btree sorted %llu, btree generic %llu\n", graph.c_str(),
                (unsigned long long)ts, (unsigned long long)tb, (unsigned long long)tg);
    ++failures;
  }
  std::printf(
      "%-40s triangles %llu  slab %.3f ms  btree sorted %.3f ms (x%.2f)  btree generic "
      "%.3f ms\n",
      graph.c_str(), (unsigned long long)ts, s_slab * 1e3, s_sorted * 1e3, s_slab / s_sorted,
      s_generic * 1e3);
  const double arcs = 2.0 * slab.num_edges();
  std::printf("%-40s memory per arc: slab %.1f B, btree %.1f B (%llu nodes of %llu)\n",
              graph.c_str(), slab.memory_bytes() / arcs, bt.memory_bytes() / arcs,
              (unsigned long long)bt.tree_nodes(), (unsigned long long)bt.tree_node_capacity());
  report.add({{"bench", "static_tc"},
              {"graph", graph},
              {"triangles", ts},
              {"slab_seconds", s_slab},
              {"btree_sorted_seconds", s_sorted},
              {"btree_generic_seconds", s_generic},
              {"speedup", s_slab / s_sorted},
              {"slab_bytes_per_arc", slab.memory_bytes() / arcs},
              {"btree_bytes_per_arc", bt.memory_bytes() / arcs}});
}

/// Incremental counts: a batch inserted, then erased, through each adjacency's counter.
template <class G, class Counter>
void incremental_tc(G& g, Counter& c, const char* adjacency, const std::string& graph,
                    const DeviceBatch& b, std::uint64_t* created) {
  insert_erase_rates(
      "incremental_tc", adjacency, graph,
      graph + " " + adjacency + " TC batch " + std::to_string(b.size), b.size,
      [&] { *created = c.insert_edges(b.view()).triangles; }, [&] { c.erase_edges(b.view()); },
      created);
}

void rmat_tables(unsigned scale) {
  const std::string name = "rmat-s" + std::to_string(scale);
  const std::uint64_t key = 1000 + scale;
  const EdgeList base = rmat(scale, 16, scale, key);
  static_tc(name, base, scale <= opt.generic_max_scale);
  {
    Slab slab(0);
    slab.build(base);
    BTree bt(0);
    bt.build(base);
    for (int l = opt.lo; l <= opt.hi; ++l) {
      // Batches of the base graph's degree distribution (same id permutation).
      const EdgeList e = rmat(scale, std::ldexp(1.0, l - static_cast<int>(scale)), 77 + l, key);
      const DeviceBatch b(e);
      edge_rates(slab, "slab", name, b);
      edge_rates(bt, "btree", name, b);
    }
  }
  Slab slab(0);
  slab.build(base);
  BTree bt(0);
  bt.build(base);
  wg::gpu::IncrementalTriangleCounter<Slab> cs(slab);
  wg::gpu::SortedTriangleCounter<false> cb(bt);
  if (cs.total() != cb.total()) {
    std::printf("MISMATCH %s: incremental totals %llu vs %llu\n", name.c_str(),
                (unsigned long long)cs.total(), (unsigned long long)cb.total());
    ++failures;
  }
  for (int l = opt.tc_lo; l <= opt.tc_hi; ++l) {
    const EdgeList e = rmat(scale, std::ldexp(1.0, l - static_cast<int>(scale)), 500 + l, key);
    const DeviceBatch b(e);
    std::uint64_t ts = 0, tb = 0;
    incremental_tc(slab, cs, "slab", name, b, &ts);
    incremental_tc(bt, cb, "btree", name, b, &tb);
    if (ts != tb) {
      std::printf("MISMATCH %s batch 2^%d: %llu vs %llu new triangles\n", name.c_str(), l,
                  (unsigned long long)ts, (unsigned long long)tb);
      ++failures;
    }
  }
}

std::vector<unsigned> parse_list(const std::string& s) {
  std::vector<unsigned> out;
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t j = s.find(',', i);
    out.push_back(static_cast<unsigned>(std::stoul(s.substr(i, j - i))));
    if (j == std::string::npos) break;
    i = j + 1;
  }
  return out;
}

void parse_range(const std::string& s, int* lo, int* hi) {
  const std::size_t c = s.find(':');
  *lo = std::stoi(s.substr(0, c));
  *hi = c == std::string::npos ? *lo : std::stoi(s.substr(c + 1));
}

}  // namespace

int main(int argc, char** argv) {
  cxxopts::Options o("btree_graph_bench", "slab vs B-tree adjacency on the GPU graph");
  o.add_options()("json", "JSON records", cxxopts::value<std::string>()->default_value(opt.json))(
      "scales", "R-MAT scales", cxxopts::value<std::string>()->default_value("20,22"))(
      "batch-logs", "edge tables: LO:HI", cxxopts::value<std::string>()->default_value("16:22"))(
      "tc-batch-logs", "incremental TC: LO:HI",
      cxxopts::value<std::string>()->default_value("16:20"))(
      "reps", "timed runs", cxxopts::value<int>()->default_value("3"))(
      "generic-max-scale", "the generic TC on the B-tree graph up to this R-MAT scale",
      cxxopts::value<unsigned>()->default_value("20"))("quick",
                                                       "scale 16, batches 2^16..2^18, one rep")(
      "file", "graph files for the static TC table", cxxopts::value<std::vector<std::string>>())(
      "h,help", "help");
  const auto r = o.parse(argc, argv);
  if (r.count("help")) {
    std::puts(o.help().c_str());
    return 0;
  }
  opt.json = r["json"].as<std::string>();
  opt.scales = parse_list(r["scales"].as<std::string>());
  parse_range(r["batch-logs"].as<std::string>(), &opt.lo, &opt.hi);
  parse_range(r["tc-batch-logs"].as<std::string>(), &opt.tc_lo, &opt.tc_hi);
  opt.reps = std::max(1, r["reps"].as<int>());
  opt.generic_max_scale = r["generic-max-scale"].as<unsigned>();
  if (r.count("file")) opt.files = r["file"].as<std::vector<std::string>>();
  if (r.count("quick")) {
    opt.scales = {16};
    opt.lo = opt.tc_lo = 16;
    opt.hi = opt.tc_hi = 18;
    opt.reps = 1;
  }
  std::printf("GPU: %s\n", wg::bench::gpu_name().c_str());
  for (const std::string& f : opt.files) {
    EdgeList e = wg::datasets::read_graph(f).edges;
    e.weight.clear();
    e.symmetric = true;
    static_tc(f.substr(f.find_last_of('/') + 1), e, true);
  }
  for (unsigned s : opt.scales) rmat_tables(s);
  report.write(opt.json);
  if (failures) std::printf("%d mismatches\n", failures);
  return failures ? 1 : 0;
}
