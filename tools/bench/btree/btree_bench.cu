// btree_bench: the GPU B-Tree paper's tables (Awad et al., PPoPP'19) for wg::btree::BTree, each
// rate beside the paper's figure (V100) and the GpuBTree peer's (H200, tools/bench/btree/
// device_bench.sh runs it in the same job): insertion into an empty tree and in batches of
// 2^16..2^22 into built trees, search, range (expected 8 hits), successor, deletion of 10-50%,
// bulk build, and the concurrent mix (alpha = fraction of updates). Keys: distinct, uniformly
// spread over [0, 2^31) (a bijective mix of the index), values = index.
//
//   btree_bench [--max-log 24] [--quick] [--reps 5] [--json FILE]
// Timing: CUDA events around each bulk call (which includes its sort and count read-back).
#include <cuda_runtime_api.h>

#include <cxxopts.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <warpgraph/containers/btree/btree.cuh>
#include <warpgraph/containers/core/cuda_stream.hpp>
#include <warpgraph/containers/core/device_buffer.cuh>

#include "../cuda_timer.cuh"
#include "../harness.hpp"

namespace {

using wg::DeviceBuffer;
using BTree = wg::btree::BTree<>;
using Op = wg::btree::Op<>;
using wg::btree::OpKind;
using OpResult = wg::btree::OpResult<>;
using u32 = std::uint32_t;

/// A bijection of [0, 2^31): distinct indices give distinct, well spread keys.
__host__ __device__ inline u32 mix31(u32 x) {
  constexpr u32 kMask = 0x7FFFFFFFu;
  x &= kMask;
  x ^= x >> 15;
  x = (x * 0x2C1B3C6Du) & kMask;
  x ^= x >> 12;
  x = (x * 0x297A2D39u) & kMask;
  x ^= x >> 15;
  return x;
}

__global__ void fill_keys(u32* keys, u32* values, std::uint64_t n, u32 first) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    keys[i] = mix31(static_cast<u32>(first + i));
    if (values) values[i] = static_cast<u32>(first + i);
  }
}

__global__ void fill_ranges(const u32* keys, std::uint64_t n, u32 width, u32* lo, u32* hi) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    lo[i] = keys[i];
    hi[i] = keys[i] + width;
  }
}

void gen(DeviceBuffer<u32>& k, DeviceBuffer<u32>* v, std::uint64_t n, u32 first, cudaStream_t s) {
  k.resize_discard(n);
  if (v) v->resize_discard(n);
  fill_keys<<<1024, 256, 0, s>>>(k.data(), v ? v->data() : nullptr, n, first);
  WG_CUDA_CHECK_LAST();
}

std::uint64_t nodes_for(std::uint64_t keys) {
  return keys / 5 + 4096;
}

struct Ctx {
  wg::bench::MeasureOptions m;
  wg::bench::Report report;
  std::string gpu;
  void row(const std::string& bench, std::uint64_t n, std::uint64_t extra, double rate,
           double paper, double peer) {
    char label[96];
    std::snprintf(label, sizeof label, "%s n=2^%d%s", bench.c_str(),
                  static_cast<int>(std::log2(double(n))),
                  extra ? (" b=2^" + std::to_string(int(std::log2(double(extra))))).c_str() : "");
    wg::bench::print_row(label, rate / 1e6, paper, "M/s");
    if (peer > 0)
      std::printf("%-48s %10s %-8s peer  %10.3f  (x%.2f)\n", "", "", "", peer, rate / 1e6 / peer);
    report.add({{"bench", bench},
                {"n", n},
                {"batch", extra},
                {"rate", rate},
                {"paper_mops", paper},
                {"peer_h200_mops", peer},
                {"gpu", gpu}});
  }
};

// Paper (V100) and peer (GpuBTree on an H200, shared/peers/README.md) figures, M/s.
double peer_at(int log_n, double a20, double a22, double a24) {
  return log_n == 20 ? a20 : log_n == 22 ? a22 : log_n == 24 ? a24 : 0;
}

