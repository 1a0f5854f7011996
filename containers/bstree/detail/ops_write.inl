// BS-tree writers (insert, erase) and the operation table of one instruction-set build: the
// second half of ops.inl, included right after it by ops.cpp in the same region and namespace.
// No includes here (see ops.inl).

// ---- writers
// --------------------------------------------------------------------------------------

/// Whether the ISA build has vector kernels for a leaf of T slots: the shift of an insert and the
/// fill of an erase (AVX-512, AVX2; the scalar build moves just the affected run instead).
template <class K, class T>
inline constexpr bool has_shift = requires(const T* in, T* out) {
  K::shift(in, out, std::uint64_t{}, std::uint64_t{}, 0u, T{});
};
template <class K, class T>
inline constexpr bool has_fill = requires(const T* in, T* out) {
  K::fill(in, out, std::uint64_t{}, T{});
};
template <class K, class T>
inline void kernel_shift(const T* in, T* out, std::uint64_t take_left, std::uint64_t take_right,
                         unsigned target, T d) {
  K::shift(in, out, take_left, take_right, target, d);
}
template <class K, class T>
inline void kernel_fill(const T* in, T* out, std::uint64_t mask, T value) {
  K::fill(in, out, mask, value);
}

/// Vector split of a full 16 x 64-bit leaf plus one key (see Kernels::split64 in ops.cpp): the
/// left leaf keeps keys 0..8 at slots {0,1,3,5,7,8,10,12,14}, the right one gets keys 9..16 at
/// the even slots (the layout write_leaf gives 9 and 8 keys).
inline constexpr std::uint64_t kSplitLeftBitmap = 0x55AB;
inline constexpr std::uint64_t kSplitRightBitmap = 0x5555;
template <class K>
inline constexpr bool has_split64 = requires {
  &K::split64;
};
template <class K>
inline std::uint64_t kernel_split64(const std::uint64_t* in, std::uint64_t* left,
                                    std::uint64_t* right, unsigned pos, std::uint64_t key) {
  return K::split64(in, left, right, pos, key);
}

/// Inserts d at position pos (= number of slots < d; d absent, the leaf has a gap) by shifting
/// toward the nearest gap at or above pos, else the nearest below. Branch-free on the keys: the
/// new key block is computed as a whole by a vector kernel (each slot takes its own value, its left
/// or its right neighbour's, or d) and stored back, so a mispredicted branch on data that has just
/// missed the cache does not stop the CPU from running ahead into the next operation (an insert is
/// two dependent misses; overlapping consecutive inserts is where the time is). `Plain`: no other
/// thread can read the leaf (single writer), so whole-block vector stores are fine.
template <bool Plain, class T>
[[gnu::always_inline]] inline void leaf_shift_insert(T* slots, unsigned char* values,
                                                     std::uint32_t vb, std::uint64_t* bitmap,
                                                     unsigned pos, T d, const void* value) {
  constexpr unsigned kSlots = kLeafKeyBytes / sizeof(T);
  constexpr std::uint64_t kFull =
      kSlots == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << kSlots) - 1;
  const std::uint64_t free_bits = ~*bitmap & kFull;
  const std::uint64_t at_or_above = pos >= 64 ? 0 : free_bits & (~std::uint64_t{0} << (pos & 63));
  const std::uint64_t below = free_bits & ~at_or_above;
  const bool right = at_or_above != 0;
  // Selects by mask arithmetic: a branch here would depend on the leaf that has just arrived.
  const std::uint64_t rm = std::uint64_t{0} - static_cast<std::uint64_t>(right);
  const unsigned j_up =
      static_cast<unsigned>(__builtin_ctzll(at_or_above | (std::uint64_t{1} << 63)));
  const unsigned j_down = 63u - static_cast<unsigned>(__builtin_clzll(below | 1));
  const unsigned j = static_cast<unsigned>((j_up & rm) | (j_down & ~rm));  // the gap used
  // right: slots (pos, j] take their left neighbour, d goes to pos.
  // left:  slots [j, pos-1) take their right neighbour, d goes to pos-1.
  const std::uint64_t upto_j = ~std::uint64_t{0} >> (63 - j);
  const std::uint64_t upto_pos = ~std::uint64_t{0} >> (63 - (pos & 63));
  const std::uint64_t take_left = upto_j & ~upto_pos & rm;
  const std::uint64_t take_right =
      ((std::uint64_t{1} << ((pos - 1) & 63)) - 1) & ~((std::uint64_t{1} << j) - 1) & ~rm;
  const unsigned target = pos - 1 + static_cast<unsigned>(right);
  if constexpr (has_shift<Kernels, T>) {
    if constexpr (Plain) {
      kernel_shift<Kernels>(slots, slots, take_left, take_right, target, d);
    } else {
      alignas(64) T out[kSlots];
      kernel_shift<Kernels>(slots, out, take_left, take_right, target, d);
      for (unsigned i = 0; i < kSlots; ++i) st(slots[i], out[i]);
    }
  } else {  // no vector kernel (scalar build): move just the run up to the gap
    if (right) {
      for (unsigned i = j; i > pos; --i) st(slots[i], ld(slots[i - 1]));
    } else {
      for (unsigned i = j; i + 1 < pos; ++i) st(slots[i], ld(slots[i + 1]));
    }
    st(slots[target], d);
  }
  *bitmap |= std::uint64_t{1} << j;
  if (vb) {  // maps: move the values the same way (rarely more than a few)
    if (right) {
      for (unsigned i = j; i > pos; --i)
        copy_relaxed(values + std::size_t{i} * vb, values + std::size_t{i - 1} * vb, vb);
    } else {
      for (unsigned i = j; i + 1 < pos; ++i)
        copy_relaxed(values + std::size_t{i} * vb, values + std::size_t{i + 1} * vb, vb);
    }
    copy_relaxed(values + std::size_t{target} * vb, value, vb);
  }
}

