// warpgraph: command-line front end. `warpgraph <command> [options] [FILE]`; see README.md here.
#include <algorithm>
#include <cstring>
#include <iostream>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include <warpgraph/datasets/limits.hpp>

#include "backend.hpp"
#include "cli.hpp"
#include "registered_command.hpp"

namespace {

using namespace wg::cli;

struct Command {
  const char* name;
  const char* args;
  const char* summary;
  int (*run)(int, const char* const*);
};

/// info, the algorithm commands (the built-in ones and one per registered algorithm:
/// registered_command.hpp) in their list positions (algorithms/registry.hpp), then stream.
std::vector<Command> commands() {
  std::vector<std::pair<int, Command>> algorithms = {
  };
#define WG_CLI_COMMAND(Entry) \
  algorithms.push_back(       \
      {Entry::list_position, {Entry::name, "FILE", Entry::summary, registered_command<Entry>()}});
  WG_REGISTERED(WG_CLI_COMMAND)
#undef WG_CLI_COMMAND
  std::stable_sort(algorithms.begin(), algorithms.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Command> c = {
      {"info", "FILE", "vertices, edges, degree statistics, components, file format", run_info}};
  for (const auto& a : algorithms) c.push_back(a.second);
  c.push_back({"stream", "[FILE]",
               "stream a graph in batches of insertions and deletions, keeping an exact triangle "
               "count",
               run_stream});
  return c;
}

#ifndef WG_CLI_VERSION
#define WG_CLI_VERSION "unknown"
#endif

std::string overall_help() {
  std::string s = fmt::format(
      "warpgraph {}: analytics for graphs that change\n\n"
      "Usage: warpgraph <command> [options] [FILE]\n\nCommands:\n",
      WG_CLI_VERSION);
  for (const Command& c : commands()) {
    s += fmt::format("  {:<16}{}\n", fmt::format("{} {}", c.name, c.args), c.summary);
  }
  std::string usable;
  for (const auto& n : usable_backends()) usable += (usable.empty() ? "" : ", ") + n;
  s += fmt::format(
      "\nEvery command takes --backend NAME (usable here: {}; auto = {}), --json (one JSON "
      "document on stdout) and --help.\nFILE is a Matrix Market (.mtx) or SNAP edge list, "
      "optionally gzip-compressed; without FILE, stream uses the bundled ego-Facebook graph.\n"
      "Exit codes: 0 success, 1 error (bad input, failed check), 2 bad command line.\n"
      "Run 'warpgraph <command> --help' for a command's options.\n",
      usable, default_backend());
  return s;
}

int run(int argc, const char* const* argv) {
  if (argc < 2) {
    std::cerr << overall_help();
    return kExitUsage;
  }
  const std::string first = argv[1];
  if (first == "-h" || first == "--help" || first == "help") {
    std::cout << overall_help();
    return kExitOk;
  }
  if (first == "--version" || first == "version") {
    std::cout << "warpgraph " << WG_CLI_VERSION << '\n';
    return kExitOk;
  }
  for (const Command& c : commands()) {
    if (first == c.name) return c.run(argc - 1, argv + 1);
  }
  std::string names;
  for (const Command& c : commands()) names += (names.empty() ? "" : ", ") + std::string(c.name);
  throw UsageError("unknown command '" + wg::datasets::escape_bytes(first) +
                   "' (commands: " + names + "; see 'warpgraph --help')");
}

/// Every error is one line on stderr, whatever bytes the message carries.
void print_error(const std::string& message) {
  std::cout.flush();
  std::cerr << "warpgraph: " << one_line(message) << '\n';
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const UsageError& e) {
    print_error(e.what());
    return kExitUsage;
  } catch (const cxxopts::exceptions::exception& e) {
    print_error(e.what());
    return kExitUsage;
  } catch (const std::bad_alloc&) {
    const std::string& file = current_input();
    print_error((file.empty() ? std::string() : file + ": ") +
                "out of memory (the input needs more than the " +
                wg::datasets::format_bytes(wg::datasets::memory_budget_bytes()) +
                " this process may still use)");
    return kExitFailure;
  } catch (const std::exception& e) {
    print_error(e.what());
    return kExitFailure;
  } catch (...) {
    print_error("unknown error");
    return kExitFailure;
  }
}
