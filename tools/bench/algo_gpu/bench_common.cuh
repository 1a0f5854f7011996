#pragma once
// The GPU side shared by traversal_bench and global_bench: CUDA-event timing of a static row
// (median after a warm-up, repetitions bounded by the plan's row budget), the rows' JSON file
// (rewritten after every row), the input graphs, and the dynamic protocol:
//
// Dynamic rows. An R-MAT graph (scale --dyn-scale, edge factor 16): its entries shuffled, 90%
// build two equal graphs A and B; of the other 10%, the edges absent from A (self-loops and
// repeats dropped) are the insertions. Deletions are a random sample of A's edges (exported, so
// their weights are A's). Per batch size 2^k and stream (insert: 2^k insertions; mixed: 2^(k-1)
// deletions, then 2^(k-1) insertions), one run is
//  - update:    the batch applied through the dynamic object on A (the object updates its
//               result), timed; then undone through the object, untimed;
//  - recompute: the batch applied to B, then B's object recomputes from scratch, timed; then
//               undone on B, untimed.
// Both start every run from the same graph. Times are CUDA events on the graphs' stream around
// whole calls (each synchronises). The row records whether a timed update answered by the
// static computation (DynamicUpdate::recomputed), the vertices it changed, and what the class
// exposes of its last run (last_rounds(), last_run().iterations).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/generators.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/graph/edge_list.hpp>
#include <warpgraph/graph/gpu/edge_batch.hpp>

#include "tools/bench/algo_gpu/bench_plan.hpp"
#include "tools/bench/cuda_timer.cuh"
#include "tools/bench/harness.hpp"

namespace wg::bench::algo {

/// The JSON file of a run: every row is written out as soon as it is added.
class Rows {
 public:
  explicit Rows(std::string path) : path_(std::move(path)) {}
  /// Adds the row and rewrites the file (through a temporary renamed over it: a run killed
  /// mid-write leaves the previous complete file).
  void add(nlohmann::json row) {
    report_.add(std::move(row));
    report_.write(path_ + ".tmp");
    if (std::rename((path_ + ".tmp").c_str(), path_.c_str()) != 0)
      throw std::runtime_error(path_ + ": cannot write");
  }

 private:
  std::string path_;
  wg::bench::Report report_;
};

/// The answers of one graph's rows (a count, a reach) per algorithm: every structure must give
/// the same, or the row is flagged (a wrong answer is no measurement).
class Answers {
 public:
  /// Records `value` for `algo`; false (and a MISMATCH line) when an earlier structure of the
  /// same graph gave another.
  bool agree(const std::string& graph, const std::string& algo, const std::string& structure,
             std::uint64_t value) {
    if (graph != graph_) {
      graph_ = graph;
      first_.clear();
    }
    const auto [it, fresh] = first_.try_emplace(algo, value, structure);
    if (fresh || it->second.first == value) return true;
    std::printf("  MISMATCH %s %s: %s gives %llu, %s gave %llu\n", graph.c_str(), algo.c_str(),
                structure.c_str(), static_cast<unsigned long long>(value),
                it->second.second.c_str(), static_cast<unsigned long long>(it->second.first));
    return false;
  }

