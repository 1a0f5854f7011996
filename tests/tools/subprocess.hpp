#pragma once
// Runs the warpgraph executable as a child process and captures what it printed.
#include <string>
#include <vector>

namespace wg::test {

struct CliRun {
  int exit_code = -1;  ///< the exit status, or 128 + signal number when killed by a signal
  std::string out;     ///< everything written to stdout
  std::string err;     ///< everything written to stderr
};

/// Runs `warpgraph args...` (the build's executable, WG_CLI_EXE) with stdin from /dev/null.
CliRun run_cli(const std::vector<std::string>& args);
/// The same with `input` on stdin (through a file).
CliRun run_cli_with_input(const std::vector<std::string>& args, const std::string& input);

/// A fresh path in the test's temporary folder (the file is not created).
std::string temp_path(const std::string& name);
/// Writes `text` to a file in the temporary folder and returns its path.
std::string write_temp_file(const std::string& name, const std::string& text);

}  // namespace wg::test
