// Update files parsed in parallel segments, batches handed over in order (update_file_reader.hpp).
#include <warpgraph/datasets/update_file_reader.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/detail/text_scan.hpp>
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

}  // namespace

UpdateReadSummary for_each_update_batch(std::string_view text, bool symmetric,
                                        const std::string& name,
                                        const std::function<void(UpdateBatch&&)>& f,
                                        const UpdateReadOptions& options) {
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  // Segment cuts: after the first '\n' at or past each multiple of segment_bytes.
  std::vector<const char*> cuts{begin};
  const std::size_t step = std::max<std::size_t>(options.segment_bytes, 1);
  while (static_cast<std::size_t>(end - cuts.back()) > step) {
    const char* guess = cuts.back() + step;
    const void* nl = std::memchr(guess, '\n', static_cast<std::size_t>(end - guess));
    if (!nl) break;
    cuts.push_back(static_cast<const char*>(nl) + 1);
  }
  cuts.push_back(end);
  const std::size_t segments = cuts.size() - 1;
  unsigned threads =
      options.threads ? options.threads : std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, segments));

  std::vector<Segment> segs(segments);
  std::mutex m;
  std::condition_variable ready_cv, room_cv;
  std::size_t next = 0, consumed = 0;  // under m
  bool stop = false;
  const std::size_t window = 2 * static_cast<std::size_t>(threads);
  auto worker = [&] {
    for (;;) {
      std::size_t i;
      {
        std::unique_lock lock(m);
        room_cv.wait(lock, [&] { return stop || next >= segments || next < consumed + window; });
        if (stop || next >= segments) return;
        i = next++;
      }
      Segment s;
      parse_segment(cuts[i], cuts[i + 1], symmetric, s);
      s.ready = true;
      {
        std::lock_guard lock(m);
        segs[i] = std::move(s);
      }
      ready_cv.notify_all();
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
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
    for (std::size_t i = 0; i < segments; ++i) {
      Segment s;
      {
        const auto t0 = std::chrono::steady_clock::now();
        std::unique_lock lock(m);
        ready_cv.wait(lock, [&] { return segs[i].ready; });
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

}  // namespace wg::datasets
