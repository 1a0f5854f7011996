"""The registered algorithms (algorithms/registry.hpp) as Python functions, and wg.Dynamic.

Each function runs the library's CPU backend on a Graph and returns NumPy arrays (one value per
vertex id, 0..num_vertices-1) or numbers. The same functions over the Boost.Graph reference are
in warpgraph.reference. wg.algorithms() lists every registered algorithm, wg.run(name, g, ...)
runs any of them by name.
"""
from __future__ import annotations

import functools
import inspect
from typing import Any, Dict, Iterable, List, Optional, Union

import numpy as np

from . import _core
from ._graph import Graph

_INFO = {a["name"]: a for a in _core.algorithms()}

#: Python names of the registry's algorithms (either is accepted wherever a name is).
ALIASES = {
    "triangle_count": "tc",
    "triangles": "tc",
    "connected_components": "cc",
    "components": "cc",
    "core_numbers": "kcore",
    "clustering": "lcc",
}


def algorithms() -> List[Dict[str, Any]]:
    """Every registered algorithm: name, summary, description, per_vertex (what the values are),
    needs_source, options [(name, help, default)]."""
    return [dict(a) for a in _INFO.values()]


def _name(name: str) -> str:
    n = ALIASES.get(name, name)
    if n not in _INFO:
        raise ValueError(f"no algorithm {name!r} (registered: {', '.join(sorted(_INFO))}; "
                         f"also {', '.join(sorted(ALIASES))})")
    return n


def _values(name: str, values: np.ndarray) -> np.ndarray:
    """The entry's per-vertex doubles in the dtype they mean."""
    kind = _INFO[name]["per_vertex"]
    if kind == "level":
        return values.astype(np.int64)
    if kind == "component":
        return _canonical_labels(values)
    if name in ("tc", "kcore"):
        return values.astype(np.int64)
    return values


def _canonical_labels(values: np.ndarray) -> np.ndarray:
    """Component labels as the smallest vertex id of each component (networkx-comparable)."""
    labels = values.astype(np.int64)
    if labels.size == 0:
        return labels
    # Already canonical (the cpu backend's labels are): every label is its own label and no
    # larger than its vertex, so it is its class's smallest member. O(n), no sort.
    if np.all(labels <= np.arange(labels.size)) and np.array_equal(labels[labels], labels):
        return labels
    uniq, inverse = np.unique(labels, return_inverse=True)
    smallest = np.full(uniq.size, labels.size, dtype=np.int64)
    np.minimum.at(smallest, inverse, np.arange(labels.size, dtype=np.int64))
    return smallest[inverse]


class Result:
    """What wg.run returns: ``values`` (one per vertex id, in the entry's dtype) and ``fields``
    (the entry's named numbers: triangles, components, iterations, ...)."""

    def __init__(self, name: str, values: np.ndarray, fields: Dict[str, Any]):
        self.name = name
        self.values = values
        self.fields = fields

    def __repr__(self) -> str:
        return f"<warpgraph.Result {self.name}: {self.fields}, {self.values.size} values>"


def _static(name, g, source, options, values=True):
    return _core.run(name, g._g, source, options, values)


def _reference(name, g, source, options, values=True):
    e = g.edges()
    w = e[2] if len(e) == 3 else None
    return _core.reference(name, e[0], e[1], w, g.num_vertices, g.directed, source, options)


def _check_graph(g) -> None:
    if not isinstance(g, Graph):
        raise TypeError(f"expected a warpgraph.Graph, got {type(g).__name__} "
                        "(wg.from_networkx(G) converts a networkx graph)")


def _source(name: str, source) -> Optional[int]:
    if not _INFO[name]["needs_source"]:
        if source is not None:
            raise ValueError(f"{name}: takes no source")
        return None
    if source is None:
        raise ValueError(f"{name}: needs a source vertex")
    if not isinstance(source, (int, np.integer)) or isinstance(source, bool):
        raise TypeError(f"{name}: source must be an int, got {type(source).__name__}")
    return int(source)


