#pragma once
// The host-side plan of the GPU algorithm benchmarks (traversal_bench, global_bench): their
// flags, the graphs and batch sizes they visit, the repetitions a row may spend, the time limit
// of a run and the JSON rows they write. Plain C++ (no CUDA), so tests/bench checks it on a
// machine without a GPU.
//
// Flags shared by both benchmarks (each row of the JSON is written as soon as it is measured,
// so a run cut by a timeout still reports what it did):
//   --json FILE            rows, a JSON array (default: <bench>.json)
//   --only static|dynamic  one part only (default both)
//   --gunrock-mtx FILE     Gunrock's R-MAT s20 file (peers' run.sh rmat 20 16): graph name
//                          "gunrock_rmat20", Gunrock's published times printed beside
//   --graph FILE           a real graph (Matrix Market or SNAP; repeatable): named by its stem
//   --min-scale N --max-scale N   R-MAT scales of the static rows (edge factor 16); a max below
//                          the min visits none
//   --structures LIST      of slab,csr,btree (default all three)
//   --algos LIST           of the bench's algorithms (default all)
//   --reps N               timed runs per row after one warm-up (default 5), fewer when a run is
//                          long: a row spends about --row-budget seconds (default 3); a run past
//                          it is reported alone (cold, no warm-up)
//   --time-limit S         no new graph, structure or batch size starts after S seconds
//                          (default 0: none)
//   --dyn-scale N          R-MAT scale of the dynamic rows (default 20)
//   --min-batch-log K --max-batch-log K --batch-step D   batch sizes 2^K (default 4..20, step 1)
//   --tc-max-scale N       largest R-MAT scale counted by triangle counting (global_bench)
//   --pr-tol X             PageRank's Gunrock-rule tolerance (largest change, default 1e-6)
//   --quick                small scales (14..16, dynamic 16, batches up to 2^16, 3 reps)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wg::bench::algo {

/// A graph of the static rows: a file (path set) or an R-MAT graph of `scale`.
struct GraphSpec {
  std::string name;
  std::string path;
  unsigned scale = 0;
  bool gunrock = false;  ///< Gunrock's R-MAT s20 file: its published times apply
};

inline constexpr const char* kGunrockGraph = "gunrock_rmat20";

struct Plan {
  std::string json;
  std::string only;  ///< "", "static" or "dynamic"
  std::string gunrock_mtx;
  std::vector<std::string> files;
  unsigned min_scale = 20, max_scale = 24, dyn_scale = 20;
  unsigned tc_max_scale = 21;
  int min_batch_log = 4, max_batch_log = 20, batch_step = 1;
  int reps = 5;
  double row_budget = 3.0;
  double time_limit = 0;
  double pr_tol = 1e-6;
  std::set<std::string> structures{"slab", "csr", "btree"};
  std::set<std::string> algos;  ///< empty: all
  bool quick = false;

  bool run_static() const { return only.empty() || only == "static"; }
  bool run_dynamic() const { return only.empty() || only == "dynamic"; }
  bool wants(const std::string& structure) const { return structures.count(structure) > 0; }
  bool wants_algo(const std::string& algo) const { return algos.empty() || algos.count(algo); }
};

/// "a,b,c" -> {a, b, c} (empty items dropped).
inline std::set<std::string> split_list(const std::string& s) {
  std::set<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.insert(item);
  return out;
}

