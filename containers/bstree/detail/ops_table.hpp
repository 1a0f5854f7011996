#pragma once
// The per-instruction-set operation table a tree dispatches through (one indirect call per
// operation; everything below it is inlined for that instruction set).
#include <cstddef>
#include <cstdint>

#include <warpgraph/containers/bstree/detail/core.hpp>

namespace wg::bstree::detail {

struct OpsTable {
  bool (*insert)(Core&, std::uint64_t key, const void* value, bool assign);
  bool (*erase)(Core&, std::uint64_t key);
  bool (*find)(const Core&, std::uint64_t key, void* value_out);
  std::size_t (*scan)(const Core&, ScanCursor&, std::uint64_t* keys_out, void* values_out);
};

/// The table of `path` (must be supported by this CPU; scalar for anything else); `concurrent`
/// picks optimistic lock coupling, else the single-writer build (no atomics, no locks).
const OpsTable* ops_for(SimdPath path, bool compressed, bool concurrent);

/// For tests: the successor kernel of `path` on one 128-byte key block of `key_bits`-bit slots
/// (64, 32 or 16; block 64-byte aligned): the number of slots < key (key < 2^key_bits).
unsigned count_less_for_testing(SimdPath path, unsigned key_bits, const void* block,
                                std::uint64_t key);

}  // namespace wg::bstree::detail
