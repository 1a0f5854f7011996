// wg::cpu::DynamicGraph: batch canonicalisation, multi-threaded application to the BS-tree,
// vertex management and export. See dynamic_graph.hpp for the semantics.
#include <warpgraph/graph/cpu/dynamic_graph.hpp>

#include <algorithm>
#include <atomic>
#include <limits>
#include <numeric>
#include <string>
#include <utility>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/graph/cpu/parallel.hpp>
#include <warpgraph/graph/cpu/radix_sort.hpp>

namespace wg::cpu {

namespace {

// Below these sizes a batch step runs on the calling thread (starting threads costs more).
constexpr std::size_t kTreeGrain = 4096;
constexpr std::size_t kScanGrain = 16384;

constexpr std::uint64_t reversed(std::uint64_t key) noexcept {
  return (key << 32) | (key >> 32);
}

void check_id(vertex_t v, const char* what) {
  if (v & kNewVertexTag) {
    throw InvalidArgument(std::string("wg::cpu::DynamicGraph::") + what + ": vertex id " +
                          std::to_string(v) + " is not below 2^31");
  }
}

/// Keeps the entries i of `keys` (and `weights`) with keep[i] != 0, in order; returns how many
/// were dropped. Sequential: one pass over the batch, negligible beside the tree work.
std::uint64_t compact(std::vector<std::uint64_t>& keys, std::vector<float>& weights,
                      const std::vector<std::uint8_t>& keep) {
  std::size_t out = 0;
  const bool w = !weights.empty();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (!keep[i]) continue;
    keys[out] = keys[i];
    if (w) weights[out] = weights[i];
    ++out;
  }
  const std::uint64_t dropped = keys.size() - out;
  keys.resize(out);
  if (w) weights.resize(out);
  return dropped;
}

/// Splits vertices [0, n) into `parts` ranges holding about the same number of arcs.
std::vector<std::uint64_t> balanced_vertex_bounds(const std::vector<std::uint32_t>& degree,
                                                  unsigned parts) {
  const std::uint64_t n = degree.size();
  std::uint64_t total = 0;
  for (auto d : degree) total += d + 1;  // +1: every vertex costs a little even when isolated
  std::vector<std::uint64_t> bounds{0};
  std::uint64_t acc = 0;
  for (std::uint64_t v = 0; v < n && bounds.size() < parts; ++v) {
    acc += degree[v] + 1;
    if (acc * parts >= total * bounds.size()) bounds.push_back(v + 1);
  }
  while (bounds.size() <= parts) bounds.push_back(n);
  bounds.back() = n;
  return bounds;
}

}  // namespace

DynamicGraph::DynamicGraph(std::uint64_t num_vertices, const GraphOptions& options)
    : DynamicGraph(options) {
  ensure_vertices(num_vertices);
}

DynamicGraph::DynamicGraph(const GraphOptions& options) : options_(options) {
  threads_ = resolve_threads(options.threads);
  // One batch thread: nothing ever writes the trees concurrently, so they can drop OLC.
  out_.reset(options_.weighted, threads_ == 1);
  if (options_.directed) in_.reset(options_.weighted, threads_ == 1);
}
DynamicGraph::DynamicGraph(DynamicGraph&&) noexcept = default;
DynamicGraph& DynamicGraph::operator=(DynamicGraph&&) noexcept = default;
DynamicGraph::~DynamicGraph() = default;

void DynamicGraph::set_threads(unsigned threads) {
  options_.threads = threads;
  threads_ = resolve_threads(threads);
  out_.set_single_writer(threads_ == 1);
  if (options_.directed) in_.set_single_writer(threads_ == 1);
}

std::uint32_t DynamicGraph::in_degree(vertex_t v) const noexcept {
  if (!options_.directed) return degree(v);
  return v < in_degree_.size() ? in_degree_[v] : 0;
}

void DynamicGraph::grow_to(std::uint64_t bound) {
  if (bound <= alive_.size()) return;
  live_vertices_ += bound - alive_.size();
  alive_.resize(bound, 1);
  degree_.resize(bound, 0);
  if (options_.directed) in_degree_.resize(bound, 0);
}

