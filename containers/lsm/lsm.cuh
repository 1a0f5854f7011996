#pragma once
// wg::Lsm<Key, Value>: the GPU log-structured merge tree of Ashkiani et al. (IPDPS'18), with
// batches of any size, successor queries and a cleanup that redistributes. The device view is
// wg::LsmRef (lsm_ref.cuh); containers/lsm/README.md has the design in more words.
//
//   wg::Lsm<std::uint32_t> lsm({.batch_size = 1 << 20, .num_levels = 8}, stream);
//   lsm.insert(d_keys, d_values, n, stream);           // any n up to the free capacity
//   lsm.erase(d_keys, m, stream);                      // tombstones
//   lsm.update(d_keys, d_values, d_ops, n, stream);    // mixed: ops[i] = 1 insert, 0 erase
//   lsm.find(d_q, q, d_values, d_found, stream);       // newest wins, tombstone hides
//   lsm.count(d_k1, d_k2, q, d_counts, stream);        // live keys in [k1, k2]
//   wg::RangeResult<std::uint32_t, std::uint32_t> r = lsm.range(d_k1, d_k2, q, stream);
//   lsm.successor(d_q, q, d_keys_out, d_values_out, d_found, stream);
//   lsm.cleanup(stream);                               // drop stale elements and tombstones
//
// Structure: level i is one sorted run of at most b * 2^i elements (b = options.batch_size,
// levels 0 .. num_levels - 1, total capacity b * (2^L - 1) elements, stale ones included).
// Elements carry a status bit in the least significant bit of the stored key ((key << 1) |
// live), so keys are limited to [0, max_key] = [0, 2^(w-1) - 1] for a w-bit Key (2^31 - 1 for
// 32-bit keys): one bit of key domain is the price of a tombstone that costs no extra memory
// traffic. A batch is sorted (CUB radix sort on the key bits, the batch reversed first so that a
// key's latest occurrence leads) and merged down the levels (CUB merge, the newer run first), so
// within a level a key's elements are newest first and a lower level is newer than a higher one.
//
// Partial batches (the paper pads every batch to b): level sizes are any number up to their
// capacity, not just full or empty. A batch of n elements merges with the non-empty levels from
// level 0 up and stops at the first level that holds the result (detail/lsm_plan.hpp). With
// n = b this is the paper's binary counter; a smaller batch merges into level 0 at a cost of
// O(|level 0| + n) and no padding; a larger one starts at the first level it fits.
//
// Semantics: phase-concurrent; drive one LSM from one stream (replaced levels are freed stream-
// ordered on the stream that allocated them), or synchronise when switching. Operations apply in
// order and queries see every
// earlier update. In one batch the LAST occurrence of a key wins (an insert after an erase of the
// same key in one batch leaves it present, and the reverse erases it). Insert is insert-or-
// assign. count and range drop stale, replaced and erased elements: they count and return each
// live key once, with its newest value. successor(k) is the smallest live key >= k.
// count/range bounds are inclusive; k1 > k2 is empty; bounds beyond max_key are clamped.
//
// Errors: a key above max_key makes insert/erase/update/build throw wg::InvalidArgument before
// the LSM changes (when options.validate_keys; otherwise such keys are stored truncated).
// A batch that no level can take throws wg::CapacityError before the LSM changes (the batch is
// NOT applied); cleanup() frees the room stale elements take. GPU memory exhaustion during an
// update throws wg::CapacityError from DeviceBuffer (the LSM keeps its previous levels).
//
// Cost (r = resident elements, l = non-empty levels <= L): an update sorts its n elements and
// merges O(n log(r / b)) elements amortised over full batches; find O(l log r) per query;
// count / successor / range O(l log r + l c) per query for c candidate elements in the windows;
// cleanup O(r) (merges all levels, unique, select); build O(n) radix sort. Updates synchronise
// `stream` once when validate_keys is set (to read the key check), never otherwise; build,
// cleanup and range synchronise to read sizes; find, count and successor are asynchronous.
// Memory: the levels' keys and values, plus scratch of the merged carry during an update and
// the answer buffer of range (options.range_slot_max_bytes at most).
//
// Instantiated in lsm.cu for <uint32_t, uint32_t> and <uint64_t, uint32_t> (this header holds
// no kernel and includes no CUB).
#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/lsm/lsm_ref.cuh>
#include <warpgraph/containers/sorted_array/point_queries.hpp>
#include <warpgraph/containers/sorted_array/range_result.cuh>

