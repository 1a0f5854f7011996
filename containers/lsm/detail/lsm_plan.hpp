#pragma once
// Host-side planning of the LSM's level cascade (plain C++, tested on the CPU).
//
// Level i holds one sorted run of at most b * 2^i elements (any size, not only full). A batch of
// n elements (the carry) walks up from level 0: an empty level takes the carry when it fits; a
// non-empty level is merged into the carry (the carry is newer, so it goes first) and emptied,
// and the merged carry stays there when it fits. Every level below the destination ends empty
// and every level above it is older, which keeps "lower level = newer" true. With batches of
// exactly b this is the paper's binary counter; smaller batches accumulate in level 0 by merging
// (cost O(level 0 + n), no padding), larger ones start higher.
#include <cstdint>
#include <optional>
#include <vector>

namespace wg::lsm_detail {

struct InsertPlan {
  std::vector<std::uint32_t> merge_levels;  ///< non-empty levels merged into the carry, in order
  std::uint32_t destination = 0;            ///< the level that receives the carry
  std::uint64_t destination_size = 0;       ///< its size afterwards
};

inline std::uint64_t level_capacity(std::uint64_t b, std::uint32_t level) {
  return b << level;
}

/// The cascade for a batch of n elements, or nullopt when no level can take it (capacity).
inline std::optional<InsertPlan> plan_insert(const std::vector<std::uint64_t>& sizes,
                                             std::uint64_t n, std::uint64_t b) {
  InsertPlan plan;
  std::uint64_t carry = n;
  for (std::uint32_t i = 0; i < sizes.size(); ++i) {
    const std::uint64_t cap = level_capacity(b, i);
    if (sizes[i] != 0) {
      carry += sizes[i];
      plan.merge_levels.push_back(i);
    } else if (carry > cap) {
      continue;
    }
    if (carry <= cap) {
      plan.destination = i;
      plan.destination_size = carry;
      return plan;
    }
  }
  return std::nullopt;
}

/// The level sizes after `plan` ran.
inline void apply_plan(std::vector<std::uint64_t>& sizes, const InsertPlan& plan) {
  for (std::uint32_t l : plan.merge_levels) sizes[l] = 0;
  sizes[plan.destination] = plan.destination_size;
}

/// Where m unique, live elements go after a cleanup or bulk build: (level, count) slices of the
/// sorted run in key order. One level (the smallest that holds m) when possible, so queries
/// search one array; otherwise the largest levels first. Keys are then unique across levels, so
/// any split is valid. Empty when m == 0; nullopt when m exceeds the total capacity.
struct Slice {
  std::uint32_t level;
  std::uint64_t count;
};
inline std::optional<std::vector<Slice>> plan_layout(std::uint64_t m, std::uint64_t b,
                                                     std::uint32_t levels) {
  std::vector<Slice> out;
  if (m == 0) return out;
  for (std::uint32_t i = 0; i < levels; ++i)
    if (level_capacity(b, i) >= m) return std::vector<Slice>{{i, m}};
  for (std::uint32_t i = levels; i-- > 0 && m > 0;) {
    const std::uint64_t take = m < level_capacity(b, i) ? m : level_capacity(b, i);
    out.push_back({i, take});
    m -= take;
  }
  if (m > 0) return std::nullopt;
  return out;
}

}  // namespace wg::lsm_detail
