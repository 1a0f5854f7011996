// BS-tree engine: node arrays, construction, bulk load, dispatch to the per-ISA operations,
// and the structural checker used by the tests.
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <warpgraph/containers/bstree/detail/core.hpp>
#include <warpgraph/containers/bstree/detail/layout.hpp>
#include <warpgraph/containers/bstree/detail/ops_table.hpp>
#include <warpgraph/containers/core/error.hpp>

namespace wg::bstree::detail {

namespace {
constexpr std::size_t kHugePage = std::size_t{2} << 20;

std::size_t round_up(std::size_t x, std::size_t to) {
  return (x + to - 1) / to * to;
}

/// Takes the next index n of a node pool: under the allocation lock when the tree is concurrent,
/// refused past max_nodes (CapacityError naming `what`); `init(n)` commits and fills the node
/// before the count is published (release: a reader that sees the count sees the node).
template <class Init>
std::uint32_t claim_node(std::mutex& mutex, bool concurrent, std::atomic<std::uint32_t>& count,
                         std::size_t max_nodes, const char* what, Init&& init) {
  std::unique_lock<std::mutex> lock(mutex, std::defer_lock);
  if (concurrent) lock.lock();
  const std::uint32_t n = count.load(std::memory_order_relaxed);
  if (n >= max_nodes) throw CapacityError(what, max_nodes, "raise Options::max_leaves");
  init(n);
  count.store(n + 1, std::memory_order_release);
  return n;
}
}  // namespace

// ---- SIMD selection
// ------------------------------------------------------------------------------

bool simd_supported(SimdPath path) {
  switch (path) {
    case SimdPath::automatic:
    case SimdPath::scalar:
      return true;
#if defined(__x86_64__)
    case SimdPath::avx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt") &&
             __builtin_cpu_supports("bmi2");
    case SimdPath::avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("popcnt") &&
             __builtin_cpu_supports("bmi2");
#endif
    default:
      return false;
  }
}

const char* simd_name(SimdPath path) {
  switch (path) {
    case SimdPath::avx512:
      return "avx512";
    case SimdPath::avx2:
      return "avx2";
    case SimdPath::scalar:
      return "scalar";
    default:
      return "automatic";
  }
}

SimdPath resolve_simd(SimdPath requested) {
  if (requested == SimdPath::automatic) {
#if defined(__SANITIZE_THREAD__)
    return SimdPath::scalar;  // vector loads of shared nodes are invisible to TSan's model
#else
    if (simd_supported(SimdPath::avx512)) return SimdPath::avx512;
    if (simd_supported(SimdPath::avx2)) return SimdPath::avx2;
    return SimdPath::scalar;
#endif
  }
  if (!simd_supported(requested))
    throw InvalidArgument(std::string("bstree: this CPU cannot run the ") + simd_name(requested) +
                          " path");
  return requested;
}

bool compression_pays(const std::uint64_t* keys, std::size_t n) {
  if (n == 0) return false;
  double zeros = 0;
  std::size_t segments = 0;
  for (std::size_t i = 0; i < n; i += 13) {
    const std::size_t last = std::min(n, i + 13) - 1;
    const std::uint64_t span = keys[last] - keys[i];
    zeros += span == 0 ? 64 : __builtin_clzll(span);
    ++segments;
  }
  return zeros / static_cast<double>(segments) >= 32.0;
}

// ---- node arrays
// ---------------------------------------------------------------------------------

NodeArray::~NodeArray() {
  if (base_) munmap(base_, reserved_);
}

void NodeArray::reserve(std::size_t node_bytes, std::size_t max_nodes, const char* what) {
  node_bytes_ = node_bytes;
  max_nodes_ = max_nodes;
  what_ = what;
  if (node_bytes == 0 || max_nodes == 0) return;
  const std::size_t bytes = round_up(node_bytes * max_nodes, kHugePage);
  // Reserve address space only (PROT_NONE is not committed memory); over-reserve by one huge
  // page to align the start to 2 MiB.
  void* p = mmap(nullptr, bytes + kHugePage, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
  if (p == MAP_FAILED)
    throw CapacityError(std::string("bstree ") + what, max_nodes,
                        "cannot reserve " + std::to_string(bytes) + " bytes of address space");
  auto* raw = static_cast<unsigned char*>(p);
  auto* aligned =
      reinterpret_cast<unsigned char*>(round_up(reinterpret_cast<std::uintptr_t>(raw), kHugePage));
  if (aligned > raw) munmap(raw, static_cast<std::size_t>(aligned - raw));
  const std::size_t tail = static_cast<std::size_t>((raw + bytes + kHugePage) - (aligned + bytes));
  if (tail) munmap(aligned + bytes, tail);
  base_ = aligned;
  reserved_ = bytes;
}

void NodeArray::commit(std::size_t count) {
  const std::size_t need = count * node_bytes_;
  if (need <= committed_) return;
  if (count > max_nodes_)
    throw CapacityError(std::string("bstree ") + what_, max_nodes_,
                        "node array full (raise Options::max_leaves)");
  // Grow geometrically in whole huge pages.
  std::size_t target = std::max(round_up(need, kHugePage), std::min(reserved_, 2 * committed_));
  target = std::min(target, reserved_);
  if (mprotect(base_ + committed_, target - committed_, PROT_READ | PROT_WRITE) != 0)
    throw CapacityError(std::string("bstree ") + what_, max_nodes_,
                        "cannot commit memory: " + std::string(std::strerror(errno)));
#ifdef MADV_HUGEPAGE
  madvise(base_ + committed_, target - committed_, MADV_HUGEPAGE);
#endif
  committed_ = target;
}

// ---- core
// ----------------------------------------------------------------------------------------

Core::Core(bool compressed, std::uint32_t value_bytes, SimdPath simd, std::uint32_t max_leaves,
           bool concurrent)
    : compressed_(compressed),
      concurrent_(concurrent),
      value_bytes_(value_bytes),
      leaf_slots_(compressed ? 64u : 16u),
      simd_(resolve_simd(simd)),
      ops_(ops_for(simd_, compressed, concurrent)),
      insert_fn_(ops_->insert),
      erase_fn_(ops_->erase),
      find_fn_(ops_->find) {
  if (max_leaves < 1) throw InvalidArgument("bstree: Options::max_leaves must be >= 1");
  const std::size_t max_inner = std::min<std::size_t>(std::size_t{max_leaves} / 4 + 64, kNoLeaf);
  inner_.reserve(sizeof(Inner), max_inner, "inner nodes");
  leaf_keys_.reserve(kLeafKeyBytes, max_leaves, "leaves");
  leaf_meta_.reserve(sizeof(LeafMeta), max_leaves, "leaf metadata");
  if (value_bytes_)
    leaf_values_.reserve(std::size_t{leaf_slots_} * value_bytes_, max_leaves, "leaf values");
  const std::uint32_t root = alloc_leaf();
  root_.store(root_word(root, 0), std::memory_order_release);
}

Core::~Core() = default;

std::uint32_t Core::alloc_leaf(bool init) {
  auto fill = [&](std::uint32_t n) {
    leaf_keys_.commit(std::size_t{n} + 1);
    leaf_meta_.commit(std::size_t{n} + 1);
    if (value_bytes_) leaf_values_.commit(std::size_t{n} + 1);
    if (!init) return;
    auto* keys = reinterpret_cast<std::uint64_t*>(leaf_keys_at(*this, n));
    for (unsigned i = 0; i < kLeafKeyBytes / 8; ++i) st(keys[i], kMax64);  // filler in any format
    LeafMeta* m = leaf_meta_at(*this, n);
    st(m->next, kNoLeaf);
    st(m->bitmap, std::uint64_t{0});
    st(m->base, std::uint64_t{0});
    st(m->count, 0u);
    st(m->format, static_cast<std::uint32_t>(kF64));
  };
  return claim_node(alloc_mutex_, concurrent_, leaf_count_, leaf_keys_.max_nodes(), "bstree leaves",
                    fill);
}

std::uint32_t Core::alloc_inner() {
  auto fill = [&](std::uint32_t n) {
    inner_.commit(std::size_t{n} + 1);
    Inner* node = inner_at(*this, n);
    for (unsigned i = 0; i < kInnerSlots; ++i) st(node->keys[i], kMax64);
  };
  return claim_node(alloc_mutex_, concurrent_, inner_count_, inner_.max_nodes(),
                    "bstree inner nodes", fill);
}

namespace {
std::atomic<unsigned> g_next_slot{0};
thread_local unsigned t_slot = 0;  // 1-based counter slot of this thread, 0 = not yet assigned
}  // namespace

void Core::add_size_concurrent(std::int64_t delta) {
  unsigned slot = t_slot;
  if (slot == 0) slot = t_slot = g_next_slot.fetch_add(1, std::memory_order_relaxed) + 1;
  if (slot <= kCounterStripes) {
    std::atomic<std::int64_t>& n = counters_[slot - 1].n;  // only this thread writes it
    n.store(n.load(std::memory_order_relaxed) + delta, std::memory_order_relaxed);
  } else {
    overflow_.fetch_add(delta, std::memory_order_relaxed);
  }
}

std::size_t Core::size() const {
  std::int64_t total = overflow_.load(std::memory_order_relaxed);
  for (const Counter& c : counters_) total += c.n.load(std::memory_order_relaxed);
  return total < 0 ? 0 : static_cast<std::size_t>(total);
}

std::size_t Core::memory_bytes() const {
  const std::size_t leaves = leaf_count_.load(std::memory_order_relaxed);
  const std::size_t inners = inner_count_.load(std::memory_order_relaxed);
  return inners * sizeof(Inner) +
         leaves * (kLeafKeyBytes + sizeof(LeafMeta) + std::size_t{leaf_slots_} * value_bytes_);
}

int Core::height() const {
  return static_cast<int>(root_.load(std::memory_order_acquire) >> 32) + 1;
}

void Core::throw_max_key() {
  throw InvalidArgument("bstree: key 2^64-1 (kMaxKey) is reserved and cannot be inserted");
}
std::size_t Core::scan(ScanCursor& cursor, std::uint64_t* keys_out, void* values_out) const {
  if (cursor.done) return 0;
  return ops_->scan(*this, cursor, keys_out, values_out);
}
bool Core::lower_bound(std::uint64_t key, std::uint64_t* out) const {
  if (key == kMax64) return false;
  ScanCursor cursor{key, kMax64};
  std::uint64_t keys[kMaxLeafSlots];
  while (!cursor.done) {
    if (ops_->scan(*this, cursor, keys, nullptr) > 0) {
      *out = keys[0];
      return true;
    }
  }
  return false;
}

// ---- bulk load ----------------------------------------------------------------------------------

void Core::bulk_load(const std::uint64_t* keys, const void* values, std::size_t n, double leaf_fill,
                     double inner_fill) {
  if (size() != 0 || height() != 1 || leaf_count_.load() != 1)
    throw InvalidArgument("bstree::bulk_load: the tree must be empty and never split");
  for (std::size_t i = 0; i < n; ++i) {
    if (keys[i] == kMax64)
      throw InvalidArgument("bstree::bulk_load: key " + std::to_string(i) +
                            " is 2^64-1 (kMaxKey), which is reserved");
    if (i && keys[i] <= keys[i - 1])
      throw InvalidArgument("bstree::bulk_load: keys not strictly ascending at index " +
                            std::to_string(i));
  }
  if (n == 0) return;
  leaf_fill = std::clamp(leaf_fill, 1.0 / 16, 1.0);
  inner_fill = std::clamp(inner_fill, 2.0 / 15, 1.0);
  std::vector<LeafPlan> plans(n);
  plans.resize(plan_greedy(keys, n, leaf_fill, compressed_, plans.data()));
  const auto* vals = static_cast<const unsigned char*>(values);

  std::vector<std::uint32_t> nodes(plans.size());
  std::vector<std::uint64_t> firsts(plans.size());
  nodes[0] = static_cast<std::uint32_t>(root_.load());
  for (std::size_t j = 1; j < plans.size(); ++j) nodes[j] = alloc_leaf();
  std::size_t start = 0;
  for (std::size_t j = 0; j < plans.size(); ++j) {
    LeafMeta* m = leaf_meta_at(*this, nodes[j]);
    write_leaf(leaf_keys_at(*this, nodes[j]), m,
               value_bytes_ ? leaf_values_at(*this, nodes[j]) : nullptr, value_bytes_, plans[j],
               keys + start, vals ? vals + start * value_bytes_ : nullptr);
    st(m->next, j + 1 < plans.size() ? nodes[j + 1] : kNoLeaf);
    firsts[j] = keys[start];
    start += plans[j].count;
  }
  std::uint32_t level = 0;
  const std::size_t per = std::clamp<std::size_t>(
      static_cast<std::size_t>(kInnerChildren * inner_fill + 0.5), 2, kInnerChildren);
  while (nodes.size() > 1) {
    const std::size_t groups = (nodes.size() + per - 1) / per;
    std::vector<std::uint32_t> up_nodes(groups);
    std::vector<std::uint64_t> up_firsts(groups);
    std::size_t at = 0;
    for (std::size_t g = 0; g < groups; ++g) {
      // Even group sizes, so no inner node is left with a single child.
      const std::size_t size = nodes.size() / groups + (g < nodes.size() % groups ? 1 : 0);
      const std::uint32_t idx = alloc_inner();
      Inner* node = inner_at(*this, idx);
      for (std::size_t j = 0; j < size; ++j) {
        st(node->child[j], nodes[at + j]);
        if (j) st(node->keys[j - 1], firsts[at + j]);
      }
      up_nodes[g] = idx;
      up_firsts[g] = firsts[at];
      at += size;
    }
    nodes.swap(up_nodes);
    firsts.swap(up_firsts);
    ++level;
  }
  root_.store(root_word(nodes[0], level), std::memory_order_release);
  add_size(static_cast<std::int64_t>(n));
}

// ---- checks and statistics
// -----------------------------------------------------------------------

namespace {
[[noreturn]] void broken(const std::string& what) {
  throw Error("bstree invariant violated: " + what);
}
}  // namespace

void Core::check_invariants() const {
  std::vector<std::uint32_t> leaves_in_order;
  std::size_t total = 0;
  struct Frame {
    std::uint32_t index;
    std::uint32_t level;
    std::uint64_t lo, hi;  // keys in [lo, hi); hi == kMax64 means unbounded
  };
  const std::uint64_t rw = root_.load();
  std::vector<Frame> stack{
      {static_cast<std::uint32_t>(rw), static_cast<std::uint32_t>(rw >> 32), 0, kMax64}};
  while (!stack.empty()) {
    const Frame f = stack.back();
    stack.pop_back();
    if (f.level > 0) {
      if (f.index >= inner_count_.load()) broken("inner index out of range");
      const Inner* node = inner_at(*this, f.index);
      if (node->version & 1) broken("inner node left locked");
      unsigned seps = 0;
      while (seps < kInnerSlots && node->keys[seps] != kMax64) ++seps;
      for (unsigned i = seps; i < kInnerSlots; ++i)
        if (node->keys[i] != kMax64) broken("inner key after the filler");
      if (seps + 1 > kInnerChildren) broken("inner node over capacity");
      for (unsigned i = 0; i < seps; ++i) {
        if (i && node->keys[i] <= node->keys[i - 1]) broken("inner separators not ascending");
        if (node->keys[i] <= f.lo || node->keys[i] >= f.hi)
          broken("inner separator outside its parent's range");
      }
      // Push right to left so leaves come out left to right.
      for (int i = static_cast<int>(seps); i >= 0; --i) {
        const std::uint64_t lo = i == 0 ? f.lo : node->keys[i - 1];
        const std::uint64_t hi = i == static_cast<int>(seps) ? f.hi : node->keys[i];
        stack.push_back({node->child[i], f.level - 1, lo, hi});
      }
      continue;
    }
    if (f.index >= leaf_count_.load()) broken("leaf index out of range");
    const LeafMeta* m = leaf_meta_at(*this, f.index);
    const unsigned char* keys = leaf_keys_at(*this, f.index);
    if (m->version & 1) broken("leaf left locked");
    if (m->format > kF16 || (!compressed_ && m->format != kF64)) broken("bad leaf format");
    if (m->format == kF64 && m->base != 0) broken("64-bit leaf with a base");
    const unsigned slots = format_slots(m->format);
    if (slots < 64 && (m->bitmap >> slots)) broken("bitmap bits beyond the slots");
    if (static_cast<unsigned>(__builtin_popcountll(m->bitmap)) != m->count)
      broken("leaf count != bitmap population");
    std::uint64_t prev_used = 0;
    bool any = false;
    for (unsigned s = 0; s < slots; ++s) {
      const std::uint64_t v = decode_slot(keys, m->format, m->base, s);
      const std::uint64_t next =
          s + 1 < slots ? decode_slot(keys, m->format, m->base, s + 1) : kMax64;
      if (v > next) broken("leaf slots not ascending");
      if ((m->bitmap >> s) & 1) {
        if (v == kMax64) broken("used slot holds the filler");
        if (v == next) broken("used slot equals the next slot");
        if (any && v <= prev_used) broken("used keys not ascending");
        if (v < f.lo || (f.hi != kMax64 && v >= f.hi)) broken("leaf key outside its range");
        if (m->format != kF64 && (v < m->base || v - m->base > format_max_delta(m->format)))
          broken("delta out of range");
        prev_used = v;
        any = true;
      } else if (v != next) {
        broken("gap does not hold the next key");
      }
    }
    total += m->count;
    leaves_in_order.push_back(f.index);
  }
  if (total != size())
    broken("size() " + std::to_string(size()) + " != keys in leaves " + std::to_string(total));
  for (std::size_t i = 0; i < leaves_in_order.size(); ++i) {
    const std::uint32_t next = leaf_meta_at(*this, leaves_in_order[i])->next;
    const std::uint32_t want = i + 1 < leaves_in_order.size() ? leaves_in_order[i + 1] : kNoLeaf;
    if (next != want) broken("leaf links differ from the tree order");
  }
  if (leaves_in_order.size() != leaf_count_.load()) broken("unreachable leaves");
}

LeafFormatCounts Core::leaf_formats() const {
  LeafFormatCounts out;
  const std::uint32_t n = leaf_count_.load();
  for (std::uint32_t i = 0; i < n; ++i) {
    switch (leaf_meta_at(*this, i)->format) {
      case kF16:
        ++out.delta16;
        break;
      case kF32:
        ++out.delta32;
        break;
      default:
        ++out.delta64;
    }
  }
  return out;
}

}  // namespace wg::bstree::detail
