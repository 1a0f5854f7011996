"""Conversion to and from networkx (imported only when called)."""
from __future__ import annotations

import numpy as np

from ._graph import Graph, from_edges


def to_networkx(g: Graph):
    """A networkx Graph (DiGraph when directed) with the live vertices as nodes (their labels
    where g.labels is set, else their ids) and the edges, with a 'weight' attribute when
    weighted."""
    import networkx as nx

    G = nx.DiGraph() if g.directed else nx.Graph()
    labels = g.labels
    name = (lambda v: v) if labels is None else (lambda v: labels[v])
    G.add_nodes_from(name(int(v)) for v in g.vertices())
    e = g.edges()
    if len(e) == 3:
        G.add_weighted_edges_from(
            (name(int(u)), name(int(v)), float(w)) for u, v, w in zip(e[0], e[1], e[2]))
    else:
        G.add_edges_from((name(int(u)), name(int(v))) for u, v in zip(e[0], e[1]))
    return G


def from_networkx(G, weight=None, backend: str = "auto", threads: int = 0) -> Graph:
    """A warpgraph Graph of the networkx graph G (directed when G is). Nodes that are all
    non-negative ints keep their ids (the ids below the largest not in G stay isolated
    vertices); other nodes are numbered 0..n-1 in G's order and graph.labels holds them.
    weight: the edge attribute to keep as weights (None: unweighted; missing attributes
    weigh 1)."""
    nodes = list(G.nodes())
    as_ids = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) and v >= 0
                 for v in nodes)
    index = None if as_ids else {v: i for i, v in enumerate(nodes)}
    src, dst, w = [], [], []
    for u, v, d in G.edges(data=True):
        src.append(u if as_ids else index[u])
        dst.append(v if as_ids else index[v])
        if weight is not None:
            w.append(d.get(weight, 1.0))
    n = (max(nodes) + 1 if nodes else 0) if as_ids else len(nodes)
    g = from_edges(np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64),
                   None if weight is None else np.asarray(w, dtype=np.float64),
                   num_vertices=n, directed=G.is_directed(), backend=backend, threads=threads)
    if not as_ids:
        g.labels = nodes
    return g
