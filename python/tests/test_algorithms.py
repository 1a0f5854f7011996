"""Every algorithm function against networkx, on the bundled graphs and on random graphs, and
against warpgraph.reference (Boost.Graph)."""
import math

import networkx as nx
import numpy as np
import pytest

import warpgraph as wg
from conftest import ALL, DATA, bundled, per_vertex, random_pair

try:  # networkx's pure-Python PageRank (nx.pagerank itself needs scipy)
    from networkx.algorithms.link_analysis.pagerank_alg import _pagerank_python as nx_pagerank
except ImportError:  # pragma: no cover
    nx_pagerank = nx.pagerank


def nx_components(G, n):
    label = np.arange(n)
    comps = nx.weakly_connected_components(G) if G.is_directed() else nx.connected_components(G)
    for c in comps:
        label[list(c)] = min(c)
    return label


def test_bundled_sizes(any_bundled):
    g, G = any_bundled
    assert g.num_vertices == G.number_of_nodes()
    assert g.num_edges == G.number_of_edges()
    src, dst = g.edges()
    assert sorted(zip(src.tolist(), dst.tolist())) == sorted(
        (min(u, v), max(u, v)) for u, v in G.edges())


def test_triangles(any_bundled):
    g, G = any_bundled
    t = nx.triangles(G)
    assert wg.triangle_count(g) == sum(t.values()) // 3
    assert (wg.triangle_count(g, per_vertex=True) == per_vertex(t, g.num_vertices)).all()


def test_components(any_bundled):
    g, G = any_bundled
    labels = wg.connected_components(g)
    assert labels.dtype == np.int64
    assert (labels == nx_components(G, g.num_vertices)).all()


def test_core_numbers(any_bundled):
    g, G = any_bundled
    assert (wg.core_numbers(g) == per_vertex(nx.core_number(G), g.num_vertices)).all()


def test_clustering(any_bundled):
    g, G = any_bundled
    np.testing.assert_allclose(wg.clustering(g), per_vertex(nx.clustering(G), g.num_vertices),
                               rtol=0, atol=1e-12)


@pytest.mark.parametrize("source", [0, 7])
def test_bfs_and_sssp(any_bundled, source):
    g, G = any_bundled
    lengths = nx.single_source_shortest_path_length(G, source)
    assert (wg.bfs(g, source) == per_vertex(lengths, g.num_vertices, -1)).all()
    assert (wg.sssp(g, source) == per_vertex(lengths, g.num_vertices, math.inf)).all()


@pytest.mark.parametrize("name", ["karate.mtx.gz", "dolphins.mtx.gz", "polbooks.mtx.gz",
                                  "netscience.mtx.gz", "facebook_combined.txt.gz"])
def test_pagerank(name):
    g, G = bundled(name)
    pr = wg.pagerank(g, damping=0.85, tol=1e-12)
    expected = per_vertex(nx_pagerank(G, alpha=0.85, tol=1e-13, max_iter=10000), g.num_vertices)
    assert abs(pr.sum() - 1) < 1e-9
    assert np.abs(pr - expected).sum() < 1e-7


@pytest.mark.parametrize("seed", range(6))
def test_random_undirected(seed):
    n, m = 60 + 20 * seed, 150 + 90 * seed
    g, G = random_pair(n, m, seed)
    t = nx.triangles(G)
    assert wg.triangle_count(g) == sum(t.values()) // 3
    assert (wg.connected_components(g) == nx_components(G, n)).all()
    assert (wg.core_numbers(g) == per_vertex(nx.core_number(G), n)).all()
    np.testing.assert_allclose(wg.clustering(g), per_vertex(nx.clustering(G), n), atol=1e-12)
    lengths = nx.single_source_shortest_path_length(G, seed)
    assert (wg.bfs(g, seed) == per_vertex(lengths, n, -1)).all()
    expected = per_vertex(nx_pagerank(G, alpha=0.9, tol=1e-13, max_iter=10000), n)
    assert np.abs(wg.pagerank(g, damping=0.9, tol=1e-12) - expected).sum() < 1e-7


