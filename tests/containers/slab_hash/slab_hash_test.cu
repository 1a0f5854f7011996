// GPU tests of the slab hash: host SlabSet/SlabMap against std models, concurrent mixed batches and
// a hot-key stress checked for per-key linearizability, the exclusive (tombstone-reusing) set
// and map operations with 1/2/4/8-lane tiles against models, bulk build, for_each, flush, allocator
// exhaustion and growth, reserved keys. Size: WG_SLAB_TEST_KEYS (default 200000).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <warpgraph/containers/core/cuda_stream.hpp>
#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/slab_hash/slab_hash.cuh>
#include <warpgraph/containers/slab_hash/slab_map_tile.cuh>
#include <warpgraph/containers/slab_hash/slab_set_tile.cuh>

#include "../../support/test_support.hpp"

namespace {

using namespace wg::slab;
using u32 = std::uint32_t;

std::uint64_t test_keys() {
  const char* e = std::getenv("WG_SLAB_TEST_KEYS");
  const long long v = e ? std::atoll(e) : 0;
  return v > 0 ? static_cast<std::uint64_t>(v) : 200000;
}

// ---- phase-ordered model tests ------------------------------------------------------------------

class SlabSetModel : public ::testing::TestWithParam<u32> {};  // param: lookahead

TEST_P(SlabSetModel, RandomBatchesMatchUnorderedSet) {
  wg::CudaStream stream;
  const std::uint64_t n = test_keys();
  SlabTableConfig cfg;
  cfg.expected_keys = n / 2;
  cfg.load_factor = 0.7;
  cfg.lookahead = GetParam();
  cfg.tile_lanes = GetParam() == 8 ? 8 : 32;   // both bulk kernel families
  cfg.allocator.slabs_per_super_block = 1024;  // small pool: exercises growth too
  SlabSet set(cfg, stream);
  std::unordered_set<u32> model;
  std::mt19937 rng(7 + GetParam());
  const u32 key_range = static_cast<u32>(n);  // dense enough for duplicates and re-inserts
  for (int batch = 0; batch < 12; ++batch) {
    const std::size_t m = n / 8 + rng() % (n / 8);
    std::vector<u32> keys(m);
    for (auto& k : keys) k = rng() % key_range;
    if (batch % 3 == 2) {  // erase batch: half present keys, half random (absent or duplicate)
      std::vector<u32> present(model.begin(), model.end());
      for (std::size_t i = 0; i < m && !present.empty(); i += 2)
        keys[i] = present[rng() % present.size()];
      std::set<u32> distinct_present;
      for (u32 k : keys)
        if (model.count(k)) distinct_present.insert(k);
      const std::uint64_t erased = set.erase(keys, stream);
      ASSERT_EQ(erased, distinct_present.size()) << "batch " << batch;
      for (u32 k : distinct_present) model.erase(k);
    } else {
      std::set<u32> fresh;
      for (u32 k : keys)
        if (!model.count(k)) fresh.insert(k);
      const std::uint64_t inserted = set.insert(keys, stream);
      ASSERT_EQ(inserted, fresh.size()) << "batch " << batch;
      model.insert(fresh.begin(), fresh.end());
    }
    ASSERT_EQ(set.size(stream), model.size());
    // Queries: every key of the range's first part, present or not.
    std::vector<u32> queries(std::min<std::uint64_t>(key_range, 50000));
    for (auto& q : queries) q = rng() % key_range;
    const std::vector<bool> hits = set.contains(queries, stream);
    for (std::size_t i = 0; i < queries.size(); ++i)
      ASSERT_EQ(hits[i], model.count(queries[i]) == 1)
          << "key " << queries[i] << " batch " << batch;
    std::vector<u32> all = set.retrieve_all(stream);
    std::sort(all.begin(), all.end());
    std::vector<u32> expect(model.begin(), model.end());
    std::sort(expect.begin(), expect.end());
    ASSERT_EQ(all, expect) << "batch " << batch;
  }
  EXPECT_EQ(set.count(stream), model.size());
}

INSTANTIATE_TEST_SUITE_P(Lookahead, SlabSetModel, ::testing::Values(1u, 8u, 16u));

class SlabMapModel : public ::testing::TestWithParam<u32> {};

TEST_P(SlabMapModel, RandomBatchesMatchUnorderedMap) {
  wg::CudaStream stream;
  const std::uint64_t n = test_keys();
  SlabTableConfig cfg;
  cfg.expected_keys = n / 2;
  cfg.load_factor = 0.7;
  cfg.lookahead = GetParam();
  cfg.tile_lanes = GetParam() == 8 ? 8 : 32;  // both bulk kernel families
  cfg.allocator.slabs_per_super_block = 1024;
  SlabMap map(cfg, stream);
  std::unordered_map<u32, u32> model;
  std::mt19937 rng(11 + GetParam());
  const u32 key_range = static_cast<u32>(n);
  for (int batch = 0; batch < 12; ++batch) {
    const std::size_t m = n / 8 + rng() % (n / 8);
    std::vector<u32> keys(m), values(m);
    for (auto& k : keys) k = rng() % key_range;
    if (batch % 3 == 2) {
      std::vector<u32> present;
      for (auto& [k, v] : model) present.push_back(k);
      for (std::size_t i = 0; i < m && !present.empty(); i += 2)
        keys[i] = present[rng() % present.size()];
      std::set<u32> distinct_present;
      for (u32 k : keys)
        if (model.count(k)) distinct_present.insert(k);
      ASSERT_EQ(map.erase(keys, stream), distinct_present.size()) << "batch " << batch;
      for (u32 k : distinct_present) model.erase(k);
    } else {
      // Distinct keys within the batch so the final values are determined (duplicates across
      // batches still exercise assign); a duplicate-key batch is checked separately below.
      std::sort(keys.begin(), keys.end());
      keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
      std::shuffle(keys.begin(), keys.end(), rng);
      values.resize(keys.size());
      for (auto& v : values) v = rng();  // any value, 0xFFFFFFFF included
      std::uint64_t fresh = 0;
      for (u32 k : keys) fresh += !model.count(k);
      ASSERT_EQ(map.insert(keys, values, stream), fresh) << "batch " << batch;
      for (std::size_t i = 0; i < keys.size(); ++i) model[keys[i]] = values[i];
    }
    ASSERT_EQ(map.size(stream), model.size());
    std::vector<u32> queries(std::min<std::uint64_t>(key_range, 50000));
    for (auto& q : queries) q = rng() % key_range;
    const auto [vals, found] = map.find(queries, stream);
    for (std::size_t i = 0; i < queries.size(); ++i) {
      const auto it = model.find(queries[i]);
      ASSERT_EQ(found[i], it != model.end()) << "key " << queries[i];
      ASSERT_EQ(vals[i], it != model.end() ? it->second : kNotFoundValue) << "key " << queries[i];
    }
    const auto [ks, vs] = map.retrieve_all(stream);
    ASSERT_EQ(ks.size(), model.size());
    for (std::size_t i = 0; i < ks.size(); ++i) {
      const auto it = model.find(ks[i]);
      ASSERT_NE(it, model.end()) << "retrieved absent key " << ks[i];
      ASSERT_EQ(vs[i], it->second);
    }
  }
  // Duplicate keys with different values in one batch: one of them wins.
  std::vector<u32> keys = {5, 5, 5, 9, 9};
  std::vector<u32> values = {1, 2, 3, 4, 5};
  map.insert(keys, values, stream);
  const auto [v, f] = map.find(std::vector<u32>{5, 9}, stream);
  ASSERT_TRUE(f[0] && f[1]);
  EXPECT_TRUE(v[0] >= 1 && v[0] <= 3) << v[0];
  EXPECT_TRUE(v[1] == 4 || v[1] == 5) << v[1];
}

INSTANTIATE_TEST_SUITE_P(Lookahead, SlabMapModel, ::testing::Values(1u, 8u, 16u));

// ---- concurrent mixed batches -------------------------------------------------------------------

enum OpType : u32 { kOpInsert = 0, kOpErase = 1, kOpFind = 2 };
struct Op {
  u32 type, key, value;
};

/// One thread per op; the warp runs its lanes' ops (of any type) one after another, all warps
/// concurrently. result[i]: insert -> InsertOutcome, erase -> erased, find -> found;
/// found_value[i] for map finds.
template <bool kMap>
__global__ void mixed_kernel(SetTableRef set, MapTableRef map, const Op* ops, std::uint64_t n,
                             u32* result, u32* found_value) {
  wg::warp_stride_loop(n, [&](const wg::warp_tile& tile, std::uint64_t i, bool active) {
    const Op op = active ? ops[i] : Op{0, 0, 0};
    wg::for_each_active_lane(tile, active, [&](int src) {
      const u32 type = tile.shfl(op.type, src), key = tile.shfl(op.key, src),
                value = tile.shfl(op.value, src);
      u32 r = 0, v = 0;
      if (type == kOpInsert)
        r = static_cast<u32>(kMap ? map.insert_or_assign(tile, key, value) : set.insert(tile, key));
      else if (type == kOpErase)
        r = kMap ? map.erase(tile, key) : set.erase(tile, key);
      else
        r = kMap ? map.find(tile, key, &v) : set.contains(tile, key);
      if (tile.thread_rank() == static_cast<u32>(src)) {
        result[i] = r;
        found_value[i] = v;
      }
    });
  });
}

/// Checks that one key's ops, applied concurrently, are linearizable: some order of them
/// explains every result and the final state. (Successful inserts and erases must alternate from
/// the initial state; failed inserts and true finds need a present period; failed erases and false
/// finds an absent one; map values come from the batch's inserts, or the old value.)
struct KeyHistory {
  int ins_new = 0, ins_present = 0, erased = 0, erase_absent = 0, found = 0, not_found = 0;
  std::set<u32> inserted_values, found_values;
};

::testing::AssertionResult linearizable(u32 key, const KeyHistory& h, bool before, u32 v_before,
                                        bool after, u32 v_after, bool is_map) {
  const int final_state = int(before) + h.ins_new - h.erased;
  if (final_state != int(after) || final_state < 0 || final_state > 1)
    return ::testing::AssertionFailure()
           << "key " << key << ": before " << before << ", " << h.ins_new << " new inserts, "
           << h.erased << " erases, after " << after;
  if (h.ins_present + h.found > 0 && !before && h.ins_new == 0)
    return ::testing::AssertionFailure() << "key " << key << ": seen present but never was";
  if (h.erase_absent + h.not_found > 0 && before && h.erased == 0)
    return ::testing::AssertionFailure() << "key " << key << ": seen absent but never was";
  if (is_map) {
    std::set<u32> allowed = h.inserted_values;
    if (before) allowed.insert(v_before);
    for (u32 v : h.found_values)
      if (!allowed.count(v))
        return ::testing::AssertionFailure() << "key " << key << ": found value " << v;
    if (after) {
      const bool ok =
          h.inserted_values.empty() ? v_after == v_before : h.inserted_values.count(v_after);
      if (!ok) return ::testing::AssertionFailure() << "key " << key << ": final value " << v_after;
    }
  }
  return ::testing::AssertionSuccess();
}

template <bool kMap>
void run_mixed(const std::vector<Op>& ops, SlabSet* set, SlabMap* map, std::map<u32, u32>& model,
               cudaStream_t stream, const char* what) {
  auto d_ops = wg::DeviceBuffer<Op>::from_host(ops, stream);
  wg::DeviceBuffer<u32> result(ops.size(), stream), fv(ops.size(), stream);
  const SetTableRef sref = set ? set->ref() : SetTableRef{};
  const MapTableRef mref = map ? map->ref() : MapTableRef{};
  mixed_kernel<kMap><<<static_cast<unsigned>((ops.size() + 255) / 256), 256, 0, stream>>>(
      sref, mref, d_ops.data(), ops.size(), result.data(), fv.data());
  WG_CUDA_CHECK_LAST();
  const std::vector<u32> r = result.to_host(stream), v = fv.to_host(stream);
  std::map<u32, KeyHistory> hist;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    KeyHistory& h = hist[ops[i].key];
    if (ops[i].type == kOpInsert) {
      ASSERT_NE(r[i], u32(InsertOutcome::out_of_slabs)) << what;
      (r[i] == u32(InsertOutcome::inserted) ? h.ins_new : h.ins_present)++;
      h.inserted_values.insert(ops[i].value);
    } else if (ops[i].type == kOpErase) {
      (r[i] ? h.erased : h.erase_absent)++;
    } else {
      (r[i] ? h.found : h.not_found)++;
      if (r[i]) h.found_values.insert(v[i]);
    }
  }
  std::map<u32, u32> after;
  if (kMap) {
    const auto [ks, vs] = map->retrieve_all(stream);
    for (std::size_t i = 0; i < ks.size(); ++i)
      ASSERT_TRUE(after.emplace(ks[i], vs[i]).second) << "duplicate key " << ks[i];
  } else {
    for (u32 k : set->retrieve_all(stream))
      ASSERT_TRUE(after.emplace(k, 0).second) << "duplicate key " << k;
  }
  for (const auto& [k, h] : hist) {
    const auto b = model.find(k), a = after.find(k);
    ASSERT_TRUE(linearizable(k, h, b != model.end(), b != model.end() ? b->second : 0,
                             a != after.end(), a != after.end() ? a->second : 0, kMap))
        << what;
  }
  // Keys no op touched are unchanged.
  for (const auto& [k, val] : model)
    if (!hist.count(k)) {
      const auto a = after.find(k);
      ASSERT_TRUE(a != after.end() && a->second == val)
          << what << ": untouched key " << k << " changed";
    }
  for (const auto& [k, val] : after)
    ASSERT_TRUE(hist.count(k) || model.count(k)) << "key " << k << " appeared";
  // Updates through refs are not tracked by size(): recount() re-syncs it.
  const std::uint64_t live = kMap ? map->recount(stream) : set->recount(stream);
  ASSERT_EQ(live, after.size());
  ASSERT_EQ(kMap ? map->size(stream) : set->size(stream), after.size());
  model = std::move(after);
}

