// FILE "-": the graph is read from stdin. The readers take a path (they map or decompress the
// file), so stdin is first copied to a temporary file, removed when the process ends.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "cli.hpp"

namespace wg::cli {
namespace {

/// The copy of stdin; removed at exit.
struct StdinCopy {
  std::string path;
  ~StdinCopy() {
    if (!path.empty()) ::unlink(path.c_str());
  }
};

StdinCopy& stdin_copy() {
  static StdinCopy copy;
  return copy;
}

}  // namespace

std::string readable_input_path(const std::string& path) {
  if (path != "-") return path;
  StdinCopy& copy = stdin_copy();
  if (!copy.path.empty()) return copy.path;
  if (::isatty(0)) {
    throw UsageError(
        "FILE '-' reads the graph from stdin, which is a terminal: pipe or "
        "redirect a graph file into it");
  }
  std::error_code ec;
  std::string name = (std::filesystem::temp_directory_path(ec) / "warpgraph-stdin-XXXXXX").string();
  if (ec) name = "/tmp/warpgraph-stdin-XXXXXX";
  const int fd = ::mkstemp(name.data());
  if (fd < 0)
    throw Error("cannot copy stdin to a temporary file: " + std::string(std::strerror(errno)));
  copy.path = name;
  std::string buffer(1 << 20, '\0');
  for (;;) {
    const ssize_t got = ::read(0, buffer.data(), buffer.size());
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      throw Error("-: cannot read stdin: " + std::string(std::strerror(err)));
    }
    for (ssize_t done = 0; done < got;) {
      const ssize_t put = ::write(fd, buffer.data() + done, static_cast<std::size_t>(got - done));
      if (put < 0 && errno == EINTR) continue;
      if (put <= 0) {
        const int err = errno;
        ::close(fd);
        throw Error("-: cannot copy stdin to " + name + ": " + std::strerror(err));
      }
      done += put;
    }
  }
  ::close(fd);
  return copy.path;
}

}  // namespace wg::cli
