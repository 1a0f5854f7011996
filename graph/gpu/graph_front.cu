// The store-independent host helpers of wg::gpu::DynamicGraph<S> (graph_front.cuh).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/graph/gpu/graph_front.hpp>

namespace wg::gpu::detail::front {

void sort_rows(Csr& csr, bool weighted) {
  std::vector<std::pair<vertex_t, std::uint32_t>> row;
  for (std::uint64_t u = 0; u < csr.num_vertices; ++u) {
    const std::uint64_t b = csr.offsets[u], e = csr.offsets[u + 1];
    if (e - b < 2) continue;
    if (!weighted) {
      std::sort(csr.targets.begin() + b, csr.targets.begin() + e);
      continue;
    }
    row.clear();
    for (std::uint64_t i = b; i < e; ++i) row.emplace_back(csr.targets[i], csr.values[i]);
    std::sort(row.begin(), row.end());
    for (std::uint64_t i = b; i < e; ++i) {
      csr.targets[i] = row[i - b].first;
      csr.values[i] = row[i - b].second;
    }
  }
}

EdgeList coo_of(const Csr& csr, bool symmetric, std::uint64_t edges, bool weighted) {
  EdgeList e;
  e.num_vertices = csr.num_vertices;
  e.symmetric = symmetric;
  e.reserve(edges, weighted);
  for (std::uint64_t u = 0; u < csr.num_vertices; ++u) {
    for (std::uint64_t i = csr.offsets[u]; i < csr.offsets[u + 1]; ++i) {
      const vertex_t v = csr.targets[i];
      if (symmetric && v < u) continue;
      e.src.push_back(static_cast<vertex_t>(u));
      e.dst.push_back(v);
      if (weighted) e.weight.push_back(csr.values[i]);
    }
  }
  return e;
}

EdgeList map_new_vertices(const EdgeList& edges, const std::vector<vertex_t>& ids,
                          std::uint64_t count, std::uint64_t num_vertices) {
  EdgeList mapped = edges;
  auto map_id = [&](vertex_t x) -> vertex_t {
    if (!(x & kNewVertexTag)) return x;
    const vertex_t i = x & ~kNewVertexTag;
    if (i >= count)
      throw InvalidArgument("insert_vertices: new_vertex(" + std::to_string(i) + ") but only " +
                            std::to_string(count) + " new vertices");
    return ids[i];
  };
  for (std::size_t i = 0; i < mapped.size(); ++i) {
    mapped.src[i] = map_id(mapped.src[i]);
    mapped.dst[i] = map_id(mapped.dst[i]);
  }
  mapped.num_vertices = num_vertices;
  return mapped;
}

}  // namespace wg::gpu::detail::front