void DynamicGraph::ensure_vertices(std::uint64_t bound) {
  if (bound > kNewVertexTag) {
    throw CapacityError("wg::cpu::DynamicGraph vertex ids", kNewVertexTag,
                        "cannot hold " + std::to_string(bound) + " vertices");
  }
  grow_to(bound);
}

// ---- canonical form -------------------------------------------------------------------------

CanonicalBatch DynamicGraph::canonicalize(const EdgeList& batch) const {
  if (batch.dst.size() != batch.src.size() ||
      (batch.weighted() && batch.weight.size() != batch.src.size())) {
    throw InvalidArgument("wg::cpu::DynamicGraph: batch arrays have different lengths");
  }
  CanonicalBatch out;
  const std::size_t n = batch.size();
  out.entries = n;
  // One pass drops self-loops and finds the largest id (how many key bits the sort needs);
  // then a stable radix sort and a pass that keeps the last entry of each run.
  std::uint64_t bound = alive_.size();
  for (std::size_t i = 0; i < n; ++i) {
    bound = std::max<std::uint64_t>(bound, std::max(batch.src[i], batch.dst[i]) + 1ull);
  }
  const unsigned bits = id_bits(bound);
  const CompactArcKey compact_key{bits};
  if (!options_.weighted) {
    out.keys.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      const vertex_t u = batch.src[i], v = batch.dst[i];
      if (u != v) out.keys.push_back(canonical_key(u, v));
    }
    out.self_loops = n - out.keys.size();
    radix_sort(out.keys, 2 * bits, compact_key);
    out.keys.erase(std::unique(out.keys.begin(), out.keys.end()), out.keys.end());
  } else {
    // (key, entry index), sorted stably by key: the last entry of each edge ends its run.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> tagged;
    tagged.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      const vertex_t u = batch.src[i], v = batch.dst[i];
      if (u != v) tagged.emplace_back(canonical_key(u, v), i);
    }
    out.self_loops = n - tagged.size();
    radix_sort(tagged, 2 * bits, [&](const auto& x) { return compact_key(x.first); });
    const std::size_t m = tagged.size();
    out.keys.reserve(m);
    out.weights.reserve(m);
    for (std::size_t i = 0; i < m; ++i) {
      if (i + 1 < m && tagged[i + 1].first == tagged[i].first) continue;  // a later entry wins
      out.keys.push_back(tagged[i].first);
      out.weights.push_back(batch.weighted() ? static_cast<float>(batch.weight[tagged[i].second])
                                             : 1.0f);
    }
  }
  out.duplicates = n - out.self_loops - out.keys.size();
  return out;
}

// ---- applying arcs --------------------------------------------------------------------------

void DynamicGraph::apply_arcs(std::span<const std::uint64_t> keys, std::span<const float> weights,
                              bool insert) {
  // The second arc of every edge: (v, u) in the same tree for undirected graphs, in the
  // transpose tree for directed ones. Sorted so each thread walks a contiguous key range.
  std::vector<std::pair<std::uint64_t, float>> second(keys.size());
  parallel_for(keys.size(), threads_, kScanGrain, [&](std::size_t b, std::size_t e, unsigned) {
    for (std::size_t i = b; i < e; ++i) {
      second[i] = {reversed(keys[i]), weights.empty() ? 1.0f : weights[i]};
    }
  });
  const CompactArcKey compact_key{id_bits(alive_.size())};
  radix_sort(second, 2 * compact_key.bits, [&](const auto& x) { return compact_key(x.first); });
  detail::ArcStore& second_store = options_.directed ? in_ : out_;
  std::vector<std::uint32_t>& second_degree = options_.directed ? in_degree_ : degree_;
  parallel_for(second.size(), threads_, kTreeGrain, [&](std::size_t b, std::size_t e, unsigned) {
    for (std::size_t i = b; i < e; ++i) {
      const std::uint64_t k = second[i].first;
      std::atomic_ref<std::uint32_t> d(second_degree[arc_source(k)]);
      if (insert) {
        second_store.insert(k, second[i].second);
        d.fetch_add(1, std::memory_order_relaxed);
      } else {
        second_store.erase(k);
        d.fetch_sub(1, std::memory_order_relaxed);
      }
    }
  });
}