 private:
  std::string graph_;
  std::map<std::string, std::pair<std::uint64_t, std::string>> first_;
};

/// Times run() (which returns the row's iteration count) with CUDA events on `stream`: one
/// warm-up, then as many runs as Plan::row_budget allows (reps_for), median.
template <class Run>
StaticMeasure measure_static(const Plan& plan, cudaStream_t stream, Run&& run) {
  StaticMeasure m;
  auto once = [&] {
    WG_CUDA_TRY(cudaDeviceSynchronize());
    return wg::bench::cuda_seconds(stream, [&] { m.iterations = run(); });
  };
  const double warm = once();
  m.reps = reps_for(warm, plan.reps, plan.row_budget);
  std::vector<double> t;
  for (int i = 0; i < m.reps; ++i) t.push_back(once());
  m.ms = 1e3 * (m.reps ? median(t) : warm);
  return m;
}

/// A static row's line on stdout, with Gunrock's published time (its R-MAT s20 file, H200)
/// where there is one.
inline void print_static(const GraphSpec& g, const std::string& structure, const char* algo,
                         const StaticMeasure& m, std::uint64_t edges, double gunrock_ms) {
  std::printf("  %-16s %-9s %-20s %10.3f ms %8.3f Gedges/s", g.name.c_str(), structure.c_str(),
              algo, m.ms, m.ms > 0 ? edges / (m.ms * 1e-3) * 1e-9 : 0.0);
  if (m.iterations) std::printf("  (%lld it.)", static_cast<long long>(m.iterations));
  if (m.reps == 0) std::printf("  (cold, 1 run)");
  if (g.gunrock && gunrock_ms > 0)
    std::printf("  Gunrock published %.2f ms: x%.2f", gunrock_ms, m.ms / gunrock_ms);
  std::printf("\n");
  std::fflush(stdout);
}

/// The undirected simple-graph input of a static row (weights dropped; the graph layer removes
/// self-loops and repeats). R-MAT: Graph500 parameters, ids permuted, seed 1.
inline EdgeList load_graph(const GraphSpec& g) {
  EdgeList e = g.path.empty()
                   ? wg::datasets::generate_rmat({.scale = g.scale, .edge_factor = 16, .seed = 1})
                   : wg::datasets::read_graph(g.path).edges;
  e.weight.clear();
  e.symmetric = true;
  return e;
}

/// Integer lengths 1..max_len, a fixed pseudo-random sequence.
inline EdgeList with_lengths(EdgeList e, unsigned max_len) {
  e.weight.resize(e.size());
  std::uint64_t x = 12345;
  for (auto& w : e.weight) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    w = static_cast<double>(1 + (x >> 33) % max_len);
  }
  return e;
}

/// The search source of a graph: vertex 0 on Gunrock's file (its figures start there), else a
/// vertex of largest degree (R-MAT ids are permuted: vertex 0 may be isolated).
inline vertex_t pick_source(const GraphSpec& g, const std::vector<std::uint32_t>& degrees) {
  if (g.gunrock || degrees.empty()) return 0;
  return static_cast<vertex_t>(std::max_element(degrees.begin(), degrees.end()) - degrees.begin());
}

// ---- dynamic ----------------------------------------------------------------------------------

/// A host batch uploaded once (values: the weights, when the list has them).
struct DeviceBatch {
  DeviceBuffer<vertex_t> src, dst;
  DeviceBuffer<std::uint32_t> values;
  std::uint64_t size = 0;
  wg::gpu::DeviceEdges view() const {
    return {.src = src.data(),
            .dst = dst.data(),
            .values = values.empty() ? nullptr : values.data(),
            .size = size};
  }
};

inline DeviceBatch upload(const EdgeList& e) {
  DeviceBatch b;
  b.size = e.size();
  if (!b.size) return b;
  b.src = DeviceBuffer<vertex_t>::from_host(e.src);
  b.dst = DeviceBuffer<vertex_t>::from_host(e.dst);
  if (e.weighted()) {
    std::vector<std::uint32_t> v(e.weight.begin(), e.weight.end());
    b.values = DeviceBuffer<std::uint32_t>::from_host(v);
  }
  return b;
}

/// Entries [first, first + n) of e (clamped), weights included.
inline EdgeList slice(const EdgeList& e, std::size_t first, std::size_t n) {
  EdgeList out;
  out.num_vertices = e.num_vertices;
  out.symmetric = e.symmetric;
  first = std::min(first, e.size());
  n = std::min(n, e.size() - first);
  out.src.assign(e.src.begin() + first, e.src.begin() + first + n);
  out.dst.assign(e.dst.begin() + first, e.dst.begin() + first + n);
  if (e.weighted()) out.weight.assign(e.weight.begin() + first, e.weight.begin() + first + n);
  return out;
}

