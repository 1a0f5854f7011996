#pragma once
// The adaptive half of a dynamic algorithm's fallback decision, for an incremental search bounded
// by a work budget (the other half prices a batch before searching where a lower bound of its
// work is cheap to read). A search that spends its budget wastes it: the batch is then answered
// by the static computation all the same. So after such tries in a row, the next batches of at
// least half the last one's size skip the search (answered by the static computation at once):
// none after one abandoned try (a lone expensive batch, e.g. one raising the densest core, says
// little of the next), 1 after two in a row, then 3, 7, ... up to 63; a finished search of a batch
// that size ends the backoff. Over a run of batches that all fall back, the budget is thus wasted on
// O(log batches) of them, and a batch that falls back costs about one static computation.
// O(1) per call; results never depend on it. Not thread-safe (one batch at a time).
#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace wg {

class SearchBackoff {
 public:
  /// Whether a batch of `edges` edges should skip its search (counted as one of the skips).
  bool skip(std::size_t edges) noexcept {
    if (skips_ == 0 || 2 * edges < failed_edges_) return false;
    --skips_;
    return true;
  }
  /// The search of a batch of `edges` edges finished (true) or spent its budget (false).
  void tried(std::size_t edges, bool finished) noexcept {
    if (finished) {
      if (2 * edges >= failed_edges_) streak_ = skips_ = 0;
      return;
    }
    streak_ = std::min<std::uint32_t>(streak_ + 1, kMaxStreak);
    skips_ = (std::uint32_t{1} << (streak_ - 1)) - 1;
    failed_edges_ = edges;
  }

 private:
  static constexpr std::uint32_t kMaxStreak = 7;
  std::uint32_t streak_ = 0, skips_ = 0;
  std::size_t failed_edges_ = 0;
};

}  // namespace wg