UpdateResult DynamicGraph::insert_canonical(CanonicalBatch& batch) {
  ++version_;
  UpdateResult r;
  r.self_loops = batch.self_loops;
  r.duplicates = batch.duplicates;
  const bool w = !batch.weights.empty();
  if (options_.weighted && !w) batch.weights.assign(batch.keys.size(), 1.0f);
  if (!options_.weighted) batch.weights.clear();

  // Room in the trees' reservations for every arc this batch may add (see ArcStore).
  out_.reserve_inserts(options_.directed ? batch.keys.size() : 2 * batch.keys.size());
  if (options_.directed) in_.reserve_inserts(batch.keys.size());
  // First arcs: insert (insert-or-assign on weighted graphs); added[i] says the edge is new.
  std::vector<std::uint8_t> added(batch.keys.size(), 0);
  std::vector<std::uint8_t> present_weighted(options_.weighted ? batch.keys.size() : 0, 0);
  parallel_for(batch.keys.size(), threads_, kTreeGrain,
               [&](std::size_t b, std::size_t e, unsigned) {
                 for (std::size_t i = b; i < e; ++i) {
                   const std::uint64_t k = batch.keys[i];
                   if (!is_vertex(arc_source(k)) || !is_vertex(arc_target(k))) continue;
                   const float wt = options_.weighted ? batch.weights[i] : 1.0f;
                   if (out_.insert(k, wt)) {
                     added[i] = 1;
                     std::atomic_ref<std::uint32_t>(degree_[arc_source(k)])
                         .fetch_add(1, std::memory_order_relaxed);
                   } else if (options_.weighted) {
                     present_weighted[i] = 1;
                   }
                 }
               });
  // Weighted graphs: the second arc of an edge that was present takes the new weight too.
  if (options_.weighted) {
    detail::ArcStore& second_store = options_.directed ? in_ : out_;
    for (std::size_t i = 0; i < batch.keys.size(); ++i) {
      if (present_weighted[i]) second_store.insert(reversed(batch.keys[i]), batch.weights[i]);
    }
  }
  r.ignored = compact(batch.keys, batch.weights, added);
  r.applied = batch.keys.size();
  apply_arcs(batch.keys, batch.weights, /*insert=*/true);
  num_arcs_ += 2 * r.applied - (options_.directed ? r.applied : 0);
  return r;
}

std::uint64_t DynamicGraph::retain_present(CanonicalBatch& batch) const {
  std::vector<std::uint8_t> present(batch.keys.size(), 0);
  parallel_for(
      batch.keys.size(), threads_, kTreeGrain, [&](std::size_t b, std::size_t e, unsigned) {
        for (std::size_t i = b; i < e; ++i) {
          const std::uint64_t k = batch.keys[i];
          present[i] =
              arc_source(k) < alive_.size() && arc_target(k) < alive_.size() && out_.contains(k);
        }
      });
  return compact(batch.keys, batch.weights, present);
}

UpdateResult DynamicGraph::erase_canonical(CanonicalBatch& batch) {
  ++version_;
  UpdateResult r;
  r.self_loops = batch.self_loops;
  r.duplicates = batch.duplicates;
  std::vector<std::uint8_t> removed(batch.keys.size(), 0);
  parallel_for(batch.keys.size(), threads_, kTreeGrain,
               [&](std::size_t b, std::size_t e, unsigned) {
                 for (std::size_t i = b; i < e; ++i) {
                   const std::uint64_t k = batch.keys[i];
                   if (arc_source(k) >= alive_.size() || arc_target(k) >= alive_.size()) {
                     continue;
                   }
                   if (out_.erase(k)) {
                     removed[i] = 1;
                     std::atomic_ref<std::uint32_t>(degree_[arc_source(k)])
                         .fetch_sub(1, std::memory_order_relaxed);
                   }
                 }
               });
  r.ignored = compact(batch.keys, batch.weights, removed);
  r.applied = batch.keys.size();
  apply_arcs(batch.keys, {}, /*insert=*/false);
  num_arcs_ -= 2 * r.applied - (options_.directed ? r.applied : 0);
  return r;
}

