// libFuzzer entry point for the matrix_market reader (see fuzz_targets.hpp).
#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  wg::datasets::fuzz::matrix_market(data, size);
  return 0;
}
