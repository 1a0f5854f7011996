// bstree_bench: the BS-tree paper's workloads (Tsitsigkos et al., Sec. VIII) on 64-bit keys, for
// BSTree, CompressedBSTree, absl::btree_set and std::set, single- and multi-threaded.
//
//   A read-only (100% find)          B write-only (100% insert)      C 50% find / 50% insert
//   D 95% range (100 keys) / 5% insert  E 60% find / 35% insert / 5% erase  F 50% insert / 50%
//   erase
//
// Key distributions: `uniform` (random 64-bit keys) and `clustered` ((u << 32 | v) keys whose
// cluster sizes follow a Zipf law, like graph adjacency: skewed and clustered). n keys are bulk
// loaded (sorted; construction timed separately), then `ops` operations run; finds and erases hit
// loaded keys, inserts add new keys from the same distribution. Each configuration: warm-up runs,
// then the median of the timed runs (structures that change are rebuilt before every run,
// outside the timed region). Multi-threaded runs split the operation stream between threads;
// the BS-trees run concurrently (OLC), absl::btree_set and std::set behind a std::shared_mutex.
// Single-threaded rows show the BS-trees twice: "BS"/"CBS" = the concurrent OLC build
// (DefaultPolicy, what the multi-threaded rows use), "BS 1w"/"CBS 1w" = SingleWriterPolicy (no
// versions, atomics or locks; single-threaded rows only). --rounds R repeats the whole sequence
// of structures R times in alternating order; the tables give the median over rounds and the
// median of the per-round ratios to absl (robust to a machine whose load drifts). --threads 1
// runs the single-threaded rows only.
// Memory: BS-trees report memory_bytes(); the others the heap bytes they hold (counted by this
// program's operator new).
#include <malloc.h>
#include <sys/mman.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <new>
#include <random>
#include <set>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

#include <cxxopts.hpp>
#if defined(WG_HAVE_ABSL)
#include <absl/container/btree_set.h>
#endif

#include <tools/bench/harness.hpp>
#include <warpgraph/containers/bstree/bstree.hpp>

// ---- heap accounting (for the footprint of the node-based competitors) -----------------------
namespace {
std::atomic<std::int64_t> g_heap_bytes{0};
}
void* operator new(std::size_t n) {
  void* p = std::malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  g_heap_bytes.fetch_add(static_cast<std::int64_t>(malloc_usable_size(p)),
                         std::memory_order_relaxed);
  return p;
}
void operator delete(void* p) noexcept {
  if (!p) return;
  g_heap_bytes.fetch_sub(static_cast<std::int64_t>(malloc_usable_size(p)),
                         std::memory_order_relaxed);
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  operator delete(p);
}

