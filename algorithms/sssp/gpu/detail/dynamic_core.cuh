#pragma once
// The dynamic core shared by DynamicSssp and DynamicBfs (sssp.hpp, bfs.hpp): batches applied
// through the graph's prepared-batch calls, then the repair (rounds.cuh).
#include <cuda/atomic>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <warpgraph/algorithms/dynamic_update.hpp>
#include <warpgraph/algorithms/gpu_dynamic_update.cuh>
#include <warpgraph/algorithms/sssp/gpu/detail/rounds.cuh>
#include <warpgraph/graph/gpu/batch_chunks.hpp>
#include <warpgraph/graph/gpu/dynamic_graph.hpp>

namespace wg::gpu::sp {

__global__ inline void decode_keys_kernel(const std::uint64_t* keys, std::uint64_t m,
                                          unsigned key_bits, vertex_t* src, vertex_t* dst) {
  const std::uint64_t mask = (std::uint64_t{1} << key_bits) - 1;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    src[i] = static_cast<vertex_t>(keys[i] >> key_bits);
    dst[i] = static_cast<vertex_t>(keys[i] & mask);
  }
}

/// The dynamic core shared by DynamicSssp and DynamicBfs: applies batches through `graph` and
/// keeps st exact. `recompute()` refills st from scratch (static SSSP or BFS).
template <class Graph>
struct DynamicCore {
  Graph& graph;
  ShortestPathState& st;
  vertex_t source;
  bool& source_live;
  bool unit;
  double recompute_fraction;
  double recompute_batch_fraction;

  cudaStream_t stream() const { return graph.stream(); }
  std::uint64_t budget() const {
    return static_cast<std::uint64_t>(recompute_fraction * static_cast<double>(st.n));
  }

  template <class Recompute>
  DynamicUpdate<UpdateResult> insert(DeviceEdges batch, Recompute&& recompute) {
    DynamicUpdate<UpdateResult> out;
    const std::uint64_t n0 = graph.num_vertices();
    ensure_size(st, n0, stream());
    take_snapshot(st, n0, stream());
    bool redo = false;
    for_each_chunk(batch, graph.batch_chunk(batch.size), true, [&](DeviceEdges part) {
      const PreparedBatch p = graph.prepare(part);
      const bool big = static_cast<double>(p.size) >
                       recompute_batch_fraction *
                           static_cast<double>(std::max<std::uint64_t>(graph.num_edges(), 1));
      redo = redo || big || !source_live;
      // Weighted lengths: which edges got longer (their tree arcs must be repaired).
      // The lengths are read back from the graph (before and after), so whatever value rule it
      // applies (the last entry, none for a valueless batch) is the one the search uses.
      const bool lengths = Graph::ref_type::weighted && !unit && !redo && p.size;
      BatchLengths len;
      if (lengths) lengths_before(p, len);
      out.update += graph.insert_prepared(p);
      if (redo || p.size == 0) return;
      const auto g = graph.ref();
      ensure_size(st, graph.num_vertices(), stream());
      if (lengths) {
        lengths_after(p, len);
        zero_counter(st, kAffected, stream());
        seed_tree_arcs_kernel<<<grid_for(p.size), kBlock, 0, stream()>>>(
            p.keys.data(), len.longer.data(), p.size, p.key_bits, st.n, graph.directed(),
            st.keys.data(), st.mark.data(), st.affected.data(), st.counters.data());
        WG_CUDA_CHECK_LAST();
        const std::uint64_t affected =
            graph.directed() ? affected_count() : expand_affected(g, st, budget(), stream());
        if (affected == ~std::uint64_t{0} || (graph.directed() && affected)) {
          if (graph.directed()) {
            st.mark.fill_bytes(0, stream());
            zero_counter(st, kAffected, stream());
          }
          redo = true;
          return;
        }
        repair_affected(g, st, affected, unit, stream());
      }
      const std::uint32_t round = begin_round(st, stream());
      zero_counter(st, kOverflow, stream());
      seed_arcs_kernel<<<grid_for(p.size), kBlock, 0, stream()>>>(
          p.keys.data(), lengths ? len.now.data() : nullptr, p.size, p.key_bits, st.n,
          graph.directed(), !lengths, st.keys.data(), st.queue.data(), st.counters.data(),
          st.stamp.data(), round);
      WG_CUDA_CHECK_LAST();
      unsigned long long c[kNumCounters];
      read_counters(st, c, stream());
      check_overflow(c);
      relax_rounds(g, st, c[kQueued], unit, stream());
    });
    if (redo) recompute();
    out.recomputed = redo;
    out.changed = count_changed_since_snapshot(st, n0, stream());
    return out;
  }

