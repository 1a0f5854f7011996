#!/usr/bin/python3
"""Plots of the benchmarks whose JSON records are tables rather than plot.py series:
btree_bench (beside GpuBTree and the paper), stream_bench (host ingest against its bounds),
traversal_bench and global_bench (static time beside Gunrock, dynamic update against recompute).

    /usr/bin/python3 tools/bench/plot_tables.py btree   tools/bench/btree/results/btree_h200.json OUT/
    /usr/bin/python3 tools/bench/plot_tables.py stream  tools/bench/stream/results/stream_h200.json OUT/
    /usr/bin/python3 tools/bench/plot_tables.py --gunrock FILE static STATIC_JSON... OUT/
    /usr/bin/python3 tools/bench/plot_tables.py dynamic DYNAMIC_JSON... OUT/
"""
import argparse
import collections
import json
import os
import re


def load(paths):
    out = []
    for p in paths:
        with open(p) as f:
            out += json.load(f)
    return out


def save(plt, fig, out, name):
    os.makedirs(out, exist_ok=True)
    fig.tight_layout()
    fig.savefig(os.path.join(out, re.sub(r"[^A-Za-z0-9_.=-]+", "_", name) + ".png"), dpi=110)
    plt.close(fig)


def btree(plt, recs, out):
    """One panel per operation: our rate per tree size, the peer's and the paper's."""
    ops = collections.OrderedDict()
    for r in recs:
        if r.get("batch", 0):
            continue
        ops.setdefault(r["bench"], []).append(r)
    fig, axes = plt.subplots(1, len(ops), figsize=(3.2 * len(ops), 3.4), squeeze=False)
    for ax, (op, rows) in zip(axes[0], ops.items()):
        rows.sort(key=lambda r: r["n"])
        xs = [r["n"].bit_length() - 1 for r in rows]
        ax.plot(xs, [r["rate"] / 1e6 for r in rows], "o-", label="warpgraph")
        peer = [(x, r["peer_h200_mops"]) for x, r in zip(xs, rows) if r.get("peer_h200_mops")]
        if peer:
            ax.plot(*zip(*peer), "s--", color="black", label="GpuBTree (same call)")
        paper = [(x, r["paper_mops"]) for x, r in zip(xs, rows) if r.get("paper_mops")]
        if paper:
            ax.plot(*zip(*paper), "^:", color="gray", label="paper (V100)")
        ax.set_title(op, fontsize=9)
        ax.set_xlabel("log2 keys in the tree")
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("M operations/s")
    axes[0][0].legend(fontsize=7)
    gpu = recs[0].get("gpu", "")
    fig.suptitle(f"GPU B-link tree against GpuBTree, {gpu}", fontsize=10)
    save(plt, fig, out, f"btree_vs_gpubtree_{gpu}")


def stream(plt, recs, out):
    """Host-batch ingest rates per batch size, beside the resident rate and the copies alone."""
    series = collections.defaultdict(dict)
    gpu = ""
    for r in recs:
        if r.get("bench") != "stream_batches":
            continue
        series[r["case"]][r["batch_log2"]] = r["rate"] / 1e9
        gpu = r.get("gpu", gpu)
    fig, ax = plt.subplots(figsize=(7, 4))
    for case, pts in sorted(series.items()):
        xs = sorted(pts)
        ax.plot(xs, [pts[x] for x in xs], "o-", label=case)
    ax.set_xlabel("log2 batch entries")
    ax.set_ylabel("G entries/s")
    ax.set_title("Host batches into the GPU graph (StreamIngest) " + gpu, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    save(plt, fig, out, "stream_ingest_rates")


def algo_gpu():
    """tools/bench/algo_gpu/plot_algorithms.py: the plots (and, run as a script, the markdown
    tables) of traversal_bench and global_bench, rows of either shape."""
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "algo_gpu"))
    import plot_algorithms
    return plot_algorithms


def static(plt, recs, gunrock, out):
    """Static algorithm times per graph (slab graph, our CSR, B-tree graph, Gunrock) and rates
    against the R-MAT scale; dynamic rows among the files are left to `dynamic`."""
    algo_gpu().plot_static(plt, recs, gunrock, out, save)


def dynamic(plt, recs, out):
    """Per algorithm: recompute / update per batch size (dynamic_speedup), and both times."""
    fig = algo_gpu().plot_dynamic(plt, recs, out, save)
    save(plt, fig, out, "dynamic_algorithms")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["btree", "stream", "static", "dynamic"])
    ap.add_argument("json", nargs="+")
    ap.add_argument("--gunrock", default="", help="gunrock_*.txt: 'ALGO ... Elapsed Time : MS' lines")
    args = ap.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    out = args.json[-1]
    recs = load(args.json[:-1])
    if args.kind == "btree":
        btree(plt, recs, out)
    elif args.kind == "stream":
        stream(plt, recs, out)
    elif args.kind == "static":
        static(plt, recs, args.gunrock, out)
    else:
        dynamic(plt, recs, out)


if __name__ == "__main__":
    main()
