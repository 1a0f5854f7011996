#pragma once
// The algorithm registry's vocabulary: what one algorithm exports so that the CLI (its command
// and `stream --algo`), the benches and the instantiation matrix reach it with no edit of their
// own. An algorithm registers with one line in its folder's CMakeLists.txt,
//   wg_register_algorithm(NAME lcc ENTRY wg::LccEntry)
// and provides <warpgraph/algorithms/NAME/NAME_entry.hpp> defining ENTRY, a struct with
//   name, summary, description          const char*: command / --algo name, one-line and long help
//   Options, Result                      its vocabulary (algorithms/NAME/NAME.hpp)
//   run(graph, options) -> Result        static run over any graph of a backend (found by ADL in
//                                        wg::cpu or wg::gpu, so the entry names no backend)
//   make_dynamic(graph, options)         the dynamic class on that graph, as a std::unique_ptr,
//                                        with the observer hooks (after_insert, before_erase,
//                                        after_erase) of algorithms/dynamic_update.hpp
//   result(dynamic) -> Result            its result now
//   reference(edges, options) -> Result  the check's answer (algorithms/reference)
//   values(result) -> vector<double>     one number per vertex id (--output, --verify)
//   check_tolerance                      largest |value - reference| --verify accepts
//   fields(result) -> vector<SummaryField>  the result in named numbers (text rows and JSON)
//   stream_label, stream_key,            the one number `stream` prints per result, its text
//   stream_summary(result)               label and its JSON name (`summary_name`)
// and, where the defaults (in brackets) do not fit, any of
//   histograms(result) -> vector<SummaryHistogram>  counts printed after the fields [none]
//   value_name                           the --output column's name [name]
//   per_vertex                           what values() hold (PerVertex) [PerVertex::number]
//   check_what                           what a --verify mismatch names ("kcore core number")
//                                        [name]
//   list_position                        int: where the tools list it among the algorithms (the
//                                        command list, the --algo names), smallest first
//                                        [after every positioned one, in registration order]
//   dynamic_summary(dynamic) -> double   stream_summary read from the dynamic class directly,
//                                        where that avoids building its whole Result (a GPU
//                                        result is copied to the host) [stream_summary(result)]
// The CPU backend is wg_NAME_cpu with <warpgraph/algorithms/NAME/cpu/NAME.hpp>, the GPU backend
// wg_NAME_gpu with <warpgraph/algorithms/NAME/gpu/NAME.hpp>; either may be absent.
#include <cstdint>
#include <string>
#include <vector>

namespace wg {

/// One named number of a result: its JSON key, its text row's label, its value (printed as an
/// integer when `integer`). The text row may add `of_vertices` (" of N vertices", N the graph's
/// vertex count) and a `note` after two spaces ("5  (degeneracy)"); JSON holds the number only.
struct SummaryField {
  const char* key;
  const char* label;
  double value = 0;
  bool integer = false;
  bool of_vertices = false;
  const char* note = "";
};

/// A histogram of a result: sizes[i] vertices have value i. JSON: `key` with its first 16
/// entries; text: "label: 0:n0 1:n1 ... (first 16, " ..." when more)  (note)".
struct SummaryHistogram {
  const char* key;
  const char* label;
  const char* note;
  std::vector<std::uint64_t> sizes;
};

/// What an entry's per-vertex values are, so the tools write them in the file's ids.
enum class PerVertex {
  number,     ///< a number per vertex, written as it is
  component,  ///< a label shared by exactly the vertices of one component, written as the
              ///< component's smallest vertex id as the file names it
};

/// The Options of an entry whose runs take its backends' defaults.
struct NoOptions {};

/// sizes[i] = how many of `values` equal i (values are small non-negative integers). O(n + max).
template <class T>
std::vector<std::uint64_t> value_histogram(const std::vector<T>& values) {
  std::vector<std::uint64_t> sizes;
  for (const T& x : values) {
    const auto i = static_cast<std::size_t>(x);
    if (i >= sizes.size()) sizes.resize(i + 1, 0);
    ++sizes[i];
  }
  return sizes;
}

// ---- the optional members with their defaults -------------------------------------------------

template <class Entry>
constexpr const char* entry_value_name() {
  if constexpr (requires { Entry::value_name; })
    return Entry::value_name;
  else
    return Entry::name;
}
template <class Entry>
constexpr PerVertex entry_per_vertex() {
  if constexpr (requires { Entry::per_vertex; })
    return Entry::per_vertex;
  else
    return PerVertex::number;
}
template <class Entry>
constexpr const char* entry_check_what() {
  if constexpr (requires { Entry::check_what; })
    return Entry::check_what;
  else
    return Entry::name;
}
template <class Entry>
constexpr int entry_list_position() {
  if constexpr (requires { Entry::list_position; })
    return Entry::list_position;
  else
    return 1000;
}
template <class Entry>
std::vector<SummaryHistogram> entry_histograms(const typename Entry::Result& r) {
  if constexpr (requires { Entry::histograms(r); })
    return Entry::histograms(r);
  else
    return {};
}
template <class Entry, class Dynamic>
double entry_dynamic_summary(const Dynamic& dynamic) {
  if constexpr (requires { Entry::dynamic_summary(dynamic); })
    return Entry::dynamic_summary(dynamic);
  else
    return Entry::stream_summary(Entry::result(dynamic));
}

}  // namespace wg