/// Erase: slots [first, last] all hold the erased key (gaps, then the key itself at `last`); they
/// all take the next slot's value (the filler after the last slot). Branch-free with a kernel.
template <bool Plain, class T>
[[gnu::always_inline]] inline void leaf_erase_slots(T* slots, std::uint64_t* bitmap, unsigned first,
                                                    unsigned last) {
  constexpr unsigned kSlots = kLeafKeyBytes / sizeof(T);
  const T next = last + 1 < kSlots ? ld(slots[(last + 1) % kSlots]) : static_cast<T>(~T{0});
  const std::uint64_t run = (~std::uint64_t{0} >> (63 - last)) & (~std::uint64_t{0} << first);
  if constexpr (has_fill<Kernels, T>) {
    if constexpr (Plain) {
      kernel_fill<Kernels>(slots, slots, run, next);
    } else {
      alignas(64) T out[kSlots];
      kernel_fill<Kernels>(slots, out, run, next);
      for (unsigned i = 0; i < kSlots; ++i) st(slots[i], out[i]);
    }
  } else {
    for (unsigned i = first; i <= last; ++i) st(slots[i], next);
  }
  *bitmap &= ~(std::uint64_t{1} << last);
}

[[gnu::noinline]] bool leaf_reencode_insert(unsigned char* keys, LeafMeta* m, unsigned char* values,
                                            std::uint32_t vb, std::uint64_t key, const void* value);

enum class LeafResult { kInserted, kPresent, kNeedsSplit };