namespace wg {

struct LsmOptions {
  /// b: the capacity of level 0, and the batch size the structure is tuned for (level i holds
  /// b * 2^i). Larger b means fewer levels for queries to search and fewer merges per element.
  std::uint64_t batch_size = 1u << 20;
  /// L: number of levels (at most kLsmMaxLevels); the capacity is b * (2^L - 1) elements,
  /// stale ones included.
  std::uint32_t num_levels = 8;
  /// Check every key of an update against max_key on the device (one synchronisation per
  /// update); off, out-of-domain keys are stored truncated.
  bool validate_keys = true;
  /// range buffers up to this many answers per query in its counting walk, so the fill pass
  /// copies a short query's answers instead of searching every level again; queries with more
  /// answers are walked twice. 0 = always walk twice.
  std::uint32_t range_slot = 16;
  /// Bound on that buffer (n * range_slot * (sizeof(Key) + sizeof(Value)) bytes for n queries);
  /// a larger batch gets a smaller slot per query (same answers, more second walks).
  std::uint64_t range_slot_max_bytes = std::uint64_t(1) << 30;
};

template <class Key, class Value = std::uint32_t>
class Lsm : public PointQueries<Lsm<Key, Value>, Key, Value> {
 public:
  using ref_type = LsmRef<Key, Value>;
  static constexpr Key max_key = ref_type::max_key;

  explicit Lsm(const LsmOptions& options = {}, cudaStream_t stream = 0);

  /// Inserts (or assigns) n pairs; values may be null (Value{}). Returns n (every element is
  /// appended; replaced ones become stale).
  std::uint64_t insert(const Key* keys, const Value* values, std::uint64_t n, cudaStream_t stream) {
    return update(keys, values, nullptr, n, stream);
  }
  /// Erases n keys (appends tombstones). Returns n.
  std::uint64_t erase(const Key* keys, std::uint64_t n, cudaStream_t stream);
  /// A mixed batch: ops[i] != 0 inserts (keys[i], values[i]), ops[i] == 0 erases keys[i]; ops
  /// null = all inserts. Returns n.
  std::uint64_t update(const Key* keys, const Value* values, const std::uint8_t* ops,
                       std::uint64_t n, cudaStream_t stream);
  /// Replaces the contents by the n pairs (last occurrence of a key wins), laid out as one level
  /// when it fits. Returns the number of distinct keys. Throws CapacityError (LSM unchanged).
  std::uint64_t build(const Key* keys, const Value* values, std::uint64_t n, cudaStream_t stream);
  /// Removes every stale element and tombstone and lays the live keys out again (one level when
  /// it fits). Returns the number of live keys.
  std::uint64_t cleanup(cudaStream_t stream);
  /// Empties every level.
  void clear();

  // find, count, successor (of live keys, newest values): PointQueries (point_queries.hpp).
  /// Every live key in [k1[i], k2[i]] with its newest value, per query, sorted. A counting walk
  /// that also buffers each query's first options.range_slot answers, an exclusive scan, one
  /// synchronisation to size the output, then a fill pass that copies the buffered answers and
  /// walks again only the queries with more. Scratch: the slot buffer (range_slot_max_bytes at
  /// most).
  RangeResult<Key, Value> range(const Key* k1, const Key* k2, std::uint64_t n,
                                cudaStream_t stream) const;

  /// Resident elements, stale ones and tombstones included.
  std::uint64_t resident() const noexcept;
  /// b * (2^L - 1).
  std::uint64_t capacity() const noexcept;
  /// The elements of each level (index = level).
  std::vector<std::uint64_t> level_sizes() const;
  std::uint32_t num_nonempty_levels() const noexcept;
  std::size_t memory_bytes() const noexcept;
  const LsmOptions& options() const noexcept { return options_; }
  ref_type ref() const noexcept;

 private:
  struct Run {
    DeviceBuffer<Key> keys;
    DeviceBuffer<Value> values;
    std::uint64_t size = 0;
    DeviceBuffer<unsigned> bad;  ///< while a batch is being merged: its key-domain check flag
  };
  void check_keys(const Run& run, cudaStream_t stream) const;
  std::uint64_t apply(const Key* keys, const Value* values, const std::uint8_t* ops,
                      bool default_live, std::uint64_t n, cudaStream_t stream);
  Run encode_sorted(const Key* keys, const Value* values, const std::uint8_t* ops,
                    bool default_live, std::uint64_t n, cudaStream_t stream) const;
  std::uint64_t place_unique(Run&& run, cudaStream_t stream);

  LsmOptions options_;
  std::vector<Run> levels_;
};

extern template class Lsm<std::uint32_t, std::uint32_t>;
extern template class Lsm<std::uint64_t, std::uint32_t>;

}  // namespace wg
