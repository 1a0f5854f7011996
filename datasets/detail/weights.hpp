#pragma once
// Internal: the weight rules shared by the graph and update readers (weights.cpp). Not
// installed API.
#include <cstdint>
#include <string>

#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/graph/edge_list.hpp>

namespace wg::datasets::detail {

inline bool fits_float(double w) {
  return static_cast<double>(static_cast<float>(w)) == w;
}
inline bool fits_uint32(double w) {
  return w >= 0 && w < 4294967296.0 && w == static_cast<double>(static_cast<std::uint64_t>(w));
}

/// The problem with one weight under the rules ("" when none): a negative weight (when
/// non_negative) first, then one `storage` cannot hold exactly. The messages of check_weights.
std::string weight_problem(double w, WeightStorage storage, bool non_negative);

/// The shortest text that reads back as w ("-3", "0.1", "1e+308"): messages never round.
std::string exact_text(double w);

/// The duplicate rule (ReadOptions::min_weight_duplicates): every entry of an edge (for a
/// symmetric list, (u, v) and (v, u) alike) gets the least weight among them. Returns the
/// number of entries whose weight was lowered. O(m log m) time, 16 bytes per entry.
std::uint64_t apply_min_weight_rule(EdgeList& edges);

/// What every graph reader does last: the duplicate rule (when options.min_weight_duplicates;
/// r.weights_merged counts the entries it lowered), then check_weights with the options' storage
/// and sign rule.
void finish_weights(ReadResult& r, const ReadOptions& options, const std::string& name);

}  // namespace wg::datasets::detail