/// Insert into the write-locked leaf when it fits without a split (possibly re-encoding a
/// compressed leaf in place). `*changed` tells whether the leaf was modified.
template <bool Compressed, bool Plain>
[[gnu::always_inline]] inline LeafResult leaf_insert(Core& c, std::uint32_t leaf, std::uint64_t key,
                                                     const void* value, bool assign,
                                                     bool* changed) {
  LeafMeta* m = leaf_meta_at(c, leaf);
  unsigned char* keys = leaf_keys_at(c, leaf);
  unsigned char* values = c.value_bytes_ ? leaf_values_at(c, leaf) : nullptr;
  const std::uint32_t vb = c.value_bytes_;
  const std::uint32_t f = Compressed ? ld(m->format) : std::uint32_t{kF64};
  const std::uint64_t base = Compressed ? ld(m->base) : 0;
  const unsigned le = leaf_count_lt<Compressed>(keys, f, base, key + 1);
  *changed = false;
  if (is_at(keys, f, base, le, key)) {
    if (assign && vb) {
      copy_relaxed(values + std::size_t{le - 1} * vb, value, vb);
      *changed = true;
    }
    return LeafResult::kPresent;
  }
  const unsigned nslots = format_slots(f);
  const std::uint32_t count = ld(m->count);
  std::uint64_t bitmap = ld(m->bitmap);
  const bool representable =
      !Compressed || f == kF64 || (key >= base && key - base <= format_max_delta(f));
  if (representable && count < nslots) {
    const unsigned pos = le;  // key absent: #(< key) == #(<= key)
    if constexpr (!Compressed) {
      leaf_shift_insert<Plain>(reinterpret_cast<std::uint64_t*>(keys), values, vb, &bitmap, pos,
                               key, value);
    } else {
      switch (f) {
        case kF16:
          leaf_shift_insert<Plain>(reinterpret_cast<std::uint16_t*>(keys), values, vb, &bitmap, pos,
                                   static_cast<std::uint16_t>(key - base), value);
          break;
        case kF32:
          leaf_shift_insert<Plain>(reinterpret_cast<std::uint32_t*>(keys), values, vb, &bitmap, pos,
                                   static_cast<std::uint32_t>(key - base), value);
          break;
        default:
          leaf_shift_insert<Plain>(reinterpret_cast<std::uint64_t*>(keys), values, vb, &bitmap, pos,
                                   key, value);
      }
    }
    st(m->bitmap, bitmap);
    st(m->count, count + 1);
    *changed = true;
    return LeafResult::kInserted;
  }
  if constexpr (Compressed) {
    // A full 64-bit leaf whose keys and `key` span more than 32 bits cannot be re-encoded: split
    // without decoding it twice.
    if (f == kF64 && count == nslots) {
      const std::uint64_t first = decode_slot(keys, f, base, 0);
      const std::uint64_t last = decode_slot(keys, f, base, nslots - 1);
      if ((key > last ? key : last) - (key < first ? key : first) > format_max_delta(kF32))
        return LeafResult::kNeedsSplit;
    }
    if (leaf_reencode_insert(keys, m, values, vb, key, value)) {
      *changed = true;
      return LeafResult::kInserted;
    }
  }
  return LeafResult::kNeedsSplit;
}

/// Compressed leaves: inserts `key` by re-encoding the locked leaf in place when one leaf of some
/// format holds all its keys plus `key` (not representable in the current format, or full);
/// false when it must split. Out of line: its buffers would make every insert's frame large.
[[gnu::noinline]] bool leaf_reencode_insert(unsigned char* keys, LeafMeta* m, unsigned char* values,
                                            std::uint32_t vb, std::uint64_t key,
                                            const void* value) {
  {
    std::uint64_t all[kMaxLeafSlots + 1];
    alignas(8) unsigned char vals[(kMaxLeafSlots + 1) * 64];
    const unsigned n = read_leaf(keys, m, values, vb, all, vals);
    unsigned at = 0;
    while (at < n && all[at] < key) ++at;
    for (unsigned i = n; i > at; --i) {
      all[i] = all[i - 1];
      if (vb) std::memcpy(vals + std::size_t{i} * vb, vals + std::size_t{i - 1} * vb, vb);
    }
    all[at] = key;
    if (vb) std::memcpy(vals + std::size_t{at} * vb, value, vb);
    LeafPlan p;
    if (fit_one_leaf(all, n + 1, true, &p) && p.count < format_slots(p.format)) {
      write_leaf(keys, m, values, vb, p, all, vals);
      return true;
    }
  }
  return false;
}

/// Plans the split of the locked, full (or unencodable) leaf plus `key`: fills `all`/`vals`
/// with the n+1 sorted keys and returns the number of leaves in `plans`.
template <bool Compressed>
unsigned plan_split(Core& c, std::uint32_t leaf, std::uint64_t key, const void* value,
                    std::uint64_t* all, unsigned char* vals, unsigned* total, LeafPlan* plans) {
  LeafMeta* m = leaf_meta_at(c, leaf);
  const std::uint32_t vb = c.value_bytes_;
  const unsigned n =
      read_leaf(leaf_keys_at(c, leaf), m, vb ? leaf_values_at(c, leaf) : nullptr, vb, all, vals);
  unsigned at = 0;
  while (at < n && all[at] < key) ++at;
  for (unsigned i = n; i > at; --i) {
    all[i] = all[i - 1];
    if (vb) std::memcpy(vals + std::size_t{i} * vb, vals + std::size_t{i - 1} * vb, vb);
  }
  all[at] = key;
  if (vb) std::memcpy(vals + std::size_t{at} * vb, value, vb);
  *total = n + 1;
  // Two halves when each fits one leaf (interleaving keys and gaps), else the greedy rule at 50%.
  const unsigned left = (n + 2) / 2;
  if (fit_one_leaf(all, left, Compressed, &plans[0]) &&
      fit_one_leaf(all + left, n + 1 - left, Compressed, &plans[1]))
    return 2;
  return static_cast<unsigned>(plan_greedy(all, n + 1, 0.5, Compressed, plans));
}

