#include "algorithms.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include <nanobind/nanobind.h>

#include <warpgraph/containers/core/error.hpp>
#define WG_REGISTERED_WITH_CPU 1
#include "registered_algorithms.hpp"

namespace wg::python {

namespace nb = nanobind;

namespace {

[[noreturn]] void refuse(const std::string& message) {
  throw nb::value_error(message.c_str());
}

/// "max-iterations" of the flags "max-iterations" or "d,damping", with '_' for '-'.
std::string option_name(const EntryOption& o) {
  std::string flags = o.flags;
  std::string name = flags.substr(flags.find(',') == std::string::npos ? 0 : flags.find(',') + 1);
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

/// `value` as the entry option `o` takes it (the kinds' rules, registry.hpp), else ValueError.
EntryOptionValue option_value(const char* algorithm, const EntryOption& o, double value) {
  const std::string where = std::string(algorithm) + ": " + option_name(o) + " ";
  const bool integral = std::isfinite(value) && std::floor(value) == value;
  switch (o.kind) {
    case EntryOption::Kind::fraction:
      if (!(value >= 0 && value <= 1))
        refuse(where + "must be in [0, 1], got " + std::to_string(value));
      return {.real = value};
    case EntryOption::Kind::positive:
      if (!(value > 0) || !std::isfinite(value))
        refuse(where + "must be a number > 0, got " + std::to_string(value));
      return {.real = value};
    case EntryOption::Kind::positive_int:
      if (!integral || value < 1 || value > std::numeric_limits<int>::max())
        refuse(where + "must be an integer in [1, 2147483647], got " + std::to_string(value));
      return {.count = static_cast<std::uint64_t>(value)};
    case EntryOption::Kind::count:
      if (!integral || value < 0 || value > 9.007199254740992e15)
        refuse(where + "must be an integer >= 0, got " + std::to_string(value));
      return {.count = static_cast<std::uint64_t>(value)};
  }
  return {};
}

template <class Entry>
typename Entry::Options entry_options(bool directed, bool weighted, std::uint64_t id_bound,
                                      const AlgorithmArgs& args) {
  typename Entry::Options o{};
  if constexpr (Entry::needs_source) {
    if (!args.source) refuse(std::string(Entry::name) + ": needs a source vertex");
    if (*args.source < 0 || static_cast<std::uint64_t>(*args.source) >= id_bound)
      refuse(std::string(Entry::name) + ": source " + std::to_string(*args.source) +
             " is not a vertex id of the graph (0.." +
             (id_bound ? std::to_string(id_bound - 1) : std::string("none")) + ")");
    o.source = static_cast<vertex_t>(*args.source);
  } else if (args.source) {
    refuse(std::string(Entry::name) + ": takes no source");
  }
  if constexpr (requires { o.per_vertex; }) o.per_vertex = args.values;
  if constexpr (Entry::reads_direction) o.directed = directed;
  if constexpr (Entry::reads_weights) {
    o.weighted = weighted;
    o.unit_weights = !weighted;
  }
  for (const auto& [key, value] : args.options) {
    bool found = false;
    std::string known;
    for (std::size_t i = 0; i < Entry::command_options.size(); ++i) {
      const EntryOption& opt = Entry::command_options[i];
      known += (known.empty() ? "" : ", ") + option_name(opt);
      if (option_name(opt) != key) continue;
      Entry::set_option(o, i, option_value(Entry::name, opt, value));
      found = true;
    }
    if (!found)
      refuse(std::string(Entry::name) + ": no option '" + key + "' (" +
             (known.empty() ? std::string("it takes none") : "its options: " + known) + ")");
  }
  return o;
}

const char* per_vertex_name(PerVertex p) {
  switch (p) {
    case PerVertex::component:
      return "component";
    case PerVertex::level:
      return "level";
    case PerVertex::distance:
      return "distance";
    default:
      return "number";
  }
}

/// Entry's dynamic class, type-erased.
template <class Entry>
class TrackedEntry final : public Tracked {
 public:
  TrackedEntry(cpu::DynamicGraph& graph, const typename Entry::Options& options)
      : options_(options), d_(Entry::make_dynamic(graph, options)) {}
  const char* name() const override { return Entry::name; }
  std::vector<double> values() const override { return Entry::values(Entry::result(*d_)); }
  std::vector<SummaryField> fields() const override {
    return entry_fields<Entry>(Entry::result(*d_), options_);
  }
  double summary() const override { return entry_dynamic_summary<Entry>(*d_); }
  DynamicStats statistics() const override { return d_->statistics(); }
  void require_current() const override { d_->require_current(); }
  BatchEffect after_insert(std::span<const std::uint64_t> k) override {
    return d_->after_insert(k);
  }
  void before_erase(std::span<const std::uint64_t> k) override { d_->before_erase(k); }
  BatchEffect after_erase(std::span<const std::uint64_t> k) override { return d_->after_erase(k); }

 private:
  typename Entry::Options options_;
  decltype(Entry::make_dynamic(std::declval<cpu::DynamicGraph&>(), options_)) d_;
};

/// One row of the table: what an entry is, and its three runs.
struct Row {
  AlgorithmInfo info;
  Computed (*run)(const cpu::DynamicGraph&, const AlgorithmArgs&);
  std::unique_ptr<Tracked> (*track)(cpu::DynamicGraph&, const AlgorithmArgs&);
  Computed (*reference)(const EdgeList&, bool, const AlgorithmArgs&);
};

template <class Entry>
Row row() {
  AlgorithmInfo info{.name = Entry::name,
                     .summary = Entry::summary,
                     .description = Entry::description,
                     .value_name = entry_value_name<Entry>(),
                     .per_vertex = per_vertex_name(Entry::per_vertex),
                     .needs_source = Entry::needs_source,
                     .reads_direction = Entry::reads_direction,
                     .reads_weights = Entry::reads_weights};
  for (const EntryOption& o : Entry::command_options) {
    info.options.push_back(o);
    info.option_names.push_back(option_name(o));
  }
  return {
      .info = std::move(info),
      .run =
          [](const cpu::DynamicGraph& g, const AlgorithmArgs& a) {
            const auto o = entry_options<Entry>(g.directed(), g.weighted(), g.num_vertices(), a);
            auto r = Entry::run(g, o);
            return Computed{Entry::values(r), entry_fields<Entry>(r, o)};
          },
      .track = [](cpu::DynamicGraph& g, const AlgorithmArgs& a) -> std::unique_ptr<Tracked> {
        const auto o = entry_options<Entry>(g.directed(), g.weighted(), g.num_vertices(), a);
        return std::make_unique<TrackedEntry<Entry>>(g, o);
      },
      .reference =
          [](const EdgeList& e, bool directed, const AlgorithmArgs& a) {
            const auto o = entry_options<Entry>(directed, e.weighted(), e.num_vertices, a);
            auto r = Entry::reference(e, o);
            return Computed{Entry::values(r), entry_fields<Entry>(r, o)};
          },
  };
}

const std::vector<Row>& table() {
#define WG_PY_ROW(Entry) row<Entry>(),
  static const std::vector<Row> rows{WG_REGISTERED_CPU(WG_PY_ROW)};
#undef WG_PY_ROW
  return rows;
}

const Row& find(const std::string& name) {
  std::string known;
  for (const Row& r : table()) {
    if (r.info.name == name) return r;
    known += (known.empty() ? "" : ", ") + r.info.name;
  }
  refuse("no algorithm '" + name + "' (registered: " + known + ")");
}

}  // namespace

const std::vector<AlgorithmInfo>& algorithms() {
  static const std::vector<AlgorithmInfo> infos = [] {
    std::vector<AlgorithmInfo> v;
    for (const Row& r : table()) v.push_back(r.info);
    return v;
  }();
  return infos;
}

Computed run(const std::string& name, const cpu::DynamicGraph& graph, const AlgorithmArgs& args) {
  return find(name).run(graph, args);
}

std::unique_ptr<Tracked> make_tracked(const std::string& name, cpu::DynamicGraph& graph,
                                      const AlgorithmArgs& args) {
  return find(name).track(graph, args);
}

Computed reference(const std::string& name, const EdgeList& edges, bool directed,
                   const AlgorithmArgs& args) {
  return find(name).reference(edges, directed, args);
}

}  // namespace wg::python
