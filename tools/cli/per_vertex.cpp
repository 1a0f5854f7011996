// Per-vertex results in the file's terms. See per_vertex.hpp.
#include "per_vertex.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include <warpgraph/datasets/read_graph.hpp>

namespace wg::cli {

std::vector<std::int64_t> path_tree_parents(const EdgeList& edges, bool directed, vertex_t source,
                                            const std::vector<double>& distance,
                                            bool unit_lengths) {
  const std::size_t n = distance.size();
  std::vector<std::int64_t> parent(n, kNoVertex);
  if (source >= n || !std::isfinite(distance[source])) return parent;
  // Out-arcs in CSR form (both directions of an undirected entry).
  std::vector<std::uint64_t> offset(n + 1, 0);
  const auto each_arc = [&](auto&& f) {
    for (std::size_t i = 0; i < edges.size(); ++i) {
      const vertex_t u = edges.src[i], v = edges.dst[i];
      if (u >= n || v >= n || u == v) continue;
      const double w = unit_lengths || !edges.weighted() ? 1.0 : edges.weight[i];
      f(u, v, w);
      if (!directed) f(v, u, w);
    }
  };
  each_arc([&](vertex_t u, vertex_t, double) { ++offset[u + 1]; });
  std::partial_sum(offset.begin(), offset.end(), offset.begin());
  std::vector<vertex_t> head(offset[n]);
  std::vector<double> length(offset[n]);
  std::vector<std::uint64_t> fill(offset.begin(), offset.end() - 1);
  each_arc([&](vertex_t u, vertex_t v, double w) {
    head[fill[u]] = v;
    length[fill[u]++] = w;
  });
  // Breadth-first over tight arcs: each vertex gets the first tight in-arc that reaches it.
  std::vector<vertex_t> queue{source};
  parent[source] = source;
  for (std::size_t q = 0; q < queue.size(); ++q) {
    const vertex_t u = queue[q];
    for (std::uint64_t a = offset[u]; a < offset[u + 1]; ++a) {
      const vertex_t v = head[a];
      if (parent[v] != kNoVertex || distance[u] + length[a] != distance[v]) continue;
      parent[v] = u;
      queue.push_back(v);
    }
  }
  return parent;
}

std::uint64_t keep_lightest_duplicates(EdgeList& edges, bool directed) {
  if (!edges.weighted() || edges.size() < 2) return 0;
  const auto key = [&](std::size_t i) {
    vertex_t u = edges.src[i], v = edges.dst[i];
    if (!directed && u > v) std::swap(u, v);
    return (std::uint64_t{u} << 32) | v;
  };
  std::vector<std::size_t> order(edges.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
  // Per run of equal keys: the first entry stays, with the run's smallest weight.
  std::vector<bool> keep(edges.size(), false);
  std::uint64_t removed = 0;
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    double lightest = edges.weight[order[i]];
    while (j < order.size() && key(order[j]) == key(order[i])) {
      lightest = std::min(lightest, edges.weight[order[j]]);
      ++j;
    }
    keep[order[i]] = true;
    edges.weight[order[i]] = lightest;
    removed += j - i - 1;
    i = j;
  }
  if (removed == 0) return 0;
  std::size_t out = 0;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (!keep[i]) continue;
    edges.src[out] = edges.src[i];
    edges.dst[out] = edges.dst[i];
    edges.weight[out] = edges.weight[i];
    ++out;
  }
  edges.src.resize(out);
  edges.dst.resize(out);
  edges.weight.resize(out);
  return removed;
}

namespace {

/// The fields of a line split at spaces, tabs and commas.
std::vector<std::string_view> fields_of(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() &&
           (line[i] == ' ' || line[i] == '\t' || line[i] == ',' || line[i] == '\r'))
      ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != ',' &&
           line[i] != '\r')
      ++i;
    if (i > start) fields.push_back(line.substr(start, i - start));
  }
  return fields;
}

bool is_id(std::string_view field, std::uint64_t id) {
  std::uint64_t got = 0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), got);
  return ec == std::errc() && end == field.data() + field.size() && got == id;
}

}  // namespace

std::string entry_place(const InputGraph& g, std::size_t index, std::string* weight_text) {
  const std::string fallback = fmt::format("{} (entry {})", g.path, index + 1);
  const EdgeList& e = g.read.edges;
  if (index >= e.size()) return fallback;
  // The file's own ids of the entry: Matrix Market ids are one above the 0-based ones.
  const std::uint64_t shift = g.read.format == datasets::FileFormat::matrix_market ? 1 : 0;
  const std::uint64_t u = vertex_to_user(g, e.src[index]) + shift;
  const std::uint64_t v = vertex_to_user(g, e.dst[index]) + shift;
  std::string text;
  try {
    text = datasets::read_file(readable_input_path(g.path));
  } catch (const std::exception&) {
    return fallback;
  }
  std::uint64_t line_no = 0;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + at, end - at);
    at = end + 1;
    ++line_no;
    const std::vector<std::string_view> f = fields_of(line);
    if (f.size() < 2 || !is_id(f[0], u) || !is_id(f[1], v)) continue;
    if (e.weighted()) {
      if (f.size() < 3) continue;
      const std::string w(f[2]);
      char* stop = nullptr;
      const double parsed = std::strtod(w.c_str(), &stop);
      if (parsed != e.weight[index] && !(std::isinf(parsed) && std::isinf(e.weight[index])))
        continue;
      if (weight_text) *weight_text = w;
    }
    return fmt::format("{}:{}", g.path, line_no);
  }
  return fallback;
}

bool on_some_entry(const EdgeList& edges, vertex_t v) {
  for (std::size_t i = 0; i < edges.size(); ++i)
    if (edges.src[i] == v || edges.dst[i] == v) return true;
  return false;
}

}  // namespace wg::cli
