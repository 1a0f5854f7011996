#pragma once
// Shared by the slab hash test files: the table configuration of every test, the test size, the
// op record of the mixed-batch kernels, allocator helper kernels and a table's contents as a map.
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
#include <warpgraph/containers/slab_hash/slab_table_tile.cuh>

#include "../../support/test_support.hpp"

namespace {

using namespace wg::slab;
using u32 = std::uint32_t;

/// The table configuration of every test: the defaults, with the 8-lane bulk insert policy from
/// WG_SLAB_BULK_INSERT="batch,block_threads,0|1" when set (tools/bench/slab_hash's tuning script
/// runs the tests under each candidate policy; the library itself reads no environment).
SlabTableConfig test_config() {
  SlabTableConfig cfg;
  if (const char* e = std::getenv("WG_SLAB_BULK_INSERT"); e && *e)
    cfg.bulk_insert = BulkInsertPolicy::parse(e);
  return cfg;
}

std::uint64_t test_keys() {
  const char* e = std::getenv("WG_SLAB_TEST_KEYS");
  const long long v = e ? std::atoll(e) : 0;
  return v > 0 ? static_cast<std::uint64_t>(v) : 200000;
}

enum OpType : u32 { kOpInsert = 0, kOpErase = 1, kOpFind = 2 };
struct Op {
  u32 type, key, value;
};

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

}  // namespace
