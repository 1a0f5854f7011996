// Memory budget of this process and byte escaping for messages (see limits.hpp).
#include <warpgraph/datasets/limits.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <limits>

namespace wg::datasets {

std::uint64_t memory_budget_bytes() {
  constexpr std::uint64_t kUnlimited = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t budget = kUnlimited;
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) budget = static_cast<std::uint64_t>(pages) * page;
  struct rlimit lim {};
  if (::getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY) {
    std::uint64_t mapped = 0;  // address space in use now (first field of statm, in pages)
    if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
      unsigned long long vm_pages = 0;
      if (std::fscanf(f, "%llu", &vm_pages) == 1 && page > 0) mapped = vm_pages * page;
      std::fclose(f);
    }
    const std::uint64_t limit = lim.rlim_cur;
    budget = std::min(budget, limit > mapped ? limit - mapped : 0);
  }
  if (::getrlimit(RLIMIT_DATA, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
    budget = std::min<std::uint64_t>(budget, lim.rlim_cur);
  return budget;
}

std::string escape_bytes(std::string_view text, std::size_t max_bytes) {
  std::string out;
  const std::size_t n = std::min(text.size(), max_bytes);
  out.reserve(n + 8);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'') {
      out += static_cast<char>(c);
    } else {
      char buf[5];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    }
  }
  if (text.size() > n) out += "...";
  return out;
}

std::string format_bytes(std::uint64_t bytes) {
  char buf[32];
  if (bytes >= 1000000000ull)
    std::snprintf(buf, sizeof buf, "%.2f GB", static_cast<double>(bytes) / 1e9);
  else
    std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(bytes) / 1e6);
  return buf;
}

}  // namespace wg::datasets
