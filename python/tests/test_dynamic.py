"""wg.Dynamic: every tracked result checked after every batch against a static run and networkx
on the graph as it is then."""
import math

import networkx as nx
import numpy as np
import pytest

import warpgraph as wg
from conftest import bundled, per_vertex, random_pair
from test_algorithms import nx_components, nx_pagerank

ALL_NAMES = ["tc", "cc", "pagerank", "kcore", "lcc", "bfs", "sssp"]


def check_against_networkx(t, g, G, source):
    n = g.num_vertices
    live = g.vertices()
    tri = nx.triangles(G)
    assert t.result("tc") == sum(tri.values()) // 3
    assert (t.values("tc")[live] == per_vertex(tri, n)[live]).all()
    labels = t.result("cc")
    assert (labels[live] == nx_components(G, n)[live]).all()
    assert (t.result("kcore")[live] == per_vertex(nx.core_number(G), n)[live]).all()
    np.testing.assert_allclose(t.result("lcc")[live], per_vertex(nx.clustering(G), n)[live],
                               atol=1e-12)
    if g.is_vertex(source):
        lengths = nx.single_source_shortest_path_length(G, source)
        assert (t.result("bfs")[live] == per_vertex(lengths, n, -1)[live]).all()
        assert (t.result("sssp")[live] == per_vertex(lengths, n, math.inf)[live]).all()
    pr = t.result("pagerank")
    assert abs(pr.sum() - 1) < 1e-6
    # The maintained ranks equal a static run on the graph now, within the tolerance.
    assert np.abs(pr - wg.pagerank(g)).sum() < 1e-6


def networkx_of(g):
    G = nx.Graph()
    G.add_nodes_from(range(g.num_vertices))
    src, dst = g.edges()
    G.add_edges_from(zip(src.tolist(), dst.tolist()))
    G.remove_nodes_from([v for v in range(g.num_vertices) if not g.is_vertex(v)])
    return G


@pytest.mark.parametrize("seed", range(5))
def test_random_batches_every_result(seed):
    rng = np.random.default_rng(seed)
    n = 120
    g, G = random_pair(n, 300, seed)
    source = int(rng.integers(0, n))
    t = wg.Dynamic(g, ALL_NAMES, source=source)
    check_against_networkx(t, g, G, source)
    for batch in range(1, 25):
        k = int(rng.integers(1, 40))
        src = rng.integers(0, n + 5, size=k)  # some new ids: the range grows
        dst = rng.integers(0, n + 5, size=k)
        if batch % 3 == 0:
            r = g.erase_edges(src, dst)
            kind = "erase"
            G.remove_edges_from([(u, v) for u, v in zip(src.tolist(), dst.tolist())
                                 if G.has_edge(u, v)])
        else:
            r = g.insert_edges(src, dst)
            kind = "insert"
            for u, v in zip(src.tolist(), dst.tolist()):
                if u != v:
                    G.add_edge(u, v)
            G.add_nodes_from(range(g.num_vertices))
        assert r.entries == k
        check_against_networkx(t, g, G, source)
        for name in ALL_NAMES:
            h = t.history(name)
            assert len(h) == batch and h[-1]["kind"] == kind and h[-1]["applied"] == r.applied
            assert t.statistics(name)["batches"] == batch
        assert t.history("tc")[-1]["summary"] == t.result("tc")
    t.close()


def test_vertex_erasure_followed():
    g, _ = random_pair(80, 260, 11)
    t = wg.Dynamic(g, ALL_NAMES, source=0)
    r = g.erase_vertices([3, 5, 7, 5])
    assert r.vertices == 3 and r.ignored_ids == 1
    G = networkx_of(g)
    check_against_networkx(t, g, G, 0)
    assert t.history("cc")[-1]["kind"] == "erase_vertices"
    ids = g.insert_vertices(2)
    assert sorted(ids.tolist()) == [3, 5]
    g.insert_edges(ids, [0, 1])
    check_against_networkx(t, g, networkx_of(g), 0)


def test_source_erased():
    g, _ = random_pair(30, 80, 2)
    t = wg.Dynamic(g, ["bfs"], source=4)
    g.erase_vertices([4])
    assert (t.result("bfs") == -1).all()


def test_streaming_bundled_facebook():
    g0, G = bundled("facebook_combined.txt.gz")
    src, dst = g0.edges()
    g = wg.from_edges(src, dst)
    rng = np.random.default_rng(3)
    removed = rng.permutation(len(src))[:4000]
    g.erase_edges(src[removed], dst[removed])
    t = wg.Dynamic(g, ["tc", "cc"])
    for part in np.array_split(removed, 4):
        g.insert_edges(src[part], dst[part])
        assert t.result("tc") == wg.triangle_count(g)
        assert (t.result("cc") == wg.connected_components(g)).all()
    assert t.result("tc") == sum(nx.triangles(G).values()) // 3


def test_two_dynamics_share_one_graph_and_close():
    g, _ = random_pair(50, 120, 4)
    a = wg.Dynamic(g, ["tc"])
    b = wg.Dynamic(g, [("pagerank", {"damping": 0.9, "tol": 1e-12}), "cc"])
    assert g._g.tracked == 3
    g.insert_edges([0, 1, 2], [1, 2, 0])
    assert a.result("tc") == wg.triangle_count(g)
    assert np.abs(b.result("pagerank") - wg.pagerank(g, damping=0.9, tol=1e-12)).sum() < 1e-6
    a.close()
    assert g._g.tracked == 2
    g.insert_edges([5], [6])
    assert (b.result("cc") == wg.connected_components(g)).all()
    with b:
        pass
    assert g._g.tracked == 0
    del a, b
    g.insert_edges([7], [8])  # nothing follows: no error


def test_dynamic_errors():
    g, _ = random_pair(20, 40, 1)
    with pytest.raises(ValueError, match="no algorithm 'foo'"):
        wg.Dynamic(g, ["tc", "foo"])
    assert g._g.tracked == 0  # the ones made before the error are dropped
    with pytest.raises(ValueError, match="needs a source"):
        wg.Dynamic(g, ["bfs"])
    with pytest.raises(ValueError, match="twice"):
        wg.Dynamic(g, ["cc", "components"])
    t = wg.Dynamic(g, ["cc"])
    with pytest.raises(KeyError, match="not kept"):
        t.result("tc")
    with pytest.raises(ValueError, match="cannot rebuild"):
        g._g.build(np.array([0]), np.array([1]), None, 0)
    t.close()
