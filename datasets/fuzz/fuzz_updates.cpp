// libFuzzer entry point for the updates reader (see fuzz_targets.hpp).
#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  wg::datasets::fuzz::updates(data, size);
  return 0;
}