/// Base graph (90% of the entries) and the insertions (the rest, absent from the base, once
/// each, no self-loops), weights carried along.
struct DynamicInput {
  EdgeList base, held;
};

inline DynamicInput split_for_updates(const EdgeList& all) {
  std::vector<std::size_t> order(all.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937_64(7));
  DynamicInput in;
  for (EdgeList* l : {&in.base, &in.held}) {
    l->num_vertices = all.num_vertices;
    l->symmetric = true;
  }
  const std::size_t keep = all.size() / 10 * 9;
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
    if (all.weighted()) to.weight.push_back(all.weight[j]);
  }
  return in;
}

/// The same split with integer lengths 1..max_len on both parts (with_lengths).
inline DynamicInput with_lengths(const DynamicInput& in, unsigned max_len) {
  return {with_lengths(in.base, max_len), with_lengths(in.held, max_len)};
}

/// `count` edges of the graph (its export: each undirected edge once, its weight), a random
/// sample in random order, for the deletions.
template <class Graph>
EdgeList deletion_pool(const Graph& g, std::size_t count) {
  const EdgeList present = g.export_coo();
  std::vector<std::size_t> order(present.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937_64(11));
  order.resize(std::min(count, order.size()));
  EdgeList out;
  out.num_vertices = present.num_vertices;
  out.symmetric = true;
  for (std::size_t i : order) {
    out.src.push_back(present.src[i]);
    out.dst.push_back(present.dst[i]);
    if (present.weighted()) out.weight.push_back(present.weight[i]);
  }
  return out;
}

/// What a class exposes about its last call, folded over the calls of one run.
template <class Dyn>
void note_last_run(const Dyn& d, nlohmann::json& extra) {
  if constexpr (requires { d.last_rounds(); }) {
    const std::uint64_t r = d.last_rounds();
    extra["rounds"] = std::max<std::uint64_t>(extra.value("rounds", std::uint64_t{0}), r);
  }
  if constexpr (requires { d.last_run().iterations; }) {
    const std::int64_t it = d.last_run().iterations;
    extra["iterations"] = extra.value("iterations", std::int64_t{0}) + it;
  }
}

