"""wg.Graph, wg.from_edges and wg.read: the dynamic graph as Python sees it."""
from __future__ import annotations

import errno
import os
from typing import Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
from ._arrays import as_array

BACKENDS = ("auto", "cpu", "gpu")


def _resolve_backend(backend: str) -> str:
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}; got {backend!r}")
    if backend == "gpu" and not _core.has_gpu:
        raise ValueError(
            "backend 'gpu': this build of warpgraph has no GPU backend (built without CUDA or "
            "without a visible GPU); use backend='cpu' or 'auto'")
    return "gpu" if backend == "auto" and _core.has_gpu else "cpu"


class Graph:
    """A graph that changes: edges and vertices come and go in batches.

    Graph(backend="auto", directed=False, weighted=False, threads=0)

    backend: "cpu" (the BS-tree graph), "gpu" (not in a CPU build: ValueError), or "auto" (the
    GPU where this build has one, else cpu). directed: arcs u->v rather than edges {u, v}.
    weighted: one float weight per arc. threads: worker threads of batch updates (0: all cores).

    Vertex ids are 0 .. num_vertices-1 (below 2^31). insert_edges grows the id range to its
    largest id; erase_vertices frees ids that insert_vertices reuses. Batches drop self-loops
    and duplicates and say so (UpdateResult). A graph is not safe for concurrent calls from
    several threads: calls are serialised, and the GIL is released while each runs.
    """

    def __init__(self, backend: str = "auto", directed: bool = False, weighted: bool = False,
                 threads: int = 0):
        self.backend = _resolve_backend(backend)
        self._g = _core.Graph(bool(directed), bool(weighted), int(threads))
        #: For graphs read with compact_ids (or from networkx with non-integer nodes): the
        #: original id / node of each vertex id, else None.
        self.labels = None

    # ---- properties -------------------------------------------------------------------------
    @property
    def directed(self) -> bool:
        return self._g.directed

    @property
    def weighted(self) -> bool:
        return self._g.weighted

    @property
    def num_vertices(self) -> int:
        """The id bound: one more than the largest id in use (erased ids included)."""
        return self._g.num_vertices

    @property
    def num_live_vertices(self) -> int:
        """Vertices not erased."""
        return self._g.num_live_vertices

    @property
    def num_edges(self) -> int:
        """Edges (arcs when directed)."""
        return self._g.num_edges

    def __len__(self) -> int:
        return self._g.num_live_vertices

    def __repr__(self) -> str:
        kind = ("directed" if self.directed else "undirected") + (
            ", weighted" if self.weighted else "")
        return (f"<warpgraph.Graph {self.backend}, {kind}: {self.num_live_vertices} vertices, "
                f"{self.num_edges} edges>")

    # ---- updates ----------------------------------------------------------------------------
    def insert_edges(self, src, dst, weights=None) -> "_core.UpdateResult":
        """Adds the edges src[i] -> dst[i] (with weights[i] on a weighted graph; 1 when omitted).

        Arrays of integer ids (any integer dtype, any stride, read-only ones too) of equal
        length. The id range grows to the largest id + 1. Present edges are ignored (a weighted
        graph takes the new weight); self-loops and duplicates are dropped. Dynamic results on
        the graph (wg.Dynamic) follow the batch. Returns an UpdateResult.
        """
        w = None
        if weights is not None:
            if not self.weighted:
                raise ValueError("weights given for an unweighted graph (Graph(weighted=True))")
            w = as_array(weights, "weights")
        return self._g.insert_edges(as_array(src, "src"), as_array(dst, "dst"), w)

    def erase_edges(self, src, dst) -> "_core.UpdateResult":
        """Removes the edges src[i] -> dst[i]; absent ones are ignored. Returns an UpdateResult."""
        return self._g.erase_edges(as_array(src, "src"), as_array(dst, "dst"))

    def insert_vertices(self, count: int) -> np.ndarray:
        """Adds `count` isolated vertices; returns their ids (freed ids first, oldest first)."""
        if count < 0:
            raise ValueError(f"count must be >= 0, got {count}")
        return self._g.insert_vertices(int(count))

    def erase_vertices(self, ids) -> "_core.VertexEraseResult":
        """Removes vertices and every edge incident to them; their ids are freed for reuse."""
        if np.isscalar(ids):
            ids = [ids]
        return self._g.erase_vertices(as_array(ids, "ids"))

    # ---- queries ----------------------------------------------------------------------------
    def degree(self, v=None):
        """The degree (out-degree when directed) of vertex v (an int), of each id of an array
        (an int64 array), or of every vertex 0..num_vertices-1 when v is None."""
        if v is None:
            return self._g.all_degrees()
        if isinstance(v, (int, np.integer)):
            return self._g.degree(int(v))
        return self._g.degrees(as_array(v, "v"))

    def has_edge(self, u: int, v: int) -> bool:
        return self._g.has_edge(int(u), int(v))

    def is_vertex(self, v: int) -> bool:
        return self._g.is_vertex(int(v))

    def vertices(self) -> np.ndarray:
        """The ids of the live vertices, ascending (int64)."""
        return self._g.live_vertices()

    def edges(self):
        """The edges as arrays (src, dst) (int64), plus weights (float64, the float each arc keeps) when weighted.
        Undirected edges come once each with src < dst; directed graphs give every arc; both
        sorted by (src, dst)."""
        src, dst, w = self._g.edges()
        return (src, dst) if w is None else (src, dst, w)

    def memory_bytes(self) -> int:
        return self._g.memory_bytes()

    @property
    def batches(self) -> int:
        """Batches applied (insert_edges, erase_edges, erase_vertices calls)."""
        return self._g.batches


