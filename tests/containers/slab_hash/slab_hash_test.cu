// GPU tests of the slab hash: host SlabSet/SlabMap against std models, concurrent mixed batches and
// a hot-key stress checked for per-key linearizability, bulk build, for_each, flush, allocator
// exhaustion and growth, reserved keys (the tiled exclusive operations: slab_tiled_test.cu).
// Size: WG_SLAB_TEST_KEYS (default 200000).
#include "slab_test_support.cuh"

namespace {

// ---- phase-ordered model tests ------------------------------------------------------------------

/// The model tests' table for n keys: half of them expected; lookahead G, and G = 8 also runs the
/// 8-lane kernels (both bulk kernel families); a small pool, so growth is exercised too.
SlabTableConfig model_config(std::uint64_t n, u32 lookahead) {
  SlabTableConfig cfg = test_config();
  cfg.expected_keys = n / 2;
  cfg.load_factor = 0.7;
  cfg.lookahead = lookahead;
  cfg.tile_lanes = lookahead == 8 ? 8 : 32;
  cfg.allocator.slabs_per_super_block = 1024;
  return cfg;
}

class SlabSetModel : public ::testing::TestWithParam<u32> {};  // param: lookahead

TEST_P(SlabSetModel, RandomBatchesMatchUnorderedSet) {
  wg::CudaStream stream;
  const std::uint64_t n = test_keys();
  SlabSet set(model_config(n, GetParam()), stream);
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
  SlabMap map(model_config(n, GetParam()), stream);
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
  SlabTableConfig cfg = test_config();
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
  SlabTableConfig cfg = test_config();
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
  SlabSet set(test_config(), stream);
  EXPECT_EQ(set.build(d.data(), n, 0.55, stream), distinct.size());
  EXPECT_EQ(set.num_buckets(), buckets_for(n, 0.55, 30));
  EXPECT_NEAR(set.load_factor(stream), 0.55 * distinct.size() / n, 0.01);
  wg::DeviceBuffer<bool> flags(n, stream);
  EXPECT_EQ(set.contains(d.data(), n, flags.data(), stream), n);
  std::vector<u32> absent(n);
  for (auto& k : absent) k = 0xF0000000u + rng() % 0x0FFFFFF0u;  // disjoint range
  auto da = wg::DeviceBuffer<u32>::from_host(absent, stream);
  EXPECT_EQ(set.contains(da.data(), n, flags.data(), stream), 0u);

  SlabMap map(test_config(), stream);
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
  SlabTableConfig cfg = test_config();
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
  SlabTableConfig cfg = test_config();
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
  SlabTableConfig cfg = test_config();
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
  SlabSet set(test_config(), stream);
  SlabMap map(test_config(), stream);
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
