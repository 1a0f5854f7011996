// The algorithm registry (algorithms/registry.hpp) as the CLI reaches it: every registered
// algorithm is a command (help, text and JSON on karate, agreeing with its entry's reference on
// every backend of this build), a `stream --algo` name verified against its reference, and its
// reference check catches a wrong value. An entry that reads_weights (sssp) does all this on a
// weighted file too, and its weights are refused where a backend cannot hold them; the entry the
// graph backends keep (tc) is their count.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <warpgraph/datasets/read_graph.hpp>

#include "backend.hpp"
#include "registered_algorithms.hpp"
#include "subprocess.hpp"
#include "test_support.hpp"
#include "tracked_algorithm.hpp"

namespace {

using nlohmann::json;
using wg::test::CliRun;
using wg::test::run_cli;
using wg::test::write_temp_file;

template <class Entry>
void check_command(const std::string& karate) {
  SCOPED_TRACE(Entry::name);
  const CliRun help = run_cli({Entry::name, "--help"});
  EXPECT_EQ(help.exit_code, 0) << help.err;
  EXPECT_NE(help.out.find(std::string("warpgraph ") + Entry::name), std::string::npos);
  const CliRun all = run_cli({"--help"});
  EXPECT_NE(all.out.find(Entry::summary), std::string::npos);
  const typename Entry::Result want =
      Entry::reference(wg::datasets::read_graph(karate).edges, typename Entry::Options{});
  for (const char* backend : {"reference", "cpu", "auto"}) {  // auto: gpu where usable
    const CliRun r = run_cli({Entry::name, karate, "--backend", backend, "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["command"], Entry::name);
    for (const wg::SummaryField& f : wg::entry_fields<Entry>(want, {})) {
      if (f.boolean)
        EXPECT_EQ(j[f.key].get<bool>(), f.value != 0) << backend << " " << f.key;
      else
        EXPECT_NEAR(j[f.key].get<double>(), f.value, 1e-9) << backend << " " << f.key;
    }
    const CliRun text = run_cli({Entry::name, karate, "--backend", backend});
    ASSERT_EQ(text.exit_code, 0) << text.err;
    for (const wg::SummaryField& f : wg::entry_fields<Entry>(want, {}))
      if (!f.json_only)
        EXPECT_NE(text.out.find(std::string(f.label) + ":"), std::string::npos) << text.out;
  }
}

/// The entry the backends keep (kept_by_backends): `stream` reports their running count under its
/// names, verified against its reference, and its check catches a moved count.
template <class Entry>
void check_kept(const std::string& karate) {
  std::vector<std::string> backends{"reference", "cpu"};
  if (wg::cli::gpu_backend_usable()) backends.push_back("gpu");
  wg::EdgeList edges = wg::datasets::read_graph(karate).edges;
  edges.symmetric = true;
  const double want = Entry::stream_summary(Entry::reference(edges, {}));
  for (const std::string& backend : backends) {
    const CliRun r = run_cli({"stream", karate, "--backend", backend, "--batch-size", "8", "--algo",
                              Entry::name, "--verify", "--verify-every", "2", "--json"});
    ASSERT_EQ(r.exit_code, 0) << backend << ": " << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["verified"], true) << backend;
    EXPECT_EQ(j[Entry::stream_key].template get<double>(), want)
        << backend;  // the stream ends on FILE
    const CliRun text = run_cli({"stream", karate, "--backend", backend, "--algo", Entry::name});
    EXPECT_NE(text.out.find(std::string(Entry::stream_label) + ": "), std::string::npos);
  }
  // The command on each of the gpu backend's adjacencies (its counting strategy), per vertex too.
  const std::vector<double> per_vertex = Entry::values(Entry::reference(edges, {}));
  for (const std::string& adjacency :
       wg::cli::gpu_backend_usable() ? wg::cli::gpu_adjacencies() : std::vector<std::string>{}) {
    const std::vector<std::string> args{Entry::name, karate,        "--backend",
                                        "gpu",       "--adjacency", adjacency};
    std::vector<std::string> json_args = args;
    json_args.push_back("--json");
    const CliRun c = run_cli(json_args);
    ASSERT_EQ(c.exit_code, 0) << adjacency << ": " << c.err;
    EXPECT_EQ(json::parse(c.out)[Entry::stream_key].template get<double>(), want) << adjacency;
    std::vector<std::string> csv_args = args;
    for (const char* a : {"-o", "-", "--output-format", "csv"}) csv_args.push_back(a);
    const CliRun rows = run_cli(csv_args);
    ASSERT_EQ(rows.exit_code, 0) << adjacency << ": " << rows.err;
    std::istringstream in(rows.out);
    std::string line;
    std::getline(in, line);  // the header
    std::vector<double> got;
    while (std::getline(in, line)) got.push_back(std::stod(line.substr(line.find(',') + 1)));
    EXPECT_EQ(got, per_vertex) << adjacency;
  }
  const wg::cli::AlgorithmSpec spec{.kind = {Entry::name}};
  EXPECT_EQ(wg::cli::check_against_reference(spec, edges, {}, want), "");
  EXPECT_NE(wg::cli::check_against_reference(spec, edges, {}, want + 1), "");
}

template <class Entry>
void check_tracked(const std::string& karate) {
  SCOPED_TRACE(Entry::name);
  if constexpr (Entry::kept_by_backends) {
    check_kept<Entry>(karate);
    return;
  }
  std::vector<std::string> backends{"cpu"};
  if (wg::cli::gpu_backend_usable()) backends.push_back("gpu");
  for (const std::string& backend : backends) {
    const CliRun r =
        run_cli({"stream", karate, "--backend", backend, "--batch-size", "8", "--algo",
                 std::string("tc,") + Entry::name, "--verify", "--verify-every", "2", "--json"});
    ASSERT_EQ(r.exit_code, 0) << backend << ": " << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["verified"], true) << backend;
    ASSERT_EQ(j["algorithms"].size(), 2u);
    EXPECT_EQ(j["algorithms"][1]["algo"], Entry::name);
    const auto want = Entry::reference(wg::datasets::read_graph(karate).edges, {});
    if (Entry::summary_is_static)  // else it describes the last batch, not the whole graph
      EXPECT_NEAR(j["algorithms"][1]["summary"].get<double>(), Entry::stream_summary(want), 1e-9)
          << backend;
    else
      EXPECT_GE(j["algorithms"][1]["summary"].get<double>(), 0) << backend;
  }

  // The check --verify runs catches a moved value.
  wg::EdgeList edges = wg::datasets::read_graph(karate).edges;
  edges.symmetric = true;
  std::vector<double> values = Entry::values(Entry::reference(edges, {}));
  const wg::cli::AlgorithmSpec spec{.kind = {Entry::name}};
  EXPECT_EQ(wg::cli::check_against_reference(spec, edges, values, 0), "");
  ASSERT_FALSE(values.empty());
  values[values.size() / 2] += 0.5;
  EXPECT_NE(wg::cli::check_against_reference(spec, edges, values, 0), "");
}

/// An entry that reads_weights, on a weighted file: the command agrees with the reference (which
/// reads the weights) and writes distances with predecessors; a weight the cpu graph cannot hold
/// is refused there (auto takes the reference); `stream --algo` follows weighted insertions and
/// erasures on cpu, verified, and the gpu backend, whose stream graph keeps no weights, refuses.
template <class Entry>
void check_weighted() {
  SCOPED_TRACE(Entry::name);
  const std::string name = Entry::name;
  // 0 -5- 1 -1- 2, 0 -10- 2, 2 -2.5- 3: the weights decide every path but 0-1.
  const std::string path =
      write_temp_file(name + "_weighted.txt", "0 1 5\n1 2 1\n0 2 10\n2 3 2.5\n");
  const typename Entry::Result want =
      Entry::reference(wg::datasets::read_graph(path).edges, typename Entry::Options{});
  const std::string out = wg::test::temp_path(name + "_weighted.csv");
  for (const char* backend : {"reference", "cpu", "auto"}) {
    const CliRun r = run_cli({Entry::name, path, "--backend", backend, "--json", "-o", out});
    ASSERT_EQ(r.exit_code, 0) << backend << ": " << r.err;
    const json j = json::parse(r.out);
    for (const wg::SummaryField& f : wg::entry_fields<Entry>(want, {}))
      EXPECT_NEAR(j[f.key].get<double>(), f.value, 1e-9) << backend << " " << f.key;
    const std::string table = wg::test::read_text(out);
    EXPECT_EQ(table.substr(0, table.find('\n')),
              std::string("vertex,") + wg::entry_value_name<Entry>() + ",predecessor")
        << backend;
  }
  const std::string wide = write_temp_file(name + "_wide.txt", "0 1 16777217\n1 2 1\n");
  const CliRun cpu = run_cli({Entry::name, wide, "--backend", "cpu"});
  EXPECT_EQ(cpu.exit_code, 2);
  EXPECT_NE(cpu.err.find(wide + ":1: weight 16777217"), std::string::npos) << cpu.err;
  const CliRun any = run_cli({Entry::name, wide, "--json"});
  ASSERT_EQ(any.exit_code, 0) << any.err;
  EXPECT_EQ(json::parse(any.out)["backend"], "reference");

  const std::string updates =
      write_temp_file(name + "_weighted_updates.txt", "+ 0 2 3\n+ 3 4 1\n=\n- 1 2\n");
  const CliRun s = run_cli({"stream", path, "--updates", updates, "--backend", "cpu", "--algo",
                            "tc," + name, "--verify-every", "1", "--verify", "--json"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_EQ(json::parse(s.out)["verified"], true);
  if (wg::cli::gpu_backend_usable()) {
    const CliRun g = run_cli({"stream", path, "--backend", "gpu", "--algo", name});
    EXPECT_EQ(g.exit_code, 2);
    EXPECT_NE(g.err.find("--algo " + name + ": the gpu backend's stream graph keeps no weights"),
              std::string::npos)
        << g.err;
  }
}

TEST(Registry, EveryRegisteredAlgorithmIsACommand) {
  WG_REQUIRE_DATASET(karate, "karate.mtx");
#define WG_TEST_COMMAND(Entry) check_command<Entry>(karate);
  WG_REGISTERED(WG_TEST_COMMAND)
#undef WG_TEST_COMMAND
}

TEST(Registry, EveryRegisteredAlgorithmIsTracked) {
  WG_REQUIRE_DATASET(karate, "karate.mtx");
  std::vector<std::string> names;
  for (const wg::cli::AlgorithmKind k : wg::cli::tracked_kinds()) names.emplace_back(k.name);
#define WG_TEST_TRACKED(Entry)                                                \
  EXPECT_NE(std::find(names.begin(), names.end(), Entry::name), names.end()); \
  check_tracked<Entry>(karate);
  WG_REGISTERED(WG_TEST_TRACKED)
#undef WG_TEST_TRACKED
}

TEST(Registry, EntriesThatReadWeightsKeepThem) {
  int readers = 0;
#define WG_TEST_WEIGHTED(Entry)         \
  if constexpr (Entry::reads_weights) { \
    ++readers;                          \
    check_weighted<Entry>();            \
  }
  WG_REGISTERED(WG_TEST_WEIGHTED)
#undef WG_TEST_WEIGHTED
  EXPECT_GE(readers, 1);  // sssp
}

TEST(Registry, TheBackendsCountIsTheOneKeptEntry) {
  std::vector<std::string> kept;
#define WG_TEST_KEPT(Entry) \
  if (Entry::kept_by_backends) kept.emplace_back(Entry::name);
  WG_REGISTERED(WG_TEST_KEPT)
#undef WG_TEST_KEPT
  EXPECT_EQ(kept, std::vector<std::string>{wg::cli::BackendCount::name});
  // Listed first (its list_position), as the command list and the --algo names had it.
  ASSERT_FALSE(wg::cli::tracked_kinds().empty());
  EXPECT_EQ(std::string(wg::cli::tracked_kinds().front().name), wg::cli::BackendCount::name);
  const CliRun all = run_cli({"--help"});
  const auto at = [&](const char* name) {
    return all.out.find(std::string("  ") + name + " FILE");
  };
  ASSERT_NE(at(wg::cli::BackendCount::name), std::string::npos) << all.out;
#define WG_TEST_AFTER(Entry)    \
  if (!Entry::kept_by_backends) \
    EXPECT_LT(at(wg::cli::BackendCount::name), at(Entry::name)) << Entry::name;
  WG_REGISTERED(WG_TEST_AFTER)
#undef WG_TEST_AFTER
}

}  // namespace