/// Parses the flags above; `known_algos` are the bench's algorithm names (for --algos).
/// Throws std::invalid_argument naming the flag for an unknown flag, a missing or bad value.
inline Plan parse_plan(int argc, const char* const* argv, const std::set<std::string>& known_algos,
                       const std::string& default_json) {
  Plan p;
  p.json = default_json;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + ": needs a value");
      return argv[++i];
    };
    auto number = [&](auto parse) {
      const std::string v = value();
      try {
        std::size_t used = 0;
        auto x = parse(v, &used);
        if (used != v.size()) throw std::invalid_argument(v);
        return x;
      } catch (const std::exception&) {
        throw std::invalid_argument(a + ": not a number: '" + v + "'");
      }
    };
    auto integer = [&] {
      const long long x =
          number([](const std::string& v, std::size_t* used) { return std::stoll(v, used); });
      if (x < 0 || x > 1'000'000) throw std::invalid_argument(a + ": out of range");
      return static_cast<int>(x);
    };
    auto real = [&] {
      const double x =
          number([](const std::string& v, std::size_t* used) { return std::stod(v, used); });
      if (!(x >= 0)) throw std::invalid_argument(a + ": must be >= 0");
      return x;
    };
    if (a == "--json") {
      p.json = value();
    } else if (a == "--only") {
      p.only = value();
      if (p.only != "static" && p.only != "dynamic")
        throw std::invalid_argument("--only: static or dynamic");
    } else if (a == "--gunrock-mtx" || a == "--mtx") {
      p.gunrock_mtx = value();
    } else if (a == "--graph") {
      p.files.push_back(value());
    } else if (a == "--min-scale") {
      p.min_scale = static_cast<unsigned>(integer());
    } else if (a == "--max-scale") {
      p.max_scale = static_cast<unsigned>(integer());
    } else if (a == "--dyn-scale") {
      p.dyn_scale = static_cast<unsigned>(integer());
    } else if (a == "--tc-max-scale") {
      p.tc_max_scale = static_cast<unsigned>(integer());
    } else if (a == "--min-batch-log") {
      p.min_batch_log = integer();
    } else if (a == "--max-batch-log") {
      p.max_batch_log = integer();
    } else if (a == "--batch-step") {
      p.batch_step = std::max(1, integer());
    } else if (a == "--reps") {
      p.reps = std::max(1, integer());
    } else if (a == "--row-budget") {
      p.row_budget = real();
    } else if (a == "--time-limit") {
      p.time_limit = real();
    } else if (a == "--pr-tol") {
      p.pr_tol = real();
    } else if (a == "--structures") {
      p.structures = split_list(value());
      for (const auto& s : p.structures)
        if (s != "slab" && s != "csr" && s != "btree")
          throw std::invalid_argument("--structures: unknown '" + s + "' (slab, csr, btree)");
    } else if (a == "--algos") {
      p.algos = split_list(value());
      for (const auto& s : p.algos)
        if (!known_algos.count(s)) throw std::invalid_argument("--algos: unknown '" + s + "'");
    } else if (a == "--quick") {
      quick = true;
    } else {
      throw std::invalid_argument("unknown flag '" + a + "'");
    }
  }
  if (quick) {
    p.quick = true;
    p.min_scale = std::min(p.min_scale, 14u);
    p.max_scale = std::min(p.max_scale, 16u);
    p.dyn_scale = std::min(p.dyn_scale, 16u);
    p.tc_max_scale = std::min(p.tc_max_scale, 16u);
    p.max_batch_log = std::min(p.max_batch_log, 16);
    p.reps = std::min(p.reps, 3);
  }
  if (p.max_scale > 30 || p.dyn_scale > 30 || p.dyn_scale < 4)
    throw std::invalid_argument("scales: R-MAT scales run from 4 to 30");
  if (p.max_batch_log > 30) throw std::invalid_argument("--max-batch-log: at most 30");
  return p;
}

/// The static rows' graphs, in order: Gunrock's file, the other files, R-MAT min..max scale.
inline std::vector<GraphSpec> static_graphs(const Plan& p) {
  std::vector<GraphSpec> out;
  if (!p.gunrock_mtx.empty()) out.push_back({kGunrockGraph, p.gunrock_mtx, 0, true});
  for (const auto& f : p.files) {
    std::string stem = f.substr(f.find_last_of('/') + 1);
    for (const char* ext : {".gz", ".mtx", ".txt", ".el", ".tsv"}) {
      const std::string e = ext;
      if (stem.size() > e.size() && stem.compare(stem.size() - e.size(), e.size(), e) == 0)
        stem.resize(stem.size() - e.size());
    }
    out.push_back({stem, f, 0, false});
  }
  for (unsigned s = p.min_scale; s <= p.max_scale; ++s)
    out.push_back({"rmat" + std::to_string(s), "", s, false});
  return out;
}

/// Batch sizes (log2) of the dynamic rows.
inline std::vector<int> batch_logs(const Plan& p) {
  std::vector<int> out;
  for (int k = p.min_batch_log; k <= p.max_batch_log; k += p.batch_step) out.push_back(k);
  return out;
}

