#pragma once
// Pipelined ingest of host batches into the GPU graph (stream_ingest.hpp): the definitions,
// written once over the graph front; each store's translation unit instantiates
// StreamIngest<DynamicGraph<ItsStore>> (stream_ingest.cu for the slab store).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/cuda_stream.hpp>
#include <warpgraph/containers/core/device_buffer.cuh>
#include <warpgraph/containers/core/pinned_buffer.hpp>
#include <warpgraph/graph/gpu/chunk_check.cuh>
#include <warpgraph/graph/gpu/host_batch.hpp>
#include <warpgraph/graph/gpu/launch_grid.hpp>
#include <warpgraph/graph/gpu/stream_ingest.hpp>

namespace wg::gpu {
namespace detail::ingest {

inline std::int64_t nanos_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
      .count();
}

/// A pause for a polling loop (lets the core's sibling thread run).
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

/// Polls `ready` for up to `us` microseconds; true as soon as it holds.
template <class Ready>
bool spin_for(std::uint32_t us, const Ready& ready) {
  if (ready()) return true;
  if (us == 0) return false;
  const auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
  for (unsigned i = 1;; ++i) {
    if (ready()) return true;
    if ((i & 63u) == 0 && std::chrono::steady_clock::now() >= end) return false;
    cpu_relax();
  }
}

/// Persistent host threads that copy one chunk's arrays in parallel: run(f) calls f(i) for
/// i = 0 .. threads()-1, part 0 on the caller's thread, and returns when all are done. Idle
/// workers poll for spin_us before they sleep, and the caller polls for their completion, so a
/// chunk's copy does not wait for threads to wake up.
class CopyPool {
 public:
  CopyPool(int threads, std::uint32_t spin_us) : spin_us_(spin_us) {
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this, i] { work(i); });
  }
  ~CopyPool() {
    {
      std::lock_guard lock(m_);
      stop_.store(true);
    }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
  }
  int threads() const { return static_cast<int>(workers_.size()) + 1; }
  void run(const std::function<void(int)>& f) {
    // Every worker finished the previous task (run waited for it): none reads task_ now. The
    // generation's release publishes task_ and pending_ to the workers' acquire.
    task_ = &f;
    pending_.store(static_cast<int>(workers_.size()), std::memory_order_relaxed);
    {
      std::lock_guard lock(m_);  // a worker about to sleep sees the new generation
      generation_.fetch_add(1, std::memory_order_release);
    }
    cv_.notify_all();
    f(0);
    const auto all_done = [&] { return pending_.load(std::memory_order_acquire) == 0; };
    if (!spin_for(spin_us_, all_done)) {
      std::unique_lock lock(m_);
      done_.wait(lock, all_done);
    }
  }

 private:
  void work(int i) {
    std::uint64_t seen = 0;
    for (;;) {
      const auto has_work = [&] {
        return stop_.load(std::memory_order_acquire) ||
               generation_.load(std::memory_order_acquire) != seen;
      };
      if (!spin_for(spin_us_, has_work)) {
        std::unique_lock lock(m_);
        cv_.wait(lock, has_work);
      }
      if (stop_.load(std::memory_order_acquire)) return;
      seen = generation_.load(std::memory_order_acquire);
      (*task_)(i);
      if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        // Under the lock: the caller either saw pending_ == 0 or is already waiting.
        std::lock_guard lock(m_);
        done_.notify_one();
      }
    }
  }
  std::uint32_t spin_us_;
  std::mutex m_;
  std::condition_variable cv_, done_;
  const std::function<void(int)>* task_ = nullptr;
  std::atomic<int> pending_{0};
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<bool> stop_{false};
  std::vector<std::thread> workers_;
};

}  // namespace detail::ingest
using namespace detail::ingest;

