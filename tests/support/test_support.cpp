#include "test_support.hpp"

#include <zlib.h>

#include <filesystem>
#include <stdexcept>

#ifdef WG_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace wg::test {

std::optional<std::string> shared_dataset(const std::string& name) {
  const std::filesystem::path dir(WG_DATASETS_DIR);
  for (const std::string& file : {name, name + ".gz"})
    if (std::filesystem::exists(dir / file)) return (dir / file).string();
  return std::nullopt;
}

std::string read_text(const std::string& path) {
  // zlib's gz* functions read plain files unchanged, so one reader serves both.
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + path);
  std::string text;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(n));
  const bool failed = n < 0;
  gzclose(f);
  if (failed) throw std::runtime_error("cannot decompress " + path);
  return text;
}

std::string source_path(const std::string& relative) {
  return (std::filesystem::path(WG_SOURCE_DIR) / relative).string();
}

bool cuda_device_available() {
#ifdef WG_HAVE_CUDA
  static const bool available = [] {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
      (void)cudaGetLastError();
      return false;
    }
    return n > 0;
  }();
  return available;
#else
  return false;
#endif
}

}  // namespace wg::test
