"""The Boost.Graph reference (algorithms/reference): the same functions as warpgraph's, computed
by the library's reference implementations on the graph's edges, for verification.

    assert (wg.reference.core_numbers(g) == wg.core_numbers(g)).all()
"""
from ._algorithms import reference_runner as _r

run = _r.run
triangle_count = _r.triangle_count
bfs = _r.bfs
sssp = _r.sssp
connected_components = _r.connected_components
pagerank = _r.pagerank
core_numbers = _r.core_numbers
clustering = _r.clustering

__all__ = ["run", "triangle_count", "bfs", "sssp", "connected_components", "pagerank",
           "core_numbers", "clustering"]
