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
//   reference(edges, options) -> Result  the check's answer (algorithms/reference)
//   values(result) -> vector<double>     one number per vertex id (--output, --verify)
//   check_tolerance                      largest |value - reference| --verify accepts
//   fields(result) -> vector<SummaryField>  the result in named numbers (text rows and JSON)
//   stream_label, stream_key,            the one number `stream` prints per result, its text
//   stream_summary(result)               label and its JSON name (`summary_name`)
// and, deriving from EntryDefaults, where the defaults (in brackets) do not fit, any of
//   result(dynamic) -> Result            its result now [dynamic.result()]
//   histograms(result) -> vector<SummaryHistogram>  counts printed after the fields [none]
//   value_name                           the --output column's name [name]
//   per_vertex                           what values() hold (PerVertex) [PerVertex::number]
//   check_what                           what a --verify mismatch names ("kcore core number")
//                                        [name]
//   list_position                        int: where the tools list it among the algorithms (the
//                                        command list, the --algo names), smallest first
//                                        [after every positioned one, in registration order]
//   needs_source                         bool: Options has `vertex_t source`, the vertex the result
//                                        is measured from (the command's and stream's --source),
//                                        and make_dynamic's class is made as (graph, source)
//                                        [false]
//   reads_direction                      bool: Options has `bool directed`; the command takes
//                                        --directed, and reference() reads the edges as directed
//                                        when it is set [false]
//   unreached                            double: the value of a vertex the source does not reach
//                                        (needs_source: every vertex, once the source is erased)
//   dynamic_summary(dynamic) -> double   stream_summary read from the dynamic class directly,
//                                        where that avoids building its whole Result (a GPU
//                                        result is copied to the host) [stream_summary(result)]
//   summary_is_static                    bool: stream_summary of a maintained result equals the
//                                        static run's (false: it describes the last update, as
//                                        pagerank's iterations of the last batch) [true]
//   fields(result, options)              fields that also name the options, read through
//                                        entry_fields [fields(result)]
//   command_options                      std::array<EntryOption, N>: the command's own options,
//                                        after --source; each, read and checked, is given to
//                                        set_option(options, i, value) [none]
//   top_count(options) -> uint64_t       the command lists the top_count vertices of largest
//                                        value (text: a table rank / vertex / name; JSON: `top`,
//                                        [{vertex, value_name}]), ties by smaller file id [none]
//   check_l1                             bool: check_tolerance bounds the sum over vertices of
//                                        |value - reference| rather than each one [false]
//   reads_weights                        bool: the edge weights are its arcs' lengths. Options has
//                                        `bool weighted` (the input has weights), which the command
//                                        sets from the file, and `bool unit_weights` (every arc has
//                                        length 1), which `stream --algo` sets where the graph
//                                        keeps no weights. The command keeps the file's weights,
//                                        checked against the backend's storage (a weight it cannot
//                                        hold exactly is an error naming its line; auto takes the
//                                        reference unless every weight fits), and builds weighted
//                                        graphs; `stream --algo` keeps the stream's weights (an
//                                        edge given without one weighs 1; auto takes cpu for a
//                                        weighted stream, a backend whose graph keeps none is
//                                        refused) [false]
//   splits_build_time                    bool: the command's time row splits the graph build from
//                                        the run ("read R, bfs S (graph build B, bfs S - B)")
//                                        [true]
//   kept_by_backends                     bool: the tools' graph backends keep this result
//                                        themselves, as the running count of every batch they
//                                        apply (tools/cli/graph_backend.hpp; Result is their
//                                        TriangleCounts): the command counts on the backend that
//                                        --backend and --adjacency name, and `stream` prints the
//                                        backends' count under the entry's names and checks it
//                                        against stream_summary(reference) [false]
// An entry whose backends' dynamic classes are wg::cpu::C (on the CPU graph) and wg::gpu::C<Graph>
// writes its make_dynamic as WG_ENTRY_MAKE_DYNAMIC(C), after WG_ENTRY_DYNAMIC_CLASSES(C) at
// namespace scope (below).
// The CPU backend is wg_NAME_cpu with <warpgraph/algorithms/NAME/cpu/NAME.hpp>, the GPU backend
// wg_NAME_gpu with <warpgraph/algorithms/NAME/gpu/NAME.hpp>; either may be absent.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <warpgraph/graph/graph_concepts.hpp>

