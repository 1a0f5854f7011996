"""Shared fixtures: the bundled graphs (datasets/data) read independently of warpgraph into
networkx, and random graphs."""
import gzip
import os
import pathlib

import networkx as nx
import numpy as np
import pytest

import warpgraph as wg

DATA = pathlib.Path(os.environ.get("WG_DATASETS_DIR",
                                   pathlib.Path(__file__).resolve().parents[2] / "datasets" / "data"))
SMALL = ["karate.mtx.gz", "dolphins.mtx.gz", "polbooks.mtx.gz", "netscience.mtx.gz"]
LARGE = ["facebook_combined.txt.gz", "luxembourg_osm.mtx.gz", "delaunay_n16.mtx.gz"]
ALL = SMALL + LARGE


def read_networkx(name: str) -> nx.Graph:
    """The file as a networkx Graph on nodes 0..n-1, parsed here (not by warpgraph)."""
    G = nx.Graph()
    with gzip.open(DATA / name, "rt") as f:
        if name.endswith(".mtx.gz"):
            lines = (l for l in f if not l.startswith("%"))
            rows, cols, _ = map(int, next(lines).split())
            G.add_nodes_from(range(max(rows, cols)))
            for line in lines:
                p = line.split()
                if p:
                    u, v = int(p[0]) - 1, int(p[1]) - 1
                    if u != v:
                        G.add_edge(u, v)
        else:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                u, v = map(int, line.split()[:2])
                G.add_nodes_from((u, v))
                if u != v:
                    G.add_edge(u, v)
            G.add_nodes_from(range(max(G.nodes()) + 1))
    return G


_cache = {}


def bundled(name: str):
    """(warpgraph Graph read by wg.read, networkx Graph parsed independently), cached."""
    if name not in _cache:
        _cache[name] = (wg.read(DATA / name, weighted=False), read_networkx(name))
    return _cache[name]


def random_pair(n: int, m: int, seed: int, directed: bool = False):
    """A G(n, m) random graph with some isolated vertices, in warpgraph and networkx."""
    G = nx.gnm_random_graph(n, m, seed=seed, directed=directed)
    src = np.array([u for u, _ in G.edges()], dtype=np.int64)
    dst = np.array([v for _, v in G.edges()], dtype=np.int64)
    g = wg.from_edges(src, dst, num_vertices=n, directed=directed)
    return g, G


def per_vertex(d: dict, n: int, default=0):
    return np.array([d.get(v, default) for v in range(n)])


@pytest.fixture(params=ALL)
def any_bundled(request):
    return bundled(request.param)


@pytest.fixture(params=SMALL)
def small_bundled(request):
    return bundled(request.param)
