// Issue 44's wiring of the readers into the CLI: vertex operations and weighted insertions in
// `stream --updates` files (checked against a replay and the reference after every batch), the
// negative-weight error of sssp on every backend, the CSV/TSV reading options, and the notice
// for a FIFO without a writer.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend.hpp"
#include "subprocess.hpp"

namespace {

using nlohmann::json;
using wg::test::CliRun;
using wg::test::run_cli;
using wg::test::write_temp_file;

bool usable(const std::string& backend) {
  const auto b = wg::cli::usable_backends();
  return std::find(b.begin(), b.end(), backend) != b.end();
}

/// An undirected simple graph with erasable vertices, as the graphs define them: an erased
/// vertex loses its edges, and insertions naming it are ignored until it is inserted again.
class VertexModel {
 public:
  void insert(unsigned u, unsigned v) {
    if (u != v && !erased_.count(u) && !erased_.count(v)) edges_.insert(key(u, v));
  }
  void erase(unsigned u, unsigned v) { edges_.erase(key(u, v)); }
  void erase_vertex(unsigned v) {
    std::erase_if(edges_, [&](auto e) { return e.first == v || e.second == v; });
    erased_.insert(v);
  }
  void insert_vertex(unsigned v) { erased_.erase(v); }
  std::size_t edges() const { return edges_.size(); }
  std::uint64_t triangles() const {
    std::uint64_t t = 0;
    for (auto [a, b] : edges_)
      for (auto [c, d] : edges_)
        if (c == b && edges_.count(key(a, d))) ++t;  // a < b < d
    return t;
  }

 private:
  static std::pair<unsigned, unsigned> key(unsigned u, unsigned v) {
    return {std::min(u, v), std::max(u, v)};
  }
  std::set<std::pair<unsigned, unsigned>> edges_;
  std::set<unsigned> erased_;
};

/// Triangles: 0-1-2, 0-2-3. Then vertex 2 goes (an edge to it is ignored while it is away),
/// comes back, the source 0 goes and comes back, vertex 9 is added (the range grows) and erased.
const char* kVertexOps = R"(+ 0 1
+ 1 2
+ 2 0
+ 2 3
+ 3 0
+ 4 5
=
-v 2
+ 2 4
+ 1 3
+v 2
+ 2 4
+ 2 1
+ 2 3
-v 0
+ 0 5
+v 9
+ 9 1
+ 9 3
-v 9
-v 4
+v 0
+ 0 1
+ 0 3
)";

/// The model after each batch of kVertexOps ('=' or a change of operation starts a batch).
std::vector<std::pair<std::string, std::uint64_t>> replay(const std::string& text,
                                                          VertexModel& model) {
  std::vector<std::pair<std::string, std::uint64_t>> batches;  // kind, triangles after it
  std::istringstream in(text);
  std::string last;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    if (line == "=") {
      last.clear();
      continue;
    }
    std::istringstream fields(line);
    std::string op;
    fields >> op;
    std::vector<unsigned> ids;
    for (unsigned x; fields >> x;) ids.push_back(x);
    if (op != last) batches.push_back({op, 0});
    last = op;
    if (op == "+") model.insert(ids[0], ids[1]);
    if (op == "-") model.erase(ids[0], ids[1]);
    for (unsigned v : ids) {
      if (op == "-v") model.erase_vertex(v);
      if (op == "+v") model.insert_vertex(v);
    }
    batches.back().second = model.triangles();
  }
  return batches;
}