/// The dynamic rows of one algorithm (see the file comment) on `in` (split_for_updates; with
/// weights for a weighted Graph). make(graph) builds the dynamic object (Dyn) over a graph; Dyn has
/// insert_edges / erase_edges (DeviceEdges) returning a DynamicUpdate, and recompute().
template <class Graph, class Dyn, class Make>
void dynamic_rows(const Plan& plan, const Deadline& deadline, Rows& rows, const std::string& algo,
                  const std::string& structure, const DynamicInput& in, Make&& make) {
  const std::string gpu = wg::bench::gpu_name();
  const std::string graph_name = "rmat" + std::to_string(plan.dyn_scale);
  if (deadline.passed()) {  // before the graphs are built
    rows.add(skipped_row("dynamic", algo, graph_name, structure, "time limit", gpu));
    return;
  }
  Graph a(0), b(0);
  a.build(in.base);
  b.build(in.base);
  const cudaStream_t s = a.stream();
  Dyn da = make(a);
  Dyn db = make(b);
  const std::vector<int> logs = batch_logs(plan);
  const int top = logs.empty() ? 0 : logs.back();
  const EdgeList pool = deletion_pool(a, std::size_t{1} << std::max(top - 1, 0));
  const std::uint64_t n = a.num_vertices(), m = a.num_edges();
  std::printf(
      "\n%s dynamic on %s (%s: %llu vertices, %llu edges; %zu insertions, %zu deletions "
      "available)\n",
      algo.c_str(), graph_name.c_str(), structure.c_str(), static_cast<unsigned long long>(n),
      static_cast<unsigned long long>(m), in.held.size(), pool.size());
  for (const int k : logs) {
    for (const bool mixed : {false, true}) {
      if (deadline.passed()) {
        rows.add(skipped_row("dynamic", algo, graph_name, structure, "time limit", gpu));
        return;
      }
      const std::size_t size = std::size_t{1} << k;
      const std::size_t ins = mixed ? size / 2 : size, del = size - ins;
      if (ins > in.held.size() || del > pool.size()) {
        std::printf("  batch 2^%d: not enough edges held out\n", k);
        continue;
      }
      const DeviceBatch add = upload(slice(in.held, 0, ins));
      const DeviceBatch rem = upload(slice(pool, 0, del));
      DynamicMeasure dm;
      nlohmann::json extra;
      bool recomputed = false;
      auto update = [&] {
        WG_CUDA_TRY(cudaDeviceSynchronize());
        recomputed = false;
        extra = nlohmann::json::object();
        [[maybe_unused]] const auto stats0 = [&] {
          if constexpr (requires { da.stats().cut; })
            return da.stats();
          else
            return 0;
        }();
        const double t = wg::bench::cuda_seconds(s, [&] {
          if constexpr (requires { da.update(rem.view(), add.view()); }) {
            if (del) {  // one mixed step that converges once (PageRank)
              const auto r = da.update(rem.view(), add.view());
              recomputed = r.recomputed;
              dm.changed = r.changed;
              note_last_run(da, extra);
              return;
            }
          }
          if (del) {
            if constexpr (requires { da.deletion_stats(); }) da.reset_deletion_stats();
            const auto r = da.erase_edges(rem.view());
            if constexpr (requires { da.deletion_stats(); }) {
              const auto& st = da.deletion_stats();
              extra["certified"] = st.certified;
              extra["isolated"] = st.isolated;
              extra["pieces"] = st.pieces;
              extra["undecided"] = st.undecided;
              if constexpr (requires { st.searched; }) extra["searched"] = st.searched;
              extra["recomputed_batches"] = st.recomputed;
              extra["direct_batches"] = st.direct;
            }
            recomputed = recomputed || r.recomputed;
            dm.changed = r.changed;
            note_last_run(da, extra);
          }
          const auto r = da.insert_edges(add.view());
          recomputed = recomputed || r.recomputed;
          dm.changed = del ? dm.changed + r.changed : r.changed;
          note_last_run(da, extra);
        });
        if constexpr (requires { da.stats().cut; }) {  // k-core: which path the batch took
          extra["incremental"] = da.stats().incremental - stats0.incremental;
          extra["cut"] = da.stats().cut - stats0.cut;
        }
        da.erase_edges(add.view());  // undo, untimed
        if (del) da.insert_edges(rem.view());
        return t;
      };
      auto recompute = [&] {
        WG_CUDA_TRY(cudaDeviceSynchronize());
        const double t = wg::bench::cuda_seconds(s, [&] {
          if (del) b.erase_edges(rem.view());
          b.insert_edges(add.view());
          db.recompute();
        });
        b.erase_edges(add.view());  // undo, untimed
        if (del) b.insert_edges(rem.view());
        return t;
      };
      // Warm-up (also the estimate of a run's cost, undo included).
      const double t0 = wg::bench::wall_seconds([&] {
        dm.update_ms = 1e3 * update();
        dm.recompute_ms = 1e3 * recompute();
      });
      dm.reps = reps_for(t0, plan.reps, plan.row_budget);
      std::vector<double> tu, tr;
      for (int r = 0; r < dm.reps; ++r) {
        tu.push_back(update());
        dm.recomputed_runs += recomputed;
        tr.push_back(recompute());
      }
      if (dm.reps) {
        dm.update_ms = 1e3 * median(tu);
        dm.recompute_ms = 1e3 * median(tr);
      } else {
        dm.recomputed_runs = recomputed;
      }
      dm.extra = extra;
      std::printf("  %-7s batch 2^%-2d  update %9.3f ms  recompute %9.3f ms  x%6.2f%s\n",
                  mixed ? "mixed" : "insert", k, dm.update_ms, dm.recompute_ms,
                  dm.update_ms > 0 ? dm.recompute_ms / dm.update_ms : 0.0,
                  dm.recomputed_runs ? "  (answered by recompute)" : "");
      std::fflush(stdout);
      rows.add(dynamic_row(algo, graph_name, structure, mixed, k, dm, n, m, gpu));
    }
  }
}

