// Update files parsed in parallel segments, batches handed over in order (update_file_reader.hpp).
#include <warpgraph/datasets/update_file_reader.hpp>

#include <sys/stat.h>
#include <unistd.h>
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
#include <warpgraph/datasets/detail/input_file.hpp>
#include <warpgraph/datasets/detail/read_fields.hpp>
#include <warpgraph/datasets/detail/text_scan.hpp>
#include <warpgraph/datasets/detail/time_windows.hpp>
#include <warpgraph/datasets/detail/weights.hpp>
#include <warpgraph/datasets/limits.hpp>

namespace wg::datasets {
namespace {

using detail::FieldStatus;

/// A run of updates of one kind inside a segment: a '=' line (after_boundary) or a change of
/// kind separates it from the updates before it in the file, as far as the segment can tell.
struct Piece {
  UpdateBatch::Kind kind = UpdateBatch::Kind::insert;
  bool after_boundary = false;  ///< a '=' line came before it within the segment
  EdgeList edges;
  std::vector<vertex_t> vertices;
};

struct Segment : detail::ChunkStatus {  // lines, error_line (segment-local), error
  std::vector<Piece> pieces;
  bool boundary_at_end = false;  ///< a '=' line after the segment's last update
  std::uint64_t updates = 0, max_id = 0;
  int insert_fields = 0;                ///< 2 or 3 (weighted), from its first insertion; 0: none
  std::uint64_t first_insert_line = 0;  ///< segment-local line of that insertion
  bool ready = false;
};

/// The rules a segment is parsed under.
struct SegmentRules {
  bool symmetric = true;
  WeightStorage storage = WeightStorage::f64;
  bool non_negative = false;
};

std::string quote(const char* p, const char* e) {
  return detail::quote_field(p, e);
}

std::string problem(FieldStatus st, const char* what, const char* p, const char* e) {
  return detail::field_problem(st, what, p, e);
}

/// Reads an id at p (`what` in messages) below the id limit; records the problem in s if not.
bool read_id(Segment& s, const char*& p, const char* e, const char* what, std::uint64_t& id) {
  const FieldStatus st = detail::parse_u64(p, e, id);
  if (st != FieldStatus::ok) return s.fail(problem(st, what, p, e)), false;
  if (id >= kVertexIdLimit)
    return s.fail("vertex id " + std::to_string(id) + " is past the vertex id limit (ids 0.." +
                  std::to_string(kVertexIdLimit - 1) + ")"),
           false;
  return true;
}

/// The piece that takes an update of `kind` (a new one after a '=' or a change of kind).
Piece& piece_for(Segment& s, UpdateBatch::Kind kind, bool& boundary, bool symmetric) {
  if (s.pieces.empty() || boundary || s.pieces.back().kind != kind) {
    Piece piece;
    piece.kind = kind;
    piece.after_boundary = boundary;
    piece.edges.symmetric = symmetric;
    s.pieces.push_back(std::move(piece));
    boundary = false;
  }
  return s.pieces.back();
}

/// Parses one edge update "u v [w]" after its operation; false on an error (recorded in s).
bool parse_edge_update(Segment& s, const SegmentRules& r, char op, const char* p, const char* e,
                       bool& boundary) {
  std::uint64_t u = 0, v = 0;
  if (!read_id(s, p, e, "source id", u) || !read_id(s, p, e, "target id", v)) return false;
  double w = 0;
  int fields = 2;
  if (op == '+' && !detail::at_line_end(p, e)) {
    if (!detail::parse_weight(s, p, e, false, "weight", w)) return false;
    if (std::string why = detail::weight_problem(w, r.storage, r.non_negative); !why.empty())
      return s.fail(std::move(why)), false;
    fields = 3;
  }
  if (!detail::at_line_end(p, e))
    return s.fail("unexpected text " + quote(p, e) + " after '" + op +
                  (op == '+' ? " u v w'" : " u v' (a deletion takes no weight)")),
           false;
  if (op == '+') {
    if (!s.insert_fields) {
      s.insert_fields = fields;
      s.first_insert_line = s.lines;
    } else if (s.insert_fields != fields) {
      return s.fail("insertion has " + std::to_string(fields) +
                    " fields but earlier insertions have " + std::to_string(s.insert_fields) +
                    " (give a weight on every insertion or on none)"),
             false;
    }
  }
  Piece& piece = piece_for(s, op == '+' ? UpdateBatch::Kind::insert : UpdateBatch::Kind::erase,
                           boundary, r.symmetric);
  piece.edges.src.push_back(static_cast<vertex_t>(u));
  piece.edges.dst.push_back(static_cast<vertex_t>(v));
  if (fields == 3) piece.edges.weight.push_back(w);
  s.max_id = std::max(s.max_id, std::max(u, v));
  ++s.updates;
  return true;
}

/// Parses [b, e) into s (the messages are parse_update_text's).
void parse_segment(const char* begin, const char* end, const SegmentRules& rules, Segment& s) {
  // Binary data fails at the line of its first NUL byte, whatever that line holds.
  const void* nul = std::memchr(begin, '\0', static_cast<std::size_t>(end - begin));
  detail::LineScanner lines(begin, end);
  const char *b = nullptr, *e = nullptr;
  bool boundary = false;  // a '=' since the last update
  while (lines.next(b, e)) {
    ++s.lines;
    if (nul && static_cast<const char*>(nul) < lines.position())
      return s.fail("NUL byte: binary data, not a text file (the line starts " +
                    detail::quote_token(std::string_view(b, static_cast<std::size_t>(e - b))) +
                    ")");
    const char* p = detail::skip_space(b, e);
    if (p == e || *p == '#') continue;
    const char op = *p++;
    if (op == '=') {
      if (!detail::at_line_end(p, e))
        return s.fail("unexpected text " + quote(p, e) + " after '=' (a batch boundary)");
      boundary = true;
      continue;
    }
    if (op != '+' && op != '-')
      return s.fail("unknown operation " + quote(p - 1, e) +
                    " (expected '+ u v [w]', '- u v', '+v u', '-v u', '=' or a '#' comment)");
    if (p < e && *p == 'v') {  // a vertex operation
      std::uint64_t id = 0;
      if (!read_id(s, ++p, e, "vertex id", id)) return;
      if (!detail::at_line_end(p, e))
        return s.fail("unexpected text " + quote(p, e) + " after '" + op + "v u'");
      const auto kind =
          op == '+' ? UpdateBatch::Kind::insert_vertices : UpdateBatch::Kind::erase_vertices;
      piece_for(s, kind, boundary, rules.symmetric).vertices.push_back(static_cast<vertex_t>(id));
      s.max_id = std::max(s.max_id, id);
      ++s.updates;
      continue;
    }
    if (!parse_edge_update(s, rules, op, p, e, boundary)) return;
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
  /// Skips a UTF-8 BOM; refuses lone-CR line ends (ParseError naming `name`).
  TextSource(std::string_view text, std::size_t step, const std::string& name) {
    text = detail::strip_bom(text);
    if (const detail::TextProblem cr = detail::find_lone_cr(text); cr.line)
      throw ParseError(name, cr.line, cr.problem);
    p_ = text.data();
    end_ = p_ + text.size();
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
  const char* p_ = nullptr;
  const char* end_ = nullptr;
  std::size_t step_ = 1;
  bool done_ = false;
};

/// Segments of a file, plain or gzip (zlib reads plain files as they are), read as they are
/// asked for: each about segment_bytes, ending at a line end.
class FileSource final : public SegmentSource {
 public:
  FileSource(const std::string& path, std::size_t step, const NoticeFn& on_wait)
      : path_(path), step_(std::clamp<std::size_t>(step, 1, std::size_t{1} << 30)) {
    struct stat st {};
    const int fd = detail::open_input(path, on_wait, st);  // never blocks on a FIFO's open
    gz_ = gzdopen(fd, "rb");
    if (!gz_) {
      ::close(fd);
      throw Error(path + ": cannot open: " + std::strerror(errno));
    }
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
      // Binary data (/dev/zero has no line end to wait for) ends the reading: the parse fails
      // at the NUL byte's line.
      const bool binary = std::memchr(storage.data() + have, '\0', static_cast<std::size_t>(got));
      if (first_) {
        first_ = false;
        if (detail::strip_bom(storage).size() + 3 == storage.size()) storage.erase(0, 3);
      }
      if (static_cast<std::size_t>(got) < step_ || binary) {  // the end of the file
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
    if (!checked_) {
      checked_ = true;
      if (const detail::TextProblem cr = detail::find_lone_cr(storage); cr.line)
        throw ParseError(path_, cr.line, cr.problem);
    }
    view = storage;
    return true;
  }

 private:
  bool first_ = true, checked_ = false;
  std::string path_;
  std::size_t step_;
  gzFile gz_ = nullptr;
  std::string carry_;  // the partial line after the last segment's end
  bool done_ = false;
};

UpdateReadSummary run(SegmentSource& source, bool symmetric, const std::string& name,
                      const std::function<void(UpdateBatch&&)>& f, unsigned threads,
                      const UpdateReadOptions& options) {
  const SegmentRules rules{symmetric, options.weight_storage, options.non_negative_weights};
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
      parse_segment(view.data(), view.data() + view.size(), rules, s);
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
    int insert_fields = 0;
    const auto hand_over = [&] {
      current.edges.num_vertices = max_id + 1;
      if (options.min_weight_duplicates && current.kind == UpdateBatch::Kind::insert)
        detail::apply_min_weight_rule(current.edges);
      f(std::move(current));
      ++sum.batches;
    };
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
      // Insertions carry weights on all lines or none, across segments too.
      if (s.insert_fields && insert_fields && s.insert_fields != insert_fields &&
          !(s.error_line && s.error_line < s.first_insert_line))
        throw ParseError(name, sum.lines + s.first_insert_line,
                         "insertion has " + std::to_string(s.insert_fields) +
                             " fields but earlier insertions have " +
                             std::to_string(insert_fields) +
                             " (give a weight on every insertion or on none)");
      if (!s.error.empty()) throw ParseError(name, sum.lines + s.error_line, s.error);
      if (!insert_fields) insert_fields = s.insert_fields;
      sum.lines += s.lines;
      sum.updates += s.updates;
      // Batches handed over from now on may hold this segment's ids.
      max_id = std::max(max_id, s.max_id);
      for (Piece& p : s.pieces) {
        if (have && !boundary && !p.after_boundary && p.kind == current.kind) {
          EdgeList& c = current.edges;
          c.src.insert(c.src.end(), p.edges.src.begin(), p.edges.src.end());
          c.dst.insert(c.dst.end(), p.edges.dst.begin(), p.edges.dst.end());
          c.weight.insert(c.weight.end(), p.edges.weight.begin(), p.edges.weight.end());
          current.vertices.insert(current.vertices.end(), p.vertices.begin(), p.vertices.end());
        } else {
          if (have) hand_over();
          current = UpdateBatch{
              .kind = p.kind, .edges = std::move(p.edges), .vertices = std::move(p.vertices)};
          have = true;
        }
        boundary = false;
      }
      if (s.boundary_at_end) boundary = true;
    }
    if (sum.lines == 0) throw ParseError(name, 0, "empty file");
    if (sum.updates == 0)
      throw ParseError(name, sum.lines,
                       "no updates found (expected lines '+ u v [w]', '- u v', '+v u' or '-v u')");
    if (have) hand_over();
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
  TextSource source(text, options.segment_bytes, name);
  const std::size_t segments = text.size() / std::max<std::size_t>(options.segment_bytes, 1) + 1;
  const auto threads =
      static_cast<unsigned>(std::min<std::size_t>(thread_count(options), segments));
  return run(source, symmetric, name, f, threads, options);
}

UpdateReadSummary for_each_update_batch_in_file(const std::string& path, bool symmetric,
                                                const std::function<void(UpdateBatch&&)>& f,
                                                const UpdateReadOptions& options) {
  FileSource source(path, options.segment_bytes, options.on_wait);
  return run(source, symmetric, path, f, thread_count(options), options);
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
  TextSource source(text, options.segment_bytes, name);
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
    // (With no other head, everything left: a time of INT64_MAX must not stop the loop.)
    while (i < es.size() &&
           (heap.empty() || es[i].t < limit || (es[i].t == limit && k < limit_seg))) {
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
