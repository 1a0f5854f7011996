#!/usr/bin/env python3
"""The Python API's overhead: each registered algorithm called from Python (wg.run on the cpu
backend, result arrays included) against the compute time the CLI reports for the same
algorithm on the same file (the part after the graph build in its `time:` line), medians of
--reps runs (Python: after one warm-up; the CLI: one process a run).

    PYTHONPATH=build/python python3 tools/bench/python/overhead_vs_cli.py \\
        [--cli build/tools/cli/warpgraph] [--file datasets/data/facebook_combined.txt.gz]
"""
import argparse
import json
import re
import statistics
import subprocess
import time

import warpgraph as wg

ALGOS = {"tc": None, "cc": None, "kcore": None, "pagerank": None, "lcc": None, "bfs": 0,
         "sssp": 0}


def cli_ms(cli, name, path, source):
    cmd = [cli, name, path, "--backend", "cpu"]
    if source is not None:
        cmd += ["--source", str(source)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    m = re.search(r"graph build [\d.]+ ms, [\w-]+ ([\d.]+) ms\)", out)
    return float(m.group(1)) if m else None  # tc prints build + count as one figure


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default="build/tools/cli/warpgraph")
    ap.add_argument("--file", default="datasets/data/facebook_combined.txt.gz")
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--json")
    args = ap.parse_args()
    g = wg.read(args.file)
    rows = []
    print(f"# {args.file}: {g.num_vertices} vertices, {g.num_edges} edges")
    print(f"  {'algorithm':10s} {'CLI ms':>9s} {'Python ms':>10s} {'ratio':>7s}")
    for name, source in ALGOS.items():
        runs = [cli_ms(args.cli, name, args.file, source) for _ in range(args.reps)]
        cli = None if None in runs else statistics.median(runs)
        call = (lambda: wg.run(name, g, source)) if source is not None else (lambda: wg.run(name, g))
        call()
        times = []
        for _ in range(args.reps):
            t = time.perf_counter()
            call()
            times.append((time.perf_counter() - t) * 1e3)
        py = statistics.median(times)
        ratio = py / cli if cli else None
        rows.append({"algorithm": name, "cli_ms": cli, "python_ms": py, "ratio": ratio})
        print(f"  {name:10s} {cli if cli else float('nan'):9.3f} {py:10.3f} "
              f"{ratio if ratio else float('nan'):7.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"file": args.file, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
