# Type stub of warpgraph.reference: the same functions as warpgraph's, on the Boost.Graph reference.
from . import (
    bfs as bfs,
    clustering as clustering,
    connected_components as connected_components,
    core_numbers as core_numbers,
    pagerank as pagerank,
    run as run,
    sssp as sssp,
    triangle_count as triangle_count,
)
