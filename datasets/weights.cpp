// The weight rules every reader applies (read_graph.hpp): check_weights and the duplicate rule.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/detail/weights.hpp>
#include <warpgraph/datasets/read_graph.hpp>

namespace wg::datasets {

std::string detail::exact_text(double w) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, w);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(w);
}

namespace {

std::string negative_text(double w) {
  return "negative weight " + detail::exact_text(w) + " (shortest paths need weights >= 0)";
}
std::string float_text(double w) {
  return "weight " + detail::exact_text(w) +
         " cannot be held exactly as a float (the cpu backend's weights; floats hold integers up "
         "to 2^24 and about 7 digits)";
}
std::string uint32_text(double w) {
  return "weight " + detail::exact_text(w) +
         " cannot be held exactly as an unsigned 32-bit integer (the gpu backend's weights: "
         "integers 0..4294967295)";
}

}  // namespace

std::string detail::weight_problem(double w, WeightStorage storage, bool non_negative) {
  if (non_negative && w < 0) return negative_text(w);
  if (storage == WeightStorage::f32 && !fits_float(w)) return float_text(w);
  if (storage == WeightStorage::u32 && !fits_uint32(w)) return uint32_text(w);
  return {};
}

void check_weights(const ReadResult& r, const std::string& name, WeightStorage storage,
                   bool non_negative) {
  const WeightFacts& f = r.weight_facts;
  // The first line at fault in the file wins when several rules are broken.
  std::uint64_t line = 0;
  std::string problem;
  const auto consider = [&](const WeightFacts::At& at, std::string (*text)(double)) {
    if (at.line && (!line || at.line < line)) {
      line = at.line;
      problem = text(at.value);
    }
  };
  if (non_negative) consider(f.negative, negative_text);
  if (storage == WeightStorage::f32) consider(f.not_float, float_text);
  if (storage == WeightStorage::u32) consider(f.not_uint32, uint32_text);
  if (line) throw ParseError(name, line, problem);
}

std::uint64_t detail::apply_min_weight_rule(EdgeList& edges) {
  if (!edges.weighted() || edges.size() < 2) return 0;
  // (edge key, entry) sorted by key: the entries of one edge are then adjacent.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> order(edges.size());
  for (std::size_t i = 0; i < edges.size(); ++i) {
    std::uint64_t u = edges.src[i], v = edges.dst[i];
    if (edges.symmetric && u > v) std::swap(u, v);
    order[i] = {u << 32 | v, i};
  }
  std::sort(order.begin(), order.end());
  std::uint64_t lowered = 0;
  for (std::size_t b = 0; b < order.size();) {
    std::size_t e = b + 1;
    double least = edges.weight[order[b].second];
    for (; e < order.size() && order[e].first == order[b].first; ++e)
      least = std::min(least, edges.weight[order[e].second]);
    for (std::size_t k = b; e - b > 1 && k < e; ++k) {
      double& w = edges.weight[order[k].second];
      lowered += w != least;
      w = least;
    }
    b = e;
  }
  return lowered;
}

void detail::finish_weights(ReadResult& r, const ReadOptions& options, const std::string& name) {
  if (!r.edges.weighted()) return;
  check_weights(r, name, options.weight_storage, options.non_negative_weights);
  if (options.min_weight_duplicates) r.weights_merged = apply_min_weight_rule(r.edges);
}

}  // namespace wg::datasets