std::vector<Op> random_ops(std::mt19937& rng, std::size_t m, u32 key_range) {
  std::vector<Op> ops(m);
  for (auto& op : ops)
    op = Op{static_cast<u32>(rng() % 3), static_cast<u32>(rng() % key_range),
            static_cast<u32>(rng())};
  return ops;
}

TEST(SlabHashConcurrent, MixedBatchesAreLinearizablePerKey) {
  wg::CudaStream stream;
  const std::uint64_t n = test_keys();
  SlabTableConfig cfg;
  cfg.num_buckets = static_cast<u32>(std::max<std::uint64_t>(1, n / 200));  // long chains
  cfg.allocator.slabs_per_super_block = 1u << 14;
  cfg.allocator.initial_super_blocks = 4;
  SlabSet set(cfg, stream);
  SlabMap map(cfg, stream);
  std::map<u32, u32> set_model, map_model;
  std::mt19937 rng(99);
  for (int batch = 0; batch < 6; ++batch) {
    const u32 range = batch % 2 ? static_cast<u32>(n / 4) : static_cast<u32>(n);
    run_mixed<false>(random_ops(rng, n / 2, range), &set, nullptr, set_model, stream, "set");
    run_mixed<true>(random_ops(rng, n / 2, range), nullptr, &map, map_model, stream, "map");
  }
}

