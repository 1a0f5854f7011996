#pragma once
// Internal: how every reader opens a file and vets its bytes (read_file.cpp). Not installed API.
//  - open_input never blocks in open(): a FIFO without a writer is opened non-blocking, the
//    reader then waits for data and says so through a NoticeFn after kWaitNoticeMs;
//  - text_problem finds what makes bytes unreadable as text for every reader: a NUL byte (binary
//    data, /dev/zero) and lone carriage returns (classic Mac line ends), with the line they are
//    on, so that the error is "FILE:LINE: problem" and comes before gigabytes are read.
#include <sys/stat.h>

#include <cstdint>
#include <string>
#include <string_view>

#include <warpgraph/datasets/read_graph.hpp>

namespace wg::datasets::detail {

/// How long a read waits for a stream's first data before it reports that it waits.
inline constexpr int kWaitNoticeMs = 1000;

/// Opens `path` read-only for a sequential read and fills `st` (fstat of the open file).
/// Non-regular files (FIFOs, pipes, devices) are waited on until they have data or hang up,
/// with `on_wait` (if set) called once after kWaitNoticeMs. The descriptor is blocking on return.
/// Throws wg::Error naming the file (cannot open, is a directory).
int open_input(const std::string& path, const NoticeFn& on_wait, struct stat& st);

/// Where bytes stop being text: a NUL byte, or a carriage return followed by more text on the
/// same '\n'-terminated line (a file with lone-CR line ends is one long line to every reader).
struct TextProblem {
  std::uint64_t offset = 0;  ///< of the byte at fault, from the start of `text`
  std::uint64_t line = 0;    ///< 1-based line of that byte (0: no problem)
  std::string problem;       ///< the message, without "FILE:LINE: "
};

/// The first NUL byte in text[from, end): O(bytes) with memchr. Lines count from text's start.
TextProblem find_nul(std::string_view text, std::size_t from = 0);
/// A lone-CR problem on the first line of `text` (O(first line)): files with lone-CR line ends
/// are refused at line 1 with a message that says how to convert them; CRLF is accepted, and a
/// CR after a NUL byte is left to the NUL check (binary data is reported as such).
TextProblem find_lone_cr(std::string_view text);
/// Throws ParseError(name, line, problem) for the first of the two problems in `text`.
void check_text(std::string_view text, const std::string& name);

}  // namespace wg::datasets::detail
