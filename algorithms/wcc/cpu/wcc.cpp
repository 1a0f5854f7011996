// Static and dynamic connected components on the CPU graph. See wcc.hpp.
#include <warpgraph/algorithms/wcc/cpu/wcc.hpp>

#include <algorithm>

#include <warpgraph/algorithms/wcc/cpu/wcc_impl.hpp>

namespace wg::cpu {

template Components connected_components(const DynamicGraph&, const ComponentsOptions&);

DynamicComponents::DynamicComponents(DynamicGraph& graph, const DynamicComponentsOptions& options)
    : graph_(&graph), options_(options) {
  if (!options_.components.threads) options_.components.threads = graph.threads();
  recompute();
}

const Components& DynamicComponents::recompute() {
  result_ = connected_components(*graph_, options_.components);
  rebuild_members();
  return result_;
}

void DynamicComponents::rebuild_members() {
  const std::size_t n = result_.component.size();
  members_.assign(n, {});
  for (std::size_t v = 0; v < n; ++v) members_[result_.component[v]].push_back(vertex_t(v));
}

void DynamicComponents::grow() {
  const std::uint64_t n = graph_->num_vertices();
  for (std::uint64_t v = result_.component.size(); v < n; ++v) {
    result_.component.push_back(vertex_t(v));
    members_.push_back({vertex_t(v)});
    ++result_.count;
  }
}

std::uint64_t DynamicComponents::recompute_counting() {
  const std::vector<vertex_t> old = std::move(result_.component);
  recompute();
  std::uint64_t changed = 0;
  for (std::size_t v = 0; v < old.size(); ++v) changed += old[v] != result_.component[v];
  return changed;
}

std::uint64_t DynamicComponents::split(const std::vector<vertex_t>& labels) {
  auto& label = result_.component;
  const detail::MinUnionFind uf(label);
  const bool directed = graph_->directed();
  std::uint64_t changed = 0;
  for (vertex_t c : labels) {
    // Arcs now inside the old component join only its members: union-find over them alone.
    std::vector<vertex_t> old = std::move(members_[c]);
    members_[c].clear();
    for (vertex_t m : old) label[m] = m;
    for (vertex_t m : old) {
      graph_->for_each_neighbor(m, [&](vertex_t w) {
        if (directed || w < m) uf.unite(m, w);
      });
    }
    for (vertex_t m : old) {
      label[m] = uf.find(m);
      members_[label[m]].push_back(m);
      changed += label[m] != c;
      result_.count += label[m] == m && m != c;
    }
  }
  return changed;
}

DynamicComponents::BatchResult DynamicComponents::insert_edges(const EdgeList& batch) {
  grow();
  CanonicalBatch c = graph_->canonicalize(batch);
  BatchResult r;
  r.update = graph_->insert_canonical(c);  // c.keys: the edges that were added
  auto& label = result_.component;
  std::vector<vertex_t> moved;
  for (std::uint64_t k : c.keys) {
    vertex_t lo = label[arc_source(k)], hi = label[arc_target(k)];
    if (lo == hi) continue;
    if (hi < lo) std::swap(lo, hi);
    // The component labelled hi joins lo's: its members are the vertices whose label changes.
    std::vector<vertex_t>& from = members_[hi];
    std::vector<vertex_t>& to = members_[lo];
    for (vertex_t m : from) label[m] = lo;
    moved.insert(moved.end(), from.begin(), from.end());
    if (from.size() > to.size()) from.swap(to);
    to.insert(to.end(), from.begin(), from.end());
    std::vector<vertex_t>().swap(from);
    --result_.count;
  }
  // A vertex moved twice in one batch changed its label once.
  std::sort(moved.begin(), moved.end());
  r.changed = static_cast<std::uint64_t>(std::unique(moved.begin(), moved.end()) - moved.begin());
  return r;
}

namespace {
std::vector<vertex_t> labels_of(const std::vector<vertex_t>& label,
                                std::span<const std::uint64_t> keys) {
  std::vector<vertex_t> labels;
  labels.reserve(keys.size());
  for (std::uint64_t k : keys) labels.push_back(label[arc_source(k)]);
  std::sort(labels.begin(), labels.end());
  labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
  return labels;
}
}  // namespace

DynamicComponents::BatchResult DynamicComponents::erase_edges(const EdgeList& batch) {
  grow();
  CanonicalBatch c = graph_->canonicalize(batch);
  const std::uint64_t absent = graph_->retain_present(c);
  BatchResult r;
  const std::vector<vertex_t> labels = labels_of(result_.component, c.keys);
  r.update = graph_->erase_canonical(c);
  r.update.ignored += absent;
  std::uint64_t size = 0;
  for (vertex_t l : labels) size += members_[l].size();
  if (static_cast<double>(size) >
      options_.recompute_fraction * static_cast<double>(result_.component.size())) {
    r.changed = recompute_counting();
    r.recomputed = true;
  } else {
    r.changed = split(labels);
  }
  return r;
}

DynamicComponents::VertexBatchResult DynamicComponents::erase_vertices(
    std::span<const vertex_t> ids) {
  grow();
  VertexBatchResult r;
  const std::vector<vertex_t> labels = labels_of(result_.component, graph_->incident_edges(ids));
  r.update = graph_->erase_vertices(ids);
  std::uint64_t size = 0;
  for (vertex_t l : labels) size += members_[l].size();
  if (static_cast<double>(size) >
      options_.recompute_fraction * static_cast<double>(result_.component.size())) {
    r.changed = recompute_counting();
    r.recomputed = true;
  } else {
    r.changed = split(labels);
  }
  return r;
}

}  // namespace wg::cpu