template <class Graph>
struct StreamIngest<Graph>::Impl {
  /// A batch's state across its chunks (shared by its jobs).
  struct Batch {
    std::promise<UpdateResult> promise;
    IngestedBatch info;
    bool done = false;  ///< promise fulfilled (value or exception)
  };
  /// Staging memory and device memory for one chunk, and its events.
  struct Slot {
    PinnedBuffer<vertex_t> h_src, h_dst;
    PinnedBuffer<double> h_weight;             // weighted graphs only
    PinnedBuffer<unsigned long long> h_check;  // the check kernel's out[2]
    DeviceBuffer<vertex_t> d_src, d_dst;
    DeviceBuffer<double> d_weight;
    DeviceBuffer<std::uint32_t> d_values;
    DeviceBuffer<unsigned long long> d_check;
    cudaEvent_t copied = nullptr;    // on the copy stream, after the copy (and check)
    cudaEvent_t consumed = nullptr;  // on the graph's stream, after the chunk's update
    cudaEvent_t copy_start = nullptr, copy_end = nullptr;  // options.time_copies only
  };
  /// One chunk queued for the apply thread (slot -1: an empty batch).
  struct Job {
    int slot = -1;
    UpdateKind kind = UpdateKind::insert;
    std::uint64_t n = 0, offset = 0, num_vertices = 0;
    bool checked = false, with_values = false, last = false;
    const double* host_weight = nullptr;  // for the message naming a bad weight
    std::exception_ptr error;             // submit() failed: the batch ends with this
    std::shared_ptr<Batch> batch;
  };

  Impl(Graph& g, const StreamIngestOptions& o, ApplyFn a, BatchFn cb)
      : graph(g),
        opt(o),
        apply(std::move(a)),
        on_batch(std::move(cb)),
        pool(o.copy_threads, o.wait_spin_us) {
    if (opt.slots < 2) throw InvalidArgument("StreamIngest: slots must be at least 2");
    if (opt.staging_entries == 0)
      throw InvalidArgument("StreamIngest: staging_entries must be positive");
    if (opt.copy_threads < 1) throw InvalidArgument("StreamIngest: copy_threads must be >= 1");
    if (!apply) {
      apply = [&g](UpdateKind k, DeviceEdges e) {
        return k == UpdateKind::insert ? g.insert_edges(e) : g.erase_edges(e);
      };
    }
    WG_CUDA_TRY(cudaGetDevice(&device));
    const std::uint64_t c = opt.staging_entries;
    const cudaStream_t s = copy_stream.get();
    slots.resize(static_cast<std::size_t>(opt.slots));
    for (std::size_t i = 0; i < slots.size(); ++i) {
      Slot& sl = slots[i];
      sl.h_src = PinnedBuffer<vertex_t>(c);
      sl.h_dst = PinnedBuffer<vertex_t>(c);
      sl.h_check = PinnedBuffer<unsigned long long>(2);
      sl.d_src = DeviceBuffer<vertex_t>(c, s, "StreamIngest slot");
      sl.d_dst = DeviceBuffer<vertex_t>(c, s, "StreamIngest slot");
      sl.d_check = DeviceBuffer<unsigned long long>(2, s, "StreamIngest slot");
      if constexpr (Graph::is_weighted) {
        sl.h_weight = PinnedBuffer<double>(c);
        sl.d_weight = DeviceBuffer<double>(c, s, "StreamIngest slot");
        sl.d_values = DeviceBuffer<std::uint32_t>(c, s, "StreamIngest slot");
      }
      WG_CUDA_TRY(cudaEventCreateWithFlags(&sl.copied, cudaEventDisableTiming));
      WG_CUDA_TRY(cudaEventCreateWithFlags(&sl.consumed, cudaEventDisableTiming));
      if (opt.time_copies) {
        WG_CUDA_TRY(cudaEventCreate(&sl.copy_start));
        WG_CUDA_TRY(cudaEventCreate(&sl.copy_end));
      }
      // The first copy into the slot waits for this: nothing to wait for yet.
      WG_CUDA_TRY(cudaEventRecord(sl.consumed, s));
      free_slots.push_back(static_cast<int>(i));
      free_count.fetch_add(1, std::memory_order_relaxed);
    }
    // The slots' allocations are stream-ordered on the copy stream: done before any use.
    WG_CUDA_TRY(cudaStreamSynchronize(s));
    applier = std::thread([this] { apply_loop(); });
  }

