#pragma once
// Node layouts and the memory-access vocabulary of the BS-tree engine (internal; included only by
// the engine's sources).
//
// Every access to node memory that another thread may touch concurrently is a relaxed atomic
// (plain moves on x86) or, in the SIMD kernels, a vector load that the version check validates:
// readers never act on what they read before validating the node's version (a seqlock).
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <warpgraph/containers/bstree/detail/core.hpp>

namespace wg::bstree::detail {

inline constexpr std::uint64_t kMax64 = ~std::uint64_t{0};
inline constexpr std::uint32_t kNoLeaf = 0xFFFFFFFFu;
inline constexpr unsigned kInnerSlots = 16;     // 16 key slots; the last is always kMax64
inline constexpr unsigned kInnerChildren = 15;  // children[15] + version fill the third line

/// Inner node: 192 bytes = two lines of keys + one line of 15 child offsets and the version.
/// keys[i] separates child i (keys < keys[i]) from child i+1; unused keys are kMax64.
struct alignas(64) Inner {
  std::uint64_t keys[kInnerSlots];
  std::uint32_t child[kInnerChildren];
  std::uint32_t version;
};
static_assert(sizeof(Inner) == 192);

/// Leaf key formats (compressed trees use all three; BSTree only F64).
enum LeafFormat : std::uint32_t { kF64 = 0, kF32 = 1, kF16 = 2 };
inline constexpr unsigned format_slots(std::uint32_t f) {
  return 16u << f;
}
inline constexpr unsigned kLeafKeyBytes = 128;

/// Per-leaf metadata, in an array parallel to the 128-byte key blocks.
struct LeafMeta {
  std::uint32_t version;
  std::uint32_t next;    // next leaf in key order, kNoLeaf at the end
  std::uint64_t bitmap;  // bit i set = slot i holds a key (not a gap)
  std::uint64_t base;    // frame of reference: slot value d stands for base + d (0 for F64)
  std::uint32_t count;   // used slots
  std::uint32_t format;  // LeafFormat
};
static_assert(sizeof(LeafMeta) == 32);

// ---- relaxed accesses -------------------------------------------------------------------------
template <class T>
inline T ld(const T& x) {
  return __atomic_load_n(&x, __ATOMIC_RELAXED);
}
template <class T>
inline void st(T& x, T v) {
  __atomic_store_n(&x, v, __ATOMIC_RELAXED);
}

/// Copies n bytes between value slots (either side may be shared) with relaxed atomics of the
/// widest granularity n allows.
inline void copy_relaxed(void* dst, const void* src, std::size_t n) {
  if (n % 8 == 0) {
    auto* d = static_cast<std::uint64_t*>(dst);
    auto* s = static_cast<const std::uint64_t*>(src);
    for (std::size_t i = 0; i < n / 8; ++i) st(d[i], ld(s[i]));
  } else if (n % 4 == 0) {
    auto* d = static_cast<std::uint32_t*>(dst);
    auto* s = static_cast<const std::uint32_t*>(src);
    for (std::size_t i = 0; i < n / 4; ++i) st(d[i], ld(s[i]));
  } else {
    auto* d = static_cast<unsigned char*>(dst);
    auto* s = static_cast<const unsigned char*>(src);
    for (std::size_t i = 0; i < n; ++i) st(d[i], ld(s[i]));
  }
}

// ---- versions (optimistic locks): odd = write-locked ------------------------------------------
inline std::uint32_t version_load(const std::uint32_t& v) {
  return __atomic_load_n(&v, __ATOMIC_ACQUIRE);
}
/// True when nothing was written since `seen` was read (and everything read in between is
/// therefore a consistent snapshot).
inline bool version_validate(const std::uint32_t& v, std::uint32_t seen) {
#if defined(__SANITIZE_THREAD__)
  // TSan does not model standalone fences; an acquire RMW orders the same reads.
  return __atomic_fetch_add(const_cast<std::uint32_t*>(&v), 0, __ATOMIC_ACQ_REL) == seen;
#else
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  return __atomic_load_n(&v, __ATOMIC_RELAXED) == seen;
#endif
}
/// Takes the write lock if the version is still `seen` (even).
inline bool version_upgrade(std::uint32_t& v, std::uint32_t seen) {
  return __atomic_compare_exchange_n(&v, &seen, seen + 1, false, __ATOMIC_ACQUIRE,
                                     __ATOMIC_RELAXED);
}
/// Releases a lock taken from `seen`, publishing a new version (something changed).
inline void version_unlock(std::uint32_t& v, std::uint32_t seen) {
  __atomic_store_n(&v, seen + 2, __ATOMIC_RELEASE);
}
/// Releases a lock taken from `seen` without a change: readers need not restart.
inline void version_unlock_unchanged(std::uint32_t& v, std::uint32_t seen) {
  __atomic_store_n(&v, seen, __ATOMIC_RELEASE);
}
/// Synchronisation policies of the operations (ops.inl is written once against either).
/// Olc: optimistic lock coupling through the version words above.
struct Olc {
  static constexpr bool kConcurrent = true;
  static std::uint32_t load(const std::uint32_t& v) { return version_load(v); }
  static bool validate(const std::uint32_t& v, std::uint32_t seen) {
    return version_validate(v, seen);
  }
  static bool upgrade(std::uint32_t& v, std::uint32_t seen) { return version_upgrade(v, seen); }
  static void unlock(std::uint32_t& v, std::uint32_t seen) { version_unlock(v, seen); }
  static void unlock_unchanged(std::uint32_t& v, std::uint32_t seen) {
    version_unlock_unchanged(v, seen);
  }
};
/// SingleWriter: no other thread touches the tree during a write (readers may share it only while
/// nobody writes), so versions are neither read nor written: no atomic read-modify-write, no
/// restarts. Version words stay 0.
struct SingleWriter {
  static constexpr bool kConcurrent = false;
  static std::uint32_t load(const std::uint32_t&) { return 0; }
  static bool validate(const std::uint32_t&, std::uint32_t) { return true; }
  static bool upgrade(std::uint32_t&, std::uint32_t) { return true; }
  static void unlock(std::uint32_t&, std::uint32_t) {}
  static void unlock_unchanged(std::uint32_t&, std::uint32_t) {}
};

// ---- optional cycle profile of inserts (build with -DWG_BSTREE_PROFILE; off by default) ------
#if defined(WG_BSTREE_PROFILE)
struct InsertProfile {
  std::uint64_t inserts = 0, splits = 0, redistributions = 0, restarts = 0;
  std::uint64_t descent = 0, leaf = 0, split_plan = 0, split_alloc = 0, split_write = 0,
                split_parent = 0;
};
inline InsertProfile g_insert_profile;
#define WG_BSTREE_TICK(var) const std::uint64_t var = __builtin_ia32_rdtsc()
#define WG_BSTREE_PROF(stmt) (g_insert_profile.stmt)
#else
#define WG_BSTREE_TICK(var) ((void)0)
#define WG_BSTREE_PROF(stmt) ((void)0)
#endif

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// ---- node addressing ----------------------------------------------------------------------------
inline Inner* inner_at(const Core& c, std::uint32_t i) {
  return reinterpret_cast<Inner*>(c.inner_.base() + std::size_t{i} * sizeof(Inner));
}
inline unsigned char* leaf_keys_at(const Core& c, std::uint32_t i) {
  return c.leaf_keys_.base() + std::size_t{i} * kLeafKeyBytes;
}
inline LeafMeta* leaf_meta_at(const Core& c, std::uint32_t i) {
  return reinterpret_cast<LeafMeta*>(c.leaf_meta_.base() + std::size_t{i} * sizeof(LeafMeta));
}
inline unsigned char* leaf_values_at(const Core& c, std::uint32_t i) {
  return c.leaf_values_.base() + std::size_t{i} * c.leaf_slots_ * c.value_bytes_;
}
inline std::uint64_t root_word(std::uint32_t index, std::uint32_t level) {
  return std::uint64_t{index} | (std::uint64_t{level} << 32);
}

/// Value of slot i of a leaf's key block in format f, decoded (kMax64 for the filler).
inline std::uint64_t decode_slot(const unsigned char* keys, std::uint32_t f, std::uint64_t base,
                                 unsigned i) {
  switch (f) {
    case kF32: {
      std::uint32_t d = ld(reinterpret_cast<const std::uint32_t*>(keys)[i]);
      return d == 0xFFFFFFFFu ? kMax64 : base + d;
    }
    case kF16: {
      std::uint16_t d = ld(reinterpret_cast<const std::uint16_t*>(keys)[i]);
      return d == 0xFFFFu ? kMax64 : base + d;
    }
    default:
      return ld(reinterpret_cast<const std::uint64_t*>(keys)[i]);
  }
}

/// Largest delta (exclusive of the filler) format f can store.
inline constexpr std::uint64_t format_max_delta(std::uint32_t f) {
  return f == kF16 ? 0xFFFEu : f == kF32 ? 0xFFFFFFFEu : kMax64 - 1;
}

/// Plan of how to lay sorted keys into leaves: per leaf a format, a base and a key count.
struct LeafPlan {
  std::uint32_t format;
  std::uint32_t count;
  std::uint64_t base;
};

/// Narrowest format holding keys[0..n) with n <= its slots; false if none (n > 16 and range too
/// wide). F64 leaves of a compressed tree use base 0.
inline bool fit_one_leaf(const std::uint64_t* keys, std::size_t n, bool compressed, LeafPlan* out) {
  if (n == 0) {
    *out = {kF64, 0, 0};
    return true;
  }
  const std::uint64_t span = keys[n - 1] - keys[0];
  if (compressed) {
    if (n <= 64 && span <= format_max_delta(kF16)) {
      *out = {kF16, static_cast<std::uint32_t>(n), keys[0]};
      return true;
    }
    if (n <= 32 && span <= format_max_delta(kF32)) {
      *out = {kF32, static_cast<std::uint32_t>(n), keys[0]};
      return true;
    }
  }
  if (n <= 16) {
    *out = {kF64, static_cast<std::uint32_t>(n), 0};
    return true;
  }
  return false;
}

/// Greedy packing (the paper's rule): each leaf takes fill x its slots if those keys fit 16-bit
/// deltas, else fill x 32 keys if they fit 32-bit deltas, else fill x 16 keys of 64 bits.
/// Returns the number of leaves written to `plans` (which must have room: at most
/// ceil(n / floor(16 fill)) leaves).
inline std::size_t plan_greedy(const std::uint64_t* keys, std::size_t n, double fill,
                               bool compressed, LeafPlan* plans) {
  auto per = [&](unsigned slots) {
    std::size_t t = static_cast<std::size_t>(slots * fill);
    return t < 1 ? std::size_t{1} : t;
  };
  std::size_t leaves = 0;
  for (std::size_t i = 0; i < n;) {
    const std::size_t rem = n - i;
    LeafPlan p{kF64, 0, 0};
    bool done = false;
    if (compressed) {
      std::size_t t = std::min(rem, per(64));
      if (keys[i + t - 1] - keys[i] <= format_max_delta(kF16)) {
        p = {kF16, static_cast<std::uint32_t>(t), keys[i]};
        done = true;
      } else {
        t = std::min(rem, per(32));
        if (keys[i + t - 1] - keys[i] <= format_max_delta(kF32)) {
          p = {kF32, static_cast<std::uint32_t>(t), keys[i]};
          done = true;
        }
      }
    }
    if (!done) p = {kF64, static_cast<std::uint32_t>(std::min(rem, per(16))), 0};
    plans[leaves++] = p;
    i += p.count;
  }
  return leaves;
}

/// Slot of key j when n keys are spread over `slots` slots: floor(j * slots / n), for all j at
/// once without a division per key (a split writes two leaves; a 64-bit division per key was a
/// visible part of every split).
inline void spread_positions(unsigned n, unsigned slots, unsigned* pos) {
  if (n == 0) return;
  const unsigned step = slots / n, rem = slots % n;
  unsigned q = 0, r = 0;  // j * slots == q * n + r, 0 <= r < n
  for (unsigned j = 0; j < n; ++j) {
    pos[j] = q;
    q += step;
    r += rem;
    if (r >= n) {
      r -= n;
      ++q;
    }
  }
}

/// Fills every slot s with key number popcount(bitmap below s): the slot's own key when s is used,
/// else the next used key (a gap), or the filler after the last key. Branch-free.
template <class T>
inline void fill_slots(T* slots_out, unsigned slots, std::uint64_t bitmap, unsigned n,
                       const std::uint64_t* keys, std::uint64_t base) {
  unsigned idx = 0;
  for (unsigned s = 0; s < slots; ++s) {
    const T v = idx < n ? static_cast<T>(keys[idx < n ? idx : 0] - base) : static_cast<T>(~T{0});
    st(slots_out[s], v);
    idx += static_cast<unsigned>((bitmap >> s) & 1);
  }
}

/// Writes n sorted keys into a leaf in format p, spread evenly over the slots (key j at slot
/// floor(j * slots / n)), gaps filled with the next key, filler after the last. Values (when
/// value_bytes > 0) go to the same slots. Sets bitmap/count/format/base; not version or next.
inline void write_leaf(unsigned char* keys_block, LeafMeta* meta, unsigned char* values_block,
                       std::uint32_t value_bytes, const LeafPlan& p, const std::uint64_t* keys,
                       const unsigned char* values) {
  const unsigned slots = format_slots(p.format);
  unsigned pos[64];
  spread_positions(p.count, slots, pos);
  std::uint64_t bitmap = 0;
  for (unsigned j = 0; j < p.count; ++j) {
    bitmap |= std::uint64_t{1} << pos[j];
    if (value_bytes)
      copy_relaxed(values_block + std::size_t{pos[j]} * value_bytes,
                   values + std::size_t{j} * value_bytes, value_bytes);
  }
  switch (p.format) {
    case kF16:
      fill_slots(reinterpret_cast<std::uint16_t*>(keys_block), slots, bitmap, p.count, keys,
                 p.base);
      break;
    case kF32:
      fill_slots(reinterpret_cast<std::uint32_t*>(keys_block), slots, bitmap, p.count, keys,
                 p.base);
      break;
    default:  // F64 leaves have base 0; kMax64 is the filler itself
      fill_slots(reinterpret_cast<std::uint64_t*>(keys_block), slots, bitmap, p.count, keys, 0);
  }
  st(meta->bitmap, bitmap);
  st(meta->count, p.count);
  st(meta->format, p.format);
  st(meta->base, p.base);
}

/// Decodes a leaf's used keys (ascending) and their values; returns how many. Writer-side or on
/// a private snapshot.
inline unsigned read_leaf(const unsigned char* keys_block, const LeafMeta* meta,
                          const unsigned char* values_block, std::uint32_t value_bytes,
                          std::uint64_t* keys_out, unsigned char* values_out) {
  std::uint64_t bits = ld(meta->bitmap);
  const std::uint32_t f = ld(meta->format);
  const std::uint64_t base = ld(meta->base);
  unsigned n = 0;
  while (bits) {
    const unsigned s = static_cast<unsigned>(__builtin_ctzll(bits));
    bits &= bits - 1;
    keys_out[n] = decode_slot(keys_block, f, base, s);
    if (value_bytes)
      copy_relaxed(values_out + std::size_t{n} * value_bytes,
                   values_block + std::size_t{s} * value_bytes, value_bytes);
    ++n;
  }
  return n;
}

}  // namespace wg::bstree::detail
