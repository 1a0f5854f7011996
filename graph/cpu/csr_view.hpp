#pragma once
// wg::cpu::CsrView: the host reads of graph/graph_concepts.hpp (HostGraphView) over a sorted CSR
// snapshot (wg::cpu::Csr, from DynamicGraph::export_csr), for algorithms that walk every
// adjacency list, where a contiguous array beats a tree descent per vertex. Does not own the
// CSR; every id below num_vertices is live (the snapshot does not know erased ids, which have
// no arcs). for_each_neighbor O(degree), has_edge O(log degree), degree O(1).
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include <warpgraph/graph/cpu/dynamic_graph.hpp>
#include <warpgraph/graph/graph_concepts.hpp>

namespace wg::cpu {

class CsrView {
 public:
  CsrView(const Csr& csr, bool directed) : csr_(&csr), directed_(directed) {}

  bool directed() const noexcept { return directed_; }
  std::uint64_t num_vertices() const noexcept { return csr_->num_vertices; }
  std::uint32_t degree(vertex_t v) const noexcept {
    return v < csr_->num_vertices
               ? static_cast<std::uint32_t>(csr_->offsets[v + 1] - csr_->offsets[v])
               : 0;
  }
  bool is_live(vertex_t v) const noexcept { return v < csr_->num_vertices; }
  bool has_edge(vertex_t u, vertex_t v) const noexcept {
    if (u >= csr_->num_vertices) return false;
    const auto first = csr_->targets.begin() + static_cast<std::ptrdiff_t>(csr_->offsets[u]);
    const auto last = csr_->targets.begin() + static_cast<std::ptrdiff_t>(csr_->offsets[u + 1]);
    return std::binary_search(first, last, v);
  }
  /// f(w) for each out-neighbour w of v, ascending; f may return bool (false stops).
  template <class F>
  void for_each_neighbor(vertex_t v, F&& f) const {
    if (v >= csr_->num_vertices) return;
    for (auto i = csr_->offsets[v]; i < csr_->offsets[v + 1]; ++i) {
      const vertex_t w = csr_->targets[i];
      if constexpr (std::is_void_v<decltype(f(w))>) {
        f(w);
      } else if (!f(w)) {
        return;
      }
    }
  }

 private:
  const Csr* csr_;
  bool directed_;
};

static_assert(wg::HostGraphView<CsrView>, "CsrView models HostGraphView");

}  // namespace wg::cpu
