// stream_bench: host batches into the GPU graph (issue 36). Per batch size 2^k (k = --min-log2
// .. --max-log2), on a stream of insert batches of uniform random edges over max(2^16, entries /
// 8) vertices, each on a fresh graph: 2^22 entries in all below 2^18; from 2^18 (where the 80%
// target applies) 2^24 entries and at least 16 slot-sized chunks, so that the pipeline's fill and
// drain (one copy before the first update, one update after the last copy) stay small beside
// its steady state:
//   resident      the batches already on the device (DynamicGraph::insert_edges(DeviceEdges))
//   sync_host     today's host path, insert_edges(EdgeList) batch after batch
//   ingest_pageable / ingest_pinned   StreamIngest from std::vector / from PinnedBuffer memory
//   copy_pinned / copy_pageable       cudaMemcpyAsync of the same bytes alone (src and dst)
// and the ratio host / min(copy_pinned, resident) that the issue's target reads (>= 0.8 from
// 2^18). Then, per size, one more StreamIngest run of each kind with the copies timed on the
// device (StreamIngestOptions::time_copies): the seconds each stage was busy (host staging and
// copy issue, device host-to-device time, apply), what waited (the caller for a slot, the apply
// thread for a copy), the wall time, the overlap (sum of the stages / wall: 1 = serial, 3 = all
// busy at once) and the stage that limits. Last, a generated SNAP graph file of --build-edges
// edges built into the GPU graph after its read, and while it is parsed (EdgeUpload). Then file
// replay end to end (read, parse on host threads, ingest; a generated update file of
// --replay-updates lines, plain and gzip): seconds, updates/s, text bytes/s.
//
//   stream_bench [--json FILE] [--min-log2 12] [--max-log2 24] [--reps 3] [--quick]
//                [--replay-updates N] [--replay-dir DIR] [--no-replay] [--copy-threads 8]
//                [--staging-log2 22] [--slots 3] [--parse-threads 0] [--spin-us 200]
// Rates: entries per second (median of --reps runs after one warm-up). Set
// CUDA_MODULE_LOADING=EAGER.
#include <cuda_runtime_api.h>
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <cxxopts.hpp>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/cuda_stream.hpp>
#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/core/pinned_buffer.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/datasets/update_file_reader.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>
#include <warpgraph/graph/gpu/host_batch.hpp>
#include <warpgraph/graph/gpu/stream_ingest.hpp>

#include "../harness.hpp"