TEST(SlabHashConcurrent, HotKeysStress) {
  wg::CudaStream stream;
  const std::uint64_t n = std::max<std::uint64_t>(test_keys() * 2, 4096);
  SlabTableConfig cfg;
  cfg.num_buckets = 1;  // every warp in one chain
  SlabSet set(cfg, stream);
  SlabMap map(cfg, stream);
  std::map<u32, u32> set_model, map_model;
  std::mt19937 rng(5);
  for (int round = 0; round < 3; ++round) {
    run_mixed<false>(random_ops(rng, n, 4), &set, nullptr, set_model, stream, "hot set");
    run_mixed<true>(random_ops(rng, n, 4), nullptr, &map, map_model, stream, "hot map");
  }
  // Tombstones piled up in the single chain; flush keeps the contents.
  set.flush(stream);
  map.flush(stream);
  EXPECT_EQ(set.count(stream), set_model.size());
  EXPECT_EQ(map.count(stream), map_model.size());
}

// ---- allocator helpers: frees and warp allocations for the tests below --------------------------
__global__ void free_all_kernel(SlabAllocatorRef alloc, const u32* handles, std::uint64_t n) {
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) alloc.deallocate(handles[i]);
}

/// One warp takes up to n slabs with allocate().
__global__ void allocate_n_kernel(SlabAllocatorRef alloc, u32 n, u32* out,
                                  unsigned long long* count) {
  const wg::warp_tile tile = wg::this_warp();
  for (u32 r = 0; r < n; ++r) {
    const u32 h = alloc.allocate(tile);
    if (h == kNullSlab) return;
    if (tile.thread_rank() == 0) out[atomicAdd(count, 1ull)] = h;
  }
}

// ---- exclusive operations with tiles of 1, 2, 4, 8 lanes ---------------------------------------

/// One op per thread, keys distinct within a launch (the exclusive contract); each kTile-lane tile
/// runs its lanes' ops with the tiled operations of the set or map, which append a slab to a full
/// chain themselves, and an insert that got no slab that way goes to the 32-lane exclusive insert.
/// result[i]: insert -> InsertOutcome, erase -> erased. *to_warp counts the inserts handed to the
/// warp. kLinks: how erases walk (ChainLinks::fixed only for a launch of erases alone).
template <int kTile, class Table, ChainLinks kLinks = ChainLinks::growing>
__global__ void exclusive_tiled_kernel(Table table, const Op* ops, std::uint64_t n, u32* result,
                                       unsigned long long* to_warp) {
  constexpr bool kMap = std::is_same_v<Table, MapTableRef>;
  wg::warp_stride_loop<32, kTile>(n, [&](const wg::warp_tile& warp, std::uint64_t i, bool active) {
    const Op op = active ? ops[i] : Op{0, 0, 0};
    const auto tt = wg::partition_warp<kTile>(warp);
    u32 r = 0;
    bool needs_warp = false;
    for (unsigned q = tt.ballot(active); q; q &= q - 1) {
      const int s = __ffs(q) - 1;
      const u32 type = tt.shfl(op.type, s), key = tt.shfl(op.key, s), value = tt.shfl(op.value, s);
      u32 out = 0;
      bool warp_op = false;
      if (type == kOpInsert) {
        int o;
        if constexpr (kMap)
          o = map_insert_or_assign_exclusive_tiled(table, tt, key, value);
        else
          o = set_insert_exclusive_tiled(table, tt, key);
        warp_op = o == tiled_needs_warp;
        out = static_cast<u32>(o == tiled_inserted ? InsertOutcome::inserted
                                                   : InsertOutcome::present);
      } else {
        // Fixed links read every slab through L1, the first one too.
        constexpr FirstRead kFirst =
            kLinks == ChainLinks::fixed ? FirstRead::cached : kDefaultEraseRead<kMap>;
        if constexpr (kMap)
          out = map_erase_tiled<kFirst, kLinks>(table, tt, key) ? 1u : 0u;
        else
          out = set_erase_tiled<kFirst, kLinks>(table, tt, key) ? 1u : 0u;
      }
      if (static_cast<int>(tt.thread_rank()) == s) {
        r = out;
        needs_warp = warp_op;
      }
    }
    if (needs_warp) atomicAdd(to_warp, 1ull);
    wg::for_each_active_lane(warp, needs_warp, [&](int s) {
      InsertOutcome o;
      if constexpr (kMap)
        o = table.insert_or_assign_exclusive(warp, warp.shfl(op.key, s), warp.shfl(op.value, s));
      else
        o = table.insert_exclusive(warp, warp.shfl(op.key, s));
      if (static_cast<int>(warp.thread_rank()) == s) r = static_cast<u32>(o);
    });
    if (active) result[i] = r;
  });
}