  template <class Recompute>
  DynamicUpdate<UpdateResult> erase(DeviceEdges batch, Recompute&& recompute) {
    DynamicUpdate<UpdateResult> out;
    const std::uint64_t n0 = graph.num_vertices();
    ensure_size(st, n0, stream());
    take_snapshot(st, n0, stream());
    bool redo = false;
    for_each_chunk(batch, graph.batch_chunk(batch.size), false, [&](DeviceEdges part) {
      const PreparedBatch p = graph.prepare(part);
      if (p.size == 0) {
        out.update += p.dropped;
        return;
      }
      if (redo || !source_live) {
        out.update += graph.erase_prepared(p);
        return;
      }
      zero_counter(st, kAffected, stream());
      seed_tree_arcs_kernel<<<grid_for(p.size), kBlock, 0, stream()>>>(
          p.keys.data(), nullptr, p.size, p.key_bits, st.n, graph.directed(), st.keys.data(),
          st.mark.data(), st.affected.data(), st.counters.data());
      WG_CUDA_CHECK_LAST();
      out.update += graph.erase_prepared(p);
      const auto g = graph.ref();
      const std::uint64_t affected =
          graph.directed() ? affected_count() : expand_affected(g, st, budget(), stream());
      if (affected == ~std::uint64_t{0} || (graph.directed() && affected)) {
        if (graph.directed()) {
          st.mark.fill_bytes(0, stream());
          zero_counter(st, kAffected, stream());
        }
        redo = true;
        return;
      }
      repair_affected(g, st, affected, unit, stream());
    });
    if (redo) recompute();
    out.recomputed = redo;
    out.changed = count_changed_since_snapshot(st, n0, stream());
    return out;
  }

  template <class Recompute>
  DynamicUpdate<VertexEraseResult> erase_vertices(std::span<const vertex_t> ids,
                                                  Recompute&& recompute) {
    DynamicUpdate<VertexEraseResult> out;
    const std::uint64_t n0 = graph.num_vertices();
    ensure_size(st, n0, stream());
    take_snapshot(st, n0, stream());
    const std::vector<vertex_t> list(ids.begin(), ids.end());
    const bool source_erased =
        source_live && std::find(list.begin(), list.end(), source) != list.end();
    std::uint64_t affected = 0;
    bool redo = false;
    if (source_live && !source_erased && !list.empty()) {
      DeviceBuffer<vertex_t> d = DeviceBuffer<vertex_t>::from_host(list, stream());
      zero_counter(st, kAffected, stream());
      seed_vertices_kernel<<<grid_for(list.size()), kBlock, 0, stream()>>>(
          d.data(), list.size(), st.n, st.keys.data(), st.mark.data(), st.affected.data(),
          st.counters.data());
      WG_CUDA_CHECK_LAST();
      // The subtrees are walked before the erasure: the erased vertices' arcs are still there.
      affected = expand_affected(graph.ref(), st, budget(), stream());
      redo = affected == ~std::uint64_t{0};
    }
    out.update = graph.erase_vertices(list);
    if (source_erased) {
      source_live = false;
      fill_keys_kernel<<<grid_for(st.n), kBlock, 0, stream()>>>(st.keys.data(), 0, st.n);
      WG_CUDA_CHECK_LAST();
    } else if (redo || (graph.directed() && affected)) {
      if (graph.directed() && !redo) {
        st.mark.fill_bytes(0, stream());
        zero_counter(st, kAffected, stream());
      }
      recompute();
      out.recomputed = true;
    } else if (affected) {
      repair_affected(graph.ref(), st, affected, unit, stream());
    }
    out.changed = count_changed_since_snapshot(st, n0, stream());
    return out;
  }