namespace {

using wg::EdgeList;
using wg::vertex_t;
using wg::gpu::Graph;
using wg::gpu::UpdateKind;

struct Options {
  int min_log2 = 12, max_log2 = 24, reps = 3;
  std::uint64_t replay_updates = 10'000'000;
  std::string replay_dir, json;
  bool replay = true;
  int copy_threads = 8, staging_log2 = 22, slots = 3;
  unsigned parse_threads = 0;
  std::uint32_t spin_us = 200;
  std::uint64_t build_edges = std::uint64_t{1} << 25;
};

std::uint64_t splitmix(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

wg::gpu::StreamIngestOptions ingest_options(const Options& o, std::uint64_t batch,
                                            bool time_copies = false) {
  return {.staging_entries = std::min<std::uint64_t>(batch, std::uint64_t{1} << o.staging_log2),
          .slots = o.slots,
          .copy_threads = o.copy_threads,
          .wait_spin_us = o.spin_us,
          .time_copies = time_copies};
}

/// Batches of 2^k entries in one measured stream (see the header).
std::uint64_t stream_batches(const Options& o, int k) {
  const std::uint64_t b = std::uint64_t{1} << k;
  if (k < 18) return std::max<std::uint64_t>(4, (std::uint64_t{1} << 22) / b);
  const std::uint64_t chunk = std::min<std::uint64_t>(b, std::uint64_t{1} << o.staging_log2);
  return std::max<std::uint64_t>({4, (std::uint64_t{1} << 24) / b, 16 * chunk / b});
}

double median_of(const Options& o, const std::function<double()>& run) {
  return wg::bench::measure({.warmup = 1, .repetitions = o.reps}, run).median();
}

void batch_sizes(const Options& o, wg::bench::Report& report) {
  std::printf("%6s %9s %8s | %9s %9s %9s %9s %9s %9s | %6s %6s  (G entries/s)\n", "log2", "batches",
              "entries", "resident", "sync", "pageable", "pinned", "copy_pin", "copy_pag", "r_pag",
              "r_pin");
  for (int k = o.min_log2; k <= o.max_log2; ++k) {
    const std::uint64_t b = std::uint64_t{1} << k;
    const std::uint64_t batches = stream_batches(o, k);
    const std::uint64_t n = b * batches;
    const std::uint64_t nv = std::max<std::uint64_t>(1u << 16, n / 8);
    std::vector<EdgeList> host(batches);
    wg::PinnedBuffer<vertex_t> psrc(n), pdst(n);
    std::uint64_t seed = 42 + static_cast<std::uint64_t>(k);
    for (std::uint64_t i = 0; i < batches; ++i) {
      host[i].num_vertices = nv;
      host[i].src.resize(b);
      host[i].dst.resize(b);
      for (std::uint64_t j = 0; j < b; ++j) {
        const std::uint64_t r = splitmix(seed);
        host[i].src[j] = psrc[i * b + j] = static_cast<vertex_t>((r & 0xFFFFFFFFu) % nv);
        host[i].dst[j] = pdst[i * b + j] = static_cast<vertex_t>((r >> 32) % nv);
      }
    }
    wg::DeviceBuffer<vertex_t> dsrc(n), ddst(n);
    WG_CUDA_TRY(cudaMemcpy(dsrc.data(), psrc.data(), n * sizeof(vertex_t), cudaMemcpyHostToDevice));
    WG_CUDA_TRY(cudaMemcpy(ddst.data(), pdst.data(), n * sizeof(vertex_t), cudaMemcpyHostToDevice));

    auto fresh = [&] {
      auto g = std::make_unique<Graph>(nv);
      WG_CUDA_TRY(cudaDeviceSynchronize());
      return g;
    };
    const double resident = median_of(o, [&] {
      auto g = fresh();
      return wg::bench::wall_seconds([&] {
        for (std::uint64_t i = 0; i < batches; ++i)
          g->insert_edges(wg::gpu::DeviceEdges{.src = dsrc.data() + i * b,
                                               .dst = ddst.data() + i * b,
                                               .values = nullptr,
                                               .size = b});
        WG_CUDA_TRY(cudaStreamSynchronize(g->stream()));
      });
    });
    const double sync = median_of(o, [&] {
      auto g = fresh();
      return wg::bench::wall_seconds([&] {
        for (const EdgeList& e : host) g->insert_edges(e);
        WG_CUDA_TRY(cudaStreamSynchronize(g->stream()));
      });
    });
    using Stages = wg::gpu::StreamIngest<Graph>::StageSeconds;
    auto ingest_once = [&](bool pinned, bool timed, Stages* stages) {
      auto g = fresh();
      wg::gpu::StreamIngest<Graph> in(*g, ingest_options(o, b, timed));
      const double s = wg::bench::wall_seconds([&] {
        for (std::uint64_t i = 0; i < batches; ++i) {
          if (pinned) {
            in.submit_pinned(UpdateKind::insert, {.src = psrc.data() + i * b,
                                                  .dst = pdst.data() + i * b,
                                                  .weight = nullptr,
                                                  .size = b,
                                                  .num_vertices = nv});
          } else {
            in.submit(UpdateKind::insert, host[i]);
          }
        }
        in.drain();
        WG_CUDA_TRY(cudaStreamSynchronize(g->stream()));
      });
      if (stages) *stages = in.stage_seconds();
      return s;
    };
    auto ingest_run = [&](bool pinned) {
      return median_of(o, [&] { return ingest_once(pinned, false, nullptr); });
    };
    const double pageable = ingest_run(false), pinned = ingest_run(true);
    wg::CudaStream cs;
    wg::DeviceBuffer<vertex_t> dbuf(2 * b);
    auto copy_run = [&](bool pin) {
      return median_of(o, [&] {
        return wg::bench::wall_seconds([&] {
          for (std::uint64_t i = 0; i < batches; ++i) {
            const vertex_t* s = pin ? psrc.data() + i * b : host[i].src.data();
            const vertex_t* d = pin ? pdst.data() + i * b : host[i].dst.data();
            WG_CUDA_TRY(
                cudaMemcpyAsync(dbuf.data(), s, b * sizeof(vertex_t), cudaMemcpyHostToDevice, cs));
            WG_CUDA_TRY(cudaMemcpyAsync(dbuf.data() + b, d, b * sizeof(vertex_t),
                                        cudaMemcpyHostToDevice, cs));
          }
          cs.synchronize();
        });
      });
    };
    const double copy_pin = copy_run(true), copy_pag = copy_run(false);
    const double nd = static_cast<double>(n);
    const double bound = std::min(nd / copy_pin, nd / resident);
    std::printf("%6d %9llu %8.3g | %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f | %6.2f %6.2f\n", k,
                static_cast<unsigned long long>(batches), nd, nd / resident / 1e9, nd / sync / 1e9,
                nd / pageable / 1e9, nd / pinned / 1e9, nd / copy_pin / 1e9, nd / copy_pag / 1e9,
                nd / pageable / bound, nd / pinned / bound);
    std::fflush(stdout);
    for (auto [name, sec] :
         {std::pair{"resident", resident}, std::pair{"sync_host", sync},
          std::pair{"ingest_pageable", pageable}, std::pair{"ingest_pinned", pinned},
          std::pair{"copy_pinned", copy_pin}, std::pair{"copy_pageable", copy_pag}}) {
      report.add({{"bench", "stream_batches"},
                  {"case", name},
                  {"batch_log2", k},
                  {"batches", batches},
                  {"entries", n},
                  {"vertices", nv},
                  {"seconds", sec},
                  {"rate", nd / sec},
                  {"gbytes_per_s", 8.0 * nd / sec / 1e9}});
    }
    // The breakdown: one more run of each kind, its copies timed on the device.
    for (const bool pin : {false, true}) {
      Stages st;
      const double wall = ingest_once(pin, true, &st);
      const double busy = st.stage + st.h2d + st.apply;
      const char* limit = st.apply >= std::max(st.stage, st.h2d) ? "apply"
                          : st.h2d >= st.stage                   ? "h2d"
                                                                 : "staging";
      std::printf(
          "       %-8s stage %7.2f ms  h2d %7.2f ms  apply %7.2f ms | waits: slot %7.2f ms  "
          "copy %7.2f ms | wall %7.2f ms  overlap %.2f  limit %s (%.0f%% of wall)\n",
          pin ? "pinned" : "pageable", 1e3 * st.stage, 1e3 * st.h2d, 1e3 * st.apply,
          1e3 * st.wait_slot, 1e3 * st.wait_copy, 1e3 * wall, wall > 0 ? busy / wall : 0, limit,
          wall > 0 ? 100 * std::max({st.stage, st.h2d, st.apply}) / wall : 0);
      report.add({{"bench", "stream_breakdown"},
                  {"case", pin ? "ingest_pinned" : "ingest_pageable"},
                  {"batch_log2", k},
                  {"batches", batches},
                  {"entries", n},
                  {"wall_seconds", wall},
                  {"stage_seconds", st.stage},
                  {"h2d_seconds", st.h2d},
                  {"apply_seconds", st.apply},
                  {"wait_slot_seconds", st.wait_slot},
                  {"wait_copy_seconds", st.wait_copy},
                  {"overlap", wall > 0 ? busy / wall : 0},
                  {"limit", limit},
                  {"resident_seconds", resident},
                  {"copy_pinned_seconds", copy_pin}});
    }
    std::fflush(stdout);
    report.add({{"bench", "stream_target"},
                {"batch_log2", k},
                {"bound_rate", bound},
                {"pageable_ratio", nd / pageable / bound},
                {"pinned_ratio", nd / pinned / bound},
                {"target", 0.8},
                {"applies", k >= 18}});
  }
}

/// Writes `updates` lines to `path` and, gzip-compressed, to `gz_path`: batches of 2^20 lines,
/// one in four an erase batch (of ids drawn like the inserts), '=' after each. Formatted and
/// compressed by several threads (each batch its own gzip member: a valid gzip file).
std::uint64_t write_update_files(const std::string& path, const std::string& gz_path,
                                 std::uint64_t updates, std::uint64_t nv) {
  const std::uint64_t per_batch = std::uint64_t{1} << 20;
  const std::uint64_t nb = (updates + per_batch - 1) / per_batch;
  const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
  std::vector<std::string> parts(nb), packed(nb);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (std::uint64_t i = t; i < nb; i += threads) {
        std::string& s = parts[i];
        const std::uint64_t lines = std::min(per_batch, updates - i * per_batch);
        s.reserve(lines * 20 + 4);
        const char op = i % 4 == 3 ? '-' : '+';
        std::uint64_t seed = 7 + i;
        char buf[32];
        for (std::uint64_t j = 0; j < lines; ++j) {
          const std::uint64_t r = splitmix(seed);
          s += op;
          s += ' ';
          auto e = std::to_chars(buf, buf + 32, (r & 0xFFFFFFFFu) % nv).ptr;
          s.append(buf, e);
          s += ' ';
          e = std::to_chars(buf, buf + 32, (r >> 32) % nv).ptr;
          s.append(buf, e);
          s += '\n';
        }
        s += "=\n";
        z_stream z{};
        if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
          throw std::runtime_error("deflateInit2 failed");
        std::string& out = packed[i];
        out.resize(deflateBound(&z, static_cast<uLong>(s.size())));
        z.next_in = reinterpret_cast<Bytef*>(s.data());
        z.avail_in = static_cast<uInt>(s.size());
        z.next_out = reinterpret_cast<Bytef*>(out.data());
        z.avail_out = static_cast<uInt>(out.size());
        if (deflate(&z, Z_FINISH) != Z_STREAM_END) throw std::runtime_error("deflate failed");
        out.resize(z.total_out);
        deflateEnd(&z);
      }
    });
  }
  for (auto& t : pool) t.join();
  std::uint64_t bytes = 0;
  std::ofstream f(path, std::ios::binary), g(gz_path, std::ios::binary);
  for (std::uint64_t i = 0; i < nb; ++i) {
    f.write(parts[i].data(), static_cast<std::streamsize>(parts[i].size()));
    g.write(packed[i].data(), static_cast<std::streamsize>(packed[i].size()));
    bytes += parts[i].size();
  }
  if (!f || !g) throw std::runtime_error(path + ": cannot write");
  return bytes;
}