/// Calls f(std::integral_constant<int, T>) for T = lanes (1, 2, 4 or 8).
template <class F>
void with_tile_lanes(int lanes, F&& f) {
  switch (lanes) {
    case 1:
      return f(std::integral_constant<int, 1>{});
    case 2:
      return f(std::integral_constant<int, 2>{});
    case 4:
      return f(std::integral_constant<int, 4>{});
    default:
      return f(std::integral_constant<int, 8>{});
  }
}

/// exclusive_tiled_kernel over `ops` with tiles of `lanes` lanes: the result of each op.
template <ChainLinks kLinks = ChainLinks::growing, class Ref>
std::vector<u32> run_exclusive_tiled(int lanes, const Ref& table, const std::vector<Op>& ops,
                                     unsigned long long* to_warp, cudaStream_t stream) {
  auto d_ops = wg::DeviceBuffer<Op>::from_host(ops, stream);
  wg::DeviceBuffer<u32> result(ops.size(), stream);
  const unsigned grid = static_cast<unsigned>((ops.size() + 255) / 256);
  with_tile_lanes(lanes, [&](auto tile) {
    exclusive_tiled_kernel<decltype(tile)::value, Ref, kLinks>
        <<<grid, 256, 0, stream>>>(table, d_ops.data(), ops.size(), result.data(), to_warp);
  });
  WG_CUDA_CHECK_LAST();
  return result.to_host(stream);
}

/// Keys and values of a set (values 0) or map, as a std::map.
std::map<u32, u32> contents(SlabSet& set, cudaStream_t stream) {
  std::map<u32, u32> got;
  for (u32 k : set.retrieve_all(stream)) EXPECT_TRUE(got.emplace(k, 0).second) << "duplicate " << k;
  return got;
}
std::map<u32, u32> contents(SlabMap& map, cudaStream_t stream) {
  const auto [ks, vs] = map.retrieve_all(stream);
  std::map<u32, u32> got;
  for (std::size_t i = 0; i < ks.size(); ++i)
    EXPECT_TRUE(got.emplace(ks[i], vs[i]).second) << "duplicate " << ks[i];
  return got;
}

class SlabExclusiveTiled : public ::testing::TestWithParam<std::tuple<int, bool>> {};

INSTANTIATE_TEST_SUITE_P(TileLanes, SlabExclusiveTiled,
                         ::testing::Combine(::testing::Values(1, 2, 4, 8),
                                            ::testing::Values(false, true)),
                         [](const auto& info) {
                           return std::string(std::get<1>(info.param) ? "map" : "set") +
                                  std::to_string(std::get<0>(info.param));
                         });

/// Keys of the long-chain tests, and a table for them with about 8 slabs in each chain.
std::uint64_t long_chain_keys() {
  return std::max<std::uint64_t>(test_keys() / 4, 2048);
}
SlabTableConfig long_chain_config(std::uint64_t n, bool map) {
  SlabTableConfig cfg;
  cfg.num_buckets = static_cast<u32>(std::max<std::uint64_t>(1, n / (map ? 120 : 240)));
  cfg.allocator.slabs_per_super_block = 1u << 14;
  return cfg;
}

// Rounds of inserts and erases of distinct keys into few buckets (chains of several slabs, full
// of tombstones that later inserts take again): every result, and the keys and values after
// every round (a map insert of a present key assigns its value), equal a std::map model; the
// chains grow by the tiles' own appends (concurrent ones race to link theirs).
template <class Container>
void exclusive_tiled_rounds(int lanes) {
  using Ref = decltype(std::declval<Container&>().ref());
  constexpr bool kMap = std::is_same_v<Ref, MapTableRef>;
  wg::CudaStream stream;
  const std::uint64_t n = long_chain_keys();
  const SlabTableConfig cfg = long_chain_config(n, kMap);
  Container table(cfg, stream);
  std::map<u32, u32> model;
  std::mt19937 rng(1234 + lanes + (kMap ? 100 : 0));
  std::vector<u32> keys(n);
  for (std::uint64_t i = 0; i < n; ++i) keys[i] = static_cast<u32>(7 * i + 3);
  wg::DeviceBuffer<unsigned long long> to_warp(1, stream);
  to_warp.fill_bytes(0, stream);
  for (int round = 0; round < 6; ++round) {
    std::shuffle(keys.begin(), keys.end(), rng);
    std::vector<Op> ops(n / 2);
    for (std::size_t i = 0; i < ops.size(); ++i)  // inserts first, then more erases
      ops[i] = Op{(rng() % 10) < (round < 3 ? 7u : 4u) ? kOpInsert : kOpErase, keys[i],
                  kMap ? static_cast<u32>(rng()) : 0u};
    const std::vector<u32> r = run_exclusive_tiled(lanes, table.ref(), ops, to_warp.data(), stream);
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const bool present = model.count(ops[i].key) != 0;
      if (ops[i].type == kOpInsert) {
        ASSERT_NE(r[i], u32(InsertOutcome::out_of_slabs)) << "round " << round;
        ASSERT_EQ(r[i], u32(present ? InsertOutcome::present : InsertOutcome::inserted))
            << "insert of " << ops[i].key << ", round " << round;
        model[ops[i].key] = ops[i].value;
      } else {
        ASSERT_EQ(r[i], present ? 1u : 0u) << "erase of " << ops[i].key << ", round " << round;
        model.erase(ops[i].key);
      }
    }
    ASSERT_EQ(contents(table, stream), model) << "round " << round;
    if (round == 0)
      EXPECT_GE(table.overflow_slabs(stream), std::uint64_t{cfg.num_buckets})
          << "the chains did not grow: the tiles' appends went untested";
  }
}

