#pragma once
// wg::slab::SlabSet: a GPU hash set of 32-bit keys (slab hash; Ashkiani et al. IPDPS'18 and
// Awad's thesis, chapter 5), owning its base buckets and its slab allocator.
//
//   wg::slab::SlabSet set({.expected_keys = n, .load_factor = 0.6}, stream);
//   std::uint64_t added = set.insert(d_keys, n, stream);     // device span -> new keys
//   std::uint64_t hits = set.contains(d_queries, m, d_flags, stream);
//   wg::slab::SetTableRef r = set.ref();                     // for your own kernels
//
// Keys: any 32-bit value except the reserved kEmptyKey (0xFFFFFFFF) and kTombstoneKey
// (0xFFFFFFFE). Host-vector overloads reject reserved keys with wg::InvalidArgument before doing
// anything; device-span operations check on the device, apply the valid keys and then throw
// wg::InvalidArgument naming how many were rejected.
//
// Semantics: each bulk operation is one kernel on `stream`; the operations of ONE batch run
// concurrently (duplicates inside a batch are fine: exactly one insert of a key reports it new,
// exactly one erase of a present key reports it erased). Batches on one stream are phase-
// ordered. The returned counts are exact. Mixed insert/erase/find batches can be written with
// ref() in one kernel: ops on one key are then linearizable in some order (slab_table_ref.cuh).
// Erase leaves tombstones; flush() compacts the chains and frees emptied slabs.
// Exhaustion: insert()/build() grow the allocator and retry when config.grow_on_exhaustion
// (default), else throw wg::CapacityError("SlabSet", capacity in slabs, ...).
// Bulk operations synchronise `stream` to read their counts (the *_async ones do not).
// Cost: one 128-byte read per slab of a chain walk, one CAS per update, O(1) expected per key.
#include <cstdint>
#include <vector>

#include <warpgraph/containers/slab_hash/detail/table_core.cuh>

namespace wg::slab {

class SlabSet {
 public:
  static constexpr std::uint32_t kSlotsPerSlab = kSetKeysPerSlab;

  explicit SlabSet(const SlabTableConfig& config = {}, cudaStream_t stream = 0);

  /// Inserts n keys (device pointer); returns how many were new.
  std::uint64_t insert(const std::uint32_t* keys, std::uint64_t n, cudaStream_t stream);
  std::uint64_t insert(const std::vector<std::uint32_t>& keys, cudaStream_t stream);
  /// Same kernel without reading counts back (no growth, no exception: check
  /// allocator().exhausted() afterwards). For pipelines and benchmarks.
  void insert_async(const std::uint32_t* keys, std::uint64_t n, cudaStream_t stream);
  /// Erases n keys; returns how many were present.
  std::uint64_t erase(const std::uint32_t* keys, std::uint64_t n, cudaStream_t stream);
  std::uint64_t erase(const std::vector<std::uint32_t>& keys, cudaStream_t stream);
  /// out_flags[i] = keys[i] present (out_flags may be null); returns how many were present.
  std::uint64_t contains(const std::uint32_t* keys, std::uint64_t n, bool* out_flags,
                         cudaStream_t stream) const;
  std::vector<bool> contains(const std::vector<std::uint32_t>& keys, cudaStream_t stream) const;
  void contains_async(const std::uint32_t* keys, std::uint64_t n, bool* out_flags,
                      cudaStream_t stream) const;

  /// Empties the set, sizes the buckets for n keys at `load_factor`, inserts them; returns the
  /// number of distinct keys.
  std::uint64_t build(const std::uint32_t* keys, std::uint64_t n, double load_factor,
                      cudaStream_t stream);
  /// Removes every key and frees every overflow slab (bucket count kept).
  void clear(cudaStream_t stream);
  /// Removes the tombstones (chain compaction) and frees the slabs left empty.
  void flush(cudaStream_t stream);

  /// Writes the live keys to out (at most `capacity`); returns how many live keys there are
  /// (more than capacity: only capacity were written).
  std::uint64_t retrieve_all(std::uint32_t* out, std::uint64_t capacity, cudaStream_t stream) const;
  std::vector<std::uint32_t> retrieve_all(cudaStream_t stream) const;
  /// f(key) on the device once per live key (f: a __device__ functor, no tile operations).
  template <class F>
  void for_each(F f, cudaStream_t stream) const {
    detail::for_each_kernel<<<detail::grid_for(num_buckets(), detail::kBlockThreads / 32),
                              detail::kBlockThreads, 0, stream>>>(ref(), f);
    WG_CUDA_CHECK_LAST();
  }

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
  /// size() / (num_buckets() * 30).
  double load_factor(cudaStream_t stream = 0) const;
  std::uint32_t num_buckets() const { return core_.num_buckets(); }
  /// Device bytes: base buckets + allocator pool.
  std::size_t memory_bytes() const { return core_.memory_bytes(); }
  /// Overflow slabs in use (synchronises).
  std::uint64_t overflow_slabs(cudaStream_t stream) const {
    return core_.allocator().slabs_in_use(stream);
  }

  SetTableRef ref() const {
    return SetTableRef(core_.buckets(), core_.num_buckets(), core_.allocator().ref());
  }
  SlabAllocator& allocator() { return core_.allocator(); }
  const SlabAllocator& allocator() const { return core_.allocator(); }
  const SlabTableConfig& config() const { return core_.config(); }

 private:
  detail::TableCore core_;
};

}  // namespace wg::slab