void replay(const Options& o, wg::bench::Report& report) {
  const std::uint64_t nv = std::max<std::uint64_t>(1u << 16, o.replay_updates / 8);
  const std::string dir =
      o.replay_dir.empty() ? std::filesystem::temp_directory_path().string() : o.replay_dir;
  const std::string plain = dir + "/stream_bench_updates.txt", gz = plain + ".gz";
  const std::uint64_t text_bytes = write_update_files(plain, gz, o.replay_updates, nv);
  std::printf("\nreplay: %llu updates, %.1f MB of text, %.1f MB gzip\n",
              static_cast<unsigned long long>(o.replay_updates), text_bytes / 1e6,
              static_cast<double>(std::filesystem::file_size(gz)) / 1e6);
  for (const std::string& path : {plain, gz}) {
    double wait_s = 0, stage_s = 0, apply_s = 0, copy_wait_s = 0;
    std::uint64_t batches = 0;
    // Long runs: no warm-up (the kernels were loaded by the batch table) and at most 2 reps.
    const double sec =
        wg::bench::measure({.warmup = 0, .repetitions = std::min(o.reps, 2)}, [&] {
          Graph g(nv);
          WG_CUDA_TRY(cudaDeviceSynchronize());
          wg::gpu::StreamIngest<Graph> in(g, ingest_options(o, std::uint64_t{1} << o.staging_log2));
          return wg::bench::wall_seconds([&] {
            // Read, parsed and applied at once (datasets/update_file_reader.hpp).
            const auto sum = wg::datasets::for_each_update_batch_in_file(
                path, true,
                [&](wg::datasets::UpdateBatch&& b) {
                  in.submit(b.kind == wg::datasets::UpdateBatch::Kind::insert ? UpdateKind::insert
                                                                              : UpdateKind::erase,
                            b.edges);
                },
                {.threads = o.parse_threads});
            in.drain();
            wait_s = sum.parse_wait_seconds;
            batches = sum.batches;
            const auto st = in.stage_seconds();
            stage_s = st.stage;
            apply_s = st.apply;
            copy_wait_s = st.wait_copy;
          });
        }).median();
    const double u = static_cast<double>(o.replay_updates);
    std::printf(
        "%-40s %8.3f s  %7.1f M updates/s  %6.2f GB/s of text  (parse wait %.2f s, "
        "staging %.2f s, apply %.2f s, copy wait %.2f s)\n",
        path.c_str(), sec, u / sec / 1e6, text_bytes / sec / 1e9, wait_s, stage_s, apply_s,
        copy_wait_s);
    report.add({{"bench", "stream_replay"},
                {"file", path == gz ? "gzip" : "plain"},
                {"updates", o.replay_updates},
                {"batches", batches},
                {"text_bytes", text_bytes},
                {"seconds", sec},
                {"updates_per_s", u / sec},
                {"text_bytes_per_s", text_bytes / sec},
                {"parse_wait_seconds", wait_s},
                {"staging_seconds", stage_s},
                {"apply_seconds", apply_s},
                {"copy_wait_seconds", copy_wait_s}});
  }
  std::filesystem::remove(plain);
  std::filesystem::remove(gz);
}

