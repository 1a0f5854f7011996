#pragma once
// Cutting a time-ordered SNAP temporal edge list into insertion batches of `window` time units,
// shared by the serial reader (update_stream.cpp) and the parallel one (update_file_reader.cpp).
#include <cstdint>
#include <utility>

#include <warpgraph/datasets/update_stream.hpp>

namespace wg::datasets::detail {

/// Appends entries in time order: batch k holds t in [t0 + k window, t0 + (k + 1) window), t0 the
/// first entry's time; empty windows make no batch.
class TimeWindowBatcher {
 public:
  TimeWindowBatcher(UpdateStream& stream, std::uint64_t window, bool symmetric)
      : s_(stream), window_(window), symmetric_(symmetric) {}

  void add(std::int64_t t, vertex_t u, vertex_t v) {
    if (first_) {
      t0_ = static_cast<std::uint64_t>(t);
      first_ = false;
    }
    // Offsets from the earliest time in unsigned arithmetic: no overflow for any int64 range.
    const std::uint64_t slot = (static_cast<std::uint64_t>(t) - t0_) / window_;
    if (s_.batches.empty() || slot != current_) {
      UpdateBatch batch;
      batch.edges.symmetric = symmetric_;
      s_.batches.push_back(std::move(batch));
      current_ = slot;
    }
    s_.batches.back().edges.src.push_back(u);
    s_.batches.back().edges.dst.push_back(v);
  }

 private:
  UpdateStream& s_;
  std::uint64_t window_;
  bool symmetric_;
  bool first_ = true;
  std::uint64_t t0_ = 0, current_ = 0;
};

}  // namespace wg::datasets::detail
