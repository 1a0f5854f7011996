// Static and incremental triangle counting on the CPU graph. See triangle_count.hpp.
#include <warpgraph/algorithms/dynamic_update.hpp>
#include <warpgraph/algorithms/tc/cpu/triangle_count.hpp>

#include <algorithm>
#include <atomic>
#include <numeric>
#include <string>
#include <utility>

#include <warpgraph/algorithms/tc/cpu/count_with_edges.hpp>
#include <warpgraph/algorithms/tc/cpu/detail/intersect.hpp>
#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/graph/cpu/parallel.hpp>
#include <warpgraph/graph/cpu/radix_sort.hpp>

namespace wg::cpu {

namespace {

void require_undirected(const DynamicGraph& g, const char* what) {
  if (g.directed()) {
    throw InvalidArgument(std::string("wg::cpu::") + what +
                          ": triangle counting needs an undirected graph");
  }
}

}  // namespace

TriangleCounts triangle_count(const Csr& csr, const TcOptions& options) {
  const unsigned threads = resolve_threads(options.threads);
  const std::uint64_t n = csr.num_vertices;
  auto degree = [&](vertex_t v) { return csr.offsets[v + 1] - csr.offsets[v]; };
  // v ranks above u when (deg v, v) > (deg u, u): orientation towards higher rank.
  auto above = [&](vertex_t u, vertex_t v) {
    const auto du = degree(u), dv = degree(v);
    return dv > du || (dv == du && v > u);
  };

  // Oriented snapshot: out(u) = neighbours ranked above u, still ascending by id.
  std::vector<std::uint64_t> offsets(n + 1, 0);
  parallel_for(n, threads, 4096, [&](std::size_t b, std::size_t e, unsigned) {
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
  parallel_for(n, threads, 4096, [&](std::size_t b, std::size_t e, unsigned) {
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
  // Per-vertex counts: each thread adds into an array of its own where threads x n counters
  // fit in 256 MiB (threads adding to the same vertices' counters would fight over their cache
  // lines), else into the shared one with relaxed atomics.
  const bool own_counts =
      options.per_vertex && threads > 1 && threads * n <= (std::size_t{32} << 20);
  std::vector<std::vector<std::uint64_t>> own(own_counts ? threads : 0);
  parallel_dynamic(n, threads, 64, [&](std::size_t ui, unsigned t) {
    const vertex_t u = vertex_t(ui);
    const auto lu = list(u);
    if (lu.size() < 2) return;
    std::uint64_t* mine = nullptr;
    if (own_counts) {
      if (own[t].empty()) own[t].assign(n, 0);
      mine = own[t].data();
    }
    const auto add = [&](vertex_t x, std::uint64_t k) {
      if (mine)
        mine[x] += k;
      else
        std::atomic_ref<std::uint64_t>(result.per_vertex[x])
            .fetch_add(k, std::memory_order_relaxed);
    };
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
        add(x, 1);
      };
      if (merge) {
        detail::intersect(lu, lw, hit);
      } else {
        for (vertex_t x : lw) {
          if (marked(x)) hit(x);
        }
      }
      if (at_w) add(w, at_w);
      found += at_w;
    }
    if (!merge) {
      for (vertex_t w : lu) mark[w >> 6] = 0;
    }
    if (options.per_vertex && found) add(u, found);
    partial[t] += found;
  });
  if (own_counts) {
    parallel_for(n, threads, std::size_t{1} << 14, [&](std::size_t b, std::size_t e, unsigned) {
      for (const auto& a : own)
        if (!a.empty())
          for (std::size_t i = b; i < e; ++i) result.per_vertex[i] += a[i];
    });
  }
  result.total = std::accumulate(partial.begin(), partial.end(), std::uint64_t{0});
  return result;
}

TriangleCounts triangle_count(const DynamicGraph& graph, const TcOptions& options) {
  require_undirected(graph, "triangle_count");
  TcOptions o = options;
  if (!o.threads) o.threads = graph.threads();
  return triangle_count(graph.export_csr(), o);
}

template std::uint64_t count_triangles_with_edges(const DynamicGraph&,
                                                  std::span<const std::uint64_t>, unsigned);

IncrementalTriangleCounter::IncrementalTriangleCounter(DynamicGraph& graph, unsigned threads)
    : DynamicFrame(graph), threads_(threads ? threads : graph.threads()) {
  require_undirected(graph, "IncrementalTriangleCounter");
  recount();
}

std::uint64_t IncrementalTriangleCounter::recount() {
  mark_current();
  TcOptions o;
  o.threads = threads_;
  total_ = triangle_count(*graph_, o).total;
  return total_;
}

BatchEffect IncrementalTriangleCounter::on_after_insert(std::span<const std::uint64_t> added) {
  const std::uint64_t created = count_triangles_with_edges(*graph_, added, threads_);
  total_ += created;
  return {created, false};
}

void IncrementalTriangleCounter::on_before_erase(std::span<const std::uint64_t> removed) {
  // Triangles are counted on the graph before the edges go.
  erasing_ = count_triangles_with_edges(*graph_, removed, threads_);
}

BatchEffect IncrementalTriangleCounter::on_after_erase(std::span<const std::uint64_t>) {
  total_ -= erasing_;
  return {std::exchange(erasing_, 0), false};
}

IncrementalTriangleCounter::BatchResult IncrementalTriangleCounter::insert_edges(
    const EdgeList& batch) {
  const auto r = DynamicFrame::insert_edges(batch);
  return {r.update, r.changed, total_};
}

IncrementalTriangleCounter::BatchResult IncrementalTriangleCounter::erase_edges(
    const EdgeList& batch) {
  const auto r = DynamicFrame::erase_edges(batch);
  return {r.update, r.changed, total_};
}

IncrementalTriangleCounter::VertexBatchResult IncrementalTriangleCounter::erase_vertices(
    std::span<const vertex_t> ids) {
  const auto r = DynamicFrame::erase_vertices(ids);
  return {r.update, r.changed, total_};
}

}  // namespace wg::cpu
