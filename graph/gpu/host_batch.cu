// Host batches on the device (host_batch.hpp).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <warpgraph/containers/core/cuda_error.cuh>
#include <warpgraph/containers/core/cuda_stream.hpp>
#include <warpgraph/containers/core/pinned_buffer.hpp>
#include <warpgraph/graph/gpu/chunk_check.cuh>
#include <warpgraph/graph/gpu/host_batch.hpp>
#include <warpgraph/graph/gpu/launch_grid.hpp>
#include <warpgraph/graph/update_result.hpp>

namespace wg::gpu {

void check_sizes(const EdgeList& e) {
  if (e.src.size() != e.dst.size() || (e.weighted() && e.weight.size() != e.src.size()))
    throw InvalidArgument("EdgeList: src, dst and weight sizes differ");
}

namespace detail::upload {

/// The check of an upload of n entries on the device (weights: the raw doubles, or null):
/// fills u.id_range and u.values. weight_at(i) reads entry i's weight for the message.
template <class WeightAt>
void check_upload(HostBatchUpload& u, std::uint64_t n, const double* weights, std::uint64_t off,
                  const WeightAt& weight_at, cudaStream_t stream) {
  if (weights) u.values = DeviceBuffer<std::uint32_t>(n, stream, "batch upload");
  DeviceBuffer<unsigned long long> out(2, stream, "batch upload check");
  WG_CUDA_TRY(cudaMemsetAsync(out.data(), 0, out.bytes(), stream));
  detail::check_chunk_kernel<<<grid_for(n), kBlock, 0, stream>>>(
      u.src.data(), u.dst.data(), n, weights, weights ? u.values.data() : nullptr, out.data());
  WG_CUDA_CHECK_LAST();
  const std::vector<unsigned long long> o = out.to_host();
  if (o[1]) {
    const std::uint64_t i = ~o[1];
    throw InvalidArgument("DynamicGraph: weight " + std::to_string(weight_at(i)) + " of entry " +
                          std::to_string(off + i) + " is outside the uint32 value range");
  }
  u.id_range = o[0];
}

}  // namespace detail::upload
using namespace detail::upload;

HostBatchUpload upload_host_batch(const EdgeList& e, std::uint64_t off, std::uint64_t n,
                                  bool with_values, bool checked, cudaStream_t stream) {
  HostBatchUpload u{.src = DeviceBuffer<vertex_t>(n, stream, "batch upload"),
                    .dst = DeviceBuffer<vertex_t>(n, stream, "batch upload"),
                    .values = {}};
  if (n == 0) return u;
  u.src.copy_from_host(e.src.data() + off, n);
  u.dst.copy_from_host(e.dst.data() + off, n);
  const bool convert = with_values && e.weighted();
  if (!convert && !checked) return u;
  DeviceBuffer<double> weights;
  if (convert) {
    weights = DeviceBuffer<double>(n, stream, "batch upload");
    weights.copy_from_host(e.weight.data() + off, n);
  }
  check_upload(
      u, n, convert ? weights.data() : nullptr, off,
      [&](std::uint64_t i) { return e.weight[off + i]; }, stream);
  return u;
}

// ---- EdgeUpload ------------------------------------------------------------------------------

struct EdgeUpload::Impl {
  struct Slot {
    PinnedBuffer<vertex_t> src, dst;
    PinnedBuffer<double> weight;
    cudaEvent_t copied = nullptr;  // after the slot's last copy (its memory may be refilled)
    bool used = false;
  };
  bool with_values;
  cudaStream_t stream;  // the device arrays'
  EdgeUploadOptions opt;
  CudaStream copy_stream;
  std::vector<Slot> slots;
  int next_slot = 0;
  DeviceBuffer<vertex_t> src, dst;
  DeviceBuffer<double> weight;
  std::uint64_t n = 0, capacity = 0, weighted = 0;

  Impl(bool values, cudaStream_t s, const EdgeUploadOptions& o)
      : with_values(values), stream(s), opt(o) {
    if (opt.slots < 2) throw InvalidArgument("EdgeUpload: slots must be at least 2");
    if (opt.staging_entries == 0) throw InvalidArgument("EdgeUpload: staging_entries must be > 0");
    slots.resize(static_cast<std::size_t>(opt.slots));
    for (Slot& sl : slots)
      WG_CUDA_TRY(cudaEventCreateWithFlags(&sl.copied, cudaEventDisableTiming));
    if (opt.reserve) grow(opt.reserve);
  }
  ~Impl() {
    // Pinned memory and device arrays must outlive the copies that read or write them.
    (void)cudaStreamSynchronize(copy_stream.get());
    for (Slot& sl : slots)
      if (sl.copied) (void)cudaEventDestroy(sl.copied);
  }

