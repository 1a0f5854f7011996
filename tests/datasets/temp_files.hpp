#pragma once
// Test helpers: a temporary folder that removes itself, with writers for plain and gzip files;
// an edge list as (src, dst) pairs; the message of a graph file's ParseError.
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
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

}  // namespace wg::test