/// A graph file into the GPU graph: read_graph then build(EdgeList) (the plain load), against
/// the build from an EdgeUpload fed while the file is parsed (read_graph's on_edges: the CLI's gpu
/// backend). A SNAP file of `edges` uniform random edges.
void file_build(const Options& o, std::uint64_t edges, wg::bench::Report& report) {
  const std::uint64_t nv = std::max<std::uint64_t>(1u << 16, edges / 8);
  const std::string dir =
      o.replay_dir.empty() ? std::filesystem::temp_directory_path().string() : o.replay_dir;
  const std::string path = dir + "/stream_bench_graph.txt";
  {
    const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
    std::vector<std::string> parts(threads);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        std::uint64_t seed = 1000 + t;
        char buf[32];
        for (std::uint64_t i = t; i < edges; i += threads) {
          const std::uint64_t r = splitmix(seed);
          auto e = std::to_chars(buf, buf + 32, (r & 0xFFFFFFFFu) % nv).ptr;
          parts[t].append(buf, e);
          parts[t] += '\t';
          e = std::to_chars(buf, buf + 32, (r >> 32) % nv).ptr;
          parts[t].append(buf, e);
          parts[t] += '\n';
        }
      });
    }
    for (auto& t : pool) t.join();
    std::ofstream f(path, std::ios::binary);
    for (const std::string& p : parts) f.write(p.data(), static_cast<std::streamsize>(p.size()));
    if (!f) throw std::runtime_error(path + ": cannot write");
  }
  const double bytes = static_cast<double>(std::filesystem::file_size(path));
  const wg::bench::MeasureOptions reps{.warmup = 1, .repetitions = std::min(o.reps, 2)};
  std::uint64_t built_edges[2] = {0, 0};
  const double plain = wg::bench::measure(reps, [&] {
                         return wg::bench::wall_seconds([&] {
                           const auto r = wg::datasets::read_graph(path);
                           Graph g(0);
                           g.build(r.edges);
                           WG_CUDA_TRY(cudaStreamSynchronize(g.stream()));
                           built_edges[0] = g.num_edges();
                         });
                       }).median();
  const double piped =
      wg::bench::measure(reps, [&] {
        return wg::bench::wall_seconds([&] {
          Graph g(0);
          wg::gpu::EdgeUpload up(false, g.stream());
          wg::datasets::ReadOptions ro;
          ro.on_edges = [&](const wg::datasets::EdgeChunk& c) {
            up.append(c.src, c.dst, c.weight, c.size);
          };
          const auto r = wg::datasets::read_graph(path, ro);
          const std::uint64_t n = up.size();
          const wg::gpu::HostBatchUpload u = up.finish();
          g.build(u.view(n), std::max<std::uint64_t>(r.edges.num_vertices, u.id_range));
          WG_CUDA_TRY(cudaStreamSynchronize(g.stream()));
          built_edges[1] = g.num_edges();
        });
      }).median();
  std::printf(
      "\ngraph file build (%llu edges, %.0f MB SNAP): read + build %.3f s, built while parsed "
      "%.3f s (%.2fx)%s\n",
      static_cast<unsigned long long>(edges), bytes / 1e6, plain, piped, plain / piped,
      built_edges[0] == built_edges[1] ? "" : "  EDGE COUNTS DIFFER");
  report.add({{"bench", "stream_file_build"},
              {"edges", edges},
              {"text_bytes", bytes},
              {"plain_seconds", plain},
              {"pipelined_seconds", piped},
              {"same_edges", built_edges[0] == built_edges[1]}});
  std::filesystem::remove(path);
}

}  // namespace

