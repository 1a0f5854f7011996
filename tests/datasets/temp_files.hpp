#pragma once
// Test helper: a temporary folder that removes itself, with writers for plain and gzip files.
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

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

}  // namespace wg::test