  ~Impl() {
    {
      std::lock_guard lock(m);
      stop = true;
      stopping.store(true, std::memory_order_release);
    }
    queue_cv.notify_all();
    if (applier.joinable()) applier.join();
    // The graph's stream may still run after a chunk's call returned (dynamic_graph.hpp): the
    // slots' memory goes only after their last update and copy.
    for (Slot& sl : slots) (void)cudaStreamWaitEvent(copy_stream.get(), sl.consumed, 0);
    (void)cudaStreamSynchronize(copy_stream.get());
    for (Slot& sl : slots) {
      if (sl.copied) (void)cudaEventDestroy(sl.copied);
      if (sl.consumed) (void)cudaEventDestroy(sl.consumed);
      if (sl.copy_start) (void)cudaEventDestroy(sl.copy_start);
      if (sl.copy_end) (void)cudaEventDestroy(sl.copy_end);
    }
  }

  // The waits below poll an atomic count first (options.wait_spin_us), then sleep; the other
  // side notifies only a thread that sleeps (flagged under m), so the pipeline's critical path
  // (the apply thread releasing a slot, the caller queueing a chunk) makes no system call while
  // the other side polls.
  int acquire_slot() {
    const auto t0 = std::chrono::steady_clock::now();
    spin_for(opt.wait_spin_us, [&] { return free_count.load(std::memory_order_acquire) > 0; });
    std::unique_lock lock(m);
    caller_sleeps = true;
    slot_cv.wait(lock, [&] { return !free_slots.empty(); });
    caller_sleeps = false;
    const int s = free_slots.front();
    free_slots.pop_front();
    free_count.fetch_sub(1, std::memory_order_relaxed);
    wait_slot_ns += nanos_since(t0);
    return s;
  }

  void enqueue(Job j) {
    bool wake = false;
    {
      std::lock_guard lock(m);
      queue.push_back(std::move(j));
      queued.fetch_add(1, std::memory_order_release);
      wake = applier_sleeps;
    }
    if (wake) queue_cv.notify_one();
  }

  /// Copies entries [off, off + n) of a pageable batch into slot `s`'s staging memory.
  void stage(Slot& sl, const HostEdges& b, std::uint64_t off, std::uint64_t n, bool weights) {
    auto copy_part = [&](std::uint64_t lo, std::uint64_t hi) {
      if (hi <= lo) return;
      std::memcpy(sl.h_src.data() + lo, b.src + off + lo, (hi - lo) * sizeof(vertex_t));
      std::memcpy(sl.h_dst.data() + lo, b.dst + off + lo, (hi - lo) * sizeof(vertex_t));
      if (weights)
        std::memcpy(sl.h_weight.data() + lo, b.weight + off + lo, (hi - lo) * sizeof(double));
    };
    if (n < opt.parallel_copy_from || pool.threads() == 1) {
      copy_part(0, n);
      return;
    }
    const auto parts = static_cast<std::uint64_t>(pool.threads());
    pool.run([&](int i) {
      const auto k = static_cast<std::uint64_t>(i);
      copy_part(n * k / parts, n * (k + 1) / parts);
    });
  }

  /// Queues the host-to-device copy of a chunk into slot `s` (from its staging memory or from
  /// the caller's pinned memory) and, for inserts, the check kernel; records `copied`.
  void issue_copy(Slot& sl, const vertex_t* src, const vertex_t* dst, const double* w,
                  std::uint64_t n, bool checked) {
    const cudaStream_t s = copy_stream.get();
    WG_CUDA_TRY(cudaStreamWaitEvent(s, sl.consumed, 0));
    if (sl.copy_start) WG_CUDA_TRY(cudaEventRecord(sl.copy_start, s));
    WG_CUDA_TRY(
        cudaMemcpyAsync(sl.d_src.data(), src, n * sizeof(vertex_t), cudaMemcpyHostToDevice, s));
    WG_CUDA_TRY(
        cudaMemcpyAsync(sl.d_dst.data(), dst, n * sizeof(vertex_t), cudaMemcpyHostToDevice, s));
    if (w) {
      WG_CUDA_TRY(
          cudaMemcpyAsync(sl.d_weight.data(), w, n * sizeof(double), cudaMemcpyHostToDevice, s));
    }
    if (sl.copy_end) WG_CUDA_TRY(cudaEventRecord(sl.copy_end, s));
    if (checked) {
      WG_CUDA_TRY(cudaMemsetAsync(sl.d_check.data(), 0, sl.d_check.bytes(), s));
      detail::check_chunk_kernel<<<grid_for(n), kBlock, 0, s>>>(
          sl.d_src.data(), sl.d_dst.data(), n, w ? sl.d_weight.data() : nullptr,
          w ? sl.d_values.data() : nullptr, sl.d_check.data());
      WG_CUDA_CHECK_LAST();
      WG_CUDA_TRY(cudaMemcpyAsync(sl.h_check.data(), sl.d_check.data(), sl.d_check.bytes(),
                                  cudaMemcpyDeviceToHost, s));
    }
    WG_CUDA_TRY(cudaEventRecord(sl.copied, s));
  }

