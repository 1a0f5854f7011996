// BS-tree operations, written once against a kernel struct `Kernels` (count of keys < k over
// 16 x u64, 32 x u32, 64 x u16) and included once per instruction set by ops.cpp inside a target
// region and a namespace of its own (so each build inlines its kernels and no symbol is shared
// between builds). No includes here: everything comes from ops.cpp before the region opens.
// This file: leaf search, the optimistic descent and the readers (find, scan); the writers and
// the operation table follow in ops_write.inl, included right after it.

/// Number of keys < k in a leaf of format f with base `base` (k may be anything).
template <bool Compressed>
inline unsigned leaf_count_lt(const unsigned char* keys, std::uint32_t f, std::uint64_t base,
                              std::uint64_t k) {
  if constexpr (Compressed) {
    if (f == kF32) {
      if (k <= base) return 0;
      const std::uint64_t d = k - base;
      return Kernels::lt32(reinterpret_cast<const std::uint32_t*>(keys),
                           d > 0xFFFFFFFFu ? 0xFFFFFFFFu : static_cast<std::uint32_t>(d));
    }
    if (f == kF16) {
      if (k <= base) return 0;
      const std::uint64_t d = k - base;
      return Kernels::lt16(reinterpret_cast<const std::uint16_t*>(keys),
                           d > 0xFFFFu ? std::uint16_t{0xFFFF} : static_cast<std::uint16_t>(d));
    }
  }
  return Kernels::lt64(reinterpret_cast<const std::uint64_t*>(keys), k);
}

/// Whether `key` is in the leaf, given le = number of slots <= key. No branch on le == 0 (a key
/// below a leaf's first key is common enough to be mispredicted, right after the leaf's miss).
inline bool is_at(const unsigned char* keys, std::uint32_t f, std::uint64_t base, unsigned le,
                  std::uint64_t key) {
  const unsigned prev = le - static_cast<unsigned>(le != 0);
  return static_cast<bool>(static_cast<unsigned>(le != 0) &
                           static_cast<unsigned>(decode_slot(keys, f, base, prev) == key));
}

/// Child slot of `key` in an inner node: number of separators <= key (key < kMax64).
inline unsigned inner_branch(const Inner* node, std::uint64_t key) {
  return Kernels::lt64(node->keys, key + 1);
}
inline unsigned inner_children(const Inner* node) {
  return Kernels::lt64(node->keys, kMax64) + 1;
}

inline void backoff(unsigned& restarts) {
  if (++restarts > 64) {
    restarts = 0;
    std::this_thread::yield();
  } else {
    cpu_relax();
  }
}

/// Optimistic descent to the leaf whose range holds `key`. On success: *leaf, its version *lv
/// (unlocked), and the parent (nullptr when the leaf is the root) with its version *pv and the
/// leaf's slot *ppos in it; the parent was validated after the leaf's version was read.
/// `min_free` > 0 makes the descent split (write-lock, split, restart) every inner node with
/// fewer free child slots than that, so that a leaf split finds room in its parent.
/// Returns false when the caller must restart.
template <bool Writer, class Sync>
inline bool descend(Core& c, std::uint64_t key, unsigned min_free, std::uint32_t* leaf,
                    std::uint32_t* lv, Inner** parent, std::uint32_t* pv, unsigned* ppos);

// Inner split helpers (writer side, callers hold the locks).
inline void inner_insert_children(Inner* node, unsigned pos, const std::uint64_t* seps,
                                  const std::uint32_t* kids, unsigned m) {
  // Insert m children kids[0..m) right after child `pos`, separated by seps[0..m).
  const unsigned c = inner_children(node);
  for (int i = static_cast<int>(c) - 1; i > static_cast<int>(pos); --i)
    st(node->child[i + m], ld(node->child[i]));
  for (int i = static_cast<int>(c) - 2; i >= static_cast<int>(pos); --i)
    st(node->keys[i + m], ld(node->keys[i]));
  for (unsigned j = 0; j < m; ++j) {
    st(node->child[pos + 1 + j], kids[j]);
    st(node->keys[pos + j], seps[j]);
  }
}