  /// Device room for `want` entries, the first n kept. Waits for the copies in flight (they
  /// write the old arrays) and for the new arrays (allocated on `stream`): rare, O(log n) times.
  void grow(std::uint64_t want) {
    const std::uint64_t cap = std::max({want, 2 * capacity, std::uint64_t{1} << 16});
    WG_CUDA_TRY(cudaStreamSynchronize(copy_stream.get()));
    auto regrow = [&]<class T>(DeviceBuffer<T>& buf) {
      DeviceBuffer<T> fresh(cap, stream, "EdgeUpload");
      if (n)
        WG_CUDA_TRY(cudaMemcpyAsync(fresh.data(), buf.data(), n * sizeof(T),
                                    cudaMemcpyDeviceToDevice, stream));
      buf = std::move(fresh);  // the old array is freed on `stream`, after the copy
    };
    regrow(src);
    regrow(dst);
    if (with_values) regrow(weight);
    WG_CUDA_TRY(cudaStreamSynchronize(stream));
    capacity = cap;
  }

  void append(const vertex_t* s, const vertex_t* d, const double* w, std::uint64_t count) {
    if (count && (!s || !d)) throw InvalidArgument("EdgeUpload: null src or dst");
    const bool weights = with_values && w != nullptr;
    for (std::uint64_t off = 0; off < count;) {
      const std::uint64_t k = std::min(opt.staging_entries, count - off);
      if (n + k > capacity) grow(n + k);
      Slot& sl = slots[static_cast<std::size_t>(next_slot)];
      next_slot = (next_slot + 1) % opt.slots;
      if (sl.used) WG_CUDA_TRY(cudaEventSynchronize(sl.copied));
      if (sl.src.size() == 0) {
        sl.src = PinnedBuffer<vertex_t>(opt.staging_entries);
        sl.dst = PinnedBuffer<vertex_t>(opt.staging_entries);
      }
      if (weights && sl.weight.size() == 0) sl.weight = PinnedBuffer<double>(opt.staging_entries);
      const cudaStream_t cs = copy_stream.get();
      std::memcpy(sl.src.data(), s + off, k * sizeof(vertex_t));
      std::memcpy(sl.dst.data(), d + off, k * sizeof(vertex_t));
      WG_CUDA_TRY(cudaMemcpyAsync(src.data() + n, sl.src.data(), k * sizeof(vertex_t),
                                  cudaMemcpyHostToDevice, cs));
      WG_CUDA_TRY(cudaMemcpyAsync(dst.data() + n, sl.dst.data(), k * sizeof(vertex_t),
                                  cudaMemcpyHostToDevice, cs));
      if (weights) {
        std::memcpy(sl.weight.data(), w + off, k * sizeof(double));
        WG_CUDA_TRY(cudaMemcpyAsync(weight.data() + n, sl.weight.data(), k * sizeof(double),
                                    cudaMemcpyHostToDevice, cs));
        weighted += k;
      }
      WG_CUDA_TRY(cudaEventRecord(sl.copied, cs));
      sl.used = true;
      n += k;
      off += k;
    }
  }

  HostBatchUpload finish() {
    WG_CUDA_TRY(cudaStreamSynchronize(copy_stream.get()));
    if (with_values && weighted != 0 && weighted != n)
      throw InvalidArgument("EdgeUpload: weights were given for some pieces only");
    const std::uint64_t count = n;
    const bool convert = with_values && count && weighted == count;
    HostBatchUpload u{.src = std::move(src), .dst = std::move(dst), .values = {}};
    DeviceBuffer<double> w = std::move(weight);
    n = capacity = weighted = 0;
    if (count == 0) return u;
    check_upload(
        u, count, convert ? w.data() : nullptr, 0,
        [&](std::uint64_t i) {
          double x = 0;
          WG_CUDA_TRY(cudaMemcpy(&x, w.data() + i, sizeof x, cudaMemcpyDeviceToHost));
          return x;
        },
        stream);
    return u;
  }
};

EdgeUpload::EdgeUpload(bool with_values, cudaStream_t stream, const EdgeUploadOptions& options)
    : impl_(std::make_unique<Impl>(with_values, stream, options)) {}
EdgeUpload::~EdgeUpload() = default;
void EdgeUpload::append(const vertex_t* src, const vertex_t* dst, const double* weight,
                        std::uint64_t n) {
  impl_->append(src, dst, weight, n);
}
HostBatchUpload EdgeUpload::finish() {
  return impl_->finish();
}
std::uint64_t EdgeUpload::size() const noexcept {
  return impl_->n;
}

}  // namespace wg::gpu
