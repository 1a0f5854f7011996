// read_graph: maps or reads a graph file (plain or gzip), picks its format and hands the text
// to the Matrix Market or SNAP reader (read_matrix_market.cpp, read_snap.cpp).
#include <warpgraph/datasets/read_graph.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <new>
#include <string>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/detail/gzip.hpp>
#include <warpgraph/datasets/detail/id_compactor.hpp>
#include <warpgraph/datasets/detail/read_fields.hpp>
#include <warpgraph/datasets/limits.hpp>

namespace wg::datasets {
namespace detail {

/// A read-only private mapping of a whole file; map() returns false when mapping fails (the
/// caller then reads the file instead).
class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile() { unmap(); }
  bool map(const std::string& path, std::uint64_t size) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    void* p = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (p == MAP_FAILED) return false;
    ::madvise(p, static_cast<std::size_t>(size), MADV_SEQUENTIAL);
    data_ = p;
    size_ = static_cast<std::size_t>(size);
    return true;
  }
  void unmap() {
    if (data_) ::munmap(data_, size_);
    data_ = nullptr;
    size_ = 0;
  }
  std::string_view view() const { return {static_cast<const char*>(data_), size_}; }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace detail
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
  try {
    return read_graph_impl(path, options);
  } catch (const std::bad_alloc&) {
    std::uint64_t size = 0;
    if (struct stat st{}; ::stat(path.c_str(), &st) == 0)
      size = static_cast<std::uint64_t>(st.st_size);
    throw Error(path + ": out of memory while reading it (" + format_bytes(size) + " file, " +
                format_bytes(memory_budget_bytes()) + " of memory left to this process)");
  }
}

static ReadResult read_graph_impl(const std::string& path, const ReadOptions& options) {
  // Plain regular files are memory-mapped and parsed in place (no copy); gzip files and
  // anything else (pipes, empty files) are read into memory first.
  // Progress: for read-then-parse, reading counts the file's size and parsing counts it again;
  // for mapped files parsing counts both (done/total is the fraction of the whole read).
  std::uint64_t file_size = 0;
  if (struct stat st{}; ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode))
    file_size = static_cast<std::uint64_t>(st.st_size);
  const std::uint64_t span = std::max<std::uint64_t>(file_size, 1);
  std::string owned;
  std::string_view text;
  detail::MappedFile mapped;
  ProgressFn parse_progress;
  if (file_size > 0 && mapped.map(path, file_size) && !detail::is_gzip(mapped.view())) {
    text = mapped.view();
    if (options.progress) {
      options.progress(0, 2 * span);
      parse_progress = [&](std::uint64_t done, std::uint64_t total) {
        options.progress(
            total ? static_cast<std::uint64_t>(static_cast<double>(done) / total * 2 * span) : 0,
            2 * span);
      };
    }
  } else {
    mapped.unmap();
    ProgressFn read_progress;
    if (options.progress)
      read_progress = [&](std::uint64_t done, std::uint64_t) {
        options.progress(std::min(done, span), 2 * span);
      };
    owned = read_file(path, read_progress);
    text = owned;
    parse_progress = scaled(options.progress, span, span);
  }

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
  ReadResult r;
  if (format == FileFormat::matrix_market) {
    // Compacted ids are known only at the end: then the whole list goes in one chunk.
    r = detail::parse_matrix_market_text(text, path, parse_progress,
                                         options.compact_ids ? EdgeChunkFn{} : options.on_edges);
    if (options.compact_ids) {
      compact_ids_in_place(r);
      detail::hand_over_whole_list(r.edges, options.on_edges);
    }
  } else {
    r = detail::parse_snap_text(text, options, path, parse_progress);
  }
  if (options.progress) options.progress(2 * span, 2 * span);
  return r;
}

}  // namespace wg::datasets
