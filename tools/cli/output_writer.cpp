// Per-vertex result files: formats, stdout, the input-overwrite guard. See output_writer.hpp.
#include "output_writer.hpp"

#include <cmath>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

namespace wg::cli {
namespace {

namespace fs = std::filesystem;

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// True when `a` and `b` name the same file (an existing one through links or spellings, or
/// the same normalised path).
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::equivalent(a, b, ec) && !ec) return true;
  const fs::path ca = fs::weakly_canonical(a, ec);
  if (ec) return false;
  const fs::path cb = fs::weakly_canonical(b, ec);
  return !ec && ca == cb;
}

/// A CSV field: quoted when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + '"';
}

}  // namespace

TableFormat format_for_path(const std::string& path) {
  if (ends_with(path, ".csv")) return TableFormat::csv;
  if (ends_with(path, ".tsv") || ends_with(path, ".tab")) return TableFormat::tsv;
  if (ends_with(path, ".json")) return TableFormat::json;
  return TableFormat::text;
}

void check_output_path(const std::string& option, const std::string& path,
                       const std::vector<std::string>& inputs, bool json_stdout) {
  if (path.empty()) throw UsageError("--" + option + ": empty path");
  if (path == "-") {
    if (json_stdout) {
      throw UsageError("--" + option +
                       " -: --json prints its document on stdout; write the rows to a file");
    }
    return;
  }
  for (const std::string& input : inputs) {
    if (input != "-" && same_file(path, input)) {
      throw UsageError("--" + option + " " + path + " is the input file " + input +
                       ": refusing to overwrite it");
    }
  }
}

std::optional<OutputTarget> output_target(const cxxopts::ParseResult& r,
                                          const std::vector<std::string>& inputs) {
  if (!r.count("output")) {
    if (r.count("output-format")) throw UsageError("--output-format needs --output PATH");
    return std::nullopt;
  }
  OutputTarget t{r["output"].as<std::string>(), TableFormat::text};
  check_output_path("output", t.path, inputs, r.count("json") > 0);
  t.format = format_for_path(t.path);
  if (r.count("output-format")) {
    const std::string f = r["output-format"].as<std::string>();
    if (f == "text")
      t.format = TableFormat::text;
    else if (f == "csv")
      t.format = TableFormat::csv;
    else if (f == "tsv")
      t.format = TableFormat::tsv;
    else if (f == "json")
      t.format = TableFormat::json;
    else
      throw UsageError("--output-format '" + f + "': use text, csv, tsv or json");
  }
  return t;
}

void write_table(const OutputTarget& target, std::size_t rows,
                 const std::function<std::uint64_t(std::size_t)>& vertex_id,
                 const std::vector<Column>& columns) {
  OutputFile out(target.path);
  const TableFormat f = target.format;
  const char sep = f == TableFormat::csv ? ',' : f == TableFormat::tsv ? '\t' : ' ';
  std::string buffer;
  if (f == TableFormat::csv || f == TableFormat::tsv) {
    buffer += "vertex";
    for (const Column& c : columns)
      (buffer += sep) += f == TableFormat::csv ? csv_field(c.name) : c.name;
    buffer += '\n';
  }
  if (f == TableFormat::json) buffer += "[";
  for (std::size_t v = 0; v < rows; ++v) {
    if (f == TableFormat::json) {
      buffer += fmt::format("{}\n{{\"vertex\": {}", v ? "," : "", vertex_id(v));
      for (const Column& c : columns) {
        const Cell cell = c.cell(v);
        buffer += fmt::format(", \"{}\": {}", c.name, cell.none ? std::string("null") : cell.text);
      }
      buffer += '}';
    } else {
      buffer += std::to_string(vertex_id(v));
      for (const Column& c : columns) (buffer += sep) += c.cell(v).text;
      buffer += '\n';
    }
    if (buffer.size() > (1u << 20)) {
      out.write(buffer);
      buffer.clear();
    }
  }
  if (f == TableFormat::json) buffer += "\n]\n";
  out.write(buffer);
  out.close();
}

void write_table(const OutputTarget& target, const InputGraph& g,
                 const std::vector<Column>& columns) {
  write_table(target, g.read.edges.num_vertices, file_ids(g), columns);
}

std::function<std::uint64_t(std::size_t)> file_ids(const InputGraph& g) {
  return [&g](std::size_t v) { return vertex_to_user(g, static_cast<vertex_t>(v)); };
}

std::string format_number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return fmt::format("{}", x);
}

Column level_column(const std::vector<double>& level) {
  return {"level", [&level](std::size_t v) -> Cell {
            if (v >= level.size() || !(level[v] >= 0) || std::isinf(level[v])) return {"-1", true};
            return {format_number(level[v]), false};
          }};
}

Column distance_column(const std::vector<double>& distance) {
  return {"distance", [&distance](std::size_t v) -> Cell {
            if (v >= distance.size() || !std::isfinite(distance[v])) return {"inf", true};
            return {format_number(distance[v]), false};
          }};
}

Column vertex_column(std::string name, const std::vector<std::int64_t>& vertex,
                     const std::function<std::uint64_t(std::size_t)>& vertex_id) {
  return {std::move(name), [&vertex, vertex_id](std::size_t v) -> Cell {
            if (v >= vertex.size() || vertex[v] < 0) return {"-1", true};
            return {std::to_string(vertex_id(static_cast<std::size_t>(vertex[v]))), false};
          }};
}

}  // namespace wg::cli
