// lsm_bench: the GPU LSM paper's tables (Ashkiani et al., IPDPS'18) on this GPU, each figure
// beside the paper's K40c one: Table II (insertion rate min / max / harmonic mean over resident
// batch counts r, b = 2^16..2^24, n = 2^27 total), Table III (lookup, all / none present, n =
// 2^24), Table IV (count and range, expected L = 8 and 1024), the cleanup rate (Section V-D) and
// bulk build; the sorted array and the slab hash map on the same workloads where they apply.
//
//   lsm_bench [--quick] [--min-log2 16] [--max-log2 24] [--total-log2 27] [--samples 24]
//             [--json FILE] [--only 2,3,4,cleanup,slab] [--range-slot N]
// Rates are harmonic means over r (as the paper); queries: r*b of them per sampled r (capped for
// L = 1024, whose answers would not fit). --samples bounds how many r values are measured per b
// (evenly spaced, ends included; all of them when fewer).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include <cxxopts.hpp>

#include <tools/bench/cuda_timer.cuh>
#include <tools/bench/harness.hpp>
#include <warpgraph/containers/core/cuda_stream.hpp>
#include <warpgraph/containers/lsm/lsm.cuh>
#include <warpgraph/containers/slab_hash/slab_hash.cuh>
#include <warpgraph/containers/sorted_array/sorted_array.cuh>

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using Lsm = wg::Lsm<u32>;
using Sa = wg::SortedArray<u32>;

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

struct Stat {
  std::vector<double> rates;  // M/s
  double min() const { return rates.empty() ? 0 : *std::min_element(rates.begin(), rates.end()); }
  double max() const { return rates.empty() ? 0 : *std::max_element(rates.begin(), rates.end()); }
  double mean() const { return wg::bench::harmonic_mean(rates); }
};

// The paper's K40c figures (M/s), by log2 b.
struct Row3 {
  double min, max, mean, sa;
};
const std::map<int, std::pair<Row3, Row3>> kTable2 = {  // LSM {min,max,mean}, SA {min,max,mean}
    {27, {{727.8, 727.8, 727.8, 0}, {727.8, 727.8, 727.8, 0}}},
    {26, {{585.3, 727.7, 648.8, 0}, {583.1, 727.7, 647.4, 0}}},
    {25, {{421.1, 727.1, 585.5, 0}, {472.2, 726.8, 561.2, 0}}},
    {24, {{270.3, 727.1, 537.9, 0}, {346.0, 727.0, 459.2, 0}}},
    {23, {{155.5, 726.3, 485.2, 0}, {224.0, 723.2, 334.0, 0}}},
    {22, {{84.3, 714.8, 441.2, 0}, {132.6, 709.9, 219.2, 0}}},
    {21, {{44.0, 694.0, 398.1, 0}, {74.2, 691.2, 131.2, 0}}},
    {20, {{22.4, 664.2, 354.1, 0}, {39.8, 658.7, 73.8, 0}}},
    {19, {{11.3, 558.2, 289.4, 0}, {20.5, 555.9, 39.4, 0}}},
    {18, {{5.6, 432.0, 220.7, 0}, {10.5, 422.1, 20.3, 0}}},
    {17, {{2.8, 326.8, 159.9, 0}, {2.6, 319.1, 10.3, 0}}},
    {16, {{1.4, 194.3, 98.0, 0}, {1.3, 184.8, 5.2, 0}}},
    {15, {{0.7, 101.4, 58.4, 0}, {0.6, 95.9, 2.6, 0}}}};
