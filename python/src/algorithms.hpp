#pragma once
// The registered algorithms (algorithms/registry.hpp) as the module reaches them, by name: one
// table built from WG_REGISTERED_CPU, so a newly registered algorithm reaches Python with no
// edit here. Each runs statically on the graph, as a dynamic result that follows its batches
// (Tracked), or on the Boost.Graph reference; results come back as one number per vertex
// (Entry::values) and the entry's named fields.
//
// Options are the entry's: the source where it needs_source, the graph's direction and weights
// where it reads them, and its command options by their long names with '-' as '_' (pagerank:
// damping, tolerance, max_iterations, top), checked as the CLI checks them. A name, source or
// option the entry does not take is a ValueError naming what it does take.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <warpgraph/algorithms/registry.hpp>
#include <warpgraph/graph/cpu/dynamic_graph.hpp>

#include "graph.hpp"

namespace wg::python {

struct AlgorithmArgs {
  std::optional<std::int64_t> source;
  std::vector<std::pair<std::string, double>> options = {};
  /// Whether the per-vertex values are wanted: false lets an entry with a per_vertex option
  /// (triangle counting) compute its summary only; its values then come back empty.
  bool values = true;
};

/// What Python learns of an entry (docstrings, argument checks, result dtypes).
struct AlgorithmInfo {
  std::string name, summary, description, value_name;
  std::string per_vertex;  ///< "number", "component", "level" or "distance"
  bool needs_source = false;
  bool reads_direction = false;
  bool reads_weights = false;
  std::vector<EntryOption> options = {};  ///< names as given to Python: "max_iterations"
  std::vector<std::string> option_names = {};
};

struct Computed {
  std::vector<double> values;
  std::vector<SummaryField> fields;
};

const std::vector<AlgorithmInfo>& algorithms();
/// The static run of algorithm `name` on `graph`.
Computed run(const std::string& name, const cpu::DynamicGraph& graph, const AlgorithmArgs& args);
/// Its dynamic class on `graph` (make_dynamic), type-erased.
std::unique_ptr<Tracked> make_tracked(const std::string& name, cpu::DynamicGraph& graph,
                                      const AlgorithmArgs& args);
/// Its reference answer on `edges` (read as directed arcs where `directed`).
Computed reference(const std::string& name, const EdgeList& edges, bool directed,
                   const AlgorithmArgs& args);

}  // namespace wg::python
