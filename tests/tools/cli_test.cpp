// The warpgraph CLI as a user meets it: exit codes and messages for bad command lines and bad
// files, and the figures of info/tc/bfs/cc (text and --json) on the shared datasets.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/datasets/read_graph.hpp>

#include "../algorithms/reference/dataset_figures.hpp"
#include "backend.hpp"
#include "subprocess.hpp"
#include "test_support.hpp"

namespace {

using nlohmann::json;
using wg::test::CliRun;
using wg::test::run_cli;
using wg::test::write_temp_file;

const std::vector<std::string> kCommands = {"info",  "tc",       "bfs",  "cc",
                                            "kcore", "pagerank", "sssp", "stream"};

/// The error contract: exit code, one "warpgraph: ..." line on stderr, nothing on stdout.
void expect_error(const CliRun& r, int code, const std::string& fragment) {
  EXPECT_EQ(r.exit_code, code) << "stderr: " << r.err;
  EXPECT_TRUE(r.out.empty()) << "stdout: " << r.out;
  EXPECT_EQ(r.err.rfind("warpgraph: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(fragment), std::string::npos) << "'" << fragment << "' not in: " << r.err;
}

json parse_json(const CliRun& r) {
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);  // throws (failing the test) on anything but one JSON document
}

std::string karate_or_skip() {
  auto p = wg::test::shared_dataset("karate.mtx");
  return p ? *p : std::string();
}

// ---- usage -------------------------------------------------------------------------------------

TEST(CliUsage, NoCommandPrintsUsageAndExits2) {
  const CliRun r = run_cli({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("Usage"), std::string::npos);
}

TEST(CliUsage, OverallHelpListsEveryCommand) {
  const CliRun r = run_cli({"--help"});
  ASSERT_EQ(r.exit_code, 0);
  for (const auto& c : kCommands) EXPECT_NE(r.out.find(c), std::string::npos) << c;
}

TEST(CliUsage, EveryCommandHasHelp) {
  for (const auto& c : kCommands) {
    const CliRun r = run_cli({c, "--help"});
    EXPECT_EQ(r.exit_code, 0) << c;
    EXPECT_TRUE(r.err.empty()) << c << ": " << r.err;
    EXPECT_NE(r.out.find("--backend"), std::string::npos) << c;
    EXPECT_NE(r.out.find("--json"), std::string::npos) << c;
    EXPECT_NE(r.out.find("warpgraph " + c), std::string::npos) << c;
  }
  // Commands that run on the reference only say so.
  for (const char* c : {"info", "bfs", "cc", "kcore", "pagerank", "sssp"}) {
    EXPECT_NE(run_cli({c, "--help"}).out.find("reference"), std::string::npos) << c;
  }
}

TEST(CliUsage, UnknownCommand) {
  expect_error(run_cli({"frobnicate"}), 2, "unknown command");
}

TEST(CliUsage, UnknownOption) {
  expect_error(run_cli({"tc", "--no-such-option", "x.mtx"}), 2, "no-such-option");
}

TEST(CliUsage, MissingFileArgument) {
  for (const char* c : {"info", "tc", "bfs", "cc", "kcore", "pagerank", "sssp"}) {
    expect_error(run_cli({c}), 2, "missing FILE");
  }
}

TEST(CliUsage, ExtraArgument) {
  expect_error(run_cli({"tc", "a.mtx", "b.mtx"}), 2, "b.mtx");
}

TEST(CliUsage, BadOptionValues) {
  expect_error(run_cli({"bfs", "x.mtx", "--source", "abc"}), 2, "'abc' for --source");
  expect_error(run_cli({"bfs", "x.mtx", "--source=-1"}), 2, "'-1' for --source");
  expect_error(run_cli({"pagerank", "x.mtx", "--damping", "1.5"}), 2, "--damping");
  expect_error(run_cli({"stream", "--batch-size", "0"}), 2, "--batch-size");
  expect_error(run_cli({"stream", "--initial-fraction", "-0.5"}), 2, "--initial-fraction");
  expect_error(run_cli({"stream", "--temporal", "t.txt"}), 2, "--window");
  expect_error(run_cli({"stream", "--updates", "u.txt", "--temporal", "t.txt", "--window", "5"}), 2,
               "not both");
  expect_error(run_cli({"stream", "--updates", "u.txt", "--batch-size", "10"}), 2, "--batch-size");
  expect_error(run_cli({"tc", "x.mtx", "--format", "csv"}), 2, "csv");
}

TEST(CliUsage, UnknownBackendListsTheUsableOnes) {
  const CliRun r = run_cli({"tc", "whatever.mtx", "--backend", "quantum"});
  expect_error(r, 2, "quantum");
  for (const auto& name : wg::cli::usable_backends()) {
    EXPECT_NE(r.err.find(name), std::string::npos) << name << " not listed in: " << r.err;
  }
}

TEST(CliUsage, UnavailableBackendIsAnError) {
  const std::string karate = karate_or_skip();
  if (karate.empty()) GTEST_SKIP() << "karate.mtx not found";
  const auto usable = wg::cli::usable_backends();
  for (const char* name : {"cpu", "gpu"}) {
    if (std::find(usable.begin(), usable.end(), name) != usable.end()) continue;
    // The same usage error for every command, before the file is read.
    for (const char* command : {"info", "tc", "bfs", "cc", "pagerank", "sssp", "stream"}) {
      expect_error(run_cli({command, karate, "--backend", name, "--json"}), 2,
                   std::string("--backend ") + name);
    }
  }
}

// ---- bad files ---------------------------------------------------------------------------------

TEST(CliFiles, MissingFile) {
  const std::string path = wg::test::temp_path("does_not_exist.mtx");
  for (const char* c : {"info", "tc", "bfs", "cc", "pagerank", "sssp", "stream"}) {
    expect_error(run_cli({c, path, "--json"}), 1, path);
  }
}

TEST(CliFiles, MalformedMatrixMarketNamesFileAndLine) {
  const std::string path = write_temp_file(
      "bad.mtx",
      "%%MatrixMarket matrix coordinate pattern symmetric\n% comment\n4 4 3\n1 2\n2 zz\n3 4\n");
  for (const char* c : {"info", "tc", "bfs", "cc", "stream"}) {
    expect_error(run_cli({c, path, "--json"}), 1, path + ":5");
  }
}

TEST(CliFiles, MalformedSnapNamesFileAndLine) {
  const std::string path = write_temp_file("bad.txt", "# a comment\n0 1\n1 2\n2 three\n");
  expect_error(run_cli({"tc", path}), 1, path + ":4");
  expect_error(run_cli({"info", path, "--json"}), 1, path + ":4");
}

TEST(CliFiles, MalformedUpdateFileNamesFileAndLine) {
  const std::string updates = write_temp_file("bad_updates.txt", "+ 0 1\n+ 1 2\n* 2 0\n");
  expect_error(run_cli({"stream", "--updates", updates, "--json"}), 1, updates + ":3");
}

TEST(CliFiles, SourceOutOfRange) {
  const std::string karate = karate_or_skip();
  if (karate.empty()) GTEST_SKIP() << "karate.mtx not found";
  expect_error(run_cli({"bfs", karate, "--source", "34", "--json"}), 1, "--source 34");
  expect_error(run_cli({"sssp", karate, "--source", "1000"}), 1, "--source 1000");
}

// ---- figures on the shared datasets ------------------------------------------------------------

/// A row of the table of /work/shared/datasets/README.md (the reference tests check it too).
using Published = wg::test::DatasetFigures;

class CliSharedDataset : public ::testing::TestWithParam<Published> {};

TEST_P(CliSharedDataset, InfoTcBfsCcMatchThePublishedFigures) {
  const Published& p = GetParam();
  WG_REQUIRE_DATASET(path, p.file);

  const json info = parse_json(run_cli({"info", path, "--json"}));
  EXPECT_EQ(info["command"], "info");
  EXPECT_EQ(info["vertices"].get<std::uint64_t>(), p.vertices);
  EXPECT_EQ(info["edges"].get<std::uint64_t>(), p.edges);
  EXPECT_EQ(info["degree"]["max"].get<std::uint64_t>(), p.max_degree);
  EXPECT_NEAR(info["degree"]["avg"].get<double>(), 2.0 * p.edges / p.vertices, 1e-9);
  EXPECT_EQ(info["components"].get<std::uint64_t>(), p.components);

  const json tc = parse_json(run_cli({"tc", path, "--json"}));
  EXPECT_EQ(tc["triangles"].get<std::uint64_t>(), p.triangles);
  EXPECT_EQ(tc["edges"].get<std::uint64_t>(), p.edges);
  EXPECT_EQ(tc["backend"], wg::cli::default_backend());

  const json bfs = parse_json(run_cli({"bfs", path, "--source", "0", "--json"}));
  EXPECT_EQ(bfs["reached"].get<std::uint64_t>(), p.bfs_reached);
  EXPECT_EQ(bfs["depth"].get<std::int64_t>(), p.bfs_depth);

  const json cc = parse_json(run_cli({"cc", path, "--json"}));
  EXPECT_EQ(cc["components"].get<std::uint64_t>(), p.components);

  // The text output says the same.
  const CliRun tc_text = run_cli({"tc", path});
  ASSERT_EQ(tc_text.exit_code, 0) << tc_text.err;
  EXPECT_TRUE(std::regex_search(tc_text.out,
                                std::regex("triangles:\\s+" + std::to_string(p.triangles) + "\\b")))
      << tc_text.out;
  const CliRun info_text = run_cli({"info", path});
  ASSERT_EQ(info_text.exit_code, 0) << info_text.err;
  EXPECT_TRUE(std::regex_search(info_text.out,
                                std::regex("vertices:\\s+" + std::to_string(p.vertices) + "\\b")));
  EXPECT_TRUE(
      std::regex_search(info_text.out, std::regex("edges:\\s+" + std::to_string(p.edges) + "\\b")));
  EXPECT_TRUE(std::regex_search(
      info_text.out, std::regex("components:\\s+" + std::to_string(p.components) + "\\b")));
}

INSTANTIATE_TEST_SUITE_P(Published, CliSharedDataset,
                         ::testing::ValuesIn(wg::test::kDatasetFigures), [](const auto& info) {
                           std::string n = info.param.file;
                           std::replace_if(
                               n.begin(), n.end(), [](char c) { return !std::isalnum(c); }, '_');
                           return n;
                         });

// ---- per-vertex output, pagerank, sssp, compact ids --------------------------------------------

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(CliOutput, BfsOutputFileEqualsTheReference) {
  WG_REQUIRE_DATASET(path, "dolphins.mtx");
  const std::string out = wg::test::temp_path("levels.txt");
  const CliRun r = run_cli({"bfs", path, "--source", "5", "--output", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto g = wg::datasets::read_graph(path);
  const auto levels = wg::reference::bfs_levels(g.edges, 5);
  const auto lines = read_lines(out);
  ASSERT_EQ(lines.size(), levels.size());
  // "vertex level parent" (the parent's checks: cli_output_test.cpp).
  for (std::size_t v = 0; v < levels.size(); ++v) {
    EXPECT_EQ(lines[v].substr(0, lines[v].rfind(' ')),
              std::to_string(v) + " " + std::to_string(levels[v]));
  }
}

TEST(CliOutput, TcCcSsspOutputFilesEqualTheReference) {
  WG_REQUIRE_DATASET(path, "netscience.mtx");  // weighted, 396 components
  const auto g = wg::datasets::read_graph(path);
  const std::string tc_out = wg::test::temp_path("tc.txt"), cc_out = wg::test::temp_path("cc.txt"),
                    sssp_out = wg::test::temp_path("sssp.txt");
  ASSERT_EQ(run_cli({"tc", path, "--output", tc_out}).exit_code, 0);
  ASSERT_EQ(run_cli({"cc", path, "--output", cc_out}).exit_code, 0);
  ASSERT_EQ(run_cli({"sssp", path, "--source", "33", "--output", sssp_out}).exit_code, 0);
  const auto triangles = wg::reference::triangle_count(g.edges).per_vertex;
  const auto components = wg::reference::connected_components(g.edges).component;
  const auto dist = wg::reference::sssp(g.edges, 33);
  const auto tc_lines = read_lines(tc_out), cc_lines = read_lines(cc_out),
             sssp_lines = read_lines(sssp_out);
  ASSERT_EQ(tc_lines.size(), g.edges.num_vertices);
  ASSERT_EQ(cc_lines.size(), g.edges.num_vertices);
  ASSERT_EQ(sssp_lines.size(), g.edges.num_vertices);
  for (std::size_t v = 0; v < g.edges.num_vertices; ++v) {
    const std::string id = std::to_string(v) + " ";
    EXPECT_EQ(tc_lines[v], id + std::to_string(triangles[v]));
    EXPECT_EQ(cc_lines[v], id + std::to_string(components[v]));
    std::istringstream fields(sssp_lines[v]);
    std::string vertex, d;
    fields >> vertex >> d;
    EXPECT_EQ(vertex, std::to_string(v));
    if (std::isinf(dist[v])) {
      EXPECT_EQ(d, "inf");
    } else {
      EXPECT_DOUBLE_EQ(std::stod(d), dist[v]) << "vertex " << v;
    }
  }
}

TEST(CliOutput, PagerankTopIsSortedAndMatchesTheReference) {
  WG_REQUIRE_DATASET(path, "karate.mtx");
  // The reference backend is bitwise the library's reference (the cpu one: CliCpuBackend below).
  const json j =
      parse_json(run_cli({"pagerank", path, "--top", "5", "--backend", "reference", "--json"}));
  const auto g = wg::datasets::read_graph(path);
  const auto pr = wg::reference::pagerank(g.edges);
  ASSERT_EQ(j["top"].size(), 5u);
  EXPECT_TRUE(j["converged"].get<bool>());
  EXPECT_EQ(j["iterations"].get<int>(), pr.iterations);
  double previous = 2.0;
  for (const auto& e : j["top"]) {
    const auto v = e["vertex"].get<std::size_t>();
    const double rank = e["rank"].get<double>();
    EXPECT_DOUBLE_EQ(rank, pr.rank[v]);
    EXPECT_LE(rank, previous);
    previous = rank;
  }
  // Nothing outside the top is ranked higher than the last one listed.
  for (double r : pr.rank) EXPECT_LE(r, j["top"][0]["rank"].get<double>());
}

TEST(CliOutput, UnweightedSsspEqualsBfsDepth) {
  WG_REQUIRE_DATASET(path, "polbooks.mtx");
  const json bfs = parse_json(run_cli({"bfs", path, "--source", "3", "--json"}));
  const json sssp = parse_json(run_cli({"sssp", path, "--source", "3", "--json"}));
  EXPECT_EQ(sssp["reached"], bfs["reached"]);
  EXPECT_DOUBLE_EQ(sssp["max_distance"].get<double>(), bfs["depth"].get<double>());
}

TEST(CliOutput, CompactIdsKeepTheFilesIds) {
  const std::string path =
      write_temp_file("sparse.txt", "# sparse ids\n100 200\n200 300\n300 100\n300 7000\n");
  const json plain = parse_json(run_cli({"info", path, "--json"}));
  EXPECT_EQ(plain["vertices"].get<std::uint64_t>(), 7001u);
  const json compact = parse_json(run_cli({"info", path, "--compact-ids", "--json"}));
  EXPECT_EQ(compact["vertices"].get<std::uint64_t>(), 4u);
  const json bfs =
      parse_json(run_cli({"bfs", path, "--compact-ids", "--source", "7000", "--json"}));
  EXPECT_EQ(bfs["source"].get<std::uint64_t>(), 7000u);
  EXPECT_EQ(bfs["reached"].get<std::uint64_t>(), 4u);
  EXPECT_EQ(bfs["depth"].get<std::uint64_t>(), 2u);
  expect_error(run_cli({"bfs", path, "--compact-ids", "--source", "5"}), 1, "--source 5");
  const json tc = parse_json(run_cli({"tc", path, "--compact-ids", "--json"}));
  EXPECT_EQ(tc["triangles"].get<std::uint64_t>(), 1u);
}

TEST(CliOutput, TcReadsAGeneralMatrixMarketFileAsUndirected) {
  // Arcs 1->2, 2->3, 3->1 (a directed cycle) and 3->4, 4->3: one undirected triangle.
  const std::string path = write_temp_file(
      "general.mtx",
      "%%MatrixMarket matrix coordinate pattern general\n4 4 5\n1 2\n2 3\n3 1\n3 4\n4 3\n");
  const auto g = wg::datasets::read_graph(path);
  const json tc = parse_json(run_cli({"tc", path, "--json"}));
  EXPECT_EQ(tc["triangles"].get<std::uint64_t>(), wg::reference::triangle_count(g.edges).total);
  EXPECT_EQ(tc["triangles"].get<std::uint64_t>(), 1u);
  EXPECT_EQ(tc["edges"].get<std::uint64_t>(), 4u);
}

TEST(CliOutput, DirectedBfsFollowsArcs) {
  const std::string path = write_temp_file("chain.txt", "0 1\n1 2\n3 2\n");
  EXPECT_EQ(parse_json(run_cli({"bfs", path, "--json"}))["reached"].get<int>(), 4);
  EXPECT_EQ(parse_json(run_cli({"bfs", path, "--directed", "--json"}))["reached"].get<int>(), 3);
}

// ---- bfs and cc on the cpu backend -----------------------------------------------------------

/// A command's JSON without what differs between backends (its name and the timings).
json without_backend_and_times(json j) {
  j.erase("backend");
  j.erase("seconds");
  j["input"].erase("read_seconds");
  return j;
}

bool cpu_built() {
  const auto names = wg::cli::available_backends();
  return std::find(names.begin(), names.end(), "cpu") != names.end();
}

/// The JSON of `args` run on `backend` with --output `out` (and the `extra` arguments).
json run_json_on(std::vector<std::string> args, const std::string& backend, const std::string& out,
                 std::initializer_list<const char*> extra = {}) {
  for (const std::string& x :
       {std::string("--backend"), backend, std::string("--json"), std::string("--output"), out}) {
    args.push_back(x);
  }
  args.insert(args.end(), extra.begin(), extra.end());
  return parse_json(run_cli(args));
}

/// `command` on the cpu (or `backend`) and reference backends gives the same JSON and the same
/// --output file.
void expect_cpu_equals_reference(std::vector<std::string> args,
                                 const std::string& backend = "cpu") {
  SCOPED_TRACE(args[0] + " " + args[1] + " on " + backend);
  const std::string cpu_out = wg::test::temp_path("cpu_values.txt"),
                    ref_out = wg::test::temp_path("ref_values.txt");
  const json cpu = run_json_on(args, backend, cpu_out),
             ref = run_json_on(args, "reference", ref_out);
  EXPECT_EQ(cpu["backend"], backend);
  EXPECT_EQ(ref["backend"], "reference");
  EXPECT_EQ(without_backend_and_times(cpu), without_backend_and_times(ref));
  EXPECT_EQ(read_lines(cpu_out), read_lines(ref_out));
}

/// expect_cpu_equals_reference for `command FILE args...` on each of the bundled graphs named.
void expect_cpu_equals_reference_on(std::initializer_list<const char*> graphs, const char* command,
                                    std::initializer_list<const char*> args) {
  for (const char* file : graphs) {
    const auto path = wg::test::shared_dataset(file);
    ASSERT_TRUE(path) << file;
    std::vector<std::string> argv{command, *path};
    argv.insert(argv.end(), args.begin(), args.end());
    expect_cpu_equals_reference(argv);
  }
}

TEST(CliCpuBackend, BfsEqualsTheReference) {
  if (!cpu_built()) GTEST_SKIP() << "cpu backend not built";
  expect_cpu_equals_reference_on(
      {"karate.mtx", "netscience.mtx", "facebook_combined.txt", "delaunay_n16.mtx"}, "bfs",
      {"--source", "3"});
  // Directed: arcs only.
  const std::string path = write_temp_file("cpu_chain.txt", "0 1\n1 2\n3 2\n2 4\n4 0\n");
  expect_cpu_equals_reference({"bfs", path, "--directed", "--source", "1"});
  expect_cpu_equals_reference({"bfs", path, "--source", "3"});
}

TEST(CliCpuBackend, CcEqualsTheReference) {
  if (!cpu_built()) GTEST_SKIP() << "cpu backend not built";
  expect_cpu_equals_reference_on(
      {"karate.mtx", "netscience.mtx", "facebook_combined.txt", "luxembourg_osm.mtx"}, "cc", {});
  const std::string path = write_temp_file("cpu_parts.txt", "0 1\n5 2\n3 2\n7 7\n");
  expect_cpu_equals_reference({"cc", path});
}

/// pagerank on the cpu and reference backends: the same JSON but for the ranks and iteration
/// count (pull and push round differently), per-vertex ranks within the L1 bound of
/// algorithms/pagerank/cpu/pagerank.hpp: 2 * d / (1 - d) * tolerance (+ rounding).
void expect_cpu_pagerank_near_reference(std::vector<std::string> args,
                                        const std::string& backend = "cpu") {
  SCOPED_TRACE(args[0] + " " + args[1] + " on " + backend);
  const std::string cpu_out = wg::test::temp_path("cpu_ranks.txt"),
                    ref_out = wg::test::temp_path("ref_ranks.txt");
  auto with = [&](const std::string& backend, const std::string& out) {
    json j = run_json_on(args, backend, out, {"--top", "3"});
    EXPECT_EQ(j["backend"], backend);
    EXPECT_TRUE(j["converged"].get<bool>());
    return j;
  };
  json cpu = with(backend, cpu_out), ref = with("reference", ref_out);
  const double bound = 2 * 0.85 / 0.15 * 1e-10 + 1e-12;
  for (std::size_t i = 0; i < ref["top"].size(); ++i) {
    EXPECT_NEAR(cpu["top"][i]["rank"].get<double>(), ref["top"][i]["rank"].get<double>(), bound);
  }
  EXPECT_NEAR(cpu["iterations"].get<int>(), ref["iterations"].get<int>(), 2);
  for (json* j : {&cpu, &ref}) {
    j->erase("top");
    j->erase("iterations");
    *j = without_backend_and_times(*j);
  }
  EXPECT_EQ(cpu, ref);
  const auto cpu_lines = read_lines(cpu_out), ref_lines = read_lines(ref_out);
  ASSERT_EQ(cpu_lines.size(), ref_lines.size());
  double l1 = 0;
  for (std::size_t i = 0; i < cpu_lines.size(); ++i) {
    const auto c = cpu_lines[i].find(' '), f = ref_lines[i].find(' ');
    ASSERT_EQ(cpu_lines[i].substr(0, c), ref_lines[i].substr(0, f));  // the vertex id
    l1 += std::abs(std::stod(cpu_lines[i].substr(c + 1)) - std::stod(ref_lines[i].substr(f + 1)));
  }
  EXPECT_LE(l1, bound);
}

TEST(CliCpuBackend, PagerankWithinToleranceOfTheReference) {
  if (!cpu_built()) GTEST_SKIP() << "cpu backend not built";
  for (const char* file : {"karate.mtx", "facebook_combined.txt", "delaunay_n16.mtx"}) {
    const auto path = wg::test::shared_dataset(file);
    ASSERT_TRUE(path) << file;
    expect_cpu_pagerank_near_reference({"pagerank", *path});
  }
  // Directed, with a dangling vertex (5) and an isolated id (6).
  const std::string path = write_temp_file("cpu_web.txt", "0 1\n1 2\n2 0\n3 2\n2 5\n4 3\n6 6\n");
  expect_cpu_pagerank_near_reference({"pagerank", path, "--directed"});
  expect_cpu_pagerank_near_reference({"pagerank", path});
}

TEST(CliCpuBackend, KcoreEqualsTheReference) {
  if (!cpu_built()) GTEST_SKIP() << "cpu backend not built";
  // A triangle with a tail, a self-loop and isolated ids: cores 2 (x3), 1 and 0 (x4).
  const std::string path = write_temp_file("cpu_cores.txt", "0 1\n1 2\n2 0\n2 3\n7 7\n");
  const json k = parse_json(run_cli({"kcore", path, "--json"}));
  EXPECT_EQ(k["max_core"], 2);
  EXPECT_EQ(k["core_sizes"], json::array({4, 1, 3}));
  expect_cpu_equals_reference({"kcore", path});
  expect_cpu_equals_reference_on(
      {"karate.mtx", "netscience.mtx", "facebook_combined.txt", "delaunay_n16.mtx"}, "kcore", {});
}

/// A CUDA build on a machine with a device.
bool gpu_usable() {
  const auto usable = wg::cli::usable_backends();
  return std::find(usable.begin(), usable.end(), "gpu") != usable.end();
}

TEST(CliCpuBackend, AutoIsGpuElseCpuAndAbsentGpuIsAClearUsageError) {
  if (!cpu_built()) GTEST_SKIP() << "cpu backend not built";
  const std::string karate = karate_or_skip();
  if (karate.empty()) GTEST_SKIP() << "karate.mtx missing";
  const std::string expected = gpu_usable() ? "gpu" : "cpu";
  for (const char* c : {"cc", "kcore", "pagerank"}) {  // bfs, sssp: CliTraversal below
    EXPECT_EQ(parse_json(run_cli({c, karate, "--json"}))["backend"], expected) << c;
  }
  // Without a usable GPU (or a build without CUDA) --backend gpu is a usage error.
  if (gpu_usable()) return;
  for (const char* c : {"bfs", "cc", "kcore", "pagerank", "sssp"}) {
    expect_error(run_cli({c, karate, "--backend", "gpu"}), 2, "--backend gpu");
  }
}

TEST(CliGpuBackend, CcAndKcoreEqualTheReference) {
  if (!gpu_usable()) GTEST_SKIP() << "no usable gpu backend";
  for (const char* file : {"karate.mtx", "netscience.mtx", "facebook_combined.txt",
                           "delaunay_n16.mtx", "luxembourg_osm.mtx"}) {
    const auto path = wg::test::shared_dataset(file);
    ASSERT_TRUE(path) << file;
    expect_cpu_equals_reference({"cc", *path}, "gpu");
    expect_cpu_equals_reference({"kcore", *path}, "gpu");
  }
}

TEST(CliGpuBackend, PagerankWithinToleranceOfTheReference) {
  if (!gpu_usable()) GTEST_SKIP() << "no usable gpu backend";
  for (const char* file : {"karate.mtx", "netscience.mtx", "facebook_combined.txt"}) {
    const auto path = wg::test::shared_dataset(file);
    ASSERT_TRUE(path) << file;
    expect_cpu_pagerank_near_reference({"pagerank", *path}, "gpu");
  }
}

// ---- bfs and sssp on every backend -------------------------------------------------------------

/// `args` on `backend` and on the reference: the same JSON (but backend and times) and the same
/// --output file.
void expect_backend_equals_reference(std::vector<std::string> args, const std::string& backend) {
  SCOPED_TRACE(backend + ": " + args[0] + " " + args[1]);
  const std::string out = wg::test::temp_path(backend + "_values.txt"),
                    ref_out = wg::test::temp_path("ref_values.txt");
  const json got = run_json_on(args, backend, out), ref = run_json_on(args, "reference", ref_out);
  EXPECT_EQ(got["backend"], backend);
  EXPECT_EQ(without_backend_and_times(got), without_backend_and_times(ref));
  EXPECT_EQ(read_lines(out), read_lines(ref_out));
}

void expect_traversals_equal_reference(const std::string& backend) {
  for (const char* file :
       {"karate.mtx", "netscience.mtx", "facebook_combined.txt", "delaunay_n16.mtx"}) {
    const auto path = wg::test::shared_dataset(file);
    ASSERT_TRUE(path) << file;
    for (const char* command : {"bfs", "sssp"}) {
      // The GPU graph stores integer weights, the CPU graph floats: netscience's fractional
      // ones are a usage error naming the line of one.
      if (backend != "reference" && std::string(command) == "sssp" &&
          std::string(file) == "netscience.mtx") {
        expect_error(run_cli({command, *path, "--source", "3", "--backend", backend}), 2,
                     backend == "gpu" ? "cannot be held exactly as an unsigned 32-bit integer"
                                      : "cannot be held exactly as a float");
        continue;
      }
      expect_backend_equals_reference({command, *path, "--source", "3"}, backend);
    }
  }
  const std::string chain = write_temp_file("trav_chain.txt", "0 1\n1 2\n3 2\n2 4\n4 0\n");
  const std::string weighted =
      write_temp_file("trav_weighted.txt", "0 1 4\n1 2 1\n0 2 7\n2 3 2\n3 4 0\n5 4 9\n");
  for (const char* command : {"bfs", "sssp"}) {
    expect_backend_equals_reference({command, chain, "--directed", "--source", "1"}, backend);
    expect_backend_equals_reference({command, chain, "--source", "3"}, backend);
    expect_backend_equals_reference({command, weighted, "--source", "0"}, backend);
    expect_backend_equals_reference({command, weighted, "--directed", "--source", "0"}, backend);
  }
}

TEST(CliTraversal, CpuEqualsTheReference) {
  if (!cpu_built()) GTEST_SKIP() << "cpu backend not built";
  expect_traversals_equal_reference("cpu");
}

TEST(CliTraversal, GpuEqualsTheReference) {
  if (!gpu_usable()) GTEST_SKIP() << "no usable GPU";
  expect_traversals_equal_reference("gpu");
}

TEST(CliTraversal, AutoIsGpuElseCpu) {
  const std::string karate = karate_or_skip();
  if (karate.empty()) GTEST_SKIP() << "karate.mtx missing";
  const std::string expected = gpu_usable() ? "gpu" : cpu_built() ? "cpu" : "reference";
  for (const char* c : {"bfs", "sssp"})
    EXPECT_EQ(parse_json(run_cli({c, karate, "--json"}))["backend"], expected) << c;
}

}  // namespace