  // ---- the GpuEdgeBatchObserver calls (the graph applies the batch; only new edges listed) --

  /// After `added` went in: propagates from their endpoints (their lengths read back from the
  /// graph). Weight changes of edges already present are not listed, so a weighted batch that
  /// may change them goes through insert() instead.
  template <class Recompute>
  BatchEffect after_insert(const ChangedEdges& added, Recompute&& recompute) {
    BatchEffect out;
    const std::uint64_t n0 = graph.num_vertices();
    ensure_size(st, n0, stream());
    take_snapshot(st, n0, stream());
    const std::uint64_t before =
        graph.num_edges() > added.size ? graph.num_edges() - added.size : 0;
    const bool big =
        static_cast<double>(added.size) >
        recompute_batch_fraction * static_cast<double>(std::max<std::uint64_t>(before, 1));
    const bool redo = big || !source_live;
    if (!redo && added.size) {
      const bool lengths = Graph::ref_type::weighted && !unit;
      DeviceBuffer<vertex_t> src, dst;
      DeviceBuffer<std::uint32_t> len;
      DeviceBuffer<std::uint8_t> found;
      if (lengths) {
        src = DeviceBuffer<vertex_t>(added.size, stream(), "sssp batch");
        dst = DeviceBuffer<vertex_t>(added.size, stream(), "sssp batch");
        len = DeviceBuffer<std::uint32_t>(added.size, stream(), "sssp lengths");
        found = DeviceBuffer<std::uint8_t>(added.size, stream(), "sssp found");
        decode_keys_kernel<<<grid_for(added.size), kBlock, 0, stream()>>>(
            added.keys, added.size, added.key_bits, src.data(), dst.data());
        WG_CUDA_CHECK_LAST();
        // Every listed edge is present: found is all ones.
        graph.find_values(DeviceEdges{.src = src.data(), .dst = dst.data(), .size = added.size},
                          len.data(), found.data());
      }
      const std::uint32_t round = begin_round(st, stream());
      zero_counter(st, kOverflow, stream());
      seed_arcs_kernel<<<grid_for(added.size), kBlock, 0, stream()>>>(
          added.keys, lengths ? len.data() : nullptr, added.size, added.key_bits, st.n,
          graph.directed(), !lengths, st.keys.data(), st.queue.data(), st.counters.data(),
          st.stamp.data(), round);
      WG_CUDA_CHECK_LAST();
      unsigned long long c[kNumCounters];
      read_counters(st, c, stream());
      check_overflow(c);
      relax_rounds(graph.ref(), st, c[kQueued], unit, stream());
    }
    if (redo) recompute();
    out.recomputed = redo;
    out.changed = count_changed_since_snapshot(st, n0, stream());
    return out;
  }

  /// Before `removed` goes: snapshots the result and marks the tree arcs among the edges.
  /// `n0` and `seeded` carry the state to after_erase.
  void before_erase(const ChangedEdges& removed, std::uint64_t& n0, bool& seeded) {
    n0 = graph.num_vertices();
    ensure_size(st, n0, stream());
    take_snapshot(st, n0, stream());
    seeded = source_live && removed.size;
    if (!seeded) return;
    zero_counter(st, kAffected, stream());
    seed_tree_arcs_kernel<<<grid_for(removed.size), kBlock, 0, stream()>>>(
        removed.keys, nullptr, removed.size, removed.key_bits, st.n, graph.directed(),
        st.keys.data(), st.mark.data(), st.affected.data(), st.counters.data());
    WG_CUDA_CHECK_LAST();
  }

