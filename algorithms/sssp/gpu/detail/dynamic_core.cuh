#pragma once
// The dynamic core shared by DynamicSssp and DynamicBfs (sssp.hpp, bfs.hpp): batches applied
// through the graph's own batch calls (insert_edges / erase_edges: deduplicated in the graph's
// one fused pass), then the update of the result from the batch's raw entries (rounds.cuh).
//
// Host synchronisations per batch (small batches, no recomputation; "a check" is one read of the
// counters through mapped memory, after rounds_per_check relaxation rounds or subtree levels):
//  - insertion, unit lengths: the graph's wait for its pass, then a check per rounds_per_check
//    rounds (the changed count comes with the last);
//  - insertion, weighted: the same, and when the batch hit present edges, one check for the
//    tree arcs it made longer, and when there are any, one per rounds_per_check subtree levels;
//  - deletion: the graph's wait (the batch ends there when it removed nothing), one check for
//    the removed tree arcs (ends there when none), one per rounds_per_check subtree levels, then
//    the rounds as above.
// `changed` is counted on the device as the distances move (ChangeTrack), with an O(n)
// comparison only when a batch is answered by the static computation.
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
#include <warpgraph/graph/gpu/host_batch.hpp>

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

/// out[i] = 1 where edge i was present before and is now longer. An edge the graph does not hold
/// (found_now 0) gets length kInf, which the seeding kernels skip.
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
struct DynamicCore {
  Graph& graph;
  ShortestPathState& st;
  vertex_t source;
  bool& source_live;
  bool unit;
  double recompute_fraction;
  double recompute_batch_fraction;

  static constexpr bool kWeighted = Graph::ref_type::weighted;

  cudaStream_t stream() const { return graph.stream(); }
  std::uint64_t budget() const {
    return static_cast<std::uint64_t>(recompute_fraction * static_cast<double>(st.n));
  }
  bool too_big(std::uint64_t edges, std::uint64_t graph_edges) const {
    return static_cast<double>(edges) >
           recompute_batch_fraction * static_cast<double>(std::max<std::uint64_t>(graph_edges, 1));
  }

  /// The change stamps of the batch begun by begin_batch (ids from n0 on are not counted).
  ChangeTrack track(std::uint64_t n0) const {
    return {.touch = st.touch.data(), .epoch = st.epoch, .limit = n0};
  }
  /// A new batch: a fresh change stamp, every counter zero. After the last ensure_size.
  ChangeTrack begin_batch(std::uint64_t n0) {
    if (++st.epoch == 0) {
      st.touch.fill_bytes(0, stream());
      st.epoch = 1;
    }
    zero_counters(st, kQueue0, kNumCounters, stream());
    return track(n0);
  }

  /// The static computation, `changed` by an O(n) comparison (keys are still the batch's
  /// starting ones when this is called).
  template <class Recompute>
  std::uint64_t recompute_counting(std::uint64_t n0, Recompute&& recompute) {
    take_snapshot(st, n0, stream());
    recompute();
    return count_changed_since_snapshot(st, n0, stream());
  }

  /// Marks of a directed graph's affected vertices cleared (it recomputes instead of repairing).
  void drop_affected() {
    st.mark.fill_bytes(0, stream());
    zero_counter(st, kAffected, stream());
  }

  static void grow(DeviceBuffer<std::uint32_t>& b, std::uint64_t n, cudaStream_t s) {
    if (b.size() < n) b = DeviceBuffer<std::uint32_t>(n, s, "sssp batch lengths");
  }
  static void grow(DeviceBuffer<std::uint8_t>& b, std::uint64_t n, cudaStream_t s) {
    if (b.size() < n) b = DeviceBuffer<std::uint8_t>(n, s, "sssp batch flags");
  }

