#include "subprocess.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <gtest/gtest.h>

namespace wg::test {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

int unique_counter() {
  static int n = 0;
  return ++n;
}

}  // namespace

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "wg_cli_" + std::to_string(::getpid()) + "_" +
         std::to_string(unique_counter()) + "_" + name;
}

std::string write_temp_file(const std::string& name, const std::string& text) {
  const std::string path = temp_path(name);
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path);
  return path;
}

namespace {

CliRun run_cli_from(const std::vector<std::string>& args, const std::string& stdin_path) {
  const std::string out_path = temp_path("stdout"), err_path = temp_path("stderr");
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    const int in = ::open(stdin_path.c_str(), O_RDONLY);
    const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (in < 0 || out < 0 || err < 0) ::_exit(126);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    std::vector<char*> argv;
    std::string exe = WG_CLI_EXE;
    argv.push_back(exe.data());
    std::vector<std::string> copies = args;
    for (auto& a : copies) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(exe.c_str(), argv.data());
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
  }
  CliRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.out = slurp(out_path);
  run.err = slurp(err_path);
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  return run;
}

}  // namespace

CliRun run_cli(const std::vector<std::string>& args) {
  return run_cli_from(args, "/dev/null");
}

CliRun run_cli_with_input(const std::vector<std::string>& args, const std::string& input) {
  const std::string path = write_temp_file("stdin", input);
  CliRun run = run_cli_from(args, path);
  std::remove(path.c_str());
  return run;
}

}  // namespace wg::test
