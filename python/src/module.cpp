// warpgraph._core: the nanobind module under the Python package warpgraph (python/warpgraph).
// The package is the API; this module is its C++ half: the CPU graph (graph.hpp), arrays in and
// out (arrays.hpp), the registered algorithms by name (algorithms.hpp) and the file readers.
// Every call that can take long (batches, builds, reads, algorithm runs) releases the GIL; the
// library's errors become Python exceptions with the same one-line messages: CapacityError ->
// MemoryError, CudaError -> RuntimeError, every other wg::Error (bad input) -> ValueError.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/read_graph.hpp>

#include "algorithms.hpp"
#include "arrays.hpp"
#include "graph.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace wg::python {
namespace {

using Lock = std::lock_guard<std::mutex>;
using OptArray = std::optional<AnyArray>;

/// The array readers (arrays.hpp) touch no Python object: batches are read with the GIL released
/// too (the arguments keep the arrays alive).
/// f() with the GIL released and the graph's mutex held: every call that reads or changes a
/// graph or its results (another thread may be inside a batch of the same graph).
template <class F>
auto with_graph(Graph& g, F&& f) {
  nb::gil_scoped_release release;
  Lock lock(g.mutex());
  return f();
}
/// A query binding: f(graph, args...) under with_graph.
template <class R, class... Args>
auto queried(R (*f)(Graph&, Args...)) {
  return [f](Graph& g, Args... args) -> R { return with_graph(g, [&] { return f(g, args...); }); };
}

nb::dict fields_dict(const std::vector<SummaryField>& fields) {
  nb::dict d;
  for (const SummaryField& f : fields) {
    if (f.boolean)
      d[f.key] = f.value != 0;
    else if (f.integer)
      d[f.key] = static_cast<std::int64_t>(f.value);
    else
      d[f.key] = f.value;
  }
  return d;
}

nb::tuple computed(Computed&& c) {
  nb::dict fields = fields_dict(c.fields);
  return nb::make_tuple(to_numpy(std::move(c.values)), fields);
}

AlgorithmArgs algorithm_args(std::optional<std::int64_t> source, const nb::dict& options) {
  AlgorithmArgs a{.source = source};
  for (auto [k, v] : options) a.options.emplace_back(nb::cast<std::string>(k), nb::cast<double>(v));
  return a;
}

/// The graph's edges: (src, dst, weights or None); undirected edges once each (src < dst).
nb::tuple edges_of(Graph& g) {
  EdgeList e;
  {
    nb::gil_scoped_release release;
    Lock lock(g.mutex());
    e = g.graph().export_coo();
  }
  nb::object w = nb::none();
  if (e.weighted()) w = nb::cast(to_numpy(std::move(e.weight)));
  return nb::make_tuple(to_numpy_as<std::int64_t>(e.src), to_numpy_as<std::int64_t>(e.dst), w);
}

void bind_results(nb::module_& m) {
  nb::class_<UpdateResult>(m, "UpdateResult",
                           "What one edge batch did: every entry counted once, "
                           "entries == applied + self_loops + duplicates + ignored.")
      .def_ro("applied", &UpdateResult::applied, "edges added (insert) or removed (erase)")
      .def_ro("self_loops", &UpdateResult::self_loops, "entries u == v, dropped")
      .def_ro("duplicates", &UpdateResult::duplicates, "repeats of an earlier entry, dropped")
      .def_ro("ignored", &UpdateResult::ignored,
              "entries with no effect (edge present on insert, absent on erase)")
      .def_prop_ro("entries", &UpdateResult::entries)
      .def("__repr__", [](const UpdateResult& r) {
        return "UpdateResult(applied=" + std::to_string(r.applied) +
               ", self_loops=" + std::to_string(r.self_loops) +
               ", duplicates=" + std::to_string(r.duplicates) +
               ", ignored=" + std::to_string(r.ignored) + ")";
      });
  nb::class_<VertexEraseResult>(m, "VertexEraseResult", "What erase_vertices did.")
      .def_ro("vertices", &VertexEraseResult::vertices, "live vertices erased")
      .def_ro("ignored_ids", &VertexEraseResult::ignored_ids, "ids not live, or repeated")
      .def_ro("edges_removed", &VertexEraseResult::edges_removed, "incident edges removed")
      .def("__repr__", [](const VertexEraseResult& r) {
        return "VertexEraseResult(vertices=" + std::to_string(r.vertices) +
               ", ignored_ids=" + std::to_string(r.ignored_ids) +
               ", edges_removed=" + std::to_string(r.edges_removed) + ")";
      });
}

void bind_graph(nb::module_& m) {
  nb::class_<Graph>(m, "Graph")
      .def(nb::init<bool, bool, unsigned>(), "directed"_a, "weighted"_a, "threads"_a)
      .def_prop_ro("directed", [](Graph& g) { return g.graph().directed(); })
      .def_prop_ro("weighted", [](Graph& g) { return g.graph().weighted(); })
      .def_prop_ro("threads", [](Graph& g) { return g.graph().threads(); })
      .def(
          "build",
          [](Graph& g, const AnyArray& src, const AnyArray& dst, const OptArray& w,
             std::uint64_t num_vertices) {
            nb::gil_scoped_release release;
            EdgeList e = read_edges(src, dst, w, !g.graph().directed());
            e.num_vertices = std::max(e.num_vertices, num_vertices);
            Lock lock(g.mutex());
            return g.build(e);
          },
          "src"_a, "dst"_a, "weights"_a.none(), "num_vertices"_a)
      .def(
          "insert_edges",
          [](Graph& g, const AnyArray& src, const AnyArray& dst, const OptArray& w) {
            nb::gil_scoped_release release;
            EdgeList e = read_edges(src, dst, w, !g.graph().directed());
            Lock lock(g.mutex());
            return g.insert_edges(e);
          },
          "src"_a, "dst"_a, "weights"_a.none())
      .def(
          "erase_edges",
          [](Graph& g, const AnyArray& src, const AnyArray& dst) {
            nb::gil_scoped_release release;
            EdgeList e = read_edges(src, dst, std::nullopt, !g.graph().directed());
            Lock lock(g.mutex());
            return g.erase_edges(e);
          },
          "src"_a, "dst"_a)
      .def(
          "insert_vertices",
          [](Graph& g, std::uint64_t count) {
            std::vector<vertex_t> ids;
            {
              nb::gil_scoped_release release;
              Lock lock(g.mutex());
              ids = g.insert_vertices(count);
            }
            return to_numpy_as<std::int64_t>(ids);
          },
          "count"_a)
      .def(
          "erase_vertices",
          [](Graph& g, const AnyArray& ids) {
            nb::gil_scoped_release release;
            std::vector<vertex_t> v = read_ids(ids, "ids");
            Lock lock(g.mutex());
            return g.erase_vertices(v);
          },
          "ids"_a)
      .def_prop_ro("num_vertices", queried(+[](Graph& g) { return g.graph().num_vertices(); }))
      .def_prop_ro("num_live_vertices",
                   queried(+[](Graph& g) { return g.graph().num_live_vertices(); }))
      .def_prop_ro("num_edges", queried(+[](Graph& g) { return g.graph().num_edges(); }))
      .def_prop_ro("batches", queried(+[](Graph& g) { return g.batches(); }))
      .def_prop_ro("tracked", queried(+[](Graph& g) { return g.tracked(); }))
      .def("degree", queried(+[](Graph& g, std::int64_t v) -> std::uint64_t {
             const auto limit = static_cast<std::int64_t>(kVertexIdLimit);
             return v < 0 || v >= limit ? 0 : g.graph().degree(static_cast<vertex_t>(v));
           }))
      .def("degrees",
           [](Graph& g, const AnyArray& ids) {
             std::vector<vertex_t> v = read_ids(ids, "v");
             std::vector<std::int64_t> d(v.size());
             with_graph(g, [&] {
               for (std::size_t i = 0; i < v.size(); ++i) d[i] = g.graph().degree(v[i]);
             });
             return to_numpy(std::move(d));
           })
      .def("all_degrees",
           [](Graph& g) {
             return to_numpy_as<std::int64_t>(with_graph(g, [&] { return g.graph().degrees(); }));
           })
      .def("live_vertices",
           [](Graph& g) {
             std::vector<std::int64_t> ids;
             with_graph(g, [&] {
               ids.reserve(g.graph().num_live_vertices());
               for (std::uint64_t v = 0; v < g.graph().num_vertices(); ++v)
                 if (g.graph().is_vertex(static_cast<vertex_t>(v))) ids.push_back(std::int64_t(v));
             });
             return to_numpy(std::move(ids));
           })
      .def("is_vertex", queried(+[](Graph& g, std::int64_t v) {
             return v >= 0 && v < static_cast<std::int64_t>(kVertexIdLimit) &&
                    g.graph().is_vertex(static_cast<vertex_t>(v));
           }))
      .def("has_edge", queried(+[](Graph& g, std::int64_t u, std::int64_t v) {
             const auto limit = static_cast<std::int64_t>(kVertexIdLimit);
             return u >= 0 && v >= 0 && u < limit && v < limit &&
                    g.graph().has_edge(static_cast<vertex_t>(u), static_cast<vertex_t>(v));
           }))
      .def("edges", &edges_of)
      .def("memory_bytes", queried(+[](Graph& g) { return g.graph().memory_bytes(); }));
}

void bind_tracked(nb::module_& m) {
  // A result's reads take its graph (the Python side passes it) for the graph's mutex.
  nb::class_<Tracked>(m, "Tracked", "A dynamic result that follows its graph's batches.")
      .def_prop_ro("name", [](const Tracked& t) { return std::string(t.name()); })
      .def("values", [](const Tracked& t,
                        Graph& g) { return to_numpy(with_graph(g, [&] { return t.values(); })); })
      .def("fields",
           [](const Tracked& t, Graph& g) {
             return fields_dict(with_graph(g, [&] { return t.fields(); }));
           })
      .def("summary",
           [](const Tracked& t, Graph& g) { return with_graph(g, [&] { return t.summary(); }); })
      .def("statistics",
           [](const Tracked& t, Graph& g) {
             const DynamicStats s = with_graph(g, [&] { return t.statistics(); });
             nb::dict d;
             d["batches"] = s.batches;
             d["incremental"] = s.incremental;
             d["recomputed"] = s.recomputed;
             return d;
           })
      .def("history", [](const Tracked& t, Graph& g) {
        const std::vector<BatchRecord> h = with_graph(g, [&] { return t.history; });
        // Tuples in BatchRecord's order; the package names the fields (_algorithms.py).
        nb::list out;
        for (const BatchRecord& r : h)
          out.append(nb::make_tuple(r.batch, r.kind, r.applied, r.changed, r.recomputed, r.summary,
                                    r.seconds));
        return out;
      });
  m.def(
      "track",
      [](Graph& g, const std::string& name, std::optional<std::int64_t> source,
         const nb::dict& options) -> Tracked& {
        AlgorithmArgs a = algorithm_args(source, options);
        nb::gil_scoped_release release;
        Lock lock(g.mutex());
        return g.track(make_tracked(name, g.graph(), a));
      },
      "graph"_a, "name"_a, "source"_a.none(), "options"_a, nb::rv_policy::reference,
      nb::keep_alive<0, 1>());
  m.def(
      "untrack",
      [](Graph& g, const Tracked& t) {
        Lock lock(g.mutex());
        g.untrack(t);
      },
      "graph"_a, "tracked"_a);
}

void bind_algorithms(nb::module_& m) {
  m.def("algorithms", [] {
    nb::list out;
    for (const AlgorithmInfo& a : algorithms()) {
      nb::dict d;
      d["name"] = a.name;
      d["summary"] = a.summary;
      d["description"] = a.description;
      d["value_name"] = a.value_name;
      d["per_vertex"] = a.per_vertex;
      d["needs_source"] = a.needs_source;
      d["reads_direction"] = a.reads_direction;
      d["reads_weights"] = a.reads_weights;
      nb::list options;
      for (std::size_t i = 0; i < a.options.size(); ++i)
        options.append(
            nb::make_tuple(a.option_names[i], a.options[i].help, a.options[i].default_value));
      d["options"] = options;
      out.append(d);
    }
    return out;
  });
  m.def(
      "run",
      [](const std::string& name, Graph& g, std::optional<std::int64_t> source,
         const nb::dict& options, bool values) {
        AlgorithmArgs a = algorithm_args(source, options);
        a.values = values;
        Computed c;
        {
          nb::gil_scoped_release release;
          Lock lock(g.mutex());
          c = run(name, g.graph(), a);
        }
        return computed(std::move(c));
      },
      "name"_a, "graph"_a, "source"_a.none(), "options"_a, "values"_a = true);
  m.def(
      "reference",
      [](const std::string& name, const AnyArray& src, const AnyArray& dst, const OptArray& w,
         std::uint64_t num_vertices, bool directed, std::optional<std::int64_t> source,
         const nb::dict& options) {
        EdgeList e = read_edges(src, dst, w, !directed);
        e.num_vertices = std::max(e.num_vertices, num_vertices);
        AlgorithmArgs a = algorithm_args(source, options);
        Computed c;
        {
          nb::gil_scoped_release release;
          c = reference(name, e, directed, a);
        }
        return computed(std::move(c));
      },
      "name"_a, "src"_a, "dst"_a, "weights"_a.none(), "num_vertices"_a, "directed"_a,
      "source"_a.none(), "options"_a);
}

/// read_graph on a thread of its own while this one, with the GIL released, looks for Ctrl-C
/// (Python's pending signals) every 50 ms: a KeyboardInterrupt cancels the read
/// (ReadOptions::cancel), waits for its threads to stop and is raised here.
datasets::ReadResult read_interruptibly(const std::string& path, datasets::ReadOptions o) {
  std::atomic<bool> cancel{false};
  o.cancel = &cancel;
  datasets::ReadResult r;
  std::exception_ptr failure;
  bool finished = false, interrupted = false;
  std::mutex m;
  std::condition_variable cv;
  {
    nb::gil_scoped_release release;
    std::thread reader([&] {
      try {
        r = datasets::read_graph(path, o);
      } catch (...) {
        failure = std::current_exception();
      }
      {
        std::lock_guard lock(m);
        finished = true;
      }
      cv.notify_all();
    });
    std::unique_lock lock(m);
    while (!cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return finished; })) {
      if (interrupted) continue;  // cancelled: waiting for the reader to stop
      lock.unlock();
      {
        nb::gil_scoped_acquire acquire;
        interrupted = PyErr_CheckSignals() != 0;  // leaves the KeyboardInterrupt set
      }
      if (interrupted) cancel = true;
      lock.lock();
    }
    lock.unlock();
    reader.join();
  }
  if (interrupted) throw nb::python_error();
  if (failure) std::rethrow_exception(failure);
  return r;
}

