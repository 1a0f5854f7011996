// Building the simple graph of an EdgeList and handing it to Boost.Graph.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <string>
#include <utility>

#include <warpgraph/algorithms/reference/detail/simple_graph.hpp>
#include <warpgraph/containers/core/error.hpp>

namespace wg::reference::detail {
namespace {

void validate(const EdgeList& edges) {
  if (edges.src.size() != edges.dst.size())
    throw InvalidArgument("reference: EdgeList has " + std::to_string(edges.src.size()) +
                          " sources but " + std::to_string(edges.dst.size()) + " targets");
  if (edges.weighted() && edges.weight.size() != edges.src.size())
    throw InvalidArgument("reference: EdgeList has " + std::to_string(edges.src.size()) +
                          " entries but " + std::to_string(edges.weight.size()) + " weights");
  // Vertex ids are 32-bit, so at most 2^32 - 1 vertices fit the Boost graph's vertex type.
  if (edges.num_vertices > std::numeric_limits<vertex_t>::max())
    throw InvalidArgument("reference: " + std::to_string(edges.num_vertices) +
                          " vertices exceed the 32-bit vertex id range");
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (edges.src[i] >= edges.num_vertices || edges.dst[i] >= edges.num_vertices)
      throw InvalidArgument(
          "reference: entry " + std::to_string(i) + " (" + std::to_string(edges.src[i]) + ", " +
          std::to_string(edges.dst[i]) +
          ") has a vertex id >= num_vertices = " + std::to_string(edges.num_vertices));
  }
}

// Sorts each row of a bucketed arc array and removes repeats, compacting in place. Item is
// vertex_t (target) or pair<target, weight>; pairs sort by weight second, so the first of a
// run of repeats carries the minimum weight.
template <class Item, class TargetOf>
std::vector<std::uint64_t> sort_and_dedup_rows(std::vector<Item>& items,
                                               const std::vector<std::uint64_t>& offsets,
                                               TargetOf target_of) {
  const std::uint64_t n = offsets.size() - 1;
  std::vector<std::uint64_t> new_offsets(n + 1, 0);
  std::uint64_t out = 0;
  for (std::uint64_t u = 0; u < n; ++u) {
    auto first = items.begin() + static_cast<std::ptrdiff_t>(offsets[u]);
    auto last = items.begin() + static_cast<std::ptrdiff_t>(offsets[u + 1]);
    std::sort(first, last);
    new_offsets[u] = out;
    for (auto it = first; it != last; ++it) {
      if (out > new_offsets[u] && target_of(items[out - 1]) == target_of(*it)) continue;
      items[out++] = *it;
    }
  }
  new_offsets[n] = out;
  items.resize(out);
  items.shrink_to_fit();
  return new_offsets;
}

}  // namespace

SimpleArcs simple_arcs(const EdgeList& edges, bool undirected, bool with_weights) {
  validate(edges);
  SimpleArcs arcs;
  arcs.num_vertices = edges.num_vertices;
  arcs.undirected = undirected;
  const std::uint64_t n = edges.num_vertices;

  // Counting sort by source: bucket sizes, then positions.
  std::vector<std::uint64_t> offsets(n + 1, 0);
  std::uint64_t kept_entries = 0;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const vertex_t u = edges.src[i], v = edges.dst[i];
    if (u == v) {
      ++arcs.self_loops_dropped;
      continue;
    }
    ++kept_entries;
    ++offsets[u + 1];
    if (undirected) ++offsets[v + 1];
  }
  for (std::uint64_t u = 0; u < n; ++u) offsets[u + 1] += offsets[u];
  std::vector<std::uint64_t> cursor(offsets.begin(), offsets.end() - 1);

  if (with_weights) {
    using Item = std::pair<vertex_t, double>;
    std::vector<Item> items(offsets[n]);
    for (std::size_t i = 0; i < edges.size(); ++i) {
      const vertex_t u = edges.src[i], v = edges.dst[i];
      if (u == v) continue;
      const double w = edges.weighted() ? edges.weight[i] : 1.0;
      items[cursor[u]++] = {v, w};
      if (undirected) items[cursor[v]++] = {u, w};
    }
    arcs.offsets = sort_and_dedup_rows(items, offsets, [](const Item& it) { return it.first; });
    arcs.targets.resize(items.size());
    arcs.weights.resize(items.size());
    for (std::size_t k = 0; k < items.size(); ++k) {
      arcs.targets[k] = items[k].first;
      arcs.weights[k] = items[k].second;
    }
  } else {
    std::vector<vertex_t> items(offsets[n]);
    for (std::size_t i = 0; i < edges.size(); ++i) {
      const vertex_t u = edges.src[i], v = edges.dst[i];
      if (u == v) continue;
      items[cursor[u]++] = v;
      if (undirected) items[cursor[v]++] = u;
    }
    arcs.offsets = sort_and_dedup_rows(items, offsets, [](vertex_t t) { return t; });
    arcs.targets = std::move(items);
  }
  arcs.duplicates_dropped = kept_entries - arcs.num_edges();
  return arcs;
}

void check_source(const EdgeList& edges, vertex_t source, const char* what) {
  if (source >= edges.num_vertices)
    throw InvalidArgument(std::string("reference ") + what + ": source " + std::to_string(source) +
                          " is out of range (graph has " + std::to_string(edges.num_vertices) +
                          " vertices)");
}

namespace {

// Walks SimpleArcs as the (source, target) pairs, in source order, that Boost's
// edges_are_sorted constructor reads (it needs operator->).
class SortedArcIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = std::pair<vertex_t, vertex_t>;
  using difference_type = std::ptrdiff_t;
  using pointer = const value_type*;
  using reference = const value_type&;

  SortedArcIterator(const SimpleArcs& arcs, std::uint64_t arc) : arcs_(&arcs), arc_(arc) {
    settle();
  }
  reference operator*() const { return current_; }
  pointer operator->() const { return &current_; }
  SortedArcIterator& operator++() {
    ++arc_;
    settle();
    return *this;
  }
  bool operator==(const SortedArcIterator& o) const { return arc_ == o.arc_; }
  bool operator!=(const SortedArcIterator& o) const { return arc_ != o.arc_; }

 private:
  void settle() {
    if (arc_ >= arcs_->num_arcs()) return;
    while (arcs_->offsets[row_ + 1] <= arc_) ++row_;
    current_ = {static_cast<vertex_t>(row_), arcs_->targets[arc_]};
  }
  const SimpleArcs* arcs_;
  std::uint64_t arc_;
  std::uint64_t row_ = 0;
  value_type current_{};
};

}  // namespace

BoostGraph to_boost(const SimpleArcs& arcs) {
  return BoostGraph(boost::edges_are_sorted, SortedArcIterator(arcs, 0),
                    SortedArcIterator(arcs, arcs.num_arcs()),
                    static_cast<vertex_t>(arcs.num_vertices), arcs.num_arcs());
}

WeightedBoostGraph to_boost_weighted(const SimpleArcs& arcs) {
  std::vector<ArcWeight> props(arcs.weights.size());
  for (std::size_t k = 0; k < props.size(); ++k) props[k].weight = arcs.weights[k];
  return WeightedBoostGraph(boost::edges_are_sorted, SortedArcIterator(arcs, 0),
                            SortedArcIterator(arcs, arcs.num_arcs()), props.begin(),
                            static_cast<vertex_t>(arcs.num_vertices), arcs.num_arcs());
}

}  // namespace wg::reference::detail
