// `warpgraph stream`: the README's main job on the bundled graph, and replays of hand-written
// update and temporal files checked batch by batch against a brute-force model.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <warpgraph/algorithms/reference/reference.hpp>
#include <warpgraph/datasets/read_graph.hpp>

#include "backend.hpp"
#include "subprocess.hpp"
#include "test_support.hpp"
#include "tracked_algorithm.hpp"

namespace {

using nlohmann::json;
using wg::test::CliRun;
using wg::test::run_cli;
using wg::test::write_temp_file;

/// Undirected simple graph on a few vertices, counted by brute force over all triples.
class Model {
 public:
  void insert(unsigned u, unsigned v) {
    if (u != v) edges_.insert(key(u, v));
  }
  void erase(unsigned u, unsigned v) { edges_.erase(key(u, v)); }
  std::size_t edges() const { return edges_.size(); }
  std::uint64_t triangles() const {
    unsigned n = 0;
    for (auto [u, v] : edges_) n = std::max(n, v + 1);
    std::uint64_t t = 0;
    for (unsigned a = 0; a < n; ++a)
      for (unsigned b = a + 1; b < n; ++b)
        if (has(a, b))
          for (unsigned c = b + 1; c < n; ++c) t += has(a, c) && has(b, c);
    return t;
  }

