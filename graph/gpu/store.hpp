#pragma once
// The Store concept: the narrow seam under wg::gpu::DynamicGraph<Store> (graph_front.hpp). The
// front writes the wide graph interface once (host upload and chunking, vertex range and growth,
// liveness counts, the free-id queue, vertex insertion and erasure bookkeeping, degrees, has_edges,
// exports, prepared batches, the version counter); a store keeps the arcs and answers for them.
// cuCollections' open_addressing_impl under static_set / static_map is the model: the containers
// differ only in what they store, the bulk interface is written once.
//
// A store S provides (every call stream-ordered on s.stream(), phase-concurrent like the graph):
//   Types: S::options_type, S::ref_type (its trivially copyable device view), S::weighted (32-bit
//   arc values), S::sorted_rows (export_csr rows come ascending); StoreTraits states all four.
//   S(num_vertices, options): that many live ids, no arcs.
//   Vertex state that the device view reads: num_vertices() (id range), live() and degrees()
//   (device arrays of num_vertices() entries; degrees exact after every call), num_edges()
//   (edges when undirected, arcs when directed); VertexArrayStore (vertex_arrays.hpp) gives
//   them, grow and revive to a store that keeps plain arrays. directed(), stream(), options().
//   - grow(n): ids num_vertices() .. n-1 become live with no arcs. O(n - nv).
//   - revive(ids, n): device ids (free, not live) become live again, degree 0. O(n).
//   - erase_vertices(ids, k, marks): ids are k distinct live ids ascending (device), marks[x] = 1
//     for them (num_vertices() words). Erases their arcs and the arcs into them, makes them not
//     live; returns the edges removed. O(k + their degrees) undirected, plus O(E) directed.
//   - build(edges, nv): drops everything, ids 0 .. nv-1 live, builds from a prefix of `edges` (a
//     chunk of its choice); returns its result and how many entries it took (the front inserts
//     the rest as batches).
//   - insert_prepared(b, flags) / erase_prepared(b, flags): applies a deduplicated batch
//     (PreparedBatch); returns the edges added / removed; flags[i] (when not null) = 1 where
//     edge i changed. O(b) expected (hash) or O(b log E) (sorted) plus the store's upkeep.
//   - contains_prepared(b, out): out[i] = 1 iff prepared edge i is present.
//   - find(q, values, found): per query (u, v), found[i] and, when not null, values[i] (0 where
//     absent); self-loops and non-live ids are absent.
//   - export_csr(): host CSR of the arcs (rows ascending iff sorted_rows). O(V + E).
//   - batch_chunk(n): entries of a batch processed in one piece (>= 1); memory_bytes(); ref().
// Optional fast path (the front takes it when present): insert_edges(DeviceEdges) and
// erase_edges(DeviceEdges) of one raw chunk, returning its full UpdateResult; a store without
// them gets prepare() + insert_prepared() / erase_prepared().
// Optional extras: `template <class Graph> struct extras : GraphExtras<Graph>`, a base of the
// front reaching the store as self().store(), adds store-specific calls to the graph
// (compact(), validate(), ...).
// Writing one: derive from StoreBase (below; VertexArrayStore, vertex_arrays.hpp, for a store that
// keeps plain vertex arrays), put the state and the calls in S::Impl in S's .cu, include
// detail/store_calls.cuh there and instantiate StoreBase<S, ...>, S and DynamicGraph<S>.
#include <cuda_runtime_api.h>

#include <concepts>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/core/types.hpp>
#include <warpgraph/graph/gpu/edge_batch.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::gpu {

/// A batch after dedup on the device: unique canonical edges in key order (see PreparedEdges).
struct PreparedBatch {
  DeviceBuffer<std::uint64_t> keys;
  DeviceBuffer<std::uint32_t> values;  ///< weighted graphs only
  std::uint64_t size = 0;
  unsigned key_bits = 0;
  UpdateResult dropped;  ///< self_loops, duplicates, ignored (invalid endpoints) of the raw batch
  std::uint64_t entries = 0;
  PreparedEdges view() const {
    return {.keys = keys.data(),
            .values = values.empty() ? nullptr : values.data(),
            .size = size,
            .key_bits = key_bits,
            .entries = entries,
            .self_loops = dropped.self_loops,
            .duplicates = dropped.duplicates,
            .invalid = dropped.ignored};
  }
};

/// Sorted CSR export: row v holds v's neighbours (out-neighbours when directed) in increasing
/// order; values only for weighted graphs.
struct Csr {
  std::uint64_t num_vertices = 0;
  std::vector<std::uint64_t> offsets;  ///< num_vertices + 1
  std::vector<vertex_t> targets;
  std::vector<std::uint32_t> values;
};

/// What a store's build() did: the result of the entries it took (a prefix of the batch).
struct BuildStep {
  UpdateResult result;
  std::uint64_t consumed = 0;
};

