// The batch loop of `warpgraph stream`: see stream_runner.hpp.
#include "stream_runner.hpp"

namespace wg::cli {

const char* batch_kind_name(datasets::UpdateBatch::Kind kind) {
  // In the order of UpdateBatch::Kind.
  static constexpr const char* kNames[] = {"insert", "erase", "insert_vertices", "erase_vertices"};
  const auto i = static_cast<std::size_t>(kind);
  return i < std::size(kNames) ? kNames[i] : "insert";
}

std::string progress_bar(std::size_t done, std::size_t total, std::uint64_t triangles) {
  constexpr std::size_t kWidth = 30;
  const std::size_t filled = total ? kWidth * done / total : kWidth;
  return fmt::format("stream [{}{}] {}/{} batches, {} triangles", std::string(filled, '#'),
                     std::string(kWidth - filled, '.'), done, total, triangles);
}

std::string batch_line(const BatchRecord& b) {
  std::string line =
      fmt::format("{:>6}  {:<6}  {:>9}  {:>9}  {:>14}  {:>10.3f}", b.index, b.kind, b.size,
                  b.outcome.edges_changed, b.outcome.triangles, 1e3 * b.outcome.seconds);
  // Tracked results (--algo): each one's update time, vertices changed, R when recomputed.
  for (const AlgorithmOutcome& a : b.outcome.algorithms) {
    line += fmt::format("  {} {:.3f} ms {}{}", algorithm_name(a.kind), 1e3 * a.seconds, a.changed,
                        a.recomputed ? " R" : "");
  }
  return line;
}
const char* const kBatchHeader = " batch  kind         size    changed       triangles          ms";

std::string rate_text(double updates, double seconds) {
  if (seconds <= 0) return "n/a";
  const double rate = updates / seconds;
  return rate >= 1e6 ? fmt::format("{:.2f} M updates/s", rate / 1e6)
                     : fmt::format("{:.1f} K updates/s", rate / 1e3);
}

}  // namespace wg::cli
