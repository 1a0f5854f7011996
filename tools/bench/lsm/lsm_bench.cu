// lsm_bench: the GPU LSM paper's tables (Ashkiani et al., IPDPS'18) on this GPU, each figure
// beside the paper's K40c one: Table II (insertion rate min / max / harmonic mean over resident
// batch counts r, b = 2^16..2^24, n = 2^27 total), Table III (lookup, all / none present, n =
// 2^24), Table IV (count and range, expected L = 8 and 1024), the cleanup rate (Section V-D) and
// bulk build. The sorted array, the B-tree (wg::BTree) and the slab hash map run the same
// workloads where they apply: the same keys inserted batch by batch into a growing structure
// (Table II; the sorted array only where n / b <= 128, its merges being O(n) per batch), the same
// queries at the same resident counts (Tables III and IV; the slab map has no key order, so no
// count or range: "n/a"). Every JSON record names its "structure" (lsm, sorted_array, btree,
// slab_map).
//
//   lsm_bench [--quick] [--min-log2 16] [--max-log2 24] [--total-log2 27] [--samples 24]
//             [--json FILE] [--only 2,3,4,cleanup,build,slab,btree] [--range-slot N]
// Rates are harmonic means over r (as the paper); queries: r*b of them per sampled r (capped for
// L = 1024, whose answers would not fit). --samples bounds how many r values are measured per b
// (evenly spaced, ends included; all of them when fewer). "slab" and "btree" in --only add those
// structures to the tables asked for.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <cxxopts.hpp>

#include <tools/bench/cuda_timer.cuh>
#include <tools/bench/harness.hpp>
#include <tools/bench/lsm/k40c_tables.hpp>
#include <warpgraph/containers/btree/btree.cuh>
#include <warpgraph/containers/core/cuda_stream.hpp>
#include <warpgraph/containers/lsm/lsm.cuh>
#include <warpgraph/containers/slab_hash/slab_hash.cuh>
#include <warpgraph/containers/sorted_array/sorted_array.cuh>