TEST(CliUpdates, VertexOperationsAreAppliedAndVerifiedAfterEveryBatch) {
  const std::string updates = write_temp_file("vertex_ops.txt", kVertexOps);
  VertexModel model;
  const auto expected = replay(kVertexOps, model);
  const std::map<std::string, std::string> kinds = {
      {"+", "insert"}, {"-", "erase"}, {"+v", "insert_vertices"}, {"-v", "erase_vertices"}};
  for (const std::string backend : {"cpu", "reference", "gpu"}) {
    if (!usable(backend)) continue;
    SCOPED_TRACE(backend);
    std::vector<std::string> args = {"stream",    "--updates", updates,
                                     "--backend", backend,     "--verify-every",
                                     "1",         "--verify",  "--json"};
    if (backend != "reference") {
      for (const char* a : {"--algo", "tc,bfs,cc,pagerank,kcore,sssp", "--source", "0"})
        args.push_back(a);
    }
    const CliRun r = run_cli(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["verified"], true) << j["verification"].dump();
    ASSERT_EQ(j["batches"].size(), expected.size());
    EXPECT_EQ(j["verify_every"]["checks_passed"].get<std::size_t>(), expected.size());
    std::size_t vertex_batches = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const json& b = j["batches"][i];
      EXPECT_EQ(b["kind"], kinds.at(expected[i].first)) << "batch " << i;
      EXPECT_EQ(b["triangles"].get<std::uint64_t>(), expected[i].second) << "batch " << i;
      vertex_batches += expected[i].first.size() == 2;
      if (backend == "reference") continue;
      for (const json& a : b["algorithms"]) EXPECT_EQ(a["summary"].is_number(), true);
    }
    EXPECT_EQ(j["summary"]["vertex_batches"].get<std::size_t>(), vertex_batches);
    EXPECT_EQ(j["summary"]["edges"].get<std::size_t>(), model.edges());
    if (backend != "reference") {
      // The source's erasure is answered by recomputing the traversals (counted, not silent).
      const json& b = j["batches"][5];  // -v 0
      ASSERT_EQ(b["kind"], "erase_vertices");
      EXPECT_EQ(b["algorithms"][1]["algo"], "bfs");
      EXPECT_EQ(b["algorithms"][1]["recomputed"], true);
      EXPECT_EQ(b["algorithms"][1]["summary"], 0);  // nothing reached from an erased source
    }
  }
}