  std::future<UpdateResult> submit(UpdateKind kind, const HostEdges& b, bool pinned) {
    if (b.size && (!b.src || !b.dst)) throw InvalidArgument("StreamIngest: null src or dst");
    if (pinned && b.size &&
        (!is_pinned(b.src) || !is_pinned(b.dst) || (b.weight && !is_pinned(b.weight)))) {
      throw InvalidArgument(
          "StreamIngest::submit_pinned: the batch is not in pinned host memory (cudaHostAlloc, "
          "cudaHostRegister or PinnedBuffer); use submit()");
    }
    auto batch = std::make_shared<Batch>();
    batch->info = IngestedBatch{.index = submitted_batches,
                                .kind = kind,
                                .entries = b.size,
                                .chunks = 0,
                                .result = {},
                                .stream = graph.stream()};
    std::future<UpdateResult> fut = batch->promise.get_future();
    if (!busy) {
      busy = true;
      busy_since = std::chrono::steady_clock::now();
    }
    ++submitted_batches;
    const bool insert = kind == UpdateKind::insert;
    // As the EdgeList overloads: inserts are checked (id range, weights), erases are not.
    const bool with_values = insert && Graph::is_weighted && b.weight != nullptr;
    const std::uint64_t c = opt.staging_entries;
    const std::uint64_t chunks = b.size == 0 ? 1 : (b.size + c - 1) / c;
    batch->info.chunks = chunks;
    // A failure here (a CUDA error queueing a copy) ends the batch through the queue, so its
    // future and drain() report it in order and no slot is lost.
    for (std::uint64_t k = 0; k < chunks; ++k) {
      const std::uint64_t off = k * c, n = std::min(c, b.size - off);
      Job j{.slot = -1,
            .kind = kind,
            .n = n,
            .offset = off,
            .num_vertices = b.num_vertices,
            .checked = insert && n > 0,
            .with_values = with_values,
            .last = k + 1 == chunks,
            .host_weight = nullptr,
            .batch = batch};
      if (n > 0) {
        j.slot = acquire_slot();
        const auto t0 = std::chrono::steady_clock::now();
        Slot& sl = slots[static_cast<std::size_t>(j.slot)];
        try {
          if (pinned) {
            j.host_weight = with_values ? b.weight + off : nullptr;
            issue_copy(sl, b.src + off, b.dst + off, j.host_weight, n, j.checked);
          } else {
            stage(sl, b, off, n, with_values);
            j.host_weight = with_values ? sl.h_weight.data() : nullptr;
            issue_copy(sl, sl.h_src.data(), sl.h_dst.data(), j.host_weight, n, j.checked);
          }
        } catch (...) {
          release_slot(j.slot);
          j.slot = -1;
          j.last = true;
          j.error = std::current_exception();
          enqueue(std::move(j));
          break;
        }
        stage_ns += nanos_since(t0);
      }
      enqueue(std::move(j));
    }
    return fut;
  }

  void release_slot(int s) {
    if (s < 0) return;
    bool wake = false;
    {
      std::lock_guard lock(m);
      free_slots.push_back(s);
      free_count.fetch_add(1, std::memory_order_release);
      wake = caller_sleeps;
    }
    if (wake) slot_cv.notify_one();
  }

  void finish(Batch& b, std::exception_ptr e) {
    if (b.done) return;
    b.done = true;
    if (e) {
      b.promise.set_exception(e);
    } else {
      b.promise.set_value(b.info.result);
    }
    {
      std::lock_guard lock(m);
      ++completed_batches;
    }
    done_cv.notify_all();
  }

