// Static and incremental triangle counting on the CPU graph. See triangle_count.hpp.
#include <warpgraph/algorithms/tc/cpu/triangle_count.hpp>

#include <algorithm>
#include <atomic>
#include <numeric>
#include <string>

#include <warpgraph/algorithms/tc/cpu/detail/intersect.hpp>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/graph/cpu/detail/parallel.hpp>
#include <warpgraph/graph/cpu/detail/radix_sort.hpp>

namespace wg::cpu {

namespace {

void require_undirected(const DynamicGraph& g, const char* what) {
  if (g.directed()) {
    throw InvalidArgument(std::string("wg::cpu::") + what +
                          ": triangle counting needs an undirected graph");
  }
}

constexpr std::uint64_t canonical(vertex_t a, vertex_t b) noexcept {
  return a < b ? arc_key(a, b) : arc_key(b, a);
}

}  // namespace

TriangleCounts triangle_count(const Csr& csr, const TcOptions& options) {
  const unsigned threads = detail::resolve_threads(options.threads);
  const std::uint64_t n = csr.num_vertices;
  auto degree = [&](vertex_t v) { return csr.offsets[v + 1] - csr.offsets[v]; };
  // v ranks above u when (deg v, v) > (deg u, u): orientation towards higher rank.
  auto above = [&](vertex_t u, vertex_t v) {
    const auto du = degree(u), dv = degree(v);
    return dv > du || (dv == du && v > u);
  };

  // Oriented snapshot: out(u) = neighbours ranked above u, still ascending by id.
  std::vector<std::uint64_t> offsets(n + 1, 0);
  detail::parallel_for(n, threads, 4096, [&](std::size_t b, std::size_t e, unsigned) {
    for (std::size_t u = b; u < e; ++u) {
      std::uint64_t c = 0;
      for (auto i = csr.offsets[u]; i < csr.offsets[u + 1]; ++i) {
        c += above(vertex_t(u), csr.targets[i]);
      }
      offsets[u + 1] = c;
    }
  });
  for (std::uint64_t u = 0; u < n; ++u) offsets[u + 1] += offsets[u];
  std::vector<vertex_t> out(offsets[n]);
  detail::parallel_for(n, threads, 4096, [&](std::size_t b, std::size_t e, unsigned) {
    for (std::size_t u = b; u < e; ++u) {
      std::uint64_t pos = offsets[u];
      for (auto i = csr.offsets[u]; i < csr.offsets[u + 1]; ++i) {
        if (above(vertex_t(u), csr.targets[i])) out[pos++] = csr.targets[i];
      }
    }
  });
  auto list = [&](vertex_t u) {
    return std::span<const vertex_t>(out.data() + offsets[u], offsets[u + 1] - offsets[u]);
  };

  // For each u: mark out(u) in a per-thread bitmap, then test every x of out(w), w in out(u):
  // |out(w)| bit tests per oriented edge (a merge would also walk out(u) each time).
  TriangleCounts result;
  std::vector<std::uint64_t> partial(threads, 0);
  if (options.per_vertex) result.per_vertex.assign(n, 0);
  const std::size_t words = (n + 63) / 64;
  std::vector<std::vector<std::uint64_t>> marks(threads);
  detail::parallel_dynamic(n, threads, 64, [&](std::size_t ui, unsigned t) {
    const vertex_t u = vertex_t(ui);
    const auto lu = list(u);
    if (lu.size() < 2) return;
    const bool merge = options.intersection == TcOptions::Intersection::merge;
    std::vector<std::uint64_t>& mark = marks[t];
    if (!merge) {
      if (mark.empty()) mark.assign(words, 0);
      for (vertex_t w : lu) mark[w >> 6] |= std::uint64_t{1} << (w & 63);
    }
    auto marked = [&](vertex_t x) { return (mark[x >> 6] >> (x & 63)) & 1; };
    std::uint64_t found = 0;
    for (vertex_t w : lu) {
      const auto lw = list(w);
      if (!options.per_vertex) {
        if (merge) {
          found += detail::intersection_size(lu, lw);
        } else {
          for (vertex_t x : lw) found += marked(x);
        }
        continue;
      }
      std::uint64_t at_w = 0;
      auto hit = [&](vertex_t x) {
        ++at_w;
        std::atomic_ref<std::uint64_t>(result.per_vertex[x])
            .fetch_add(1, std::memory_order_relaxed);
      };
      if (merge) {
        detail::intersect(lu, lw, hit);
      } else {
        for (vertex_t x : lw) {
          if (marked(x)) hit(x);
        }
      }
      if (at_w) {
        std::atomic_ref<std::uint64_t>(result.per_vertex[w])
            .fetch_add(at_w, std::memory_order_relaxed);
      }
      found += at_w;
    }
    if (!merge) {
      for (vertex_t w : lu) mark[w >> 6] = 0;
    }
    if (options.per_vertex && found) {
      std::atomic_ref<std::uint64_t>(result.per_vertex[u])
          .fetch_add(found, std::memory_order_relaxed);
    }
    partial[t] += found;
  });
  result.total = std::accumulate(partial.begin(), partial.end(), std::uint64_t{0});
  return result;
}

TriangleCounts triangle_count(const DynamicGraph& graph, const TcOptions& options) {
  require_undirected(graph, "triangle_count");
  TcOptions o = options;
  if (!o.threads) o.threads = graph.threads();
  return triangle_count(graph.export_csr(), o);
}

std::uint64_t count_triangles_with_edges(const DynamicGraph& graph,
                                         std::span<const std::uint64_t> keys, unsigned threads) {
  require_undirected(graph, "count_triangles_with_edges");
  if (keys.empty()) return 0;
  threads = threads ? threads : graph.threads();

  // The batch's endpoints and their full sorted neighbour lists, read once from the tree.
  std::vector<vertex_t> ends;
  ends.reserve(2 * keys.size());
  for (std::uint64_t k : keys) {
    ends.push_back(arc_source(k));
    ends.push_back(arc_target(k));
  }
  const unsigned bits = detail::id_bits(graph.num_vertices());
  detail::radix_sort(ends, bits, [](vertex_t v) { return std::uint64_t{v}; });
  ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
  std::vector<std::uint64_t> offsets(ends.size() + 1, 0);
  for (std::size_t i = 0; i < ends.size(); ++i) offsets[i + 1] = offsets[i] + graph.degree(ends[i]);
  std::vector<vertex_t> adj(offsets.back());
  detail::parallel_for(ends.size(), threads, 256, [&](std::size_t b, std::size_t e, unsigned) {
    for (std::size_t i = b; i < e; ++i) {
      std::uint64_t pos = offsets[i];
      const std::uint64_t end = offsets[i + 1];
      graph.for_each_neighbor(ends[i], [&](vertex_t w) {
        if (pos == end) return false;  // the degree array and the tree disagree: see below
        adj[pos++] = w;
        return true;
      });
      if (pos != end) {
        throw Error("wg::cpu::count_triangles_with_edges: degree of vertex " +
                    std::to_string(ends[i]) + " does not match its adjacency");
      }
    }
  });
  auto list = [&](vertex_t v) {
    const std::size_t i =
        static_cast<std::size_t>(std::lower_bound(ends.begin(), ends.end(), v) - ends.begin());
    return std::span<const vertex_t>(adj.data() + offsets[i], offsets[i + 1] - offsets[i]);
  };
  auto index_of = [&](vertex_t v) {
    return static_cast<std::size_t>(std::lower_bound(ends.begin(), ends.end(), v) - ends.begin());
  };
  // The batch itself as adjacency lists (sorted): "is {x, w} a batch edge" is a bit test for
  // the hub (marked below) and a search of the probe's (usually very short) batch list.
  std::vector<std::uint64_t> batch_offsets(ends.size() + 1, 0);
  std::vector<std::size_t> end_index(2 * keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    end_index[2 * i] = index_of(arc_source(keys[i]));
    end_index[2 * i + 1] = index_of(arc_target(keys[i]));
    ++batch_offsets[end_index[2 * i] + 1];
    ++batch_offsets[end_index[2 * i + 1] + 1];
  }
  for (std::size_t i = 0; i < ends.size(); ++i) batch_offsets[i + 1] += batch_offsets[i];
  std::vector<vertex_t> batch_adj(batch_offsets.back());
  {
    std::vector<std::uint64_t> fill(batch_offsets.begin(), batch_offsets.end() - 1);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      batch_adj[fill[end_index[2 * i]]++] = arc_target(keys[i]);
      batch_adj[fill[end_index[2 * i + 1]]++] = arc_source(keys[i]);
    }
  }
  detail::parallel_for(ends.size(), threads, 4096, [&](std::size_t b, std::size_t e, unsigned) {
    for (std::size_t i = b; i < e; ++i) {
      std::sort(batch_adj.begin() + batch_offsets[i], batch_adj.begin() + batch_offsets[i + 1]);
    }
  });
  auto batch_list = [&](vertex_t v) {
    const std::size_t i = index_of(v);
    return std::span<const vertex_t>(batch_adj.data() + batch_offsets[i],
                                     batch_offsets[i + 1] - batch_offsets[i]);
  };