  /// Applies an insertion batch (graph.insert_edges) and updates st: the raw entries' arcs are
  /// relaxed with the lengths the graph holds afterwards (read back, so whatever value rule it
  /// applies is the one the search uses); on weighted lengths, the entries whose edge was present
  /// and got longer first repair the subtrees below them.
  template <class Recompute>
  DynamicUpdate<UpdateResult> insert(DeviceEdges batch, Recompute&& recompute) {
    DynamicUpdate<UpdateResult> out;
    const cudaStream_t s = stream();
    const std::uint64_t n0 = graph.num_vertices();
    ensure_size(st, n0, s);
    const bool lengths = kWeighted && !unit;
    const std::uint64_t m = batch.size;
    // A batch the graph splits into chunks is large: it recomputes (no lengths read before).
    const bool whole = m == 0 || graph.batch_chunk(m) >= m;
    const bool read_before = lengths && source_live && whole;
    if (read_before) {
      grow(st.len_old, m, s), grow(st.len_now, m, s);
      grow(st.found_old, m, s), grow(st.found_now, m, s), grow(st.longer, m, s);
      graph.find_values(DeviceEdges{.src = batch.src, .dst = batch.dst, .size = m},
                        st.len_old.data(), st.found_old.data());
    }
    const std::uint64_t edges_before = graph.num_edges();
    out.update = graph.insert_edges(batch);
    // New edges, and on weighted lengths the present ones whose value the batch set.
    const std::uint64_t touched = out.update.applied + (lengths ? out.update.ignored : 0);
    if (!source_live || !whole || too_big(touched, edges_before)) {
      out.recomputed = true;
      out.changed = recompute_counting(n0, recompute);
      return out;
    }
    if (touched == 0) return out;  // no arc is new or has another length
    const auto g = graph.ref();
    ensure_size(st, graph.num_vertices(), s);
    const ChangeTrack ct = begin_batch(n0);
    std::uint64_t affected = 0;
    if (lengths) {
      graph.find_values(DeviceEdges{.src = batch.src, .dst = batch.dst, .size = m},
                        st.len_now.data(), st.found_now.data());
    }
    // Only an entry whose edge was present (or invalid: `ignored` too) can make an arc longer.
    if (lengths && out.update.ignored) {
      increased_kernel<<<grid_for(m), kBlock, 0, s>>>(st.len_old.data(), st.found_old.data(),
                                                      st.len_now.data(), st.found_now.data(), m,
                                                      st.longer.data());
      seed_tree_arcs_raw_kernel<<<grid_for(m), kBlock, 0, s>>>(
          batch.src, batch.dst, st.longer.data(), m, st.n, graph.directed(), st.keys.data(),
          st.mark.data(), st.affected.data(), st.counters.data());
      WG_CUDA_CHECK_LAST();
      affected = graph.directed() ? affected_count() : expand_affected(g, st, budget(), s);
      if (affected == ~std::uint64_t{0} || (graph.directed() && affected)) {
        if (graph.directed()) drop_affected();
        out.recomputed = true;
        out.changed = recompute_counting(n0, recompute);
        return out;
      }
    }
    out.changed = repair_and_relax(g, st, affected, 2 * m, unit, ct, s, [&](std::uint32_t round) {
      seed_raw_kernel<<<grid_for(m), kBlock, 0, s>>>(
          g, batch.src, batch.dst, lengths ? st.len_now.data() : nullptr, m, graph.directed(),
          st.keys.data(), st.queue.data(), st.counters.data(), st.stamp.data(), round, ct);
      WG_CUDA_CHECK_LAST();
    });
    return out;
  }

  /// Applies a deletion batch (graph.erase_edges) and repairs the subtrees below the tree arcs
  /// it removed, marked from the raw entries before the erase.
  template <class Recompute>
  DynamicUpdate<UpdateResult> erase(DeviceEdges batch, Recompute&& recompute) {
    DynamicUpdate<UpdateResult> out;
    const std::uint64_t n0 = graph.num_vertices();
    ensure_size(st, n0, stream());
    if (!source_live || batch.size == 0) {
      out.update = graph.erase_edges(batch);
      return out;
    }
    begin_batch(n0);
    seed_tree_arcs_raw_kernel<<<grid_for(batch.size), kBlock, 0, stream()>>>(
        batch.src, batch.dst, nullptr, batch.size, st.n, graph.directed(), st.keys.data(),
        st.mark.data(), st.affected.data(), st.counters.data());
    WG_CUDA_CHECK_LAST();
    out.update = graph.erase_edges(batch);
    // A removed tree arc is present, so a batch that removed nothing marked nobody.
    if (out.update.applied == 0) return out;
    const BatchEffect e = repair(n0, recompute);
    out.changed = e.changed;
    out.recomputed = e.recomputed;
    return out;
  }

  /// After an erase whose affected vertices are listed (counters[kAffected]): the subtree walk,
  /// then the repair, or the static computation past the budget (or on a directed graph).
  template <class Recompute>
  BatchEffect repair(std::uint64_t n0, Recompute&& recompute) {
    BatchEffect out;
    const auto g = graph.ref();
    const std::uint64_t affected =
        graph.directed() ? affected_count() : expand_affected(g, st, budget(), stream());
    if (affected == ~std::uint64_t{0} || (graph.directed() && affected)) {
      if (graph.directed()) drop_affected();
      out.recomputed = true;
      out.changed = recompute_counting(n0, recompute);
    } else if (affected) {
      out.changed =
          repair_and_relax(g, st, affected, 0, unit, track(n0), stream(), [](std::uint32_t) {});
    }
    return out;
  }