  /// Applies one chunk (on the apply thread). Throws what the graph or the check throws.
  void apply_chunk(const Job& j) {
    Batch& b = *j.batch;
    const bool insert = j.kind == UpdateKind::insert;
    std::uint64_t range = j.num_vertices;
    if (j.slot >= 0) {
      const Slot& sl = slots[static_cast<std::size_t>(j.slot)];
      const auto t0 = std::chrono::steady_clock::now();
      WG_CUDA_TRY(cudaEventSynchronize(sl.copied));
      wait_copy_ns += nanos_since(t0);
      if (sl.copy_start) {
        float ms = 0;
        WG_CUDA_TRY(cudaEventElapsedTime(&ms, sl.copy_start, sl.copy_end));
        h2d_ns += static_cast<std::int64_t>(static_cast<double>(ms) * 1e6);
      }
      if (j.checked) {
        if (sl.h_check[1]) {
          const std::uint64_t i = ~sl.h_check[1];
          throw InvalidArgument("DynamicGraph: weight " + std::to_string(j.host_weight[i]) +
                                " of entry " + std::to_string(j.offset + i) +
                                " is outside the uint32 value range");
        }
        range = std::max<std::uint64_t>(range, sl.h_check[0]);
      }
    }
    const auto t1 = std::chrono::steady_clock::now();
    if (insert && range > graph.num_vertices()) graph.grow_vertices(range);
    if (j.slot >= 0) {
      const Slot& sl = slots[static_cast<std::size_t>(j.slot)];
      WG_CUDA_TRY(cudaStreamWaitEvent(graph.stream(), sl.copied, 0));
      const DeviceEdges e{.src = sl.d_src.data(),
                          .dst = sl.d_dst.data(),
                          .values = j.with_values ? sl.d_values.data() : nullptr,
                          .size = j.n};
      b.info.result += apply(j.kind, e);
    }
    apply_ns += nanos_since(t1);
  }

  /// The applier's first failure, from batch b on: b ends with it, and every later batch is
  /// refused with its message (failure_what).
  void fail(Batch& b, std::exception_ptr error) {
    failure = error;
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      failure_what = e.what();
    } catch (...) {
      failure_what = "unknown exception";
    }
    finish(b, failure);
  }

  void apply_loop() {
    // The graph's device, for the calls of this thread (the runtime's current device is per
    // thread).
    if (cudaSetDevice(device) != cudaSuccess) {
      failure = std::make_exception_ptr(CudaError("StreamIngest: cudaSetDevice failed"));
      failure_what = "cudaSetDevice failed";
    }
    for (;;) {
      Job j;
      {
        spin_for(opt.wait_spin_us, [&] {
          return queued.load(std::memory_order_acquire) > 0 ||
                 stopping.load(std::memory_order_acquire);
        });
        std::unique_lock lock(m);
        applier_sleeps = true;
        queue_cv.wait(lock, [&] { return stop || !queue.empty(); });
        applier_sleeps = false;
        if (queue.empty()) return;  // stop, and nothing left
        j = std::move(queue.front());
        queue.pop_front();
        queued.fetch_sub(1, std::memory_order_relaxed);
      }
      Batch& b = *j.batch;
      if (j.error && !failure) fail(b, j.error);
      if (!b.done) {
        if (failure) {
          finish(b, std::make_exception_ptr(
                        Error("StreamIngest: batch " + std::to_string(b.info.index) +
                              " not applied: an earlier batch failed: " + failure_what)));
        } else {
          try {
            apply_chunk(j);
          } catch (...) {
            fail(b, std::current_exception());
          }
        }
      }
      if (j.slot >= 0) {
        // The next copy into this slot waits for this chunk's update (not the host: the
        // event orders the device side). Failing to record it leaves nothing safe to do.
        const cudaError_t rc =
            cudaEventRecord(slots[static_cast<std::size_t>(j.slot)].consumed, graph.stream());
        if (rc != cudaSuccess && !failure) {
          failure = std::make_exception_ptr(CudaError(cudaGetErrorString(rc)));
          failure_what = cudaGetErrorString(rc);
          finish(b, failure);
        }
        release_slot(j.slot);
      }
      if (j.last && !b.done) {
        try {
          const auto t0 = std::chrono::steady_clock::now();
          if (on_batch) on_batch(b.info);
          apply_ns += nanos_since(t0);
          finish(b, nullptr);
        } catch (...) {
          fail(b, std::current_exception());
        }
      }
    }
  }

  void drain() {
    std::unique_lock lock(m);
    done_cv.wait(lock, [&] { return completed_batches == submitted_batches; });
    if (busy) {
      busy = false;
      wall_ns += nanos_since(busy_since);
    }
    if (failure && !failure_reported) {
      failure_reported = true;
      std::rethrow_exception(failure);
    }
  }

  Graph& graph;
  int device = 0;
  StreamIngestOptions opt;
  ApplyFn apply;
  BatchFn on_batch;
  CudaStream copy_stream;  // before the slots: their buffers free on it
  std::vector<Slot> slots;
  CopyPool pool;

  std::mutex m;
  std::condition_variable slot_cv, queue_cv, done_cv;
  std::deque<int> free_slots;
  std::deque<Job> queue;
  bool stop = false;
  bool caller_sleeps = false, applier_sleeps = false;  // under m: notify them
  // Mirrors of free_slots.size() and queue.size() (written under m) for the polling waits.
  std::atomic<int> free_count{0};
  std::atomic<std::int64_t> queued{0};
  std::atomic<bool> stopping{false};
  std::uint64_t submitted_batches = 0;  // caller's thread only
  bool busy = false;                    // caller's thread only: submitted since the last drain
  std::chrono::steady_clock::time_point busy_since;
  std::uint64_t completed_batches = 0;  // under m
  // Written by the apply thread only; read by drain() after completed_batches (under m) says
  // every batch is done.
  std::exception_ptr failure;
  std::string failure_what;
  bool failure_reported = false;
  std::atomic<std::int64_t> stage_ns{0}, wait_slot_ns{0}, apply_ns{0}, wait_copy_ns{0}, h2d_ns{0},
      wall_ns{0};
  std::thread applier;  // last: started once everything else exists
};

