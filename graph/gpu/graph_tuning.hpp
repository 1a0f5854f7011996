#pragma once
// The slab store's batch tuning (SlabBatchTuning, GraphOptions::tuning) by name, for tools and
// tests that take it from flags or the environment. The library never reads the environment: the
// caller passes the lookup, a function from a name to its value (null when unset), e.g. one that
// reads the process environment (tests/graph/gpu/graph_test_options.hpp) or a tool's parsed flags.
//
//   wg::gpu::GraphOptions o;
//   wg::gpu::apply_graph_tuning(o.tuning, lookup);
//
// Names and the fields they set (values are integers; a name whose lookup gives null is left
// as it is):
//   WG_GRAPH_EAGER_ERASE_BELOW=k  eager_erase_below_log2 = k
//   WG_GRAPH_CHAIN_BELOW=k        chain_below_log2 = k
//   WG_GRAPH_FILTER_FROM=k        filter_from_log2, filter_weighted_from_log2 and
//                                 erase_filter_from_log2 = k (every graph filtered from 2^k)
//   WG_GRAPH_BUILD_SORT_FROM=k    build_sort_from_log2 = k
//   WG_GRAPH_SORT_FROM=k          sort_from_log2 = max(k, 0)
//   WG_GRAPH_SORT_INSERTS_FROM=k  sort_inserts_from_log2 = max(k, 0)
//   WG_GRAPH_REPORT_SPIN_US=us    report_spin_us = max(us, 0)
//   WG_GRAPH_TILE=8               tile_lanes = 8 (any other value: 1)
//   WG_GRAPH_ITEMS_PER_WARP=n     items_per_warp = n (8 or 32; other values: automatic)
//   WG_GRAPH_TRACE (any value)    trace = true
#include <algorithm>
#include <cstdlib>

#include <warpgraph/graph/gpu/dynamic_graph.hpp>

namespace wg::gpu {

/// Sets the fields of `o` whose names `lookup(name)` (const char* -> const char*, null when
/// unset) gives a value for; see above.
template <class Lookup>
void apply_graph_tuning(SlabBatchTuning& o, Lookup&& lookup) {
  const auto integer = [&](const char* name, auto set) {
    if (const char* v = lookup(name)) set(std::atoi(v));
  };
  integer("WG_GRAPH_EAGER_ERASE_BELOW", [&](int k) { o.eager_erase_below_log2 = k; });
  integer("WG_GRAPH_CHAIN_BELOW", [&](int k) { o.chain_below_log2 = k; });
  integer("WG_GRAPH_FILTER_FROM", [&](int k) {
    o.filter_from_log2 = o.filter_weighted_from_log2 = k;
    o.erase_filter_from_log2 = std::max(k, 0);
  });
  integer("WG_GRAPH_BUILD_SORT_FROM", [&](int k) { o.build_sort_from_log2 = k; });
  integer("WG_GRAPH_SORT_FROM", [&](int k) { o.sort_from_log2 = std::max(k, 0); });
  integer("WG_GRAPH_SORT_INSERTS_FROM", [&](int k) { o.sort_inserts_from_log2 = std::max(k, 0); });
  integer("WG_GRAPH_REPORT_SPIN_US",
          [&](int us) { o.report_spin_us = static_cast<std::uint32_t>(std::max(us, 0)); });
  integer("WG_GRAPH_TILE", [&](int t) { o.tile_lanes = t == 8 ? 8 : 1; });
  integer("WG_GRAPH_ITEMS_PER_WARP", [&](int n) { o.items_per_warp = n; });
  if (lookup("WG_GRAPH_TRACE")) o.trace = true;
}

}  // namespace wg::gpu
