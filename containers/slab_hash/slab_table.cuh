#pragma once
// wg::slab::SlabTable<V>: a GPU slab hash table owning its base buckets and its slab allocator
// (Ashkiani et al., IPDPS'18; Awad's thesis, chapter 5), in the shape of cuCollections'
// static_map: V = void is a set of 32-bit keys (SlabSet, 30 keys per 128-byte slab), V =
// std::uint32_t a map from 32-bit keys to 32-bit values (SlabMap, 15 pairs per slab). Both run
// the same kernels; ref() hands out the device ref (SlabTableRef<V>, slab_table_ref.cuh) for your
// own kernels.
//
//   wg::slab::SlabSet set({.expected_keys = n, .load_factor = 0.6}, stream);
//   std::uint64_t added = set.insert(d_keys, n, stream);           // device span -> new keys
//   std::uint64_t hits = set.contains(d_queries, m, d_flags, stream);
//   wg::slab::SlabMap map({.expected_keys = n}, stream);
//   map.insert(d_keys, d_values, n, stream);                       // insert-or-assign
//   map.find(d_queries, m, d_values_out, d_found, stream);
//   wg::slab::SetTableRef r = set.ref();                           // for your own kernels
//
// Keys: any 32-bit value except the reserved kEmptyKey (0xFFFFFFFF) and kTombstoneKey
// (0xFFFFFFFE); map values are unrestricted. Host-vector overloads reject reserved keys with
// wg::InvalidArgument before doing anything; device-span operations check on the device, apply
// the valid keys and then throw wg::InvalidArgument naming how many were rejected.
//
// Semantics: each bulk operation is one kernel on `stream`; the operations of ONE batch run
// concurrently (duplicates inside a batch are fine: exactly one insert of a key reports it new,
// exactly one erase of a present key reports it erased). Batches on one stream are phase-
// ordered. The returned counts are exact. A map's insert is insert-or-assign: a present key gets
// the new value (last writer wins; with several values for one key in one batch, which one stays
// is unspecified) and is not counted as new; a pair is written and read as one 64-bit word, so
// find never returns a value that was not stored with that key. Mixed insert/erase/find batches
// can be written with ref() in one kernel: ops on one key are then linearizable in some order.
// Erase leaves tombstones; flush() compacts the chains and frees emptied slabs.
// Exhaustion: insert()/build() grow the allocator and retry when config.grow_on_exhaustion
// (default), else throw wg::CapacityError("SlabSet" / "SlabMap", capacity in slabs, ...).
// Bulk operations synchronise `stream` to read their counts (the *_async ones do not).
// Cost: one 128-byte read per slab of a chain walk, one CAS per update, O(1) expected per key.
//
// The two variants are instantiated once, in slab_set.cu and slab_map.cu (this header holds no
// kernel and includes no CUB/Thrust).
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include <warpgraph/containers/slab_hash/detail/table_core.cuh>

namespace wg::slab {

template <class V>
class SlabTable {
  static_assert(std::is_void_v<V> || std::is_same_v<V, std::uint32_t>,
                "SlabTable<V>: V is void (a set) or std::uint32_t (a map)");

 public:
  static constexpr bool kIsMap = !std::is_void_v<V>;
  using key_type = std::uint32_t;
  using mapped_type = V;
  using ref_type = SlabTableRef<V>;
  static constexpr std::uint32_t kSlotsPerSlab = ref_type::kSlotsPerSlab;

  explicit SlabTable(const SlabTableConfig& config = {}, cudaStream_t stream = 0);

