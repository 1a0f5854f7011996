"""The Boost.Graph reference (algorithms/reference): the same functions as warpgraph's, computed
by the library's reference implementations on the graph's edges, for verification.

    assert (wg.reference.core_numbers(g) == wg.core_numbers(g)).all()
"""
from ._algorithms import export as _export, reference_runner as _r

globals().update(_export(_r, __name__))

__all__ = ["run", "triangle_count", "bfs", "sssp", "connected_components", "pagerank",
           "core_numbers", "clustering"]
