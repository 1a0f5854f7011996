#pragma once
// Internal: allocation-free scanning of text lines and numbers for the readers. Not installed
// API (no stability promise); used by the readers (read_*.cpp), update_stream.cpp and the fuzzers.
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace wg::datasets::detail {

/// Iterates the lines of a buffer. Lines end at '\n'; a trailing '\r' is stripped (Windows
/// files); the last line may lack its '\n'.
class LineScanner {
 public:
  LineScanner(const char* begin, const char* end) : p_(begin), end_(end) {}
  /// Fetches the next line into [b, e); false at the end of the buffer.
  bool next(const char*& b, const char*& e) {
    if (p_ >= end_) return false;
    b = p_;
    const void* nl = std::memchr(p_, '\n', static_cast<std::size_t>(end_ - p_));
    e = nl ? static_cast<const char*>(nl) : end_;
    p_ = nl ? e + 1 : end_;
    if (e > b && e[-1] == '\r') --e;
    return true;
  }
  const char* position() const { return p_; }

 private:
  const char* p_;
  const char* end_;
};

inline bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

inline const char* skip_space(const char* p, const char* e) {
  while (p < e && is_space(*p)) ++p;
  return p;
}

/// Result of reading one field.
enum class FieldStatus { ok, missing, not_a_number, overflow };

/// Parses an unsigned decimal integer (optional leading '+') that must be followed by
/// whitespace or the end of the line. Leading whitespace is skipped. On success advances p.
inline FieldStatus parse_u64(const char*& p, const char* e, std::uint64_t& out) {
  const char* q = skip_space(p, e);
  if (q == e) return FieldStatus::missing;
  if (*q == '+') ++q;
  const char* digits = q;
  std::uint64_t v = 0;
  // Up to 19 digits cannot overflow; longer numbers take the checked path.
  const char* fast_end = e - q > 19 ? q + 19 : e;
  while (q < fast_end && static_cast<unsigned char>(*q - '0') < 10)
    v = v * 10 + static_cast<unsigned>(*q++ - '0');
  bool overflow = false;
  while (q < e && static_cast<unsigned char>(*q - '0') < 10) {
    overflow |= __builtin_mul_overflow(v, 10u, &v);
    overflow |= __builtin_add_overflow(v, static_cast<unsigned>(*q++ - '0'), &v);
  }
  if (q == digits || (q < e && !is_space(*q))) return FieldStatus::not_a_number;
  if (overflow) return FieldStatus::overflow;
  out = v;
  p = q;
  return FieldStatus::ok;
}

/// Parses a signed decimal integer (for timestamps and integer matrix values).
inline FieldStatus parse_i64(const char*& p, const char* e, std::int64_t& out) {
  const char* q = skip_space(p, e);
  if (q == e) return FieldStatus::missing;
  bool negative = false;
  if (*q == '-' || *q == '+') negative = *q++ == '-';
  const char* digits = q;
  std::uint64_t v = 0;
  bool overflow = false;
  while (q < e && static_cast<unsigned char>(*q - '0') < 10) {
    unsigned d = static_cast<unsigned>(*q - '0');
    if (v > (UINT64_MAX - d) / 10) overflow = true;
    v = v * 10 + d;
    ++q;
  }
  if (q == digits || (q < e && !is_space(*q))) return FieldStatus::not_a_number;
  std::uint64_t limit = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
  if (overflow || v > limit) return FieldStatus::overflow;
  out = negative ? static_cast<std::int64_t>(0 - v) : static_cast<std::int64_t>(v);
  p = q;
  return FieldStatus::ok;
}

/// Parses a real number ("1", "-2.5e3", ".5", "inf" and "nan" are rejected as not finite).
inline FieldStatus parse_double(const char*& p, const char* e, double& out) {
  const char* q = skip_space(p, e);
  if (q == e) return FieldStatus::missing;
  if (*q == '+' && q + 1 < e && *(q + 1) != '-' && *(q + 1) != '+') ++q;
  double v = 0;
  auto [end, ec] = std::from_chars(q, e, v, std::chars_format::general);
  if (ec == std::errc::result_out_of_range) return FieldStatus::overflow;
  if (ec != std::errc() || (end < e && !is_space(*end))) return FieldStatus::not_a_number;
  if (!(v - v == 0)) return FieldStatus::not_a_number;  // inf or nan
  out = v;
  p = end;
  return FieldStatus::ok;
}

/// True when only whitespace remains.
inline bool at_line_end(const char* p, const char* e) {
  return skip_space(p, e) == e;
}

}  // namespace wg::datasets::detail