// A pool with free slabs in one bitmap word only (of 32): a tile's hashed probes mostly miss it,
// so most appends fall back to the 32-lane insert, which scans the block and finds it. Every
// insert is then done, or, once the pool is spent (racing appends hold slabs they give back),
// reported out of slabs with nothing changed: the contents equal the model of the inserts done.
template <class Container>
void tiled_append_falls_back(int lanes) {
  using Ref = decltype(std::declval<Container&>().ref());
  constexpr bool kMap = std::is_same_v<Ref, MapTableRef>;
  wg::CudaStream stream;
  SlabTableConfig cfg;
  cfg.num_buckets = 4;
  cfg.allocator = SlabAllocatorConfig{1024, 1, 1};
  cfg.grow_on_exhaustion = false;
  Container table(cfg, stream);
  // Take every slab (the warp path), then give back the 32 of bitmap word 0.
  wg::DeviceBuffer<u32> taken(1024, stream);
  wg::DeviceBuffer<unsigned long long> n_taken(1, stream);
  n_taken.fill_bytes(0, stream);
  allocate_n_kernel<<<1, 32, 0, stream>>>(table.allocator().ref(), 1024, taken.data(),
                                          n_taken.data());
  WG_CUDA_CHECK_LAST();
  ASSERT_EQ(n_taken.to_host(stream)[0], 1024ull);
  std::vector<u32> word0(32);
  for (u32 i = 0; i < 32; ++i) word0[i] = i;
  auto d_word0 = wg::DeviceBuffer<u32>::from_host(word0, stream);
  free_all_kernel<<<1, 32, 0, stream>>>(table.allocator().ref(), d_word0.data(), 32);
  WG_CUDA_CHECK_LAST();
  table.allocator().clear_exhausted(stream);
  ASSERT_EQ(table.allocator().slabs_in_use(stream), 1024u - 32u);
  // About 5 slabs per chain: 20 of the 32.
  const u32 per_slab = kMap ? kMapPairsPerSlab : kSetKeysPerSlab;
  std::vector<Op> ops(cfg.num_buckets * per_slab * 5);
  for (std::size_t i = 0; i < ops.size(); ++i)
    ops[i] = Op{kOpInsert, static_cast<u32>(11 * i + 5), static_cast<u32>(i)};
  wg::DeviceBuffer<unsigned long long> to_warp(1, stream);
  to_warp.fill_bytes(0, stream);
  const std::vector<u32> r = run_exclusive_tiled(lanes, table.ref(), ops, to_warp.data(), stream);
  std::map<u32, u32> model;
  std::uint64_t done = 0;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    ASSERT_TRUE(r[i] == u32(InsertOutcome::inserted) || r[i] == u32(InsertOutcome::out_of_slabs))
        << "insert " << i << ": outcome " << r[i];
    if (r[i] == u32(InsertOutcome::inserted)) {
      model[ops[i].key] = kMap ? ops[i].value : 0u;
      ++done;
    }
  }
  EXPECT_EQ(contents(table, stream), model);
  EXPECT_GE(done, std::uint64_t{cfg.num_buckets} * per_slab * 2) << "too few appends succeeded";
  EXPECT_GT(to_warp.to_host(stream)[0], 0ull) << "no tile fell back to the warp";
  EXPECT_LE(table.allocator().slabs_in_use(stream), 1024u);
}

// An erase-only launch walking with fixed links (ChainLinks::fixed: no acquires, every slab read
// through L1), on chains of ~8 slabs holding keys and tombstones. Each key is erased by one to
// three racing tasks, as the graph's eager erases do, and absent keys are erased too: exactly one
// task erases each present key (the others' CAS fails and they read the slab again), none an
// absent one, and the contents equal the model.
template <class Container>
void fixed_link_erases(int lanes) {
  using Ref = decltype(std::declval<Container&>().ref());
  constexpr bool kMap = std::is_same_v<Ref, MapTableRef>;
  wg::CudaStream stream;
  const std::uint64_t n = long_chain_keys();
  const SlabTableConfig cfg = long_chain_config(n, kMap);
  Container table(cfg, stream);
  wg::DeviceBuffer<unsigned long long> to_warp(1, stream);
  to_warp.fill_bytes(0, stream);
  // Every key, then a quarter of them erased (tombstones in the chains), both as usual.
  const auto run = [&](const std::vector<Op>& ops, bool fixed) {
    return fixed ? run_exclusive_tiled<ChainLinks::fixed>(lanes, table.ref(), ops, to_warp.data(),
                                                          stream)
                 : run_exclusive_tiled(lanes, table.ref(), ops, to_warp.data(), stream);
  };
  std::map<u32, u32> model;
  std::vector<Op> ops;
  for (std::uint64_t i = 0; i < n; ++i) {
    ops.push_back(Op{kOpInsert, static_cast<u32>(5 * i + 1), static_cast<u32>(i)});
    model[static_cast<u32>(5 * i + 1)] = kMap ? static_cast<u32>(i) : 0u;
  }
  run(ops, false);
  ops.clear();
  for (std::uint64_t i = 0; i < n; i += 4) {
    ops.push_back(Op{kOpErase, static_cast<u32>(5 * i + 1), 0});
    model.erase(static_cast<u32>(5 * i + 1));
  }
  run(ops, false);
  ASSERT_EQ(contents(table, stream), model);
  ASSERT_GE(table.overflow_slabs(stream), std::uint64_t{cfg.num_buckets})
      << "the chains are one slab long: the walk past it went untested";
  // The erase-only launch: half of the keys ever inserted, and as many never inserted.
  std::mt19937 rng(77 + lanes + (kMap ? 100 : 0));
  ops.clear();
  std::map<u32, bool> present;  // key -> present before the launch
  for (std::uint64_t i = 0; i < n; ++i) {
    if (rng() % 2) continue;
    const u32 key = static_cast<u32>(5 * i + 1 + (rng() % 2 ? 0 : 2));  // +2: never inserted
    present[key] = model.count(key) != 0;
    for (u32 c = 0, copies = 1 + rng() % 3; c < copies; ++c) ops.push_back(Op{kOpErase, key, 0});
  }
  std::shuffle(ops.begin(), ops.end(), rng);
  const std::vector<u32> r = run(ops, true);
  std::map<u32, u32> erased;
  for (std::size_t i = 0; i < ops.size(); ++i) erased[ops[i].key] += r[i];
  for (const auto& [key, was] : present) {
    ASSERT_EQ(erased[key], was ? 1u : 0u) << "key " << key << (was ? " (present)" : " (absent)");
    model.erase(key);
  }
  EXPECT_EQ(contents(table, stream), model);
}

