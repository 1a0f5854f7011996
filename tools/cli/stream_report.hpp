#pragma once
// What `warpgraph stream` reports besides its summary: the label of each tracked result's
// summary number, the per-batch CSV (--batch-csv), the final per-vertex results (-o), the line
// each passing --verify-every check leaves, and the check that --source names a vertex.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <warpgraph/datasets/update_stream.hpp>

#include "backend.hpp"
#include "backend_choice.hpp"  // what stream --backend auto runs on
#include "cli.hpp"
#include "output_writer.hpp"

namespace wg::cli {

/// One algorithm's outcome in a batch, for JSON: algo, seconds, changed, recomputed, summary
/// and summary_name (summary_names(kind).key, tracked_algorithm.hpp).
nlohmann::json algorithm_outcome_json(const AlgorithmOutcome& a);

/// stream's -o (final per-vertex results) and --batch-csv, checked: neither names an input
/// (`files`, --updates, --temporal), at most one writes stdout, none with --json.
struct StreamOutputs {
  std::optional<OutputTarget> per_vertex, batch_csv;
  /// One of them writes stdout (the batch lines of --verbose then go to stderr).
  bool on_stdout() const {
    return (per_vertex && per_vertex->to_stdout()) || (batch_csv && batch_csv->to_stdout());
  }
};
StreamOutputs stream_outputs(const cxxopts::ParseResult& r, const std::vector<std::string>& files);

/// A row of --batch-csv: the initial build (index 0, kind "initial") or a batch.
struct BatchRow {
  std::size_t index = 0;
  std::string kind;  ///< "initial", "insert", "erase", "insert_vertices", "erase_vertices"
  std::uint64_t entries = 0;
  const BatchOutcome* outcome = nullptr;
};
/// Writes --batch-csv: batch,kind,entries,edges_changed,triangles,seconds, then for each tracked
/// result ALGO_SUMMARY (e.g. cc_components), ALGO_seconds, ALGO_changed. O(rows).
void write_batch_csv(const OutputTarget& target, const std::vector<BatchRow>& rows);
/// The same from the initial build and stream's batch records (index, kind, size, outcome).
template <class Records>
void write_batch_csv(const OutputTarget& target, std::uint64_t initial_entries,
                     const BatchOutcome& initial, const Records& records) {
  std::vector<BatchRow> rows{{0, "initial", initial_entries, &initial}};
  for (const auto& b : records) rows.push_back({b.index, b.kind, b.size, &b.outcome});
  write_batch_csv(target, rows);
}

/// stream -o: one row per vertex of the final graph: triangles, then each tracked result's
/// values (bfs: level, parent; cc: component = smallest file id; pagerank: rank; kcore: core;
/// sssp: distance, predecessor). `input` (when FILE was read) maps ids to the file's.
void write_stream_results(const OutputTarget& target, GraphBackend& backend,
                          const InputGraph* input);

/// The stderr line of a passing --verify-every check: "batch N: verified tc, bfs against the
/// reference".
std::string verified_line(std::size_t batch, const std::vector<TrackedResult>& tracked);

/// Sets the source of the tracked bfs/sssp to `source` as the user gave it (a file id under
/// --compact-ids: `input`'s ids). Then, when `stream` is given (known ahead), throws wg::Error
/// when no entry of it (initial graph or batch) names the source, which would reach only
/// itself; the message names a vertex to use instead. `stream_file`: the update or temporal
/// file ("" for generated streams), for the message.
void resolve_stream_sources(std::vector<AlgorithmSpec>& algorithms, std::uint64_t source,
                            const datasets::UpdateStream* stream, const std::string& stream_file,
                            const InputGraph* input);

}  // namespace wg::cli