namespace {

using Key = std::uint64_t;
constexpr Key kMax = wg::bstree::kMaxKey;

enum OpType : std::uint8_t { kFind, kInsert, kErase, kRange };
struct Op {
  OpType type;
  Key key;
  Key hi;  // range end (exclusive)
};

// ---- structures
// -----------------------------------------------------------------------------------
template <class Tree>
struct BsAdapter {
  static constexpr bool kConcurrent = true;                       // no external lock needed...
  static constexpr bool kSingleThreadOnly = !Tree::concurrent();  // ...unless single-writer
  explicit BsAdapter(wg::bstree::SimdPath simd) {
    wg::bstree::Options o;
    o.simd = simd;
    o.max_leaves = 1u << 24;
    t = std::make_unique<Tree>(o);
  }
  void build(const std::vector<Key>& sorted) { t->bulk_load(sorted.data(), sorted.size()); }
  bool find(Key k) const { return t->contains(k); }
  bool insert(Key k) { return t->insert(k); }
  bool erase(Key k) { return t->erase(k); }
  std::size_t range(Key lo, Key hi) const {
    std::size_t n = 0;
    t->range(lo, hi, [&](Key) { ++n; });
    return n;
  }
  std::size_t memory() const { return t->memory_bytes(); }
  std::unique_ptr<Tree> t;
};

template <class Set>
struct LockedSetAdapter {
  static constexpr bool kConcurrent = false;  // made safe by the shared_mutex when threads > 1
  static constexpr bool kSingleThreadOnly = false;
  explicit LockedSetAdapter(wg::bstree::SimdPath) {}
  void build(const std::vector<Key>& sorted) {
    const std::int64_t before = g_heap_bytes.load();
    s.insert(sorted.begin(), sorted.end());
    heap = g_heap_bytes.load() - before;
  }
  bool find(Key k) const {
    if (locked) {
      std::shared_lock lock(m);
      return s.count(k) != 0;
    }
    return s.count(k) != 0;
  }
  bool insert(Key k) {
    if (locked) {
      std::unique_lock lock(m);
      return s.insert(k).second;
    }
    return s.insert(k).second;
  }
  bool erase(Key k) {
    if (locked) {
      std::unique_lock lock(m);
      return s.erase(k) != 0;
    }
    return s.erase(k) != 0;
  }
  std::size_t range(Key lo, Key hi) const {
    std::shared_lock<std::shared_mutex> lock;
    if (locked) lock = std::shared_lock(m);
    std::size_t n = 0;
    for (auto it = s.lower_bound(lo); it != s.end() && *it < hi; ++it) ++n;
    return n;
  }
  std::size_t memory() const { return static_cast<std::size_t>(heap) + sizeof(*this); }
  Set s;
  mutable std::shared_mutex m;
  bool locked = false;
  std::int64_t heap = 0;
};

// ---- key generation
// --------------------------------------------------------------------------------
std::vector<Key> make_pool(const std::string& dist, std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Key> keys;
  keys.reserve(count + count / 4);
  if (dist == "uniform") {
    while (keys.size() < count) {
      while (keys.size() < count + count / 8) keys.push_back(rng() % (kMax - 1));
      std::sort(keys.begin(), keys.end());
      keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    }
  } else {  // clustered: Zipf(1.0) cluster sizes over count/16 clusters, offsets in [0, 2^24)
    const std::size_t clusters = std::max<std::size_t>(1, count / 16);
    std::vector<double> cdf(clusters);
    double acc = 0;
    for (std::size_t i = 0; i < clusters; ++i) cdf[i] = acc += 1.0 / static_cast<double>(i + 1);
    std::uniform_real_distribution<double> u01(0, acc);
    // Cluster ids are scattered over the 32-bit space so clusters are far apart.
    std::vector<Key> cluster_id(clusters);
    for (auto& c : cluster_id) c = rng() & 0xFFFFFFFFull;
    while (keys.size() < count) {
      while (keys.size() < count + count / 8) {
        const std::size_t c = static_cast<std::size_t>(
            std::lower_bound(cdf.begin(), cdf.end(), u01(rng)) - cdf.begin());
        keys.push_back((cluster_id[std::min(c, clusters - 1)] << 32) | (rng() & 0xFFFFFF));
      }
      std::sort(keys.begin(), keys.end());
      keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
      keys.erase(std::remove(keys.begin(), keys.end(), kMax), keys.end());
    }
  }
  std::shuffle(keys.begin(), keys.end(), rng);
  keys.resize(count);
  return keys;
}

struct Workload {
  const char* name;
  const char* what;
  int find, insert, erase, range;  // percentages
};
const Workload kWorkloads[] = {
    {"A", "read-only", 100, 0, 0, 0},
    {"B", "write-only", 0, 100, 0, 0},
    {"C", "read 50 / write 50", 50, 50, 0, 0},
    {"D", "range 95 / write 5", 0, 5, 0, 95},
    {"E", "read 60 / write 35 / delete 5", 60, 35, 5, 0},
    {"F", "write 50 / delete 50", 0, 50, 50, 0},
};

std::vector<Op> make_ops(const Workload& w, const std::vector<Key>& loaded_sorted,
                         const std::vector<Key>& fresh, std::size_t ops, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Key> erasable = loaded_sorted;
  std::shuffle(erasable.begin(), erasable.end(), rng);
  std::size_t next_fresh = 0, next_erase = 0;
  std::vector<Op> out;
  out.reserve(ops);
  const std::size_t n = loaded_sorted.size();
  for (std::size_t i = 0; i < ops; ++i) {
    const int r = static_cast<int>(rng() % 100);
    if (r < w.find) {
      out.push_back({kFind, loaded_sorted[rng() % n], 0});
    } else if (r < w.find + w.insert) {
      out.push_back({kInsert, fresh[next_fresh++ % fresh.size()], 0});
    } else if (r < w.find + w.insert + w.erase) {
      out.push_back({kErase, erasable[next_erase++ % n], 0});
    } else {
      const std::size_t at = rng() % n;
      const Key hi = at + 100 < n ? loaded_sorted[at + 100] : kMax;
      out.push_back({kRange, loaded_sorted[at], hi});
    }
  }
  return out;
}

std::atomic<std::size_t> g_sink{0};

// Faults in (and frees) `mb` MiB of huge-page-advised memory so the kernel has compacted free
// 2 MiB pages before the first tree is built: otherwise whichever structure runs first pays the
// direct compaction (or gets 4 KiB pages) and the comparison depends on the order of the runs.
void prewarm_huge_pages(std::size_t mb) {
  if (!mb) return;
  const std::size_t bytes = mb << 20;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return;
  madvise(p, bytes, MADV_HUGEPAGE);
  for (std::size_t i = 0; i < bytes; i += 4096) static_cast<volatile char*>(p)[i] = 1;
  munmap(p, bytes);
}

std::string anon_huge_pages() {
  std::FILE* f = std::fopen("/proc/self/smaps_rollup", "r");
  if (!f) return "?";
  char line[256];
  std::string out = "?";
  while (std::fgets(line, sizeof line, f))
    if (std::string(line).rfind("AnonHugePages:", 0) == 0) out = std::string(line + 14);
  std::fclose(f);
  out.erase(0, out.find_first_not_of(' '));
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

template <class S>
std::size_t run_ops(S& s, const Op* ops, std::size_t n) {
  std::size_t acc = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Op& op = ops[i];
    switch (op.type) {
      case kFind:
        acc += s.find(op.key);
        break;
      case kInsert:
        acc += s.insert(op.key);
        break;
      case kErase:
        acc += s.erase(op.key);
        break;
      case kRange:
        acc += s.range(op.key, op.hi);
        break;
    }
  }
  return acc;
}

double process_cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Seconds (wall) for the whole op stream on `threads` threads; *cpu gets the CPU seconds all
// threads spent (on a loaded machine the wall time includes waiting for a core, CPU time not).
template <class S>
double timed_run(S& s, const std::vector<Op>& ops, int threads, double* cpu) {
  const double cpu0 = process_cpu_seconds();
  if (threads == 1) {
    const double wall =
        wg::bench::wall_seconds([&] { g_sink += run_ops(s, ops.data(), ops.size()); });
    *cpu = process_cpu_seconds() - cpu0;
    return wall;
  }
  std::barrier start(threads + 1);
  std::vector<std::thread> pool;
  const std::size_t chunk = (ops.size() + threads - 1) / threads;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      const std::size_t b = std::min(ops.size(), chunk * t), e = std::min(ops.size(), b + chunk);
      start.arrive_and_wait();
      g_sink += run_ops(s, ops.data() + b, e - b);
    });
  }
  const double wall = wg::bench::wall_seconds([&] {
    start.arrive_and_wait();
    for (auto& th : pool) th.join();
  });
  *cpu = process_cpu_seconds() - cpu0;
  return wall;
}

