// The gpu backend's tracked algorithms (stream --algo) and its one-update-per-batch driver: see
// tracked_gpu.hpp.
#include "tracked_gpu.hpp"

#include <cuda_runtime_api.h>

#include <chrono>
#include <string>

#include <warpgraph/algorithms/gpu_dynamic_update.cuh>
#include <warpgraph/algorithms/pagerank/gpu/pagerank.hpp>
#include <warpgraph/containers/core/cuda_error.cuh>

#include "cli.hpp"
#define WG_REGISTERED_WITH_GPU 1
#include "registered_algorithms.hpp"

namespace wg::cli {
namespace {

/// Adapts a GPU dynamic class (GpuEdgeBatchObserver) to TrackedAlgorithm. `Values` and `Summary`
/// read its result.
template <class A, class Values, class Summary>
class GpuTracked final : public TrackedAdapter<A, Values, Summary> {
 public:
  using TrackedAdapter<A, Values, Summary>::TrackedAdapter;
  BatchEffect after_insert(std::span<const std::uint64_t>) override { return host_lists(); }
  void before_erase(std::span<const std::uint64_t>) override { (void)host_lists(); }
  BatchEffect after_erase(std::span<const std::uint64_t>) override { return host_lists(); }
  BatchEffect after_insert_device(const gpu::ChangedEdges& added) override {
    return this->a_->after_insert(added);
  }
  void before_erase_device(const gpu::ChangedEdges& removed) override {
    this->a_->before_erase(removed);
  }
  BatchEffect after_erase_device(const gpu::ChangedEdges& removed) override {
    return this->a_->after_erase(removed);
  }

 private:
  /// Throws; returns the type of its callers so that every path of theirs returns (nvcc).
  [[noreturn]] BatchEffect host_lists() const {
    throw Error(std::string("--algo ") + algorithm_name(this->kind_) +
                ": the gpu backend's results follow device edge lists");
  }
};

template <class A, class Values, class Summary>
std::unique_ptr<TrackedAlgorithm> gpu_tracked(AlgorithmKind kind, std::unique_ptr<A> a,
                                              Values values, Summary summary) {
  return std::make_unique<GpuTracked<A, Values, Summary>>(kind, std::move(a), values, summary);
}

}  // namespace

std::unique_ptr<TrackedAlgorithm> make_gpu_tracked(const AlgorithmSpec& spec, gpu::Graph& graph) {
  return track_registered<void WG_REGISTERED_GPU(WG_CLI_ENTRY_ARG)>(
      spec, graph, [](auto&&... a) { return gpu_tracked(std::move(a)...); },
      "not available as a tracked result on the gpu backend");
}

UpdateResult apply_tracked_gpu(gpu::Graph& graph, GpuCounter& counter, const EdgeList& batch,
                               bool insert,
                               std::span<const std::unique_ptr<TrackedAlgorithm>> tracked,
                               std::span<double> seconds, std::span<BatchEffect> effects) {
  using Clock = std::chrono::steady_clock;
  const cudaStream_t stream = graph.stream();
  // Slot 0 is the counter, then the tracked results in order; each call is followed by a
  // synchronisation so that its kernels are timed to it, not to whoever synchronises next.
  const auto each = [&](auto&& f) {
    for (std::size_t i = 0; i <= tracked.size(); ++i) {
      const auto t0 = Clock::now();
      f(i);
      WG_CUDA_TRY(cudaStreamSynchronize(stream));
      seconds[i] += std::chrono::duration<double>(Clock::now() - t0).count();
    }
  };
  WG_CUDA_TRY(cudaStreamSynchronize(stream));
  if (insert) {
    return gpu::insert_listing_chunks(graph, batch, [&](const gpu::ChangedEdges& added) {
      WG_CUDA_TRY(cudaStreamSynchronize(stream));
      each([&](std::size_t i) {
        gpu::accumulate(effects[i], i ? tracked[i - 1]->after_insert_device(added)
                                      : counter.after_insert(added));
      });
    });
  }
  return gpu::erase_listing_removed(
      graph, batch,
      [&](const gpu::ChangedEdges& removed) {
        WG_CUDA_TRY(cudaStreamSynchronize(stream));
        each([&](std::size_t i) {
          if (i)
            tracked[i - 1]->before_erase_device(removed);
          else
            counter.before_erase(removed);
        });
      },
      [&](const gpu::ChangedEdges& removed) {
        WG_CUDA_TRY(cudaStreamSynchronize(stream));
        each([&](std::size_t i) {
          gpu::accumulate(effects[i], i ? tracked[i - 1]->after_erase_device(removed)
                                        : counter.after_erase(removed));
        });
      });
}

}  // namespace wg::cli
