#pragma once
// wg::slab::SlabMap: a GPU hash map from 32-bit keys to 32-bit values (slab hash; 15 pairs per
// 128-byte slab), owning its base buckets and its slab allocator.
//
//   wg::slab::SlabMap map({.expected_keys = n, .load_factor = 0.6}, stream);
//   std::uint64_t added = map.insert(d_keys, d_values, n, stream);   // insert-or-assign
//   std::uint64_t hits = map.find(d_queries, m, d_values_out, d_found, stream);
//
// Keys as for SlabSet (kEmptyKey and kTombstoneKey reserved and rejected); values unrestricted.
// insert is insert-or-assign: a present key gets the new value (last writer wins; with several
// values for one key in one batch, which one stays is unspecified) and is not counted as new.
// A key/value pair is written and read as one 64-bit word, so find never returns a value that
// was not stored with that key. Semantics, exhaustion and synchronisation as for SlabSet.
#include <cstdint>
#include <vector>

#include <warpgraph/containers/slab_hash/detail/table_core.cuh>

namespace wg::slab {

class SlabMap {
 public:
  static constexpr std::uint32_t kSlotsPerSlab = kMapPairsPerSlab;

  explicit SlabMap(const SlabTableConfig& config = {}, cudaStream_t stream = 0);

  /// Inserts or assigns n pairs (device pointers); returns how many keys were new.
  std::uint64_t insert(const std::uint32_t* keys, const std::uint32_t* values, std::uint64_t n,
                       cudaStream_t stream);
  std::uint64_t insert(const std::vector<std::uint32_t>& keys,
                       const std::vector<std::uint32_t>& values, cudaStream_t stream);
  void insert_async(const std::uint32_t* keys, const std::uint32_t* values, std::uint64_t n,
                    cudaStream_t stream);
  /// Erases n keys; returns how many were present.
  std::uint64_t erase(const std::uint32_t* keys, std::uint64_t n, cudaStream_t stream);
  std::uint64_t erase(const std::vector<std::uint32_t>& keys, cudaStream_t stream);
  /// out_values[i] = value of keys[i] or kNotFoundValue; out_found[i] = present. Either output
  /// may be null. Returns how many were present.
  std::uint64_t find(const std::uint32_t* keys, std::uint64_t n, std::uint32_t* out_values,
                     bool* out_found, cudaStream_t stream) const;
  void find_async(const std::uint32_t* keys, std::uint64_t n, std::uint32_t* out_values,
                  bool* out_found, cudaStream_t stream) const;
  /// Host convenience: (values, found) for each key.
  std::pair<std::vector<std::uint32_t>, std::vector<bool>> find(
      const std::vector<std::uint32_t>& keys, cudaStream_t stream) const;
  std::uint64_t contains(const std::uint32_t* keys, std::uint64_t n, bool* out_flags,
                         cudaStream_t stream) const {
    return find(keys, n, nullptr, out_flags, stream);
  }

  /// Empties the map, sizes the buckets for n pairs at `load_factor`, inserts them; returns the
  /// number of distinct keys.
  std::uint64_t build(const std::uint32_t* keys, const std::uint32_t* values, std::uint64_t n,
                      double load_factor, cudaStream_t stream);
  void clear(cudaStream_t stream);
  void flush(cudaStream_t stream);

  /// Writes the live pairs (at most `capacity`); returns how many live pairs there are.
  std::uint64_t retrieve_all(std::uint32_t* out_keys, std::uint32_t* out_values,
                             std::uint64_t capacity, cudaStream_t stream) const;
  std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>> retrieve_all(
      cudaStream_t stream) const;
  /// f(key, value) on the device once per live pair (no tile operations inside f).
  template <class F>
  void for_each(F f, cudaStream_t stream) const {
    detail::for_each_kernel<<<detail::grid_for(num_buckets(), detail::kBlockThreads / 32),
                              detail::kBlockThreads, 0, stream>>>(ref(), f);
    WG_CUDA_CHECK_LAST();
  }

  /// As for SlabSet: exact after bulk operations; recount() after updates through ref().
  std::uint64_t size(cudaStream_t stream = 0) const { return core_.size(stream); }
  std::uint64_t count(cudaStream_t stream) const;
  std::uint64_t recount(cudaStream_t stream) {
    const std::uint64_t c = count(stream);
    core_.set_live(c, stream);
    return c;
  }
  /// size() / (num_buckets() * 15).
  double load_factor(cudaStream_t stream = 0) const;
  std::uint32_t num_buckets() const { return core_.num_buckets(); }
  std::size_t memory_bytes() const { return core_.memory_bytes(); }
  std::uint64_t overflow_slabs(cudaStream_t stream) const {
    return core_.allocator().slabs_in_use(stream);
  }

  MapTableRef ref() const {
    return MapTableRef(core_.buckets(), core_.num_buckets(), core_.allocator().ref());
  }
  SlabAllocator& allocator() { return core_.allocator(); }
  const SlabAllocator& allocator() const { return core_.allocator(); }
  const SlabTableConfig& config() const { return core_.config(); }

 private:
  detail::TableCore core_;
};

}  // namespace wg::slab
