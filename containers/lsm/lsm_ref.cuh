#pragma once
// wg::LsmRef<Key, Value>: the device view of a wg::Lsm (lsm.cuh): the non-empty levels, newest
// first, each a sorted array of encoded keys and their values. Trivially copyable (about 1 KiB:
// pass it by value as a kernel parameter); valid until the next update of its LSM. One thread
// per query; nothing is cooperative, so any thread may call any member under any branch.
//
// Encoding: a stored key is (key << 1) | live: the status bit is the least significant bit
// (1 = an insertion, 0 = a tombstone), so keys are limited to [0, max_key] = [0, 2^(w-1) - 1]
// for w-bit Key. Within a level, the elements of one key are adjacent and newest first; a lower
// level is newer than a higher one. So the first element of key k met in level order, at its
// lower bound, is k's newest state.
//
// Cost with l non-empty levels: find O(l log n); count / successor / range walk the candidate
// windows of every level, O(l log n + l * c) for c candidates (stale and deleted ones included).
#include <cstdint>

#include <warpgraph/containers/sorted_array/sorted_search.cuh>

namespace wg {

inline constexpr std::uint32_t kLsmMaxLevels = 40;

template <class Key, class Value>
struct LsmLevelView {
  const Key* keys = nullptr;  ///< encoded keys, sorted by key, newest first within a key
  const Value* values = nullptr;
  std::uint64_t size = 0;
};

template <class Key, class Value>
struct LsmRef {
  static constexpr Key max_key = Key(~Key(0)) >> 1;  ///< the largest key the LSM stores

  LsmLevelView<Key, Value> levels[kLsmMaxLevels];  ///< non-empty levels, newest first
  std::uint32_t num_levels = 0;

  WG_HD static Key encode(Key k, bool live) { return Key(k << 1) | Key(live ? 1 : 0); }
  WG_HD static Key decode(Key stored) { return stored >> 1; }
  WG_HD static bool is_live(Key stored) { return stored & 1; }

  /// True and *out = the newest value when k is live (present and not erased).
  WG_HD bool find(Key k, Value* out) const {
    if (k > max_key) return false;
    const Key probe = encode(k, false);  // the smallest encoding of k
    for (std::uint32_t l = 0; l < num_levels; ++l) {
      const LsmLevelView<Key, Value> lv = levels[l];
      const std::uint64_t i = lower_bound_index(lv.keys, lv.size, probe);
      if (i < lv.size) {
        const Key s = lv.keys[i];
        if (decode(s) == k) {
          if (!is_live(s)) return false;
          *out = lv.values[i];
          return true;
        }
      }
    }
    return false;
  }

  /// Calls emit(key, value) for each live key in [k1, k2] in increasing order, newest value,
  /// stopping after `limit` keys; returns how many were emitted. The per-level cursors live in
  /// the thread's local memory.
  template <class Emit>
  WG_HD std::uint64_t walk(Key k1, Key k2, std::uint64_t limit, Emit&& emit) const {
    if (k1 > max_key || k2 < k1 || limit == 0) return 0;
    if (k2 > max_key) k2 = max_key;
    if (num_levels == 1) {  // common after cleanup or build: a scan, no cursors
      const LsmLevelView<Key, Value> lv = levels[0];
      const Key lo = encode(k1, false), hi = encode(k2, true);
      const std::uint64_t first = lower_bound_index(lv.keys, lv.size, lo);
      std::uint64_t emitted = 0;
      Key prev = 0;
      for (std::uint64_t i = first; i < lv.size; ++i) {
        const Key s = lv.keys[i];
        if (s > hi) break;
        if ((i == first || decode(prev) != decode(s)) && is_live(s)) {  // newest of its key
          emit(decode(s), lv.values[i]);
          if (++emitted == limit) break;
        }
        prev = s;
      }
      return emitted;
    }
    std::uint64_t pos[kLsmMaxLevels];
    std::uint64_t end[kLsmMaxLevels];
    const Key lo = encode(k1, false), hi = encode(k2, true);
    for (std::uint32_t l = 0; l < num_levels; ++l) {
      pos[l] = lower_bound_index(levels[l].keys, levels[l].size, lo);
      end[l] = upper_bound_from(levels[l].keys, levels[l].size, pos[l], hi);
    }
    std::uint64_t emitted = 0;
    for (;;) {
      bool any = false;
      Key best = 0;
      std::uint32_t best_level = 0;
      for (std::uint32_t l = 0; l < num_levels; ++l) {
        if (pos[l] < end[l]) {
          const Key k = decode(levels[l].keys[pos[l]]);
          if (!any || k < best) {  // strict: the lowest (newest) level wins a tie
            best = k;
            best_level = l;
            any = true;
          }
        }
      }
      if (!any) break;
      const std::uint64_t at = pos[best_level];
      if (is_live(levels[best_level].keys[at])) {
        emit(best, levels[best_level].values[at]);
        if (++emitted == limit) break;
      }
      for (std::uint32_t l = 0; l < num_levels; ++l)
        while (pos[l] < end[l] && decode(levels[l].keys[pos[l]]) == best) ++pos[l];
    }
    return emitted;
  }

  /// Number of live keys in [k1, k2] (0 when k1 > k2).
  WG_HD std::uint64_t count(Key k1, Key k2) const {
    return walk(k1, k2, ~std::uint64_t(0), [](Key, const Value&) {});
  }

  /// The smallest live key >= k with its newest value (std::map::lower_bound); false when none.
  WG_HD bool successor(Key k, Key* key_out, Value* value_out) const {
    return walk(k, max_key, 1, [&](Key key, const Value& v) {
             *key_out = key;
             *value_out = v;
           }) == 1;
  }
};

}  // namespace wg
