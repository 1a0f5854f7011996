#pragma once
// Update files read as a stream: the text is cut at line boundaries into segments that host
// threads parse in parallel, and the batches are handed to the caller in file order as soon as
// each is complete, so a consumer (a GPU ingest pipeline) applies the first batches while later
// segments are still being parsed.
//
//   wg::datasets::for_each_update_batch(text, true, path,
//       [&](wg::datasets::UpdateBatch&& b) { ingest.submit(...b.edges...); });
//
// Semantics: the format, the batches and the errors of parse_update_text (update_stream.hpp),
// with two differences a stream forces: (1) each batch's num_vertices is 1 + the largest id
// of the segments parsed when it is handed over (at least 1 + its own largest id; the last
// batch's is the file's), not of the whole file; (2) a ParseError (with the file's absolute line
// number) is thrown when the consumer reaches the segment holding it, after the batches of the
// segments before it were handed over. Threads: f runs on the calling thread, in order; at most
// `threads` segments (of about segment_bytes each) are parsed ahead of it, which bounds the memory
// held besides the text. Cost: O(text) work over `threads` threads.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include <warpgraph/datasets/update_stream.hpp>

namespace wg::datasets {

/// What the stream held, returned once every batch was handed over.
struct UpdateReadSummary {
  std::uint64_t batches = 0, updates = 0, lines = 0;
  std::uint64_t num_vertices = 0;  ///< 1 + the file's largest id
  double parse_wait_seconds = 0;   ///< the calling thread waited for a segment's parse
};

UpdateReadSummary for_each_update_batch(std::string_view text, bool symmetric,
                                        const std::string& name,
                                        const std::function<void(UpdateBatch&&)>& f,
                                        const UpdateReadOptions& options = {});
/// The same from a file (plain or gzip), read segment by segment as the parsing threads ask for
/// them, so reading (and decompressing) overlaps parsing and the consumer: the whole text is
/// never in memory. Errors: wg::Error naming the file when it cannot be opened or read (a
/// directory, a corrupt gzip stream), ParseError as above.
UpdateReadSummary for_each_update_batch_in_file(const std::string& path, bool symmetric,
                                                const std::function<void(UpdateBatch&&)>& f,
                                                const UpdateReadOptions& options = {});

/// read_temporal_snap (update_stream.hpp) with the parse on host threads: segments of the text
/// are parsed and stably sorted by time in parallel, then merged (ties keep file order). Same
/// result and errors as parse_temporal_snap.
UpdateStream parse_temporal_snap_parallel(std::string_view text, std::uint64_t window,
                                          bool symmetric, const std::string& name,
                                          const UpdateReadOptions& options = {});

}  // namespace wg::datasets
