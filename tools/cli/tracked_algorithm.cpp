// --algo names and the reference checks of the tracked results. See tracked_algorithm.hpp.
#include "tracked_algorithm.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include <warpgraph/algorithms/reference/reference.hpp>

#include "cli.hpp"
#include "registered_algorithms.hpp"

namespace wg::cli {
namespace {

/// The first vertex where two per-vertex results differ by more than `tolerance`, as
/// "WHAT of vertex V: X, the reference says Y".
template <class T>
std::string first_difference(const std::vector<double>& got, const std::vector<T>& want,
                             const char* what, double tolerance = 0) {
  if (got.size() != want.size())
    return fmt::format("{}: {} values, the reference has {}", what, got.size(), want.size());
  for (std::size_t v = 0; v < got.size(); ++v) {
    const double w = static_cast<double>(want[v]);
    if (got[v] != w && !(std::isinf(got[v]) && std::isinf(w)) &&
        !(std::abs(got[v] - w) <= tolerance))
      return fmt::format("{} of vertex {}: {}, the reference says {}", what, v, got[v], w);
  }
  return "";
}

/// A registered algorithm's check: its values against its entry's reference (from spec.source
/// where it needs one; all unreached when that source was erased); for the backends' count,
/// `count` against the reference's stream_summary.
template <class Entry>
std::string check_registered(const AlgorithmSpec& spec, const EdgeList& graph,
                             const std::vector<double>& values, double count, bool source_live) {
  typename Entry::Options options{};
  if constexpr (Entry::kept_by_backends) {
    const double want = Entry::stream_summary(Entry::reference(graph, options));
    if (count == want) return "";
    return fmt::format("{}: {} {}, the reference counts {}", Entry::name, count,
                       Entry::stream_label, want);
  }
  if constexpr (Entry::reads_direction) options.directed = !graph.symmetric;
  if constexpr (Entry::needs_source) {
    options.source = spec.source;
    if (!source_live)
      return first_difference(values, std::vector<double>(graph.num_vertices, Entry::unreached),
                              entry_check_what<Entry>());
  }
  const std::vector<double> want = Entry::values(Entry::reference(graph, options));
  if constexpr (Entry::check_l1) {
    const char* what = entry_value_name<Entry>();
    if (values.size() != want.size())
      return fmt::format("{}: {} {}s, the reference has {}", Entry::name, values.size(), what,
                         want.size());
    double l1 = 0;
    for (std::size_t v = 0; v < want.size(); ++v) l1 += std::abs(values[v] - want[v]);
    if (l1 <= Entry::check_tolerance) return "";
    return fmt::format("{}: L1 distance {:.3g} from the reference's {}s (bound {:.0e})",
                       Entry::name, l1, what, Entry::check_tolerance);
  }
  return first_difference(values, want, entry_check_what<Entry>(), Entry::check_tolerance);
}

/// `flag(std::type_identity<Entry>)` of the registered entry named `kind` (one of its bool
/// members); false when none is named so.
template <class Flag>
bool entry_flag(AlgorithmKind kind, Flag flag) {
#define WG_CLI_FLAG(Entry) \
  if (kind == AlgorithmKind{Entry::name}) return flag(std::type_identity<Entry>{});
  WG_REGISTERED(WG_CLI_FLAG)
#undef WG_CLI_FLAG
  return false;
}

/// Throws; returns the type of its callers so that every path of theirs returns.
[[noreturn]] BatchEffect no_device_lists(AlgorithmKind kind) {
  throw Error(std::string("--algo ") + algorithm_name(kind) +
              ": this result follows a host graph, not device edge lists");
}

}  // namespace

void untracked_algorithm(AlgorithmKind kind, const char* why) {
  throw UsageError(std::string("--algo ") + algorithm_name(kind) + ": " + why);
}

BatchEffect TrackedAlgorithm::after_insert_device(const gpu::ChangedEdges&) {
  return no_device_lists(kind());
}
void TrackedAlgorithm::before_erase_device(const gpu::ChangedEdges&) {
  (void)no_device_lists(kind());
}
BatchEffect TrackedAlgorithm::after_erase_device(const gpu::ChangedEdges&) {
  return no_device_lists(kind());
}

std::vector<AlgorithmKind> tracked_kinds() {
  // The registered ones in their list positions (algorithms/registry.hpp).
  std::vector<std::pair<int, AlgorithmKind>> kinds;
#define WG_CLI_KIND(Entry) kinds.push_back({Entry::list_position, {Entry::name}});
  WG_REGISTERED(WG_CLI_KIND)
#undef WG_CLI_KIND
  std::stable_sort(kinds.begin(), kinds.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<AlgorithmKind> out;
  for (const auto& k : kinds) out.push_back(k.second);
  return out;
}

SummaryNames summary_names(AlgorithmKind kind) {
#define WG_CLI_SUMMARY(Entry) \
  if (kind == AlgorithmKind{Entry::name}) return {Entry::stream_key, Entry::stream_label};
  WG_REGISTERED(WG_CLI_SUMMARY)
#undef WG_CLI_SUMMARY
  return {"summary", "summary"};
}

ValueColumn value_column(AlgorithmKind kind) {
#define WG_CLI_COLUMN(Entry) \
  if (kind == AlgorithmKind{Entry::name}) return {entry_value_name<Entry>(), Entry::per_vertex};
  WG_REGISTERED(WG_CLI_COLUMN)
#undef WG_CLI_COLUMN
  return {kind.name};
}

bool needs_source(AlgorithmKind kind) {
  return entry_flag(kind, [](auto entry) { return decltype(entry)::type::needs_source; });
}

bool reads_weights(AlgorithmKind kind) {
  return entry_flag(kind, [](auto entry) { return decltype(entry)::type::reads_weights; });
}

std::vector<AlgorithmSpec> parse_algorithms(const std::string& list, vertex_t source) {
  std::vector<AlgorithmSpec> specs;
  std::stringstream in(list);
  std::string name;
  while (std::getline(in, name, ',')) {
    bool known = false;
    for (AlgorithmKind k : tracked_kinds()) {
      if (name != algorithm_name(k)) continue;
      known = true;
      for (const AlgorithmSpec& s : specs)
        if (s.kind == k) throw UsageError("--algo: " + name + " is named twice");
      specs.push_back({.kind = k, .source = source});
    }
    if (!known)
      throw UsageError("--algo: unknown algorithm '" + name + "' (known: " + tracked_names() + ")");
  }
  if (specs.empty()) throw UsageError("--algo: no algorithm named");
  return specs;
}

std::string tracked_names() {
  std::string names;
  for (AlgorithmKind k : tracked_kinds())
    names += (names.empty() ? "" : ", ") + std::string(k.name);
  return names;
}

std::string check_against_reference(const AlgorithmSpec& spec, const EdgeList& graph,
                                    const std::vector<double>& values, double tc_total,
                                    bool source_live) {
  const AlgorithmKind kind = spec.kind;
#define WG_CLI_CHECK(Entry)               \
  if (kind == AlgorithmKind{Entry::name}) \
    return check_registered<Entry>(spec, graph, values, tc_total, source_live);
  WG_REGISTERED(WG_CLI_CHECK)
#undef WG_CLI_CHECK
  return "";
}

}  // namespace wg::cli