namespace wg {

/// One named number of a result: its JSON key, its text row's label, its value (printed as an
/// integer when `integer`, as true / false when `boolean`). The text row may add `of_vertices`
/// (" of N vertices", N the graph's vertex count) and a `note` after two spaces
/// ("5  (degeneracy)"); JSON holds the number only. `text` replaces the number in the text row
/// where it is not empty; `round_trip` prints it as the shortest text that reads back as the
/// value; `json_only` leaves the text row out.
struct SummaryField {
  const char* key;
  const char* label;
  double value = 0;
  bool integer = false;
  bool of_vertices = false;
  const char* note = "";
  std::string text = {};
  bool round_trip = false;
  bool json_only = false;
  bool boolean = false;
};

/// A command option an entry adds (command_options): its flags ("d,damping"; the long name is
/// the one after the comma), help, default and argument name, and what the tools accept.
struct EntryOption {
  enum class Kind {
    fraction,      ///< a number in [0, 1]
    positive,      ///< a number > 0
    positive_int,  ///< an integer in [1, INT_MAX]
    count,         ///< an integer >= 0
  };
  const char* flags;
  const char* help;
  const char* default_value;
  const char* arg;
  Kind kind;
};
/// An EntryOption's value once read: `real` for fraction and positive, `count` for the others.
struct EntryOptionValue {
  double real = 0;
  std::uint64_t count = 0;
};

/// A histogram of a result: sizes[i] vertices have value i. JSON: `key` with its first 16
/// entries (all with `json_all`); text: "label: 0:n0 1:n1 ... (first 16, " ..." when more)
/// (note)".
struct SummaryHistogram {
  const char* key;
  const char* label;
  const char* note;
  std::vector<std::uint64_t> sizes;
  bool json_all = false;
};

/// What an entry's per-vertex values are, so the tools write them in the file's ids.
enum class PerVertex {
  number,     ///< a number per vertex, written as it is
  component,  ///< a label shared by exactly the vertices of one component, written as the
              ///< component's smallest vertex id as the file names it
  level,      ///< a BFS level from Options::source (negative when unreached), written with a
              ///< BFS tree of these levels: the "level" and "parent" columns
  distance,   ///< a shortest-path distance from Options::source (+infinity when unreached),
              ///< written with a shortest-path tree of these distances (the edges' weights, 1
              ///< when unweighted): the "distance" and "predecessor" columns
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

/// The optional members' defaults: an entry derives from EntryDefaults and declares only those
/// it changes (nullptr: its name).
struct EntryDefaults {
  static constexpr const char* value_name = nullptr;
  static constexpr PerVertex per_vertex = PerVertex::number;
  static constexpr const char* check_what = nullptr;
  static constexpr int list_position = 1000;
  static constexpr bool needs_source = false;
  static constexpr bool reads_direction = false;
  static constexpr bool summary_is_static = true;
  static constexpr bool check_l1 = false;
  static constexpr bool reads_weights = false;
  static constexpr bool splits_build_time = true;
  static constexpr bool kept_by_backends = false;
  static constexpr std::array<EntryOption, 0> command_options{};
  template <class Options>
  static void set_option(Options&, std::size_t, EntryOptionValue) {}
  /// The dynamic class's result now (the backends' dynamic classes all have result()).
  template <class Dynamic>
  static auto result(const Dynamic& dynamic) {
    return dynamic.result();
  }
  template <class Result>
  static std::vector<SummaryHistogram> histograms(const Result&) {
    return {};
  }
};

template <class Entry>
constexpr const char* entry_value_name() {
  return Entry::value_name ? Entry::value_name : Entry::name;
}
template <class Entry>
constexpr const char* entry_check_what() {
  return Entry::check_what ? Entry::check_what : Entry::name;
}
/// The entry's fields of `result`, run with `options`.
template <class Entry>
std::vector<SummaryField> entry_fields(const typename Entry::Result& result,
                                       const typename Entry::Options& options) {
  if constexpr (requires { Entry::fields(result, options); })
    return Entry::fields(result, options);
  else
    return Entry::fields(result);
}
template <class Entry, class Dynamic>
double entry_dynamic_summary(const Dynamic& dynamic) {
  if constexpr (requires { Entry::dynamic_summary(dynamic); })
    return Entry::dynamic_summary(dynamic);
  else
    return Entry::stream_summary(Entry::result(dynamic));
}

/// The dynamic class `Dynamic` on `graph`: made from the source where the options have one (and
/// given `options` too where its constructor takes them after the source), else given `options`
/// where its constructor takes them.
template <class Dynamic, class Graph, class Options>
std::unique_ptr<Dynamic> make_dynamic_of(Graph& graph, const Options& options) {
  if constexpr (requires { options.source; } &&
                std::is_constructible_v<Dynamic, Graph&, vertex_t, const Options&>)
    return std::make_unique<Dynamic>(graph, options.source, options);
  else if constexpr (requires { options.source; })
    return std::make_unique<Dynamic>(graph, options.source);
  else if constexpr (std::is_constructible_v<Dynamic, Graph&, const Options&>)
    return std::make_unique<Dynamic>(graph, options);
  else
    return std::make_unique<Dynamic>(graph);
}

}  // namespace wg

/// Declares wg::cpu::Class and wg::gpu::Class<Graph>, an algorithm's dynamic classes on the CPU
/// graph and on a GPU graph (defined by its backends' headers, which the users of make_dynamic
/// include), so that its entry names them without including a backend.
#define WG_ENTRY_DYNAMIC_CLASSES(Class) \
  namespace wg::cpu {                   \
  class DynamicGraph;                   \
  class Class;                          \
  }                                     \
  namespace wg::gpu {                   \
  template <GpuDynamicGraph Graph>      \
  class Class;                          \
  }

/// An entry's make_dynamic(graph, options): Class on `graph` (make_dynamic_of).
#define WG_ENTRY_MAKE_DYNAMIC(Class)                                         \
  template <class Graph>                                                     \
  static auto make_dynamic(Graph& graph, const Options& options) {           \
    if constexpr (std::is_same_v<Graph, ::wg::cpu::DynamicGraph>)            \
      return ::wg::make_dynamic_of<::wg::cpu::Class>(graph, options);        \
    else                                                                     \
      return ::wg::make_dynamic_of<::wg::gpu::Class<Graph>>(graph, options); \
  }
