#pragma once
// A CPU stand-in for the CUDA pieces BTreeRef uses, so that its tile operations run unchanged
// on host threads: each lane of a 16-lane tile is a std::thread, and the tile collectives
// (shfl, ballot, reduce, sync) meet at a std::barrier. Several tiles run at once, so latches,
// splits and restarts race as on the GPU (with x86's stronger memory order: this checks the
// algorithm, not the fences). Include before any btree header.
#define WG_BTREE_HOST_EMULATION 1

#include <atomic>
#include <barrier>
#include <cstdint>
#include <thread>

#define __device__
#define __host__
#define __global__
#define __forceinline__ inline

namespace cuda {
enum thread_scope { thread_scope_device };
using std::memory_order;
inline constexpr std::memory_order memory_order_relaxed = std::memory_order_relaxed;
inline constexpr std::memory_order memory_order_acquire = std::memory_order_acquire;
inline constexpr std::memory_order memory_order_release = std::memory_order_release;
template <class T, thread_scope>
struct atomic_ref {
  explicit atomic_ref(T& x) : r(x) {}
  T load(std::memory_order o) const { return r.load(o); }
  void store(T v, std::memory_order o) const { r.store(v, o); }
  T fetch_or(T v, std::memory_order o) const { return r.fetch_or(v, o); }
  T fetch_and(T v, std::memory_order o) const { return r.fetch_and(v, o); }
  std::atomic_ref<T> r;
};
}  // namespace cuda

struct ulonglong2 {
  unsigned long long x, y;
};
inline ulonglong2 __ldg(const ulonglong2* p) {
  return *p;
}  // read-only kernels: no writers

inline int __ffs(unsigned x) {
  return __builtin_ffs(static_cast<int>(x));
}
inline int __popc(unsigned x) {
  return __builtin_popcount(x);
}
template <class T>
T __ldg(const T* p) {
  return std::atomic_ref<T>(*const_cast<T*>(p)).load(std::memory_order_relaxed);
}
inline void __nanosleep(unsigned) {
  std::this_thread::yield();
}
inline void __threadfence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}
inline unsigned atomicAdd(unsigned* p, unsigned v) {
  return std::atomic_ref<unsigned>(*p).fetch_add(v);
}
inline unsigned atomicExch(unsigned* p, unsigned v) {
  return std::atomic_ref<unsigned>(*p).exchange(v);
}

namespace wg::emu {

/// What the lanes of one tile share.
struct TileShared {
  explicit TileShared(unsigned lanes) : bar(lanes), lanes(lanes) {}
  std::barrier<> bar;
  unsigned lanes;
  std::uint64_t slot[32];
};

/// The tile interface BTreeRef uses (cooperative_groups::thread_block_tile<N>).
struct Tile {
  TileShared* sh;
  unsigned lane;
  unsigned thread_rank() const { return lane; }
  unsigned num_threads() const { return sh->lanes; }
  void sync() const { sh->bar.arrive_and_wait(); }
  template <class T>
  T shfl(T v, int src) const {
    sh->slot[lane] = static_cast<std::uint64_t>(v);
    sync();
    const T r = static_cast<T>(sh->slot[src]);
    sync();
    return r;
  }
  unsigned ballot(bool p) const {
    sh->slot[lane] = p;
    sync();
    unsigned b = 0;
    for (unsigned i = 0; i < sh->lanes; ++i) b |= static_cast<unsigned>(sh->slot[i] != 0) << i;
    sync();
    return b;
  }
};

}  // namespace wg::emu

namespace cooperative_groups {
template <class T>
struct less {
  T operator()(T a, T b) const { return a < b ? a : b; }
};
template <class T>
struct greater {
  T operator()(T a, T b) const { return a > b ? a : b; }
};
template <class T, class Op>
T reduce(const wg::emu::Tile& tile, T v, Op op) {
  tile.sh->slot[tile.lane] = v;
  tile.sync();
  T r = static_cast<T>(tile.sh->slot[0]);
  for (unsigned i = 1; i < tile.sh->lanes; ++i) r = op(r, static_cast<T>(tile.sh->slot[i]));
  tile.sync();
  return r;
}
}  // namespace cooperative_groups
