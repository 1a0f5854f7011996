#include "test_support.hpp"

#include <filesystem>

#ifdef WG_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace wg::test {

std::optional<std::string> shared_dataset(const std::string& name) {
  std::filesystem::path p = std::filesystem::path(WG_DATASETS_DIR) / name;
  if (std::filesystem::exists(p)) return p.string();
  return std::nullopt;
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