 private:
  static std::pair<unsigned, unsigned> key(unsigned u, unsigned v) {
    return {std::min(u, v), std::max(u, v)};
  }
  bool has(unsigned u, unsigned v) const { return edges_.count(key(u, v)) > 0; }
  std::set<std::pair<unsigned, unsigned>> edges_;
};

json parse_json(const CliRun& r) {
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

const std::string kBundled = wg::test::source_path("datasets/data/facebook_combined.txt.gz");

TEST(CliStream, DefaultRunOnTheBundledGraphIsVerified) {
  const CliRun r = run_cli({"stream", "--verify"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;  // stderr is not a terminal here: no progress bar
  const std::uint64_t expected =
      wg::reference::triangle_count(wg::datasets::read_graph(kBundled).edges).total;
  EXPECT_EQ(expected, 1612010u);  // SNAP's published figure
  // The README quotes this line exactly.
  EXPECT_NE(r.out.find("\ntriangles: 1612010 (verified against reference)\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("facebook_combined.txt.gz"), std::string::npos);
}

TEST(CliStream, JsonBatchesAreConsistent) {
  const CliRun r = run_cli({"stream", kBundled, "--batch-size", "8192", "--delete-probability",
                            "0.8", "--seed", "7", "--verify", "--json"});
  const json j = parse_json(r);
  EXPECT_EQ(j["triangles"].get<std::uint64_t>(), 1612010u);
  EXPECT_TRUE(j["verified"].get<bool>());
  EXPECT_EQ(j["verification"]["input_reference"].get<std::uint64_t>(), 1612010u);
  EXPECT_TRUE(j["verification"]["edges_match_replay"].get<bool>());
  const auto& batches = j["batches"];
  ASSERT_FALSE(batches.empty());
  std::uint64_t previous = j["initial"]["triangles"].get<std::uint64_t>();
  std::uint64_t updates = 0, erase_batches = 0;
  for (const auto& b : batches) {
    const auto t = b["triangles"].get<std::uint64_t>();
    EXPECT_LE(b["size"].get<std::uint64_t>(), 8192u);
    EXPECT_LE(b["edges_changed"].get<std::uint64_t>(), b["size"].get<std::uint64_t>());
    if (b["kind"] == "insert") {
      EXPECT_GE(t, previous);
    } else {
      ++erase_batches;
      EXPECT_LE(t, previous);
    }
    previous = t;
    updates += b["size"].get<std::uint64_t>();
  }
  EXPECT_GT(erase_batches, 0u);
  EXPECT_EQ(j["summary"]["updates"].get<std::uint64_t>(), updates);
  EXPECT_EQ(j["summary"]["edges"].get<std::uint64_t>(), 88234u);
  EXPECT_EQ(j["summary"]["batches"].get<std::size_t>(), batches.size());
}

TEST(CliStream, VerbosePrintsOneLinePerBatch) {
  const CliRun r = run_cli({"stream", kBundled, "--batch-size", "16384", "--verbose"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("batches:\\s+(\\d+):")));
  const int batches = std::stoi(m[1]);
  const std::regex line("^\\s+\\d+\\s+(insert|erase)\\s+\\d+\\s+\\d+\\s+\\d+\\s+[0-9.]+$");
  std::istringstream in(r.out);
  int lines = 0;
  for (std::string s; std::getline(in, s);) lines += std::regex_match(s, line);
  EXPECT_EQ(lines, batches);
}

/// Runs `stream --updates` and checks each batch's count and size against the model replay.
void check_update_replay(const std::string& updates_text, const std::vector<std::string>& extra,
                         Model model) {
  const std::string updates = write_temp_file("updates.txt", updates_text);
  std::vector<std::string> args = {"stream", "--updates", updates, "--verify", "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const json j = parse_json(run_cli(args));
  EXPECT_EQ(j["initial"]["triangles"].get<std::uint64_t>(), model.triangles());
  // Replay the same file into the model: '=' or a change of sign starts a batch.
  std::vector<std::pair<char, std::vector<std::pair<unsigned, unsigned>>>> batches;
  std::istringstream in(updates_text);
  char last = 0;
  for (std::string s; std::getline(in, s);) {
    if (s.empty() || s[0] == '#') continue;
    if (s[0] == '=') {
      last = 0;
      continue;
    }
    std::istringstream fields(s);
    char sign;
    unsigned u, v;
    fields >> sign >> u >> v;
    if (sign != last) batches.push_back({sign, {}});
    batches.back().second.push_back({u, v});
    last = sign;
  }
  ASSERT_EQ(j["batches"].size(), batches.size());
  for (std::size_t i = 0; i < batches.size(); ++i) {
    const std::size_t before = model.edges();
    for (auto [u, v] : batches[i].second) {
      if (batches[i].first == '+') {
        model.insert(u, v);
      } else {
        model.erase(u, v);
      }
    }
    const json& b = j["batches"][i];
    EXPECT_EQ(b["kind"], batches[i].first == '+' ? "insert" : "erase") << "batch " << i;
    EXPECT_EQ(b["size"].get<std::size_t>(), batches[i].second.size()) << "batch " << i;
    EXPECT_EQ(b["edges_changed"].get<std::size_t>(),
              model.edges() > before ? model.edges() - before : before - model.edges())
        << "batch " << i;
    EXPECT_EQ(b["triangles"].get<std::uint64_t>(), model.triangles()) << "batch " << i;
  }
  EXPECT_TRUE(j["verified"].get<bool>()) << j["verification"].dump();
  EXPECT_EQ(j["summary"]["edges"].get<std::size_t>(), model.edges());
}

// Triangles whose 1, 2 or 3 edges arrive in one batch, duplicates, self-loops, re-insertions,
// deletions of absent edges, and deletions that take 1-3 edges of a triangle at once.
const char* kHandWritten = R"(# a hand-written stream
+ 0 1
+ 1 2
+ 2 0
+ 2 0
+ 1 0
=
+ 2 3
+ 3 0
+ 3 3
+ 1 2
+ 4 5
+ 5 6
+ 6 4
+ 4 1
+ 1 5
- 0 2
- 7 8
- 2 0
- 4 5
- 6 4
- 5 6
=
- 0 1
+ 0 2
+ 4 6
+ 6 0
+ 6 1
+ 6 2
)";

TEST(CliStream, HandWrittenUpdatesOnAnEmptyGraph) {
  check_update_replay(kHandWritten, {}, Model{});
}

TEST(CliStream, HandWrittenUpdatesOnTopOfAFile) {
  const std::string initial = write_temp_file("initial.txt", "0 3\n1 3\n2 4\n9 10\n");
  Model model;
  model.insert(0, 3);
  model.insert(1, 3);
  model.insert(2, 4);
  model.insert(9, 10);
  check_update_replay(kHandWritten, {initial}, model);
}

TEST(CliStream, TemporalEdgeListEndsOnTheUnionOfItsEdges) {
  // Edges with timestamps out of order; windows of 10 time units.
  const std::string temporal =
      write_temp_file("temporal.txt", "0 1 5\n1 2 12\n2 0 31\n2 3 3\n3 0 17\n0 1 25\n4 0 30\n");
  Model model;
  for (auto [u, v] :
       std::vector<std::pair<unsigned, unsigned>>{{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 0}, {4, 0}}) {
    model.insert(u, v);
  }
  const json j = parse_json(
      run_cli({"stream", "--temporal", temporal, "--window", "10", "--verify", "--json"}));
  EXPECT_GE(j["batches"].size(), 2u);
  for (const auto& b : j["batches"]) EXPECT_EQ(b["kind"], "insert");
  EXPECT_EQ(j["triangles"].get<std::uint64_t>(), model.triangles());
  EXPECT_EQ(j["summary"]["edges"].get<std::size_t>(), model.edges());
  EXPECT_TRUE(j["verified"].get<bool>());
}

}  // namespace

// ---- stream --algo: several results kept at once -----------------------------------------------

namespace {

/// The backends this build can stream several results on (reference keeps the count only).
std::vector<std::string> tracking_backends() {
  std::vector<std::string> out;
  for (const std::string& b : wg::cli::usable_backends())
    if (b != "reference") out.push_back(b);
  return out;
}

}  // namespace

TEST(CliStreamAlgo, EveryResultVerifiedEveryFewBatches) {
  const auto karate = wg::test::shared_dataset("karate.mtx");
  ASSERT_TRUE(karate);
  for (const std::string& backend : tracking_backends()) {
    SCOPED_TRACE(backend);
    const CliRun r = run_cli({"stream", *karate, "--backend", backend, "--batch-size", "8",
                              "--algo", "tc,bfs,cc,pagerank,kcore,sssp", "--source", "5",
                              "--verify", "--verify-every", "2", "--json"});
    const json j = parse_json(r);
    EXPECT_EQ(j["verified"], true);
    ASSERT_EQ(j["algorithms"].size(), 6u);
    const std::vector<std::string> names = {"tc", "bfs", "cc", "pagerank", "kcore", "sssp"};
    for (std::size_t i = 0; i < names.size(); ++i) EXPECT_EQ(j["algorithms"][i]["algo"], names[i]);
    ASSERT_FALSE(j["batches"].empty());
    for (const json& b : j["batches"]) {
      ASSERT_EQ(b["algorithms"].size(), 6u);
      EXPECT_EQ(b["algorithms"][0]["summary"], b["triangles"]);
    }
    // The final components and triangles of karate: one component, 45 triangles.
    EXPECT_EQ(j["algorithms"][2]["summary"], 1);
    EXPECT_EQ(j["algorithms"][0]["summary"], 45);
  }
}

TEST(CliStreamAlgo, BadListsAreUsageErrors) {
  for (const char* list : {"foo", "tc,tc", "bfs,,cc"}) {
    const CliRun r = run_cli({"stream", "--algo", list});
    EXPECT_EQ(r.exit_code, 2) << list << ": " << r.err;
    EXPECT_NE(r.err.find("--algo"), std::string::npos) << r.err;
  }
  const CliRun ref = run_cli({"stream", "--backend", "reference", "--algo", "bfs"});
  EXPECT_EQ(ref.exit_code, 2) << ref.err;
  EXPECT_NE(ref.err.find("keeps only the triangle count"), std::string::npos) << ref.err;
}

TEST(CliStreamAlgo, ReferenceChecksCatchAWrongResult) {
  // check_against_reference is what --verify and --verify-every call: a wrong value is caught.
  wg::EdgeList path;  // 0 - 1 - 2, and 3 alone
  path.num_vertices = 4;
  path.symmetric = true;
  path.src = {0, 1};
  path.dst = {1, 2};
  using wg::cli::AlgorithmKind;
  EXPECT_EQ(wg::cli::check_against_reference({.kind = AlgorithmKind::bfs}, path, {0, 1, 2, -1}, 0),
            "");
  EXPECT_NE(wg::cli::check_against_reference({.kind = AlgorithmKind::bfs}, path, {0, 1, 1, -1}, 0),
            "");
  EXPECT_EQ(wg::cli::check_against_reference({.kind = AlgorithmKind::cc}, path, {0, 0, 0, 3}, 0),
            "");
  EXPECT_NE(wg::cli::check_against_reference({.kind = AlgorithmKind::cc}, path, {0, 0, 2, 3}, 0),
            "");
  EXPECT_NE(wg::cli::check_against_reference({.kind = AlgorithmKind::kcore}, path, {1, 1, 1, 1}, 0),
            "");
  EXPECT_NE(wg::cli::check_against_reference({.kind = AlgorithmKind::tc}, path, {}, 1), "");
  EXPECT_NE(wg::cli::check_against_reference({.kind = AlgorithmKind::pagerank}, path,
                                             {0.25, 0.25, 0.25, 0.25}, 0),
            "");
}
