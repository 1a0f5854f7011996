// Inputs that change or misbehave while they are read (issue 44, defects 1 and 6): a file
// truncated during the read, NUL bytes, lone-CR line ends, FIFOs. Each case must end in a value
// or a one-line error naming the file, never a signal or a hang.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <functional>
#include <string>
#include <thread>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/datasets/update_stream.hpp>

#include "temp_files.hpp"

namespace {

using wg::datasets::read_graph;
using wg::datasets::ReadOptions;

/// Runs `f` in a child process: returns the child's exit status as `wait` reports it, so a
/// crash (SIGBUS, SIGSEGV) fails the test instead of killing the test binary.
int in_child(const std::function<int()>& f) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    int rc = 3;
    try {
      rc = f();
    } catch (...) {
      rc = 4;
    }
    std::_Exit(rc);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

std::string many_edges(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) text += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  return text;
}

// The reader's progress callback runs after the reader has looked at the file's size and before
// it parses: truncating the file there is the race of defect 1, made deterministic.
TEST(InputSafety, FileTruncatedDuringTheReadIsAnErrorNotASignal) {
  wg::test::TempDir dir;
  const std::string path = dir.write("shrinks.txt", many_edges(200000));
  const int status = in_child([&] {
    ReadOptions o;
    bool truncated = false;
    o.progress = [&](std::uint64_t, std::uint64_t) {
      if (!truncated && ::truncate(path.c_str(), 0) == 0) truncated = true;
    };
    try {
      read_graph(path, o);
    } catch (const wg::Error& e) {
      const std::string what = e.what();
      // One line naming the file.
      if (what.rfind(path + ":", 0) != 0 || what.find('\n') != std::string::npos) return 5;
      if (what.find("changed while it was read") == std::string::npos) return 6;
      return 0;
    }
    return 7;  // the file changed: a silent success hides it
  });
  ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(InputSafety, FileGrownDuringTheReadIsAnError) {
  wg::test::TempDir dir;
  const std::string path = dir.write("grows.txt", many_edges(1000));
  ReadOptions o;
  bool grown = false;
  o.progress = [&](std::uint64_t, std::uint64_t) {
    if (grown) return;
    grown = true;
    FILE* f = std::fopen(path.c_str(), "ab");
    std::fputs("5 6\n", f);
    std::fclose(f);
  };
  try {
    read_graph(path, o);
    ADD_FAILURE() << "no error";
  } catch (const wg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("changed while it was read"), std::string::npos)
        << e.what();
  }
}

TEST(InputSafety, DevZeroFailsAtOnceAsBinaryData) {
  const std::string problem =
      wg::test::expect_parse_error("/dev/zero", 1, [](const std::string& p) { read_graph(p); });
  EXPECT_EQ(problem.rfind("NUL byte at byte offset 0: binary data", 0), 0u) << problem;
}

// A FIFO whose writer comes late: the reader says that it waits (once), then reads what the
// writer sends. The writer starts only when told of the wait, so the test has no timing race.
TEST(InputSafety, FifoWithoutAWriterIsWaitedForWithANotice) {
  const auto got = wg::test::read_late_fifo<ReadOptions>(
      "0 1\n1 2\n2 0\n",
      [](const std::string& p, const ReadOptions& o) { return read_graph(p, o); });
  ASSERT_EQ(got.notices.size(), 1u);
  EXPECT_EQ(got.notices[0].rfind(got.path + ": waiting for data (a FIFO with no writer yet)", 0),
            0u)
      << got.notices[0];
  EXPECT_EQ(got.result.edges.size(), 3u);
}

// A pipe that already has a writer (`warpgraph tc <(zcat f.gz)`) reads like a file.
TEST(InputSafety, PipeWithAWriterReads) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::thread writer([&] {
    const std::string text = many_edges(100000);
    const char* p = text.data();
    std::size_t left = text.size();
    while (left) {
      const ssize_t n = ::write(fds[1], p, left);
      if (n <= 0) break;
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    ::close(fds[1]);
  });
  const auto r = read_graph("/dev/fd/" + std::to_string(fds[0]));
  writer.join();
  ::close(fds[0]);
  EXPECT_EQ(r.edges.size(), 100000u);
}

}  // namespace
