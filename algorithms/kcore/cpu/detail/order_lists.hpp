#pragma once
// Order maintenance over several lists: ids 0..n-1, each in at most one of lists 0..L-1, each
// list a doubly linked sequence whose members carry integer tags increasing along it, so that
// before(a, b) (a and b in one list) is one comparison. Used by the dynamic k-core (one list per
// core number: the k-order, ../kcore.cpp).
//
// Tags lie in [1, 2^62). An insertion takes the midpoint of its neighbours' tags; when they are
// adjacent integers, the smallest aligned tag range around the spot whose member count is within
// (2 / T)^i for a range of 2^i tags (T = 1.25) is relabelled evenly (Bender, Cole, Demaine,
// Farach-Colton, Zito, "Two simplified algorithms for maintaining order in a list", ESA 2002):
// O(log n) amortised relabelled ids per insertion, O(1) per erase, before() and neighbour reads.
// Memory: 16 bytes per id and 8 per list. Not thread-safe.
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace wg::cpu::detail {

class OrderLists {
 public:
  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

  /// Empties every list and makes room for `ids` ids and `lists` lists.
  void reset(std::size_t ids, std::size_t lists) {
    tag_.assign(ids, 0);
    next_.assign(ids, kNone);
    prev_.assign(ids, kNone);
    head_.assign(lists, kNone);
    tail_.assign(lists, kNone);
  }
  /// Room for ids below `ids` and lists below `lists` (the new ones in no list / empty).
  void grow(std::size_t ids, std::size_t lists) {
    if (ids > tag_.size()) {
      tag_.resize(ids, 0);
      next_.resize(ids, kNone);
      prev_.resize(ids, kNone);
    }
    if (lists > head_.size()) {
      head_.resize(lists, kNone);
      tail_.resize(lists, kNone);
    }
  }
  /// Makes the empty list `l` hold `ids` in this order, evenly tagged. O(ids.size()).
  void assign(std::size_t l, std::span<const std::uint32_t> ids) {
    std::uint32_t last = kNone;
    const std::uint64_t step = kTop / (ids.size() + 1);
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const std::uint32_t v = ids[i];
      tag_[v] = step * (i + 1);
      prev_[v] = last;
      next_[v] = kNone;
      if (last == kNone)
        head_[l] = v;
      else
        next_[last] = v;
      last = v;
    }
    tail_[l] = last;
  }

  /// Whether a comes before b; both in one list.
  bool before(std::uint32_t a, std::uint32_t b) const noexcept { return tag_[a] < tag_[b]; }
  std::uint32_t head(std::size_t l) const noexcept { return head_[l]; }
  std::uint32_t next(std::uint32_t v) const noexcept { return next_[v]; }

  /// Inserts v (in no list) into list l right after `at` (a member of l), or first when at is
  /// kNone.
  void insert_after(std::size_t l, std::uint32_t at, std::uint32_t v) {
    const std::uint32_t after = at == kNone ? head_[l] : next_[at];
    prev_[v] = at;
    next_[v] = after;
    (at == kNone ? head_[l] : next_[at]) = v;
    (after == kNone ? tail_[l] : prev_[after]) = v;
    const std::uint64_t lo = at == kNone ? 0 : tag_[at];
    const std::uint64_t hi = after == kNone ? kTop : tag_[after];
    if (hi - lo >= 2)
      tag_[v] = lo + (hi - lo) / 2;
    else
      relabel(v, lo);
  }
  void push_back(std::size_t l, std::uint32_t v) { insert_after(l, tail_[l], v); }
  /// Unlinks v from list l.
  void erase(std::size_t l, std::uint32_t v) {
    const std::uint32_t p = prev_[v], n = next_[v];
    (p == kNone ? head_[l] : next_[p]) = n;
    (n == kNone ? tail_[l] : prev_[n]) = p;
    prev_[v] = next_[v] = kNone;
  }

 private:
  static constexpr std::uint64_t kTop = std::uint64_t{1} << 62;
  static constexpr int kBits = 62;

  /// v was linked without a free tag; `near` is its predecessor's tag (0 at the head). Grows an
  /// aligned tag range around `near` until its members (with v) fit the range's density bound,
  /// then spreads them evenly over it.
  void relabel(std::uint32_t v, std::uint64_t near) {
    std::uint32_t first = v, last = v;
    std::uint64_t count = 1;
    for (int i = 1;; ++i) {
      const std::uint64_t size = std::uint64_t{1} << i;
      const std::uint64_t base = near & ~(size - 1);
      for (std::uint32_t p = prev_[first]; p != kNone && tag_[p] >= base; p = prev_[p]) {
        first = p;
        ++count;
      }
      for (std::uint32_t n = next_[last]; n != kNone && tag_[n] < base + size; n = next_[n]) {
        last = n;
        ++count;
      }
      const double bound = std::pow(2.0 / 1.25, i);
      if (i == kBits || (static_cast<double>(count) <= bound && count + 1 < size)) {
        const std::uint64_t step = size / (count + 1);
        std::uint64_t t = base;
        for (std::uint32_t x = first;; x = next_[x]) {
          t += step;
          tag_[x] = t;
          if (x == last) break;
        }
        return;
      }
    }
  }

  std::vector<std::uint64_t> tag_;
  std::vector<std::uint32_t> next_, prev_;
  std::vector<std::uint32_t> head_, tail_;
};

}  // namespace wg::cpu::detail