// ---- public batch operations ----------------------------------------------------------------

UpdateResult DynamicGraph::build(const EdgeList& edges) {
  ++version_;
  std::uint64_t bound = edges.num_vertices;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    check_id(edges.src[i], "build");
    check_id(edges.dst[i], "build");
    bound = std::max<std::uint64_t>(bound, std::max(edges.src[i], edges.dst[i]) + 1ull);
  }
  out_.reset(options_.weighted);
  if (options_.directed) in_.reset(options_.weighted);
  alive_.assign(bound, 1);
  degree_.assign(bound, 0);
  in_degree_.assign(options_.directed ? bound : 0, 0);
  free_ids_.clear();
  live_vertices_ = bound;

  CanonicalBatch batch = canonicalize(edges);
  UpdateResult r;
  r.applied = batch.keys.size();
  r.self_loops = batch.self_loops;
  r.duplicates = batch.duplicates;
  const bool w = options_.weighted;

  // All arcs sorted: for undirected graphs the keys with their reverses; for directed graphs
  // the keys, and the reverses for the transpose tree. Unweighted graphs sort bare keys.
  const CompactArcKey compact_key{id_bits(bound)};
  auto count_degrees = [&](const std::vector<std::uint64_t>& arcs, std::vector<std::uint32_t>& d) {
    for (std::uint64_t k : arcs) ++d[arc_source(k)];
  };
  const std::size_t m = batch.keys.size();
  if (!w) {
    std::vector<std::uint64_t> rev(m);
    for (std::size_t i = 0; i < m; ++i) rev[i] = reversed(batch.keys[i]);
    if (options_.directed) {
      radix_sort(rev, 2 * compact_key.bits, compact_key);
      count_degrees(batch.keys, degree_);
      count_degrees(rev, in_degree_);
      out_.bulk_load(batch.keys.data(), nullptr, m);
      in_.bulk_load(rev.data(), nullptr, m);
      num_arcs_ = m;
    } else {
      rev.insert(rev.end(), batch.keys.begin(), batch.keys.end());
      radix_sort(rev, 2 * compact_key.bits, compact_key);
      count_degrees(rev, degree_);
      out_.bulk_load(rev.data(), nullptr, rev.size());
      num_arcs_ = rev.size();
    }
    return r;
  }
  std::vector<std::pair<std::uint64_t, float>> arcs(m);
  for (std::size_t i = 0; i < m; ++i) arcs[i] = {reversed(batch.keys[i]), batch.weights[i]};
  if (!options_.directed) {
    for (std::size_t i = 0; i < m; ++i) arcs.emplace_back(batch.keys[i], batch.weights[i]);
  }
  radix_sort(arcs, 2 * compact_key.bits, [&](const auto& x) { return compact_key(x.first); });
  std::vector<std::uint64_t> keys(arcs.size());
  std::vector<float> weights(arcs.size());
  for (std::size_t i = 0; i < arcs.size(); ++i) {
    keys[i] = arcs[i].first;
    weights[i] = arcs[i].second;
  }
  if (options_.directed) {
    count_degrees(batch.keys, degree_);
    count_degrees(keys, in_degree_);
    out_.bulk_load(batch.keys.data(), batch.weights.data(), m);
    in_.bulk_load(keys.data(), weights.data(), m);
    num_arcs_ = m;
  } else {
    count_degrees(keys, degree_);
    out_.bulk_load(keys.data(), weights.data(), keys.size());
    num_arcs_ = keys.size();
  }
  return r;
}

UpdateResult DynamicGraph::insert_edges(const EdgeList& batch) {
  CanonicalBatch c = canonicalize(batch);
  return insert_canonical(c);
}

UpdateResult DynamicGraph::erase_edges(const EdgeList& batch) {
  CanonicalBatch c = canonicalize(batch);
  return erase_canonical(c);
}