namespace {

using namespace lsm_bench;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using Lsm = wg::Lsm<u32>;
using Sa = wg::SortedArray<u32>;
using BTree = wg::BTree<u32>;

__host__ __device__ inline u32 mix(u64 x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return static_cast<u32>(x);
}

/// Present keys are even, absent ones odd: out[i] = 2 * (hash(seed + i) mod 2^30) + odd.
__global__ void make_keys(u32* out, u64 n, u64 seed, u32 odd) {
  for (u64 i = blockIdx.x * u64(blockDim.x) + threadIdx.x; i < n; i += u64(gridDim.x) * blockDim.x)
    out[i] = ((mix(seed + i) & ((1u << 30) - 1)) << 1) | odd;
}
/// Count/range bounds: [k, k + width] around random keys.
__global__ void make_bounds(u32* k1, u32* k2, u64 n, u64 seed, u32 width) {
  for (u64 i = blockIdx.x * u64(blockDim.x) + threadIdx.x; i < n;
       i += u64(gridDim.x) * blockDim.x) {
    const u32 a = mix(seed + i) & ((1u << 31) - 1);
    k1[i] = a;
    k2[i] = a + width < a || a + width > Lsm::max_key ? u32(Lsm::max_key) : a + width;
  }
}
unsigned grid(u64 n) {
  return static_cast<unsigned>(std::min<u64>((n + 255) / 256, 1u << 20));
}

/// Nodes for n random inserts into the B-tree (about n / 10 used; btree_bench's margin).
u64 btree_nodes(u64 n) {
  return n / 5 + 4096;
}
wg::slab::SlabTableConfig slab_config(u64 n) {
  wg::slab::SlabTableConfig cfg;
  cfg.expected_keys = n;
  cfg.load_factor = 0.6;
  return cfg;
}

struct Stat {
  std::vector<double> rates;  // M/s
  double min() const { return rates.empty() ? 0 : *std::min_element(rates.begin(), rates.end()); }
  double max() const { return rates.empty() ? 0 : *std::max_element(rates.begin(), rates.end()); }
  double mean() const { return wg::bench::harmonic_mean(rates); }
};

/// Which structures run besides the LSM and the sorted array.
struct Peers {
  bool slab = false, btree = false;
};

struct Ctx {
  cudaStream_t stream;
  wg::bench::Report report;
  int samples;
  int range_slot = -1;  ///< LsmOptions::range_slot for Table IV; < 0: the library's default
};

/// r values to measure for `batches` resident batch counts: all, or `samples` evenly spaced.
std::vector<u64> sample_r(u64 batches, int samples) {
  std::vector<u64> r;
  if (batches <= u64(samples)) {
    for (u64 i = 1; i <= batches; ++i) r.push_back(i);
    return r;
  }
  for (int i = 0; i < samples; ++i) r.push_back(1 + (batches - 1) * u64(i) / u64(samples - 1));
  r.erase(std::unique(r.begin(), r.end()), r.end());
  return r;
}

/// The structure a series measures, from its prefix.
const char* structure_of(const std::string& series) {
  if (series.rfind("lsm_", 0) == 0) return "lsm";
  if (series.rfind("sa_", 0) == 0) return "sorted_array";
  if (series.rfind("btree_", 0) == 0) return "btree";
  return "slab_map";
}

void print_stat(const std::string& label, const Stat& s, const Row3& p) {
  std::printf("%-36s min %9.1f max %9.1f mean %9.1f M/s | K40c %7.1f %7.1f %7.1f (mean x%.1f)\n",
              label.c_str(), s.min(), s.max(), s.mean(), p.min, p.max, p.mean,
              p.mean > 0 ? s.mean() / p.mean : 0.0);
}

/// One JSON record; `paper_what` names the K40c figure beside it ("" when the paper has none).
void record(Ctx& ctx, const char* table, const std::string& series, int log2b, const Stat& s,
            const Row3& p, const char* paper_what) {
  const std::string t = table;
  const bool build = series.find("_build") != std::string::npos;
  const std::string figure = build        ? "GPU LSM bulk build rate (n = 2^27)"
                             : t == "II"  ? "GPU LSM Table II: insertion rate (harmonic mean)"
                             : t == "III" ? "GPU LSM Table III: lookup rate (harmonic mean)"
                             : t == "IV"  ? "GPU LSM Table IV: count and range rate (harmonic mean)"
                                          : "GPU LSM cleanup rate";
  ctx.report.add({{"bench", "lsm_table" + t},
                  {"figure", figure},
                  {"series", series},
                  {"structure", structure_of(series)},
                  {"x", log2b},
                  {"x_label", "log2 b"},
                  {"value", s.mean()},
                  {"paper", p.mean},
                  {"paper_what", paper_what},
                  {"what", series},
                  {"log2_b", log2b},
                  {"min", s.min()},
                  {"max", s.max()},
                  {"mean", s.mean()},
                  {"samples", s.rates.size()},
                  {"paper_min", p.min},
                  {"paper_max", p.max},
                  {"paper_mean", p.mean},
                  {"unit", "M/s"},
                  {"gpu", wg::bench::gpu_name()}});
}

void emit(Ctx& ctx, const char* table, const std::string& label, const std::string& series,
          int log2b, const Stat& s, const Row3& p, const char* paper_what) {
  print_stat(label, s, p);
  record(ctx, table, series, log2b, s, p, paper_what);
}

/// Inserts batches 0 .. batches - 1 of b elements, timing each: the rates of a growing structure.
template <class F>
Stat grow(cudaStream_t s, u64 batches, u64 b, F&& insert_batch) {
  Stat st;
  for (u64 r = 0; r < batches; ++r)
    st.rates.push_back(b / wg::bench::cuda_seconds(s, [&] { insert_batch(r); }) * 1e-6);
  return st;
}

// ---- Table II: insertion rate over every resident batch count --------------------------------
void table2(Ctx& ctx, int log2b, int total_log2, bool with_sa, bool lsm_build, Peers peers) {
  const u64 b = u64(1) << log2b, n = u64(1) << total_log2, batches = n / b;
  cudaStream_t s = ctx.stream;
  wg::DeviceBuffer<u32> keys(n, s), values(n, s);
  make_keys<<<grid(n), 256, 0, s>>>(keys.data(), n, 1000 + log2b, 0);
  make_keys<<<grid(n), 256, 0, s>>>(values.data(), n, 77, 1);
  const u32* K = keys.data();
  const u32* V = values.data();
  const std::string tag = " b=2^" + std::to_string(log2b);
  {
    u32 levels = 1;
    while ((b << levels) - b < n) ++levels;
    Lsm lsm({.batch_size = b, .num_levels = levels}, s);
    const Stat st = grow(s, batches, b, [&](u64 r) { lsm.insert(K + r * b, V + r * b, b, s); });
    emit(ctx, "II", "II  LSM insert" + tag, "lsm_insert", log2b, st, paper(kTable2, log2b, false),
         "K40c LSM");
    if (lsm_build) {  // bulk build of all n (the paper: 728 M/s on the K40c for LSM and SA)
      Stat bl;
      for (int i = 0; i < 3; ++i)
        bl.rates.push_back(n / wg::bench::cuda_seconds(s, [&] { lsm.build(K, V, n, s); }) * 1e-6);
      emit(ctx, "II", "II  LSM bulk build" + tag, "lsm_build", log2b, bl, {0, 0, kSortBuild, 0},
           "K40c LSM");
    }
  }
  if (with_sa) {
    Sa sa({.capacity = n}, s);
    const Stat st = grow(s, batches, b, [&](u64 r) { sa.insert(K + r * b, V + r * b, b, s); });
    emit(ctx, "II", "II  SA  insert" + tag, "sa_insert", log2b, st, paper(kTable2, log2b, true),
         "K40c SA");
  }
  if (peers.btree) {
    BTree tree({.node_capacity = btree_nodes(n)}, s);
    const Stat st = grow(s, batches, b, [&](u64 r) { tree.insert(K + r * b, V + r * b, b, s); });
    emit(ctx, "II", "II  B-tree insert" + tag, "btree_insert", log2b, st, {0, 0, 0, 0}, "");
  }
  if (peers.slab) {
    wg::slab::SlabMap map(slab_config(n), s);
    const Stat st =
        grow(s, batches, b, [&](u64 r) { (void)map.insert(K + r * b, V + r * b, b, s); });
    emit(ctx, "II", "II  slab map insert" + tag, "slab_map_insert", log2b, st,
         {0, 0, kCuckooBuild, 0}, "K40c cuckoo hash (bulk build)");
  }
}

// ---- Bulk build of n elements by the structures that have one (the LSM's is in table2) --------
void bulk_builds(Ctx& ctx, int total_log2, Peers peers) {
  const u64 n = u64(1) << total_log2;
  cudaStream_t s = ctx.stream;
  wg::DeviceBuffer<u32> keys(n, s), values(n, s);
  make_keys<<<grid(n), 256, 0, s>>>(keys.data(), n, 1000 + total_log2, 0);
  make_keys<<<grid(n), 256, 0, s>>>(values.data(), n, 77, 1);
  const std::string tag = " n=2^" + std::to_string(total_log2);
  auto three = [&](auto&& fn) {
    Stat st;
    for (int i = 0; i < 3; ++i) st.rates.push_back(n / wg::bench::cuda_seconds(s, fn) * 1e-6);
    return st;
  };
  {
    Sa sa({.capacity = n}, s);
    emit(ctx, "II", "II  SA  bulk build" + tag, "sa_build", 0,
         three([&] { sa.build(keys.data(), values.data(), n, s); }), {0, 0, kSortBuild, 0},
         "K40c SA");
  }
  if (peers.btree) {
    BTree tree({.node_capacity = btree_nodes(n)}, s);
    emit(ctx, "II", "II  B-tree bulk build" + tag, "btree_build", 0,
         three([&] { tree.build(keys.data(), values.data(), n, s); }), {0, 0, 0, 0}, "");
  }
  if (peers.slab) {
    wg::slab::SlabMap map(slab_config(n), s);
    emit(ctx, "II", "II  slab map bulk build" + tag, "slab_map_build", 0,
         three([&] { map.build(keys.data(), values.data(), n, 0.6, s); }), {0, 0, kCuckooBuild, 0},
         "K40c cuckoo hash");
  }
}

// ---- Tables III and IV: queries at every (sampled) resident batch count ------------------------
void tables34(Ctx& ctx, int log2b, int total_log2, bool lookups, bool ranges, Peers peers) {
  const u64 b = u64(1) << log2b, n = u64(1) << total_log2, batches = n / b;
  cudaStream_t s = ctx.stream;
  wg::DeviceBuffer<u32> keys(n, s), values(n, s), absent(n, s), k1(n, s), k2(n, s), out(n, s);
  wg::DeviceBuffer<u32> counts32(n, s), rk, rv;
  wg::DeviceBuffer<u64> counts(n, s), offsets(n + 1, s);
  wg::DeviceBuffer<std::uint8_t> found(n, s);
  wg::DeviceBuffer<bool> found_b(n, s);
  make_keys<<<grid(n), 256, 0, s>>>(keys.data(), n, 5000 + log2b, 0);
  make_keys<<<grid(n), 256, 0, s>>>(absent.data(), n, 9000 + log2b, 1);
  make_keys<<<grid(n), 256, 0, s>>>(values.data(), n, 3, 1);
  u32 levels = 1;
  while ((b << levels) - b < n) ++levels;
  wg::LsmOptions lo{.batch_size = b, .num_levels = levels};
  if (ctx.range_slot >= 0) lo.range_slot = static_cast<u32>(ctx.range_slot);
  Lsm lsm(lo, s);
  Sa sa({.capacity = n}, s);
  // The B-tree and the slab map grow batch by batch beside the LSM (untimed), as in Table II.
  std::optional<BTree> tree;
  std::optional<wg::slab::SlabMap> map;
  if (peers.btree) tree.emplace(wg::btree::BTreeOptions{.node_capacity = btree_nodes(n)}, s);
  if (peers.slab) map.emplace(slab_config(n), s);
  const auto rs = sample_r(batches, ctx.samples);
  Stat none, all, sa_none, sa_all, bt_none, bt_all, sl_none, sl_all;
  Stat cnt[2], rng[2], sa_cnt[2], sa_rng[2], bt_cnt[2], bt_rng[2];
  const u64 Ls[2] = {8, 1024};
  u64 inserted = 0;
  for (u64 r : rs) {
    for (; inserted < r; ++inserted) {
      const u32* K = keys.data() + inserted * b;
      const u32* V = values.data() + inserted * b;
      lsm.insert(K, V, b, s);
      if (tree) tree->insert(K, V, b, s);
      if (map) (void)map->insert(K, V, b, s);
    }
    const u64 m = r * b;  // resident elements = queries
    sa.build(keys.data(), values.data(), m, s);
    auto rate = [&](u64 q, auto&& fn) { return q / wg::bench::cuda_seconds(s, fn) * 1e-6; };
    const u32 *A = absent.data(), *P = keys.data();
    if (lookups) {
      none.rates.push_back(rate(m, [&] { lsm.find(A, m, out.data(), found.data(), s); }));
      all.rates.push_back(rate(m, [&] { lsm.find(P, m, out.data(), found.data(), s); }));
      sa_none.rates.push_back(rate(m, [&] { sa.find(A, m, out.data(), found.data(), s); }));
      sa_all.rates.push_back(rate(m, [&] { sa.find(P, m, out.data(), found.data(), s); }));
      if (peers.btree) {
        bt_none.rates.push_back(rate(m, [&] { tree->find(A, m, out.data(), found_b.data(), s); }));
        bt_all.rates.push_back(rate(m, [&] { tree->find(P, m, out.data(), found_b.data(), s); }));
      }
      if (peers.slab) {
        sl_none.rates.push_back(
            rate(m, [&] { map->find_async(A, m, out.data(), found_b.data(), s); }));
        sl_all.rates.push_back(
            rate(m, [&] { map->find_async(P, m, out.data(), found_b.data(), s); }));
      }
    }
    if (ranges) {
      for (int li = 0; li < 2; ++li) {
        // Keys are even numbers below 2^31: width L * 2^31 / m holds L of them on average.
        const u32 width = static_cast<u32>(std::min<double>(Ls[li] * 2147483648.0 / m, 2e9));
        const u64 q = std::min<u64>(m, (u64(1) << 26) / Ls[li]);  // answers must fit
        make_bounds<<<grid(q), 256, 0, s>>>(k1.data(), k2.data(), q, 17 * r + li, width);
        const u32 *lo_k = k1.data(), *hi_k = k2.data();
        cnt[li].rates.push_back(rate(q, [&] { lsm.count(lo_k, hi_k, q, counts.data(), s); }));
        sa_cnt[li].rates.push_back(rate(q, [&] { sa.count(lo_k, hi_k, q, counts.data(), s); }));
        rng[li].rates.push_back(rate(q, [&] { (void)lsm.range(lo_k, hi_k, q, s); }));
        sa_rng[li].rates.push_back(rate(q, [&] { (void)sa.range(lo_k, hi_k, q, s); }));
        if (peers.btree) {
          bt_cnt[li].rates.push_back(
              rate(q, [&] { tree->count(lo_k, hi_k, q, counts32.data(), s); }));
          bt_rng[li].rates.push_back(
              rate(q, [&] { tree->range(lo_k, hi_k, q, offsets.data(), rk, rv, s); }));
        }
      }
    }
  }
  const std::string tag = " b=2^" + std::to_string(log2b);
  if (lookups) {
    const Row3 pn = paper(kTable3, log2b, false), pa = paper(kTable3, log2b, true);
    emit(ctx, "III", "III LSM lookup none" + tag, "lsm_lookup_none", log2b, none, pn, "K40c LSM");
    emit(ctx, "III", "III LSM lookup all" + tag, "lsm_lookup_all", log2b, all, pa, "K40c LSM");
    emit(ctx, "III", "III SA  lookup none" + tag, "sa_lookup_none", log2b, sa_none,
         {0, 0, pn.sa, 0}, "K40c SA");
    emit(ctx, "III", "III SA  lookup all" + tag, "sa_lookup_all", log2b, sa_all, {0, 0, pa.sa, 0},
         "K40c SA");
    if (peers.btree) {
      emit(ctx, "III", "III B-tree lookup none" + tag, "btree_lookup_none", log2b, bt_none,
           {0, 0, 0, 0}, "");
      emit(ctx, "III", "III B-tree lookup all" + tag, "btree_lookup_all", log2b, bt_all,
           {0, 0, 0, 0}, "");
    }
    if (peers.slab) {
      emit(ctx, "III", "III slab map lookup none" + tag, "slab_map_lookup_none", log2b, sl_none,
           {0, 0, kCuckooNone, 0}, "K40c cuckoo hash");
      emit(ctx, "III", "III slab map lookup all" + tag, "slab_map_lookup_all", log2b, sl_all,
           {0, 0, kCuckooAll, 0}, "K40c cuckoo hash");
    }
  }
  if (ranges) {
    for (int li = 0; li < 2; ++li) {
      const std::string L = std::to_string(Ls[li]);
      const std::string l = " L=" + L + tag;
      const Row3 pc = paper(kTable4Count, log2b, li == 1), pr = paper(kTable4Range, log2b, li == 1);
      emit(ctx, "IV", "IV  LSM count" + l, "lsm_count_L" + L, log2b, cnt[li], pc, "K40c LSM");
      emit(ctx, "IV", "IV  SA  count" + l, "sa_count_L" + L, log2b, sa_cnt[li], {0, 0, pc.sa, 0},
           "K40c SA");
      emit(ctx, "IV", "IV  LSM range" + l, "lsm_range_L" + L, log2b, rng[li], pr, "K40c LSM");
      emit(ctx, "IV", "IV  SA  range" + l, "sa_range_L" + L, log2b, sa_rng[li], {0, 0, pr.sa, 0},
           "K40c SA");
      if (peers.btree) {
        emit(ctx, "IV", "IV  B-tree count" + l, "btree_count_L" + L, log2b, bt_cnt[li],
             {0, 0, 0, 0}, "");
        emit(ctx, "IV", "IV  B-tree range" + l, "btree_range_L" + L, log2b, bt_rng[li],
             {0, 0, 0, 0}, "");
      }
    }
    if (peers.slab)
      std::printf("IV  slab map count/range%s: n/a (a hash table has no key order)\n", tag.c_str());
  }
}

// ---- Cleanup (Section V-D): n = (2^k - 1) b with a fraction of stale elements -----------------
void cleanup_rate(Ctx& ctx, int log2b, int k, double stale, double paper_rate) {
  const u64 b = u64(1) << log2b, batches = (u64(1) << k) - 1, n = batches * b;
  cudaStream_t s = ctx.stream;
  wg::DeviceBuffer<u32> keys(n, s), values(n, s);
  make_keys<<<grid(n), 256, 0, s>>>(keys.data(), n, 40000 + log2b, 0);
  make_keys<<<grid(n), 256, 0, s>>>(values.data(), n, 5, 1);
  // A `stale` fraction of every batch after the first re-inserts keys of the previous batch.
  const u64 repeat = static_cast<u64>(stale * b);
  for (u64 r = 1; r < batches; ++r)
    WG_CUDA_TRY(cudaMemcpyAsync(keys.data() + r * b, keys.data() + (r - 1) * b,
                                repeat * sizeof(u32), cudaMemcpyDeviceToDevice, s));
  Stat st;
  for (int rep = 0; rep < 3; ++rep) {
    Lsm lsm({.batch_size = b, .num_levels = static_cast<u32>(k)}, s);
    for (u64 r = 0; r < batches; ++r) lsm.insert(keys.data() + r * b, values.data() + r * b, b, s);
    st.rates.push_back(n / wg::bench::cuda_seconds(s, [&] { lsm.cleanup(s); }) * 1e-6);
  }
  const std::string label = "V-D cleanup b=2^" + std::to_string(log2b) + " n=(2^" +
                            std::to_string(k) + "-1)b " + std::to_string(int(stale * 100)) + "%";
  emit(ctx, "V-D", label, "lsm_cleanup_" + std::to_string(int(stale * 100)), log2b, st,
       {0, 0, paper_rate, 0}, "K40c LSM");
}

/// Prints the seconds since the previous call (the lead keeps the run within its budget).
void lap(const char* what) {
  static auto t0 = std::chrono::steady_clock::now();
  const auto t1 = std::chrono::steady_clock::now();
  std::printf("-- %s: %.1f s\n", what, std::chrono::duration<double>(t1 - t0).count());
  std::fflush(stdout);
  t0 = t1;
}

}  // namespace