TEST(CliUpdates, WeightedInsertionsKeepTheSmallestWeightForSssp) {
  if (!usable("cpu")) GTEST_SKIP() << "cpu backend not built";
  const std::string graph = write_temp_file("w_graph.txt", "0 1 5\n1 2 1\n0 2 10\n");
  // 0-2 goes down to 3; 0-1 at 7 is heavier than its 5 and changes nothing; 1-2 goes.
  const std::string updates =
      write_temp_file("w_updates.txt", "+ 0 2 3\n+ 2 3 1\n=\n+ 0 1 7\n=\n- 1 2\n");
  const std::string out = wg::test::temp_path("w_final.csv");
  const CliRun r =
      run_cli({"stream", graph, "--updates", updates, "--backend", "cpu", "--algo", "tc,sssp",
               "--source", "0", "--verify-every", "1", "--verify", "-o", out, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["verified"], true);
  std::FILE* f = std::fopen(out.c_str(), "r");
  ASSERT_NE(f, nullptr);
  char buf[4096];
  const std::string csv(buf, std::fread(buf, 1, sizeof buf, f));
  std::fclose(f);
  // vertex,triangles,sssp_distance,sssp_predecessor: 0 -5- 1, 0 -3- 2 -1- 3.
  EXPECT_NE(csv.find("\n0,0,0,0\n1,0,5,0\n2,0,3,0\n3,0,4,2\n"), std::string::npos) << csv;
  if (usable("gpu")) {  // its stream graph keeps no weights: refused, never unit lengths
    const CliRun g =
        run_cli({"stream", graph, "--updates", updates, "--backend", "gpu", "--algo", "sssp"});
    EXPECT_EQ(g.exit_code, 2);
    EXPECT_NE(g.err.find("keeps no weights"), std::string::npos) << g.err;
  }
}

TEST(CliUpdates, NegativeWeightsNameFileAndLineOnEveryBackend) {
  const std::string neg = write_temp_file("neg.txt", "0 1 1\n1 2 -3\n");
  const std::string want = neg + ":2: negative weight -3 (shortest paths need weights >= 0)";
  std::vector<std::string> backends = wg::cli::usable_backends();
  backends.push_back("auto");
  for (const std::string& backend : backends) {
    const CliRun r = run_cli({"sssp", neg, "--backend", backend});
    EXPECT_EQ(r.exit_code, 1) << backend;
    EXPECT_EQ(r.err, "warpgraph: " + want + "\n") << backend;
  }
  if (usable("cpu")) {
    const CliRun s = run_cli({"stream", neg, "--backend", "cpu", "--algo", "sssp"});
    EXPECT_EQ(s.exit_code, 1);
    EXPECT_NE(s.err.find(want), std::string::npos) << s.err;
    const std::string updates = write_temp_file("neg_updates.txt", "+ 0 1 2\n+ 1 2 -0.5\n");
    const CliRun u =
        run_cli({"stream", "--updates", updates, "--backend", "cpu", "--algo", "sssp"});
    EXPECT_EQ(u.exit_code, 1);
    EXPECT_NE(u.err.find(updates + ":2: negative weight -0.5"), std::string::npos) << u.err;
  }
}

TEST(CliUpdates, CsvOptionsOnEveryCommandThatReadsAGraph) {
  const std::string csv = write_temp_file("g.csv", "source,target,weight\n0,1,2\n1,2,3\n0,2,10\n");
  const auto max_distance = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"sssp", csv, "--backend", "reference", "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const CliRun r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.exit_code ? -1.0 : json::parse(r.out)["max_distance"].get<double>();
  };
  EXPECT_EQ(max_distance({}), 5.0);  // header skipped, weights read: 0 -2- 1 -3- 2
  EXPECT_EQ(max_distance({"--delimiter", "comma", "--header", "skip", "--weight-column", "2"}),
            5.0);
  // Unweighted: the weight column is then an extra column, to be ignored explicitly.
  EXPECT_EQ(max_distance({"--weight-column", "none", "--ignore-extra-columns"}), 1.0);
  EXPECT_EQ(max_distance({"--src-column", "1", "--dst-column", "0"}), 5.0);
  const CliRun no_header = run_cli({"sssp", csv, "--header", "none"});
  EXPECT_EQ(no_header.exit_code, 1);
  EXPECT_NE(no_header.err.find(csv + ":1:"), std::string::npos) << no_header.err;
  // Extra columns: an error at their line unless ignored; tabs and semicolons by name.
  const std::string extra = write_temp_file("extra.tsv", "0\t1\t1\tx\n1\t2\t1\ty\n2\t0\t1\tz\n");
  const CliRun refused = run_cli({"tc", extra, "--delimiter", "tab"});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find(extra + ":1:"), std::string::npos) << refused.err;
  const CliRun ignored =
      run_cli({"tc", extra, "--delimiter", "tab", "--ignore-extra-columns", "--json"});
  ASSERT_EQ(ignored.exit_code, 0) << ignored.err;
  EXPECT_EQ(json::parse(ignored.out)["triangles"], 1);
  const std::string semi = write_temp_file("g.ssv", "a;b\n0;1\n1;2\n2;0\n");
  for (const char* command : {"info", "tc", "bfs", "cc", "kcore", "pagerank", "sssp", "stream"}) {
    const CliRun r = run_cli({command, semi, "--delimiter", "semicolon", "--header", "skip"});
    EXPECT_EQ(r.exit_code, 0) << command << ": " << r.err;
  }
  EXPECT_EQ(run_cli({"tc", semi, "--delimiter", "pipe"}).exit_code, 2);
  EXPECT_EQ(run_cli({"tc", semi, "--weight-column", "x"}).exit_code, 2);
}

TEST(CliUpdates, AFifoWithoutAWriterIsAnnouncedOnce) {
  const std::string fifo = wg::test::temp_path("graph.fifo");
  ::unlink(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    if (std::FILE* f = std::fopen(fifo.c_str(), "w")) {
      std::fputs("0 1\n1 2\n2 0\n", f);
      std::fclose(f);
    }
  });
  const CliRun r = run_cli({"tc", fifo, "--json"});
  writer.join();
  ::unlink(fifo.c_str());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string line = "warpgraph: " + fifo + ": waiting for data (a FIFO with no writer yet)";
  EXPECT_EQ(r.err.rfind(line, 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

}  // namespace