TEST_P(SlabExclusiveTiled, EraseOnlyPhaseWithFixedLinks) {
  const auto [lanes, is_map] = GetParam();
  if (is_map)
    fixed_link_erases<SlabMap>(lanes);
  else
    fixed_link_erases<SlabSet>(lanes);
}

TEST_P(SlabExclusiveTiled, FullPoolFallsBackToTheWarp) {
  const auto [lanes, is_map] = GetParam();
  if (is_map)
    tiled_append_falls_back<SlabMap>(lanes);
  else
    tiled_append_falls_back<SlabSet>(lanes);
}

TEST_P(SlabExclusiveTiled, MatchesModelAndReusesTombstones) {
  const auto [lanes, is_map] = GetParam();
  if (is_map)
    exclusive_tiled_rounds<SlabMap>(lanes);
  else
    exclusive_tiled_rounds<SlabSet>(lanes);
}

// ---- build, for_each, flush
// ----------------------------------------------------------------------

TEST(SlabHash, BulkBuildAtLoadFactor) {
  wg::CudaStream stream;
  const std::uint64_t n = test_keys();
  std::mt19937 rng(3);
  std::vector<u32> keys(n);
  for (auto& k : keys) k = rng() % 0xF0000000u;
  std::unordered_set<u32> distinct(keys.begin(), keys.end());
  auto d = wg::DeviceBuffer<u32>::from_host(keys, stream);
  SlabSet set({}, stream);
  EXPECT_EQ(set.build(d.data(), n, 0.55, stream), distinct.size());
  EXPECT_EQ(set.num_buckets(), buckets_for(n, 0.55, 30));
  EXPECT_NEAR(set.load_factor(stream), 0.55 * distinct.size() / n, 0.01);
  wg::DeviceBuffer<bool> flags(n, stream);
  EXPECT_EQ(set.contains(d.data(), n, flags.data(), stream), n);
  std::vector<u32> absent(n);
  for (auto& k : absent) k = 0xF0000000u + rng() % 0x0FFFFFF0u;  // disjoint range
  auto da = wg::DeviceBuffer<u32>::from_host(absent, stream);
  EXPECT_EQ(set.contains(da.data(), n, flags.data(), stream), 0u);

  SlabMap map({}, stream);
  std::vector<u32> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = keys[i] ^ 0x5A5A5A5Au;
  auto dv = wg::DeviceBuffer<u32>::from_host(values, stream);
  EXPECT_EQ(map.build(d.data(), dv.data(), n, 0.8, stream), distinct.size());
  wg::DeviceBuffer<u32> out(n, stream);
  EXPECT_EQ(map.find(d.data(), n, out.data(), nullptr, stream), n);
  const std::vector<u32> got = out.to_host(stream);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], keys[i] ^ 0x5A5A5A5Au);
  EXPECT_GT(map.memory_bytes(), std::size_t{map.num_buckets()} * kSlabBytes - 1);
  map.clear(stream);
  EXPECT_EQ(map.size(stream), 0u);
  EXPECT_EQ(map.count(stream), 0u);
  EXPECT_EQ(map.overflow_slabs(stream), 0u);
  EXPECT_EQ(map.find(d.data(), n, out.data(), nullptr, stream), 0u);
}

void mark_set_keys(const SlabSet& set, u32* marks, cudaStream_t stream) {
  set.for_each([=] __device__(u32 k) { atomicAdd(marks + k, 1u); }, stream);
}
void mark_map_keys(const SlabMap& map, u32* marks, cudaStream_t stream) {
  map.for_each([=] __device__(u32 k, u32 v) { atomicAdd(marks + k, v == k + 1 ? 1u : 1000u); },
               stream);
}

TEST(SlabHash, ForEachVisitsExactlyTheLiveKeys) {
  wg::CudaStream stream;
  const u32 range = static_cast<u32>(test_keys());
  std::mt19937 rng(17);
  std::vector<u32> ins(range / 2), er(range / 4);
  for (auto& k : ins) k = rng() % range;
  for (auto& k : er) k = rng() % range;
  std::set<u32> live(ins.begin(), ins.end());
  for (u32 k : er) live.erase(k);
  SlabTableConfig cfg;
  cfg.num_buckets = range / 100 + 1;
  SlabSet set(cfg, stream);
  SlabMap map(cfg, stream);
  std::vector<u32> vals(ins.size());
  for (std::size_t i = 0; i < ins.size(); ++i) vals[i] = ins[i] + 1;
  set.insert(ins, stream);
  set.erase(er, stream);
  map.insert(ins, vals, stream);
  map.erase(er, stream);
  for (int which = 0; which < 2; ++which) {
    wg::DeviceBuffer<u32> marks(range, stream);
    marks.fill_bytes(0, stream);
    if (which == 0)
      mark_set_keys(set, marks.data(), stream);
    else
      mark_map_keys(map, marks.data(), stream);
    const std::vector<u32> m = marks.to_host(stream);
    for (u32 k = 0; k < range; ++k)
      ASSERT_EQ(m[k], live.count(k) ? 1u : 0u) << "key " << k << (which ? " map" : " set");
  }
}

