"""warpgraph: analytics for graphs that change.

    import warpgraph as wg
    g = wg.read("karate.mtx.gz")                  # or wg.from_edges(src, dst), wg.Graph()
    wg.triangle_count(g), wg.connected_components(g), wg.pagerank(g)
    t = wg.Dynamic(g, ["tc", "cc"])               # results kept through batches
    g.insert_edges(src, dst); t.result("tc")

The graph and the algorithms are the C++ library's (warpgraph._core); warpgraph.reference has
the Boost.Graph reference of each algorithm, for verification.
"""
from . import _core
from ._graph import Graph, from_edges, read
from ._algorithms import (ALIASES, Dynamic, Result, algorithms, bfs, clustering,
                          connected_components, core_numbers, pagerank, run, sssp,
                          triangle_count)
from .nx import from_networkx, to_networkx
from . import reference

UpdateResult = _core.UpdateResult
VertexEraseResult = _core.VertexEraseResult
has_gpu: bool = _core.has_gpu

__version__ = "0.1.0"

__all__ = ["Graph", "from_edges", "read", "Dynamic", "Result", "algorithms", "run",
           "triangle_count", "bfs", "sssp", "connected_components", "pagerank", "core_numbers",
           "clustering", "to_networkx", "from_networkx", "reference", "UpdateResult",
           "VertexEraseResult", "has_gpu", "ALIASES"]
