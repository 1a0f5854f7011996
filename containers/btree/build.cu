// wg::btree::BTree::build: bulk construction from unsorted pairs. One stable radix sort, a
// last-of-run selection (the last pair of a key in input order wins), then the levels bottom-up,
// one kernel per level with one thread per node cell: leaves of round(15 * build_fill) pairs,
// inner nodes of as many children, each level linked left to right, until one node is left.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <warpgraph/containers/btree/btree.cuh>
#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/error.hpp>

namespace wg::btree {
namespace detail {
namespace {

/// keep[i]: keys[i] is the last of its run and not the reserved key.
template <class Key>
__global__ void last_of_run_kernel(const Key* keys, std::uint64_t n, unsigned char* keep,
                                   unsigned long long* rejected) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const Key k = keys[i];
    const bool last = i + 1 == n || keys[i + 1] != k;
    keep[i] = last && k != Layout<Key>::kEmpty;
    if (k == Layout<Key>::kEmpty) atomicAdd(rejected, 1ull);
  }
}

/// One level: node j (index base + j) holds entries [j * per, (j + 1) * per) of `count`
/// entries, entry e being (keys[e], values[e]) for leaves or (lows[e], child_base + e) for
/// inner nodes. lows_out[j] = the node's low key.
template <class Key>
__global__ void level_kernel(Node* nodes, std::uint32_t base, std::uint64_t nodes_in_level,
                             std::uint32_t per, std::uint64_t count, const Key* keys,
                             const Key* values, std::uint32_t child_base, bool leaf,
                             Key* lows_out) {
  using L = Layout<Key>;
  const std::uint64_t cells = nodes_in_level * (L::kSlots + 1);
  for (std::uint64_t t = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < cells;
       t += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint64_t j = t / (L::kSlots + 1);
    const unsigned c = t % (L::kSlots + 1);
    Node* node = nodes + base + j;
    if (c < L::kSlots) {
      const std::uint64_t e = j * per + c;
      if (c < per && e < count)
        L::init_slot(node, c, keys[e],
                     leaf ? values[e] : Key{child_base + static_cast<std::uint32_t>(e)});
      else
        L::init_slot(node, c, L::kEmpty, 0);
    } else {
      const bool last = j + 1 == nodes_in_level;
      const Key high = last ? L::kEmpty : keys[(j + 1) * per];
      const std::uint32_t link = last ? kNoLink : base + static_cast<std::uint32_t>(j + 1);
      L::init_meta(node, high, link | (leaf ? kLeafFlag : 0u));
      lows_out[j] = j == 0 ? Key{0} : keys[j * per];
    }
  }
}

}  // namespace
}  // namespace detail

