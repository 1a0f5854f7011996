#pragma once
// Reading graphs from files: Matrix Market (coordinate) and edge lists (SNAP, CSV, TSV), plain
// or gzip. Files are read (never mapped) so that one changed during the read is an input error,
// never a signal; weights follow one duplicate rule and can be checked against a consumer's
// storage (check_weights). datasets/README.md has the formats and the rules.
//
// Numbering: every reader returns 0-based vertex ids. Matrix Market ids (1-based in the file)
// are converted by subtracting one; SNAP ids are already 0-based and are kept (or compacted to
// 0..n-1 in order of first appearance when ReadOptions::compact_ids is set).
//
// Errors: malformed input throws wg::ParseError whose what() reads "FILE:LINE: problem", with the
// offending bytes quoted and escaped (\xNN); I/O failures, and running out of memory, throw
// wg::Error naming the file.
//
// Ids: every id must be below wg::kVertexIdLimit (2^31; containers/core/types.hpp), the limit
// of every backend: a Matrix Market size line beyond it, or a larger SNAP id, is a ParseError at
// its line (SNAP files with larger or sparse ids are read with compact_ids). Nothing is
// allocated in proportion to the declared id range: that is the caller's to check
// (ReadResult::id_range_line names the line; datasets/limits.hpp the memory budget). Nothing is
// dropped silently: duplicates and self-loops are returned as read (the graph layer removes and
// counts them).
//
// Speed: files are read in large blocks (gzip through zlib) and parsed without per-line
// allocation; tools/bench/parse_bench measures the rate, and tools/bench/RESULTS.md has its
// figures.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <warpgraph/graph/edge_list.hpp>

namespace wg::datasets {

enum class FileFormat { automatic, matrix_market, snap };

/// Where a caller keeps weights; a weight it cannot hold exactly is an error at its line.
///   f64: as parsed (every finite weight; integers only up to 2^53 in magnitude, as written);
///   f32: float (the cpu backend): the parsed double must survive float's rounding;
///   u32: unsigned 32-bit integers (the gpu backend): integers in [0, 2^32).
enum class WeightStorage { f64, f32, u32 };

/// How the columns of an edge-list line are separated (SNAP, CSV, TSV files).
///   automatic: ',' when the first data line holds one, else whitespace;
///   whitespace: runs of spaces and tabs (SNAP); comma, tab, semicolon: that one character,
///   with spaces around a field ignored and a field in double quotes unquoted.
enum class Delimiter { automatic, whitespace, comma, tab, semicolon };

/// The first non-comment line of an edge list as a header.
///   automatic: a header when its first field starts with a letter, '_' or '"' (a name, as in
///   "source,target" or "FromNodeId\tToNodeId"); skip: always one (skipped unread); none: never.
enum class HeaderLine { automatic, skip, none };

/// weight_column values besides a 0-based column number.
inline constexpr int kAutoWeightColumn = -1;  ///< the column after source and target, if present
inline constexpr int kNoWeightColumn = -2;    ///< unweighted, whatever the lines hold

/// Called now and then with (bytes consumed, total bytes or 0 if unknown) during long reads.
using ProgressFn = std::function<void(std::uint64_t done, std::uint64_t total)>;
/// Called with a one-line notice ("FILE: waiting for data (a FIFO with no writer yet) ...") when
/// a read waits on a stream: a tool prints it, so that a wait is never silent.
using NoticeFn = std::function<void(const std::string& notice)>;

/// A run of parsed edges handed to ReadOptions::on_edges while the file is still being parsed:
/// entries offset .. offset + size - 1 of the result's edge list (weight: null unless the file
/// has weights; num_vertices: 0 but for a whole list). The memory is the reader's, valid during
/// the call only.
using EdgeChunk = EdgeSpan;
using EdgeChunkFn = std::function<void(const EdgeChunk&)>;

struct ReadOptions {
  FileFormat format = FileFormat::automatic;  ///< automatic: "%%MatrixMarket" header => MM
  /// Renumber ids to 0..n-1 in order of first appearance, so that vertex storage is
  /// proportional to the vertices present, not to the largest id. The original (0-based) id of
  /// compacted vertex i is ReadResult::original_ids[i]. SNAP ids may then be any 64-bit value.
  bool compact_ids = false;
  /// SNAP only: whether each line is an undirected edge (EdgeList::symmetric). SNAP lists of
  /// undirected graphs (ego-Facebook, road networks, ...) store each edge once.
  bool snap_undirected = true;
  ProgressFn progress;  ///< optional
  /// Optional: the edges as they are parsed, so a consumer (a GPU upload) works while later
  /// parts of the file are still parsed. Called on the reading thread, in file order, with
  /// non-empty chunks that, when read_graph returns, concatenate to the result's edges (weight
  /// set in every chunk iff the result is weighted). A file with an error may have had chunks
  /// before the line at fault handed over before read_graph throws. With compact_ids (ids are
  /// renumbered at the end) the whole list comes in one chunk after the parse. The text is then
  /// parsed in segments of a few MiB by the parsing threads, handed over in order.
  EdgeChunkFn on_edges;
  /// Optional: told when the read waits on a stream (a FIFO without a writer yet); see NoticeFn.
  NoticeFn on_wait;
  /// Optional: set it (from any thread) to stop the read; every reading and parsing thread
  /// polls it every few MiB, and read_graph then throws wg::Cancelled "FILE: read cancelled".
  /// A read that waits on a FIFO with no writer is not stopped by it.
  const std::atomic<bool>* cancel = nullptr;