  template <class Recompute>
  DynamicUpdate<VertexEraseResult> erase_vertices(std::span<const vertex_t> ids,
                                                  Recompute&& recompute) {
    DynamicUpdate<VertexEraseResult> out;
    const std::uint64_t n0 = graph.num_vertices();
    ensure_size(st, n0, stream());
    begin_batch(n0);
    const std::vector<vertex_t> list(ids.begin(), ids.end());
    const bool source_erased =
        source_live && std::find(list.begin(), list.end(), source) != list.end();
    std::uint64_t affected = 0;
    bool redo = false;
    if (source_live && !source_erased && !list.empty()) {
      DeviceBuffer<vertex_t> d = DeviceBuffer<vertex_t>::from_host(list, stream());
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
      take_snapshot(st, n0, stream());
      source_live = false;
      fill_keys_kernel<<<grid_for(st.n), kBlock, 0, stream()>>>(st.keys.data(), 0, st.n);
      WG_CUDA_CHECK_LAST();
      out.changed = count_changed_since_snapshot(st, n0, stream());
    } else if (redo || (graph.directed() && affected)) {
      if (graph.directed() && !redo) drop_affected();
      out.changed = recompute_counting(n0, recompute);
      out.recomputed = true;
    } else if (affected) {
      out.changed = repair_and_relax(graph.ref(), st, affected, 0, unit, track(n0), stream(),
                                     [](std::uint32_t) {});
    }
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
    const std::uint64_t before =
        graph.num_edges() > added.size ? graph.num_edges() - added.size : 0;
    if (too_big(added.size, before) || !source_live) {
      out.recomputed = true;
      out.changed = recompute_counting(n0, recompute);
      return out;
    }
    if (!added.size) return out;
    const ChangeTrack ct = begin_batch(n0);
    const bool lengths = kWeighted && !unit;
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
    out.changed = repair_and_relax(
        graph.ref(), st, 0, 2 * added.size, unit, ct, stream(), [&](std::uint32_t round) {
          seed_arcs_kernel<<<grid_for(added.size), kBlock, 0, stream()>>>(
              added.keys, lengths ? len.data() : nullptr, added.size, added.key_bits, st.n,
              graph.directed(), !lengths, st.keys.data(), st.queue.data(), st.counters.data(),
              st.stamp.data(), round, ct);
          WG_CUDA_CHECK_LAST();
        });
    return out;
  }

  /// Before `removed` goes: a new batch, and the tree arcs among the edges marked. `n0` and
  /// `seeded` carry the state to after_erase.
  void before_erase(const ChangedEdges& removed, std::uint64_t& n0, bool& seeded) {
    n0 = graph.num_vertices();
    ensure_size(st, n0, stream());
    begin_batch(n0);
    seeded = source_live && removed.size;
    if (!seeded) return;
    seed_tree_arcs_kernel<<<grid_for(removed.size), kBlock, 0, stream()>>>(
        removed.keys, nullptr, removed.size, removed.key_bits, st.n, graph.directed(),
        st.keys.data(), st.mark.data(), st.affected.data(), st.counters.data());
    WG_CUDA_CHECK_LAST();
  }

  /// After the edges went: repairs the subtrees below the removed tree arcs (or recomputes).
  template <class Recompute>
  BatchEffect after_erase(std::uint64_t n0, bool seeded, Recompute&& recompute) {
    if (!seeded) return {};
    return repair(n0, recompute);
  }

  std::uint64_t affected_count() {
    unsigned long long c[kNumCounters];
    read_counters(st, c, stream());
    return c[kAffected];
  }
};

/// Host batches of the dynamic classes: uploaded chunk by chunk as the graph's EdgeList overloads
/// upload them (ids past the range grow it, weights become values), each chunk applied by
/// `apply(DeviceEdges)` as a batch of its own; the results add up.
template <class Graph, class Apply>
DynamicUpdate<UpdateResult> insert_host_batch(Graph& graph, const EdgeList& batch, Apply&& apply) {
  check_sizes(batch);
  graph.grow_vertices(batch.num_vertices);
  DynamicUpdate<UpdateResult> out;
  for_each_host_chunk(batch, graph.batch_chunk(batch.size()), Graph::ref_type::weighted, true,
                      graph.stream(), [&](const HostBatchUpload& up, DeviceEdges part) {
                        graph.grow_vertices(up.id_range);
                        const auto r = apply(part);
                        out.update += r.update;
                        out.changed += r.changed;
                        out.recomputed = out.recomputed || r.recomputed;
                      });
  return out;
}
template <class Graph, class Apply>
DynamicUpdate<UpdateResult> erase_host_batch(Graph& graph, const EdgeList& batch, Apply&& apply) {
  check_sizes(batch);
  DynamicUpdate<UpdateResult> out;
  for_each_host_chunk(batch, graph.batch_chunk(batch.size()), false, false, graph.stream(),
                      [&](const HostBatchUpload&, DeviceEdges part) {
                        const auto r = apply(part);
                        out.update += r.update;
                        out.changed += r.changed;
                        out.recomputed = out.recomputed || r.recomputed;
                      });
  return out;
}

}  // namespace wg::gpu::sp