/// Splits the locked inner `node` (at `level`, children of level-1) into itself and a new right
/// node; the separator goes into the locked `parent` after slot `ppos`, or into a new root.
/// Allocates first, so a CapacityError leaves the tree unchanged.
inline void split_inner(Core& c, Inner* node, std::uint32_t node_index, unsigned level,
                        Inner* parent, unsigned ppos) {
  const std::uint32_t right_index = c.alloc_inner();
  const std::uint32_t root_index = parent ? 0 : c.alloc_inner();
  Inner* right = inner_at(c, right_index);
  const unsigned n = inner_children(node);
  const unsigned h = (n + 1) / 2;
  const std::uint64_t up = ld(node->keys[h - 1]);
  for (unsigned i = 0; i < kInnerSlots; ++i) st(right->keys[i], kMax64);
  for (unsigned i = h; i < n; ++i) st(right->child[i - h], ld(node->child[i]));
  for (unsigned i = h; i + 1 < n; ++i) st(right->keys[i - h], ld(node->keys[i]));
  for (unsigned i = h - 1; i + 1 < n; ++i) st(node->keys[i], kMax64);
  if (parent) {
    inner_insert_children(parent, ppos, &up, &right_index, 1);
  } else {
    Inner* root = inner_at(c, root_index);
    for (unsigned i = 0; i < kInnerSlots; ++i) st(root->keys[i], kMax64);
    st(root->keys[0], up);
    st(root->child[0], node_index);
    st(root->child[1], right_index);
    c.root_.store(root_word(root_index, level + 1), std::memory_order_release);
  }
}

template <bool Writer, class Sync>
inline bool descend(Core& c, std::uint64_t key, unsigned min_free, std::uint32_t* leaf,
                    std::uint32_t* lv, Inner** parent_out, std::uint32_t* pv, unsigned* ppos) {
  const std::uint64_t rw = c.root_.load(std::memory_order_acquire);
  std::uint32_t index = static_cast<std::uint32_t>(rw);
  unsigned level = static_cast<unsigned>(rw >> 32);
  if (level == 0) {
    const std::uint32_t v = Sync::load(leaf_meta_at(c, index)->version);
    if ((v & 1) || (Sync::kConcurrent && c.root_.load(std::memory_order_acquire) != rw))
      return false;
    *leaf = index;
    *lv = v;
    *parent_out = nullptr;
    return true;
  }
  Inner* node = inner_at(c, index);
  std::uint32_t v = Sync::load(node->version);
  // (A single writer cannot have changed the root since we read it.)
  if ((v & 1) || (Sync::kConcurrent && c.root_.load(std::memory_order_acquire) != rw)) return false;
  if (Writer && min_free && kInnerChildren - inner_children(node) < min_free) {
    if (!Sync::validate(node->version, v) || !Sync::upgrade(node->version, v)) return false;
    try {
      split_inner(c, node, index, level, nullptr, 0);
    } catch (...) {
      Sync::unlock_unchanged(node->version, v);
      throw;
    }
    Sync::unlock(node->version, v);
    return false;
  }
  for (;;) {
    const unsigned pos = inner_branch(node, key);
    const std::uint32_t child = ld(node->child[pos]);
    if (level > 1) {
      Inner* ch = inner_at(c, child);
      // Ask for all three lines at once: the version line and both key lines.
      __builtin_prefetch(reinterpret_cast<const char*>(ch) + 128);
      __builtin_prefetch(ch);
      __builtin_prefetch(reinterpret_cast<const char*>(ch) + 64);
      const std::uint32_t cv = Sync::load(ch->version);
      if ((cv & 1) || !Sync::validate(node->version, v)) return false;
      if (Writer && min_free && kInnerChildren - inner_children(ch) < min_free) {
        if (!Sync::validate(ch->version, cv)) return false;
        if (!Sync::upgrade(node->version, v)) return false;
        if (!Sync::upgrade(ch->version, cv)) {
          Sync::unlock_unchanged(node->version, v);
          return false;
        }
        try {
          split_inner(c, ch, child, level - 1, node, pos);
        } catch (...) {
          Sync::unlock_unchanged(ch->version, cv);
          Sync::unlock_unchanged(node->version, v);
          throw;
        }
        Sync::unlock(ch->version, cv);
        Sync::unlock(node->version, v);
        return false;
      }
      node = ch;
      v = cv;
      --level;
    } else {
      const unsigned char* lk = leaf_keys_at(c, child);
      __builtin_prefetch(leaf_meta_at(c, child), Writer ? 1 : 0);
      __builtin_prefetch(lk, Writer ? 1 : 0);
      __builtin_prefetch(lk + 64, Writer ? 1 : 0);
      const std::uint32_t cv = Sync::load(leaf_meta_at(c, child)->version);
      if ((cv & 1) || !Sync::validate(node->version, v)) return false;
      *leaf = child;
      *lv = cv;
      *parent_out = node;
      *pv = v;
      *ppos = pos;
      return true;
    }
  }
}

// ---- readers
// --------------------------------------------------------------------------------------

