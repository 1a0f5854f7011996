#pragma once
// Internal: gzip detection and decompression of a whole buffer (zlib). Used by read_file and by
// the fuzzers (which cap the output size so that a tiny input cannot expand to gigabytes).
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <warpgraph/datasets/read_graph.hpp>

namespace wg::datasets::detail {

/// True when the buffer starts with the gzip magic bytes 1f 8b.
inline bool is_gzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

/// Decompresses gzip data (concatenated members allowed, as gzip(1) writes them). Throws
/// wg::Error naming `name` on corrupt or truncated data, on trailing bytes that are not a gzip
/// member, or when the output would exceed max_output bytes. progress(done, total) reports
/// compressed bytes consumed.
std::string gunzip(std::string_view compressed, const std::string& name,
                   const ProgressFn& progress = {},
                   std::uint64_t max_output = std::numeric_limits<std::uint64_t>::max());

}  // namespace wg::datasets::detail