const std::map<int, std::pair<Row3, Row3>> kTable3 = {  // none {min,max,mean,SA}, all {...}
    {24, {{116.8, 116.8, 116.8, 106.8}, {106.8, 106.8, 106.8, 116.7}}},
    {23, {{116.8, 133.1, 124.4, 112.4}, {106.8, 118.6, 112.4, 124.3}}},
    {22, {{61.6, 183.1, 105.9, 113.9}, {74.7, 142.2, 104.7, 128.9}}},
    {21, {{41.4, 237.4, 84.0, 118.4}, {51.7, 194.7, 91.1, 132.9}}},
    {20, {{30.7, 291.3, 68.4, 120.3}, {39.3, 251.1, 77.6, 135.0}}},
    {19, {{25.2, 331.7, 57.7, 123.4}, {32.0, 299.2, 67.5, 138.7}}},
    {18, {{22.0, 361.5, 51.1, 125.4}, {27.2, 332.0, 60.7, 141.2}}},
    {17, {{19.5, 376.7, 47.4, 126.8}, {24.3, 347.3, 56.7, 143.0}}},
    {16, {{18.1, 386.1, 45.5, 127.6}, {22.7, 365.7, 54.9, 144.1}}}};
const std::map<int, std::pair<Row3, Row3>> kTable4Count = {  // L=8 {min,max,mean,SA}, L=1024
    {20, {{27.0, 103.7, 48.0, 73.5}, {2.58, 4.17, 3.01, 4.10}}},
    {19, {{22.4, 94.1, 39.8, 68.6}, {2.51, 4.13, 2.86, 4.09}}},
    {18, {{19.0, 82.9, 35.1, 63.0}, {2.44, 4.10, 2.79, 4.08}}},
    {17, {{16.2, 67.6, 27.4, 56.1}, {2.36, 4.06, 2.63, 4.04}}},
    {16, {{15.1, 44.7, 23.9, 47.3}, {2.32, 3.99, 2.57, 3.99}}}};
const std::map<int, std::pair<Row3, Row3>> kTable4Range = {
    {20, {{23.2, 72.1, 38.4, 42.2}, {1.27, 1.80, 1.43, 1.81}}},
    {19, {{19.4, 63.2, 31.9, 38.2}, {1.25, 1.81, 1.37, 1.81}}},
    {18, {{14.6, 50.5, 24.9, 33.8}, {1.23, 1.81, 1.35, 1.81}}},
    {17, {{12.9, 36.3, 19.8, 29.1}, {1.20, 1.81, 1.28, 1.81}}},
    {16, {{11.0, 23.0, 15.1, 25.0}, {1.18, 1.76, 1.27, 1.80}}}};

template <class M>
Row3 paper(const M& table, int log2b, bool second) {
  auto it = table.find(log2b);
  if (it == table.end()) return {0, 0, 0, 0};
  return second ? it->second.second : it->second.first;
}

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

void print_stat(const std::string& label, const Stat& s, const Row3& p) {
  std::printf("%-34s min %9.1f max %9.1f mean %9.1f M/s | K40c %7.1f %7.1f %7.1f (mean x%.1f)\n",
              label.c_str(), s.min(), s.max(), s.mean(), p.min, p.max, p.mean,
              p.mean > 0 ? s.mean() / p.mean : 0.0);
}