TEST(SlabHash, FlushKeepsContentsAndFreesSlabs) {
  wg::CudaStream stream;
  const u32 n = static_cast<u32>(test_keys());
  SlabTableConfig cfg;
  cfg.num_buckets = 8;  // long chains
  SlabSet set(cfg, stream);
  SlabMap map(cfg, stream);
  std::vector<u32> keys(n), vals(n);
  for (u32 i = 0; i < n; ++i) {
    keys[i] = i * 7u + 1;
    vals[i] = i;
  }
  set.insert(keys, stream);
  map.insert(keys, vals, stream);
  std::vector<u32> er;
  for (u32 i = 0; i < n; ++i)
    if (i % 5) er.push_back(keys[i]);  // erase 80%
  EXPECT_EQ(set.erase(er, stream), er.size());
  EXPECT_EQ(map.erase(er, stream), er.size());
  const std::uint64_t set_before = set.overflow_slabs(stream),
                      map_before = map.overflow_slabs(stream);
  set.flush(stream);
  map.flush(stream);
  const std::uint64_t set_after = set.overflow_slabs(stream),
                      map_after = map.overflow_slabs(stream);
  EXPECT_LT(set_after, set_before / 3);
  EXPECT_LT(map_after, map_before / 3);
  // Contents unchanged.
  std::vector<u32> expect;
  for (u32 i = 0; i < n; i += 5) expect.push_back(keys[i]);
  std::vector<u32> got = set.retrieve_all(stream);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expect);
  EXPECT_EQ(set.count(stream), expect.size());
  const auto [ks, vs] = map.retrieve_all(stream);
  ASSERT_EQ(ks.size(), expect.size());
  for (std::size_t i = 0; i < ks.size(); ++i) ASSERT_EQ(ks[i], keys[vs[i]]);
  // Minimal chains: with c live keys per bucket, at most ceil(c / slots) - 1 overflow slabs each.
  EXPECT_LE(set_after, expect.size() / 30 + 8);
  // The table keeps working: re-insert the erased keys.
  EXPECT_EQ(set.insert(er, stream), er.size());
  EXPECT_EQ(set.count(stream), n);
  EXPECT_EQ(map.insert(er, std::vector<u32>(er.size(), 3), stream), er.size());
  EXPECT_EQ(map.count(stream), n);
}

// ---- allocator
// -----------------------------------------------------------------------------------

__global__ void allocate_all_kernel(SlabAllocatorRef alloc, u32 per_warp, u32* out,
                                    unsigned long long* n, u32* bad_contents) {
  const wg::warp_tile tile = wg::this_warp();
  for (u32 r = 0; r < per_warp; ++r) {
    const u32 h = alloc.allocate(tile);
    if (h == kNullSlab) return;  // warp-uniform
    if (alloc.pointer(h)->words[tile.thread_rank()] != kEmptyKey) atomicAdd(bad_contents, 1u);
    alloc.pointer(h)->words[tile.thread_rank()] = 0;  // dirty it: the next owner must see empties
    if (tile.thread_rank() == 0) out[atomicAdd(n, 1ull)] = h;
  }
}
/// The `got` handles in `out` are distinct slabs of `alloc`; then every one is freed.
void expect_distinct_then_free(SlabAllocator& alloc, const wg::DeviceBuffer<u32>& out,
                               std::uint64_t got, cudaStream_t stream) {
  std::vector<u32> h = out.to_host(stream, got);
  std::sort(h.begin(), h.end());
  EXPECT_EQ(std::adjacent_find(h.begin(), h.end()), h.end()) << "a slab was handed out twice";
  if (h.empty()) return;
  EXPECT_LT(h.back(), alloc.capacity_slabs());
  free_all_kernel<<<static_cast<unsigned>((got + 255) / 256), 256, 0, stream>>>(alloc.ref(),
                                                                                out.data(), got);
  WG_CUDA_CHECK_LAST();
  EXPECT_EQ(alloc.slabs_in_use(stream), 0u);
}

/// Every thread try_allocate()s (one-thread tiles) up to per_thread slabs.
__global__ void try_allocate_kernel(SlabAllocatorRef alloc, u32 per_thread, u32* out,
                                    unsigned long long* n) {
  for (u32 r = 0; r < per_thread; ++r) {
    const u32 h = alloc.try_allocate(wg::thread_tile{});
    if (h == kNullSlab) return;
    alloc.pointer(h)->words[0] = 0;
    out[atomicAdd(n, 1ull)] = h;
  }
}

// try_allocate hands out distinct slabs of the pool, gives up (never hangs, never sets the
// exhausted flag) when its probes find full words, and fails at once while the flag is set.
TEST(SlabAllocator, TryAllocateClaimsDistinctSlabsAndGivesUp) {
  wg::CudaStream stream;
  SlabAllocator alloc(SlabAllocatorConfig{1024, 2, 2}, stream, "tiny");
  wg::DeviceBuffer<u32> out(1u << 16, stream);
  wg::DeviceBuffer<unsigned long long> n(1, stream);
  n.fill_bytes(0, stream);
  try_allocate_kernel<<<64, 256, 0, stream>>>(alloc.ref(), 4, out.data(), n.data());
  WG_CUDA_CHECK_LAST();
  const std::uint64_t got = n.to_host(stream)[0];
  EXPECT_LE(got, alloc.capacity_slabs());
  EXPECT_GE(got, alloc.capacity_slabs() / 2) << "the probes gave up on a pool with room";
  EXPECT_EQ(alloc.slabs_in_use(stream), got);
  EXPECT_FALSE(alloc.exhausted(stream));
  expect_distinct_then_free(alloc, out, got, stream);
  // Exhaust it the warp way (sets the flag), give everything back: the flag still stops it.
  n.fill_bytes(0, stream);
  allocate_n_kernel<<<1, 32, 0, stream>>>(alloc.ref(), 4096, out.data(), n.data());
  WG_CUDA_CHECK_LAST();
  const std::uint64_t all = n.to_host(stream)[0];
  EXPECT_EQ(all, alloc.capacity_slabs());
  EXPECT_TRUE(alloc.exhausted(stream));
  free_all_kernel<<<static_cast<unsigned>((all + 255) / 256), 256, 0, stream>>>(alloc.ref(),
                                                                                out.data(), all);
  WG_CUDA_CHECK_LAST();
  n.fill_bytes(0, stream);
  try_allocate_kernel<<<4, 256, 0, stream>>>(alloc.ref(), 1, out.data(), n.data());
  WG_CUDA_CHECK_LAST();
  EXPECT_EQ(n.to_host(stream)[0], 0ull) << "try_allocate claimed a slab while exhausted";
}

