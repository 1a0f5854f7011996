// GPU tests of the slab tables' exclusive (tombstone-reusing) insert and erase with tiles of 1, 2,
// 4 and 8 lanes (slab_table_tile.cuh), for sets and maps, against models: long chains, a full pool
// falling back to the warp, erase-only phases with fixed links. Size: WG_SLAB_TEST_KEYS.
#include "slab_test_support.cuh"

namespace {

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
  SlabTableConfig cfg = test_config();
  cfg.num_buckets = static_cast<u32>(std::max<std::uint64_t>(1, n / (map ? 120 : 240)));
  cfg.allocator.slabs_per_super_block = 1u << 14;
  return cfg;
}

/// A table of long_chain_keys() keys' room in few buckets, on its own stream (the set-up of the
/// long-chain tests).
template <class Container>
struct LongChainTable {
  static constexpr bool kMap =
      std::is_same_v<decltype(std::declval<Container&>().ref()), MapTableRef>;
  wg::CudaStream stream;
  std::uint64_t n = long_chain_keys();
  SlabTableConfig cfg = long_chain_config(n, kMap);
  Container table{cfg, stream};
};

// Rounds of inserts and erases of distinct keys into few buckets (chains of several slabs, full
// of tombstones that later inserts take again): every result, and the keys and values after
// every round (a map insert of a present key assigns its value), equal a std::map model; the
// chains grow by the tiles' own appends (concurrent ones race to link theirs).
template <class Container>
void exclusive_tiled_rounds(int lanes) {
  constexpr bool kMap = LongChainTable<Container>::kMap;
  LongChainTable<Container> fixture;
  auto& [stream, n, cfg, table] = fixture;
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
  SlabTableConfig cfg = test_config();
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
  constexpr bool kMap = LongChainTable<Container>::kMap;
  LongChainTable<Container> fixture;
  auto& [stream, n, cfg, table] = fixture;
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

/// Runs test<SlabMap>(lanes) or test<SlabSet>(lanes), as the parameter says.
template <template <class> class Test>
void for_param(const std::tuple<int, bool>& param) {
  const auto [lanes, is_map] = param;
  if (is_map)
    Test<SlabMap>::run(lanes);
  else
    Test<SlabSet>::run(lanes);
}
template <class Table>
struct FixedLinkErases {
  static void run(int lanes) { fixed_link_erases<Table>(lanes); }
};
template <class Table>
struct TiledAppendFallsBack {
  static void run(int lanes) { tiled_append_falls_back<Table>(lanes); }
};
template <class Table>
struct ExclusiveTiledRounds {
  static void run(int lanes) { exclusive_tiled_rounds<Table>(lanes); }
};

TEST_P(SlabExclusiveTiled, EraseOnlyPhaseWithFixedLinks) {
  for_param<FixedLinkErases>(GetParam());
}
TEST_P(SlabExclusiveTiled, FullPoolFallsBackToTheWarp) {
  for_param<TiledAppendFallsBack>(GetParam());
}
TEST_P(SlabExclusiveTiled, MatchesModelAndReusesTombstones) {
  for_param<ExclusiveTiledRounds>(GetParam());
}

}  // namespace
