// Update files parsed in parallel segments, batches handed over in order (update_file_reader.hpp).
#include <warpgraph/datasets/update_file_reader.hpp>

#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/detail/text_scan.hpp>
#include <warpgraph/datasets/detail/time_windows.hpp>
#include <warpgraph/datasets/limits.hpp>

namespace wg::datasets {
namespace {

using detail::FieldStatus;

/// A run of updates of one kind inside a segment. starts_batch: a '=' line (or the start of the
/// kind) separates it from the updates before it in the file, as far as the segment can tell.
struct Piece {
  UpdateBatch::Kind kind = UpdateBatch::Kind::insert;
  bool after_boundary = false;  ///< a '=' line came before it within the segment
  EdgeList edges;
};

struct Segment {
  std::vector<Piece> pieces;
  bool boundary_at_end = false;  ///< a '=' line after the segment's last update
  std::uint64_t lines = 0, updates = 0, max_id = 0;
  std::uint64_t error_line = 0;  ///< within the segment, 1-based; 0: none
  std::string error;
  bool ready = false;
};

std::string quote(const char* p, const char* e) {
  p = detail::skip_space(p, e);
  const char* q = p;
  while (q < e && !detail::is_space(*q)) ++q;
  std::string out(1, '\'');
  out += escape_bytes(std::string_view(p, static_cast<std::size_t>(q - p)));
  out += '\'';
  return out;
}

std::string problem(FieldStatus st, const char* what, const char* p, const char* e) {
  if (st == FieldStatus::missing) return std::string("missing ") + what;
  if (st == FieldStatus::overflow)
    return std::string(what) + " " + quote(p, e) + " is out of range";
  return std::string(what) + " " + quote(p, e) + " is not a valid number";
}

/// Parses [b, e) into s (the messages are parse_update_text's).
void parse_segment(const char* begin, const char* end, bool symmetric, Segment& s) {
  detail::LineScanner lines(begin, end);
  const char *b = nullptr, *e = nullptr;
  bool boundary = false;  // a '=' since the last update
  while (lines.next(b, e)) {
    ++s.lines;
    const char* p = detail::skip_space(b, e);
    if (p == e || *p == '#') continue;
    const char op = *p++;
    if (op == '=') {
      if (!detail::at_line_end(p, e)) {
        s.error_line = s.lines;
        s.error = "unexpected text " + quote(p, e) + " after '=' (a batch boundary)";
        return;
      }
      boundary = true;
      continue;
    }
    if (op != '+' && op != '-') {
      s.error_line = s.lines;
      s.error = "unknown operation " + quote(p - 1, e) +
                " (expected '+ u v', '- u v', '=' or a '#' comment)";
      return;
    }
    std::uint64_t u = 0, v = 0;
    FieldStatus st = detail::parse_u64(p, e, u);
    if (st != FieldStatus::ok) {
      s.error_line = s.lines;
      s.error = problem(st, "source id", p, e);
      return;
    }
    st = detail::parse_u64(p, e, v);
    if (st != FieldStatus::ok) {
      s.error_line = s.lines;
      s.error = problem(st, "target id", p, e);
      return;
    }
    if (u >= kVertexIdLimit || v >= kVertexIdLimit) {
      s.error_line = s.lines;
      s.error = "vertex id " + std::to_string(std::max(u, v)) +
                " is past the vertex id limit (ids 0.." + std::to_string(kVertexIdLimit - 1) + ")";
      return;
    }
    if (!detail::at_line_end(p, e)) {
      s.error_line = s.lines;
      s.error = "unexpected text " + quote(p, e) + " after '" + op + " u v'";
      return;
    }
    const auto kind = op == '+' ? UpdateBatch::Kind::insert : UpdateBatch::Kind::erase;
    if (s.pieces.empty() || boundary || s.pieces.back().kind != kind) {
      Piece piece;
      piece.kind = kind;
      piece.after_boundary = boundary;
      piece.edges.symmetric = symmetric;
      s.pieces.push_back(std::move(piece));
      boundary = false;
    }
    s.pieces.back().edges.src.push_back(static_cast<vertex_t>(u));
    s.pieces.back().edges.dst.push_back(static_cast<vertex_t>(v));
    s.max_id = std::max(s.max_id, std::max(u, v));
    ++s.updates;
  }
  s.boundary_at_end = boundary;
}

/// Hands out a text's segments in order, each ending at a line end (but the last). next()
/// fills `view` (and `storage` when the segment was read from a file); false at the end.
/// Called by one thread at a time.
class SegmentSource {
 public:
  virtual ~SegmentSource() = default;
  virtual bool next(std::string& storage, std::string_view& view) = 0;
};

/// Segments of a text in memory: views, cut after the first '\n' past each segment_bytes.
class TextSource final : public SegmentSource {
 public:
  TextSource(std::string_view text, std::size_t step) : p_(text.data()), end_(p_ + text.size()) {
    step_ = std::max<std::size_t>(step, 1);
  }
  bool next(std::string&, std::string_view& view) override {
    if (done_) return false;
    const char* cut = end_;
    if (static_cast<std::size_t>(end_ - p_) > step_) {
      const void* nl = std::memchr(p_ + step_, '\n', static_cast<std::size_t>(end_ - p_ - step_));
      if (nl) cut = static_cast<const char*>(nl) + 1;
    }
    view = std::string_view(p_, static_cast<std::size_t>(cut - p_));
    p_ = cut;
    done_ = p_ == end_;  // an empty text still gives one (empty) segment
    return true;
  }

