#pragma once
// The adaptive half of a dynamic algorithm's fallback decision, for an incremental search bounded
// by a work budget (the other half prices a batch before searching where a lower bound of its
// work is cheap to read). A search that spends its budget wastes it: the batch is then answered
// by the static computation all the same, at about twice its cost, while a search that finishes
// costs a fraction of it. So trying pays while most tries finish, and skipping (answering by the
// static computation at once) pays once most fail. SearchBackoff keeps the failed share of the
// recent tries (each try weighs as much as all those before it; a finished one counts when it is
// at least the size of the last failed one); a try that fails while that share passes one half
// makes the next 3, 7, 15, ... (up to 127) batches of at least half its size skip, so that most
// of a run of failing batches (the median one among them) skips; a finished try of that size ends
// the skipping. A lone failure among finished tries (a batch that raises the densest core, say)
// makes none skip. Over a run of batches that all fail, the budget is wasted on O(log batches) of
// them.
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
      if (edges < failed_edges_) return;  // a smaller batch's success says little of the larger
      failed_share_ *= 0.5;
      streak_ = skips_ = 0;
      return;
    }
    failed_share_ = 0.5 * failed_share_ + 0.5;
    failed_edges_ = edges;
    if (failed_share_ <= 0.5) return;
    skips_ = (std::uint32_t{4} << streak_) - 1;
    streak_ = std::min<std::uint32_t>(streak_ + 1, kMaxStreak);
  }

 private:
  static constexpr std::uint32_t kMaxStreak = 5;
  double failed_share_ = 0;
  std::uint32_t streak_ = 0, skips_ = 0;
  std::size_t failed_edges_ = 0;
};

}  // namespace wg
