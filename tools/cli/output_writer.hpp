#pragma once
// Per-vertex result files of the `warpgraph` CLI (`-o PATH`, `--output-format`, stream's
// `--batch-csv`): one row per vertex, its id as the FILE names it, then the command's columns,
// as text (space-separated, no header), CSV or TSV (a header row) or JSON (an array of objects).
// `-o -` writes the rows to stdout; the command's summary then goes to stderr, so that stdout
// holds the rows only. An output path that names an input file is refused (never overwritten).
// Writing is O(rows x columns), buffered.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <cxxopts.hpp>

#include "cli.hpp"

namespace wg::cli {

enum class TableFormat { text, csv, tsv, json };

/// Where and how a table goes: `path` "-" is stdout.
struct OutputTarget {
  std::string path;
  TableFormat format = TableFormat::text;
  bool to_stdout() const { return path == "-"; }
};

/// The format a path implies: ".csv" csv, ".tsv"/".tab" tsv, ".json" json, else text.
TableFormat format_for_path(const std::string& path);

/// Throws UsageError when `path` (of option `option`) is one of `inputs` (the same file, through
/// any link or spelling), or is "-" while `--json` (`json_stdout`) also writes stdout.
void check_output_path(const std::string& option, const std::string& path,
                       const std::vector<std::string>& inputs, bool json_stdout);

/// --output and --output-format, checked (check_output_path against `inputs`); nullopt without
/// --output. --output-format alone is a UsageError.
std::optional<OutputTarget> output_target(const cxxopts::ParseResult& r,
                                          const std::vector<std::string>& inputs);

/// One value of a row. `none` (unreached, no parent) is `text` in text, CSV and TSV ("-1",
/// "inf") and null in JSON; otherwise `text` is a JSON number as well.
struct Cell {
  std::string text;
  bool none = false;
};
struct Column {
  std::string name;                       ///< the header and JSON key
  std::function<Cell(std::size_t)> cell;  ///< row -> value; rows past its data may be asked
};

/// Writes `rows` rows: "vertex" = vertex_id(row), then `columns`. Throws wg::Error naming the
/// file when it cannot be written. After writing to stdout, std::cout goes to stderr.
void write_table(const OutputTarget& target, std::size_t rows,
                 const std::function<std::uint64_t(std::size_t)>& vertex_id,
                 const std::vector<Column>& columns);
/// The same for a graph's vertices: one row per vertex of `g`, ids as the file names them.
void write_table(const OutputTarget& target, const InputGraph& g,
                 const std::vector<Column>& columns);

// ---- columns ----------------------------------------------------------------------------------

/// The shortest text of a double that reads back the same value.
std::string format_number(double x);

/// Integers as written; doubles as the shortest text that reads back the same value.
template <class T>
Column number_column(std::string name, const std::vector<T>& values) {
  return {std::move(name), [&values](std::size_t v) -> Cell {
            if (v >= values.size()) return {"", true};
            if constexpr (std::is_floating_point_v<T>) {
              return {format_number(static_cast<double>(values[v])), false};
            } else {
              return {std::to_string(values[v]), false};
            }
          }};
}
/// The file's id of each vertex of `g` (vertex_to_user), as write_table and vertex_column take it.
std::function<std::uint64_t(std::size_t)> file_ids(const InputGraph& g);

/// BFS levels: -1 (none) when unreached (negative or infinite).
Column level_column(const std::vector<double>& level);
/// Distances: "inf" (none) when unreached.
Column distance_column(const std::vector<double>& distance);
/// Vertex ids of the file (parents, predecessors, component labels): -1 (none) for no vertex.
Column vertex_column(std::string name, const std::vector<std::int64_t>& vertex,
                     const std::function<std::uint64_t(std::size_t)>& vertex_id);

}  // namespace wg::cli