std::vector<vertex_t> DynamicGraph::insert_vertices(std::uint64_t count) {
  std::vector<vertex_t> ids;
  ids.reserve(count);
  while (ids.size() < count && !free_ids_.empty()) {
    const vertex_t v = free_ids_.front();
    free_ids_.pop_front();
    alive_[v] = 1;
    ++live_vertices_;
    ids.push_back(v);
  }
  const std::uint64_t first_new = alive_.size();
  const std::uint64_t fresh = count - ids.size();
  if (first_new + fresh > kNewVertexTag) {
    throw CapacityError("wg::cpu::DynamicGraph vertex ids", kNewVertexTag,
                        "cannot add " + std::to_string(fresh) + " vertices");
  }
  grow_to(first_new + fresh);
  for (std::uint64_t i = 0; i < fresh; ++i) ids.push_back(static_cast<vertex_t>(first_new + i));
  return ids;
}

VertexInsertResult DynamicGraph::insert_vertices(std::uint64_t count, const EdgeList& edges) {
  VertexInsertResult r;
  // Check the placeholders before any vertex is added, so a bad batch changes nothing.
  auto translate_check = [&](vertex_t v) {
    if ((v & kNewVertexTag) && (v & ~kNewVertexTag) >= count) {
      throw InvalidArgument("wg::cpu::DynamicGraph::insert_vertices: new_vertex(" +
                            std::to_string(v & ~kNewVertexTag) + ") but only " +
                            std::to_string(count) + " vertices are inserted");
    }
  };
  for (std::size_t i = 0; i < edges.size(); ++i) {
    translate_check(edges.src[i]);
    translate_check(edges.dst[i]);
  }
  r.ids = insert_vertices(count);
  EdgeList translated = edges;
  auto translate = [&](vertex_t v) { return (v & kNewVertexTag) ? r.ids[v & ~kNewVertexTag] : v; };
  for (std::size_t i = 0; i < translated.size(); ++i) {
    translated.src[i] = translate(translated.src[i]);
    translated.dst[i] = translate(translated.dst[i]);
  }
  r.edges = insert_edges(translated);
  return r;
}