/// Runs one algorithm's dynamic rows; an error (GPU memory, a failed call) becomes a skipped
/// row and the next algorithm still runs.
template <class F>
void guarded_dynamic(Rows& rows, const std::string& algo, F&& body) {
  try {
    body();
  } catch (const std::exception& e) {
    std::printf("%s dynamic: skipped: %s\n", algo.c_str(), e.what());
    rows.add(skipped_row("dynamic", algo, "", "", e.what(), wg::bench::gpu_name()));
    cudaGetLastError();
  }
}

/// What a driver's passes share: the plan, its time limit, the rows written, the GPU's name, the
/// driver's section of the static rows and the answers every structure of one graph must agree
/// on.
struct Context {
  const Plan& plan;
  const Deadline& deadline;
  Rows& rows;
  std::string gpu;
  std::string section;
  Answers answers;
};

/// Runs one structure's static rows of graph `g` (`body`) unless the time limit passed; a
/// CapacityError (GPU memory) or another error becomes a skipped row and the bench goes on with
/// the next structure.
template <class F>
void guarded(Context& c, const GraphSpec& g, const std::string& structure, F&& body) {
  if (c.deadline.passed()) {
    c.rows.add(skipped_row("static", c.section, g.name, structure, "time limit", c.gpu));
    return;
  }
  try {
    body();
  } catch (const std::exception& e) {
    std::printf("  %s %s: skipped: %s\n", g.name.c_str(), structure.c_str(), e.what());
    c.rows.add(skipped_row("static", c.section, g.name, structure, e.what(), c.gpu));
    cudaGetLastError();  // a failed allocation leaves no sticky error; clear the last one
  }
}

/// A driver's main (after its own flags): parses the plan (algorithms `algos`, default JSON file
/// <bench>.json), runs static_graph(c, graph) on each static graph (a graph that throws, e.g. an
/// unreadable file, or one past the time limit, becomes a skipped row and the others still run),
/// then dynamic(c, input) on one R-MAT update input when the plan has dynamic rows. Returns the
/// process's exit code.
template <class StaticGraph, class Dynamic>
int run_driver(const std::string& bench, const std::string& section, int argc,
               const char* const* argv, const std::set<std::string>& algos,
               StaticGraph&& static_graph, Dynamic&& dynamic) {
  Plan plan;
  try {
    plan = parse_plan(argc, argv, algos, bench + ".json");
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s: %s\n(flags: tools/bench/algo_gpu/bench_plan.hpp)\n", bench.c_str(),
                 e.what());
    return 2;
  }
  const Deadline deadline(plan.time_limit);
  Rows rows(plan.json);
  Context c{plan, deadline, rows, wg::bench::gpu_name(), section, {}};
  std::printf("# %s on %s\n", bench.c_str(), c.gpu.c_str());
  if (plan.run_static()) {
    for (const GraphSpec& g : static_graphs(plan)) {
      if (deadline.passed()) {
        rows.add(skipped_row("static", section, g.name, "", "time limit", c.gpu));
        continue;
      }
      try {
        static_graph(c, g);
      } catch (const std::exception& e) {
        std::printf("# %s: skipped: %s\n", g.name.c_str(), e.what());
        rows.add(skipped_row("static", section, g.name, "", e.what(), c.gpu));
      }
    }
  }
  if (plan.run_dynamic())
    dynamic(c, split_for_updates(wg::datasets::generate_rmat(
                   {.scale = plan.dyn_scale, .edge_factor = 16, .seed = 2})));
  std::printf("# %s done in %.1f s\n", bench.c_str(), deadline.elapsed());
  return 0;
}

}  // namespace wg::bench::algo
