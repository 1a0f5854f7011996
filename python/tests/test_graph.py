"""wg.Graph, wg.read, wg.from_edges, networkx conversion, errors, threads."""
import os
import subprocess
import sys
import textwrap
import threading

import networkx as nx
import numpy as np
import pytest

import warpgraph as wg
from conftest import DATA, bundled


def test_batches_account_for_every_entry():
    g = wg.Graph()
    r = g.insert_edges([0, 1, 1, 2, 3], [1, 0, 1, 3, 2])
    assert (r.applied, r.self_loops, r.duplicates, r.ignored) == (2, 1, 2, 0)
    assert g.insert_edges([0], [1]).ignored == 1
    r = g.erase_edges([0, 5], [1, 6])
    assert r.applied == 1 and r.ignored == 1
    assert g.num_edges == 1 and g.num_vertices == 4


def test_directed_graph():
    g = wg.Graph(directed=True)
    g.insert_edges([0, 1], [1, 0])
    assert g.num_edges == 2 and g.directed
    G = wg.to_networkx(g)
    assert isinstance(G, nx.DiGraph) and G.number_of_edges() == 2
    with pytest.raises(ValueError, match="triangle counting needs an undirected graph"):
        wg.triangle_count(g)
    with pytest.raises(ValueError, match="needs an undirected graph"):
        wg.Dynamic(g, ["lcc"])
    assert g._g.tracked == 0


def test_weighted_graph_defaults_and_updates():
    g = wg.Graph(weighted=True)
    g.insert_edges([0, 1], [1, 2])  # no weights: 1 each
    assert g.edges()[2].tolist() == [1.0, 1.0]
    r = g.insert_edges([0], [1], [0.5])  # present: the weight is replaced, counted as ignored
    assert r.ignored == 1 and g.edges()[2].tolist() == [0.5, 1.0]
    assert wg.sssp(g, 0).tolist() == [0.0, 0.5, 1.5]


def test_vertices_erase_and_reuse():
    g = wg.from_edges([0, 1, 2, 3], [1, 2, 3, 0])
    r = g.erase_vertices(1)
    assert r.vertices == 1 and r.edges_removed == 2
    assert not g.is_vertex(1) and g.num_live_vertices == 3 and len(g) == 3
    assert g.vertices().tolist() == [0, 2, 3]
    assert g.insert_vertices(2).tolist() == [1, 4]
    with pytest.raises(ValueError, match="count must be >= 0"):
        g.insert_vertices(-1)


def test_read_formats_and_errors(tmp_path):
    g = wg.read(DATA / "karate.mtx.gz")
    assert (g.num_vertices, g.num_edges) == (34, 78)
    snap = tmp_path / "g.txt"
    snap.write_text("# comment\n10 20\n20 30\n30 10\n")
    g = wg.read(snap, compact_ids=True)
    assert g.num_vertices == 3 and g.labels.tolist() == [10, 20, 30]
    assert wg.triangle_count(g) == 1
    assert set(wg.to_networkx(g).nodes()) == {10, 20, 30}
    d = wg.read(snap, directed=True)
    assert d.directed and d.num_edges == 3
    bad = tmp_path / "bad.txt"
    bad.write_text("0 1\n1 x\n")
    with pytest.raises(ValueError, match=r"bad.txt:2: "):
        wg.read(bad)
    with pytest.raises(FileNotFoundError):
        wg.read(tmp_path / "missing.mtx")
    with pytest.raises(ValueError, match="format must be"):
        wg.read(snap, format="csv2")


def test_backends():
    assert wg.Graph(backend="cpu").backend == "cpu"
    assert wg.Graph().backend == ("gpu" if wg.has_gpu else "cpu")
    if not wg.has_gpu:
        with pytest.raises(ValueError, match="no GPU backend"):
            wg.Graph(backend="gpu")
    with pytest.raises(ValueError, match="backend must be one of"):
        wg.Graph(backend="tpu")


def test_networkx_round_trip():
    G = nx.karate_club_graph()
    g = wg.from_networkx(G)
    assert g.num_edges == G.number_of_edges() and g.labels is None
    H = wg.to_networkx(g)
    assert nx.utils.graphs_equal(nx.Graph(G.edges()), nx.Graph(H.edges()))
    S = nx.Graph([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])
    s = wg.from_networkx(S)
    assert s.labels == ["a", "b", "c", "d"] and wg.triangle_count(s) == 1
    assert set(wg.to_networkx(s).edges()) == {tuple(e) for e in S.edges()} or \
        nx.utils.edges_equal(wg.to_networkx(s).edges(), S.edges())
    W = nx.Graph()
    W.add_edge(0, 1, weight=2.5)
    W.add_edge(1, 2)
    w = wg.from_networkx(W, weight="weight")
    assert w.edges()[2].tolist() == [2.5, 1.0]
    assert wg.to_networkx(w)[0][1]["weight"] == 2.5


def test_memory_error_for_an_id_range_that_does_not_fit():
    # Under a 2 GB address-space limit an id of 2^30 needs far more than the budget: a
    # MemoryError naming the range, and the process lives on.
    code = textwrap.dedent("""
        import resource, warpgraph as wg
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
        g = wg.Graph()
        try:
            g.insert_edges([0], [1 << 30])
        except MemoryError as e:
            print("MemoryError:", e)
        print(g.num_vertices)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ), timeout=120)
    assert "MemoryError: wg.Graph vertex ids: out of capacity" in out.stdout, out.stderr
    assert "the id range would hold 1073741825 ids" in out.stdout
    assert out.stdout.strip().endswith("0")


def test_threads_serialised():
    g = wg.Graph()
    n = 4000

    def worker(k):
        ids = np.arange(k, n, 4)
        g.insert_edges(ids, ids + 1)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert g.num_edges == n and wg.connected_components(g).max() == 0


def test_readme_example_runs():
    here = os.path.dirname(__file__)
    text = open(os.path.join(here, "..", "README.md")).read()
    block = text.split("## Streaming")[1].split("```python")[1].split("```")[0]
    root = os.path.abspath(os.path.join(here, "..", ".."))
    out = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True, cwd=root,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len([l for l in lines if "triangles" in l]) == 8
    assert lines[7].endswith("1612010 triangles, 1 components")