int main(int argc, char** argv) {
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);  // before the first CUDA call: no lazy loading
  cxxopts::Options opts("lsm_bench", "GPU LSM paper Tables II-IV and cleanup, beside the K40c");
  opts.add_options()("json", "write JSON records here",
                     cxxopts::value<std::string>()->default_value(""))(
      "quick", "small sizes (smoke test)")("min-log2", "smallest log2 b",
                                           cxxopts::value<int>()->default_value("16"))(
      "max-log2", "largest log2 b", cxxopts::value<int>()->default_value("24"))(
      "total-log2", "log2 of Table II's total elements",
      cxxopts::value<int>()->default_value("27"))("query-log2",
                                                  "log2 of Table III/IV's resident elements",
                                                  cxxopts::value<int>()->default_value("24"))(
      "samples", "resident batch counts measured per b (at most)",
      cxxopts::value<int>()->default_value("24"))(
      "range-slot", "LsmOptions::range_slot for Table IV (-1: default; 0: the two-walk scheme)",
      cxxopts::value<int>()->default_value("-1"))(
      "only", "comma list of: 2,3,4,cleanup,build,slab,btree",
      cxxopts::value<std::string>()->default_value("2,3,4,cleanup,build,slab,btree"))("help",
                                                                                      "usage");
  auto args = opts.parse(argc, argv);
  if (args.count("help")) {
    std::printf("%s\n", opts.help().c_str());
    return 0;
  }
  const bool quick = args.count("quick") > 0;
  int min_log2 = args["min-log2"].as<int>(), max_log2 = args["max-log2"].as<int>();
  int total_log2 = args["total-log2"].as<int>(), query_log2 = args["query-log2"].as<int>();
  if (quick) {
    min_log2 = 14;
    max_log2 = std::min(max_log2, 18);
    total_log2 = std::min(total_log2, 20);
    query_log2 = std::min(query_log2, 20);
  }
  const std::string only = "," + args["only"].as<std::string>() + ",";
  auto want = [&](const char* w) {
    return only.find("," + std::string(w) + ",") != std::string::npos;
  };
  const Peers peers{.slab = want("slab"), .btree = want("btree")};
  wg::CudaStream stream;
  // Keep freed memory in the pool between batches (the default threshold returns it at every
  // synchronisation, and the LSM's merges allocate per batch).
  int dev = 0;
  cudaMemPool_t pool;
  WG_CUDA_TRY(cudaGetDevice(&dev));
  WG_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, dev));
  u64 threshold = ~u64(0);
  WG_CUDA_TRY(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  Ctx ctx{stream, {}, std::max(2, args["samples"].as<int>()), args["range-slot"].as<int>()};
  std::printf("GPU: %s; K40c figures from the paper (M/s); the paper has no B-tree\n",
              wg::bench::gpu_name().c_str());
  lap("start");
  {  // warm-up: every kernel once, untimed
    Ctx warm{stream, {}, 2};
    const Peers all{.slab = true, .btree = true};
    table2(warm, 10, 12, true, true, all);
    bulk_builds(warm, 12, all);
    tables34(warm, 10, 12, true, true, all);
    cleanup_rate(warm, 10, 3, 0.1, 0);
  }
  lap("warm-up");
  if (want("2")) {
    for (int l = min_log2; l <= max_log2 && l <= total_log2; ++l)
      table2(ctx, l, total_log2, /*with_sa=*/(total_log2 - l) <= 7, want("build"), peers);
    lap("Table II");
  }
  if (want("build")) {
    bulk_builds(ctx, total_log2, peers);
    lap("bulk builds");
  }
  if (want("3") || want("4")) {
    for (int l = min_log2; l <= max_log2 && l <= query_log2; ++l)
      tables34(ctx, l, query_log2, want("3"), want("4") && l <= 20, peers);
    lap("Tables III and IV");
  }
  if (want("cleanup")) {
    const int b1 = quick ? 14 : 20, b2 = quick ? 13 : 19;
    cleanup_rate(ctx, b1, 6, 0.1, 1870.2);
    cleanup_rate(ctx, b1, 6, 0.5, 1828.2);
    cleanup_rate(ctx, b2, 7, 0.1, 1842.5);
    cleanup_rate(ctx, b2, 7, 0.5, 1794.3);
    lap("cleanup");
  }
  const std::string json = args["json"].as<std::string>();
  if (!json.empty()) ctx.report.write(json);
  return 0;
}