template <bool Compressed, class Sync>
bool find_op(const Core& cc, std::uint64_t key, void* value_out) {
  if (key == kMax64) return false;
  Core& c = const_cast<Core&>(cc);  // readers never write: descend<false> only reads
  unsigned restarts = 0;
  for (;;) {
    std::uint32_t leaf, lv, pv;
    Inner* parent;
    unsigned ppos;
    if (!descend<false, Sync>(c, key, 0, &leaf, &lv, &parent, &pv, &ppos)) {
      backoff(restarts);
      continue;
    }
    const LeafMeta* m = leaf_meta_at(c, leaf);
    const unsigned char* keys = leaf_keys_at(c, leaf);
    std::uint32_t f = kF64;
    std::uint64_t base = 0;
    if constexpr (Compressed) {
      f = ld(m->format);
      base = ld(m->base);
    }
    const unsigned le = leaf_count_lt<Compressed>(keys, f, base, key + 1);
    // Branches here, unlike is_at: a predicted branch lets the CPU run on to the next lookup
    // before this leaf arrives (the branch-free form made finds slower).
    const bool found = le > 0 && decode_slot(keys, f, base, le - 1) == key;
    if (found && value_out && c.value_bytes_)
      copy_relaxed(value_out, leaf_values_at(c, leaf) + std::size_t{le - 1} * c.value_bytes_,
                   c.value_bytes_);
    if (Sync::validate(m->version, lv)) return found;
    backoff(restarts);
  }
}

/// Whether the ISA build has the range-scan kernel (AVX-512).
template <class K>
inline constexpr bool has_collect = requires(const std::uint64_t* p, std::uint64_t* out, bool* e) {
  K::collect64(p, std::uint64_t{}, std::uint64_t{}, std::uint64_t{}, out, e);
};
template <class K>
inline unsigned kernel_collect(const std::uint64_t* p, std::uint64_t used, std::uint64_t lo,
                               std::uint64_t hi, std::uint64_t* out, bool* past_end) {
  return K::collect64(p, used, lo, hi, out, past_end);
}

template <bool Compressed, class Sync>
std::size_t scan_op(const Core& cc, ScanCursor& cur, std::uint64_t* keys_out, void* values_out) {
  Core& c = const_cast<Core&>(cc);
  unsigned restarts = 0;
  std::size_t total = 0;  // keys written by the leaves read so far (each validated)
  for (;;) {
    std::uint32_t leaf, lv;
    if (!cur.started) {
      std::uint32_t pv;
      Inner* parent;
      unsigned ppos;
      if (!descend<false, Sync>(c, cur.from, 0, &leaf, &lv, &parent, &pv, &ppos)) {
        backoff(restarts);
        continue;
      }
    } else {
      leaf = cur.leaf;
      lv = Sync::load(leaf_meta_at(c, leaf)->version);
      if (lv & 1) {
        backoff(restarts);
        continue;
      }
    }
    const LeafMeta* m = leaf_meta_at(c, leaf);
    const unsigned char* keys = leaf_keys_at(c, leaf);
    const unsigned char* values = c.value_bytes_ ? leaf_values_at(c, leaf) : nullptr;
    std::uint64_t bits = ld(m->bitmap);
    const std::uint32_t f = Compressed ? ld(m->format) : std::uint32_t{kF64};
    const std::uint64_t base = Compressed ? ld(m->base) : 0;
    const std::uint32_t next = ld(m->next);
    std::uint64_t* out = keys_out + total;
    std::size_t n = 0;
    bool past_end = false;
    if constexpr (has_collect<Kernels>) {
      if (!values_out && f == kF64) {  // a whole leaf of 64-bit keys at once
        n = kernel_collect<Kernels>(reinterpret_cast<const std::uint64_t*>(keys), bits, cur.from,
                                    cur.hi, out, &past_end);
        bits = 0;
      }
    }
    while (bits) {
      const unsigned s = static_cast<unsigned>(__builtin_ctzll(bits));
      bits &= bits - 1;
      const std::uint64_t k = decode_slot(keys, f, base, s);
      if (k >= cur.hi) {
        past_end = true;
        break;
      }
      if (k < cur.from) continue;
      out[n] = k;
      if (values_out)
        copy_relaxed(static_cast<unsigned char*>(values_out) + n * c.value_bytes_,
                     values + std::size_t{s} * c.value_bytes_, c.value_bytes_);
      ++n;
    }
    if (!Sync::validate(m->version, lv)) {
      backoff(restarts);
      continue;
    }
    if (n) cur.from = out[n - 1] + 1;  // < hi <= kMax64, so no overflow
    total += n;
    cur.started = true;
    if (past_end || next == kNoLeaf) {
      cur.done = true;
      return total;
    }
    cur.leaf = next;
    // Sets read on while another whole leaf fits (one call per buffer, not per leaf).
    if (values_out || total + kMaxLeafSlots > cur.capacity) return total;
  }
}
