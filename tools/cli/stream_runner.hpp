#pragma once
// The batch loop of `warpgraph stream` (command_stream.cpp): BatchRunner applies each batch of
// an update stream (edge insertions and deletions, vertex insertions and erasures) to a backend,
// through its pipeline where it has one, and prints the per-batch lines and the progress line.
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <warpgraph/datasets/update_stream.hpp>

#include "backend.hpp"
#include "cli.hpp"

namespace wg::cli {

/// One batch as the stream reports it.
struct BatchRecord {
  std::size_t index = 0;
  bool insert = true;           ///< an edge insertion batch
  const char* kind = "insert";  ///< batch_kind_name of its kind
  std::uint64_t size = 0;
  BatchOutcome outcome;
};

/// "insert", "erase", "insert_vertices", "erase_vertices" (JSON, --batch-csv, --verbose).
const char* batch_kind_name(datasets::UpdateBatch::Kind kind);
/// The --verbose line of one batch, and the header above those lines.
std::string batch_line(const BatchRecord& b);
extern const char* const kBatchHeader;
/// "[####....] done/total batches, N triangles"
std::string progress_bar(std::size_t done, std::size_t total, std::uint64_t triangles);
/// "1.23 M updates/s", "n/a" for no time.
std::string rate_text(double updates, double seconds);

/// The batch loop's one place: batches go in through submit() (to the backend's pipeline when
/// it has one, else applied there and then), outcomes come back in order (on the pipeline's
/// thread) and are printed on the caller's thread by flush(): verbose lines, the progress line
/// with updates/s and the stage that limits the stream.
class BatchRunner {
  using Clock = std::chrono::steady_clock;
  using json = nlohmann::json;

 public:
  /// `allow_pipeline` false applies every batch before submit returns (--verify-every).
  BatchRunner(GraphBackend& backend, bool verbose, std::ostream& lines, std::size_t expected,
              bool allow_pipeline = true)
      : backend_(backend), verbose_(verbose), lines_(lines), expected_(expected) {
    if (allow_pipeline)
      pipeline_ = backend.pipeline([this](const BatchOutcome& o) { delivered(o); });
    pipelined_ = pipeline_ != nullptr;
    t0_ = last_return_ = Clock::now();
    if (verbose_) {
      progress_.clear();
      lines_ << kBatchHeader << '\n';
    }
  }
  /// Applies (or queues) one batch; the caller may reuse it on return.
  void submit(const datasets::UpdateBatch& batch) {
    // The time since the last submit returned went to producing this batch (parsing).
    produce_seconds_ += seconds_since(last_return_);
    using Kind = datasets::UpdateBatch::Kind;
    const bool insert = batch.kind == Kind::insert;
    const bool vertices = batch.kind == Kind::insert_vertices || batch.kind == Kind::erase_vertices;
    {
      std::lock_guard lock(m_);
      pending_.push_back({submitted_ + 1, insert, batch_kind_name(batch.kind),
                          vertices ? batch.vertices.size() : batch.edges.size()});
    }
    ++submitted_;
    if (vertices && pipeline_) {
      // Vertex batches are applied by the backend itself: the pipeline hands it back first.
      pipeline_->drain();
      stages_cache_ = pipeline_->stages();
      pipeline_.reset();
    }
    if (vertices) {
      const auto u0 = Clock::now();
      delivered(batch.kind == Kind::insert_vertices ? backend_.insert_vertices(batch.vertices)
                                                    : backend_.erase_vertices(batch.vertices));
      sync_update_seconds_ += seconds_since(u0);
    } else if (pipeline_) {
      pipeline_->submit(insert, batch.edges);
    } else {
      const auto u0 = Clock::now();
      delivered(insert ? backend_.insert_edges(batch.edges) : backend_.erase_edges(batch.edges));
      sync_update_seconds_ += seconds_since(u0);
    }
    flush(false);
    last_return_ = Clock::now();
  }
  /// Waits for every batch, prints the rest; returns the records in order.
  std::vector<BatchRecord> finish() {
    if (pipeline_) {
      pipeline_->drain();
      stages_cache_ = pipeline_->stages();
      pipeline_.reset();  // the backend is the caller's again
    }
    elapsed_ = seconds_since(t0_);
    flush(true);
    progress_.clear();
    return std::move(printed_);
  }
  /// Seconds from the runner's start to the last outcome.
  double elapsed() const { return elapsed_; }
  bool pipelined() const { return pipelined_; }
  /// The count after the last batch printed (without a pipeline: the last batch submitted).
  std::uint64_t last_triangles() const {
    return printed_.empty() ? 0 : printed_.back().outcome.triangles;
  }
  json stages_json() const {
    const PipelineStages st = stages();
    return {{"pipelined", pipelined_},       {"produce_seconds", produce_seconds_},
            {"staging_seconds", st.staging}, {"copy_wait_seconds", st.copy_wait},
            {"update_seconds", st.update},   {"limited_by", limiting_stage()}};
  }
  std::string limiting_stage() const {
    const PipelineStages st = stages();
    std::pair<const char*, double> best{"update", st.update};
    for (auto p : {std::pair<const char*, double>{"parse", produce_seconds_},
                   std::pair<const char*, double>{"staging", st.staging},
                   std::pair<const char*, double>{"copy", st.copy_wait}}) {
      if (p.second > best.second) best = p;
    }
    return best.first;
  }

 private:
  struct Pending {
    std::size_t index;
    bool insert;
    const char* kind;
    std::uint64_t size;
  };
  PipelineStages stages() const {
    if (stages_cache_) return *stages_cache_;
    if (pipeline_) return pipeline_->stages();
    return {.staging = 0, .copy_wait = 0, .update = sync_update_seconds_};
  }
  void delivered(const BatchOutcome& o) {
    std::lock_guard lock(m_);
    const Pending p = pending_.front();
    pending_.pop_front();
    done_.push_back(
        {.index = p.index, .insert = p.insert, .kind = p.kind, .size = p.size, .outcome = o});
  }
  void flush(bool final) {
    std::vector<BatchRecord> fresh;
    {
      std::lock_guard lock(m_);
      fresh.swap(done_);
    }
    for (BatchRecord& r : fresh) {
      updates_ += r.size;
      if (verbose_) {
        progress_.clear();
        lines_ << batch_line(r) << '\n';
      }
      printed_.push_back(std::move(r));
    }
    const std::uint64_t triangles = printed_.empty() ? 0 : printed_.back().outcome.triangles;
    const double secs = seconds_since(t0_);
    std::string text =
        expected_ ? progress_bar(printed_.size(), expected_, triangles)
                  : fmt::format("stream {} batches, {} triangles", printed_.size(), triangles);
    text += fmt::format(", {}, limited by {}", rate_text(static_cast<double>(updates_), secs),
                        limiting_stage());
    progress_.show(text, final);
  }

  GraphBackend& backend_;
  bool verbose_;
  std::ostream& lines_;
  std::size_t expected_;  // batches, 0 when not known ahead (a streamed update file)
  std::unique_ptr<BatchPipeline> pipeline_;
  bool pipelined_ = false;
  ProgressLine progress_;
  std::mutex m_;
  std::deque<Pending> pending_;    // under m_
  std::vector<BatchRecord> done_;  // under m_
  std::vector<BatchRecord> printed_;
  std::size_t submitted_ = 0;
  std::uint64_t updates_ = 0;
  double produce_seconds_ = 0, sync_update_seconds_ = 0, elapsed_ = 0;
  std::optional<PipelineStages> stages_cache_;
  Clock::time_point t0_{}, last_return_{};
};
}  // namespace wg::cli