enum class SplitOutcome { kDone, kRetry, kRetryNow };

/// Splits the write-locked, full (or unencodable) `leaf` while inserting `key`; locks the parent
/// (restart: kRetry after a conflict, kRetryNow with *min_free set when the parent is full) and
/// unlocks everything it locked. Out of line: the non-splitting insert stays small.
template <bool Compressed, class Sync>
[[gnu::noinline]] SplitOutcome split_insert(Core& c, std::uint64_t key, const void* value,
                                            std::uint32_t leaf, std::uint32_t lv, Inner* parent,
                                            std::uint32_t pv, unsigned ppos, unsigned* min_free) {
  LeafMeta* m = leaf_meta_at(c, leaf);
  WG_BSTREE_TICK(t2);
  // Split: plan first (nothing changes yet), then lock the parent.
  std::uint64_t all[kMaxLeafSlots + 1];
  alignas(8) unsigned char vals[(kMaxLeafSlots + 1) * 64];
  LeafPlan plans[kMaxLeafSlots + 1];
  unsigned total;
  // A full 64-bit leaf of a set (all 16 slots used, so no gaps) splits 9 + 8 in registers. In a
  // compressed tree only when both halves stay 64-bit (each spans more than 32 bits), which is
  // what plan_split would choose; the halves are computed first (the leaf is locked) to check.
  bool vector_split = false;
  unsigned split_pos = 0;
  alignas(64) std::uint64_t split_left[16], split_right[16];
  std::uint64_t split_sep = 0;
  if constexpr (has_split64<Kernels>) {
    if (c.value_bytes_ == 0) {
      auto* lk = reinterpret_cast<std::uint64_t*>(leaf_keys_at(c, leaf));
      if constexpr (!Compressed) {
        vector_split = true;
        split_pos = Kernels::lt64(lk, key);
      } else if (ld(m->format) == kF64 && ld(m->count) == 16) {
        split_pos = Kernels::lt64(lk, key);
        split_sep = kernel_split64<Kernels>(lk, split_left, split_right, split_pos, key);
        vector_split = split_left[14] - split_left[0] > format_max_delta(kF32) &&
                       split_right[14] - split_right[0] > format_max_delta(kF32);
      }
    }
  }
  const unsigned parts =
      vector_split ? 2u : plan_split<Compressed>(c, leaf, key, value, all, vals, &total, plans);
  WG_BSTREE_TICK(t3);
  WG_BSTREE_PROF(split_plan += t3 - t2);
  if (parent) {
    if (!Sync::upgrade(parent->version, pv)) {
      Sync::unlock_unchanged(m->version, lv);
      return SplitOutcome::kRetry;
    }
    if (kInnerChildren - inner_children(parent) < parts - 1) {
      Sync::unlock_unchanged(parent->version, pv);
      Sync::unlock_unchanged(m->version, lv);
      *min_free = parts - 1;  // split that parent on the way down next time
      return SplitOutcome::kRetryNow;
    }
  }
  std::uint32_t fresh[kMaxLeafSlots];
  std::uint32_t root_index = 0;
  try {
    for (unsigned j = 1; j < parts; ++j) fresh[j] = c.alloc_leaf(/*init=*/false);
    if (!parent) root_index = c.alloc_inner();
  } catch (...) {
    if (parent) Sync::unlock_unchanged(parent->version, pv);
    Sync::unlock_unchanged(m->version, lv);
    throw;
  }
  WG_BSTREE_TICK(t4);
  WG_BSTREE_PROF(split_alloc += t4 - t3);
  // Fill the new leaves (unreachable until the parent and the link publish them), then
  // rewrite the old one in place and link the chain.
  const std::uint32_t vb = c.value_bytes_;
  std::uint64_t seps[kMaxLeafSlots];
  std::uint32_t after = ld(m->next);
  if constexpr (has_split64<Kernels>) {
    if (vector_split) {
      auto* lk = reinterpret_cast<std::uint64_t*>(leaf_keys_at(c, leaf));
      auto* rk = reinterpret_cast<std::uint64_t*>(leaf_keys_at(c, fresh[1]));
      if constexpr (!Compressed && !Sync::kConcurrent) {  // in place
        seps[0] = kernel_split64<Kernels>(lk, lk, rk, split_pos, key);
      } else {
        if constexpr (!Compressed)
          split_sep = kernel_split64<Kernels>(lk, split_left, split_right, split_pos, key);
        seps[0] = split_sep;
        if constexpr (!Sync::kConcurrent) {
          std::memcpy(rk, split_right, sizeof split_right);
          std::memcpy(lk, split_left, sizeof split_left);
        } else {  // readers may be reading the old leaf: relaxed stores
          for (unsigned i = 0; i < 16; ++i) {
            st(rk[i], split_right[i]);
            st(lk[i], split_left[i]);
          }
        }
      }
      LeafMeta* nm = leaf_meta_at(c, fresh[1]);
      st(nm->bitmap, kSplitRightBitmap);
      st(nm->count, 8u);
      st(nm->format, static_cast<std::uint32_t>(kF64));
      st(nm->base, std::uint64_t{0});
      st(nm->next, after);
      st(m->bitmap, kSplitLeftBitmap);
      st(m->count, 9u);
      after = fresh[1];
    }
  }
  for (unsigned j = vector_split ? 0 : parts - 1; j >= 1; --j) {
    std::size_t start = 0;
    for (unsigned q = 0; q < j; ++q) start += plans[q].count;
    LeafMeta* nm = leaf_meta_at(c, fresh[j]);
    write_leaf(leaf_keys_at(c, fresh[j]), nm, vb ? leaf_values_at(c, fresh[j]) : nullptr, vb,
               plans[j], all + start, vals + start * vb);
    st(nm->next, after);
    after = fresh[j];
    seps[j - 1] = all[start];
  }
  if (!vector_split)
    write_leaf(leaf_keys_at(c, leaf), m, vb ? leaf_values_at(c, leaf) : nullptr, vb, plans[0], all,
               vals);
  st(m->next, after);
  WG_BSTREE_TICK(t5);
  WG_BSTREE_PROF(split_write += t5 - t4);
  if (parent) {
    inner_insert_children(parent, ppos, seps, fresh + 1, parts - 1);
    Sync::unlock(parent->version, pv);
  } else {
    Inner* root = inner_at(c, root_index);
    for (unsigned i = 0; i < kInnerSlots; ++i) st(root->keys[i], kMax64);
    st(root->child[0], leaf);
    for (unsigned j = 1; j < parts; ++j) {
      st(root->child[j], fresh[j]);
      st(root->keys[j - 1], seps[j - 1]);
    }
    c.root_.store(root_word(root_index, 1), std::memory_order_release);
  }
  Sync::unlock(m->version, lv);
  c.add_size(1);
  WG_BSTREE_TICK(t6);
  WG_BSTREE_PROF(split_parent += t6 - t5);
  WG_BSTREE_PROF(splits++);
  return SplitOutcome::kDone;
}

