#pragma once
// Public constants of the slab hash (Ashkiani et al., IPDPS'18; Awad's thesis, chapter 5).
//
// A slab is 128 bytes = 32 x 32-bit words, 128-byte aligned: one coalesced warp read.
//   set slab: words 0..29 keys, word 30 the next-slab handle, word 31 spare;
//   map slab: 15 (key, value) pairs as 64-bit words (key in the low half) in words 0..29,
//             word 30 the next-slab handle, word 31 spare.
// An empty slab is all-ones bytes, so cudaMemset(p, 0xFF, n * 128) initialises base buckets.
//
// Reserved key values: kEmptyKey (0xFFFFFFFF) and kTombstoneKey (0xFFFFFFFE). User keys must be
// at most kMaxKey (0xFFFFFFFD); the host objects reject the others with wg::InvalidArgument and
// the device refs answer InsertOutcome::invalid_key / false. Map values are unrestricted.
#include <cstdint>

namespace wg::slab {

inline constexpr std::uint32_t kSlabWords = 32;
inline constexpr std::uint32_t kSlabBytes = 128;
inline constexpr std::uint32_t kEmptyKey = 0xFFFFFFFFu;
inline constexpr std::uint32_t kTombstoneKey = 0xFFFFFFFEu;
inline constexpr std::uint32_t kMaxKey = 0xFFFFFFFDu;
/// Handle of "no slab" in a next word (equal to the empty pattern on purpose).
inline constexpr std::uint32_t kNullSlab = 0xFFFFFFFFu;
/// Value find() writes for absent keys in the host bulk operation.
inline constexpr std::uint32_t kNotFoundValue = 0xFFFFFFFFu;

inline constexpr std::uint32_t kSetKeysPerSlab = 30;
inline constexpr std::uint32_t kMapPairsPerSlab = 15;
/// Word index of the next-slab handle (both layouts).
inline constexpr std::uint32_t kNextWord = 30;
/// Lanes holding keys in a set slab read (word l), resp. pairs in a map slab read (pair l).
inline constexpr std::uint32_t kSetKeyLanes = (1u << kSetKeysPerSlab) - 1;
inline constexpr std::uint32_t kMapPairLanes = (1u << kMapPairsPerSlab) - 1;
inline constexpr std::uint64_t kEmptyPair = ~std::uint64_t{0};

/// One slab. Base buckets are plain arrays of Slab; overflow slabs come from a SlabAllocator.
struct alignas(128) Slab {
  std::uint32_t words[kSlabWords];
};
static_assert(sizeof(Slab) == kSlabBytes);

/// True for keys a user may store (not a reserved value).
__host__ __device__ constexpr bool is_valid_key(std::uint32_t key) {
  return key <= kMaxKey;
}

/// What a tile-cooperative insert did.
enum class InsertOutcome : std::uint8_t {
  inserted,      ///< the key was new and is now present
  present,       ///< the key was already present (map: its value was replaced)
  out_of_slabs,  ///< the chain needed a new slab and the allocator had none (nothing changed)
  invalid_key,   ///< the key is a reserved value (nothing changed)
};

/// Number of base buckets for `expected_keys` keys at `load_factor` (keys per slot of base
/// slabs), with `slots_per_slab` 30 (set) or 15 (map): ceil(n / (lf * slots)), at least 1.
inline std::uint32_t buckets_for(std::uint64_t expected_keys, double load_factor,
                                 std::uint32_t slots_per_slab) {
  if (!(load_factor > 0)) load_factor = 1;
  const double b = static_cast<double>(expected_keys) / (load_factor * slots_per_slab);
  const double c = b < 1 ? 1 : b + 0.999999;
  return c > 4294967295.0 ? 0xFFFFFFFFu : static_cast<std::uint32_t>(c);
}

}  // namespace wg::slab