class _Runner:
    """The algorithm functions over one way of running them (the library, or the reference)."""

    def __init__(self, call):
        self._call = call

    def run(self, name: str, g: Graph, source: Optional[int] = None, **options) -> Result:
        """Runs the registered algorithm `name` (wg.algorithms() lists them) on `g`; options by
        the names the registry gives them (pagerank: damping, tolerance, max_iterations)."""
        return self._run(name, g, source, options, True)

    def _run(self, name, g, source, options, values: bool) -> Result:
        """run; values=False lets an entry skip its per-vertex values where it can (tc)."""
        _check_graph(g)
        n = _name(name)
        got, fields = self._call(n, g, _source(n, source), options, values)
        return Result(n, _values(n, got), fields)

    def triangle_count(self, g: Graph, per_vertex: bool = False):
        """Triangles of the graph (every edge read as undirected): the total (an int), or with
        per_vertex=True the triangles through each vertex (int64 array, networkx's
        nx.triangles)."""
        r = self._run("tc", g, None, {}, per_vertex)
        return r.values if per_vertex else int(r.fields["triangles"])

    def bfs(self, g: Graph, source: int) -> np.ndarray:
        """Breadth-first levels from `source` (int64; -1 where unreached). Directed graphs
        follow arcs forward."""
        return self.run("bfs", g, source).values

    def sssp(self, g: Graph, source: int) -> np.ndarray:
        """Shortest-path distances from `source` (float64; inf where unreached) over the edge
        weights (1 on an unweighted graph)."""
        return self.run("sssp", g, source).values

    def connected_components(self, g: Graph) -> np.ndarray:
        """Connected components (weakly, when directed): each vertex's label is the smallest id
        of its component (int64). The count is len(np.unique(labels))."""
        return self.run("cc", g).values

    def pagerank(self, g: Graph, damping: float = 0.85, tol: float = 1e-10,
                 max_iterations: int = 1000) -> np.ndarray:
        """PageRank by power iteration (float64, sums to 1); stops when the L1 change is below
        `tol` or after max_iterations. Directed graphs rank over their arcs."""
        return self.run("pagerank", g, damping=damping, tolerance=tol,
                        max_iterations=max_iterations).values

    def core_numbers(self, g: Graph) -> np.ndarray:
        """Core numbers (k-core decomposition) of the undirected graph (int64)."""
        return self.run("kcore", g).values

    def clustering(self, g: Graph) -> np.ndarray:
        """Local clustering coefficient of each vertex (float64; 0 below degree 2); their mean
        is networkx's average_clustering."""
        return self.run("lcc", g).values


def _with_descriptions(runner_cls) -> None:
    """Appends each registry entry's own description to its function's docstring."""
    for fn, name in (("triangle_count", "tc"), ("bfs", "bfs"), ("sssp", "sssp"),
                     ("connected_components", "cc"), ("pagerank", "pagerank"),
                     ("core_numbers", "kcore"), ("clustering", "lcc")):
        if name in _INFO:
            f = getattr(runner_cls, fn)
            f.__doc__ = f"{f.__doc__}\n\n        Registry ({name}): {_INFO[name]['description']}"


_with_descriptions(_Runner)
FUNCTIONS = ("run", "triangle_count", "bfs", "sssp", "connected_components", "pagerank",
             "core_numbers", "clustering")


def export(runner: _Runner, module: str) -> Dict[str, Any]:
    """The runner's methods as plain functions of `module` (so help() shows a function)."""
    out = {}
    for name in FUNCTIONS:
        bound = getattr(runner, name)

        def f(*args, _bound=bound, **kwargs):
            return _bound(*args, **kwargs)

        functools.update_wrapper(f, bound.__func__)
        del f.__wrapped__
        sig = inspect.signature(bound.__func__)
        f.__signature__ = sig.replace(parameters=list(sig.parameters.values())[1:])
        f.__module__ = module
        out[name] = f
    return out


reference_runner = _Runner(_reference)
globals().update(export(_Runner(_static), "warpgraph"))


AlgorithmSpec = Union[str, tuple]