std::vector<std::uint64_t> DynamicGraph::incident_edges(std::span<const vertex_t> ids) const {
  std::vector<vertex_t> live;
  for (vertex_t v : ids) {
    if (is_vertex(v)) live.push_back(v);
  }
  std::vector<std::vector<std::uint64_t>> parts(threads_);
  parallel_for(live.size(), threads_, 64, [&](std::size_t b, std::size_t e, unsigned t) {
    auto& out = parts[t];
    for (std::size_t i = b; i < e; ++i) {
      const vertex_t v = live[i];
      for_each_neighbor(v, [&](vertex_t w) { out.push_back(canonical_key(v, w)); });
      if (options_.directed) {
        for_each_in_neighbor(v, [&](vertex_t w) { out.push_back(arc_key(w, v)); });
      }
    }
  });
  std::vector<std::uint64_t> keys;
  for (auto& p : parts) keys.insert(keys.end(), p.begin(), p.end());
  const CompactArcKey compact_key{id_bits(alive_.size())};
  radix_sort(keys, 2 * compact_key.bits, compact_key);
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

VertexEraseResult DynamicGraph::erase_vertices(std::span<const vertex_t> ids) {
  ++version_;
  VertexEraseResult r;
  std::vector<vertex_t> sorted(ids.begin(), ids.end());
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::vector<vertex_t> live;
  for (vertex_t v : sorted) {
    if (is_vertex(v)) live.push_back(v);
  }
  r.vertices = live.size();
  r.ignored_ids = ids.size() - live.size();
  CanonicalBatch batch;
  batch.keys = incident_edges(live);
  batch.entries = batch.keys.size();
  const UpdateResult removed = erase_canonical(batch);
  r.edges_removed = removed.applied;
  for (vertex_t v : live) {
    alive_[v] = 0;
    free_ids_.push_back(v);
  }
  live_vertices_ -= live.size();
  return r;
}

// ---- queries --------------------------------------------------------------------------------

bool DynamicGraph::has_edge(vertex_t u, vertex_t v) const {
  if (u == v || u >= alive_.size() || v >= alive_.size()) return false;
  return out_.contains(arc_key(u, v));
}

std::optional<float> DynamicGraph::edge_weight(vertex_t u, vertex_t v) const {
  if (u == v || u >= alive_.size() || v >= alive_.size()) return std::nullopt;
  return out_.find(arc_key(u, v));
}

std::vector<std::uint8_t> DynamicGraph::has_edges(const EdgeList& queries) const {
  if (queries.dst.size() != queries.src.size()) {
    throw InvalidArgument("wg::cpu::DynamicGraph::has_edges: src and dst differ in length");
  }
  std::vector<std::uint8_t> found(queries.size(), 0);
  parallel_for(queries.size(), threads_, kTreeGrain, [&](std::size_t b, std::size_t e, unsigned) {
    for (std::size_t i = b; i < e; ++i) {
      found[i] = has_edge(queries.src[i], queries.dst[i]);
    }
  });
  return found;
}

void DynamicGraph::neighbors(vertex_t u, std::vector<vertex_t>& out) const {
  out.reserve(out.size() + degree(u));
  for_each_neighbor(u, [&](vertex_t v) { out.push_back(v); });
}

EdgeList DynamicGraph::export_coo() const {
  const unsigned parts = static_cast<unsigned>(
      std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads_, num_arcs_ / kScanGrain)));
  const std::vector<std::uint64_t> bounds = balanced_vertex_bounds(degree_, parts);
  std::vector<EdgeList> pieces(parts);
  const bool w = options_.weighted;
  parallel_chunks(parts, parts, [&](std::size_t b, std::size_t e, unsigned) {
    for (std::size_t p = b; p < e; ++p) {
      EdgeList& piece = pieces[p];
      out_.scan(bounds[p] << 32, bounds[p + 1] << 32, [&](std::uint64_t k, float wt) {
        const vertex_t u = arc_source(k), v = arc_target(k);
        if (options_.directed || u < v) {
          piece.src.push_back(u);
          piece.dst.push_back(v);
          if (w) piece.weight.push_back(wt);
        }
        return true;
      });
    }
  });
  EdgeList out;
  out.num_vertices = num_vertices();
  out.symmetric = !options_.directed;
  out.reserve(num_edges(), w);
  for (auto& p : pieces) {
    out.src.insert(out.src.end(), p.src.begin(), p.src.end());
    out.dst.insert(out.dst.end(), p.dst.begin(), p.dst.end());
    out.weight.insert(out.weight.end(), p.weight.begin(), p.weight.end());
  }
  return out;
}

Csr DynamicGraph::export_csr() const {
  Csr csr;
  const std::uint64_t n = num_vertices();
  csr.num_vertices = n;
  csr.offsets.resize(n + 1);
  csr.offsets[0] = 0;
  for (std::uint64_t v = 0; v < n; ++v) csr.offsets[v + 1] = csr.offsets[v] + degree_[v];
  csr.targets.resize(csr.offsets[n]);
  const bool w = options_.weighted;
  if (w) csr.values.resize(csr.offsets[n]);
  const unsigned parts = static_cast<unsigned>(
      std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads_, num_arcs_ / kScanGrain)));
  const std::vector<std::uint64_t> bounds = balanced_vertex_bounds(degree_, parts);
  parallel_chunks(parts, parts, [&](std::size_t b, std::size_t e, unsigned) {
    for (std::size_t p = b; p < e; ++p) {
      std::uint64_t pos = csr.offsets[bounds[p]];
      out_.scan(bounds[p] << 32, bounds[p + 1] << 32, [&](std::uint64_t k, float wt) {
        csr.targets[pos] = arc_target(k);
        if (w) csr.values[pos] = wt;
        ++pos;
        return true;
      });
    }
  });
  return csr;
}

std::uint64_t DynamicGraph::memory_bytes() const {
  return out_.memory_bytes() + in_.memory_bytes() +
         (degree_.capacity() + in_degree_.capacity()) * sizeof(std::uint32_t) + alive_.capacity() +
         free_ids_.size() * sizeof(vertex_t);
}

}  // namespace wg::cpu
