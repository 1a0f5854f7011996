#!/usr/bin/env python3
"""Compares the JSON records of two source trees' benchmark runs (tools/bench/ab_trees.sh): for
every table, the B/A speed ratio of each row (rates: B / A; times: A / B; so > 1 means tree B is
faster), the median over rounds first, then the table's harmonic mean of its rows' ratios.

    python3 tools/bench/ab_compare.py DIR [--tolerance 0.05]

DIR holds NAME_A_rR.json and NAME_B_rR.json (NAME: the benchmark, R: the round). A record's
identity is its fields that are not measurements (graph, batch, structure, ...); its
measurements are the fields named like rates (rate*, value, *_per_s) or times (ms, *_ms,
seconds, *_seconds, median_s). Exits 1 when a table's ratio is below 1 - tolerance.
"""
import argparse
import collections
import glob
import json
import os
import re
import statistics
import sys

RATE = re.compile(r"^(rate.*|value|.*_per_s)$")
TIME = re.compile(r"^(ms|.*_ms|seconds|.*_seconds|median_s)$")
# Fields that vary from run to run without naming the row.
NOISE = {"reps", "min_s", "max_s", "speedup", "changed", "recomputed_runs", "iterations",
         "converged", "gpu", "paper", "target", "peer_h200_mops", "paper_mops",
         "memory_bytes_before", "memory_bytes_after", "overflow_slabs_before",
         "overflow_slabs_after", "btree_bytes_per_arc", "slab_bytes_per_arc"}
TABLE_KEYS = ("bench", "figure", "section", "algorithm", "stream", "structure", "table", "op",
              "case", "adjacency")


def load(path):
    with open(path) as f:
        data = json.load(f)
    if isinstance(data, dict):
        data = [r for v in data.values() if isinstance(v, list) for r in v]
    return [r for r in data if isinstance(r, dict)]


def split(record):
    ident, metrics = [], {}
    for k, v in sorted(record.items()):
        if k in NOISE:
            continue
        if isinstance(v, (int, float)) and not isinstance(v, bool) and (RATE.match(k) or
                                                                        TIME.match(k)):
            if v > 0:
                metrics[k] = float(v)
        elif isinstance(v, (str, bool, int)):
            ident.append((k, v))
    return tuple(ident), metrics


def table_of(ident):
    d = dict(ident)
    return " / ".join(str(d[k]) for k in TABLE_KEYS if k in d) or "rows"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--tolerance", type=float, default=0.05)
    args = ap.parse_args()
    # runs[name][side][ident][metric] = [value per round]
    runs = collections.defaultdict(lambda: {"A": collections.defaultdict(
        lambda: collections.defaultdict(list)), "B": collections.defaultdict(
            lambda: collections.defaultdict(list))})
    for path in glob.glob(os.path.join(args.dir, "*_[AB]_r*.json")):
        m = re.match(r"(.*)_([AB])_r\d+\.json$", os.path.basename(path))
        try:
            records = load(path)
        except (OSError, ValueError) as e:
            print(f"{path}: unreadable ({e})", file=sys.stderr)
            continue
        for r in records:
            ident, metrics = split(r)
            for k, v in metrics.items():
                runs[m.group(1)][m.group(2)][ident][k].append(v)
    worst, lines = None, []
    for name in sorted(runs):
        tables = collections.defaultdict(list)
        a, b = runs[name]["A"], runs[name]["B"]
        for ident in a.keys() & b.keys():
            for metric in a[ident].keys() & b[ident].keys():
                va, vb = statistics.median(a[ident][metric]), statistics.median(b[ident][metric])
                ratio = vb / va if RATE.match(metric) else va / vb
                tables[(table_of(ident), metric)].append(ratio)
        for (table, metric), ratios in sorted(tables.items()):
            hmean = len(ratios) / sum(1 / r for r in ratios)
            flag = "  <-- slower" if hmean < 1 - args.tolerance else ""
            lines.append(f"{name:14s} {table[:70]:70s} {metric:18s} {len(ratios):4d} rows  "
                         f"B/A {hmean:6.3f}{flag}")
            worst = hmean if worst is None else min(worst, hmean)
    print("\n".join(lines) if lines else "no matching records")
    if worst is not None:
        print(f"worst table B/A: {worst:.3f} (tolerance {args.tolerance})")
    return 1 if worst is not None and worst < 1 - args.tolerance else 0


if __name__ == "__main__":
    sys.exit(main())