TEST(SlabAllocator, ExhaustionIsReportedAndGrowthWorks) {
  wg::CudaStream stream;
  SlabAllocatorConfig cfg{1024, 2, 3};
  SlabAllocator alloc(cfg, stream, "tiny");
  EXPECT_EQ(alloc.capacity_slabs(), 2048u);
  for (int round = 0; round < 2; ++round) {
    wg::DeviceBuffer<u32> out(1u << 16, stream);
    wg::DeviceBuffer<unsigned long long> n(1, stream);
    wg::DeviceBuffer<u32> bad(1, stream);
    n.fill_bytes(0, stream);
    bad.fill_bytes(0, stream);
    allocate_all_kernel<<<64, 256, 0, stream>>>(alloc.ref(), 64, out.data(), n.data(), bad.data());
    WG_CUDA_CHECK_LAST();
    const std::uint64_t got = n.to_host(stream)[0];
    EXPECT_EQ(got, alloc.capacity_slabs()) << "round " << round;  // 64*8*64 requests > capacity
    EXPECT_TRUE(alloc.exhausted(stream));
    EXPECT_EQ(alloc.slabs_in_use(stream), alloc.capacity_slabs());
    EXPECT_EQ(bad.to_host(stream)[0], 0u);
    expect_distinct_then_free(alloc, out, got, stream);
    alloc.clear_exhausted(stream);
    EXPECT_FALSE(alloc.exhausted(stream));
    if (round == 0) alloc.grow(1, stream);
  }
  EXPECT_EQ(alloc.capacity_slabs(), 3072u);
  try {
    alloc.grow(1, stream);
    FAIL() << "expected CapacityError";
  } catch (const wg::CapacityError& e) {
    EXPECT_NE(std::string(e.what()).find("tiny"), std::string::npos) << e.what();
    EXPECT_EQ(e.capacity(), 3072u);
  }
}

TEST(SlabHash, TableExhaustionThrowsOrGrows) {
  wg::CudaStream stream;
  const u32 n = 40000;  // one bucket: ~1333 slabs of 30 keys
  std::vector<u32> keys(n);
  for (u32 i = 0; i < n; ++i) keys[i] = i;
  SlabTableConfig cfg;
  cfg.num_buckets = 1;
  cfg.allocator = SlabAllocatorConfig{1024, 1, 1};
  {
    SlabSet set(cfg, stream);
    try {
      set.insert(keys, stream);
      FAIL() << "expected CapacityError";
    } catch (const wg::CapacityError& e) {
      EXPECT_NE(std::string(e.what()).find("SlabSet"), std::string::npos) << e.what();
      EXPECT_EQ(e.capacity(), 1024u);
    }
    // Partial application is reported exactly: what is there is consistent.
    EXPECT_EQ(set.count(stream), set.size(stream));
    // At most base + 1024 full slabs; a little less when warps gave up while others held slabs
    // they were about to return (lost link races).
    EXPECT_LE(set.size(stream), 30u * 1025u);
    EXPECT_GE(set.size(stream), 30u * 900u);
  }
  cfg.grow_on_exhaustion = false;
  cfg.allocator.max_super_blocks = 4;
  {
    SlabMap map(cfg, stream);
    EXPECT_THROW(map.insert(keys, keys, stream), wg::CapacityError);
  }
  cfg.grow_on_exhaustion = true;
  {
    SlabMap map(cfg, stream);  // 40000 / 15 = 2667 slabs: grows 1 -> 2 -> 4 super blocks
    EXPECT_EQ(map.insert(keys, keys, stream), n);
    EXPECT_EQ(map.allocator().num_super_blocks(), 4u);
    EXPECT_EQ(map.count(stream), n);
    const auto [v, f] = map.find(keys, stream);
    for (u32 i = 0; i < n; ++i) ASSERT_TRUE(f[i] && v[i] == i);
  }
}

// ---- reserved keys
// -------------------------------------------------------------------------------

TEST(SlabHash, ReservedKeysAreRejected) {
  wg::CudaStream stream;
  SlabSet set({}, stream);
  SlabMap map({}, stream);
  EXPECT_THROW(set.insert(std::vector<u32>{1, kEmptyKey}, stream), wg::InvalidArgument);
  EXPECT_THROW(set.insert(std::vector<u32>{kTombstoneKey}, stream), wg::InvalidArgument);
  EXPECT_THROW(map.insert(std::vector<u32>{kTombstoneKey}, std::vector<u32>{1}, stream),
               wg::InvalidArgument);
  EXPECT_THROW(set.erase(std::vector<u32>{kEmptyKey}, stream), wg::InvalidArgument);
  EXPECT_EQ(set.size(stream), 0u);  // the host check runs before anything is applied
  // Device spans: checked on the device; the valid keys are applied, then the error.
  auto d = wg::DeviceBuffer<u32>::from_host({3, kEmptyKey, 4, kTombstoneKey}, stream);
  try {
    set.insert(d.data(), 4, stream);
    FAIL() << "expected InvalidArgument";
  } catch (const wg::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("2 keys are reserved"), std::string::npos) << e.what();
  }
  EXPECT_EQ(set.size(stream), 2u);
  EXPECT_EQ(set.count(stream), 2u);
  EXPECT_THROW(map.insert(d.data(), d.data(), 4, stream), wg::InvalidArgument);
  EXPECT_EQ(map.count(stream), 2u);
  wg::DeviceBuffer<bool> flags(4, stream);
  EXPECT_EQ(set.contains(d.data(), 4, flags.data(), stream), 2u);  // reserved keys: never found
  EXPECT_EQ(kMaxKey, 0xFFFFFFFDu);
  EXPECT_EQ(set.insert(std::vector<u32>{kMaxKey, 0}, stream), 2u);
  EXPECT_TRUE(set.contains(std::vector<u32>{kMaxKey}, stream)[0]);
}

}  // namespace
