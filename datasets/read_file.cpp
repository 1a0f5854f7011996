// The bytes of a graph file: read_file (plain or gzip, with progress) and detail::gunzip.
#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/detail/gzip.hpp>
#include <warpgraph/datasets/limits.hpp>
#include <warpgraph/datasets/read_graph.hpp>

namespace wg::datasets {

std::string read_file(const std::string& path, const ProgressFn& progress) {
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw Error(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  std::uint64_t size = 0;
  if (::fstat(fileno(f.get()), &st) == 0 && S_ISREG(st.st_mode))
    size = static_cast<std::uint64_t>(st.st_size);
  if (::fstat(fileno(f.get()), &st) == 0 && S_ISDIR(st.st_mode))
    throw Error(path + ": is a directory");
  std::string bytes;
  constexpr std::size_t kBlock = std::size_t{32} << 20;
  std::size_t have = 0;
  bytes.resize(size ? static_cast<std::size_t>(size) : std::size_t{1} << 16);
  bool gzip = false;  // gzip files report decompression progress instead
  while (true) {
    if (have == bytes.size()) {
      // Full (the usual case when the size was known): grow only if there is more to read.
      int c = std::fgetc(f.get());
      if (c == EOF) {
        if (std::ferror(f.get())) throw Error(path + ": read error: " + std::strerror(errno));
        break;
      }
      bytes.resize(bytes.size() + std::max(bytes.size(), std::size_t{1} << 16));
      bytes[have++] = static_cast<char>(c);
    }
    std::size_t want = std::min(kBlock, bytes.size() - have);
    std::size_t got = std::fread(bytes.data() + have, 1, want, f.get());
    have += got;
    if (have >= 2 && !gzip) gzip = detail::is_gzip(std::string_view(bytes).substr(0, 2));
    if (progress && !gzip) progress(have, std::max<std::uint64_t>(size, have));
    if (got < want) {
      if (std::ferror(f.get())) throw Error(path + ": read error: " + std::strerror(errno));
      break;
    }
  }
  bytes.resize(have);
  // A gzip bomb must fail with a message, not exhaust memory: the output may take half of what
  // this process can still allocate (the parse needs about as much again).
  if (detail::is_gzip(bytes))
    return detail::gunzip(bytes, path, progress, memory_budget_bytes() / 2);
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