/// Timed runs of a row whose warm-up took `warmup_seconds`: as many as fit `budget` seconds,
/// between 1 and `reps`; 0 when the warm-up alone was over the budget (it is then the one
/// measurement).
inline int reps_for(double warmup_seconds, int reps, double budget) {
  if (warmup_seconds > budget) return 0;
  if (warmup_seconds <= 0) return reps;
  const double fit = budget / warmup_seconds;
  return static_cast<int>(std::clamp(fit, 1.0, static_cast<double>(reps)));
}

/// Median of the values (0 when empty).
inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// Seconds since construction against the plan's --time-limit.
class Deadline {
 public:
  explicit Deadline(double limit_seconds) : limit_(limit_seconds) {}
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  bool passed() const { return limit_ > 0 && elapsed() > limit_; }

 private:
  double limit_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

/// What one static row measured.
struct StaticMeasure {
  double ms = 0;  ///< median
  int reps = 0;   ///< timed runs (0: the warm-up alone, see reps_for)
  std::int64_t iterations = 0;
};

/// A static row: algorithm on graph in structure, with its rate (undirected edges / time).
inline nlohmann::json static_row(const std::string& algorithm, const GraphSpec& graph,
                                 const std::string& structure, const StaticMeasure& m,
                                 std::uint64_t vertices, std::uint64_t edges,
                                 const std::string& gpu) {
  nlohmann::json r = {{"section", "static"},
                      {"algorithm", algorithm},
                      {"graph", graph.name},
                      {"structure", structure},
                      {"ms", m.ms},
                      {"edges", edges},
                      {"vertices", vertices},
                      {"edges_per_s", m.ms > 0 ? edges / (m.ms * 1e-3) : 0.0},
                      {"iterations", m.iterations},
                      {"reps", m.reps},
                      {"gpu", gpu}};
  if (graph.scale) r["scale"] = graph.scale;
  if (m.reps == 0) r["cold"] = true;
  return r;
}

/// What the dynamic rows measured for one batch size and stream.
struct DynamicMeasure {
  double update_ms = 0, recompute_ms = 0;  ///< medians
  int reps = 0;
  int recomputed_runs = 0;    ///< timed runs in which the class answered by its static computation
  std::uint64_t changed = 0;  ///< vertices whose value moved, last timed run
  nlohmann::json extra = nlohmann::json::object();  ///< class-specific (rounds, iterations)
};

inline nlohmann::json dynamic_row(const std::string& algorithm, const std::string& graph,
                                  const std::string& structure, bool mixed, int batch_log2,
                                  const DynamicMeasure& m, std::uint64_t vertices,
                                  std::uint64_t edges, const std::string& gpu) {
  nlohmann::json r = {{"section", "dynamic"},
                      {"algorithm", algorithm},
                      {"graph", graph},
                      {"structure", structure},
                      {"stream", mixed ? "mixed" : "insert"},
                      {"batch_log2", batch_log2},
                      {"batch", std::uint64_t{1} << batch_log2},
                      {"update_ms", m.update_ms},
                      {"recompute_ms", m.recompute_ms},
                      {"speedup", m.update_ms > 0 ? m.recompute_ms / m.update_ms : 0.0},
                      {"recomputed", m.recomputed_runs > 0},
                      {"recomputed_runs", m.recomputed_runs},
                      {"reps", m.reps},
                      {"changed", m.changed},
                      {"vertices", vertices},
                      {"edges", edges},
                      {"gpu", gpu}};
  for (auto it = m.extra.begin(); it != m.extra.end(); ++it) r[it.key()] = it.value();
  return r;
}

/// A row for what could not run (out of memory, a time limit): the plot and table skip it.
inline nlohmann::json skipped_row(const std::string& section, const std::string& algorithm,
                                  const std::string& graph, const std::string& structure,
                                  const std::string& why, const std::string& gpu) {
  return {{"section", section},     {"algorithm", algorithm}, {"graph", graph},
          {"structure", structure}, {"skipped", why},         {"gpu", gpu}};
}

}  // namespace wg::bench::algo