@pytest.mark.parametrize("seed", range(4))
def test_random_directed(seed):
    n = 80
    g, G = random_pair(n, 300, seed, directed=True)
    assert g.directed
    assert (wg.connected_components(g) == nx_components(G, n)).all()
    lengths = nx.single_source_shortest_path_length(G, 3)
    assert (wg.bfs(g, 3) == per_vertex(lengths, n, -1)).all()
    expected = per_vertex(nx_pagerank(G, alpha=0.85, tol=1e-13, max_iter=10000), n)
    assert np.abs(wg.pagerank(g, tol=1e-12) - expected).sum() < 1e-7


@pytest.mark.parametrize("seed", range(4))
def test_random_weighted_sssp(seed):
    rng = np.random.default_rng(seed)
    n, m = 70, 260
    G = nx.gnm_random_graph(n, m, seed=seed)
    for u, v in G.edges():
        G[u][v]["weight"] = float(rng.integers(1, 20))
    g = wg.from_networkx(G, weight="weight")
    assert g.weighted
    d = nx.single_source_dijkstra_path_length(G, 0, weight="weight")
    assert (wg.sssp(g, 0) == per_vertex(d, n, math.inf)).all()
    assert (wg.bfs(g, 0) == per_vertex(nx.single_source_shortest_path_length(G, 0), n, -1)).all()


def test_weighted_file_keeps_weights():
    path = DATA / "netscience.mtx.gz"
    with pytest.raises(ValueError, match=r"netscience.mtx.gz:50: weight .* cannot be held exactly"):
        wg.read(path)
    assert not wg.read(path, weighted=False).weighted
    g = wg.read(path, exact_weights=False)
    assert g.weighted
    src, dst, w = g.edges()
    assert w.dtype == np.float64 and len(w) == g.num_edges and (w > 0).all()
    G = wg.to_networkx(g)
    d = nx.single_source_dijkstra_path_length(G, 0, weight="weight")
    np.testing.assert_allclose(wg.sssp(g, 0), per_vertex(d, g.num_vertices, math.inf), rtol=1e-6)


@pytest.mark.parametrize("name", ALL[:5])
def test_reference_agrees(name):
    g, _ = bundled(name)
    assert wg.reference.triangle_count(g) == wg.triangle_count(g)
    assert (wg.reference.connected_components(g) == wg.connected_components(g)).all()
    assert (wg.reference.core_numbers(g) == wg.core_numbers(g)).all()
    assert (wg.reference.bfs(g, 1) == wg.bfs(g, 1)).all()
    assert (wg.reference.sssp(g, 1) == wg.sssp(g, 1)).all()
    np.testing.assert_allclose(wg.reference.clustering(g), wg.clustering(g), atol=1e-12)
    assert np.abs(wg.reference.pagerank(g) - wg.pagerank(g)).sum() < 1e-6


def test_run_by_name_and_registry():
    g, G = bundled("karate.mtx.gz")
    names = {a["name"] for a in wg.algorithms()}
    assert {"tc", "bfs", "sssp", "cc", "pagerank", "kcore", "lcc"} <= names
    r = wg.run("pagerank", g, damping=0.5, max_iterations=3)
    assert r.fields["iterations"] == 3 and r.fields["converged"] is False
    assert wg.run("cc", g).fields["components"] == nx.number_connected_components(G)
    assert wg.run("components", g).name == "cc"
    assert "Breadth-first" in wg.bfs.__doc__


def test_algorithm_argument_errors():
    g, _ = bundled("karate.mtx.gz")
    with pytest.raises(ValueError, match="source 34 is not a vertex id"):
        wg.bfs(g, 34)
    with pytest.raises(ValueError, match="source -1"):
        wg.sssp(g, -1)
    with pytest.raises(ValueError, match=r"damping must be in \[0, 1\]"):
        wg.pagerank(g, damping=2)
    with pytest.raises(ValueError, match="max_iterations must be an integer"):
        wg.pagerank(g, max_iterations=0.5)
    with pytest.raises(ValueError, match="no option 'alpha'.*damping"):
        wg.run("pagerank", g, alpha=0.5)
    with pytest.raises(ValueError, match="no algorithm 'louvain'"):
        wg.run("louvain", g)
    with pytest.raises(ValueError, match="needs a source"):
        wg.run("bfs", g)
    with pytest.raises(TypeError, match="from_networkx"):
        wg.triangle_count(nx.karate_club_graph())


def test_empty_graph():
    g = wg.Graph()
    assert g.num_vertices == 0 and g.num_edges == 0
    assert wg.triangle_count(g) == 0
    assert wg.connected_components(g).size == 0
    assert wg.pagerank(g).size == 0