template <bool Compressed, class Sync>
bool insert_op(Core& c, std::uint64_t key, const void* value, bool assign) {
  // No full-node check on the way down at first (it cost an extra count per level on every
  // insert); a leaf split that finds its parent full restarts with min_free > 0, and that descent
  // splits the full inner nodes on its path top-down.
  unsigned min_free = 0, restarts = 0;
  WG_BSTREE_PROF(inserts++);
  for (;;) {
    std::uint32_t leaf, lv, pv = 0;
    Inner* parent;
    unsigned ppos = 0;
    WG_BSTREE_TICK(t0);
    if (!descend<true, Sync>(c, key, min_free, &leaf, &lv, &parent, &pv, &ppos)) {
      WG_BSTREE_PROF(restarts++);
      backoff(restarts);
      continue;
    }
    WG_BSTREE_TICK(t1);
    WG_BSTREE_PROF(descent += t1 - t0);
    LeafMeta* m = leaf_meta_at(c, leaf);
    if (!Sync::upgrade(m->version, lv)) {
      backoff(restarts);
      continue;
    }
    bool changed;
    const LeafResult r =
        leaf_insert<Compressed, !Sync::kConcurrent>(c, leaf, key, value, assign, &changed);
    WG_BSTREE_TICK(t2);
    WG_BSTREE_PROF(leaf += t2 - t1);
    if (r != LeafResult::kNeedsSplit) {
      if (changed)
        Sync::unlock(m->version, lv);
      else
        Sync::unlock_unchanged(m->version, lv);
      if (r == LeafResult::kInserted) c.add_size(1);
      return r == LeafResult::kInserted;
    }
    const SplitOutcome so =
        split_insert<Compressed, Sync>(c, key, value, leaf, lv, parent, pv, ppos, &min_free);
    if (so == SplitOutcome::kDone) return true;
    if (so == SplitOutcome::kRetry) backoff(restarts);
  }
}