  // Each batch edge {u, v} is examined from its endpoint of lower degree (the "probe") against
  // a bitmap of the other endpoint's (the "hub's") neighbours: deg(probe) bit tests instead of
  // a deg(u) + deg(v) merge. Edges are grouped by hub so a hub's list is marked once per group
  // (groups are capped so a hub with many batch edges still spreads over threads).
  struct Task {
    vertex_t hub, probe;
    std::uint64_t key;
  };
  std::vector<Task> tasks(keys.size());
  detail::parallel_for(keys.size(), threads, 16384, [&](std::size_t b, std::size_t e, unsigned) {
    for (std::size_t i = b; i < e; ++i) {
      const vertex_t u = arc_source(keys[i]), v = arc_target(keys[i]);
      const auto du = graph.degree(u), dv = graph.degree(v);
      const bool u_hub = du > dv || (du == dv && u > v);
      tasks[i] = {u_hub ? u : v, u_hub ? v : u, keys[i]};
    }
  });
  detail::radix_sort(tasks, 2 * bits,
                     [&](const Task& t) { return (std::uint64_t{t.hub} << bits) | t.probe; });
  constexpr std::size_t kMaxGroup = 256;
  std::vector<std::size_t> groups{0};
  for (std::size_t i = 1; i < tasks.size(); ++i) {
    if (tasks[i].hub != tasks[i - 1].hub || i - groups.back() >= kMaxGroup) groups.push_back(i);
  }
  groups.push_back(tasks.size());