 private:
  const char* p_;
  const char* end_;
  std::size_t step_;
  bool done_ = false;
};

/// Segments of a file, plain or gzip (zlib reads plain files as they are), read as they are
/// asked for: each about segment_bytes, ending at a line end.
class FileSource final : public SegmentSource {
 public:
  FileSource(const std::string& path, std::size_t step)
      : path_(path), step_(std::clamp<std::size_t>(step, 1, std::size_t{1} << 30)) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
      throw Error(path + ": is a directory");
    gz_ = gzopen(path.c_str(), "rb");
    if (!gz_) throw Error(path + ": cannot open: " + std::strerror(errno));
    gzbuffer(gz_, 1u << 20);
  }
  ~FileSource() override {
    if (gz_) gzclose(gz_);
  }
  bool next(std::string& storage, std::string_view& view) override {
    if (done_) return false;
    storage.swap(carry_);
    carry_.clear();
    for (;;) {
      const std::size_t have = storage.size();
      storage.resize(have + step_);
      const int got = gzread(gz_, storage.data() + have, static_cast<unsigned>(step_));
      if (got < 0) {
        int code = 0;
        throw Error(path_ + ": read error: " + gzerror(gz_, &code));
      }
      storage.resize(have + static_cast<std::size_t>(got));
      if (static_cast<std::size_t>(got) < step_) {  // the end of the file
        done_ = true;
        break;
      }
      const std::size_t nl = storage.rfind('\n');
      if (nl != std::string::npos && nl >= have) {
        carry_.assign(storage, nl + 1, std::string::npos);
        storage.resize(nl + 1);
        break;
      }
      // No line end in what was just read: a very long line; read on.
    }
    view = storage;
    return true;
  }

