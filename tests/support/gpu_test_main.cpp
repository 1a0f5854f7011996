// main() of every GPU test executable: exits with 77 (ctest: "skipped") when no CUDA device is
// present, so CPU-only machines report the GPU suites as skipped rather than passed.
#include <cstdio>

#include "test_support.hpp"

int main(int argc, char** argv) {
  if (!wg::test::cuda_device_available()) {
    std::printf("no CUDA device found: skipping %s\n", argc > 0 ? argv[0] : "GPU tests");
    return 77;
  }
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