void record(Ctx& ctx, const char* table, const std::string& what, int log2b, const Stat& s,
            const Row3& p) {
  const std::string t = table;
  const std::string figure = what == "lsm_build" ? "GPU LSM bulk build rate (n = 2^27)"
                             : t == "II"  ? "GPU LSM Table II: insertion rate (harmonic mean)"
                             : t == "III" ? "GPU LSM Table III: lookup rate (harmonic mean)"
                             : t == "IV"  ? "GPU LSM Table IV: count and range rate (harmonic mean)"
                                          : "GPU LSM cleanup rate";
  ctx.report.add({{"bench", "lsm_table" + t},
                  {"figure", figure},
                  {"series", what},
                  {"x", log2b},
                  {"x_label", "log2 b"},
                  {"value", s.mean()},
                  {"paper", p.mean},
                  {"what", what},
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

// ---- Table II: insertion rate over every resident batch count --------------------------------
void table2(Ctx& ctx, int log2b, int total_log2, bool with_sa, bool with_slab) {
  const u64 b = u64(1) << log2b, n = u64(1) << total_log2, batches = n / b;
  cudaStream_t s = ctx.stream;
  wg::DeviceBuffer<u32> keys(n, s), values(n, s);
  make_keys<<<grid(n), 256, 0, s>>>(keys.data(), n, 1000 + log2b, 0);
  make_keys<<<grid(n), 256, 0, s>>>(values.data(), n, 77, 1);
  u32 levels = 1;
  while ((b << levels) - b < n) ++levels;
  Lsm lsm({.batch_size = b, .num_levels = levels}, s);
  Stat st;
  for (u64 r = 0; r < batches; ++r) {
    const double sec = wg::bench::cuda_seconds(
        s, [&] { lsm.insert(keys.data() + r * b, values.data() + r * b, b, s); });
    st.rates.push_back(b / sec * 1e-6);
  }
  print_stat("II  LSM insert b=2^" + std::to_string(log2b), st, paper(kTable2, log2b, false));
  record(ctx, "II", "lsm_insert", log2b, st, paper(kTable2, log2b, false));
  if (with_sa) {
    Sa sa({.capacity = n}, s);
    Stat ss;
    for (u64 r = 0; r < batches; ++r) {
      const double sec = wg::bench::cuda_seconds(
          s, [&] { sa.insert(keys.data() + r * b, values.data() + r * b, b, s); });
      ss.rates.push_back(b / sec * 1e-6);
    }
    print_stat("II  SA  insert b=2^" + std::to_string(log2b), ss, paper(kTable2, log2b, true));
    record(ctx, "II", "sa_insert", log2b, ss, paper(kTable2, log2b, true));
  }
  if (with_slab) {
    wg::slab::SlabTableConfig cfg;
    cfg.expected_keys = n;
    cfg.load_factor = 0.6;
    wg::slab::SlabMap map(cfg, s);
    Stat sh;
    for (u64 r = 0; r < batches; ++r) {
      const double sec = wg::bench::cuda_seconds(
          s, [&] { (void)map.insert(keys.data() + r * b, values.data() + r * b, b, s); });
      sh.rates.push_back(b / sec * 1e-6);
    }
    print_stat("II  slab map insert b=2^" + std::to_string(log2b), sh, {0, 0, 361.7, 0});
    record(ctx, "II", "slab_map_insert", log2b, sh, {0, 0, 361.7, 0});
  }
  // Bulk build of all n (the paper: 728 M/s on the K40c for both LSM and SA).
  Stat bl;
  for (int i = 0; i < 3; ++i)
    bl.rates.push_back(
        n / wg::bench::cuda_seconds(s, [&] { lsm.build(keys.data(), values.data(), n, s); }) *
        1e-6);
  print_stat("II  LSM bulk build n=2^" + std::to_string(total_log2), bl, {0, 0, 728.0, 0});
  record(ctx, "II", "lsm_build", log2b, bl, {0, 0, 728.0, 0});
}

// ---- Tables III and IV: queries at every (sampled) resident batch count ------------------------
void tables34(Ctx& ctx, int log2b, int total_log2, bool lookups, bool ranges) {
  const u64 b = u64(1) << log2b, n = u64(1) << total_log2, batches = n / b;
  cudaStream_t s = ctx.stream;
  wg::DeviceBuffer<u32> keys(n, s), values(n, s), absent(n, s), k1(n, s), k2(n, s), out(n, s);
  wg::DeviceBuffer<u64> counts(n, s);
  wg::DeviceBuffer<std::uint8_t> found(n, s);
  make_keys<<<grid(n), 256, 0, s>>>(keys.data(), n, 5000 + log2b, 0);
  make_keys<<<grid(n), 256, 0, s>>>(absent.data(), n, 9000 + log2b, 1);
  make_keys<<<grid(n), 256, 0, s>>>(values.data(), n, 3, 1);
  u32 levels = 1;
  while ((b << levels) - b < n) ++levels;
  wg::LsmOptions lo{.batch_size = b, .num_levels = levels};
  if (ctx.range_slot >= 0) lo.range_slot = static_cast<u32>(ctx.range_slot);
  Lsm lsm(lo, s);
  Sa sa({.capacity = n}, s);
  const auto rs = sample_r(batches, ctx.samples);
  Stat none, all, sa_none, sa_all;
  Stat cnt[2], rng[2], sa_cnt[2], sa_rng[2];
  const u64 Ls[2] = {8, 1024};
  u64 inserted = 0;
  for (u64 r : rs) {
    while (inserted < r) {
      lsm.insert(keys.data() + inserted * b, values.data() + inserted * b, b, s);
      ++inserted;
    }
    const u64 m = r * b;  // resident elements = queries
    sa.build(keys.data(), values.data(), m, s);
    auto rate = [&](u64 q, auto&& fn) { return q / wg::bench::cuda_seconds(s, fn) * 1e-6; };
    if (lookups) {
      none.rates.push_back(
          rate(m, [&] { lsm.find(absent.data(), m, out.data(), found.data(), s); }));
      all.rates.push_back(rate(m, [&] { lsm.find(keys.data(), m, out.data(), found.data(), s); }));
      sa_none.rates.push_back(
          rate(m, [&] { sa.find(absent.data(), m, out.data(), found.data(), s); }));
      sa_all.rates.push_back(
          rate(m, [&] { sa.find(keys.data(), m, out.data(), found.data(), s); }));
    }
    if (ranges) {
      for (int li = 0; li < 2; ++li) {
        // Keys are even numbers below 2^31: width L * 2^31 / m holds L of them on average.
        const u32 width = static_cast<u32>(std::min<double>(Ls[li] * 2147483648.0 / m, 2e9));
        const u64 q = std::min<u64>(m, (u64(1) << 26) / Ls[li]);  // answers must fit
        make_bounds<<<grid(q), 256, 0, s>>>(k1.data(), k2.data(), q, 17 * r + li, width);
        cnt[li].rates.push_back(
            rate(q, [&] { lsm.count(k1.data(), k2.data(), q, counts.data(), s); }));
        sa_cnt[li].rates.push_back(
            rate(q, [&] { sa.count(k1.data(), k2.data(), q, counts.data(), s); }));
        rng[li].rates.push_back(rate(q, [&] { (void)lsm.range(k1.data(), k2.data(), q, s); }));
        sa_rng[li].rates.push_back(rate(q, [&] { (void)sa.range(k1.data(), k2.data(), q, s); }));
      }
    }
  }
  const std::string tag = " b=2^" + std::to_string(log2b);
  if (lookups) {
    Row3 pn = paper(kTable3, log2b, false), pa = paper(kTable3, log2b, true);
    print_stat("III LSM lookup none" + tag, none, pn);
    print_stat("III LSM lookup all" + tag, all, pa);
    print_stat("III SA  lookup none" + tag, sa_none, {0, 0, pn.sa, 0});
    print_stat("III SA  lookup all" + tag, sa_all, {0, 0, pa.sa, 0});
    record(ctx, "III", "lsm_lookup_none", log2b, none, pn);
    record(ctx, "III", "lsm_lookup_all", log2b, all, pa);
    record(ctx, "III", "sa_lookup_none", log2b, sa_none, {0, 0, pn.sa, 0});
    record(ctx, "III", "sa_lookup_all", log2b, sa_all, {0, 0, pa.sa, 0});
  }
  if (ranges) {
    for (int li = 0; li < 2; ++li) {
      const std::string l = " L=" + std::to_string(Ls[li]) + tag;
      Row3 pc = paper(kTable4Count, log2b, li == 1), pr = paper(kTable4Range, log2b, li == 1);
      print_stat("IV  LSM count" + l, cnt[li], pc);
      print_stat("IV  SA  count" + l, sa_cnt[li], {0, 0, pc.sa, 0});
      print_stat("IV  LSM range" + l, rng[li], pr);
      print_stat("IV  SA  range" + l, sa_rng[li], {0, 0, pr.sa, 0});
      record(ctx, "IV", "lsm_count_L" + std::to_string(Ls[li]), log2b, cnt[li], pc);
      record(ctx, "IV", "sa_count_L" + std::to_string(Ls[li]), log2b, sa_cnt[li], {0, 0, pc.sa, 0});
      record(ctx, "IV", "lsm_range_L" + std::to_string(Ls[li]), log2b, rng[li], pr);
      record(ctx, "IV", "sa_range_L" + std::to_string(Ls[li]), log2b, sa_rng[li], {0, 0, pr.sa, 0});
    }
  }
}

// ---- Slab hash map lookups at n resident (Table III's hash-table column)
// -------------------------
void slab_lookups(Ctx& ctx, int total_log2) {
  const u64 n = u64(1) << total_log2;
  cudaStream_t s = ctx.stream;
  wg::DeviceBuffer<u32> keys(n, s), absent(n, s), out(n, s);
  wg::DeviceBuffer<bool> found(n, s);
  make_keys<<<grid(n), 256, 0, s>>>(keys.data(), n, 5000 + 24, 0);
  make_keys<<<grid(n), 256, 0, s>>>(absent.data(), n, 9000 + 24, 1);
  wg::slab::SlabTableConfig cfg;
  cfg.expected_keys = n;
  cfg.load_factor = 0.6;
  wg::slab::SlabMap map(cfg, s);
  map.insert(keys.data(), keys.data(), n, s);
  Stat none, all;
  for (int i = 0; i < 5; ++i) {
    none.rates.push_back(
        n /
        wg::bench::cuda_seconds(
            s, [&] { map.find_async(absent.data(), n, out.data(), found.data(), s); }) *
        1e-6);
    all.rates.push_back(
        n /
        wg::bench::cuda_seconds(
            s, [&] { map.find_async(keys.data(), n, out.data(), found.data(), s); }) *
        1e-6);
  }
  print_stat("III slab map lookup none n=2^" + std::to_string(total_log2), none, {0, 0, 498.9, 0});
  print_stat("III slab map lookup all n=2^" + std::to_string(total_log2), all, {0, 0, 758.0, 0});
  record(ctx, "III", "slab_lookup_none", 0, none, {0, 0, 498.9, 0});
  record(ctx, "III", "slab_lookup_all", 0, all, {0, 0, 758.0, 0});
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
  print_stat(label, st, {0, 0, paper_rate, 0});
  record(ctx, "V-D", "lsm_cleanup_" + std::to_string(int(stale * 100)), log2b, st,
         {0, 0, paper_rate, 0});
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
      "only", "comma list of: 2,3,4,cleanup,slab",
      cxxopts::value<std::string>()->default_value("2,3,4,cleanup,slab"))("help", "usage");
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
  std::printf("GPU: %s; K40c figures from the paper (M/s)\n", wg::bench::gpu_name().c_str());
  {  // warm-up: every kernel once, untimed
    Ctx warm{stream, {}, 2};
    table2(warm, 10, 12, true, false);
    tables34(warm, 10, 12, true, true);
    cleanup_rate(warm, 10, 3, 0.1, 0);
  }
  if (want("2"))
    for (int l = min_log2; l <= max_log2 && l <= total_log2; ++l)
      table2(ctx, l, total_log2, /*with_sa=*/(total_log2 - l) <= 7, want("slab") && l == 20);
  if (want("3") || want("4"))
    for (int l = min_log2; l <= max_log2 && l <= query_log2; ++l)
      tables34(ctx, l, query_log2, want("3"), want("4") && l <= 20);
  if (want("slab") && want("3")) slab_lookups(ctx, query_log2);
  if (want("cleanup")) {
    const int b1 = quick ? 14 : 20, b2 = quick ? 13 : 19;
    cleanup_rate(ctx, b1, 6, 0.1, 1870.2);
    cleanup_rate(ctx, b1, 6, 0.5, 1828.2);
    cleanup_rate(ctx, b2, 7, 0.1, 1842.5);
    cleanup_rate(ctx, b2, 7, 0.5, 1794.3);
  }
  const std::string json = args["json"].as<std::string>();
  if (!json.empty()) ctx.report.write(json);
  return 0;
}