int main(int argc, char** argv) {
  cxxopts::Options cli("stream_bench", "Host batches and update files into the GPU graph");
  cli.add_options()("json", "JSON records to FILE", cxxopts::value<std::string>())(
      "min-log2", "Smallest batch (log2)", cxxopts::value<int>()->default_value("12"))(
      "max-log2", "Largest batch (log2)", cxxopts::value<int>()->default_value("24"))(
      "reps", "Timed runs per case", cxxopts::value<int>()->default_value("3"))(
      "quick", "Batches up to 2^20, 10^6 replayed updates")(
      "replay-updates", "Lines of the generated update file",
      cxxopts::value<std::uint64_t>()->default_value("10000000"))(
      "replay-dir", "Where the update files go (default: the temp directory)",
      cxxopts::value<std::string>())("no-replay", "Skip the file replay")(
      "copy-threads", "StreamIngestOptions::copy_threads",
      cxxopts::value<int>()->default_value("8"))("staging-log2",
                                                 "Slot size (log2); batches above it are split",
                                                 cxxopts::value<int>()->default_value("22"))(
      "slots", "StreamIngestOptions::slots", cxxopts::value<int>()->default_value("3"))(
      "parse-threads", "Update-file parsing threads (0: hardware)",
      cxxopts::value<unsigned>()->default_value("0"))(
      "spin-us", "StreamIngestOptions::wait_spin_us (0: waiting threads sleep at once)",
      cxxopts::value<std::uint32_t>()->default_value("200"))(
      "build-edges", "Edges of the generated graph file built both ways (0: skip)",
      cxxopts::value<std::uint64_t>()->default_value("33554432"))("h,help", "Help");
  const auto r = cli.parse(argc, argv);
  if (r.count("help")) {
    std::printf("%s\n", cli.help().c_str());
    return 0;
  }
  Options o;
  o.min_log2 = r["min-log2"].as<int>();
  o.max_log2 = r["max-log2"].as<int>();
  o.reps = r["reps"].as<int>();
  o.replay_updates = r["replay-updates"].as<std::uint64_t>();
  if (r.count("quick")) {
    o.max_log2 = std::min(o.max_log2, 20);
    if (!r.count("replay-updates")) o.replay_updates = 1'000'000;
  }
  if (r.count("replay-dir")) o.replay_dir = r["replay-dir"].as<std::string>();
  if (r.count("json")) o.json = r["json"].as<std::string>();
  o.replay = !r.count("no-replay");
  o.copy_threads = r["copy-threads"].as<int>();
  o.staging_log2 = r["staging-log2"].as<int>();
  o.slots = r["slots"].as<int>();
  o.parse_threads = r["parse-threads"].as<unsigned>();
  o.spin_us = r["spin-us"].as<std::uint32_t>();
  o.build_edges = r["build-edges"].as<std::uint64_t>();
  if (r.count("quick") && !r.count("build-edges")) o.build_edges = std::uint64_t{1} << 22;

  cudaDeviceProp prop{};
  WG_CUDA_TRY(cudaGetDeviceProperties(&prop, 0));
  std::printf("stream_bench on %s, %u host threads\n", prop.name,
              std::thread::hardware_concurrency());
  wg::bench::Report report;
  batch_sizes(o, report);
  if (o.replay) replay(o, report);
  if (o.build_edges) file_build(o, o.build_edges, report);
  if (!o.json.empty()) report.write(o.json);
  return 0;
}
