// read_graph: reads a graph file (plain or gzip), picks its format and hands the text
// to the Matrix Market or SNAP reader (read_matrix_market.cpp, read_snap.cpp).
#include <warpgraph/datasets/detail/read_cancel.hpp>
#include <warpgraph/datasets/read_graph.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <new>
#include <string>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/detail/id_compactor.hpp>
#include <warpgraph/datasets/detail/read_fields.hpp>
#include <warpgraph/datasets/detail/weights.hpp>
#include <warpgraph/datasets/limits.hpp>

namespace wg::datasets {
namespace {

using detail::IdCompactor;
using detail::iequals;
using detail::strip_bom;

/// Maps parse progress into the second half of read_graph's progress range (see read_graph).
ProgressFn scaled(const ProgressFn& fn, std::uint64_t offset, std::uint64_t span) {
  if (!fn) return {};
  return [fn, offset, span](std::uint64_t done, std::uint64_t total) {
    fn(offset + (total ? static_cast<std::uint64_t>(static_cast<double>(done) / total * span) : 0),
       2 * span);
  };
}

bool has_suffix(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         iequals(std::string_view(s).substr(s.size() - suffix.size()), suffix);
}

/// Renumbers the ids of a graph read with 32-bit ids to 0..n-1 in order of first appearance
/// (ReadOptions::compact_ids for Matrix Market files); original_ids keeps the 0-based ids.
void compact_ids_in_place(ReadResult& r) {
  IdCompactor map(std::min<std::size_t>(r.edges.size(), std::size_t{1} << 24));
  for (std::size_t i = 0; i < r.edges.size(); ++i) {
    r.edges.src[i] = map.map(r.edges.src[i], r.original_ids);
    r.edges.dst[i] = map.map(r.edges.dst[i], r.original_ids);
  }
  r.edges.num_vertices = r.original_ids.size();
}

}  // namespace

// ---- public -----------------------------------------------------------------------------------
static ReadResult read_graph_impl(const std::string& path, const ReadOptions& options);

ReadResult read_graph(const std::string& path, const ReadOptions& options) {
  const detail::CancelScope cancel(options.cancel);
  try {
    return read_graph_impl(path, options);
  } catch (const detail::CancelRequested&) {
    throw Cancelled(path + ": read cancelled");
  } catch (const std::bad_alloc&) {
    std::uint64_t size = 0;
    if (struct stat st{}; ::stat(path.c_str(), &st) == 0)
      size = static_cast<std::uint64_t>(st.st_size);
    throw Error(path + ": out of memory while reading it (" + format_bytes(size) + " file, " +
                format_bytes(memory_budget_bytes()) + " of memory left to this process)");
  }
}

static ReadResult read_graph_impl(const std::string& path, const ReadOptions& options) {
  // The file is read into memory, never mapped: a mapped file that another process truncates
  // kills the reader with SIGBUS (read_file gives a snapshot and checks the size around it).
  // Progress: reading counts the file's size and parsing counts it again.
  std::uint64_t file_size = 0;
  if (struct stat st{}; ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode))
    file_size = static_cast<std::uint64_t>(st.st_size);
  const std::uint64_t span = std::max<std::uint64_t>(file_size, 1);
  ProgressFn read_progress;
  if (options.progress)
    read_progress = [&](std::uint64_t done, std::uint64_t) {
      options.progress(std::min(done, span), 2 * span);
    };
  const std::string owned = read_file(path, read_progress, options.on_wait);
  const std::string_view text = owned;
  const ProgressFn parse_progress = scaled(options.progress, span, span);

  FileFormat format = options.format;
  if (format == FileFormat::automatic) {
    std::string_view t = strip_bom(text);
    std::string base = has_suffix(path, ".gz") ? path.substr(0, path.size() - 3) : path;
    if (t.size() >= 14 && iequals(t.substr(0, 14), "%%MatrixMarket"))
      format = FileFormat::matrix_market;
    else if (has_suffix(base, ".mtx") || has_suffix(base, ".mm"))
      format = FileFormat::matrix_market;
    else
      format = FileFormat::snap;
  }
  // The duplicate rule changes weights at the end: weighted lists then go in one chunk after it
  // (weighted or not is known from the first chunk: a file has weights on all lines or none).
  ReadOptions inner = options;
  bool held_back = false;
  if (options.on_edges && options.min_weight_duplicates)
    inner.on_edges = [&](const EdgeChunk& c) {
      if (c.weight)
        held_back = true;
      else
        options.on_edges(c);
    };
  ReadResult r;
  if (format == FileFormat::matrix_market) {
    // Compacted ids are known only at the end: then the whole list goes in one chunk.
    r = detail::parse_matrix_market_text(text, path, parse_progress,
                                         inner.compact_ids ? EdgeChunkFn{} : inner.on_edges);
    if (inner.compact_ids) {
      compact_ids_in_place(r);
      detail::hand_over_whole_list(r.edges, inner.on_edges);
    }
  } else {
    r = detail::parse_snap_text(text, inner, path, parse_progress);
  }
  detail::finish_weights(r, options, path);
  if (held_back) detail::hand_over_whole_list(r.edges, options.on_edges);
  if (options.progress) options.progress(2 * span, 2 * span);
  return r;
}

}  // namespace wg::datasets
