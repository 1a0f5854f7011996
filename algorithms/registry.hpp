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
// The CPU backend is wg_NAME_cpu with <warpgraph/algorithms/NAME/cpu/NAME.hpp>, the GPU backend
// wg_NAME_gpu with <warpgraph/algorithms/NAME/gpu/NAME.hpp>; either may be absent.
#include <cstdint>

namespace wg {

/// One named number of a result: its JSON key, its text row's label, its value (printed as an
/// integer when `integer`).
struct SummaryField {
  const char* key;
  const char* label;
  double value = 0;
  bool integer = false;
};

}  // namespace wg
