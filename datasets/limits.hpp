#pragma once
// What an input may ask of the machine, and how its bytes are shown in messages.
//
// Readers check ids against wg::kVertexIdLimit (containers/core/types.hpp) as they parse and
// record the line that sets a graph's id range (ReadResult::id_range_line), so that a tool can
// check that range against a backend's cost per vertex and the memory this process may use
// (memory_budget_bytes) before anything proportional to it is allocated.
#include <cstdint>
#include <string>
#include <string_view>

namespace wg::datasets {

/// Bytes this process may still allocate: the least of the physical memory
/// (sysconf(_SC_PHYS_PAGES)), RLIMIT_AS less the address space already mapped, and RLIMIT_DATA.
/// Reads /proc/self/statm on Linux; never throws.
std::uint64_t memory_budget_bytes();

/// `text` with every byte that is not printable ASCII (and the backslash and quote) written as
/// \xNN, cut to at most `max_bytes` input bytes ("..." appended when cut). NUL bytes are shown,
/// never truncate the result.
std::string escape_bytes(std::string_view text, std::size_t max_bytes = 40);

/// "1.50 GB" (decimal units), for messages.
std::string format_bytes(std::uint64_t bytes);

}  // namespace wg::datasets