  /// After the edges went: repairs the subtrees below the removed tree arcs (or recomputes).
  template <class Recompute>
  BatchEffect after_erase(std::uint64_t n0, bool seeded, Recompute&& recompute) {
    BatchEffect out;
    bool redo = false;
    if (seeded) {
      const auto g = graph.ref();
      const std::uint64_t affected =
          graph.directed() ? affected_count() : expand_affected(g, st, budget(), stream());
      if (affected == ~std::uint64_t{0} || (graph.directed() && affected)) {
        if (graph.directed()) {
          st.mark.fill_bytes(0, stream());
          zero_counter(st, kAffected, stream());
        }
        redo = true;
      } else {
        repair_affected(g, st, affected, unit, stream());
      }
    }
    if (redo) recompute();
    out.recomputed = redo;
    out.changed = count_changed_since_snapshot(st, n0, stream());
    return out;
  }

  std::uint64_t affected_count() {
    unsigned long long c[kNumCounters];
    read_counters(st, c, stream());
    return c[kAffected];
  }

  /// A weighted batch's arc lengths before and after it is applied.
  struct BatchLengths {
    DeviceBuffer<vertex_t> src, dst;
    DeviceBuffer<std::uint32_t> old, now;
    DeviceBuffer<std::uint8_t> found, found_now;
    DeviceBuffer<std::uint8_t> longer;  ///< 1 where a present edge got a larger length
  };
  void lengths_before(const PreparedBatch& p, BatchLengths& b);
  void lengths_after(const PreparedBatch& p, BatchLengths& b);
};

/// out[i] = 1 where edge i was present before and is now longer. An edge the graph does not hold
/// (found_now 0) gets length kInf, which seed_arcs_kernel skips.
__global__ inline void increased_kernel(const std::uint32_t* old_values, const std::uint8_t* found,
                                        std::uint32_t* now, const std::uint8_t* found_now,
                                        std::uint64_t m, std::uint8_t* out) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    out[i] = found[i] && found_now[i] && now[i] > old_values[i];
    if (!found_now[i]) now[i] = kInf;
  }
}

template <class Graph>
void DynamicCore<Graph>::lengths_before(const PreparedBatch& p, BatchLengths& b) {
  const cudaStream_t s = stream();
  b.src = DeviceBuffer<vertex_t>(p.size, s, "sssp batch");
  b.dst = DeviceBuffer<vertex_t>(p.size, s, "sssp batch");
  b.old = DeviceBuffer<std::uint32_t>(p.size, s, "sssp lengths");
  b.now = DeviceBuffer<std::uint32_t>(p.size, s, "sssp lengths");
  b.found = DeviceBuffer<std::uint8_t>(p.size, s, "sssp found");
  b.found_now = DeviceBuffer<std::uint8_t>(p.size, s, "sssp found");
  b.longer = DeviceBuffer<std::uint8_t>(p.size, s, "sssp longer");
  decode_keys_kernel<<<grid_for(p.size), kBlock, 0, s>>>(p.keys.data(), p.size, p.key_bits,
                                                         b.src.data(), b.dst.data());
  WG_CUDA_CHECK_LAST();
  graph.find_values(DeviceEdges{.src = b.src.data(), .dst = b.dst.data(), .size = p.size},
                    b.old.data(), b.found.data());
}

template <class Graph>
void DynamicCore<Graph>::lengths_after(const PreparedBatch& p, BatchLengths& b) {
  const cudaStream_t s = stream();
  graph.find_values(DeviceEdges{.src = b.src.data(), .dst = b.dst.data(), .size = p.size},
                    b.now.data(), b.found_now.data());
  increased_kernel<<<grid_for(p.size), kBlock, 0, s>>>(b.old.data(), b.found.data(), b.now.data(),
                                                       b.found_now.data(), p.size, b.longer.data());
  WG_CUDA_CHECK_LAST();
}

}  // namespace wg::gpu::sp