template <class S>
concept Store = std::movable<S> &&
    std::constructible_from<S, std::uint64_t, const typename S::options_type&> &&
    requires(S& s, const S& cs, std::uint64_t n, const vertex_t* ids, const std::uint32_t* marks,
             DeviceEdges edges, const PreparedBatch& b, std::uint8_t* flags, std::uint32_t* vals) {
  typename S::ref_type;
  { S::weighted } -> std::convertible_to<bool>;
  { S::sorted_rows } -> std::convertible_to<bool>;
  { cs.options() } -> std::same_as<const typename S::options_type&>;
  { cs.directed() } -> std::convertible_to<bool>;
  { cs.stream() } -> std::same_as<cudaStream_t>;
  { cs.num_vertices() } -> std::same_as<std::uint64_t>;
  { cs.num_edges() } -> std::same_as<std::uint64_t>;
  { cs.live() } -> std::same_as<const std::uint8_t*>;
  { cs.degrees() } -> std::same_as<const std::uint32_t*>;
  s.grow(n);
  s.revive(ids, n);
  { s.erase_vertices(ids, n, marks) } -> std::same_as<std::uint64_t>;
  { s.build(edges, n) } -> std::same_as<BuildStep>;
  { s.insert_prepared(b, flags) } -> std::same_as<std::uint64_t>;
  { s.erase_prepared(b, flags) } -> std::same_as<std::uint64_t>;
  cs.contains_prepared(b, flags);
  cs.find(edges, vals, flags);
  { cs.export_csr() } -> std::same_as<Csr>;
  { cs.batch_chunk(n) } -> std::same_as<std::uint64_t>;
  { cs.memory_bytes() } -> std::convertible_to<std::uint64_t>;
  { cs.ref() } -> std::same_as<typename S::ref_type>;
};

/// A store's type facts, as a base class: its options, its device view, whether arcs carry
/// 32-bit values, whether export_csr rows come sorted.
template <class Options, class Ref, bool Weighted, bool SortedRows>
struct StoreTraits {
  using options_type = Options;
  using ref_type = Ref;
  static constexpr bool weighted = Weighted;
  static constexpr bool sorted_rows = SortedRows;
};

namespace detail {
struct OpaqueState;  ///< never defined: what StoreBase holds S::Impl as when no part is shared
}  // namespace detail

/// The plumbing every store shares, as its base (S the store, CRTP): the type facts (Traits, a
/// StoreTraits), the options and what is read from them (options(), directed(), stream(); they
/// never change), the Store calls that S::Impl answers, and S::Impl itself: S's state, defined in
/// S's .cu and owned here behind a pointer whose deleter is fixed there, so that S declares no
/// destructor or moves and lists only its constructor and what it adds. S's .cu includes
/// detail/store_calls.cuh and instantiates this base once per S. Shared: a base class of S::Impl
/// that S's header sees (VertexArrays, read by inline calls: VertexArrayStore), or OpaqueState.
template <class S, class Traits, class Shared = detail::OpaqueState>
class StoreBase : public Traits {
  using Options = typename Traits::options_type;
  using Ref = typename Traits::ref_type;

 public:
  const Options& options() const noexcept { return options_; }
  bool directed() const noexcept { return options_.directed; }
  cudaStream_t stream() const noexcept { return options_.stream; }

  // The Store calls (see the top of this file), each S::Impl's call of the same name.
  std::uint64_t erase_vertices(const vertex_t* ids, std::uint64_t k, const std::uint32_t* marks);
  BuildStep build(DeviceEdges edges, std::uint64_t num_vertices);
  std::uint64_t insert_prepared(const PreparedBatch& batch, std::uint8_t* is_new);
  std::uint64_t erase_prepared(const PreparedBatch& batch, std::uint8_t* was_present);
  void contains_prepared(const PreparedBatch& batch, std::uint8_t* out) const;
  void find(DeviceEdges q, std::uint32_t* values, std::uint8_t* found) const;
  Csr export_csr() const;
  std::uint64_t batch_chunk(std::uint64_t n) const;
  std::uint64_t memory_bytes() const;
  Ref ref() const;

 protected:
  /// Makes S::Impl(options) (defined in detail/store_calls.cuh, where S::Impl is complete).
  explicit StoreBase(const Options& options);
  /// S's state; like the pointer it is held by, a const store reaches it mutable.
  auto& impl() const noexcept { return *state(impl_.get()); }
  /// Its Shared part, which needs no definition of S::Impl.
  auto& shared() const noexcept { return *impl_; }

 private:
  Options options_;
  /// The pointer held from S::Impl, and back (used where S::Impl is complete).
  template <class Impl>
  static Shared* held(Impl* p) noexcept {
    if constexpr (std::is_same_v<Shared, detail::OpaqueState>)
      return static_cast<Shared*>(static_cast<void*>(p));
    else
      return p;
  }
  static auto* state(Shared* p) noexcept {
    if constexpr (std::is_same_v<Shared, detail::OpaqueState>)
      return static_cast<typename S::Impl*>(static_cast<void*>(p));
    else
      return static_cast<typename S::Impl*>(p);
  }
  std::unique_ptr<Shared, void (*)(Shared*)> impl_{nullptr, nullptr};
};

/// Base of a store's extras (store.hpp, "Optional extras"): the graph they belong to.
template <class Graph>
class GraphExtras {
 protected:
  const Graph& self() const { return static_cast<const Graph&>(*this); }
  Graph& self() { return static_cast<Graph&>(*this); }
};

/// Whether a store has its own path for raw (unprepared) chunks.
template <class S>
concept StoreWithRawBatches = requires(S& s, DeviceEdges e) {
  { s.insert_edges(e) } -> std::same_as<UpdateResult>;
  { s.erase_edges(e) } -> std::same_as<UpdateResult>;
};

}  // namespace wg::gpu