# The fields of one batch's record, in the order the module gives them (BatchRecord).
_RECORD_FIELDS = ("batch", "kind", "applied", "changed", "recomputed", "summary", "seconds")


def _records(rows) -> List[Dict[str, Any]]:
    return [dict(zip(_RECORD_FIELDS, row)) for row in rows]


class Dynamic:
    """Results kept up to date while the graph changes.

    t = wg.Dynamic(g, ["tc", "cc", "pagerank"]); g.insert_edges(...) / g.erase_edges(...) /
    g.erase_vertices(...) then update every result (incrementally where the algorithm can);
    t.result("cc") is what wg.connected_components(g) would return now, without recomputing.

    algorithms: names (registry names or their Python aliases: "triangle_count", "components",
    ...), or (name, {options}) pairs, e.g. ("pagerank", {"damping": 0.9}), ("bfs", {"source": 0}).
    source: the default source of bfs / sssp.

    Per batch, each result records what it did: t.history(name) lists, per batch, its kind, the
    edges applied, the vertices whose value changed, whether it recomputed, its summary number
    (triangles, components, ...) and the batch's seconds; t.statistics(name) counts batches.
    t.close() (or leaving a ``with`` block) stops following. g.build-style rebuilds are refused
    while results follow a graph.
    """

    def __init__(self, g: Graph, algorithms: Iterable[AlgorithmSpec], source: Optional[int] = None):
        _check_graph(g)
        self.graph = g
        self._tracked: Dict[str, Any] = {}
        try:
            for spec in algorithms:
                name, options = (spec, {}) if isinstance(spec, str) else (spec[0], dict(spec[1]))
                n = _name(name)
                if n in self._tracked:
                    raise ValueError(f"{name}: asked for twice")
                src = options.pop("source", source if _INFO[n]["needs_source"] else None)
                if n == "pagerank" and "tol" in options:
                    options["tolerance"] = options.pop("tol")
                self._tracked[n] = _core.track(g._g, n, _source(n, src), options)
        except BaseException:
            self.close()
            raise

    def _get(self, name: str):
        n = _name(name)
        if n not in self._tracked:
            raise KeyError(f"{name}: not kept by this Dynamic (it keeps {', '.join(self.names)})")
        return n, self._tracked[n]

    @property
    def names(self) -> List[str]:
        return list(self._tracked)

    def result(self, name: str):
        """The result now: as the function of the same algorithm returns it (an array; for
        "tc" the total), read from what the dynamic class keeps."""
        n, t = self._get(name)
        if n == "tc":
            return int(t.summary(self.graph._g))  # the kept total: O(1)
        return _values(n, t.values(self.graph._g))

    def values(self, name: str) -> np.ndarray:
        """The per-vertex values now (for "tc": the triangles through each vertex, counted
        statically: the dynamic count keeps the total only)."""
        n, t = self._get(name)
        return _values(n, t.values(self.graph._g))

    def fields(self, name: str) -> Dict[str, Any]:
        """The entry's named numbers now (triangles, components, iterations, ...)."""
        return self._get(name)[1].fields(self.graph._g)

    def statistics(self, name: str) -> Dict[str, int]:
        """Batches followed: {'batches', 'incremental', 'recomputed'}."""
        return self._get(name)[1].statistics(self.graph._g)

    def history(self, name: str) -> List[Dict[str, Any]]:
        """One dict per batch: batch, kind, applied, changed, recomputed, summary, seconds."""
        return _records(self._get(name)[1].history(self.graph._g))

    def last_batch(self) -> Dict[str, Dict[str, Any]]:
        """Each result's record of the last batch ({} before the first)."""
        out = {}
        for n, t in self._tracked.items():
            h = t.history(self.graph._g)
            if h:
                out[n] = _records(h[-1:])[0]
        return out

    def close(self) -> None:
        """Stops following the graph (the results are dropped)."""
        for t in self._tracked.values():
            _core.untrack(self.graph._g, t)
        self._tracked = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self) -> str:
        return f"<warpgraph.Dynamic {', '.join(self.names)} on {self.graph!r}>"