void bind_read(nb::module_& m) {
  m.def(
      "read",
      [](const std::string& path, const std::string& format, bool directed, bool compact_ids,
         bool check_float) {
        datasets::ReadOptions o;
        o.format = format == "mtx"    ? datasets::FileFormat::matrix_market
                   : format == "snap" ? datasets::FileFormat::snap
                                      : datasets::FileFormat::automatic;
        o.snap_undirected = !directed;
        o.compact_ids = compact_ids;
        o.weight_storage =
            check_float ? datasets::WeightStorage::f32 : datasets::WeightStorage::f64;
        datasets::ReadResult r = read_interruptibly(path, o);
        EdgeList& e = r.edges;
        nb::object w = nb::none();
        if (e.weighted()) w = nb::cast(to_numpy(std::move(e.weight)));
        nb::object ids = nb::none();
        if (!r.original_ids.empty()) ids = nb::cast(to_numpy_as<std::int64_t>(r.original_ids));
        return nb::make_tuple(to_numpy(std::move(e.src)), to_numpy(std::move(e.dst)), w,
                              e.num_vertices, e.symmetric, ids);
      },
      "path"_a, "format"_a, "directed"_a, "compact_ids"_a, "check_float"_a);
}

void translate_errors(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const CapacityError& e) {
    PyErr_SetString(PyExc_MemoryError, e.what());
  } catch (const CudaError& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (const Error& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  }
}

}  // namespace
}  // namespace wg::python

NB_MODULE(_core, m) {
  using namespace wg::python;
  m.doc() = "warpgraph's C++ half (use the package warpgraph, not this module)";
  m.attr("has_gpu") = false;
  nb::register_exception_translator(&translate_errors);
  bind_results(m);
  bind_graph(m);
  bind_tracked(m);
  bind_algorithms(m);
  bind_read(m);
}