template <class Graph>
StreamIngest<Graph>::StreamIngest(Graph& graph, const StreamIngestOptions& options, ApplyFn apply,
                                  BatchFn on_batch)
    : impl_(std::make_unique<Impl>(graph, options, std::move(apply), std::move(on_batch))) {}

template <class Graph>
StreamIngest<Graph>::~StreamIngest() {
  try {
    impl_->drain();
  } catch (...) {  // the failure stays in its batch's future
  }
}

template <class Graph>
std::future<UpdateResult> StreamIngest<Graph>::submit(UpdateKind kind, const EdgeList& batch) {
  return impl_->submit(kind, host_edges(batch), false);
}
template <class Graph>
std::future<UpdateResult> StreamIngest<Graph>::submit(UpdateKind kind, HostEdges batch) {
  return impl_->submit(kind, batch, false);
}
template <class Graph>
std::future<UpdateResult> StreamIngest<Graph>::submit_pinned(UpdateKind kind, HostEdges batch) {
  return impl_->submit(kind, batch, true);
}
template <class Graph>
void StreamIngest<Graph>::drain() {
  impl_->drain();
}
template <class Graph>
std::uint64_t StreamIngest<Graph>::submitted() const noexcept {
  return impl_->submitted_batches;
}
template <class Graph>
std::uint64_t StreamIngest<Graph>::completed() const noexcept {
  std::lock_guard lock(impl_->m);
  return impl_->completed_batches;
}
template <class Graph>
const StreamIngestOptions& StreamIngest<Graph>::options() const noexcept {
  return impl_->opt;
}
template <class Graph>
typename StreamIngest<Graph>::StageSeconds StreamIngest<Graph>::stage_seconds() const {
  return {.stage = 1e-9 * static_cast<double>(impl_->stage_ns.load()),
          .wait_slot = 1e-9 * static_cast<double>(impl_->wait_slot_ns.load()),
          .apply = 1e-9 * static_cast<double>(impl_->apply_ns.load()),
          .wait_copy = 1e-9 * static_cast<double>(impl_->wait_copy_ns.load()),
          .h2d = 1e-9 * static_cast<double>(impl_->h2d_ns.load()),
          .wall = 1e-9 * static_cast<double>(impl_->wall_ns.load())};
}

}  // namespace wg::gpu