  // ---- updates (device spans; counts are exact) ----
  /// Set: inserts n keys; returns how many were new.
  std::uint64_t insert(const std::uint32_t* keys, std::uint64_t n,
                       cudaStream_t stream) requires(!kIsMap) {
    return insert_impl(keys, nullptr, n, stream);
  }
  std::uint64_t insert(const std::vector<std::uint32_t>& keys,
                       cudaStream_t stream) requires(!kIsMap) {
    return insert_host(keys, nullptr, stream);
  }
  /// Set: the same kernel without reading counts back (no growth, no exception: check
  /// allocator().exhausted() afterwards). For pipelines and benchmarks.
  void insert_async(const std::uint32_t* keys, std::uint64_t n,
                    cudaStream_t stream) requires(!kIsMap) {
    insert_async_impl(keys, nullptr, n, stream);
  }
  /// Map: inserts or assigns n pairs; returns how many keys were new.
  std::uint64_t insert(const std::uint32_t* keys, const std::uint32_t* values, std::uint64_t n,
                       cudaStream_t stream) requires(kIsMap) {
    return insert_impl(keys, values, n, stream);
  }
  std::uint64_t insert(const std::vector<std::uint32_t>& keys,
                       const std::vector<std::uint32_t>& values,
                       cudaStream_t stream) requires(kIsMap) {
    return insert_host(keys, &values, stream);
  }
  void insert_async(const std::uint32_t* keys, const std::uint32_t* values, std::uint64_t n,
                    cudaStream_t stream) requires(kIsMap) {
    insert_async_impl(keys, values, n, stream);
  }
  /// Erases n keys; returns how many were present.
  std::uint64_t erase(const std::uint32_t* keys, std::uint64_t n, cudaStream_t stream);
  std::uint64_t erase(const std::vector<std::uint32_t>& keys, cudaStream_t stream);

  // ---- lookups ----
  /// out_flags[i] = keys[i] present (out_flags may be null); returns how many were present.
  std::uint64_t contains(const std::uint32_t* keys, std::uint64_t n, bool* out_flags,
                         cudaStream_t stream) const {
    return find_impl(keys, n, nullptr, out_flags, stream);
  }
  /// Set: contains() without reading counts back.
  void contains_async(const std::uint32_t* keys, std::uint64_t n, bool* out_flags,
                      cudaStream_t stream) const requires(!kIsMap) {
    find_async_impl(keys, n, nullptr, out_flags, stream);
  }
  /// Set: host convenience, one flag per key.
  std::vector<bool> contains(const std::vector<std::uint32_t>& keys, cudaStream_t stream) const
      requires(!kIsMap) {
    return find_host(keys, stream).second;
  }
  /// Map: out_values[i] = value of keys[i] or kNotFoundValue; out_found[i] = present. Either
  /// output may be null. Returns how many were present.
  std::uint64_t find(const std::uint32_t* keys, std::uint64_t n, std::uint32_t* out_values,
                     bool* out_found, cudaStream_t stream) const requires(kIsMap) {
    return find_impl(keys, n, out_values, out_found, stream);
  }
  void find_async(const std::uint32_t* keys, std::uint64_t n, std::uint32_t* out_values,
                  bool* out_found, cudaStream_t stream) const requires(kIsMap) {
    find_async_impl(keys, n, out_values, out_found, stream);
  }
  /// Map: host convenience, (values, found) for each key.
  std::pair<std::vector<std::uint32_t>, std::vector<bool>> find(
      const std::vector<std::uint32_t>& keys, cudaStream_t stream) const requires(kIsMap) {
    return find_host(keys, stream);
  }

  // ---- whole-table operations ----
  /// Set: empties the set, sizes the buckets for n keys at `load_factor`, inserts them; returns
  /// the number of distinct keys.
  std::uint64_t build(const std::uint32_t* keys, std::uint64_t n, double load_factor,
                      cudaStream_t stream) requires(!kIsMap) {
    return build_impl(keys, nullptr, n, load_factor, stream);
  }
  /// Map: the same for n pairs.
  std::uint64_t build(const std::uint32_t* keys, const std::uint32_t* values, std::uint64_t n,
                      double load_factor, cudaStream_t stream) requires(kIsMap) {
    return build_impl(keys, values, n, load_factor, stream);
  }
  /// Removes every key and frees every overflow slab (bucket count kept).
  void clear(cudaStream_t stream);
  /// Removes the tombstones (chain compaction) and frees the slabs left empty.
  void flush(cudaStream_t stream);