def from_edges(src, dst, weights=None, num_vertices: Optional[int] = None,
               directed: bool = False, backend: str = "auto", threads: int = 0) -> Graph:
    """A graph of the edges src[i] -> dst[i] (weighted when weights are given), built in one
    bulk load. num_vertices: the id range (default: the largest id + 1)."""
    g = Graph(backend=backend, directed=directed, weighted=weights is not None, threads=threads)
    w = None if weights is None else as_array(weights, "weights")
    g._g.build(as_array(src, "src"), as_array(dst, "dst"), w, int(num_vertices or 0))
    return g


def read(path: Union[str, os.PathLike], directed: bool = False, weighted: Optional[bool] = None,
         compact_ids: bool = False, format: str = "auto", backend: str = "auto",
         threads: int = 0, exact_weights: bool = True) -> Graph:
    """Reads a graph file: Matrix Market (.mtx, coordinate) or an edge list (SNAP "u v [w]",
    CSV, TSV), plain or gzip. Ctrl-C stops a long read (KeyboardInterrupt).

    directed: read SNAP lines as arcs (Matrix Market files say it themselves: a "general" file
    is directed only when directed=True). weighted: keep the file's weights (default: when it
    has them); the graph keeps them as float, and a weight float cannot hold exactly is a
    ValueError naming its line unless exact_weights=False (then rounded). compact_ids: number the vertices present 0..n-1
    (graph.labels holds each one's id in the file). format: "auto", "mtx" or "snap".
    Errors name the file and line (ValueError); a missing file is FileNotFoundError.
    """
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)
    if format not in ("auto", "mtx", "snap"):
        raise ValueError(f"format must be 'auto', 'mtx' or 'snap'; got {format!r}")
    src, dst, w, n, symmetric, ids = _core.read(path, format, bool(directed), bool(compact_ids),
                                                weighted is not False and exact_weights)
    if weighted and w is None:
        raise ValueError(f"{path}: weighted=True but the file has no weights")
    keep = w if weighted is not False else None
    g = Graph(backend=backend, directed=bool(directed) and not symmetric,
              weighted=keep is not None, threads=threads)
    g._g.build(src, dst, keep, n)
    g.labels = ids
    return g
