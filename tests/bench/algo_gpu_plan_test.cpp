// The GPU algorithm benchmarks' host-side plan (tools/bench/algo_gpu/bench_plan.hpp): what the
// device script's flags turn into, the batch sizes and repetitions, and the rows the plot script
// reads.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tools/bench/algo_gpu/bench_plan.hpp"

namespace {

using namespace wg::bench::algo;

const std::set<std::string> kAlgos{"cc", "kcore", "pagerank_l1", "pagerank_max_change", "tc"};

Plan parse(std::vector<const char*> args) {
  args.insert(args.begin(), "bench");
  return parse_plan(static_cast<int>(args.size()), args.data(), kAlgos, "default.json");
}

TEST(AlgoGpuPlan, Defaults) {
  const Plan p = parse({});
  EXPECT_EQ(p.json, "default.json");
  EXPECT_TRUE(p.run_static());
  EXPECT_TRUE(p.run_dynamic());
  EXPECT_EQ(p.min_scale, 20u);
  EXPECT_EQ(p.max_scale, 24u);
  EXPECT_TRUE(p.wants("slab") && p.wants("csr") && p.wants("btree"));
  EXPECT_TRUE(p.wants_algo("tc"));
  EXPECT_EQ(batch_logs(p).front(), 4);
  EXPECT_EQ(batch_logs(p).back(), 20);
}

TEST(AlgoGpuPlan, DeviceScriptFlags) {
  const Plan p = parse({"--only",        "static",
                        "--gunrock-mtx", ".wgdata/rmat20_gunrock.mtx",
                        "--graph",       ".wgdata/luxembourg_osm.mtx",
                        "--graph",       ".wgdata/facebook_combined.txt.gz",
                        "--min-scale",   "20",
                        "--max-scale",   "21",
                        "--reps",        "3",
                        "--time-limit",  "76",
                        "--json",        "/tmp/x.json",
                        "--structures",  "slab,csr",
                        "--algos",       "cc,tc"});
  EXPECT_TRUE(p.run_static());
  EXPECT_FALSE(p.run_dynamic());
  EXPECT_EQ(p.reps, 3);
  EXPECT_DOUBLE_EQ(p.time_limit, 76);
  EXPECT_EQ(p.json, "/tmp/x.json");
  EXPECT_FALSE(p.wants("btree"));
  EXPECT_TRUE(p.wants_algo("cc"));
  EXPECT_FALSE(p.wants_algo("kcore"));
  const auto graphs = static_graphs(p);
  ASSERT_EQ(graphs.size(), 5u);
  EXPECT_EQ(graphs[0].name, kGunrockGraph);
  EXPECT_TRUE(graphs[0].gunrock);
  EXPECT_EQ(graphs[1].name, "luxembourg_osm");
  EXPECT_EQ(graphs[2].name, "facebook_combined");
  EXPECT_EQ(graphs[3].name, "rmat20");
  EXPECT_EQ(graphs[3].scale, 20u);
  EXPECT_TRUE(graphs[3].path.empty());
  EXPECT_EQ(graphs[4].name, "rmat21");
}

TEST(AlgoGpuPlan, BatchSizes) {
  Plan p = parse({"--min-batch-log", "4", "--max-batch-log", "20", "--batch-step", "2"});
  EXPECT_EQ(batch_logs(p), (std::vector<int>{4, 6, 8, 10, 12, 14, 16, 18, 20}));
  p = parse({"--quick"});
  EXPECT_EQ(batch_logs(p).back(), 16);
  EXPECT_EQ(p.max_scale, 16u);
  EXPECT_LE(p.reps, 3);
  p = parse({"--max-scale", "19"});  // below the min: no R-MAT graph
  EXPECT_TRUE(static_graphs(p).empty());
}

TEST(AlgoGpuPlan, BadFlagsNameTheFlag) {
  auto message = [](std::vector<const char*> args) {
    try {
      parse(std::move(args));
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({"--reps", "x"}).find("--reps"), std::string::npos);
  EXPECT_NE(message({"--reps", "3x"}).find("--reps"), std::string::npos);
  EXPECT_NE(message({"--reps"}).find("--reps"), std::string::npos);
  EXPECT_NE(message({"--only", "both"}).find("--only"), std::string::npos);
  EXPECT_NE(message({"--structures", "slab,hash"}).find("hash"), std::string::npos);
  EXPECT_NE(message({"--algos", "bfs"}).find("bfs"), std::string::npos);
  EXPECT_NE(message({"--frobnicate"}).find("--frobnicate"), std::string::npos);
  EXPECT_NE(message({"--max-scale", "40"}).find("scale"), std::string::npos);
  EXPECT_NE(message({"--row-budget", "-1"}).find("--row-budget"), std::string::npos);
}

TEST(AlgoGpuPlan, RepetitionsFitTheRowBudget) {
  EXPECT_EQ(reps_for(0.001, 5, 3.0), 5);
  EXPECT_EQ(reps_for(1.0, 5, 3.0), 3);
  EXPECT_EQ(reps_for(2.9, 5, 3.0), 1);
  EXPECT_EQ(reps_for(3.5, 5, 3.0), 0);  // the warm-up is the measurement
  EXPECT_EQ(reps_for(0.0, 4, 3.0), 4);
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 2, 3}), 2.5);
  EXPECT_DOUBLE_EQ(median({}), 0);
}

