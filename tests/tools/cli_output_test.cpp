// Issue 44's CLI defects and output deliverables, as a user meets them: what --backend auto
// picks for stream --algo, the duplicate and weight rules of sssp on every backend, component
// labels in the file's ids, per-vertex output formats, stdout and stdin, parents and
// predecessors, and stream's -o, --batch-csv and --verify-every trace.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/datasets/read_graph.hpp>

#include "backend.hpp"
#include "subprocess.hpp"
#include "test_support.hpp"

namespace {

using nlohmann::json;
using wg::test::CliRun;
using wg::test::run_cli;
using wg::test::write_temp_file;

json json_of(const CliRun& r) {
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::vector<std::string>> rows_of(const std::string& text, char sep) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> fields;
    std::istringstream f(line);
    for (std::string field; std::getline(f, field, sep);) fields.push_back(field);
    rows.push_back(fields);
  }
  return rows;
}

/// The backends this build and machine run (reference always; cpu and gpu where usable).
std::vector<std::string> backends_here() {
  return wg::cli::usable_backends();
}

bool has_backend(const std::string& name) {
  const auto b = backends_here();
  return std::find(b.begin(), b.end(), name) != b.end();
}

// ---- defect 3: stream --backend auto keeps every --algo result --------------------------------

TEST(CliIssue44, StreamAutoPicksABackendThatKeepsEveryAlgoResult) {
  WG_REQUIRE_DATASET(path, "karate.mtx");
  // A sparse graph (degree 4.6 < --auto-min-degree): auto used to pick the reference, which
  // keeps the triangle count only, and exit 2.
  const CliRun r = run_cli({"stream", path, "--algo", "tc,bfs,cc,pagerank,kcore,sssp",
                            "--verify-every", "2", "--batch-size", "8", "--json"});
  const json j = json_of(r);
  EXPECT_NE(j["backend"], "reference");
  ASSERT_EQ(j["algorithms"].size(), 6u);
  EXPECT_EQ(j["verified"], true);
  // Only the count: auto still picks by graph and batch size (the reference here).
  const json tc = json_of(run_cli({"stream", path, "--batch-size", "8", "--json"}));
  if (!wg::cli::gpu_backend_usable()) EXPECT_EQ(tc["backend"], "reference");
}

// ---- defect 7: --verify-every leaves a trace; summaries are labelled; --source must exist ----

std::string fmt_batch(std::size_t b) {
  return "batch " + std::to_string(b) + ": verified ";
}

TEST(CliIssue44, VerifyEveryReportsEachPassingCheck) {
  WG_REQUIRE_DATASET(path, "karate.mtx");
  const CliRun r = run_cli({"stream", path, "--backend", "reference", "--batch-size", "10",
                            "--verify-every", "2", "--json"});
  const json j = json_of(r);
  const std::size_t batches = j["batches"].size();
  ASSERT_GE(batches, 4u);
  // A stream shorter than N batches is still checked once, at its end.
  const json once = json_of(run_cli({"stream", path, "--backend", "reference", "--batch-size", "10",
                                     "--verify-every", "1000", "--json"}));
  EXPECT_EQ(once["verified"], true);
  EXPECT_EQ(once["verify_every"]["checks_passed"], 1);
  EXPECT_EQ(j["verified"], true);
  // After every 2 batches and after the last.
  const std::size_t checks = (batches + 1) / 2;
  EXPECT_EQ(j["verify_every"]["checks_passed"].get<std::size_t>(), checks);
  std::size_t lines = 0;
  for (std::size_t at = 0; (at = r.err.find(": verified ", at)) != std::string::npos; ++at) ++lines;
  EXPECT_EQ(lines, checks) << r.err;
  EXPECT_NE(r.err.find(fmt_batch(batches)), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("batch 2: verified tc against the reference"), std::string::npos) << r.err;
  // Without any check, nothing claims it was verified.
  const json plain =
      json_of(run_cli({"stream", path, "--backend", "reference", "--batch-size", "10", "--json"}));
  EXPECT_TRUE(plain["verified"].is_null());
}