  /// Writes the live keys to out_keys (and a map's values to out_values) at most `capacity`;
  /// returns how many live keys there are (more than capacity: only capacity were written).
  std::uint64_t retrieve_all(std::uint32_t* out_keys, std::uint64_t capacity,
                             cudaStream_t stream) const requires(!kIsMap) {
    return retrieve_impl(out_keys, nullptr, capacity, stream);
  }
  std::uint64_t retrieve_all(std::uint32_t* out_keys, std::uint32_t* out_values,
                             std::uint64_t capacity, cudaStream_t stream) const requires(kIsMap) {
    return retrieve_impl(out_keys, out_values, capacity, stream);
  }
  /// Set: the live keys on the host (any order).
  std::vector<std::uint32_t> retrieve_all(cudaStream_t stream) const requires(!kIsMap) {
    return retrieve_host(stream).first;
  }
  /// Map: the live (keys, values) on the host (any order).
  std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>> retrieve_all(
      cudaStream_t stream) const requires(kIsMap) {
    return retrieve_host(stream);
  }
  /// f(key) (set) or f(key, value) (map) on the device once per live entry (f: a __device__
  /// functor, no tile operations).
  template <class F>
  void for_each(F f, cudaStream_t stream) const {
    detail::for_each_kernel<<<detail::grid_for(num_buckets(), detail::kBlockThreads / 32),
                              detail::kBlockThreads, 0, stream>>>(ref(), f);
    WG_CUDA_CHECK_LAST();
  }

  // ---- sizes ----
  /// Live keys (tracked on the device from the exact counts of the bulk operations; updates made
  /// through ref() in your own kernels are not seen until recount(); synchronises).
  std::uint64_t size(cudaStream_t stream = 0) const { return core_.size(stream); }
  /// Live keys counted by walking every chain (synchronises).
  std::uint64_t count(cudaStream_t stream) const;
  /// count(), also stored as size().
  std::uint64_t recount(cudaStream_t stream) {
    const std::uint64_t c = count(stream);
    core_.set_live(c, stream);
    return c;
  }
  /// size() / (num_buckets() * kSlotsPerSlab).
  double load_factor(cudaStream_t stream = 0) const {
    return static_cast<double>(size(stream)) / (double{kSlotsPerSlab} * num_buckets());
  }
  std::uint32_t num_buckets() const { return core_.num_buckets(); }
  /// Device bytes: base buckets + allocator pool.
  std::size_t memory_bytes() const { return core_.memory_bytes(); }
  /// Overflow slabs in use (synchronises).
  std::uint64_t overflow_slabs(cudaStream_t stream) const {
    return core_.allocator().slabs_in_use(stream);
  }

  ref_type ref() const {
    return ref_type(core_.buckets(), core_.num_buckets(), core_.allocator().ref());
  }
  SlabAllocator& allocator() { return core_.allocator(); }
  const SlabAllocator& allocator() const { return core_.allocator(); }
  const SlabTableConfig& config() const { return core_.config(); }

 private:
  // One body per operation for both variants; `values` / `out_values` are null for a set.
  void insert_async_impl(const std::uint32_t* keys, const std::uint32_t* values, std::uint64_t n,
                         cudaStream_t stream);
  std::uint64_t insert_impl(const std::uint32_t* keys, const std::uint32_t* values, std::uint64_t n,
                            cudaStream_t stream);
  std::uint64_t insert_host(const std::vector<std::uint32_t>& keys,
                            const std::vector<std::uint32_t>* values, cudaStream_t stream);
  void find_async_impl(const std::uint32_t* keys, std::uint64_t n, std::uint32_t* out_values,
                       bool* out_found, cudaStream_t stream) const;
  std::uint64_t find_impl(const std::uint32_t* keys, std::uint64_t n, std::uint32_t* out_values,
                          bool* out_found, cudaStream_t stream) const;
  std::pair<std::vector<std::uint32_t>, std::vector<bool>> find_host(
      const std::vector<std::uint32_t>& keys, cudaStream_t stream) const;
  std::uint64_t build_impl(const std::uint32_t* keys, const std::uint32_t* values, std::uint64_t n,
                           double load_factor, cudaStream_t stream);
  std::uint64_t retrieve_impl(std::uint32_t* out_keys, std::uint32_t* out_values,
                              std::uint64_t capacity, cudaStream_t stream) const;
  std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>> retrieve_host(
      cudaStream_t stream) const;

  detail::TableCore core_;
};

/// A GPU hash set of 32-bit keys.
using SlabSet = SlabTable<void>;
/// A GPU hash map from 32-bit keys to 32-bit values.
using SlabMap = SlabTable<std::uint32_t>;

extern template class SlabTable<void>;
extern template class SlabTable<std::uint32_t>;

}  // namespace wg::slab