void run_size(Ctx& c, int log_n, const std::vector<int>& batch_logs, cudaStream_t s) {
  const std::uint64_t n = 1ull << log_n;
  DeviceBuffer<u32> keys, values, q, out_v, out_k;
  DeviceBuffer<bool> found(n, s);
  gen(keys, &values, n, 0, s);
  out_v.resize_discard(n);
  out_k.resize_discard(n);
  BTree tree({.node_capacity = nodes_for(n + (1u << 22) * 4)}, s);
  auto insert_all = [&] { tree.insert(keys.data(), values.data(), n, s); };

  // Insertion of all keys into an empty tree, one batch.
  auto ins = wg::bench::measure(c.m, [&] {
    tree.clear(s);
    return wg::bench::cuda_seconds(s, insert_all);
  });
  c.row("insert", n, 0, n / ins.median(), 0, peer_at(log_n, 122, 383, 690));

  // Search for every key (in index order, i.e. random key order).
  auto se = wg::bench::measure(c.m, [&] {
    return wg::bench::cuda_seconds(
        s, [&] { tree.find(keys.data(), n, out_v.data(), found.data(), s); });
  });
  c.row("search", n, 0, n / se.median(), 1020.27, peer_at(log_n, 2695, 2365, 2128));

  // Successor of every key.
  auto su = wg::bench::measure(c.m, [&] {
    return wg::bench::cuda_seconds(
        s, [&] { tree.successor(keys.data(), n, out_k.data(), out_v.data(), found.data(), s); });
  });
  c.row("successor", n, 0, n / su.median(), 783.13, 0);

  // Range with 8 keys expected: [k, k + 8 * 2^31 / n).
  {
    const std::uint64_t nq = std::min<std::uint64_t>(n, 1u << 22);
    DeviceBuffer<u32> lo(nq, s), hi(nq, s), rk, rv;
    DeviceBuffer<std::uint64_t> off(nq + 1, s);
    DeviceBuffer<u32> counts(nq, s);
    fill_ranges<<<1024, 256, 0, s>>>(keys.data(), nq, static_cast<u32>((8ull << 31) / n) - 1,
                                     lo.data(), hi.data());
    auto ra = wg::bench::measure(c.m, [&] {
      return wg::bench::cuda_seconds(
          s, [&] { tree.range(lo.data(), hi.data(), nq, off.data(), rk, rv, s); });
    });
    c.row("range_L8", n, 0, nq / ra.median(), 502.28, peer_at(log_n, 4158, 3839, 3327));
    auto co = wg::bench::measure(c.m, [&] {
      return wg::bench::cuda_seconds(
          s, [&] { tree.count(lo.data(), hi.data(), nq, counts.data(), s); });
    });
    c.row("count_L8", n, 0, nq / co.median(), 0, 0);
  }

  // Deletion of 10%, 30%, 50% of the keys (tree rebuilt by inserts, untimed).
  for (double f : {0.1, 0.3, 0.5}) {
    const std::uint64_t d = static_cast<std::uint64_t>(n * f);
    auto de = wg::bench::measure(c.m, [&] {
      tree.clear(s);
      insert_all();
      return wg::bench::cuda_seconds(s, [&] { tree.erase(keys.data(), d, s); });
    });
    c.row("delete_" + std::to_string(int(f * 100)) + "pct", n, 0, d / de.median(), 576,
          peer_at(log_n, 2320, 2259, 2068));
  }

  // Bulk build from the unsorted pairs.
  auto bb = wg::bench::measure(c.m, [&] {
    return wg::bench::cuda_seconds(s, [&] { tree.build(keys.data(), values.data(), n, s); });
  });
  c.row("bulk_build", n, 0, n / bb.median(), 3124.32, 0);

  // Batches of b new keys into the built tree of n keys.
  const double paper_batch[] = {168.0, 139.7, 171.7, 190.3, 205.1, 211.9, 223.0};
  for (int lb : batch_logs) {
    const std::uint64_t b = 1ull << lb;
    DeviceBuffer<u32> bk, bv;
    int rep = 0;
    auto bi = wg::bench::measure(c.m, [&] {
      if (rep % 4 == 0) tree.build(keys.data(), values.data(), n, s);
      gen(bk, &bv, b, static_cast<u32>(n + b * (rep % 4)), s);
      ++rep;
      return wg::bench::cuda_seconds(s, [&] { tree.insert(bk.data(), bv.data(), b, s); });
    });
    c.row("insert_batch", n, b, b / bi.median(), lb >= 16 && lb <= 22 ? paper_batch[lb - 16] : 0,
          0);
  }

  // Concurrent mix: n' = min(n, 2^22) operations on the n-key tree, a fraction alpha updates
  // (half inserts of new keys, half erasures of present ones), the rest split between find,
  // range (8 expected) and successor.
  {
    const std::uint64_t ops_n = std::min<std::uint64_t>(n, 1u << 22);
    std::vector<u32> hk(ops_n);
    keys.copy_to_host(hk.data(), ops_n, s);
    WG_CUDA_TRY(cudaStreamSynchronize(s));
    const u32 width = static_cast<u32>((8ull << 31) / n) - 1;
    const double paper_mix[] = {247.67, 257.25, 237.79};
    int ai = 0;
    for (double alpha : {0.2, 0.6, 1.0}) {
      std::mt19937 rng(42);
      std::vector<Op> ops(ops_n);
      for (std::uint64_t i = 0; i < ops_n; ++i) {
        const double r = std::uniform_real_distribution<double>(0, 1)(rng);
        const u32 present = hk[rng() % ops_n];
        if (r < alpha / 2)
          ops[i] = {OpKind::kInsert, mix31(static_cast<u32>(n + i)), static_cast<u32>(i)};
        else if (r < alpha)
          ops[i] = {OpKind::kErase, present, 0};
        else {
          const u32 k3 = rng() % 3;
          ops[i] = k3 == 0   ? Op{OpKind::kFind, present, 0}
                   : k3 == 1 ? Op{OpKind::kRangeCount, present, present + width}
                             : Op{OpKind::kSuccessor, present, 0};
        }
      }
      auto dops = DeviceBuffer<Op>::from_host(ops, s);
      DeviceBuffer<OpResult> res(ops_n, s);
      auto mx = wg::bench::measure(c.m, [&] {
        tree.build(keys.data(), values.data(), n, s);
        return wg::bench::cuda_seconds(s, [&] { tree.apply(dops.data(), ops_n, res.data(), s); });
      });
      char name[32];
      std::snprintf(name, sizeof name, "concurrent_a%.1f", alpha);
      c.row(name, n, 0, ops_n / mx.median(), paper_mix[ai++], 0);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  cxxopts::Options opts("btree_bench", "GPU B-link tree: the GPU B-Tree paper's tables");
  opts.add_options()("max-log", "largest tree, log2 keys (up to 26)",
                     cxxopts::value<int>()->default_value("24"))(
      "min-log", "smallest tree, log2 keys", cxxopts::value<int>()->default_value("20"))(
      "quick", "trees up to 2^22, 3 repetitions")("reps", "timed repetitions",
                                                  cxxopts::value<int>()->default_value("5"))(
      "json", "write the records to FILE", cxxopts::value<std::string>())("h,help", "help");
  const auto a = opts.parse(argc, argv);
  if (a.count("help")) {
    std::printf("%s\n", opts.help().c_str());
    return 0;
  }
  Ctx c;
  c.gpu = wg::bench::gpu_name();
  const bool quick = a.count("quick") > 0;
  c.m = {.warmup = 1, .repetitions = quick ? 3 : a["reps"].as<int>()};
  const int max_log = std::min(26, quick ? 22 : a["max-log"].as<int>());
  std::printf("btree_bench on %s (rates in M/s; paper: V100, PPoPP'19; peer: GpuBTree, H200)\n",
              c.gpu.c_str());
  wg::CudaStream s;
  for (int lg = a["min-log"].as<int>(); lg <= max_log; lg += 2) {
    std::vector<int> batches;
    for (int lb = 16; lb <= 22 && lb <= lg; lb += 2) batches.push_back(lb);
    run_size(c, lg, batches, s);
  }
  if (a.count("json")) c.report.write(a["json"].as<std::string>());
  return 0;
}