TEST(CliIssue44, EveryAlgorithmSummaryIsLabelled) {
  if (!has_backend("cpu")) GTEST_SKIP() << "cpu backend not built";
  WG_REQUIRE_DATASET(path, "karate.mtx");
  const json j = json_of(run_cli({"stream", path, "--backend", "cpu", "--batch-size", "16",
                                  "--algo", "tc,bfs,cc,pagerank,kcore,sssp", "--json"}));
  const std::map<std::string, std::string> names{{"tc", "triangles"},   {"bfs", "reached"},
                                                 {"cc", "components"},  {"pagerank", "iterations"},
                                                 {"kcore", "max_core"}, {"sssp", "reached"}};
  ASSERT_EQ(j["algorithms"].size(), names.size());
  for (const json& a : j["algorithms"]) {
    EXPECT_EQ(a["summary_name"], names.at(a["algo"])) << a.dump();
    EXPECT_TRUE(a["summary"].is_number());  // the old key stays
  }
  for (const json& b : j["batches"])
    for (const json& a : b["algorithms"]) EXPECT_EQ(a["summary_name"], names.at(a["algo"]));
  // The components' summary is the component count the final graph has.
  for (const json& a : j["algorithms"])
    if (a["algo"] == "cc") EXPECT_EQ(a["summary"], 1);
}

TEST(CliIssue44, StreamSourceOnNoEntryIsAnError) {
  const std::string sparse = write_temp_file("sparse_src.txt", "5 6\n6 7\n7 5\n");
  const CliRun r = run_cli({"stream", sparse, "--backend", "reference", "--algo", "tc"});
  EXPECT_EQ(r.exit_code, 0) << r.err;  // no traversal: --source does not matter
  for (const char* algo : {"bfs", "sssp"}) {
    if (!has_backend("cpu")) GTEST_SKIP() << "cpu backend not built";
    const CliRun bad = run_cli({"stream", sparse, "--algo", algo, "--batch-size", "1"});
    EXPECT_EQ(bad.exit_code, 1) << bad.err;
    EXPECT_TRUE(bad.out.empty());
    EXPECT_NE(bad.err.find("--source 0: no entry of " + sparse + " names vertex 0"),
              std::string::npos)
        << bad.err;
    EXPECT_NE(bad.err.find("(e.g. "), std::string::npos) << bad.err;
    const json good = json_of(run_cli(
        {"stream", sparse, "--algo", algo, "--source", "6", "--batch-size", "1", "--json"}));
    for (const json& a : good["algorithms"])
      if (a["algo"] == algo) EXPECT_EQ(a["summary"], 3) << a.dump();
  }
}

