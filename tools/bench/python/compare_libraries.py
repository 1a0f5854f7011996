#!/usr/bin/env python3
"""warpgraph's Python API (cpu backend) beside the Python graph libraries users pick today:
networkx, NetworKit and python-igraph, on one undirected graph, for triangle count, connected
components, core numbers and PageRank. Each library builds its own graph from the same edge
arrays once (not timed); each algorithm is timed as the wall time of the call, median of --reps
runs after one warm-up (networkx: --nx-reps runs, no warm-up: it is the slow side). The answers
are compared (triangles, component count, largest core number exactly; PageRank by L1 distance
to ours) so that a row is only kept when the libraries agree.

    PYTHONPATH=build/python python3 tools/bench/python/compare_libraries.py \\
        [--rmat-scale 16 --edge-factor 16 | --file GRAPH] [--reps 5] [--json OUT.json]

A library that is not installed gets no rows (pip install networkit igraph; networkx is a
Debian package). Threads: each library's default (NetworKit uses all cores, igraph one).
"""
import argparse
import json
import os
import platform
import statistics
import sys
import time

import numpy as np

import warpgraph as wg


def rmat_edges(scale, edge_factor, seed=1, a=0.57, b=0.19, c=0.19):
    """R-MAT edges (Graph500 parameters), undirected, deduplicated, no self-loops."""
    rng = np.random.default_rng(seed)
    m = edge_factor << scale
    src = np.zeros(m, dtype=np.int64)
    dst = np.zeros(m, dtype=np.int64)
    for bit in range(scale):
        r = rng.random(m)
        down = r >= a + b  # quadrants c, d: source bit set
        right = ((r >= a) & (r < a + b)) | (r >= a + b + c)  # quadrants b, d: target bit set
        src |= down.astype(np.int64) << bit
        dst |= right.astype(np.int64) << bit
    perm = rng.permutation(1 << scale)  # ids permuted, as the benchmarks' R-MAT graphs
    src, dst = perm[src], perm[dst]
    keep = src != dst
    lo = np.minimum(src[keep], dst[keep])
    hi = np.maximum(src[keep], dst[keep])
    key = np.unique(lo * (1 << scale) + hi)
    return (key >> scale).astype(np.uint32), (key & ((1 << scale) - 1)).astype(np.uint32), 1 << scale


def timed(call, reps, warm):
    if warm:
        call()
    times, out = [], None
    for _ in range(reps):
        t = time.perf_counter()
        out = call()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def ours(src, dst, n):
    g = wg.from_edges(src, dst, num_vertices=n)
    return {
        "tc": lambda: int(wg.triangle_count(g)),
        "cc": lambda: int(len(np.unique(wg.connected_components(g)))),
        "kcore": lambda: wg.core_numbers(g),
        "pagerank": lambda: np.asarray(wg.pagerank(g, damping=0.85, tol=1e-10)),
    }


def networkx_calls(src, dst, n):
    import networkx as nx
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from(zip(src.tolist(), dst.tolist()))
    return {
        "tc": lambda: sum(nx.triangles(g).values()) // 3,
        "cc": lambda: nx.number_connected_components(g),
        "kcore": lambda: np.array([c for _, c in sorted(nx.core_number(g).items())]),
        "pagerank": lambda: np.array([p for _, p in sorted(
            nx.pagerank(g, alpha=0.85, tol=1e-10 / n).items())]),
    }


def networkit_calls(src, dst, n):
    import networkit as nk
    g = nk.Graph(n)
    for u, v in zip(src.tolist(), dst.tolist()):
        g.addEdge(u, v)
    g.indexEdges()

    def tc():
        t = nk.sparsification.TriangleEdgeScore(g)
        t.run()
        return int(sum(t.scores())) // 3

    def cc():
        c = nk.components.ConnectedComponents(g)
        c.run()
        return c.numberOfComponents()

    def kcore():
        c = nk.centrality.CoreDecomposition(g)
        c.run()
        return np.array(c.scores(), dtype=np.int64)

    def pagerank():
        p = nk.centrality.PageRank(g, damp=0.85, tol=1e-10)
        p.norm = nk.centrality.Norm.L1_NORM
        p.run()
        s = np.array(p.scores())
        return s / s.sum()

    return {"tc": tc, "cc": cc, "kcore": kcore, "pagerank": pagerank}


