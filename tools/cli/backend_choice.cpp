// `stream --backend auto` with --algo. See backend_choice.hpp.
#include "backend_choice.hpp"

#include <algorithm>

#include "cli.hpp"

namespace wg::cli {

bool backend_keeps(const std::string& name, const std::vector<AlgorithmSpec>& algorithms) {
  const bool only_count =
      std::all_of(algorithms.begin(), algorithms.end(),
                  [](const AlgorithmSpec& s) { return s.kind == AlgorithmKind::tc; });
  if (only_count) return true;
  try {
    make_backend(name)->track(algorithms);
    return true;
  } catch (const UsageError&) {
    return false;
  }
}

std::string auto_stream_backend_for(const AutoBackendRule& rule, std::uint64_t vertices,
                                    std::uint64_t entries, std::uint64_t batch_size,
                                    const std::vector<AlgorithmSpec>& algorithms) {
  const std::string pick = auto_stream_backend(rule, vertices, entries, batch_size);
  if (backend_keeps(pick, algorithms)) return pick;
  for (const std::string& name : usable_backends()) {
    if (name != pick && backend_keeps(name, algorithms)) return name;
  }
  return pick;
}

}  // namespace wg::cli