template <class Key, class Value>
std::uint64_t BTree<Key, Value>::build(const Key* keys, const Value* values, std::uint64_t n,
                                       cudaStream_t stream) {
  using namespace detail;
  if (n > 0x7FFFFFFFull) throw InvalidArgument("BTree::build: more than 2^31 - 1 pairs");
  if (n == 0) {
    clear(stream);
    return 0;
  }
  const int items = static_cast<int>(n);
  DeviceBuffer<Key> sk(n, stream, "BTree build keys"), sv(n, stream, "BTree build values");
  std::size_t sort_bytes = 0;
  WG_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, keys, sk.data(), values,
                                              sv.data(), items, 0, 8 * sizeof(Key), stream));
  DeviceBuffer<unsigned char> temp(sort_bytes, stream, "BTree build scratch");
  WG_CUDA_TRY(cub::DeviceRadixSort::SortPairs(temp.data(), sort_bytes, keys, sk.data(), values,
                                              sv.data(), items, 0, 8 * sizeof(Key), stream));
  DeviceBuffer<unsigned char> keep(n, stream, "BTree build flags");
  counters_.fill_bytes(0, stream);
  const unsigned threads = 256;
  const unsigned grid =
      static_cast<unsigned>(std::min<std::uint64_t>((n + threads - 1) / threads, sm_count_ * 16));
  last_of_run_kernel<<<grid, threads, 0, stream>>>(sk.data(), n, keep.data(),
                                                   counters_.data() + kRejected);
  WG_CUDA_CHECK_LAST();
  DeviceBuffer<Key> uk(n, stream, "BTree build unique keys"),
      uv(n, stream, "BTree build unique values");
  DeviceBuffer<int> selected(1, stream, "BTree build count");
  std::size_t sel_bytes = 0;
  WG_CUDA_TRY(cub::DeviceSelect::Flagged(nullptr, sel_bytes, sk.data(), keep.data(), uk.data(),
                                         selected.data(), items, stream));
  temp.resize_discard(std::max(sort_bytes, sel_bytes), "BTree build scratch");
  WG_CUDA_TRY(cub::DeviceSelect::Flagged(temp.data(), sel_bytes, sk.data(), keep.data(), uk.data(),
                                         selected.data(), items, stream));
  WG_CUDA_TRY(cub::DeviceSelect::Flagged(temp.data(), sel_bytes, sv.data(), keep.data(), uv.data(),
                                         selected.data(), items, stream));
  int m_host = 0;
  unsigned long long rejected = 0;
  WG_CUDA_TRY(
      cudaMemcpyAsync(&m_host, selected.data(), sizeof(int), cudaMemcpyDeviceToHost, stream));
  WG_CUDA_TRY(cudaMemcpyAsync(&rejected, counters_.data() + kRejected, sizeof(rejected),
                              cudaMemcpyDeviceToHost, stream));
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
  const std::uint64_t m = static_cast<std::uint64_t>(m_host);

  // Level sizes, checked against the pool before the tree is touched.
  const std::uint32_t per = std::max<std::uint32_t>(
      2, std::min<std::uint32_t>(
             Layout<Key>::kSlots,
             static_cast<std::uint32_t>(std::lround(Layout<Key>::kSlots * options_.build_fill))));
  std::vector<std::uint64_t> level_nodes{std::max<std::uint64_t>(1, (m + per - 1) / per)};
  while (level_nodes.back() > 1) level_nodes.push_back((level_nodes.back() + per - 1) / per);
  std::uint64_t total = 0;
  for (auto c : level_nodes) total += c;
  if (total > options_.node_capacity)
    throw CapacityError("BTree", options_.node_capacity,
                        "build of " + std::to_string(m) + " keys needs " + std::to_string(total) +
                            " nodes (the tree is unchanged)");

  DeviceBuffer<Key> lows_a(level_nodes[0], stream, "BTree build lows"),
      lows_b(level_nodes.size() > 1 ? level_nodes[1] : 1, stream, "BTree build lows");
  std::uint32_t base = 0;
  std::uint64_t count = m;
  const Key* lk = uk.data();
  std::uint32_t child_base = 0;
  for (std::size_t level = 0; level < level_nodes.size(); ++level) {
    const std::uint64_t cells = level_nodes[level] * (Layout<Key>::kSlots + 1);
    const unsigned g = static_cast<unsigned>(
        std::min<std::uint64_t>((cells + threads - 1) / threads, sm_count_ * 16));
    Key* lows_out = level % 2 == 0 ? lows_a.data() : lows_b.data();
    level_kernel<<<g, threads, 0, stream>>>(nodes_.data(), base, level_nodes[level], per, count, lk,
                                            uv.data(), child_base, level == 0, lows_out);
    WG_CUDA_CHECK_LAST();
    child_base = base;
    count = level_nodes[level];
    lk = lows_out;
    base += static_cast<std::uint32_t>(level_nodes[level]);
  }
  const TreeState st{base - 1, base, 0, 0};
  WG_CUDA_TRY(cudaMemcpyAsync(state_.data(), &st, sizeof(st), cudaMemcpyHostToDevice, stream));
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
  size_ = m;
  if (rejected)
    throw InvalidArgument("BTree::build: " + std::to_string(rejected) +
                          " keys equal to the reserved key (all bits set) were rejected");
  return m;
}

template std::uint64_t BTree<std::uint32_t>::build(const std::uint32_t*, const std::uint32_t*,
                                                   std::uint64_t, cudaStream_t);
template std::uint64_t BTree<std::uint64_t>::build(const std::uint64_t*, const std::uint64_t*,
                                                   std::uint64_t, cudaStream_t);

}  // namespace wg::btree