def igraph_calls(src, dst, n):
    import igraph as ig
    g = ig.Graph(n=n, edges=np.column_stack([src, dst]).tolist(), directed=False)
    return {
        "tc": lambda: len(g.list_triangles()),
        "cc": lambda: len(g.connected_components()),
        "kcore": lambda: np.array(g.coreness(), dtype=np.int64),
        "pagerank": lambda: np.array(g.pagerank(damping=0.85)),
    }


def agree(algo, want, got):
    if algo in ("tc", "cc"):
        return int(want) == int(got), None
    if algo == "kcore":
        ok = np.array_equal(np.asarray(want, dtype=np.int64), np.asarray(got, dtype=np.int64))
        return ok, None
    l1 = float(np.abs(np.asarray(want) - np.asarray(got)).sum())
    return l1 < 1e-6, l1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rmat-scale", type=int, default=16)
    ap.add_argument("--edge-factor", type=int, default=16)
    ap.add_argument("--file", help="a Matrix Market / SNAP file instead of R-MAT")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--nx-reps", type=int, default=1)
    ap.add_argument("--algos", default="tc,cc,kcore,pagerank")
    ap.add_argument("--libraries", default="warpgraph,networkx,networkit,igraph")
    ap.add_argument("--json")
    args = ap.parse_args()

    if args.file:
        e = wg.read(args.file).edges()
        src, dst = np.asarray(e[0], dtype=np.uint32), np.asarray(e[1], dtype=np.uint32)
        n = int(max(src.max(), dst.max())) + 1
        name = os.path.basename(args.file)
    else:
        src, dst, n = rmat_edges(args.rmat_scale, args.edge_factor)
        name = f"rmat{args.rmat_scale}_ef{args.edge_factor}"
    print(f"# {name}: {n} vertices, {len(src)} edges; {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores", flush=True)
    makers = {"warpgraph": ours, "networkx": networkx_calls, "networkit": networkit_calls,
              "igraph": igraph_calls}
    algos = args.algos.split(",")
    rows, answers = [], {}
    for lib in args.libraries.split(","):
        try:
            t = time.perf_counter()
            calls = makers[lib](src, dst, n)
            build_s = time.perf_counter() - t
        except ImportError as err:
            print(f"# {lib}: not installed ({err})")
            continue
        version = wg.__version__ if lib == "warpgraph" else sys.modules[lib].__version__
        for algo in algos:
            slow = lib == "networkx"
            sec, out = timed(calls[algo], args.nx_reps if slow else args.reps, warm=not slow)
            ok, l1 = (True, None) if lib == "warpgraph" else agree(algo, answers[algo], out)
            if lib == "warpgraph":
                answers[algo] = out
            rows.append({"graph": name, "vertices": n, "edges": int(len(src)), "library": lib,
                         "version": version, "algorithm": algo, "seconds": sec,
                         "graph_build_seconds": build_s, "agrees": bool(ok), "pagerank_l1": l1})
            print(f"  {lib:10s} {algo:9s} {sec * 1e3:10.1f} ms  {'' if ok else 'DISAGREES'}"
                  f"{'' if l1 is None else f'  L1 {l1:.1e}'}", flush=True)
    base = {(r["algorithm"]): r["seconds"] for r in rows if r["library"] == "warpgraph"}
    for r in rows:
        r["warpgraph_speedup"] = r["seconds"] / base[r["algorithm"]]
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": {"cores": os.cpu_count(), "python": platform.python_version()},
                       "rows": rows}, f, indent=1)
    print("\nspeedup of warpgraph (their time / ours):")
    for algo in algos:
        print(f"  {algo:9s} " + "  ".join(f"{r['library']} x{r['warpgraph_speedup']:.1f}"
                                         for r in rows
                                         if r["algorithm"] == algo and r["library"] != "warpgraph"))


if __name__ == "__main__":
    main()