  // ---- weights (both formats) ----
  /// The storage the caller will use: a weight it cannot hold exactly is a ParseError
  /// "FILE:LINE: weight ... cannot be held exactly ...". Default: doubles as parsed.
  WeightStorage weight_storage = WeightStorage::f64;
  /// Negative weights are a ParseError "FILE:LINE: negative weight -3 (...)" (shortest paths).
  bool non_negative_weights = false;
  /// The duplicate rule: the entries of one edge (repeated entries; for undirected files also
  /// (u, v) and (v, u)) all get the smallest of their weights, so that every consumer, whatever
  /// entry it keeps, sees one simple graph, and shortest paths are those of the multigraph.
  /// Entries are kept (nothing is dropped). false: weights as read. O(m log m) when weighted.
  bool min_weight_duplicates = true;

  // ---- edge lists (SNAP, CSV, TSV); Matrix Market ignores these ----
  Delimiter delimiter = Delimiter::automatic;
  HeaderLine header = HeaderLine::automatic;
  unsigned source_column = 0;  ///< 0-based
  unsigned target_column = 1;  ///< 0-based
  /// 0-based weight column, or kAutoWeightColumn (default: the column after the larger of
  /// source and target, when the lines have it: all lines or none) or kNoWeightColumn.
  int weight_column = kAutoWeightColumn;
  /// Columns after the last one used are ignored; false (default): they are an error, so that
  /// a misread file is noticed. Columns before it that are not used are always ignored.
  bool ignore_extra_columns = false;
};

/// Facts about a file's weights, gathered during the parse, for checks that depend on the
/// consumer (check_weights): each names the first line at fault (0: none) and its weight.
struct WeightFacts {
  struct At {
    std::uint64_t line = 0;
    double value = 0;
  };
  At negative;    ///< first weight < 0
  At not_float;   ///< first weight that float does not hold exactly
  At not_uint32;  ///< first weight that is not an integer in [0, 2^32)
};

/// Matrix Market header facts (kept for `warpgraph info` and for tests).
struct MatrixMarketHeader {
  enum class Field { pattern, real, integer };
  enum class Symmetry { general, symmetric, skew_symmetric };
  Field field = Field::pattern;
  Symmetry symmetry = Symmetry::general;
  std::uint64_t rows = 0, cols = 0, entries = 0;
};

struct ReadResult {
  EdgeList edges;
  FileFormat format = FileFormat::automatic;  ///< the format actually read
  MatrixMarketHeader mm;                      ///< filled for Matrix Market files
  std::vector<std::uint64_t> original_ids;    ///< filled when compact_ids was used
  std::uint64_t lines = 0;                    ///< lines read, comments included
  /// The line that sets edges.num_vertices: the Matrix Market size line, or the first SNAP line
  /// naming the largest id (0 when compacted or unknown). For messages about the id range.
  std::uint64_t id_range_line = 0;
  WeightFacts weight_facts;  ///< all lines 0 for unweighted files
  /// Entries whose weight the duplicate rule lowered (ReadOptions::min_weight_duplicates).
  std::uint64_t weights_merged = 0;
  std::uint64_t header_line = 0;  ///< the edge list's header line that was skipped (0: none)
};

/// Throws wg::ParseError "NAME:LINE: problem" for the first weight of `r` that `storage` cannot
/// hold exactly or, with non_negative, for the first negative one, e.g.
/// "g.txt:7: negative weight -3 (shortest paths need weights >= 0)". The value is printed
/// exactly (the shortest text that reads back as the same double). O(1).
void check_weights(const ReadResult& r, const std::string& name, WeightStorage storage,
                   bool non_negative);

/// Reads a graph file (".gz" suffix or gzip magic => decompressed on the fly).
/// Matrix Market: coordinate format only; fields pattern / real / integer; symmetry general /
/// symmetric / skew-symmetric. num_vertices = max(rows, cols); symmetric and skew-symmetric
/// files give EdgeList::symmetric = true (for skew-symmetric the weight stored is that of
/// entry (i, j) as written). Weights are filled for real and integer fields.
/// SNAP: "u v" or "u v w" per line, '#' comments, tabs or spaces; num_vertices = max id + 1
/// (or the compacted count). CSV / TSV: the same reader with ReadOptions' delimiter, header and
/// column fields. Weights: ReadOptions' duplicate rule, then its weight checks.
ReadResult read_graph(const std::string& path, const ReadOptions& options = {});

/// Same, from text already in memory; `name` is used in error messages. For tests and fuzzers.
/// parse_snap applies the options' weight rules as read_graph does; parse_matrix_market returns
/// the weights as read (no duplicate rule, no check).
ReadResult parse_matrix_market(std::string_view text, const std::string& name = "<memory>",
                               const ProgressFn& progress = {});
ReadResult parse_snap(std::string_view text, const ReadOptions& options = {},
                      const std::string& name = "<memory>");

/// Reads a whole file into memory, decompressing gzip. The file is read (never mapped): a file
/// that changes size during the read is a wg::Error naming it ("changed while it was read"),
/// never a signal. Streams work (a FIFO, `<(zcat f.gz)`): one without a writer is waited for, with
/// `on_wait` told after a second. A NUL byte is a ParseError naming its line and byte offset
/// (binary data; /dev/zero fails at once). Other failures throw wg::Error naming the file.
std::string read_file(const std::string& path, const ProgressFn& progress = {},
                      const NoticeFn& on_wait = {});

}  // namespace wg::datasets
