// The bytes of a graph file: read_file (plain or gzip, with progress), open_input and the text
// checks of detail/input_file.hpp, and detail::gunzip.
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/detail/gzip.hpp>
#include <warpgraph/datasets/detail/input_file.hpp>
#include <warpgraph/datasets/detail/read_cancel.hpp>
#include <warpgraph/datasets/limits.hpp>
#include <warpgraph/datasets/read_graph.hpp>

namespace wg::datasets {

namespace {

/// Closes a descriptor on every path out.
struct Fd {
  int fd;
  ~Fd() { ::close(fd); }
};

}  // namespace

namespace detail {

namespace {

/// Opens a FIFO for reading, blocking until a writer opens it (the portable way: poll() on a
/// FIFO that never had a writer reports a hang-up at once on some kernels, which would read as an
/// empty file), with the notice given once after kWaitNoticeMs if no writer came by then.
int open_fifo(const std::string& path, const NoticeFn& on_wait) {
  std::mutex m;
  std::condition_variable cv;
  bool opened = false;
  std::thread notice([&] {
    std::unique_lock<std::mutex> lock(m);
    if (!cv.wait_for(lock, std::chrono::milliseconds(kWaitNoticeMs), [&] { return opened; }) &&
        on_wait)
      on_wait(path + ": waiting for data (a FIFO with no writer yet); interrupt to stop");
  });
  int fd;
  while ((fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC)) < 0 && errno == EINTR) {
  }
  const int open_errno = errno;
  {
    std::lock_guard<std::mutex> lock(m);
    opened = true;
  }
  cv.notify_one();
  notice.join();
  if (fd < 0) throw Error(path + ": cannot open: " + std::strerror(open_errno));
  return fd;
}

}  // namespace

int open_input(const std::string& path, const NoticeFn& on_wait, struct stat& st) {
  struct stat before {};
  if (::stat(path.c_str(), &before) == 0 && S_ISFIFO(before.st_mode)) {
    const int fd = open_fifo(path, on_wait);
    if (::fstat(fd, &st) != 0) {
      ::close(fd);
      throw Error(path + ": cannot stat: " + std::strerror(errno));
    }
    return fd;
  }
  // O_NONBLOCK: open() of a device or socket must not block before any message could be given.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw Error(path + ": cannot open: " + std::strerror(errno));
  Fd guard{fd};
  if (::fstat(fd, &st) != 0) throw Error(path + ": cannot stat: " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw Error(path + ": is a directory");
  if (!S_ISREG(st.st_mode)) {
    // A stream: wait for its first data (or its writer's hang-up), saying so when it takes long.
    pollfd pfd{fd, POLLIN, 0};
    int rc;
    while ((rc = ::poll(&pfd, 1, kWaitNoticeMs)) < 0 && errno == EINTR) {
    }
    if (rc == 0) {
      if (on_wait) on_wait(path + ": waiting for data (a device or socket); interrupt to stop");
      while (::poll(&pfd, 1, -1) < 0 && errno == EINTR) {
      }
    }
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
    throw Error(path + ": cannot read: " + std::strerror(errno));
  guard.fd = -1;
  return fd;
}

namespace {

std::uint64_t line_of(std::string_view text, std::size_t offset) {
  return 1 + static_cast<std::uint64_t>(std::count(text.begin(), text.begin() + offset, '\n'));
}

/// The first bytes of the line holding `offset`, escaped, for messages.
std::string line_start(std::string_view text, std::size_t offset) {
  const std::size_t nl = text.rfind('\n', offset);
  const std::size_t b = nl == std::string_view::npos ? 0 : nl + 1;
  std::string out(1, '\'');  // appended piece by piece: GCC 12 warns falsely about "'" + string
  const std::size_t e = text.find('\n', offset);
  out += escape_bytes(text.substr(b, e == std::string_view::npos ? e : e - b), 40);
  out += '\'';
  return out;
}

}  // namespace

TextProblem find_nul(std::string_view text, std::size_t from) {
  if (from >= text.size()) return {};
  const void* z = std::memchr(text.data() + from, '\0', text.size() - from);
  if (!z) return {};
  const auto off = static_cast<std::size_t>(static_cast<const char*>(z) - text.data());
  return {off, line_of(text, off),
          "NUL byte at byte offset " + std::to_string(off) +
              ": binary data, not a text file (the line starts " + line_start(text, off) + ")"};
}

TextProblem find_lone_cr(std::string_view text) {
  const std::size_t nl = text.find('\n');
  const std::string_view first = text.substr(0, nl);
  for (std::size_t i = first.find('\r'); i != std::string_view::npos; i = first.find('\r', i + 1)) {
    std::size_t j = i + 1;
    if (first.substr(0, i).find('\0') != std::string_view::npos) return {};  // binary: a NUL
    while (j < first.size() && (first[j] == ' ' || first[j] == '\t' || first[j] == '\r')) ++j;
    if (j < first.size())
      return {i, 1,
              "a carriage return (\\r) ends a line without a line feed (classic Mac line "
              "ends); convert the file to \\n line ends, e.g. tr '\\r' '\\n' < FILE"};
  }
  return {};
}

void check_text(std::string_view text, const std::string& name) {
  TextProblem p = find_nul(text);
  if (!p.line) p = find_lone_cr(text);
  if (p.line) throw ParseError(name, p.line, p.problem);
}

}  // namespace detail

std::string read_file(const std::string& path, const ProgressFn& progress,
                      const NoticeFn& on_wait) {
  struct stat st {};
  Fd fd{detail::open_input(path, on_wait, st)};
  const bool regular = S_ISREG(st.st_mode);
  const std::uint64_t size = regular ? static_cast<std::uint64_t>(st.st_size) : 0;
  // read(), not mmap: a mapped file truncated by another process kills the reader with SIGBUS;
  // a read gives a snapshot, checked below against the file's size before and after.
  std::string bytes;
  constexpr std::size_t kBlock = std::size_t{32} << 20;
  std::size_t have = 0;
  // One byte beyond a regular file's size: a file that grew is seen without a second pass.
  bytes.resize(size ? static_cast<std::size_t>(size) + 1 : std::size_t{1} << 16);
  bool gzip = false;  // gzip files report decompression progress instead, and are vetted after
  while (true) {
    if (have == bytes.size()) bytes.resize(bytes.size() * 2);
    const std::size_t want = std::min(kBlock, bytes.size() - have);
    const ssize_t got = ::read(fd.fd, bytes.data() + have, want);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw Error(path + ": read error: " + std::strerror(errno));
    }
    if (got == 0) break;
    detail::poll_cancel();
    const std::size_t before = have;
    have += static_cast<std::size_t>(got);
    if (before < 2 && have >= 2) gzip = detail::is_gzip(std::string_view(bytes).substr(0, 2));
    if (!gzip) {
      // Binary data fails at its first block (/dev/zero would otherwise fill the memory).
      const detail::TextProblem nul =
          detail::find_nul(std::string_view(bytes.data(), have), before);
      if (nul.line) throw ParseError(path, nul.line, nul.problem);
      if (progress) progress(have, std::max<std::uint64_t>(size, have));
    }
  }
  bytes.resize(have);
  if (regular) {
    struct stat now {};
    const bool same = ::fstat(fd.fd, &now) == 0 && static_cast<std::uint64_t>(now.st_size) == size;
    if (!same || have != size)
      throw Error(path + ": changed while it was read (" + std::to_string(size) +
                  " bytes when opened, " + std::to_string(have) + " read, " +
                  std::to_string(static_cast<std::uint64_t>(now.st_size)) +
                  " now); read it again once it is complete");
  }
  // A gzip bomb must fail with a message, not exhaust memory: the output may take half of what
  // this process can still allocate (the parse needs about as much again).
  if (detail::is_gzip(bytes)) {
    std::string text = detail::gunzip(bytes, path, progress, memory_budget_bytes() / 2);
    const detail::TextProblem nul = detail::find_nul(text);
    if (nul.line) throw ParseError(path, nul.line, nul.problem);
    return text;
  }
  return bytes;
}

namespace detail {

std::string gunzip(std::string_view compressed, const std::string& name, const ProgressFn& progress,
                   std::uint64_t max_output) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) throw Error(name + ": zlib initialisation failed");
  std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&z, &inflateEnd);
  std::string out;
  // ISIZE (last 4 bytes) is the size of the last member mod 2^32: a good first guess.
  std::uint64_t guess = compressed.size() * 4;
  if (compressed.size() >= 18) {
    const auto* t =
        reinterpret_cast<const unsigned char*>(compressed.data() + compressed.size() - 4);
    std::uint64_t isize = t[0] | (t[1] << 8) | (t[2] << 16) | (std::uint64_t{t[3]} << 24);
    // A corrupt trailer must not make us allocate gigabytes: deflate expands at most ~1032x.
    guess = std::max(guess, std::min<std::uint64_t>(isize, compressed.size() * 1040));
  }
  // One byte beyond max_output lets the loop detect an output that is too large.
  const std::uint64_t cap = std::min<std::uint64_t>(max_output, std::uint64_t{1} << 62) + 1;
  out.resize(
      static_cast<std::size_t>(std::min<std::uint64_t>({guess + 1, cap, std::uint64_t{1} << 34})));
  std::size_t have = 0;
  const auto* in = reinterpret_cast<const unsigned char*>(compressed.data());
  std::size_t in_left = compressed.size();
  constexpr std::size_t kStep = std::size_t{1} << 30;  // zlib counts in 32-bit units
  std::uint64_t last_report = 0;
  while (true) {
    if (have == out.size()) {
      if (out.size() > max_output)
        throw Error(name + ": decompressed data exceeds " + std::to_string(max_output) + " bytes");
      out.resize(static_cast<std::size_t>(std::min<std::uint64_t>(out.size() * 2, cap)));
    }
    z.next_in = const_cast<unsigned char*>(in);
    z.avail_in = static_cast<uInt>(std::min(in_left, kStep));
    z.next_out = reinterpret_cast<unsigned char*>(out.data() + have);
    z.avail_out = static_cast<uInt>(std::min(out.size() - have, kStep));
    const uInt in_before = z.avail_in, out_before = z.avail_out;
    int rc = inflate(&z, Z_NO_FLUSH);
    std::size_t used = in_before - z.avail_in;
    in += used;
    in_left -= used;
    have += out_before - z.avail_out;
    if (have > max_output)
      throw Error(name + ": decompressed data exceeds " + std::to_string(max_output) + " bytes");
    const std::uint64_t consumed = compressed.size() - in_left;
    if (consumed - last_report >= (std::uint64_t{4} << 20)) poll_cancel();
    if (progress && consumed - last_report >= (std::uint64_t{4} << 20)) {
      progress(consumed, compressed.size());
      last_report = consumed;
    }
    if (rc == Z_STREAM_END) {
      if (in_left == 0) break;
      // Another member follows (gzip -c a b > c, or bgzip blocks); anything else is an error.
      if (!is_gzip(std::string_view(reinterpret_cast<const char*>(in), in_left)))
        throw Error(name + ": unexpected data after the end of the gzip stream");
      if (inflateReset(&z) != Z_OK) throw Error(name + ": zlib reset failed");
      continue;
    }
    if (rc == Z_BUF_ERROR) {
      if (z.avail_out != 0 && in_left == 0) throw Error(name + ": truncated gzip data");
      continue;  // needs more output space
    }
    if (rc != Z_OK)
      throw Error(name + ": corrupt gzip data (" +
                  (z.msg ? std::string(z.msg) : "zlib error " + std::to_string(rc)) + ")");
    if (in_left == 0 && z.avail_out != 0) throw Error(name + ": truncated gzip data");
  }
  out.resize(have);
  if (progress) progress(compressed.size(), compressed.size());
  return out;
}

}  // namespace detail
}  // namespace wg::datasets