 private:
  std::string path_;
  std::size_t step_;
  gzFile gz_ = nullptr;
  std::string carry_;  // the partial line after the last segment's end
  bool done_ = false;
};

UpdateReadSummary run(SegmentSource& source, bool symmetric, const std::string& name,
                      const std::function<void(UpdateBatch&&)>& f, unsigned threads) {
  std::vector<Segment> segs;
  std::mutex m;
  std::condition_variable ready_cv, room_cv;
  std::size_t next = 0, consumed = 0;  // under m
  bool stop = false, source_done = false;
  std::exception_ptr source_error;
  const std::size_t window = 2 * static_cast<std::size_t>(threads);
  auto worker = [&] {
    std::string storage;
    std::string_view view;
    for (;;) {
      std::size_t i;
      {
        std::unique_lock lock(m);
        room_cv.wait(lock, [&] { return stop || source_done || next < consumed + window; });
        if (stop || source_done) return;
        bool got = false;
        try {
          got = source.next(storage, view);  // under the lock: the reads are sequential
        } catch (...) {
          source_error = std::current_exception();
        }
        if (!got) {
          source_done = true;
          lock.unlock();
          ready_cv.notify_all();
          room_cv.notify_all();
          return;
        }
        i = next++;
        if (segs.size() <= i) segs.resize(i + 1);
      }
      Segment s;
      parse_segment(view.data(), view.data() + view.size(), symmetric, s);
      s.ready = true;
      {
        std::lock_guard lock(m);
        segs[i] = std::move(s);
      }
      ready_cv.notify_all();
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < std::max(threads, 1u); ++t) pool.emplace_back(worker);
  auto finish_pool = [&] {
    {
      std::lock_guard lock(m);
      stop = true;
    }
    room_cv.notify_all();
    for (auto& t : pool) t.join();
  };

  UpdateReadSummary sum;
  try {
    UpdateBatch current;
    bool have = false, boundary = false;
    std::uint64_t max_id = 0;
    for (std::size_t i = 0;; ++i) {
      Segment s;
      {
        const auto t0 = std::chrono::steady_clock::now();
        std::unique_lock lock(m);
        ready_cv.wait(
            lock, [&] { return (i < segs.size() && segs[i].ready) || (source_done && i >= next); });
        if (!(i < segs.size() && segs[i].ready)) {
          if (source_error) std::rethrow_exception(source_error);
          break;  // every segment was handed over
        }
        s = std::move(segs[i]);
        segs[i] = Segment{};
        ++consumed;
        sum.parse_wait_seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      }
      room_cv.notify_all();
      if (!s.error.empty()) throw ParseError(name, sum.lines + s.error_line, s.error);
      sum.lines += s.lines;
      sum.updates += s.updates;
      // Batches handed over from now on may hold this segment's ids.
      max_id = std::max(max_id, s.max_id);
      for (Piece& p : s.pieces) {
        if (have && !boundary && !p.after_boundary && p.kind == current.kind) {
          EdgeList& c = current.edges;
          c.src.insert(c.src.end(), p.edges.src.begin(), p.edges.src.end());
          c.dst.insert(c.dst.end(), p.edges.dst.begin(), p.edges.dst.end());
        } else {
          if (have) {
            current.edges.num_vertices = max_id + 1;
            f(std::move(current));
            ++sum.batches;
          }
          current = UpdateBatch{.kind = p.kind, .edges = std::move(p.edges)};
          have = true;
        }
        boundary = false;
      }
      if (s.boundary_at_end) boundary = true;
    }
    if (sum.lines == 0) throw ParseError(name, 0, "empty file");
    if (sum.updates == 0)
      throw ParseError(name, sum.lines, "no updates found (expected lines '+ u v' or '- u v')");
    if (have) {
      current.edges.num_vertices = max_id + 1;
      f(std::move(current));
      ++sum.batches;
    }
    sum.num_vertices = max_id + 1;
  } catch (...) {
    finish_pool();
    throw;
  }
  finish_pool();
  return sum;
}

unsigned thread_count(const UpdateReadOptions& o) {
  return o.threads ? o.threads : std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
}

}  // namespace

UpdateReadSummary for_each_update_batch(std::string_view text, bool symmetric,
                                        const std::string& name,
                                        const std::function<void(UpdateBatch&&)>& f,
                                        const UpdateReadOptions& options) {
  TextSource source(text, options.segment_bytes);
  const std::size_t segments = text.size() / std::max<std::size_t>(options.segment_bytes, 1) + 1;
  const auto threads =
      static_cast<unsigned>(std::min<std::size_t>(thread_count(options), segments));
  return run(source, symmetric, name, f, threads);
}

UpdateReadSummary for_each_update_batch_in_file(const std::string& path, bool symmetric,
                                                const std::function<void(UpdateBatch&&)>& f,
                                                const UpdateReadOptions& options) {
  FileSource source(path, options.segment_bytes);
  return run(source, symmetric, path, f, thread_count(options));
}

namespace {

struct TimedEntry {
  std::int64_t t;
  vertex_t u, v;
};

struct TemporalSegment {
  std::vector<TimedEntry> entries;
  std::uint64_t lines = 0, max_id = 0, error_line = 0;
  std::string error;
};

void parse_temporal_segment(std::string_view text, TemporalSegment& s) {
  detail::LineScanner lines(text.data(), text.data() + text.size());
  const char *b = nullptr, *e = nullptr;
  auto fail = [&](std::string problem) {
    s.error_line = s.lines;
    s.error = std::move(problem);
  };
  while (lines.next(b, e)) {
    ++s.lines;
    const char* p = detail::skip_space(b, e);
    if (p == e || *p == '#' || *p == '%') continue;
    std::uint64_t u = 0, v = 0;
    FieldStatus st = detail::parse_u64(p, e, u);
    if (st != FieldStatus::ok) return fail(problem(st, "source id", p, e));
    st = detail::parse_u64(p, e, v);
    if (st != FieldStatus::ok) return fail(problem(st, "target id", p, e));
    if (u >= kVertexIdLimit || v >= kVertexIdLimit) {
      return fail("vertex id " + std::to_string(std::max(u, v)) +
                  " is past the vertex id limit (ids 0.." + std::to_string(kVertexIdLimit - 1) +
                  ")");
    }
    std::int64_t t = 0;
    st = detail::parse_i64(p, e, t);
    if (st != FieldStatus::ok) return fail(problem(st, "timestamp", p, e));
    if (!detail::at_line_end(p, e))
      return fail("unexpected text " + quote(p, e) + " after 'source target timestamp'");
    s.entries.push_back({t, static_cast<vertex_t>(u), static_cast<vertex_t>(v)});
    s.max_id = std::max(s.max_id, std::max(u, v));
  }
}

}  // namespace

UpdateStream parse_temporal_snap_parallel(std::string_view text, std::uint64_t window,
                                          bool symmetric, const std::string& name,
                                          const UpdateReadOptions& options) {
  if (window == 0) throw InvalidArgument("read_temporal_snap: window must be > 0");
  TextSource source(text, options.segment_bytes);
  std::vector<std::string_view> views;
  std::string unused;
  for (std::string_view v; source.next(unused, v);) views.push_back(v);
  std::vector<TemporalSegment> segs(views.size());
  const auto threads = static_cast<unsigned>(
      std::max<std::size_t>(1, std::min<std::size_t>(thread_count(options), views.size())));
  {
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      pool.emplace_back([&] {
        for (std::size_t i; (i = next++) < views.size();) {
          parse_temporal_segment(views[i], segs[i]);
          // Stable: equal times keep file order within the segment, and the merge below
          // takes ties from earlier segments first.
          std::stable_sort(segs[i].entries.begin(), segs[i].entries.end(),
                           [](const TimedEntry& a, const TimedEntry& b) { return a.t < b.t; });
        }
      });
    }
    for (auto& t : pool) t.join();
  }
  std::uint64_t line = 0, max_id = 0, total = 0;
  for (const TemporalSegment& s : segs) {
    if (!s.error.empty()) throw ParseError(name, line + s.error_line, s.error);
    line += s.lines;
    max_id = std::max(max_id, s.max_id);
    total += s.entries.size();
  }
  if (line == 0) throw ParseError(name, 0, "empty file");
  if (total == 0)
    throw ParseError(name, line, "no edges found (expected lines 'source target timestamp')");
  // k-way merge by (t, segment): a min-heap of the segments' next entries.
  using Head = std::pair<std::int64_t, std::size_t>;  // time, segment
  std::priority_queue<Head, std::vector<Head>, std::greater<Head>> heap;
  std::vector<std::size_t> pos(segs.size(), 0);
  for (std::size_t k = 0; k < segs.size(); ++k)
    if (!segs[k].entries.empty()) heap.push({segs[k].entries[0].t, k});
  UpdateStream s;
  s.initial.symmetric = symmetric;
  detail::TimeWindowBatcher batches(s, window, symmetric);
  while (!heap.empty()) {
    const std::size_t k = heap.top().second;
    heap.pop();
    // Take this segment's run of entries up to the next head's time (ties: lower segment first).
    const std::int64_t limit = heap.empty() ? INT64_MAX : heap.top().first;
    const std::size_t limit_seg = heap.empty() ? 0 : heap.top().second;
    auto& es = segs[k].entries;
    std::size_t& i = pos[k];
    while (i < es.size() && (es[i].t < limit || (es[i].t == limit && k < limit_seg))) {
      const TimedEntry& en = es[i++];
      batches.add(en.t, en.u, en.v);
    }
    if (i < es.size()) heap.push({es[i].t, k});
  }
  s.initial.num_vertices = max_id + 1;
  for (auto& b : s.batches) b.edges.num_vertices = max_id + 1;
  return s;
}

}  // namespace wg::datasets