TEST(AlgoGpuPlan, DeadlineOnlyWithALimit) {
  EXPECT_FALSE(Deadline(0).passed());
  EXPECT_FALSE(Deadline(1000).passed());
  const Deadline d(1e-6);
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  EXPECT_TRUE(d.passed());
}

TEST(AlgoGpuPlan, RowsCarryWhatThePlotReads) {
  const GraphSpec gunrock{kGunrockGraph, "r.mtx", 0, true}, rmat{"rmat20", "", 20, false};
  const auto s = static_row("pagerank_max_change", gunrock, "slab_set",
                            {.ms = 2.0, .reps = 3, .iterations = 8}, 1048576, 15701434, "H200");
  EXPECT_EQ(s["section"], "static");
  EXPECT_EQ(s["graph"], kGunrockGraph);
  EXPECT_EQ(s["structure"], "slab_set");
  EXPECT_DOUBLE_EQ(s["ms"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(s["edges_per_s"].get<double>(), 15701434 / 2e-3);
  EXPECT_EQ(s["iterations"], 8);
  EXPECT_EQ(s["vertices"], 1048576);
  EXPECT_EQ(s["gpu"], "H200");
  EXPECT_FALSE(s.contains("scale"));
  EXPECT_FALSE(s.contains("cold"));
  const auto cold = static_row("bfs", rmat, "csr", {.ms = 4000, .reps = 0}, 16, 100, "H200");
  EXPECT_EQ(cold["scale"], 20);
  EXPECT_TRUE(cold["cold"].get<bool>());

  DynamicMeasure m{.update_ms = 0.5,
                   .recompute_ms = 5,
                   .reps = 3,
                   .recomputed_runs = 1,
                   .changed = 7,
                   .extra = {{"rounds", 4}}};
  const auto d = dynamic_row("kcore", "rmat20", "slab_set", true, 12, m, 1 << 20, 14000000, "H200");
  EXPECT_EQ(d["section"], "dynamic");
  EXPECT_EQ(d["stream"], "mixed");
  EXPECT_EQ(d["batch_log2"], 12);
  EXPECT_EQ(d["batch"], 4096);
  EXPECT_DOUBLE_EQ(d["speedup"].get<double>(), 10.0);
  EXPECT_TRUE(d["recomputed"].get<bool>());
  EXPECT_EQ(d["recomputed_runs"], 1);
  EXPECT_EQ(d["rounds"], 4);
  EXPECT_EQ(d["changed"], 7);

  // A file the plot script can be tried on (tools/bench/plot_tables.py markdown FILE).
  nlohmann::json all = nlohmann::json::array({s, cold, d});
  all.push_back(skipped_row("static", "global", "rmat24", "btree", "out of memory", "H200"));
  std::ofstream(::testing::TempDir() + "algo_gpu_rows.json") << all.dump(2);
}

}  // namespace
