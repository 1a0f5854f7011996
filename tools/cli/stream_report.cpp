// stream's reports besides its summary. See stream_report.hpp.
#include "stream_report.hpp"

#include <fmt/format.h>

#include "per_vertex.hpp"

namespace wg::cli {

nlohmann::json algorithm_outcome_json(const AlgorithmOutcome& a) {
  return {{"algo", algorithm_name(a.kind)}, {"seconds", a.seconds},
          {"changed", a.changed},           {"recomputed", a.recomputed},
          {"summary", a.summary},           {"summary_name", summary_names(a.kind).key}};
}

StreamOutputs stream_outputs(const cxxopts::ParseResult& r, const std::vector<std::string>& files) {
  std::vector<std::string> inputs = files;
  for (const char* o : {"updates", "temporal"})
    if (r.count(o)) inputs.push_back(r[o].as<std::string>());
  StreamOutputs out{output_target(r, inputs), std::nullopt};
  if (r.count("batch-csv")) {
    out.batch_csv = OutputTarget{r["batch-csv"].as<std::string>(), TableFormat::csv};
    check_output_path("batch-csv", out.batch_csv->path, inputs, r.count("json") > 0);
    if (out.batch_csv->to_stdout() && out.per_vertex && out.per_vertex->to_stdout())
      throw UsageError("--batch-csv - and -o -: only one of them can write stdout");
  }
  return out;
}

void write_batch_csv(const OutputTarget& target, const std::vector<BatchRow>& rows) {
  std::vector<AlgorithmKind> kinds;
  if (!rows.empty())
    for (const AlgorithmOutcome& a : rows.front().outcome->algorithms) kinds.push_back(a.kind);
  OutputFile out(target.path);
  std::string text = "batch,kind,entries,edges_changed,triangles,seconds";
  for (AlgorithmKind k : kinds) {
    const std::string name = algorithm_name(k);
    text += fmt::format(",{}_{},{}_seconds,{}_changed", name, summary_names(k).key, name, name);
  }
  text += '\n';
  for (const BatchRow& r : rows) {
    const BatchOutcome& o = *r.outcome;
    text += fmt::format("{},{},{},{},{},{}", r.index, r.kind, r.entries, o.edges_changed,
                        o.triangles, format_number(o.seconds));
    for (std::size_t i = 0; i < kinds.size(); ++i) {
      if (i < o.algorithms.size() && o.algorithms[i].kind == kinds[i]) {
        const AlgorithmOutcome& a = o.algorithms[i];
        text +=
            fmt::format(",{},{},{}", format_number(a.summary), format_number(a.seconds), a.changed);
      } else {
        text += ",,,";
      }
    }
    text += '\n';
    if (text.size() > (1u << 20)) {
      out.write(text);
      text.clear();
    }
  }
  out.write(text);
  out.close();
}

void write_stream_results(const OutputTarget& target, GraphBackend& backend,
                          const InputGraph* input) {
  const std::size_t n = backend.num_vertices();
  const auto file_id = [input](std::size_t v) -> std::uint64_t {
    return input ? vertex_to_user(*input, static_cast<vertex_t>(v)) : v;
  };
  std::vector<std::uint64_t> triangles;
  backend.recount_triangles(&triangles);
  const std::vector<TrackedResult> tracked = backend.tracked();
  EdgeList graph;
  for (const TrackedResult& t : tracked) {
    if (needs_source(t.spec.kind)) {
      graph = backend.export_edges();
      break;
    }
  }
  // Derived per-vertex data, kept alive while the columns read it.
  std::vector<std::vector<std::int64_t>> vertices;
  vertices.reserve(tracked.size());
  std::vector<Column> columns{number_column(entry_value_name<BackendCount>(), triangles)};
  for (const TrackedResult& t : tracked) {
    const std::string name = algorithm_name(t.spec.kind);
    const AlgorithmKind kind = t.spec.kind;
    if (!(kind == AlgorithmKind::tc)) {
      const ValueColumn column = value_column(kind);
      const SearchTree tree{graph, false, t.spec.source};
      vertices.emplace_back();
      for (Column& c : values_columns(column.name, column.kind, t.values, file_id, vertices.back(),
                                      &tree, name + "_"))
        columns.push_back(std::move(c));
    }
  }
  write_table(target, n, file_id, columns);
}

std::string verified_line(std::size_t batch, const std::vector<TrackedResult>& tracked) {
  std::string names = algorithm_name(AlgorithmKind::tc);
  for (const TrackedResult& t : tracked) names += std::string(", ") + algorithm_name(t.spec.kind);
  return fmt::format("batch {}: verified {} against the reference", batch, names);
}

void resolve_stream_sources(std::vector<AlgorithmSpec>& algorithms, std::uint64_t source,
                            const datasets::UpdateStream* stream, const std::string& stream_file,
                            const InputGraph* input) {
  const bool compact = input && !input->read.original_ids.empty();
  const auto id = [input](vertex_t v) -> std::uint64_t {
    return input ? vertex_to_user(*input, v) : v;
  };
  for (AlgorithmSpec& spec : algorithms) {
    if (!needs_source(spec.kind)) continue;
    spec.source =
        compact ? vertex_from_user(*input, source, "source") : static_cast<vertex_t>(source);
    if (!stream) continue;
    bool named = on_some_entry(stream->initial, spec.source);
    for (std::size_t b = 0; !named && b < stream->batches.size(); ++b)
      named = on_some_entry(stream->batches[b].edges, spec.source);
    if (named) continue;
    const EdgeList& any = stream->initial.size() || stream->batches.empty()
                              ? stream->initial
                              : stream->batches.front().edges;
    const std::string where = !input                ? stream_file
                              : stream_file.empty() ? input->path
                                                    : input->path + " and " + stream_file;
    throw Error(fmt::format(
        "--source {}: no entry of {} names vertex {}, so {} would reach only it; give --source "
        "a vertex of the graph{}",
        source, where, source, algorithm_name(spec.kind),
        any.size() ? fmt::format(" (e.g. {})", id(any.src[0])) : std::string()));
  }
}

}  // namespace wg::cli