TEST(CliIssue44, StreamUnderCompactIdsSpeaksTheFilesIds) {
  if (!has_backend("cpu")) GTEST_SKIP() << "cpu backend not built";
  const std::string path =
      write_temp_file("sparse_stream.txt", "100 200\n200 300\n300 100\n300 7\n");
  const CliRun r = run_cli({"stream", path, "--compact-ids", "--algo", "bfs,cc", "--source", "7",
                            "--batch-size", "1", "-o", "-"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // vertex, triangles, bfs level, bfs parent, component (the smallest file id: 7).
  EXPECT_EQ(r.out, "100 1 2 300 7\n200 1 2 300 7\n300 1 1 7 7\n7 0 0 7 7\n");
  const CliRun bad = run_cli({"stream", path, "--compact-ids", "--algo", "bfs"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("--source 0 is not a vertex id of"), std::string::npos) << bad.err;
}

TEST(CliIssue44, TraversalFromAVertexWithoutEdgesWarns) {
  const std::string sparse = write_temp_file("sparse_bfs.txt", "5 6\n6 7\n");
  for (const char* command : {"bfs", "sssp"}) {
    const CliRun r = run_cli({command, sparse, "--backend", "reference"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("warning: --source 0 is on no edge of " + sparse), std::string::npos)
        << command << ": " << r.err;
    EXPECT_TRUE(run_cli({command, sparse, "--source", "6"}).err.empty()) << command;
  }
}

// ---- defect 4: sssp gives the same answer on every backend ---------------------------------

TEST(CliIssue44, SsspDuplicateEntriesMeanTheSameOnEveryBackend) {
  const std::string dup = write_temp_file("dup.txt", "0 1 1\n1 0 10\n1 2 3\n2 1 2\n");
  for (const std::string& backend : backends_here()) {
    const std::string out = wg::test::temp_path(backend + "_dup.txt");
    const json j = json_of(run_cli({"sssp", dup, "--backend", backend, "-o", out, "--json"}));
    EXPECT_EQ(j["max_distance"].get<double>(), 3.0) << backend;  // 0 -1-> 1 -2-> 2
    EXPECT_EQ(slurp(out), "0 0 0\n1 1 0\n2 3 1\n") << backend;
  }
  // Directed: the arcs 0->1 (1) and 1->0 (10) are two arcs.
  const json d = json_of(run_cli({"sssp", dup, "--directed", "--source", "1", "--json"}));
  EXPECT_EQ(d["max_distance"].get<double>(), 10.0);
}

TEST(CliIssue44, AWeightTheCpuGraphCannotHoldIsAnErrorNamingItsLine) {
  const std::string big = write_temp_file("big.txt", "# huge\n0 1 1\n1 2 1e308\n");
  if (has_backend("cpu")) {
    const CliRun r = run_cli({"sssp", big, "--backend", "cpu"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty());
    // The readers' check (datasets::check_weights), with the backend that holds it.
    EXPECT_NE(r.err.find(big + ":3: weight 1e+308 cannot be held exactly as a float"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("; use --backend reference"), std::string::npos)
        << r.err;
  }
  // auto and the reference hold it: vertex 2 is reached.
  for (const char* backend : {"auto", "reference"}) {
    const json j = json_of(run_cli({"sssp", big, "--backend", backend, "--json"}));
    EXPECT_EQ(j["backend"], "reference");
    EXPECT_EQ(j["reached"], 3) << backend;
    EXPECT_DOUBLE_EQ(j["max_distance"].get<double>(), 1e308);
  }
}

// ---- defect 5: labels in file ids, -o never the input, -o - and FILE - -----------------------

TEST(CliIssue44, CompactIdsComponentLabelsAreTheSmallestFileId) {
  // First appearance 50, 10, 7: compacted ids 0, 1, 2; the smallest file id of {50, 10, 7} is 7.
  const std::string path = write_temp_file("cc_sparse.txt", "50 10\n10 7\n30 40\n");
  for (const std::string& backend : backends_here()) {
    const std::string out = wg::test::temp_path(backend + "_cc.txt");
    ASSERT_EQ(run_cli({"cc", path, "--compact-ids", "--backend", backend, "-o", out}).exit_code, 0);
    EXPECT_EQ(slurp(out), "50 7\n10 7\n7 7\n30 30\n40 30\n") << backend;
  }
}

TEST(CliIssue44, OutputNeverOverwritesAnInput) {
  const std::string text = "0 1\n1 2\n";
  const std::string path = write_temp_file("keep.txt", text);
  const std::string dir = path.substr(0, path.rfind('/'));
  const std::string other_spelling = dir + "/./" + path.substr(path.rfind('/') + 1);
  for (const std::string& out : {path, other_spelling}) {
    const CliRun r = run_cli({"cc", path, "-o", out});
    EXPECT_EQ(r.exit_code, 2) << out;
    EXPECT_NE(r.err.find("refusing to overwrite it"), std::string::npos) << r.err;
  }
  const CliRun s = run_cli({"stream", path, "--batch-size", "1", "--batch-csv", path});
  EXPECT_EQ(s.exit_code, 2) << s.err;
  EXPECT_EQ(slurp(path), text);
}

TEST(CliIssue44, OutputDashWritesTheRowsToStdout) {
  const std::string path = write_temp_file("dash.txt", "0 1\n2 3\n");
  const CliRun r = run_cli({"cc", path, "-o", "-"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "0 0\n1 0\n2 2\n3 2\n");
  EXPECT_NE(r.err.find("components:"), std::string::npos) << r.err;  // the summary moved
  const CliRun csv = run_cli({"kcore", path, "-o", "-", "--output-format", "csv"});
  EXPECT_EQ(csv.out, "vertex,core\n0,1\n1,1\n2,1\n3,1\n");
  const CliRun j = run_cli({"cc", path, "-o", "-", "--json"});
  EXPECT_EQ(j.exit_code, 2);
  EXPECT_TRUE(j.out.empty());
}

TEST(CliIssue44, DashAsFileReadsStdin) {
  const json j = json_of(wg::test::run_cli_with_input({"cc", "-", "--json"}, "0 1\n2 3\n4 3\n"));
  EXPECT_EQ(j["vertices"], 5);
  EXPECT_EQ(j["components"], 2);
  EXPECT_EQ(j["input"]["file"], "-");
  const CliRun mm = wg::test::run_cli_with_input(
      {"tc", "-"}, "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n3 1\n3 2\n");
  EXPECT_EQ(mm.exit_code, 0) << mm.err;
  EXPECT_NE(mm.out.find("triangles:  1"), std::string::npos) << mm.out;
  const CliRun bad = wg::test::run_cli_with_input({"cc", "-"}, "0 1\n1 x\n");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.err.rfind("warpgraph: -:2: ", 0), 0u) << bad.err;
}

// ---- per-vertex formats, parents, predecessors ---------------------------------------------

TEST(CliIssue44, OutputFormatsFollowTheExtensionOrTheOption) {
  const std::string path = write_temp_file("fmt.txt", "0 1\n1 2\n3 4\n");
  const std::string csv = wg::test::temp_path("bfs.csv"), tsv = wg::test::temp_path("bfs.tsv"),
                    js = wg::test::temp_path("bfs.json"), forced = wg::test::temp_path("bfs.out");
  ASSERT_EQ(run_cli({"bfs", path, "-o", csv}).exit_code, 0);
  EXPECT_EQ(slurp(csv), "vertex,level,parent\n0,0,0\n1,1,0\n2,2,1\n3,-1,-1\n4,-1,-1\n");
  ASSERT_EQ(run_cli({"bfs", path, "-o", tsv}).exit_code, 0);
  EXPECT_EQ(rows_of(slurp(tsv), '\t')[0], (std::vector<std::string>{"vertex", "level", "parent"}));
  ASSERT_EQ(run_cli({"bfs", path, "-o", js}).exit_code, 0);
  const json rows = json::parse(slurp(js));
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[2], (json{{"vertex", 2}, {"level", 2}, {"parent", 1}}));
  EXPECT_TRUE(rows[3]["level"].is_null());
  EXPECT_TRUE(rows[3]["parent"].is_null());
  ASSERT_EQ(run_cli({"bfs", path, "-o", forced, "--output-format", "json"}).exit_code, 0);
  EXPECT_EQ(json::parse(slurp(forced)), rows);
  const CliRun bad = run_cli({"bfs", path, "-o", forced, "--output-format", "xml"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(run_cli({"bfs", path, "--output-format", "csv"}).exit_code, 2);
}

/// Parents / predecessors of `command` on `file` from `source`: every reached vertex but the
/// source has one whose value is one step (bfs) or one edge's weight (sssp) closer, along an
/// entry of the file; the same on every backend.
void expect_path_trees(const std::string& command, const std::string& file, int source) {
  const auto g = wg::datasets::read_graph(file);
  std::map<std::pair<std::uint64_t, std::uint64_t>, double> lightest;
  for (std::size_t i = 0; i < g.edges.size(); ++i) {
    const double w = command == "sssp" && g.edges.weighted() ? g.edges.weight[i] : 1.0;
    for (auto key : {std::pair<std::uint64_t, std::uint64_t>{g.edges.src[i], g.edges.dst[i]},
                     std::pair<std::uint64_t, std::uint64_t>{g.edges.dst[i], g.edges.src[i]}}) {
      auto [it, fresh] = lightest.emplace(key, w);
      if (!fresh) it->second = std::min(it->second, w);
    }
  }
  std::string first;
  for (const std::string& backend : backends_here()) {
    // Fractional weights: the cpu and gpu graphs refuse them (they cannot hold them exactly).
    if (command == "sssp" && backend != "reference" && g.edges.weighted()) continue;
    const std::string out = wg::test::temp_path(backend + "_tree.csv");
    const CliRun r = run_cli(
        {command, file, "--source", std::to_string(source), "--backend", backend, "-o", out});
    ASSERT_EQ(r.exit_code, 0) << backend << ": " << r.err;
    const std::string text = slurp(out);
    if (first.empty()) first = text;
    EXPECT_EQ(text, first) << backend << " differs";
    const auto rows = rows_of(text, ',');
    ASSERT_EQ(rows.size(), g.edges.num_vertices + 1);
    std::vector<double> value(g.edges.num_vertices);
    for (std::size_t v = 0; v < value.size(); ++v) value[v] = std::stod(rows[v + 1][1]);
    for (std::size_t v = 0; v < value.size(); ++v) {
      const auto& row = rows[v + 1];
      const long parent = std::stol(row[2]);
      if (static_cast<int>(v) == source) {
        EXPECT_EQ(parent, source);
      } else if (row[1] == "-1" || row[1] == "inf") {
        EXPECT_EQ(parent, -1) << v;
      } else {
        ASSERT_GE(parent, 0) << v;
        const auto it = lightest.find({static_cast<std::uint64_t>(parent), v});
        ASSERT_NE(it, lightest.end()) << "no edge " << parent << " - " << v;
        EXPECT_EQ(value[parent] + it->second, value[v]) << backend << " vertex " << v;
      }
    }
  }
}

TEST(CliIssue44, BfsParentsAndSsspPredecessorsFormShortestPathTrees) {
  WG_REQUIRE_DATASET(karate, "karate.mtx");
  WG_REQUIRE_DATASET(netscience, "netscience.mtx");  // weighted
  expect_path_trees("bfs", karate, 3);
  expect_path_trees("sssp", karate, 3);
  expect_path_trees("bfs", netscience, 33);
  expect_path_trees("sssp", netscience, 33);
}

TEST(CliIssue44, ZeroWeightCyclesStillGiveATree) {
  // 0, 1 and 2 all lie at distance 0: a predecessor rule "distance + length == distance" alone
  // would allow the cycle 1 -> 2 -> 1; following predecessors must reach the source.
  const std::string path = write_temp_file("zero.txt", "1 2 0\n2 1 0\n0 1 0\n2 3 5\n");
  for (const std::string& backend : backends_here()) {
    const std::string out = wg::test::temp_path(backend + "_zero.csv");
    ASSERT_EQ(run_cli({"sssp", path, "--backend", backend, "-o", out}).exit_code, 0) << backend;
    const auto rows = rows_of(slurp(out), ',');
    ASSERT_EQ(rows.size(), 5u);
    for (std::size_t v = 0; v < 4; ++v) {
      std::size_t at = v, steps = 0;
      while (at != 0 && steps++ < 4) at = std::stoul(rows[at + 1][2]);
      EXPECT_EQ(at, 0u) << backend << ": vertex " << v << " does not lead to the source";
    }
    EXPECT_EQ(rows[4][1], "5") << backend;
  }
}

// ---- stream -o and --batch-csv ----------------------------------------------------------------

TEST(CliIssue44, StreamWritesFinalResultsAndAPerBatchCsv) {
  if (!has_backend("cpu")) GTEST_SKIP() << "cpu backend not built";
  WG_REQUIRE_DATASET(path, "dolphins.mtx");
  const std::string out = wg::test::temp_path("final.csv"), batches = wg::test::temp_path("b.csv");
  const json j =
      json_of(run_cli({"stream", path, "--backend", "cpu", "--batch-size", "16", "--algo",
                       "tc,cc,bfs,kcore", "-o", out, "--batch-csv", batches, "--json"}));
  const auto g = wg::datasets::read_graph(path);
  const auto rows = rows_of(slurp(out), ',');
  ASSERT_EQ(rows.size(), g.edges.num_vertices + 1);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"vertex", "triangles", "component", "bfs_level",
                                               "bfs_parent", "core"}));
  // The generated stream ends on the whole graph.
  const auto triangles = wg::reference::triangle_count(g.edges).per_vertex;
  const auto cores = wg::reference::core_numbers(g.edges);
  const auto levels = wg::reference::bfs_levels(g.edges, 0);
  for (std::size_t v = 0; v < g.edges.num_vertices; ++v) {
    EXPECT_EQ(rows[v + 1][1], std::to_string(triangles[v]));
    EXPECT_EQ(rows[v + 1][2], "0");  // one component
    EXPECT_EQ(rows[v + 1][3], std::to_string(levels[v]));
    EXPECT_EQ(rows[v + 1][5], std::to_string(cores[v]));
  }
  const auto csv = rows_of(slurp(batches), ',');
  ASSERT_EQ(csv.size(), j["batches"].size() + 2);  // header, initial, batches
  EXPECT_EQ(csv[0][0], "batch");
  EXPECT_NE(std::find(csv[0].begin(), csv[0].end(), "cc_components"), csv[0].end());
  EXPECT_EQ(csv[1][1], "initial");
  const json& last = j["batches"].back();
  EXPECT_EQ(csv.back()[0], std::to_string(last["index"].get<int>()));
  EXPECT_EQ(csv.back()[4], std::to_string(last["triangles"].get<std::uint64_t>()));
}

}  // namespace