  const std::size_t words = (graph.num_vertices() + 63) / 64;
  std::vector<std::vector<std::uint64_t>> marks(threads), batch_marks(threads);
  std::vector<std::uint64_t> partial(threads, 0);
  auto test = [](const std::vector<std::uint64_t>& bits, vertex_t w) {
    return (bits[w >> 6] >> (w & 63)) & 1;
  };
  detail::parallel_dynamic(groups.size() - 1, threads, 1, [&](std::size_t g, unsigned t) {
    std::vector<std::uint64_t>& mark = marks[t];
    std::vector<std::uint64_t>& batch_mark = batch_marks[t];
    if (mark.empty()) {
      mark.assign(words, 0);
      batch_mark.assign(words, 0);
    }
    const vertex_t u = tasks[groups[g]].hub;
    const auto hub_list = list(u);
    const auto hub_batch = batch_list(u);
    for (vertex_t w : hub_list) mark[w >> 6] |= std::uint64_t{1} << (w & 63);
    for (vertex_t w : hub_batch) batch_mark[w >> 6] |= std::uint64_t{1} << (w & 63);
    std::uint64_t found = 0;
    for (std::size_t i = groups[g]; i < groups[g + 1]; ++i) {
      const vertex_t v = tasks[i].probe;
      const std::uint64_t key = tasks[i].key;
      const auto probe_batch = batch_list(v);
      for (vertex_t w : list(v)) {
        if (!test(mark, w)) continue;
        // Count the triangle {u, v, w} here only if {u, v} is its smallest batch edge.
        if (canonical(u, w) < key && test(batch_mark, w)) continue;
        if (canonical(v, w) < key &&
            std::binary_search(probe_batch.begin(), probe_batch.end(), w)) {
          continue;
        }
        ++found;
      }
    }
    for (vertex_t w : hub_list) mark[w >> 6] = 0;
    for (vertex_t w : hub_batch) batch_mark[w >> 6] = 0;
    partial[t] += found;
  });
  return std::accumulate(partial.begin(), partial.end(), std::uint64_t{0});
}

IncrementalTriangleCounter::IncrementalTriangleCounter(DynamicGraph& graph, unsigned threads)
    : graph_(&graph), threads_(threads ? threads : graph.threads()) {
  require_undirected(graph, "IncrementalTriangleCounter");
  recount();
}

std::uint64_t IncrementalTriangleCounter::recount() {
  TcOptions o;
  o.threads = threads_;
  total_ = triangle_count(*graph_, o).total;
  return total_;
}

IncrementalTriangleCounter::BatchResult IncrementalTriangleCounter::insert_edges(
    const EdgeList& batch) {
  CanonicalBatch c = graph_->canonicalize(batch);
  const UpdateResult r = graph_->insert_canonical(c);  // c.keys: the edges that were added
  const std::uint64_t added = count_triangles_with_edges(*graph_, c.keys, threads_);
  total_ += added;
  return {r, added, total_};
}

IncrementalTriangleCounter::BatchResult IncrementalTriangleCounter::erase_edges(
    const EdgeList& batch) {
  CanonicalBatch c = graph_->canonicalize(batch);
  const std::uint64_t absent = graph_->retain_present(c);
  const std::uint64_t removed = count_triangles_with_edges(*graph_, c.keys, threads_);
  UpdateResult r = graph_->erase_canonical(c);
  r.ignored += absent;
  total_ -= removed;
  return {r, removed, total_};
}

IncrementalTriangleCounter::VertexBatchResult IncrementalTriangleCounter::erase_vertices(
    std::span<const vertex_t> ids) {
  const std::vector<std::uint64_t> incident = graph_->incident_edges(ids);
  const std::uint64_t removed = count_triangles_with_edges(*graph_, incident, threads_);
  const VertexEraseResult r = graph_->erase_vertices(ids);
  total_ -= removed;
  return {r, removed, total_};
}

}  // namespace wg::cpu