struct Config {
  std::string workloads;
  std::size_t n, ops;
  int threads;
  wg::bench::MeasureOptions measure;
  wg::bstree::SimdPath simd;
};

std::vector<int> thread_counts(const Config& cfg) {
  if (cfg.threads <= 1) return {1};
  return {1, cfg.threads};
}

struct Row {
  std::string structure, dist, workload;
  int threads;
  int round;
  double mops;      // per wall second
  double mops_cpu;  // per CPU second (all threads)
};

template <class S>
void bench_structure(const std::string& name, const Config& cfg, const std::string& dist,
                     const std::vector<Key>& loaded_sorted, const std::vector<Key>& fresh,
                     int round, wg::bench::Report& report, std::vector<Row>& rows) {
  // Construction time and footprint (first round only).
  if (round == 0) {
    std::size_t memory = 0;
    auto series = wg::bench::measure(cfg.measure, [&] {
      S s(cfg.simd);
      const double t = wg::bench::wall_seconds([&] { s.build(loaded_sorted); });
      memory = s.memory();
      static bool shown = false;
      if (name == "BS-tree" && !shown) {
        shown = true;
        std::printf("  (process AnonHugePages with the BS-tree built: %s)\n",
                    anon_huge_pages().c_str());
      }
      return t;
    });
    report.add({{"bench", "bstree"},
                {"kind", "build"},
                {"structure", name},
                {"dist", dist},
                {"n", cfg.n},
                {"seconds", series.median()},
                {"memory_bytes", memory},
                {"bytes_per_key", static_cast<double>(memory) / static_cast<double>(cfg.n)}});
    std::printf("%-10s %-18s build %8.3f s  memory %8.1f MiB (%5.1f B/key)\n", dist.c_str(),
                name.c_str(), series.median(), static_cast<double>(memory) / (1 << 20),
                static_cast<double>(memory) / static_cast<double>(cfg.n));
  }
  for (int threads : thread_counts(cfg)) {
    if (threads > 1 && (name == "std::set" || S::kSingleThreadOnly)) continue;
    for (std::size_t wi = 0; wi < std::size(kWorkloads); ++wi) {
      const Workload& w = kWorkloads[wi];
      if (cfg.workloads.find(w.name) == std::string::npos) continue;
      const auto ops = make_ops(w, loaded_sorted, fresh, cfg.ops, 1000 + wi);
      const bool read_only = w.insert == 0 && w.erase == 0;
      std::unique_ptr<S> shared;
      if (read_only) {
        shared = std::make_unique<S>(cfg.simd);
        shared->build(loaded_sorted);
      }
      std::vector<double> cpu_seconds;
      auto series = wg::bench::measure(cfg.measure, [&] {
        std::unique_ptr<S> fresh_s;
        S* s = shared.get();
        if (!s) {
          fresh_s = std::make_unique<S>(cfg.simd);
          fresh_s->build(loaded_sorted);
          s = fresh_s.get();
        }
        if constexpr (!S::kConcurrent) s->locked = threads > 1;
        double cpu = 0;
        const double wall = timed_run(*s, ops, threads, &cpu);
        cpu_seconds.push_back(cpu);
        return wall;
      });
      cpu_seconds.erase(cpu_seconds.begin(), cpu_seconds.begin() + cfg.measure.warmup);
      const double cpu_median = wg::bench::Series{cpu_seconds}.median();
      const double mops = static_cast<double>(cfg.ops) / series.median() / 1e6;
      const double mops_cpu = static_cast<double>(cfg.ops) / cpu_median / 1e6;
      rows.push_back({name, dist, w.name, threads, round, mops, mops_cpu});
      report.add({{"bench", "bstree"},
                  {"kind", "workload"},
                  {"structure", name},
                  {"dist", dist},
                  {"workload", w.name},
                  {"mix", w.what},
                  {"threads", threads},
                  {"round", round},
                  {"n", cfg.n},
                  {"ops", cfg.ops},
                  {"seconds", series.median()},
                  {"mops", mops},
                  {"cpu_seconds", cpu_median},
                  {"mops_per_cpu_second", mops_cpu}});
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  cxxopts::Options options("bstree_bench",
                           "BS-tree workloads A-F against absl::btree_set and std::set");
  options.add_options()("keys", "keys bulk loaded",
                        cxxopts::value<std::size_t>()->default_value("1000000"))(
      "ops", "operations per workload", cxxopts::value<std::size_t>()->default_value("500000"))(
      "threads", "threads of the multi-threaded runs (1: single-threaded rows only)",
      cxxopts::value<int>()->default_value("2"))("reps", "timed repetitions (median reported)",
                                                 cxxopts::value<int>()->default_value("3"))(
      "warmup", "untimed runs first", cxxopts::value<int>()->default_value("1"))(
      "dist", "uniform, clustered or both", cxxopts::value<std::string>()->default_value("both"))(
      "simd", "avx512, avx2, scalar or auto", cxxopts::value<std::string>()->default_value("auto"))(
      "no-std-set", "skip std::set (the slowest)")(
      "prewarm-mb", "huge-page memory to fault in and free first",
      cxxopts::value<std::size_t>()->default_value("512"))(
      "workloads", "which of A-F to run", cxxopts::value<std::string>()->default_value("ABCDEF"))(
      "structures",
      "comma list among bs,cbs (concurrent OLC trees), bs1,cbs1 (SingleWriterPolicy, single-"
      "threaded rows only), absl, std",
      cxxopts::value<std::string>()->default_value("bs,cbs,bs1,cbs1,absl,std"))(
      "rounds",
      "repeat the whole sequence of structures this many times, alternating their order; tables "
      "report the median over rounds and the median of the per-round ratios (robust on a loaded "
      "machine)",
      cxxopts::value<int>()->default_value("1"))(
      "json", "JSON output file",
      cxxopts::value<std::string>()->default_value("bstree_bench.json"))("h,help", "help");
  const auto args = options.parse(argc, argv);
  if (args.count("help")) {
    std::puts(options.help().c_str());
    return 0;
  }
  Config cfg;
  cfg.n = args["keys"].as<std::size_t>();
  cfg.ops = args["ops"].as<std::size_t>();
  cfg.workloads = args["workloads"].as<std::string>();
  const std::string structures = "," + args["structures"].as<std::string>() + ",";
  auto want = [&](const char* s) {
    return structures.find(std::string(",") + s + ",") != std::string::npos;
  };
  cfg.threads = std::max(1, args["threads"].as<int>());
  const int rounds = std::max(1, args["rounds"].as<int>());
  cfg.measure = {args["warmup"].as<int>(), args["reps"].as<int>()};
  const std::string simd = args["simd"].as<std::string>();
  cfg.simd = simd == "avx512"   ? wg::bstree::SimdPath::avx512
             : simd == "avx2"   ? wg::bstree::SimdPath::avx2
             : simd == "scalar" ? wg::bstree::SimdPath::scalar
                                : wg::bstree::SimdPath::automatic;
  std::vector<std::string> dists;
  if (args["dist"].as<std::string>() == "both")
    dists = {"uniform", "clustered"};
  else
    dists = {args["dist"].as<std::string>()};

  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  prewarm_huge_pages(args["prewarm-mb"].as<std::size_t>());
  wg::bench::Report report;
  std::vector<Row> rows;
  std::printf(
      "bstree_bench: n=%zu ops=%zu threads=1,%d median of %d after %d warm-up, %d round(s); SIMD "
      "%s; %u hardware threads\n",
      cfg.n, cfg.ops, cfg.threads, cfg.measure.repetitions, cfg.measure.warmup, rounds,
      wg::bstree::to_string(wg::bstree::BSTree<>(wg::bstree::Options{cfg.simd, 1024}).simd_path()),
      std::thread::hardware_concurrency());
  for (const std::string& dist : dists) {
    const auto pool = make_pool(dist, 2 * cfg.n, 42);
    std::vector<Key> loaded(pool.begin(), pool.begin() + cfg.n);
    std::vector<Key> fresh(pool.begin() + cfg.n, pool.end());
    std::sort(loaded.begin(), loaded.end());
    std::printf("%s: compression_pays (paper's rule) = %s\n", dist.c_str(),
                wg::bstree::compression_pays(loaded.data(), loaded.size()) ? "yes" : "no");
    using SW = wg::bstree::SingleWriterPolicy;
    std::vector<std::function<void(int)>> entries;  // one per structure: runs one round
    auto add = [&]<class S>(const char* flag, const char* name) {
      if (want(flag))
        entries.push_back([&, name](int round) {
          bench_structure<S>(name, cfg, dist, loaded, fresh, round, report, rows);
        });
    };
    add.template operator()<BsAdapter<wg::bstree::BSTree<>>>("bs", "BS-tree");
    add.template operator()<BsAdapter<wg::bstree::CompressedBSTree<>>>("cbs", "CBS-tree");
    add.template operator()<BsAdapter<wg::bstree::BSTree<void, SW>>>("bs1", "BS-tree 1w");
    add.template operator()<BsAdapter<wg::bstree::CompressedBSTree<void, SW>>>("cbs1",
                                                                               "CBS-tree 1w");
#if defined(WG_HAVE_ABSL)
    add.template operator()<LockedSetAdapter<absl::btree_set<Key>>>("absl", "absl::btree_set");
#endif
    if (!args.count("no-std-set"))
      add.template operator()<LockedSetAdapter<std::set<Key>>>("std", "std::set");
    for (int round = 0; round < rounds; ++round) {
      // Alternate the order so that no structure always runs first (or right after another).
      std::vector<std::function<void(int)>> order = entries;
      if (round % 2) std::reverse(order.begin(), order.end());
      for (const auto& run : order) run(round);
    }
  }
  // Tables: Mops per wall second and per CPU second (median over rounds), and the BS-trees over
  // absl::btree_set (median over rounds of the per-round ratio). "1w" = SingleWriterPolicy.
  for (bool per_cpu : {false, true}) {
    std::printf("\n%s\n%-10s %-3s %-3s %9s %9s %9s %9s %9s %9s %8s %8s %8s %8s\n",
                per_cpu ? "Mops per CPU-second (all threads' CPU time)" : "Mops per wall-second",
                "dist", "wl", "thr", "BS", "CBS", "BS 1w", "CBS 1w", "absl", "std::set", "BS/ab",
                "CBS/ab", "BS1w/ab", "CBS1w/ab");
    for (const std::string& dist : dists)
      for (int threads : thread_counts(cfg))
        for (const Workload& w : kWorkloads) {
          if (cfg.workloads.find(w.name) == std::string::npos) continue;
          auto get = [&](const char* s, int round) {
            for (const Row& r : rows)
              if (r.structure == s && r.dist == dist && r.workload == w.name &&
                  r.threads == threads && r.round == round)
                return per_cpu ? r.mops_cpu : r.mops;
            return 0.0;
          };
          auto median_of = [&](auto&& value) {
            std::vector<double> v;
            for (int r = 0; r < rounds; ++r) v.push_back(value(r));
            return wg::bench::Series{v}.median();
          };
          auto rate = [&](const char* s) { return median_of([&](int r) { return get(s, r); }); };
          auto ratio = [&](const char* s) {
            return median_of([&](int r) {
              const double ab = get("absl::btree_set", r);
              return ab > 0 ? get(s, r) / ab : 0.0;
            });
          };
          std::printf(
              "%-10s %-3s %-3d %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %7.2fx %7.2fx %7.2fx %7.2fx\n",
              dist.c_str(), w.name, threads, rate("BS-tree"), rate("CBS-tree"), rate("BS-tree 1w"),
              rate("CBS-tree 1w"), rate("absl::btree_set"), rate("std::set"), ratio("BS-tree"),
              ratio("CBS-tree"), ratio("BS-tree 1w"), ratio("CBS-tree 1w"));
        }
  }
  const std::string path = args["json"].as<std::string>();
  report.write(path);
  std::printf("(Mops/s; wrote %s; checksum %zu)\n", path.c_str(), g_sink.load());
  return 0;
}
