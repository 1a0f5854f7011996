#pragma once
// Test helpers: a temporary folder that removes itself, with writers for plain and gzip files;
// an edge list as (src, dst) pairs; the message of a graph file's ParseError; the checks of a
// reader's ParseError (the path and line it names, its problem); a FIFO whose writer comes late.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/read_graph.hpp>

namespace wg::test {

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "wg_datasets_XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string file(const std::string& name) const { return (path_ / name).string(); }

  /// Writes `content` to `name` and returns the path.
  std::string write(const std::string& name, std::string_view content) const {
    std::string p = file(name);
    std::ofstream f(p, std::ios::binary);
    f.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!f) throw std::runtime_error("cannot write " + p);
    return p;
  }

  /// Writes `content` gzip-compressed (zlib's gzopen/gzwrite) to `name` and returns the path.
  std::string write_gz(const std::string& name, std::string_view content) const {
    std::string p = file(name);
    gzFile g = gzopen(p.c_str(), "wb");
    if (!g) throw std::runtime_error("gzopen failed for " + p);
    if (!content.empty() && gzwrite(g, content.data(), static_cast<unsigned>(content.size())) !=
                                static_cast<int>(content.size()))
      throw std::runtime_error("gzwrite failed for " + p);
    gzclose(g);
    return p;
  }

 private:
  std::filesystem::path path_;
};

using Pairs = std::vector<std::pair<vertex_t, vertex_t>>;

inline Pairs pairs(const EdgeList& e) {
  Pairs p;
  for (std::size_t i = 0; i < e.size(); ++i) p.emplace_back(e.src[i], e.dst[i]);
  return p;
}

/// What reading `text` from a temporary file called `name` gives.
inline datasets::ReadResult read_graph_text(const std::string& name, const std::string& text,
                                            const datasets::ReadOptions& o = {}) {
  TempDir dir;
  return datasets::read_graph(dir.write(name, text), o);
}

/// "NAME:LINE: problem" of the ParseError that reading `text` from a file called `name` throws
/// (the folder cut off), or "" when it reads.
inline std::string read_error(const std::string& name, const std::string& text,
                              const datasets::ReadOptions& o = {}) {
  TempDir dir;
  const std::string path = dir.write(name, text);
  try {
    datasets::read_graph(path, o);
  } catch (const ParseError& e) {
    const std::string what = e.what();
    return what.substr(what.find(name));
  }
  return "";
}

/// read(path) must throw a ParseError naming `path` and `line` (0: none), its message starting
/// "PATH:LINE: " (or "PATH: "). Returns the error's problem ("" and a failure when it reads).
template <class Read>
std::string expect_parse_error(const std::string& path, std::uint64_t line, Read&& read) {
  try {
    read(path);
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.line(), line) << e.what();
    const std::string prefix = line ? path + ":" + std::to_string(line) + ": " : path + ": ";
    EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
    return e.problem();
  }
  ADD_FAILURE() << "no error reading " << path;
  return "";
}

/// `text` written to `name` and gzip-compressed to `name`.gz: reading each must fail as
/// expect_parse_error says, with a problem that contains `needle`.
template <class Read>
void expect_parse_error_plain_and_gz(const std::string& name, std::string_view text,
                                     std::uint64_t line, std::string_view needle, Read&& read) {
  TempDir dir;
  for (const std::string& path : {dir.write(name, text), dir.write_gz(name + ".gz", text)}) {
    SCOPED_TRACE(path);
    const std::string problem = expect_parse_error(path, line, read);
    EXPECT_NE(problem.find(needle), std::string::npos) << problem;
  }
}

/// What a reader did on a FIFO (read_late_fifo): its wait notices and its result.
template <class Result>
struct LateFifoRead {
  std::string path;
  std::vector<std::string> notices;
  Result result;
};

/// read(path, options) on a FIFO whose writer (sending `text`) starts only when the reader calls
/// options.on_wait (its notice that it waits), so the test has no timing race.
template <class Options, class Read>
auto read_late_fifo(const std::string& text, Read&& read) {
  TempDir dir;
  LateFifoRead<decltype(read(std::string(), Options{}))> out{dir.file("fifo"), {}, {}};
  if (::mkfifo(out.path.c_str(), 0600) != 0) throw std::runtime_error("mkfifo failed");
  std::thread writer;
  Options options;
  options.on_wait = [&](const std::string& message) {
    out.notices.push_back(message);
    if (writer.joinable()) return;  // one writer, however many notices
    writer = std::thread([&] {
      FILE* f = std::fopen(out.path.c_str(), "w");
      std::fputs(text.c_str(), f);
      std::fclose(f);
    });
  };
  out.result = read(out.path, options);
  if (writer.joinable()) writer.join();
  return out;
}

}  // namespace wg::test