template <bool Compressed, class Sync>
bool erase_op(Core& c, std::uint64_t key) {
  if (key == kMax64) return false;
  unsigned restarts = 0;
  for (;;) {
    std::uint32_t leaf, lv, pv;
    Inner* parent;
    unsigned ppos;
    if (!descend<false, Sync>(c, key, 0, &leaf, &lv, &parent, &pv, &ppos)) {
      backoff(restarts);
      continue;
    }
    LeafMeta* m = leaf_meta_at(c, leaf);
    if (!Sync::upgrade(m->version, lv)) {
      backoff(restarts);
      continue;
    }
    unsigned char* keys = leaf_keys_at(c, leaf);
    const std::uint32_t f = Compressed ? ld(m->format) : std::uint32_t{kF64};
    const std::uint64_t base = Compressed ? ld(m->base) : 0;
    const unsigned le = leaf_count_lt<Compressed>(keys, f, base, key + 1);
    if (!is_at(keys, f, base, le, key)) {
      Sync::unlock_unchanged(m->version, lv);
      return false;
    }
    const unsigned first = leaf_count_lt<Compressed>(keys, f, base, key);
    std::uint64_t bitmap = ld(m->bitmap);
    if constexpr (!Compressed) {
      leaf_erase_slots<!Sync::kConcurrent>(reinterpret_cast<std::uint64_t*>(keys), &bitmap, first,
                                           le - 1);
    } else {
      switch (f) {
        case kF16:
          leaf_erase_slots<!Sync::kConcurrent>(reinterpret_cast<std::uint16_t*>(keys), &bitmap,
                                               first, le - 1);
          break;
        case kF32:
          leaf_erase_slots<!Sync::kConcurrent>(reinterpret_cast<std::uint32_t*>(keys), &bitmap,
                                               first, le - 1);
          break;
        default:
          leaf_erase_slots<!Sync::kConcurrent>(reinterpret_cast<std::uint64_t*>(keys), &bitmap,
                                               first, le - 1);
      }
    }
    st(m->bitmap, bitmap);
    st(m->count, ld(m->count) - 1);
    Sync::unlock(m->version, lv);
    c.add_size(-1);
    return true;
  }
}

inline const OpsTable* ops_table(bool compressed, bool concurrent) {
  static const OpsTable plain{&insert_op<false, Olc>, &erase_op<false, Olc>, &find_op<false, Olc>,
                              &scan_op<false, Olc>};
  static const OpsTable packed{&insert_op<true, Olc>, &erase_op<true, Olc>, &find_op<true, Olc>,
                               &scan_op<true, Olc>};
  static const OpsTable plain_single{&insert_op<false, SingleWriter>,
                                     &erase_op<false, SingleWriter>, &find_op<false, SingleWriter>,
                                     &scan_op<false, SingleWriter>};
  static const OpsTable packed_single{&insert_op<true, SingleWriter>, &erase_op<true, SingleWriter>,
                                      &find_op<true, SingleWriter>, &scan_op<true, SingleWriter>};
  if (concurrent) return compressed ? &packed : &plain;
  return compressed ? &packed_single : &plain_single;
}
